"""The expected band of a house-banked table's gaming day, read from the table results
(``tables.models.TableResult``, a projection of ``RoundClosed``) and the Rules Submissions
the day's rounds were played under. The arithmetic is :mod:`finance.domain.hold_band`.

Only wagers with exact paytable math are covered: the Super Wager (589.12(b), 671a.12(b))
and the Poker Bonus Wager (579.12(d)). The Ante, Bet, Play and fees, and the Tie Wager,
depend on decisions or the dealer's hand and are listed as ``without_figures``; the band
says nothing about them.

Exact figures enumerate all 2,598,960 five-card hands (``tables.domain.paytable_math``,
numpy): about 2.5 s for the first paytable in a process (building and evaluating the hands,
which that module keeps with ``functools.cache``) and 0.05-0.3 s for each further one. Nothing
in the repository stores them, so :func:`unit_for` keeps each paytable's per-unit figures
in-process (``functools.lru_cache``): a worker pays once per paytable.

Reads only; nothing is written (DESIGN §2).
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from casino.eventstore.digests import gaming_day_end
from finance.domain.hold_band import (
    DEFAULT_Z,
    KEPT_UNITS,
    SAME_HANDS,
    Band,
    UnitFigures,
    combine,
    exact_paytable,
    outside,
    unit_figures_of,
    wager_band,
)
from tables.domain.catalogue import get_table_game
from tables.models import GameTable, Round, RulesState, RulesSubmission, TableResult


@lru_cache(maxsize=32)
def unit_for(paytable: str) -> UnitFigures:
    """Per-unit house edge and variance of a stand-alone paytable: the kept figures
    (``KEPT_UNITS``), or worked out once per process for a paytable not kept."""
    if paytable in KEPT_UNITS:
        return KEPT_UNITS[paytable]
    return computed_unit(paytable)


def computed_unit(paytable: str) -> UnitFigures:
    """The figures worked out from every hand (``tables.domain.paytable_math``)."""
    # why the late import: paytable_math loads numpy and enumerates hands; a process that
    # never asks for a band should not pay for it at start-up
    from tables.domain.paytable_math import exact_figures

    return unit_figures_of(exact_figures(paytable))


def _day_options(table: GameTable, day: date) -> list[dict[str, Any]]:
    """The options of every Rules Submission the table's rounds closed in ``day`` were
    played under (601a.2); the version in effect for the game when no round is found
    (a round closed on the day's edge)."""
    prop = table.property
    start = gaming_day_end(day - timedelta(days=1), time_zone=prop.time_zone,
                           start_hour=prop.gaming_day_start_hour)
    end = gaming_day_end(day, time_zone=prop.time_zone, start_hour=prop.gaming_day_start_hour)
    rules_ids = set(Round.objects.filter(table=table, closed_at__gte=start, closed_at__lt=end)
                    .values_list("rules_id", flat=True))
    q = (RulesSubmission.objects.filter(pk__in=rules_ids) if rules_ids else
         RulesSubmission.objects.filter(property_id=table.property_id, game=table.game,
                                        state=RulesState.IN_EFFECT))
    return [rs.options for rs in q]


def table_day_band(table: GameTable, gaming_day: date, z: float = DEFAULT_Z
                   ) -> dict[str, Any] | None:
    """The expected house win and its band for a banked table's gaming day, over the wager
    types with exact figures; ``None`` for a poker table or a day without banked rounds.

    ``{"expected_win_cents", "low_cents", "high_cents"}`` (``None`` each when no wager of
    the day has figures), ``"wagers"`` (the wager types the band covers),
    ``"without_figures"`` (the others), ``"paytables"`` ({covered wager: paytable}),
    ``"win_cents"`` (the house win on the covered wagers — the figure to hold against the
    band, not the table's whole win), ``"outside"`` (bool) and ``"z"``.

    The number of wagers of a type is taken as the ``rounds`` of its result row (rounds in
    which it was placed). Several positions may place it in one round, so this undercounts
    the wagers and widens the band (sd ∝ W/√n): on the cautious side. For the 671a Super
    Wager on the dealer's hand it is exact in kind: all of them ride the one dealer hand
    of the round.
    """
    if get_table_game(table.game).is_poker:
        return None
    rows = {r.wager: r for r in TableResult.objects.filter(table=table, gaming_day=gaming_day)}
    if TableResult.ALL not in rows:
        return None
    rows.pop(TableResult.ALL)
    return band_from_results(table.game, rows, _day_options(table, gaming_day) if rows else [],
                             z)


def band_from_results(game: str, rows: dict[str, TableResult],
                      versions: list[dict[str, Any]], z: float = DEFAULT_Z) -> dict[str, Any]:
    """:func:`table_day_band`'s answer from a day's result rows by wager (``all`` left
    out) and the options of the rules versions its rounds were played under (the
    statistical report reads these for the whole room at once)."""
    covered: dict[str, str] = {}
    without: list[str] = []
    for wager in sorted(rows):
        # two versions naming different paytables (a change mid-day): the results do not
        # split the amounts by version, so the wager gets no figures rather than wrong ones
        names = {exact_paytable(game, o, wager) for o in versions} - {None}
        if len(names) == 1:
            covered[wager] = names.pop()
        else:
            without.append(wager)
    out: dict[str, Any] = {"expected_win_cents": None, "low_cents": None, "high_cents": None,
                           "wagers": list(covered), "without_figures": without,
                           "paytables": covered, "z": z,
                           "win_cents": sum(rows[w].house_win for w in covered),
                           "outside": False}
    if not covered:
        return out
    bands = {w: wager_band(unit_for(p), wagered_cents=rows[w].wagered, wagers=rows[w].rounds,
                           z=z) for w, p in covered.items()}
    same = SAME_HANDS.get(game, frozenset()) & set(bands)
    # why: wagers on the same hands move together; their sds add before the independent
    # wager types are combined by variance
    parts: list[Band] = [combine([bands[w] for w in sorted(same)], same_hands=True)] \
        if same else []
    parts += [b for w, b in bands.items() if w not in same]
    band = combine(parts)
    out.update(expected_win_cents=band.expected_win_cents, low_cents=band.low_cents,
               high_cents=band.high_cents, outside=outside(out["win_cents"], band))
    return out
