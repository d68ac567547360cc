"""A table's drop box at the end of its gaming day: removed by security, counted by a
count team of at least two people who took no part at that table that day (one enters
the count by denomination, another signs it), accepted by a cashier. Each step an event.

The cashier's acceptance makes the count the drop, so a drop variance beyond the
tolerance is an exception from that moment: finance can explain a short box the day it is
counted, and the gaming day's close does not record it a second time; if the expected
drop moved since (a time charge verified later), the close revises it to the figures it
freezes (``VarianceRevised``, :func:`finance.services.close.revisions_of`). A count accepted
after the gaming day was closed arrives as an adjustment: its variances, beyond the
tolerance, are recorded then as exceptions marked ``after_close``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from casino.actors import Actor
from casino.domain.errors import ConflictError
from casino.domain.wall_clock import format_date
from finance.domain import table_day as td
from finance.domain.reconcile import DROP
from finance.models import GamingDay, TableDay
from finance.services.common import CAGE, COUNTING, REMOVING, AtTableDay, run, step_day, \
    table_workers


def _not_a_worker(at: AtTableDay) -> None:
    """409 ``worked_the_table``: the count team took no part at the table that day."""
    if at.actor.username in table_workers(at.table, at.day):
        raise ConflictError(f"{at.actor.username} worked {at.table.name} on {format_date(at.day)}; "
                            "the count team counts only tables it took no part at",
                            code="worked_the_table")


def drop_remove(*, actor: Actor, table_id: Any, gaming_day: Any = None) -> TableDay:
    """Security removes the table's drop box at the end of the gaming day (that day's
    or the one just ended: 409 ``gaming_day_over`` further back). The later steps need a
    removed box, so no step of the count starts a table day long gone."""
    role = actor.require(*REMOVING)

    def decide(at: AtTableDay) -> None:
        at.record(td.drop_step(at.state, "DropBoxRemoved", who=actor.username), role)
    return run(actor, table_id, step_day(actor, "DropBoxRemoved", gaming_day), decide)


def drop_count(*, actor: Actor, table_id: Any, cash: Any = None, chips: Any = None,
               gaming_day: Any = None) -> TableDay:
    """One of the count team enters the box's contents by denomination: the currency,
    and at a poker table the rake chips."""
    role = actor.require(*COUNTING)

    def decide(at: AtTableDay) -> None:
        decided = td.drop_step(at.state, "DropCounted", who=actor.username, cash=cash,
                               chips=chips)
        _not_a_worker(at)
        at.record(decided, role)
    return run(actor, table_id, step_day(actor, "DropCounted", gaming_day), decide)


def drop_count_sign(*, actor: Actor, table_id: Any, gaming_day: Any = None) -> TableDay:
    """A second member of the count team signs the count."""
    role = actor.require(*COUNTING)

    def decide(at: AtTableDay) -> None:
        decided = td.drop_step(at.state, "DropCountSigned", who=actor.username)
        _not_a_worker(at)
        at.record(decided, role)
    return run(actor, table_id, step_day(actor, "DropCountSigned", gaming_day), decide)


def drop_accept(*, actor: Actor, table_id: Any, gaming_day: Any = None) -> TableDay:
    """A cashier accepts the signed count: the drop is final, and a drop variance beyond
    the tolerance is recorded as an exception in the same transaction (module
    docstring). After the gaming day's close, every variance it shows is recorded at
    once (an adjustment, ``after_close``)."""
    from finance.services.close import variances_of  # the close's own reconciliation

    role = actor.require(*CAGE)

    def decide(at: AtTableDay) -> None:
        decided = [td.drop_step(at.state, "DropCountAccepted", who=actor.username)]
        closed = GamingDay.objects.filter(property_id=at.table.property_id,
                                          gaming_day=at.day, state="closed").exists()
        counted = at.state.drop.get("counted_cents")
        # Before the close only the drop is final here: the tray's figures wait for the
        # close (a round settled later still moves the expected closer).
        decided += variances_of(at.table, at.day, drop_counted_cents=counted,
                                tolerance_cents=settings.FINANCE_TOLERANCE_CENTS,
                                after_close=closed, only=None if closed else {DROP})
        at.record(decided, role)
    return run(actor, table_id, step_day(actor, "DropCountAccepted", gaming_day), decide)
