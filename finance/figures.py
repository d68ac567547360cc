"""The figures of a property's tables for a gaming day: what the events say should be
there (the banked rounds' results, the poker hands' rake and time charges, the chip
sales) beside what was signed and counted (the tray slips, the fills and credits, the
drop count). Read from the read models (tables' results, the rake ledger, finance's table
days); nothing is written. The reconciliation itself is :mod:`finance.domain.reconcile`.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from typing import Any

from casino.models import Property
from finance.domain.reconcile import BANKED, POKER, TableDayFigures
from finance.models import TableDay
from poker_room.models import RakeDay
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, TableResult


def table_day_figures(property: Property, day: date, *, table_ids: Any = None
                      ) -> dict[Any, tuple[GameTable, TableDayFigures]]:
    """``{table id: (table, figures)}`` for every table that did anything that day (a
    round, a hand, a slip), in table name order; only ``table_ids`` when given."""
    def rows(model: Any) -> Any:
        q = model.objects.filter(property=property, gaming_day=day)
        return q.filter(table_id__in=table_ids) if table_ids is not None else q

    banked = {r.table_id: r.house_win for r in rows(TableResult).filter(wager=TableResult.ALL)}
    rake = {r.table_id: r for r in rows(RakeDay)}
    days = {r.table_id: r for r in rows(TableDay)}
    ids = set(banked) | set(rake) | set(days)
    tables = GameTable.objects.filter(pk__in=ids).order_by("name")
    out: dict[Any, tuple[GameTable, TableDayFigures]] = {}
    for table in tables:
        td, rk = days.get(table.pk), rake.get(table.pk)
        kind = POKER if table.game in POKER_GAMES else BANKED
        out[table.pk] = (table, TableDayFigures(
            kind=kind,
            opener_cents=td.opener_cents if td else None,
            closer_cents=td.closer_cents if td else None,
            fills_cents=td.fills_cents if td else 0,
            credits_cents=td.credits_cents if td else 0,
            chip_sales_cents=td.chip_sales_cents if td else 0,
            banked_win_cents=banked.get(table.pk, 0),
            rake_cents=(rk.percentage_rake_cents + rk.incremental_rake_cents) if rk else 0,
            time_charges_cents=rk.time_charges_cents if rk else 0,
            drop_counted_cents=td.drop_counted_cents if td and td.drop_state == "accepted"
            else None))
    return out


def days_with_play(property: Property, first: date, last: date) -> set[date]:
    """The gaming days in ``first..last`` with a banked result, rake or finance record
    (three queries, whatever the span: a report over a year skips the empty days)."""
    found: set[date] = set()
    for model, more in ((TableResult, {"wager": TableResult.ALL}), (RakeDay, {}),
                        (TableDay, {})):
        found |= set(model.objects.filter(property=property, gaming_day__gte=first,
                                          gaming_day__lte=last, **more)
                     .order_by().values_list("gaming_day", flat=True).distinct())
    return found


def frozen(table: GameTable, f: TableDayFigures) -> dict[str, Any]:
    """One table's figures as ``GamingDayClosed`` freezes them (and the reports show):
    whole cents and names only (the event store holds no floats; a hold % is worked out
    where it is shown, :func:`finance.domain.reconcile.hold_percent`)."""
    final, prelim = f.win_cents(final=True), f.win_cents(final=False)
    return {**asdict(f), "table_id": str(table.pk), "table": table.name, "game": table.game,
            "expected_drop_cents": f.expected_drop_cents,
            "expected_closer_cents": f.expected_closer_cents,
            "expected_win_cents": f.expected_win_cents,
            "win_cents": final, "preliminary_win_cents": prelim,
            "drop_variance_cents": f.drop_variance_cents,
            "tray_variance_cents": f.tray_variance_cents}
