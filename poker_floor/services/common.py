"""What every floor command shares: the list locked for the command (one list per game,
its stream ``waitlist-<id>``), the roles, and the list's rules from the game's Rules
Submission."""

from __future__ import annotations

from typing import Any

from casino.actors import Actor
from casino.domain.errors import DomainError
from casino.eventstore.store import NewEvent, RecordedEvent, Stream, append
from casino.roles import Role
from casino.scoping import property_row
from poker_floor.models import Waitlist
from poker_room.domain.rules_schema import WAITLIST_DEFAULTS

#: who keeps the lists, calls players and moves them: a floorperson or the poker shift
#: supervisor. They alone read a listed player's name, phone and e-mail.
FLOOR = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: who seats a called player: the dealer at the table too (poker_room's SEATING)
SEATING = (Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)

#: the list rules when the game's Rules Submission says nothing (the posted procedure for a
#: called player who does not come: moved down ``move_down_places``; removed after
#: ``missed_calls_allowed`` misses): the schema's defaults, one copy
#: (call_minutes 5, move_down_places 3, missed_calls_allowed 2)
DEFAULT_LIST_RULES = WAITLIST_DEFAULTS


class FloorError(DomainError):
    code = "invalid_floor_command"


class AtList:
    """A list locked for one command (``select_for_update``): its events are appended at
    the version the row was read at, so a command decided on a stale list is refused."""

    def __init__(self, actor: Actor, waitlist_id: Any, roles: tuple[Role, ...] = FLOOR):
        self.role = actor.require(*roles)
        self.list: Waitlist = property_row(Waitlist.objects.select_for_update(), actor,
                                           waitlist_id, what="waitlist")
        self.list.property = actor.property  # the row is the actor's property's: no read
        self.actor = actor

    def record(self, *events: NewEvent, **meta: Any) -> list[RecordedEvent]:
        return append(Stream("waitlist", self.list.stream_id), self.list.stream_version,
                      list(events), self.actor.metadata(role=self.role, **meta),
                      savepoint=False)


def list_rules(options: dict[str, Any] | None) -> dict[str, int]:
    """The list rules of a game's Rules Submission options (its ``waitlist`` section,
    validated by poker_room.domain.rules_schema), the defaults where it has none."""
    rules = dict(DEFAULT_LIST_RULES)
    rules.update((options or {}).get("waitlist") or {})
    return rules
