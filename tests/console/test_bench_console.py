"""``bench_console`` on a tiny day (4 tables: Hi-Lo, Lunar 589, Lunar 671a, Hold'em; about
2,000 events) on PostgreSQL: it refuses what it cannot measure in one line, prints its
figures as JSON, every role's home and fragment and every floor reader's poker floor
answered 200, and a second run finds the day again instead of making it."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from casino.roles import Role
from poker_room.console_floor import FLOOR_ROLES

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.slow]

TINY = ["--tables", "4", "--events", "2000", "--templates", "1", "--no-progress"]


def _bench(*more: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("bench_console", *TINY, *more, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def test_bad_options_are_refused_with_a_one_line_reason() -> None:
    for bad in (["--tables", "3"], ["--events", "10"], ["--repeat", "0"],
                ["--day", "2025-13-01"], ["--day", "2999-01-01"]):
        with pytest.raises(CommandError, match="invalid_option") as refused:
            call_command("bench_console", *bad)
        assert "\n" not in str(refused.value)


def test_a_tiny_day_times_every_role_page_against_the_floor() -> None:
    report = _bench("--repeat", "3")
    assert report["benchmark"] == "bench_console" and report["database"] == "postgresql"
    assert (report["tables"], report["tables_by_kind"]) == (4, {"banked": 3, "poker": 1})
    assert report["generated"] is True and report["repeat"] == 3
    every_role = {r.value for r in Role}
    assert set(report["pages"]) == {"home", "waiting", "poker_floor"}
    assert set(report["pages"]["home"]) == set(report["pages"]["waiting"]) == every_role
    # the floor only for the roles that read it (a cashier is refused it: not timed)
    assert set(report["pages"]["poker_floor"]) == {str(r) for r in FLOOR_ROLES}
    for page, by_role in report["pages"].items():
        for role, fig in by_role.items():
            assert fig["status"] == 200, (page, role)
            assert 0 < fig["p50_ms"] <= fig["p95_ms"] <= fig["max_ms"], (page, role)
            assert fig["queries"] > 0 and set(fig["to_floor"]) == {"p50", "p95"}
    for fig in report["pages"]["poker_floor"].values():
        assert fig["poker_tables_shown"] == 1  # the one Hold'em table of 4
    # the day's decks are in play since June 2025: every deck change is overdue, and a
    # floorperson is asked for each of the 4 tables' decks
    floor = report["pages"]["home"]["floorperson"]
    assert floor["waiting_by_list"].get("deck_changes_due", 0) >= 4
    assert floor["waiting_items"] == sum(floor["waiting_by_list"].values())
    # the floor: the login page through the same clients, 3 rounds × 9 people
    assert report["floor"]["path"] == "/console/login/"
    assert report["floor"]["status"] == 200 and report["floor"]["samples"] == 3 * 9
    assert report["target"]["p95_ms"] == 100.0
    assert set(report["checks"]) == {f"{page}_{role}" for page, by in report["pages"].items()
                                     for role in by}
    assert report["all_answered_200"] is True
    assert report["meets_targets"] == all(report["checks"].values())
    assert len(report["verdict"]) == len(report["checks"]) + 1

    again = _bench("--repeat", "1")
    assert again["generated"] is False and again["property"] == report["property"]
    assert again["pages"]["home"]["floorperson"]["waiting_items"] == floor["waiting_items"]
