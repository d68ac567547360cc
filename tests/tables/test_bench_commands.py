"""``bench_commands`` holds its figures to ratios of the same run: the in-round command
within 2x of a bare append in at most 3 round trips (issue 12), a banked round at most 3x
its commits' bare-append floor (issue 25); the absolute figures are reported beside them,
never in ``meets_targets``; bad options are refused with a reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tables.management.commands import _bench_commands_checks as checks
from tables.management.commands.bench_commands import QUIET_RUN, TARGETS


def _report(ratio: float, trips: int, cost: float | None, rounds_per_second: float = 90.0
            ) -> dict[str, Any]:
    return {
        "single_command": {"command": {"p50_ms": 2.0, "p99_ms": 5.0, "round_trips": trips},
                           "ratio_of_medians": ratio},
        "terminals": {"commands": {"per_second": 900.0, "p99_ms": 25.0}},
        "banked_rounds": {"rounds_per_second": rounds_per_second, "commits_per_round": 6.9,
                          "bare_appends_per_second": 2190.0,
                          "floor_rounds_per_second": 317.4, "round_cost_to_floor": cost}}


def test_a_round_at_most_3x_its_commits_floor_passes_and_the_absolute_rate_is_only_reported(
        ) -> None:
    report = _report(1.4, 2, 2.9)
    ok = checks.checks(report, TARGETS)
    assert ok == {"single_command_to_bare_append": True, "single_command_round_trips": True,
                  "round_cost_to_floor": True}
    quiet = checks.quiet_run_targets(report, QUIET_RUN)
    assert quiet["rounds_per_second"] == {"target": 150, "measured": 90.0, "holds": False}
    assert set(ok).isdisjoint(quiet)
    assert "Every ratio holds" in checks.note(report, ok, QUIET_RUN)


def test_issue_25s_round_cost_of_about_6_7_misses_and_the_note_names_the_floor() -> None:
    report = _report(1.4, 2, 6.7)
    ok = checks.checks(report, TARGETS)
    assert not ok["round_cost_to_floor"]
    text = checks.note(report, ok, QUIET_RUN)
    assert "round_cost_to_floor missed" in text
    assert "This run's floor: 2190 appends/s, 6.9 commits a round" in text
    # 150 rounds/s x 3 x 6.9 commits
    assert "needs a floor of 3105 appends/s" in text


def test_a_ratio_not_measured_fails_and_rows_not_run_have_no_check() -> None:
    report = _report(2.5, 4, None)
    ok = checks.checks(report, TARGETS)
    assert ok == {"single_command_to_bare_append": False,
                  "single_command_round_trips": False, "round_cost_to_floor": False}
    only_rounds = {"banked_rounds": report["banked_rounds"]}
    assert set(checks.checks(only_rounds, TARGETS)) == {"round_cost_to_floor"}
    # round trips are counted on PostgreSQL only (-1 elsewhere): no check then
    assert "single_command_round_trips" not in checks.checks(_report(1.0, -1, 2.0), TARGETS)


@pytest.mark.django_db
def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_commands", "--rounds", "0")
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_commands", "--seconds", "0")
