"""The statistical report: drop, win and hold % by table, game and gaming day over a span,
with month-to-date and year-to-date figures as of the span's last day, a chart of the
property's hold % by day, and a flag on a banked table's day whose house win strays
outside the band its paytables' exact math allows for the day's volume.

Figures per table and day are those of the Master Game Report (:func:`finance.figures.
frozen`): the figures the close froze for a closed day (``finance.models.GamingDay``),
live ones (:func:`finance.figures.table_day_figures`) for a day not closed yet.

* drop = the counted drop once the cashier accepted the count, else the expected drop
  (the chip sales for cash, and at poker the rake and time charges), shown "(expected)";
* win = closer − opener + credits − fills + drop (DESIGN §4 "Finance") once the closer is
  signed and the count accepted; before, the preliminary win of
  :func:`finance.domain.reconcile.preliminary_row` with that drop — the one rule the
  Master Game Report's preliminary version uses too (the expected closer stands
  in for one not signed; without an opening slip, the win the events say: the banked
  rounds' house win, 589.11(f), 671a.11(f), 579.11(g)-(i); or the rake and time charges,
  637a.17(b)). The status says which rows are preliminary;
* hold % = win / drop.

The band is ``finance.hold_band.table_day_band``'s, read for the whole room at once
(:func:`day_bands`: a query per day, not per table). It covers only the wagers with exact
paytable math (the Super Wager, 589.12(b), 671a.12(b); the Poker Bonus Wager, 579.12(d));
its win is the house win on those wagers alone. A poker table's revenue is the rake and
time charges, not a wager against the house: no band is defined for it.

Reads only; nothing is written.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import Any

from casino.actors import Actor
from casino.domain.gaming_day import gaming_day_bounds
from casino.domain.wall_clock import format_date
from casino.models import Property
from finance.domain.hold_band import DEFAULT_Z
from finance.domain.reconcile import BANKED, TableDayFigures, hold_percent, preliminary_row
from finance.figures import days_with_play, frozen, table_day_figures
from finance.hold_band import band_from_results
from finance.models import GamingDay
from finance.reports import Column, Report, register
from tables.models import GameTable, Round, RulesState, RulesSubmission, TableResult

COLUMNS = [
    Column("period", "Period", "text"),
    Column("day", "Gaming day", "date"),
    Column("table", "Table", "text"),
    Column("game", "Game", "text"),
    Column("drop_cents", "Drop"),
    Column("status", "Status", "text"),
    Column("win_cents", "Win"),
    Column("hold_percent", "Hold %", "percent"),
    Column("band_win_cents", "Banded win"),
    Column("band_low_cents", "Band low"),
    Column("band_high_cents", "Band high"),
    Column("outside_band", "Flag", "flag"),
]

DAY, MTD, YTD = "day", "month to date", "year to date"
#: a row's status: final (counted drop, signed closer); the count accepted but the win
#: preliminary (no signed closer, or no opener); the drop expected (no accepted count),
#: so the win preliminary too
COUNTED, WIN_PRELIMINARY, EXPECTED = "counted", "counted, win preliminary", "(expected)"
ALL_TABLES = "all tables"
ALL_GAMES = "all games"


@dataclass
class Sum:
    """Drop and win added up over table days; ``expected``: how many of them had no
    accepted count; ``preliminary``: how many had a preliminary win."""

    drop: int = 0
    win: int = 0
    parts: int = 0
    expected: int = 0
    preliminary: int = 0

    def add(self, drop: int, win: int, counted: bool, final: bool = True) -> None:
        self.drop += drop
        self.win += win
        self.parts += 1
        self.expected += 0 if counted else 1
        self.preliminary += 0 if final else 1

    def cells(self) -> dict[str, Any]:
        status = EXPECTED if self.expected else WIN_PRELIMINARY if self.preliminary \
            else COUNTED
        return {"drop_cents": self.drop, "win_cents": self.win,
                "hold_percent": hold_percent(self.win, self.drop), "status": status}


def drop_and_win(fz: dict[str, Any]) -> tuple[int, int, bool, bool]:
    """(drop, win, counted, final) of one table day's frozen figures, by the one rule of
    :func:`finance.domain.reconcile.preliminary_row` (the final win once there is one)."""
    p = preliminary_row(TableDayFigures.from_frozen(fz))
    return p.drop_cents, p.win_cents, p.drop_counted, p.final


def figures_by_day(prop: Property, first: date, last: date
                   ) -> dict[date, dict[str, dict[str, Any]]]:
    """``{day: {table id: frozen figures}}`` for every day of ``first..last`` with any:
    what the close froze for a closed day, the live figures otherwise. Queries per day,
    never per table: one for the closed days, three to find the days with play, four for
    each of those not closed."""
    out: dict[date, dict[str, dict[str, Any]]] = {
        g.gaming_day: g.figures for g in GamingDay.objects.filter(
            property=prop, state="closed", gaming_day__gte=first, gaming_day__lte=last)}
    for day in sorted(days_with_play(prop, first, last) - set(out)):
        out[day] = {str(k): frozen(t, f) for k, (t, f) in table_day_figures(prop, day).items()}
    return {d: v for d, v in sorted(out.items()) if v}


def day_bands(prop: Property, tables: dict[str, GameTable], day: date,
              z: float = DEFAULT_Z) -> dict[str, dict[str, Any] | None]:
    """``{table id: finance.hold_band.table_day_band(table, day, z)}`` for the banked
    ``tables`` of the property, with the reads batched for the whole room: the day's
    results, the rules versions of the rounds closed in it, those versions' options (and
    the versions in effect, for a table without such a round) — four queries a day
    instead of three a table. The arithmetic is table_day_band's, step for step (the tests
    hold the two to the same answers): move this into finance.hold_band to share it."""
    if not tables:
        return {}
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    ids = list(tables)
    results: dict[str, dict[str, TableResult]] = defaultdict(dict)
    for r in TableResult.objects.filter(property=prop, gaming_day=day, table_id__in=ids):
        results[str(r.table_id)][r.wager] = r
    used: dict[str, set[Any]] = defaultdict(set)
    for table_id, rules_id in (Round.objects.filter(table_id__in=ids, closed_at__gte=start,
                                                    closed_at__lt=end)
                               .order_by().values_list("table_id", "rules_id").distinct()):
        used[str(table_id)].add(rules_id)
    options = {rs.pk: rs.options for rs in RulesSubmission.objects.filter(
        pk__in={i for v in used.values() for i in v})}
    in_effect: dict[str, list[dict[str, Any]]] = defaultdict(list)
    fallback = {t.game for k, t in tables.items() if not used.get(k)}
    for rs in RulesSubmission.objects.filter(property=prop, game__in=fallback,
                                             state=RulesState.IN_EFFECT):
        in_effect[rs.game].append(rs.options)
    out: dict[str, dict[str, Any] | None] = {}
    for key, table in tables.items():
        rows = dict(results.get(key, {}))
        if rows.pop(TableResult.ALL, None) is None:
            out[key] = None
            continue
        versions = [options[i] for i in used[key]] if used.get(key) else in_effect[table.game]
        out[key] = band_from_results(table.game, rows, versions, z)
    return out


def _band_cells(band: dict[str, Any] | None) -> dict[str, Any]:
    if band is None or band.get("low_cents") is None:
        return {"band_win_cents": None, "band_low_cents": None, "band_high_cents": None,
                "outside_band": None}
    return {"band_win_cents": band["win_cents"], "band_low_cents": band["low_cents"],
            "band_high_cents": band["high_cents"], "outside_band": bool(band["outside"])}


def _aggregate_rows(period: str, day: date, tables: dict[str, Sum],
                    names: dict[str, tuple[str, str]], games: dict[str, Sum], total: Sum
                    ) -> list[dict[str, Any]]:
    """A row per table (when ``tables``), per game and for the property."""
    rows = []
    for table_id in sorted(tables, key=lambda k: names[k]):
        name, game = names[table_id]
        rows.append({"period": period, "day": day.isoformat(), "table": name, "game": game,
                     **tables[table_id].cells()})
    for game in sorted(games):
        rows.append({"period": period, "day": day.isoformat(), "table": ALL_TABLES,
                     "game": game, **games[game].cells()})
    rows.append({"period": period, "day": day.isoformat(), "table": ALL_TABLES,
                 "game": ALL_GAMES, **total.cells()})
    return rows


def _notes(month_start: date, year_start: date, last: date, *, poker_seen: bool,
           without_band: int, flagged: int) -> list[str]:
    notes = [
        "Drop: the counted drop once a cashier accepted the count, otherwise the expected "
        "drop (chip sales for cash; at poker with the rake and time charges), marked "
        "(expected). Win = closer − opener + credits − fills + drop.",
        "Preliminary figures: a row marked (expected) has no accepted count, so its drop "
        "is the expected drop and its win preliminary; a row marked \"counted, win "
        "preliminary\" has its count but no signed closer (or no opening slip). A "
        "preliminary win takes the expected closer for one not signed, and without an "
        "opening slip the win the events record. The Master Game Report's preliminary "
        "version shows the same drop and win for the same table day (the counted drop once "
        "the count is accepted, else the expected drop). Closed days show the figures "
        "the close froze; changes since are adjustments on the gaming day's "
        "reconciliation.",
        f"Month to date from {format_date(month_start)} and year to date from "
        f"{format_date(year_start)}, both to {format_date(last)}.",
        "Band: expected house win ± 3 standard deviations on the day's volume, from the "
        "exact paytable math of the wagers that have it (Super Wager 589.12(b), "
        "671a.12(b); Poker Bonus Wager 579.12(d)); it is held against the house win on "
        "those wagers alone (Banded win). The Ante, Bet, Play, fees and the Tie Wager have "
        "no band.",
    ]
    if poker_seen:
        notes.append("Poker tables: no band and no flag. Their win is the rake and time "
                     "charges (637a.17(b)), not a wager against the house, so paytable math "
                     "defines no expected band.")
    if without_band:
        notes.append(f"{without_band} banked table day(s) had no wager with exact figures: "
                     "no band, no flag.")
    if flagged:
        notes.append(f"{flagged} table day(s) outside the band: look at the rounds behind "
                     "them.")
    return notes


@register("statistical")
def statistical(actor: Actor, first: date, last: date, params: dict[str, str]) -> Report:
    """Drop, win and hold % per table, game and day of ``first..last``; month-to-date and
    year-to-date as of ``last``; the hold % chart; the band flag on banked table days."""
    prop = actor.property
    year_start, month_start = date(last.year, 1, 1), date(last.year, last.month, 1)
    by_day = figures_by_day(prop, min(first, year_start), last)
    span_days = [d for d in by_day if first <= d <= last]
    banked_ids = {k for d in span_days for k, fz in by_day[d].items() if fz["kind"] == BANKED}
    tables = {str(t.pk): t for t in GameTable.objects.filter(pk__in=banked_ids)}

    rows: list[dict[str, Any]] = []
    points: list[dict[str, Any]] = []
    span_total = Sum()
    mtd: dict[str, Sum] = defaultdict(Sum)
    ytd: dict[str, Sum] = defaultdict(Sum)
    mtd_games: dict[str, Sum] = defaultdict(Sum)
    ytd_games: dict[str, Sum] = defaultdict(Sum)
    mtd_total, ytd_total = Sum(), Sum()
    names: dict[str, tuple[str, str]] = {}
    flagged = without_band = 0
    poker_seen = False
    for day, figures in by_day.items():
        in_span = first <= day <= last
        day_games: dict[str, Sum] = defaultdict(Sum)
        day_total = Sum()
        day_flag = False
        bands = day_bands(prop, {k: tables[k] for k, fz in figures.items()
                                 if fz["kind"] == BANKED and k in tables}, day) \
            if in_span else {}
        for table_id, fz in sorted(figures.items(), key=lambda kv: kv[1]["table"]):
            names[table_id] = (fz["table"], fz["game"])
            dw = drop_and_win(fz)  # drop, win, counted, final
            if day >= year_start:
                ytd[table_id].add(*dw)
                ytd_games[fz["game"]].add(*dw)
                ytd_total.add(*dw)
            if day >= month_start:
                mtd[table_id].add(*dw)
                mtd_games[fz["game"]].add(*dw)
                mtd_total.add(*dw)
            if not in_span:
                continue
            day_games[fz["game"]].add(*dw)
            day_total.add(*dw)
            span_total.add(*dw)
            if fz["kind"] == BANKED:
                band = _band_cells(bands.get(table_id))
                without_band += band["outside_band"] is None
            else:
                poker_seen = True
                band = _band_cells(None)
            flagged += bool(band["outside_band"])
            day_flag = day_flag or bool(band["outside_band"])
            one = Sum()
            one.add(*dw)
            rows.append({"period": DAY, "day": day.isoformat(), "table": fz["table"],
                         "game": fz["game"], **one.cells(), **band,
                         "behind": f"/finance/behind/{table_id}/{day.isoformat()}/"})
        if in_span:
            rows += _aggregate_rows(DAY, day, {}, names, day_games, day_total)
            points.append({"label": day.isoformat(), "name": format_date(day),
                           "tick": f"{day:%b} {day.day}",
                           "value": hold_percent(day_total.win, day_total.drop),
                           "flag": day_flag, "low": None, "high": None})
    for period, per_table, per_game, total in ((MTD, mtd, mtd_games, mtd_total),
                                               (YTD, ytd, ytd_games, ytd_total)):
        if total.parts:
            rows += _aggregate_rows(period, last, per_table, names, per_game, total)

    return Report(
        name="statistical", title="Statistical report", first=first, last=last,
        columns=COLUMNS, rows=rows,
        basis="Drop, win and hold % by table, game and gaming day; month and year to date; "
              "banked days against the band of their paytables' exact math.",
        totals={"period": f"{format_date(first)} to {format_date(last)}", "table": ALL_TABLES, "game": ALL_GAMES,
                **span_total.cells()} if span_total.parts else None,
        notes=_notes(month_start, year_start, last, poker_seen=poker_seen,
                     without_band=without_band, flagged=flagged),
        chart={"title": "Hold % by gaming day (all tables)", "unit": "%", "axis": "Hold %",
               "points": points} if points else None)

