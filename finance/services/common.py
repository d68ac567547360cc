"""What every finance command on a table's gaming day shares: the table of the actor's
property, the table day's stream read and folded, the roles, and the one way to record a
decision (an event in ``finance_table_day-<table>-<day>`` appended at the version the
stream was read at, so two decisions on one table day never cross: a stale one is 409).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.domain.gaming_day import gaming_day_bounds
from casino.eventstore.models import Event
from casino.eventstore.store import NewEvent, Stream, append, read_stream
from casino.roles import Role
from casino.scoping import property_row
from finance.domain.recording_day import asked_day, recording_day
from finance.domain.table_day import FinanceError, TableDayState, fold
from finance.models import TableDay, table_day_stream
from tables.models import Deck, GameTable, Round

#: the dealer records the tray's inventory slips and the chips sold for cash
DEALING = (Role.DEALER,)
#: a floorperson (or the poker shift supervisor) signs the inventory, requests fills and
#: credits, and signs at the table for them when no dealer does
FLOOR = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
AT_TABLE = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
CAGE = (Role.CASHIER,)
RUNNERS = (Role.SECURITY,)
VOIDING = (Role.CASHIER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: security removes the drop boxes; the count team counts them; a cashier accepts
REMOVING = (Role.SECURITY,)
COUNTING = (Role.COUNT_TEAM,)
#: finance reconciles, closes and explains; finance or compliance signs off
FINANCE = (Role.FINANCE,)
SIGNING_OFF = (Role.FINANCE, Role.COMPLIANCE)
#: who reads table days, exceptions and reports
READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.CASHIER, Role.COUNT_TEAM,
           Role.SECURITY, Role.FINANCE, Role.COMPLIANCE)


def day_of(actor: Actor, value: Any) -> date:
    """The gaming day asked for (YYYY-MM-DD, default the current one), never one still to
    come: what a read or the close names."""
    return asked_day(value, actor.gaming_day())


def step_day(actor: Actor, step: str, value: Any) -> date:
    """The gaming day a finance step (its event type) is recorded against: the one rule
    of :mod:`finance.domain.recording_day`."""
    return recording_day(step, value, actor.gaming_day())


def played(table: GameTable, day: date) -> bool:
    """Whether a round or hand was opened at ``table`` in gaming day ``day``."""
    prop = table.property
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    return Round.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end).exists()


class AtTableDay:
    """A table of the actor's property and its gaming day's finance stream, folded."""

    def __init__(self, actor: Actor, table_id: Any, day: date):
        self.actor = actor
        self.table: GameTable = property_row(GameTable.objects.all(), actor, table_id,
                                             what="table")
        self.day = day
        self.stream_id = table_day_stream(self.table.pk, day)
        self.events = read_stream(self.stream_id)
        self.state: TableDayState = fold((e.type, e.data, e.metadata) for e in self.events)

    def record(self, decided: tuple[str, dict[str, Any]] | list[tuple[str, dict[str, Any]]],
               role: str) -> None:
        many = decided if isinstance(decided, list) else [decided]
        append(Stream("finance_table_day", self.stream_id), len(self.events),
               [NewEvent(t, d) for t, d in many],
               self.actor.metadata(role=role, table=self.table.pk,
                                   gaming_day=self.day.isoformat()),
               savepoint=False)


def run(actor: Actor, table_id: Any, day: date,
        decide: Callable[[AtTableDay], None]) -> TableDay:
    """``decide`` on the table day in one transaction; the table day's row after it."""
    with transaction.atomic():
        at = AtTableDay(actor, table_id, day)
        decide(at)
    return TableDay.objects.get(table_id=at.table.pk, gaming_day=day)


def text(value: Any, field: str, most: int, *, code: str) -> str:
    """``value`` stripped, as text of 1 to ``most`` characters without NUL characters
    (which the event log cannot hold); 400 ``code`` otherwise."""
    if not isinstance(value, str) or not value.strip() or len(value) > most \
            or "\x00" in value:
        raise FinanceError(f"{field} is text of 1 to {most} characters", code=code,
                           field=field)
    return value.strip()


#: the finance steps taken at the table (or bringing chips to it): whoever took one
#: worked the table that day. The cage's preparing of a slip, the box's removal and the
#: count itself are not work at the table.
AT_TABLE_STEPS = ("InventorySlipRecorded", "InventorySlipSigned", "ChipsSold",
                  "SlipRequested", "SlipCarried", "SlipCompleted")


def table_workers(table: GameTable, day: date) -> set[str]:
    """Everyone who took part at ``table`` on gaming day ``day``: the people on its own
    events, its decks' and its rounds' or hands' events (dealers, floorpersons,
    supervisors), and on its finance steps at the table (the inventory, chip sales, the
    fills and credits, their runners included)."""
    prop = table.property
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    rounds = [f"round-{pk}" for pk in Round.objects.filter(
        table=table, opened_at__gte=start, opened_at__lt=end).values_list("pk", flat=True)]
    # a deck received after the day ended took no part in it
    decks = [f"deck-{pk}" for pk in Deck.objects.filter(table=table, received_at__lt=end)
             .values_list("pk", flat=True)]
    own = Event.objects.filter(
        stream_id__in=[table.stream_id, f"poker_table-{table.pk}", *decks],
        recorded_at__gte=start, recorded_at__lt=end)
    at_table = Event.objects.filter(stream_id=table_day_stream(table.pk, day),
                                    type__in=AT_TABLE_STEPS)
    names: set[str] = set()
    for q in (own, at_table, Event.objects.filter(stream_id__in=rounds)):
        names.update(a for a in q.order_by().values_list("metadata__actor", flat=True).distinct()
                     if a)
    return names
