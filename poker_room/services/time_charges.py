"""Time charges (637a.17(b)(3)): an hourly fee from the table's limits, per player
(inactive seated players too) or per table, assessed every 20 or 30 minutes as the Rules
Submission says, placed in the rake area, then verified by a floorperson or above and put
in the drop box.

Periods are aligned to the clock: every 20 or 30 minutes from the hour (from the epoch in
UTC, which is the hour in every time zone whose offset is whole hours). A period is
assessed at its start, for the players seated then, exactly once: its start is the key
(``TimeChargeAssessed`` carries an idempotency key, and the table's stream is appended at
the version read), so a task delivered twice, or two sweeps at once, assess it once.
:func:`time_charges_due` lists every period not yet assessed since the first player still
seated sat down: the beat task assesses them, and so catches any it missed.

``TIME_CHARGE_MINUTE_SECONDS`` (60) is how long a minute of the schedule lasts: tests and
demonstrations shorten it, as the deck limits are shortened.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.domain.gaming_day import gaming_day_of
from casino.domain.wall_clock import format_wall_clock
from casino.eventstore.store import NewEvent, Stream, append
from poker_room.domain.rake import time_charges
from poker_room.models import PokerTable, Seat, TimeChargePeriod
from poker_room.services.seats import FLOOR, AtTable, table_rules
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, TableStatus

#: at most this many missed periods are caught up per table in one sweep (a day of 20s)
CATCH_UP_LIMIT = 72


class TimeChargeError(DomainError):
    code = "invalid_time_charge"


def period_seconds(interval_minutes: int) -> float:
    return interval_minutes * float(getattr(settings, "TIME_CHARGE_MINUTE_SECONDS", 60))


def period_of(moment: datetime, interval_minutes: int) -> datetime:
    """The start of the period ``moment`` falls in (637a.17(b)(3)(iii))."""
    p = period_seconds(interval_minutes)
    return datetime.fromtimestamp((moment.timestamp() // p) * p, tz=UTC)


def _next_period(moment: datetime, interval_minutes: int) -> datetime:
    start = period_of(moment, interval_minutes)
    return start if start == moment else start + timedelta(
        seconds=period_seconds(interval_minutes))


def _when(value: Any) -> datetime:
    if isinstance(value, datetime):
        when = value
    else:
        try:
            when = datetime.fromisoformat(str(value))
        except ValueError:
            raise TimeChargeError("period_start is an ISO date and time",
                                  code="invalid_period", field="period_start") from None
    if when.tzinfo is None:
        raise TimeChargeError("period_start needs a time zone", code="invalid_period",
                              field="period_start")
    return when.astimezone(UTC)


def time_charge_assess(*, table_id: Any, period_start: Any) -> str:
    """Assess one period at one table, once; say what happened (``assessed``,
    ``already-assessed``, or why there is nothing to assess)."""
    start = _when(period_start)
    with transaction.atomic():
        table = GameTable.objects.select_for_update().select_related("property").filter(
            pk=table_id).first()
        if table is None or table.game not in POKER_GAMES:
            return "not-a-poker-table"
        if table.status != TableStatus.OPEN:
            return "table-closed"
        if TimeChargePeriod.objects.filter(table=table, period_start=start).exists():
            return "already-assessed"
        rule = table_rules(table).time_charge
        if rule is None:
            return "no-time-charge"
        if period_of(start, rule.interval_minutes) != start:
            return "not-a-period-start"
        stacks = dict(Seat.objects.filter(table=table).values_list("seat", "stack_cents"))
        if not stacks:
            return "no-players"
        unit = table_rules(table).chip_unit_cents
        charges = time_charges(rule, stacks, unit_cents=unit)
        poker = PokerTable.objects.select_for_update().get(table=table)
        prop = table.property
        day = gaming_day_of(start, time_zone=prop.time_zone,
                            start_hour=prop.gaming_day_start_hour)
        actor = system_actor(prop, "time-charge")
        append(Stream("poker_table", poker.stream_id), poker.stream_version, [
            NewEvent("TimeChargeAssessed", {
                "period_start": start.isoformat(), "gaming_day": day.isoformat(),
                "basis": rule.basis, "hourly_cents": rule.hourly_cents,
                "interval_minutes": rule.interval_minutes,
                "charges": {str(s): c for s, c in charges.items()},
                "total_cents": sum(charges.values())})],
               actor.metadata(role=None, table=str(table.pk)),
               idempotency_key=f"TimeChargeAssessed:{table.pk}:{start.isoformat()}",
               savepoint=False)
    return "assessed"


def time_charges_due(now: datetime | None = None) -> list[tuple[str, datetime]]:
    """Every (table, period start) not yet assessed, from the first period after the
    earliest player still seated sat down (at most the last ``CATCH_UP_LIMIT`` periods)
    up to the period ``now`` is in: a period missed while the worker or the broker was
    down is found here, whatever was assessed after it."""
    now = now or timezone.now()
    due = []
    for table in GameTable.objects.filter(status=TableStatus.OPEN, game__in=POKER_GAMES,
                                          poker__isnull=False):
        seated = Seat.objects.filter(table=table).order_by("seated_at").first()
        rule = table_rules(table).time_charge if seated and _has_rules(table) else None
        if rule is None:
            continue
        step = timedelta(seconds=period_seconds(rule.interval_minutes))
        latest = period_of(now, rule.interval_minutes)
        start = max(_next_period(seated.seated_at, rule.interval_minutes),
                    latest - step * (CATCH_UP_LIMIT - 1))
        done = set(TimeChargePeriod.objects.filter(
            table=table, period_start__gte=start).values_list("period_start", flat=True))
        while start <= latest:
            if start not in done:
                due.append((str(table.pk), start))
            start += step
    return due


def _has_rules(table: GameTable) -> bool:
    try:
        table_rules(table)
    except ConflictError:
        return False
    return True


def time_charges_sweep(now: datetime | None = None) -> dict[str, int]:
    """Assess every period due (the beat task; it also catches a period missed while the
    worker or the broker was down)."""
    counts: dict[str, int] = {}
    for table_id, start in time_charges_due(now):
        outcome = time_charge_assess(table_id=table_id, period_start=start)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def time_charge_verify(*, actor: Actor, table_id: Any, period_start: Any) -> TimeChargePeriod:
    """637a.17(b)(3)(v): a floorperson or above verifies the time charges collected for a
    period; then they go in the drop box (the rake ledger's expected contents)."""
    start = _when(period_start)
    with transaction.atomic():
        at = AtTable(actor, table_id, FLOOR)
        period = TimeChargePeriod.objects.filter(table=at.table, period_start=start).first()
        if period is None:
            # the property's wall clock with its zone, as a person reads it
            raise NotFoundError("no time charge assessed for the period starting "
                                f"{format_wall_clock(start, time_zone=actor.property.time_zone)}",
                                code="time_charge_not_found")
        if period.verified_at is not None:
            raise ConflictError(f"verified already by {period.verified_by}",
                                code="already_verified")
        at.record(NewEvent("TimeChargeVerified", {
            "period_start": start.isoformat(), "gaming_day": period.gaming_day.isoformat(),
            "total_cents": period.total_cents}))
    return TimeChargePeriod.objects.get(pk=period.pk)
