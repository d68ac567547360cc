"""The demo with a simulated previous gaming day, committed, for the tests that walk every
page and every API answer of a seeded day (issue 22): one way to seed it and to empty the
database after, so each walker's module fixture says only what it adds."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.test import override_settings

from tests.conftest import gaming_day_start_far_from_now, suspended_append_only_triggers

DEMO = "PA-DEMO-0001"


def empty_database() -> None:
    from django.db import connection

    connection.close()
    with suspended_append_only_triggers():
        call_command("flush", interactive=False, verbosity=0)


@contextmanager
def demo_day(var_dir: Path, *, commands: tuple[str, ...], deals: int
             ) -> Iterator[tuple[Any, date, str]]:
    """The demo seeded by ``commands`` and yesterday played with ``deals`` rounds and
    hands per table: ``(property, the simulated day, what simulate_gaming_day printed)``.
    The gaming day starts twelve hours from now, so "today" and the simulated "yesterday"
    stay so for the whole walk; the committed rows are flushed afterwards, even when
    seeding fails. Call with the database unblocked."""
    from django.conf import settings

    from casino.models import Property
    from finance.simulation import current_day

    start_hour = gaming_day_start_far_from_now(settings.PROPERTY_TIME_ZONE)
    with override_settings(GAMING_DAY_START_HOUR=start_hour):
        empty_database()
        try:
            out = io.StringIO()
            with override_settings(VAR_DIR=var_dir):
                for command in commands:
                    call_command(command, stdout=io.StringIO())
                prop = Property.objects.get(licence_number=DEMO)
                assert prop.gaming_day_start_hour == start_hour
                day = current_day(prop) - timedelta(days=1)
                call_command("simulate_gaming_day", "--day", day.isoformat(),
                             "--rounds", str(deals), "--hands", str(deals), "--no-progress",
                             stdout=out)
            yield prop, day, out.getvalue()
        finally:
            empty_database()
