"""What ``bench_commands``' figures are held to: ratios to the floor of the same run decide
``meets_targets`` (this shared machine's speed varies threefold between runs); the
absolute figures are what they mean on a quiet run, reported with whether they hold."""

from __future__ import annotations

from typing import Any


def checks(report: dict[str, Any], targets: dict[str, float]) -> dict[str, bool]:
    """One per ratio target of the rows this run measured: the in-round command against a
    bare append (median) and its round trips (issue 12), a banked round's cost against its
    commits' floor (issue 25). A ratio that could not be measured fails."""
    out: dict[str, bool] = {}
    single = report.get("single_command")
    if single:
        out["single_command_to_bare_append"] = (single["ratio_of_medians"]
                                                <= targets["ratio_to_bare_append"])
        trips = single["command"]["round_trips"]
        if trips >= 0:  # counted on PostgreSQL only (libpq's trace)
            out["single_command_round_trips"] = trips <= targets["round_trips"]
    rounds = report.get("banked_rounds")
    if rounds:
        cost = rounds["round_cost_to_floor"]
        out["round_cost_to_floor"] = cost is not None and cost <= targets["round_cost_to_floor"]
    return out


def _target(measured: float | None, target: float, at_least: bool) -> dict[str, Any]:
    holds = measured is not None and (measured >= target if at_least else measured <= target)
    return {"target": target, "measured": measured, "holds": holds}


def quiet_run_targets(report: dict[str, Any], quiet: dict[str, float]) -> dict[str, Any]:
    """The absolute figures of the rows this run measured, not part of meets_targets."""
    out: dict[str, Any] = {}
    term = report.get("terminals")
    if term:
        out["terminals_commands_per_second"] = _target(
            term["commands"]["per_second"], quiet["commands_per_second"], True)
        out["terminals_p99_ms"] = _target(term["commands"]["p99_ms"], quiet["p99_ms"], False)
    rounds = report.get("banked_rounds")
    if rounds:
        out["rounds_per_second"] = _target(rounds["rounds_per_second"],
                                           quiet["rounds_per_second"], True)
    return out


def note(report: dict[str, Any], ok: dict[str, bool], quiet: dict[str, float]) -> str:
    """What a miss means, with the floor this run measured."""
    text = ("Targets are ratios to this run's floor (bare durable appends, measured in the "
            "same run): the shared machine's speed varies threefold between runs, so the "
            "absolute figures (quiet_run_targets) are reported but not in meets_targets. ")
    rounds = report.get("banked_rounds")
    if rounds and rounds.get("floor_rounds_per_second"):
        text += (f"This run's floor: {rounds['bare_appends_per_second']:g} appends/s, "
                 f"{rounds['commits_per_round']:g} commits a round, so at most "
                 f"{rounds['floor_rounds_per_second']:g} rounds/s; "
                 f"{quiet['rounds_per_second']:g} rounds/s at the 3x ratio needs a floor of "
                 f"{round(quiet['rounds_per_second'] * 3 * rounds['commits_per_round']):g} "
                 "appends/s. ")
    if not ok.get("round_cost_to_floor", True):
        text += ("round_cost_to_floor missed: a round costs more than 3x the durable commits "
                 "it makes, measured on the same machine under the same load, so the work "
                 "between the commits (reads, locks, the domain) is the cost, not the "
                 "machine's speed (a load of other work on the cores, machine.load_average, "
                 "weighs more on that CPU work than on the commits). ")
    if not ok.get("single_command_to_bare_append", True):
        text += ("single_command_to_bare_append missed: the in-round command costs more than "
                 "twice a bare append timed beside it. ")
    if ok and all(ok.values()):
        text += ("Every ratio holds; a quiet-run target missed here is the floor's speed in "
                 "this run, not the command path.")
    return text.strip()
