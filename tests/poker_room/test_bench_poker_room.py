"""``bench_poker_room`` refuses what it cannot measure with a one-line reason."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

pytestmark = pytest.mark.django_db


def test_bad_options_and_a_database_that_does_not_count_are_refused() -> None:
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_poker_room", "--tables", "0")
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_poker_room", "--seconds", "-1")
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="not_postgresql"):
            call_command("bench_poker_room")
    with pytest.raises(CommandError, match="no_property"):
        call_command("bench_poker_room", "--allow-sqlite", "--seconds", "0.1")
