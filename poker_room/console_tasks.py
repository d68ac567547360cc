"""poker_room's "waiting for me" task providers and navigation (console.registry).

Time charges to verify (637a.17(b)(3)(v)): each period assessed at a poker table and
placed in the rake area waits for a floorperson or above to verify it before it goes in
the drop box. The time charge is assessed by the room's timer, not a person, so the step
has no first person; it is gone for everyone once verified. Read from the rake ledger's
read model (``TimeChargePeriod``) of the viewer's property in one query.

Players required to leave the game (637a.18(b)-(c)): each removal of a player at the
viewer's property waits on compliance's list until a compliance officer acknowledges the
notice; the person who removed the player (someone who is also a compliance officer) sees
it without the step. A notice never leaves the list before it is acknowledged, however
old: the home shows the oldest few, and the notices' pages (``REMOVALS_URL``) page through
them all. Read from the event log in one query
(:func:`poker_room.services.seats.removals_to_acknowledge`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from casino.actors import Actor
from casino.domain.money import format_money
from casino.roles import Role
from console.registry import (
    Listed,
    NavItem,
    TaskProvider,
    WaitingItem,
    command_url,
    listed,
    nav,
    task,
)
from poker_room import selectors
from poker_room.services import seats, time_charges
from tables.console_tasks import said_at
from tables.models import GameTable

#: the roles time_charge_verify admits (its declaration, the API's roles=)
VERIFY_ROLES = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: who reads the room's tables and seats (the API's TABLE_READERS): the floor page
FLOOR_READERS = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR,
                 Role.COMPLIANCE, Role.SECURITY)
FLOOR_URL = "/console/poker/"


def time_charges_to_verify(actor: Actor, limit: int | None = None) -> Listed:
    """Each period's time charge not yet verified, oldest first (the database counts
    them and reads the first ``limit``)."""
    now = timezone.now()

    def item(period: Any) -> WaitingItem:
        seats = len(period.charges)
        return WaitingItem(
            title=f"{period.table.name}: time charge to verify",
            detail=(f"{format_money(period.total_cents)} from {seats} "
                    f"seat{'s' if seats != 1 else ''} for the period from "
                    f"{said_at(period.period_start, actor, now)}"),
            action="Verify the time charge",
            url=command_url(time_charges.time_charge_verify.__name__, period.table_id,
                            period_start=period.period_start.isoformat()))
    return listed(selectors.time_charges_to_verify(actor.property), limit, item)


def removal_notice(actor: Actor) -> Callable[[Any], WaitingItem]:
    """A ``PlayerRemoved`` event made into the item compliance reads: the table, the seat,
    who removed the player, when and why, and the step to acknowledge the notice (not for
    the person who removed the player). The home's list and the notices' pages use it."""
    now = timezone.now()
    # the tables' names by the id the event's metadata records (one query: matched here,
    # not in SQL, as SQLite keeps a UUID without its hyphens)
    names = {str(pk): name for pk, name in GameTable.objects.filter(
        property=actor.property).values_list("pk", "name")}

    def item(e: Any) -> WaitingItem:
        by = e.metadata.get("actor", "")
        own = by == actor.username
        table = names.get(str(e.metadata.get("table")), "a table")
        return WaitingItem(
            title=f"{table}: player removed from seat {e.data.get('seat')}",
            detail=(f"Removed by {by} at {said_at(e.recorded_at, actor, now)}: "
                    f"{e.data.get('reason')}"
                    + ("; another compliance officer acknowledges it" if own else "")),
            action="Acknowledge the notice",
            first_by=by,
            actionable=not own,
            url=command_url(seats.player_removal_acknowledge.__name__,
                            e.metadata.get("table"), removal=e.version))
    return item


def removals_to_acknowledge(actor: Actor, limit: int | None = None) -> Listed:
    """Each player required to leave a game whose notice compliance has not acknowledged
    yet, oldest first, however old (637a.18(c))."""
    return listed(seats.removals_to_acknowledge(actor), limit, removal_notice(actor))


#: compliance's pages of every notice not yet acknowledged (poker_room.console_removals)
REMOVALS_URL = "/console/poker/removals/"
REMOVALS = task(TaskProvider(
    key="player_removals_to_acknowledge",
    title="Players required to leave a game",
    roles=seats.COMPLIANCE, items=removals_to_acknowledge, order=31,
    list_url=REMOVALS_URL))
TIME_CHARGES = task(TaskProvider(
    key="time_charges_to_verify", title="Time charges to verify", roles=VERIFY_ROLES,
    items=time_charges_to_verify, order=30, list_url=FLOOR_URL))

nav(NavItem(group="Poker room", label="Poker floor", url=FLOOR_URL, roles=FLOOR_READERS,
            counts=(TIME_CHARGES.key,), order=30))
