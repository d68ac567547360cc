"""The lists (issue 24, item 1): one per game per property, a waitlist while a table of the
game is open and an interest list otherwise; players added by the floor (or the kiosk),
in the order added, and taken off with a reason.

A player's name, phone and e-mail go into the list's events sealed under a key of the
entry's own (:mod:`casino.personal_data`), never in clear; the read model keeps them in
clear for the floor's roles until they are erased.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import phonenumbers
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q

from casino.actors import Actor
from casino.domain.errors import ConflictError, NotFoundError
from casino.eventstore.store import NewEvent, Stream, append
from casino.models import Property
from casino.personal_data import key_create, retention_end, seal
from casino.scoping import property_row
from poker_floor.domain.queue import ACTIVE
from poker_floor.models import EntryKind, EntryStatus, ListEntry, Waitlist
from poker_floor.services.common import FLOOR, AtList, FloorError
from poker_room.board.selectors import stakes
from poker_room.models import Seat
from poker_room.services.seats import seat_leave
from tables.domain.catalogue import get_table_game
from tables.selectors import rules_in_force

#: where a list entry came from: the floor's own form, or the public feed's kiosk
SOURCES = ("floor", "kiosk")
#: the most players a list suggests a table for (0: never suggest)
MAX_OPEN_TABLE_AT = 99
NAME_MAX = 120
REASON_MAX = 500


class SystemAtList(AtList):
    """The list locked for a scheduled task (``casino.actors.system_actor``: no role) —
    the offers of vacant seats and the timeouts the beat sweep catches."""

    def __init__(self, actor: Actor, waitlist_id: Any):  # noqa: D107
        self.role = None  # type: ignore[assignment]
        self.list = property_row(Waitlist.objects.select_for_update(), actor, waitlist_id,
                                 what="waitlist")
        self.list.property = actor.property  # the row is the actor's property's: no read
        self.actor = actor


def at_list(actor: Actor, waitlist_id: Any, roles: tuple[Any, ...] = FLOOR) -> AtList:
    """The list locked for ``actor``: a system actor acts without a role, anyone else
    under one of ``roles``."""
    return SystemAtList(actor, waitlist_id) if actor.system else AtList(actor, waitlist_id,
                                                                         roles)


def list_name(property: Property, game: str) -> str:
    """"$4.00/$8.00 fixed limit Hold'em": the limits of the game's Rules Submission in
    force as the room board gives them (637a.8(k)), then the game; the game alone without
    one."""
    title = get_table_game(game).name
    rules = rules_in_force(property, game)
    if rules is None:
        return title[:NAME_MAX]
    return f"{stakes(rules.options).split(', ')[0]} {title}"[:NAME_MAX]


def _open_table_at(value: Any) -> int:
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) \
            or not 0 <= value <= MAX_OPEN_TABLE_AT:
        raise FloorError(f"open_table_at is a number of players from 0 (never suggest) to "
                         f"{MAX_OPEN_TABLE_AT}", code="invalid_open_table_at",
                         field="open_table_at")
    return value


def waitlist_open(*, actor: Actor, game: Any, open_table_at: Any = None) -> Waitlist:
    """Open the list of a poker game at the actor's property (one per game: 409
    ``waitlist_exists``). It is an interest list until a table of the game opens."""
    role = actor.require(*FLOOR)
    g = get_table_game(game)
    if not g.is_poker:
        raise FloorError(f"{g.name} is not a poker game: lists are kept for poker games",
                         code="list_not_poker", field="game")
    threshold = _open_table_at(open_table_at)
    with transaction.atomic():
        # one list per game: the property's row is the lock two first lists would race for
        Property.objects.select_for_update().only("pk").get(pk=actor.property.pk)
        if Waitlist.objects.filter(property=actor.property, game=g.id).exists():
            raise ConflictError(f"{g.name} has a list already", code="waitlist_exists",
                                field="game")
        waitlist_id = uuid.uuid4()
        append(Stream("waitlist", f"waitlist-{waitlist_id}"), 0,
               [NewEvent("WaitlistOpened", {"game": g.id,
                                            "name": list_name(actor.property, g.id),
                                            "open_table_at": threshold})],
               actor.metadata(role=role), savepoint=False)
    return Waitlist.objects.get(pk=waitlist_id)


def waitlist_configure(*, actor: Actor, waitlist_id: Any, open_table_at: Any) -> Waitlist:
    """How many waiting players make the console suggest opening a table (0: never)."""
    threshold = _open_table_at(open_table_at)
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        if threshold != at.list.open_table_at:
            at.record(NewEvent("WaitlistConfigured", {"open_table_at": threshold}))
    return Waitlist.objects.get(pk=at.list.pk)


# --- a player's details --------------------------------------------------------------

def player_name(value: Any) -> str:
    """A name or initials, 1 to 120 characters (400 ``invalid_player_name``)."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > NAME_MAX \
            or not value.isprintable():
        raise FloorError(f"give the player's name or initials (1 to {NAME_MAX} characters)",
                         code="invalid_player_name", field="name")
    return re.sub(r"\s+", " ", value.strip())


def player_phone(value: Any) -> str:
    """A telephone number ``phonenumbers`` finds valid, read in FLOOR_PHONE_REGION unless
    it starts with its +country code, given back in E.164 ("+12015550123"); "" for none.
    400 ``invalid_phone`` otherwise."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    bad = FloorError("that is not a telephone number", code="invalid_phone", field="phone")
    if not isinstance(value, str) or len(value) > 40:
        raise bad
    try:
        number = phonenumbers.parse(value, settings.FLOOR_PHONE_REGION)
    except phonenumbers.NumberParseException:
        raise bad from None
    if not phonenumbers.is_valid_number(number):
        raise bad
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def player_email(value: Any) -> str:
    """An e-mail address Django's validator accepts, or "" for none (400
    ``invalid_email``)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    bad = FloorError("that is not an e-mail address", code="invalid_email", field="email")
    if not isinstance(value, str) or len(value.strip()) > 254:
        raise bad
    try:
        validate_email(value.strip())
    except ValidationError:
        raise bad from None
    return value.strip()


def _already_listed(waitlist: Waitlist, name: str, phone: str, email: str) -> bool:
    """Whether the player is on the list already (an active entry: waiting or called):
    an entry with the same phone, or the same e-mail (any case), whatever its name — or
    with the same name (any case) when either entry has no phone or e-mail to tell two
    players of one name apart (review #10)."""
    same_name = Q(name__iexact=name)
    if phone or email:
        same_name &= Q(phone="", email="")
    same = same_name
    if phone:
        same |= Q(phone=phone)
    if email:
        same |= Q(email__iexact=email)
    return ListEntry.objects.filter(same, waitlist=waitlist, status__in=ACTIVE,
                                    erased=False).exists()


def player_list(*, actor: Actor, waitlist_id: Any, name: Any, phone: Any = "",
                email: Any = "", source: Any = "floor") -> ListEntry:
    """Add a player at the end of the list (after the table changes and the broken table's
    players, who are called first): the name or initials, and a phone or e-mail for paging
    if the player gives one. 409 ``already_listed`` for a player on the list already."""
    if source not in SOURCES:
        raise FloorError(f"source is {' or '.join(SOURCES)}", code="invalid_choice",
                         field="source")
    details = {"name": player_name(name), "phone": player_phone(phone),
               "email": player_email(email)}
    with transaction.atomic():
        # the kiosk lists a player as the system (``system:kiosk``, no role) once the
        # texted code is confirmed (poker_floor.kiosk); anyone else needs a floor role
        at = at_list(actor, waitlist_id)
        if _already_listed(at.list, **details):
            raise ConflictError(f"{details['name']} is on this list already",
                                code="already_listed")
        entry_id = uuid.uuid4()
        key = key_create(subject=entry_id, property_id=at.list.property_id,
                         kind="list_entry", retain_until=retention_end("list_entry"))
        at.record(NewEvent("PlayerListed", {
            "entry": str(entry_id), "details": seal(entry_id, details, key=key),
            "source": source,
            "kind": EntryKind.PLAYER.value, "from_table": None, "from_seat": None}))
    return ListEntry.objects.get(pk=entry_id)


def reason_given(value: Any) -> str:
    """The reason a step needs (a pass, an out-of-turn call, a cancelled call, a player
    taken off): 400 ``reason_required`` without one."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > REASON_MAX:
        raise FloorError(f"say why (text of 1 to {REASON_MAX} characters)",
                         code="reason_required", field="reason")
    return value.strip()


def active_entry(waitlist: Waitlist, entry_id: Any) -> ListEntry:
    """The entry of ``waitlist`` (404 ``entry_not_found``), waiting or called (409
    ``entry_not_listed`` once seated or taken off)."""
    try:
        entry = ListEntry.objects.get(pk=uuid.UUID(str(entry_id)), waitlist=waitlist)
    except (ValueError, TypeError, ListEntry.DoesNotExist):
        raise NotFoundError(f"no entry {entry_id} on this list", code="entry_not_found",
                            field="entry_id") from None
    if entry.status not in ACTIVE:
        raise ConflictError("the player is no longer on this list", code="entry_not_listed",
                            field="entry_id")
    return entry


def holder_left(entry: ListEntry) -> bool:
    """Whether the player of a table change or a broken table's entry has left the seat
    it was listed from (someone else may sit there now): such an entry moves nobody."""
    if entry.kind not in (EntryKind.CHANGE, EntryKind.BROKEN):
        return False
    return not Seat.objects.filter(table_id=entry.from_table, seat=entry.from_seat,
                                   seated_at__lte=entry.listed_at).exists()


def player_delist(*, actor: Actor, waitlist_id: Any, entry_id: Any,
                  reason: Any) -> ListEntry:
    """Take a player off the list, saying why (the player left, asked to be taken off,
    ...). A player with an open call is refused (409 ``entry_called``): cancel the call
    first (``call_cancel``).

    A broken table's player still seated at the closed table leaves the game with the
    table stakes: cashed out there (the poker room's ``seat_leave``, PlayerLeft) in the
    same transaction, so no stakes stay on record at a closed table and the player may be
    seated again (review #6)."""
    why = reason_given(reason)
    with transaction.atomic():
        at = AtList(actor, waitlist_id)
        entry = active_entry(at.list, entry_id)
        if entry.status == EntryStatus.CALLED:
            raise ConflictError("the player has a call open: cancel it first",
                                code="entry_called", field="entry_id")
        if entry.kind == EntryKind.BROKEN and not holder_left(entry):
            seat_leave(actor=actor, table_id=entry.from_table, seat=entry.from_seat)
        at.record(NewEvent("PlayerDelisted", {"entry": str(entry.pk), "reason": why}))
    return ListEntry.objects.get(pk=entry.pk)
