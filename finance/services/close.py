"""Closing a gaming day: at the property's gaming-day boundary (the beat task, in the
property's time zone) or by finance. The close looks for what is still open (rounds and
hands, unsigned tray slips, fill and credit slips not signed, drop boxes not counted or
counts not signed or accepted, jackpot box counts), records it, and — when nothing is
open, or finance closes with the open items listed — records each variance beyond the
tolerance not yet recorded (a drop's is an exception from the cashier's acceptance of
the count, :mod:`finance.services.drop`) as an exception on its table, revises one
recorded before on figures that have moved since (``VarianceRevised``), and freezes the
day's figures in ``GamingDayClosed``. A day is closed once: closing again, or a task
delivered twice, appends nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError
from casino.domain.gaming_day import gaming_day_bounds, gaming_day_of
from casino.domain.wall_clock import format_date, format_wall_clock
from casino.eventstore import projections
from casino.eventstore.errors import ConcurrencyError
from casino.eventstore.models import Event
from casino.eventstore.store import NewEvent, Stream, append
from casino.models import Property
from finance.domain.reconcile import TableDayFigures, exceptions, variance_now
from finance.figures import frozen, table_day_figures
from finance.models import GamingDay, TableDay, gaming_day_stream, table_day_stream
from finance.services.common import FINANCE, day_of
from jackpots.models import FundCount
from jackpots.projections import FundsFollower
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, Round

log = logging.getLogger(__name__)

#: jackpot box counts not yet verified (jackpots.domain.fund)
_JACKPOT_COUNT_OPEN = ("open", "reminded", "witnessed", "accounted", "at_cage", "counted")
#: how many ended gaming days back the beat looks for one still to close
CLOSE_LOOKBACK_DAYS = 7
#: how many open items a held close lists (it counts them all by kind)
HELD_LISTED = 200


def _item(kind: str, table: GameTable | None = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"item": kind}
    if table is not None:
        out.update(table=table.name, table_id=str(table.pk))
    out.update({k: str(v) for k, v in more.items()})
    return out


def _tray_items(table: GameTable, row: TableDay | None) -> list[dict[str, Any]]:
    if row is None:
        return [_item("no_opener", table), _item("no_closer", table),
                _item("box_not_counted", table)]
    out: list[dict[str, Any]] = []
    inventories = row.state.get("inventories", {})
    for slip in ("opener", "closer"):
        found = inventories.get(slip)
        if found is None:
            out.append(_item(f"no_{slip}", table))
        elif found["state"] != "signed":
            out.append(_item(f"{slip}_unsigned", table))
    for slip_id, s in sorted(row.state.get("slips", {}).items()):
        if s["state"] not in ("completed", "voided"):
            out.append(_item(f"{s['kind']}_slip_unsigned", table, slip_id=slip_id))
    state = row.drop_state
    if state in ("in_play", "removed"):
        out.append(_item("box_not_counted", table))
    elif state == "counted":
        out.append(_item("count_unsigned", table))
    elif state == "signed":
        out.append(_item("count_not_accepted", table))
    return out


def open_items(property: Property, day: date) -> list[dict[str, Any]]:
    """What is still open for the gaming day, in table order."""
    start, end = gaming_day_bounds(day, time_zone=property.time_zone,
                                   start_hour=property.gaming_day_start_hour)
    items: list[dict[str, Any]] = []
    for r in Round.objects.filter(table__property=property, state="open", opened_at__lt=end
                                  ).select_related("table").order_by("table__name", "number"):
        kind = "open_hand" if r.table.game in POKER_GAMES else "open_round"
        items.append(_item(kind, r.table, round_id=r.pk, number=r.number))
    rows = {r.table_id: r for r in TableDay.objects.filter(property=property, gaming_day=day)}
    for table_id, (table, _f) in table_day_figures(property, day).items():
        items += _tray_items(table, rows.get(table_id))
    # The jackpot box counts of the day: opened during it (a High Hand period's) or during
    # the next (the daily Bad Beat count of the day's boxes opens at the next day's start);
    # an older count still open is the older day's item, not this one's.
    for c in FundCount.objects.filter(property=property, opened_at__gte=start,
                                      opened_at__lt=end + timedelta(days=1),
                                      state__in=_JACKPOT_COUNT_OPEN).order_by("opened_at"):
        items.append(_item("jackpot_count_open", fund=c.fund, count_id=c.count_id))
    return items


def variances_of(table: GameTable, day: date, *, tolerance_cents: int,
                 drop_counted_cents: int | None = None, after_close: bool = False,
                 figures: TableDayFigures | None = None, already: Any = None,
                 only: set[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The ``VarianceRecorded`` events for the table day's variances beyond the
    tolerance (and negative poker revenue), leaving out the figures ``already`` found
    (by default those the table day has recorded: the drop's, recorded when the cashier
    accepted the count, or the tray's the close recorded, is never recorded twice);
    ``only``: just these figures (the acceptance records the drop's alone)."""
    f = figures or table_day_figures(table.property, day, table_ids=[table.pk])[table.pk][1]
    if drop_counted_cents is not None:
        f = TableDayFigures(**{**f.__dict__, "drop_counted_cents": drop_counted_cents})
    if already is None:
        already = _recorded_figures(TableDay.objects.filter(table=table, gaming_day=day)
                                   .first())
    out = []
    for v in exceptions(f, tolerance_cents=tolerance_cents):
        if v.figure in already or (only is not None and v.figure not in only):
            continue
        data = {"exception_id": str(uuid.uuid4()), **v.as_data()}
        if after_close:
            data["after_close"] = True
        out.append(("VarianceRecorded", data))
    return out


def revisions_of(row: TableDay | None, f: TableDayFigures) -> list[tuple[str, dict[str, Any]]]:
    """``VarianceRevised`` for each exception recorded before the close whose figures have
    moved since (a count accepted while a time charge was still to be verified, or while
    the day was being played): the close's exceptions are on the figures it freezes. A
    revised variance stays an exception, explained anew, even if it is now within the
    tolerance: it was one when recorded, and people close it."""
    out = []
    for exception_id, v in (row.state.get("variances", {}) if row else {}).items():
        now = variance_now(f, v["figure"])
        if now is not None and (now.expected_cents, now.counted_cents) != (
                v["expected_cents"], v["counted_cents"]):
            out.append(("VarianceRevised", {"exception_id": exception_id, **now.as_data()}))
    return out


def _recorded_figures(row: TableDay | None) -> set[str]:
    """The figures (drop, tray, poker_revenue) the table day has an exception on."""
    variances = row.state.get("variances", {}) if row is not None else {}
    return {v["figure"] for v in variances.values()}


def _held(stream_id: str, items: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``GamingDayCloseHeld``'s data, or None when the last one recorded the same items.
    The event lists the first :data:`HELD_LISTED` items and counts them all by kind (a
    room's every box is open at the boundary: the list can outgrow an event)."""
    digest = hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()
    last = Event.objects.filter(stream_id=stream_id, type="GamingDayCloseHeld"
                                ).order_by("-version").values_list("data", flat=True).first()
    if last is not None and last.get("digest") == digest:
        return None
    by_item: dict[str, int] = {}
    for i in items:
        by_item[i["item"]] = by_item.get(i["item"], 0) + 1
    return {"open_items": items[:HELD_LISTED], "count": len(items), "by_item": by_item,
            "digest": digest}


def _close(actor: Actor, day: date, *, with_open_items: bool, role: str | None
           ) -> tuple[GamingDay | None, bool]:
    """One transaction: (the gaming day's row, whether this call closed it).

    Each table's figures are frozen in its own table day's stream (``TableDayClosed``,
    with the exceptions found on it and its open items); ``GamingDayClosed`` then closes
    the day with the items of no table (jackpot counts): a room of any size fits."""
    prop = actor.property
    row = GamingDay.objects.filter(property=prop, gaming_day=day).first()
    if row is not None and row.state == "closed":
        return row, False
    version = row.stream_version if row else 0
    stream = Stream("finance_gaming_day", gaming_day_stream(prop.pk, day))
    meta = actor.metadata(role=role, gaming_day=day.isoformat())
    items = open_items(prop, day)
    if items and not with_open_items:
        if actor.system:
            held = _held(stream.id, items)
            if held is not None:
                append(stream, version, [NewEvent("GamingDayCloseHeld", held)], meta,
                       savepoint=False)
            return GamingDay.objects.filter(property=prop, gaming_day=day).first(), False
        refused = ConflictError(
            f"{len(items)} item(s) still open for {format_date(day)}: "
            + "; ".join(f"{i['item']}" + (f" at {i['table']}" if "table" in i else "")
                        for i in items[:20])
            + ("…" if len(items) > 20 else "")
            + ". Finish them, or close with the open items listed (with_open_items)",
            code="open_items")
        # the items themselves, as the day's reconciliation lists them, for a program
        refused.extra = {"open_items": items, "open_count": len(items)}
        raise refused
    figures = table_day_figures(prop, day)
    days = {r.table_id: r for r in TableDay.objects.filter(property=prop, gaming_day=day)}
    found = 0
    for table_id, (table, f) in figures.items():
        td = days.get(table_id)
        decided = revisions_of(td, f) + variances_of(
            table, day, figures=f, already=_recorded_figures(td),
            tolerance_cents=settings.FINANCE_TOLERANCE_CENTS)
        # the day's exceptions: those the close finds and those recorded before it (a
        # drop variance is one from the cashier's acceptance)
        found += len(decided) + len(td.state.get("variances", {}) if td else {})
        own = [i for i in items if i.get("table_id") == str(table_id)]
        decided.append(("TableDayClosed", {"figures": frozen(table, f), "open_items": own}))
        append(Stream("finance_table_day", table_day_stream(table_id, day)),
               td.stream_version if td else 0, [NewEvent(t, d) for t, d in decided],
               actor.metadata(role=role, table=table_id, gaming_day=day.isoformat()),
               savepoint=False)
    append(stream, version, [NewEvent("GamingDayClosed", {
        "open_items": [i for i in items if "table_id" not in i],
        "with_open_items": bool(items), "open_count": len(items), "exceptions": found,
        "tables": len(figures)})], meta, savepoint=False)
    return GamingDay.objects.get(property=prop, gaming_day=day), True


def _jackpot_counts_current() -> None:
    """The jackpots' follower at the head before a close reads their counts' states (it
    is async: a count verified a moment ago must not show as open)."""
    projections.catch_up(FundsFollower.name)


def gaming_day_close(*, actor: Actor, gaming_day: Any = None,
                     with_open_items: Any = False) -> GamingDay:
    """Finance closes a gaming day that has ended (default: the one just ended). 409
    ``open_items`` while anything is open, unless ``with_open_items`` (they are listed in
    the close); 409 ``gaming_day_not_ended`` for the day still being played."""
    role = actor.require(*FINANCE)
    day = day_of(actor, gaming_day or (actor.gaming_day() - timedelta(days=1)))
    if day >= actor.gaming_day():
        prop = actor.property
        _, ends = gaming_day_bounds(day, time_zone=prop.time_zone,
                                    start_hour=prop.gaming_day_start_hour)
        raise ConflictError(f"the gaming day {format_date(day)} has not ended: it ends "
                            f"{format_wall_clock(ends, time_zone=prop.time_zone)}",
                            code="gaming_day_not_ended")
    _jackpot_counts_current()
    with transaction.atomic():
        row, _ = _close(actor, day, with_open_items=bool(with_open_items), role=role)
    assert row is not None
    return row


def gaming_days_close_due(now: datetime | None = None) -> dict[str, int]:
    """The beat: for each property, every gaming day ended in the last week and not yet
    closed is closed when nothing is open, or held with what is still open (recorded
    once per change). Safe to run twice, or twice at once (the second append conflicts
    and changes nothing). ``now``: the moment to look from (default the clock); returns
    ``{"closed": days this run closed, "held": days it found held, still open}``."""
    now = now or timezone.now()
    _jackpot_counts_current()
    closed = held = 0
    for prop in Property.objects.all():
        today = gaming_day_of(now, time_zone=prop.time_zone,
                              start_hour=prop.gaming_day_start_hour)
        done = set(GamingDay.objects.filter(property=prop, state="closed",
                                            gaming_day__gte=today - timedelta(
                                                days=CLOSE_LOOKBACK_DAYS))
                   .values_list("gaming_day", flat=True))
        actor = system_actor(prop, "gaming-day-close")
        for back in range(CLOSE_LOOKBACK_DAYS, 0, -1):
            day = today - timedelta(days=back)
            if day in done or not _had_play(prop, day):
                continue
            try:
                with transaction.atomic():
                    row, did = _close(actor, day, with_open_items=False, role=None)
            except ConcurrencyError:
                continue  # another run closed or held it at the same moment
            closed += did
            held += int(not did and row is not None and row.state == "held")
    return {"closed": closed, "held": held}


def _had_play(prop: Property, day: date) -> bool:
    """A day with anything to close: a table's result, rake or finance record, a round
    or hand opened in it (one never settled has no result, and would otherwise leave
    the day neither closed nor held), or a day the beat already held."""
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    return bool(table_day_figures(prop, day)) or Round.objects.filter(
        table__property=prop, opened_at__gte=start, opened_at__lt=end).exists() \
        or GamingDay.objects.filter(property=prop, gaming_day=day).exists()
