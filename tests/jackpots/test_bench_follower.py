"""``bench_jackpot_follower``: refuses what it cannot measure; a small run applies every
contribution it appended, once (§ 637a.15(e), § 637a.16(e))."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from jackpots.models import Fund

pytestmark = pytest.mark.django_db


def test_bad_options_are_refused_with_a_one_line_reason() -> None:
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_jackpot_follower", "--contributions", "0")
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_jackpot_follower", "--batch", "0")
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="not_postgresql"):
            call_command("bench_jackpot_follower")
    with pytest.raises(CommandError, match="no_property"):
        call_command("bench_jackpot_follower", "--allow-sqlite", "--contributions", "10")


def test_a_small_run_applies_every_contribution_once(demo_property) -> None:  # noqa: ANN001
    out = io.StringIO()
    call_command("bench_jackpot_follower", "--allow-sqlite", "--contributions", "250",
                 "--batch", "100", stdout=out, stderr=io.StringIO())
    report = json.loads(out.getvalue())
    assert report["applied"] == 250
    assert report["follower"]["contributions_per_second"] > 0
    # 250 contributions of $1, alternating between the two scratch funds
    assert {f.name: f.contributions_cents for f in Fund.objects.all()} == {
        "bench-high-hand": 12_500, "bench-bad-beat": 12_500}
