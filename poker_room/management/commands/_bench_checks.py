"""What ``bench_poker_room``'s figures are held to (issue 25, "Benchmarks").

This machine is shared and its speed varies threefold between runs, so the targets that
decide ``meets_targets`` are ratios to what the same run measured: the commands a second
one command per action against the floor (bare durable appends from as many processes),
and every kind of command against a betting command. The absolute figures (hands a second,
p99 in ms) are what those ratios mean on a quiet run: reported with whether they hold,
never part of ``meets_targets``.
"""

from __future__ import annotations

import os
from typing import Any

#: the ratios that decide meets_targets (issue 25)
RATIO_TARGETS = {"commands_to_floor": 0.5, "kind_to_action": 2.0, "tables": 8}
#: on a quiet run: one command per action at 8 tables, every kind's p99 (issue 25); the
#: batched figures of issue 13, at the rate the room deals
QUIET_RUN = {"hands_per_second_single": 60, "p99_ms_every_kind": 20.0,
             "hands_per_second_batched": 60, "p99_ms_at_target_rate": 20.0}
KINDS_CHECKED = ("start", "last")  # against "action", the betting command


def kind_to_action(row: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """Each kind's p50 and p99 as a multiple of the betting command's (``action``)."""
    by = row["by_command"]
    base = by.get("action")
    out: dict[str, dict[str, float | None]] = {}
    for kind, fig in by.items():
        out[kind] = {q: round(fig[f"{q}_ms"] / base[f"{q}_ms"], 2)
                     if base and base[f"{q}_ms"] else None for q in ("p50", "p99")}
    return out


def commands_to_floor(row: dict[str, Any], floor: dict[str, Any]) -> float | None:
    return (round(row["commands_per_second"] / floor["commands_per_second"], 2)
            if floor["commands_per_second"] else None)


def checks(tables: int, single: dict[str, Any], floor: dict[str, Any]) -> dict[str, bool]:
    """The targets of the same run, one command per action: commands a second at least half
    the floor's appends, and the start and the last action within 2x of a betting command
    at p50 and at p99. A kind not measured (no hand ended) fails."""
    ratio = commands_to_floor(single, floor)
    out = {"tables": tables >= RATIO_TARGETS["tables"],
           "commands_to_floor_single": ratio is not None
           and ratio >= RATIO_TARGETS["commands_to_floor"]}
    ratios = kind_to_action(single)
    for kind in KINDS_CHECKED:
        for q in ("p50", "p99"):
            r = ratios.get(kind, {}).get(q)
            out[f"{kind}_{q}_to_action_single"] = (r is not None
                                                   and r <= RATIO_TARGETS["kind_to_action"])
    return out


def _target(measured: float | None, target: float, at_least: bool) -> dict[str, Any]:
    holds = measured is not None and (measured >= target if at_least else measured <= target)
    return {"target": target, "measured": measured, "holds": holds}


def quiet_run_targets(single: dict[str, Any], batched: dict[str, Any],
                      paced: dict[str, Any], rate: float) -> dict[str, Any]:
    """The absolute figures and whether this run reached them (not in meets_targets)."""
    q = QUIET_RUN
    out = {"hands_per_second_single": _target(single["hands_per_second"],
                                              q["hands_per_second_single"], True)}
    for kind in ("start", "action", "last"):
        fig = single["by_command"].get(kind)
        out[f"p99_ms_single_{kind}"] = _target(fig["p99_ms"] if fig else None,
                                               q["p99_ms_every_kind"], False)
    out["hands_per_second_batched"] = _target(batched["hands_per_second"],
                                              q["hands_per_second_batched"], True)
    out["target_rate_kept"] = _target(paced["hands_per_second"], round(0.95 * rate, 1), True)
    out["p99_ms_at_target_rate"] = _target(paced["p99_ms"], q["p99_ms_at_target_rate"],
                                           False)
    return out


def floor_needed(single: dict[str, Any]) -> float | None:
    """The bare appends a second a run's floor must reach for the ratio target to mean the
    quiet-run rate: 60 hands/s x the commands a hand / 0.5."""
    per_hand = single.get("commands_per_hand")
    if not per_hand:
        return None
    return round(QUIET_RUN["hands_per_second_single"] * per_hand
                 / RATIO_TARGETS["commands_to_floor"])


def note(single: dict[str, Any], floor: dict[str, Any], ok: dict[str, bool]) -> str:
    """What a miss means, with the floor this run measured."""
    needed = floor_needed(single)
    text = ("Targets are ratios to this run's floor (bare appends from as many processes): "
            "the shared machine's speed varies threefold between runs, so absolute figures "
            "(quiet_run_targets) are reported but not in meets_targets. "
            f"This run's floor: {floor['commands_per_second']:g} appends/s")
    if needed:
        text += (f"; 60 hands/s one command per action at the 0.5 ratio needs a floor of "
                 f"{needed:g}/s")
    text += ". "
    if not ok.get("commands_to_floor_single", True):
        text += ("commands_to_floor_single missed: a command costs more than twice a bare "
                 "append measured on the same machine under the same load, so the command "
                 "path's own work is the cost, not the machine's speed (a load of other "
                 "work on the cores, machine.load_average, weighs more on the command's "
                 "CPU than on the append's commit). ")
    missed = [k for k, v in ok.items() if not v and k.endswith("_to_action_single")]
    if missed:
        text += (f"{', '.join(missed)} missed: that kind does work a betting command does "
                 "not (both measured in the same row, at the same moment). ")
    if all(ok.values()):
        text += ("Every ratio holds; a quiet-run target missed here is the floor's speed "
                 "in this run, not the command path.")
    return text.strip()


def machine(load_at_start: float) -> dict[str, Any]:
    """The cores and the load on them (1-minute average) as the run started and ended:
    what the figures were measured against, on a machine others share."""
    return {"cores": os.cpu_count(),
            "load_average": {"start": round(load_at_start, 2),
                             "end": round(os.getloadavg()[0], 2)}}

