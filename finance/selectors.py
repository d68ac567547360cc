"""Finance's reads, each scoped to the caller's property: a table's gaming day, the
exceptions, and a gaming day's reconciliation (the live figures beside what the close
froze: what changed since is an adjustment, shown as such). Reads never write."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet

from casino.actors import Actor
from casino.domain.gaming_day import gaming_day_bounds
from casino.scoping import property_row, property_rows
from finance.figures import frozen, table_day_figures
from finance.models import FinanceException, GamingDay, TableDay
from finance.services.close import open_items
from tables.models import GameTable

#: the figures an adjustment after the close is reported on
ADJUSTABLE = ("opener_cents", "closer_cents", "fills_cents", "credits_cents",
              "chip_sales_cents", "banked_win_cents", "rake_cents", "time_charges_cents",
              "drop_counted_cents")


def table_day(actor: Actor, table_id: Any, day: date) -> TableDay:
    """The table's gaming day (an empty one before anything is recorded)."""
    table = property_row(GameTable.objects.all(), actor, table_id, what="table")
    row = TableDay.objects.filter(table=table, gaming_day=day).first()
    return row or TableDay(property_id=table.property_id, table_id=table.pk, gaming_day=day)


def exceptions(actor: Actor, first: date, last: date) -> list[FinanceException]:
    return list(property_rows(FinanceException.objects.select_related("table"), actor)
            .filter(gaming_day__gte=first, gaming_day__lte=last)
            .order_by("gaming_day", "table__name", "recorded_at"))


def gaming_day(actor: Actor, day: date) -> GamingDay:
    row = property_rows(GamingDay.objects.all(), actor).filter(gaming_day=day).first()
    return row or GamingDay(property=actor.property, gaming_day=day)


def live_figures(actor: Actor, day: date) -> dict[str, dict[str, Any]]:
    """``{table id: figures}`` as the events and counts say now."""
    return {str(k): frozen(t, f) for k, (t, f) in
            table_day_figures(actor.property, day).items()}


def adjustments(closed: dict[str, dict[str, Any]], live: dict[str, dict[str, Any]]
                ) -> list[dict[str, Any]]:
    """Each figure that differs from what the close froze: ``{table, figure, at_close,
    now, adjustment}`` (a table with no figures at the close starts from nothing)."""
    out = []
    for table_id in sorted(set(closed) | set(live),
                           key=lambda k: (live.get(k) or closed.get(k) or {}).get("table", k)):
        then, now = closed.get(table_id, {}), live.get(table_id, {})
        for name in ADJUSTABLE:
            a, b = then.get(name), now.get(name)
            if a != b:
                out.append({"table_id": table_id, "table": (now or then).get("table", ""),
                            "figure": name, "at_close": a, "now": b,
                            "adjustment": (b or 0) - (a or 0)})
    return out


def reconciliation(actor: Actor, day: date) -> dict[str, Any]:
    """The gaming day's reconciliation: when the day begins and ends (the property's
    gaming-day start hour in its zone: a day may run 23 or 25 hours), each table's
    figures, the exceptions, what is open; once closed, the frozen figures and the
    adjustments since."""
    prop = actor.property
    starts, ends = gaming_day_bounds(day, time_zone=prop.time_zone,
                                     start_hour=prop.gaming_day_start_hour)
    row = gaming_day(actor, day)
    live = live_figures(actor, day)
    closed = row.state == "closed"
    return {"gaming_day": day, "starts_at": starts, "ends_at": ends, "state": row.state,
            "open_items": row.open_items if closed else open_items(actor.property, day),
            "closed_at": row.closed_at, "closed_by": row.closed_by,
            "with_open_items": row.with_open_items,
            "tables": list((row.figures if closed else live).values()),
            "exceptions": exceptions(actor, day, day),
            "adjustments": adjustments(row.figures, live) if closed else []}


# --- what waits for someone (the console's "waiting for me", console_tasks) ---------------
# Each a read of the read models alone (never the event log), scoped to the caller's
# property, in one query whatever the number of tables or items.

def _recent(actor: Actor) -> tuple[date, date]:
    """The day being played and the one just ended: the window of the steps at the table
    and the cage (:mod:`finance.domain.recording_day`, rule 2)."""
    from datetime import timedelta

    today = actor.gaming_day()
    return today - timedelta(days=1), today


def table_days_with_open_slips(actor: Actor) -> QuerySet:
    """Table days of the day being played or the one just ended with a fill or credit
    slip not yet signed at the table nor voided, their tables named."""
    return (property_rows(TableDay.objects.select_related("table"), actor)
            .filter(gaming_day__range=_recent(actor), open_slips__gt=0)
            .order_by("gaming_day", "table__name"))


def table_days_with_inventory_to_sign(actor: Actor) -> QuerySet:
    """Table days (the day being played or the one just ended) whose opening or closing
    inventory slip is recorded and not yet signed."""
    from django.db.models import Q

    recorded = Q(state__inventories__opener__state="recorded") | \
        Q(state__inventories__closer__state="recorded")
    return (property_rows(TableDay.objects.select_related("table"), actor)
            .filter(recorded, gaming_day__range=_recent(actor))
            .order_by("gaming_day", "table__name"))


def drop_boxes_to_remove(actor: Actor) -> QuerySet:
    """Boxes still at their table whose day is done: the day just ended (every box of
    it), or the day being played at a table whose closing inventory is recorded (the
    tray is counted: no chip sale puts cash in the box any more)."""
    from django.db.models import Q

    yesterday, today = _recent(actor)
    done = Q(gaming_day=yesterday) | Q(gaming_day=today, state__inventories__has_key="closer")
    return (property_rows(TableDay.objects.select_related("table"), actor)
            .filter(done, drop_state="in_play")
            .order_by("gaming_day", "table__name"))


def drop_boxes_at(actor: Actor, drop_state: str) -> QuerySet:
    """Boxes at one step of the count (``removed``, ``counted``, ``signed``), any day: a
    removed box may wait for the count room (rule 3 of recording_day)."""
    return (property_rows(TableDay.objects.select_related("table"), actor)
            .filter(drop_state=drop_state).order_by("gaming_day", "table__name"))


def exceptions_in(actor: Actor, state: str) -> QuerySet:
    """The property's exceptions in ``state`` (``open``, ``explained``), oldest first."""
    return (property_rows(FinanceException.objects.select_related("table"), actor)
            .filter(state=state).order_by("gaming_day", "recorded_at"))


def explainers(actor: Actor, rows: list[FinanceException]) -> dict[str, set[str]]:
    """Exception id → everyone who explained it (the last explainer and any before: none
    of them signs it off), from the table days' folded state: one query."""
    from django.db.models import Q

    if not rows:
        return {}
    which = Q()
    for r in rows:
        which |= Q(table_id=r.table_id, gaming_day=r.gaming_day)
    out: dict[str, set[str]] = {}
    for state in property_rows(TableDay.objects.filter(which), actor).values_list(
            "state", flat=True):
        for key, v in (state or {}).get("variances", {}).items():
            out[key] = {who for who, step in v.get("signers", {}).items()
                        if step == "explained"}
    for r in rows:
        out.setdefault(str(r.exception_id), set()).add(r.explained_by)
    return out


def gaming_days_held(actor: Actor) -> QuerySet:
    """Gaming days the close held with items still open, oldest first."""
    return (property_rows(GamingDay.objects.all(), actor).filter(state="held")
            .order_by("gaming_day"))