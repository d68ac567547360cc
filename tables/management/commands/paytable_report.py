"""``manage.py paytable_report``: return to player, house edge and hit frequency of the
banked-game paytables (589.12, 671a.12, 579.12).

Paytables judged on one five-card hand are computed exactly by enumerating all 2,598,960
hands; wagers that depend on the dealer's hand are simulated (``--seed``, ``--rounds``)
with a 95 % confidence interval. See :mod:`tables.domain.paytable_math`.

Percentages are written as the Rules Submission's page writes a house edge
(:func:`tables.domain.paytable_edges.percent`), and a paytable that pays back more than is
wagered on it is flagged "negative house edge", as the approver sees it there.

Options: ``--table NAME`` (one paytable or simulation; ``--list`` shows the names),
``--json``, ``--seed N``, ``--rounds N``, ``--no-progress``. A bad option stops with
``code: message``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.domain.errors import DomainError
from tables.domain.paytable_edges import percent
from tables.domain.paytable_math import (
    EXACT_TABLES, SIMULATIONS, TOTAL_HANDS, ExactFigures, SimulatedFigures, exact_figures,
    simulate,
)

DEFAULT_SEED = 589671579
DEFAULT_ROUNDS = 1_000_000
MAX_ROUNDS = 100_000_000


def _int_option(raw: Any, name: str, code: str, minimum: int, maximum: int) -> int:
    try:
        value = int(str(raw).replace("_", ""), 10)
    except ValueError:
        raise CommandError(f"{code}: --{name} must be a whole number, not '{raw}'") from None
    if not minimum <= value <= maximum:
        raise CommandError(f"{code}: --{name} must be between {minimum:,} and {maximum:,}, "
                           f"not {value:,}")
    return value


def _frac(f: Fraction | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {"fraction": f"{f.numerator}/{f.denominator}", "value": float(f)}


def _percent(f: Fraction | float | None) -> str:
    """A figure in the one format of a house edge; "-" where the table has none."""
    return "-" if f is None else percent(f)


def _flag(house_edge: Fraction | float | None) -> str:
    """The approver's flag (601a.2): the wager pays back more than is wagered on it."""
    return "negative house edge" if house_edge is not None and house_edge < 0 else ""


class Command(BaseCommand):
    help = ("Exact RTP / house edge / hit frequency of the Lunar Poker and Five Card Hi-Lo "
            "paytables, and simulated figures for the dealer-dependent wagers.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", metavar="NAME",
                            help="report only this paytable or simulation (see --list)")
        parser.add_argument("--list", action="store_true", help="list the report names")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument("--seed", default=str(DEFAULT_SEED),
                            help=f"simulation seed (default {DEFAULT_SEED})")
        parser.add_argument("--rounds", default=str(DEFAULT_ROUNDS),
                            help=f"simulated rounds per wager (default {DEFAULT_ROUNDS:,})")
        parser.add_argument("--no-progress", action="store_true",
                            help="no progress bars on stderr")

    def handle(self, *args: Any, **options: Any) -> None:
        seed = _int_option(options["seed"], "seed", "invalid_seed", 0, 2**63 - 1)
        rounds = _int_option(options["rounds"], "rounds", "invalid_rounds", 2, MAX_ROUNDS)
        names_exact = list(EXACT_TABLES)
        names_sim = list(SIMULATIONS)
        if options["list"]:
            for n in names_exact:
                self.stdout.write(f"{n}\texact")
            for n in names_sim:
                self.stdout.write(f"{n}\tsimulated")
            return
        table = options.get("table")
        if table is not None:
            if table in names_exact:
                names_exact, names_sim = [table], []
            elif table in names_sim:
                names_exact, names_sim = [], [table]
            else:
                raise CommandError(
                    f"unknown_paytable: no report '{table}'; choose one of "
                    f"{', '.join(list(EXACT_TABLES) + list(SIMULATIONS))}")
        progress = not options["no_progress"]
        try:
            exact = [exact_figures(n, progress=progress) for n in names_exact]
            sims = [simulate(n, rounds=rounds, seed=seed, progress=progress)
                    for n in names_sim]
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        if options["json"]:
            self.stdout.write(json.dumps({
                "total_hands": TOTAL_HANDS,
                "exact": [_exact_json(f) for f in exact],
                "simulated": [_sim_json(s) for s in sims],
            }, indent=2))
            return
        self._human(exact, sims, detail=table is not None)

    def _human(self, exact: list[ExactFigures], sims: list[SimulatedFigures], *,
               detail: bool) -> None:
        w = self.stdout.write
        if exact:
            w(f"Exact, all {TOTAL_HANDS:,} five-card hands")
            w(f"{'table':<20} {'section':<11} {'hit freq':>10} {'1 in':>9} {'RTP':>10} "
              f"{'house edge':>11} {'bonus/Ante':>11} {'secs':>5}  flag")
            for f in exact:
                one_in = f"{float(1 / f.hit_frequency):,.1f}" if f.hit_frequency else "-"
                w(f"{f.table:<20} {f.section:<11} {_percent(f.hit_frequency):>10} "
                  f"{one_in:>9} {_percent(f.rtp):>10} {_percent(f.house_edge):>11} "
                  f"{_percent(f.bonus_per_unit):>11} {f.seconds:>5.2f}  "
                  f"{_flag(f.house_edge)}".rstrip())
                if detail:
                    w(f"  {f.title} ({f.wager}): {f.note}")
                    for line in f.lines:
                        w(f"  {line.hand.label:<24} {line.odds:>13} {line.count:>10,}")
        if sims:
            if exact:
                w("")
            w("Simulated (per unit of the initial wager; 95 % confidence interval)")
            w(f"{'wager':<15} {'rounds':>11} {'mean net':>9} {'95% CI':>21} "
              f"{'house edge':>11} {'avg staked':>10} {'elem. risk':>10} {'secs':>5}  flag")
            for s in sims:
                ci = f"[{s.ci95[0]:+.4f}, {s.ci95[1]:+.4f}]"
                w(f"{s.name:<15} {s.rounds:>11,} {float(s.mean_net):>+9.4f} {ci:>21} "
                  f"{_percent(s.house_edge):>11} {float(s.mean_wagered):>10.4f} "
                  f"{_percent(s.element_of_risk):>10} {s.seconds:>5.2f}  "
                  f"{_flag(s.house_edge)}".rstrip())
                if detail:
                    w(f"  {s.title} ({s.section}), seed {s.seed}")
                    w(f"  strategy: {s.strategy}")


def _exact_json(f: ExactFigures) -> dict[str, Any]:
    return {
        "table": f.table, "title": f.title, "section": f.section, "wager": f.wager,
        "standalone": f.standalone, "note": f.note, "total_hands": f.total_hands,
        "hit_frequency": _frac(f.hit_frequency), "rtp": _frac(f.rtp),
        "house_edge": _frac(f.house_edge), "bonus_per_unit": _frac(f.bonus_per_unit),
        "lines": [{"hand": line.hand.value, "odds": line.odds, "count": line.count}
                  for line in f.lines],
        "seconds": round(f.seconds, 3),
    }


def _sim_json(s: SimulatedFigures) -> dict[str, Any]:
    return {
        "name": s.name, "title": s.title, "section": s.section, "strategy": s.strategy,
        "rounds": s.rounds, "seed": s.seed, "mean_net": _frac(s.mean_net),
        "ci95": list(s.ci95), "house_edge": s.house_edge,
        "mean_wagered": _frac(s.mean_wagered), "element_of_risk": s.element_of_risk,
        "hit_frequency": s.hit_frequency, "seconds": round(s.seconds, 3),
    }
