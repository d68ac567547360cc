"""The Master Game Report: per table and gaming day the opener, closer, fills, credits,
drop, win and hold %, with the rake and time charges at poker (§ 637a.17(b)).

Two versions (``params["version"]``):

* ``final`` (the default): the signed closer and the counted and accepted drop; a figure
  not signed or counted yet is blank and the row's status says so;
* ``preliminary``: the counted drop once the cashier accepted the count, else the drop
  the events expect (chip sales for cash, plus the rake and verified time charges at
  poker), and the signed closer or, without one, the expected closer (opener + fills −
  credits − chip sales + the banked win); drop and win are
  :func:`finance.domain.reconcile.preliminary_row`'s, the one rule the statistical
  report shows too (without an opener, the win the events say). Each row's status says
  which figures are expected.

A closed gaming day shows the figures ``GamingDayClosed`` froze; anything that changed
since (a count accepted after the close, a late slip) is an adjustment, in its own
columns. Read only; every read is the caller's property.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from casino.actors import Actor
from casino.domain.money import format_money
from casino.domain.wall_clock import format_date
from casino.scoping import property_rows
from finance.domain.reconcile import TableDayFigures, hold_percent, preliminary_row
from finance.domain.table_day import FinanceError
from finance.figures import days_with_play
from finance.models import GamingDay, TableDay
from finance.reports import Column, Report, register
from finance.selectors import adjustments, live_figures

FINAL, PRELIMINARY = "final", "preliminary"
#: why the final drop is blank, by the drop box's step
_NOT_COUNTED = {"counted": "count not signed", "signed": "count not accepted"}
#: the figures an adjustment names, as a supervisor calls them
_FIGURE = {"opener_cents": "opener", "closer_cents": "closer", "fills_cents": "fills",
           "credits_cents": "credits", "chip_sales_cents": "chip sales",
           "banked_win_cents": "banked win", "rake_cents": "rake",
           "time_charges_cents": "time charges", "drop_counted_cents": "drop counted"}
#: the money columns the totals row adds up
SUMMED = ("opener_cents", "closer_cents", "fills_cents", "credits_cents", "drop_cents",
          "win_cents", "rake_cents", "time_charges_cents", "adjustment_win_cents")

COLUMNS = [
    Column("table", "Table", "text"), Column("game", "Game", "text"),
    Column("gaming_day", "Gaming day", "date"), Column("opener_cents", "Opener"),
    Column("closer_cents", "Closer"), Column("fills_cents", "Fills"),
    Column("credits_cents", "Credits"), Column("drop_cents", "Drop"),
    Column("win_cents", "Win"), Column("hold_percent", "Hold %", "percent"),
    Column("rake_cents", "Rake (percentage + incremental)"),
    Column("time_charges_cents", "Time charges"), Column("status", "Status", "text"),
    Column("adjustment_win_cents", "Adjustment to win since the close"),
    Column("adjustments", "Adjustments since the close", "text"),
]

BASIS = ("Win = closer − opener + credits − fills + drop; hold % = win ÷ drop. Final: the "
         "signed closer and the counted, signed and accepted drop. Preliminary: the accepted "
         "count's drop, else the drop the events expect (chip sales for cash; at poker also "
         "the rake and the time charges verified by a floorperson, § 637a.17(b)(1)-(3)), and "
         "the signed closer, or else the expected closer (opener + fills − credits − chip sales "
         "+ the banked win from the rounds). A closed gaming day shows what its close froze; "
         "changes since are adjustments, in their own columns.")


def _version(params: dict[str, str]) -> str:
    version = params.get("version") or FINAL
    if version not in (FINAL, PRELIMINARY):
        raise FinanceError("version is 'final' or 'preliminary'", code="invalid_version",
                           field="version")
    return version


def _win(f: dict[str, Any] | None, version: str) -> int | None:
    """The row's win: the final one the figures hold, or the preliminary win worked from
    them by the one rule (the hold is worked here from the win and drop shown: a close
    freezes no ratios, the event store holds no floats). None for a table with no
    figures (first seen after the close)."""
    if not f or "opener_cents" not in f:
        return None
    if version == FINAL:
        return f.get("win_cents")
    return preliminary_row(TableDayFigures.from_frozen(f)).win_cents


def _status(f: dict[str, Any], version: str, drop_state: str | None, closed: bool) -> str:
    """What a reader must know about the row's figures: what is expected, or missing."""
    if version == PRELIMINARY:
        # the whole version is preliminary (its title and note say so); the status names
        # the figures expected, and a win taken from the events
        parts = [] if f.get("opener_cents") is not None \
            else ["no opener: win from the events"]
        parts.append("expected drop" if f.get("drop_counted_cents") is None
                     else "counted drop")
        if f.get("closer_cents") is None:
            parts.append("expected closer")
        return "; ".join(parts)
    parts = [] if f.get("opener_cents") is not None else ["no opener"]
    if f.get("closer_cents") is None:
        parts.append("closer not signed")
    if f.get("drop_counted_cents") is None:
        why = "not counted at the close" if closed else \
            _NOT_COUNTED.get(drop_state or "", "not counted")
        parts.append(why)
    return "; ".join(parts) or "counted"


def _adjusted(changes: list[dict[str, Any]]) -> str:
    return "; ".join(
        f"{_FIGURE.get(a['figure'], a['figure'])} "
        f"{'—' if a['at_close'] is None else format_money(a['at_close'])} → "
        f"{'—' if a['now'] is None else format_money(a['now'])}" for a in changes)


def _row(f: dict[str, Any], day: date, version: str, *, drop_state: str | None,
         closed: bool, now: dict[str, Any] | None, changes: list[dict[str, Any]]
         ) -> dict[str, Any]:
    poker = f.get("kind") == "poker"
    if version == FINAL:
        closer, drop = f.get("closer_cents"), f.get("drop_counted_cents")
    else:
        closer = f["closer_cents"] if f.get("closer_cents") is not None \
            else f.get("expected_closer_cents")
        drop = preliminary_row(TableDayFigures.from_frozen(f)).drop_cents
    win = _win(f, version)
    row = {"table": f.get("table", ""), "game": f.get("game", ""),
           "gaming_day": day.isoformat(), "opener_cents": f.get("opener_cents"),
           "closer_cents": closer, "fills_cents": f.get("fills_cents"),
           "credits_cents": f.get("credits_cents"), "drop_cents": drop, "win_cents": win,
           "hold_percent": hold_percent(win, drop),
           "rake_cents": f.get("rake_cents") if poker else None,
           "time_charges_cents": f.get("time_charges_cents") if poker else None,
           "status": _status(f, version, drop_state, closed),
           "adjustment_win_cents": None, "adjustments": "",
           "behind": f"/finance/behind/{f['table_id']}/{day.isoformat()}/"}
    if closed:
        # (None counts as nothing, as the selectors' adjustments do: a drop counted after
        # the close adjusts the blank win at the close by the whole win)
        row["adjustment_win_cents"] = (_win(now, version) or 0) - (win or 0)
        row["adjustments"] = _adjusted(changes)
    return row


def _day_rows(actor: Actor, day: date, version: str, gaming_day: GamingDay | None,
              drop_states: dict[tuple[str, date], str]) -> list[dict[str, Any]]:
    live = live_figures(actor, day)
    closed = gaming_day is not None and gaming_day.state == "closed"
    shown = gaming_day.figures if closed and gaming_day is not None else live
    by_table: dict[str, list[dict[str, Any]]] = {}
    if closed:
        for a in adjustments(shown, live):
            by_table.setdefault(a["table_id"], []).append(a)
        # a table first seen after the close had nothing at the close
        shown = {**shown, **{k: {n: live[k][n] for n in ("table_id", "table", "game", "kind")}
                             for k in set(live) - set(shown)}}
    rows = [_row(f, day, version, drop_state=drop_states.get((table_id, day)),
                 closed=closed, now=live.get(table_id), changes=by_table.get(table_id, []))
            for table_id, f in shown.items()]
    return sorted(rows, key=lambda r: r["table"])


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"table": "Total", "game": "", "gaming_day": "", "status": "",
                           "adjustments": ""}
    for key in SUMMED:
        known = [r[key] for r in rows if r.get(key) is not None]
        out[key] = sum(known) if known else None
    # the hold of the rows whose win and drop are both known
    both = [r for r in rows if r["win_cents"] is not None and r["drop_cents"] is not None]
    out["hold_percent"] = hold_percent(sum(r["win_cents"] for r in both),
                                       sum(r["drop_cents"] for r in both))
    return out


@register("master-game")
def master_game(actor: Actor, first: date, last: date, params: dict[str, str]) -> Report:
    version = _version(params)
    days = {g.gaming_day: g for g in property_rows(GamingDay.objects.all(), actor)
            .filter(gaming_day__range=(first, last))}
    drop_states = {(str(t), d): s for t, d, s in property_rows(TableDay.objects.all(), actor)
                   .filter(gaming_day__range=(first, last))
                   .values_list("table_id", "gaming_day", "drop_state")}
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    played = days_with_play(actor.property, first, last) | set(days)
    for day in sorted(d for d in played if first <= d <= last):
        g = days.get(day)
        rows += _day_rows(actor, day, version, g, drop_states)
        if g is not None and g.state == "closed":
            notes.append(f"Gaming day {format_date(day)} was closed by {g.closed_by or '—'}"
                         + (" with items still open" if g.with_open_items else "")
                         + ": its rows are the figures the close froze; what changed since "
                         "is shown as adjustments.")
    if version == PRELIMINARY:
        notes.insert(0, "Preliminary: the counted drop once the count is accepted, else "
                     "the drop the events expect; the closer where signed, else the "
                     "expected one; without an opener the win the events record. The "
                     "statistical report shows the same drop and win for each table day. "
                     "The final version has only the signed and counted figures.")
    else:
        notes.insert(0, "Final: the signed closer and the accepted count only; a figure "
                     "not there yet is blank (the preliminary version gives the "
                     "preliminary figures).")
    notes.append("Totals add the figures shown (a blank adds nothing); the total hold % is "
                 "over the rows with both a win and a drop.")
    return Report(name="master-game", title="Master Game Report", first=first, last=last,
                  columns=COLUMNS, rows=rows, basis=BASIS, version=version,
                  totals=_totals(rows) if rows else None, notes=notes)
