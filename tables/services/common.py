"""What every tables service does the same way: find a row of the actor's property and
lock it, check a step is allowed, and record events with who did it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.db import models
from django_fsm import can_proceed

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.store import NewEvent, RecordedEvent, Stream, append
from casino.roles import Role, RoleRequired
from casino.scoping import property_row
from tables.domain.catalogue import get_table_game
from tables.domain.decks import DealingMethod, Shuffler, TableSetup
from tables.models import GameTable

M = TypeVar("M", bound=models.Model)

STREAM_TYPE = {"RulesSubmission": "rules_submission", "GameTable": "table", "Deck": "deck",
               "Round": "round"}

NotFound = NotFoundError  # the name the tables services have used

class NotAssignedToTable(DomainError):
    code = "not_assigned_to_table"
    status = 403

def found(model: type[M], pk: Any, actor: Actor, *, what: str) -> M:
    """Like :func:`locked` without the lock (to learn which other row to lock first)."""
    return _get(model.objects.all(), pk, actor, what)

def locked(model: type[M], pk: Any, actor: Actor, *, what: str) -> M:
    """The row ``pk`` of the actor's property, locked until the transaction ends; 404 with
    ``<what>_not_found`` for anything else (another property's rows are not shown)."""
    return _get(model.objects.select_for_update(), pk, actor, what)

def _get(rows: Any, pk: Any, actor: Actor, what: str) -> Any:
    return property_row(rows, actor, pk, what=what)

def allowed(obj: models.Model, transition: Callable[[], None], *, code: str,
            message: str) -> None:
    """409 ``code`` unless the django-fsm ``transition`` may run from the row's state."""
    if not can_proceed(transition):
        raise ConflictError(message, code=code)

def record(obj: models.Model, events: Sequence[NewEvent], actor: Actor, role: str | None, *,
           idempotency_key: str | None = None, **meta: Any) -> list[RecordedEvent]:
    """Append ``events`` to ``obj``'s stream at the version the row was read at, so a
    command decided on stale state is refused (409 ``stream_version_conflict``). The
    service's transaction is the unit (a refusal fails the whole command), so the append
    takes no savepoint of its own."""
    stream = Stream(STREAM_TYPE[type(obj).__name__], obj.stream_id)  # type: ignore[attr-defined]
    return append(stream, obj.stream_version, list(events),  # type: ignore[attr-defined]
                  actor.metadata(role=role, **meta), idempotency_key=idempotency_key,
                  savepoint=False)

def record_new(stream_type: str, stream_id: str, events: Sequence[NewEvent], actor: Actor,
               role: str | None, **meta: Any) -> list[RecordedEvent]:
    """Start a new stream (expected version 0), in the service's transaction like
    :func:`record`."""
    return append(Stream(stream_type, stream_id), 0, list(events),
                  actor.metadata(role=role, **meta), savepoint=False)

def setup_of(table: GameTable) -> TableSetup:
    return TableSetup(game=get_table_game(table.game),
                      dealing_method=DealingMethod(table.dealing_method),
                      shuffler=Shuffler(table.shuffler),
                      shuffler_out_of_order=table.shuffler_out_of_order,
                      shoe_out_of_order=table.shoe_out_of_order)

def deck_limits() -> dict[str, int]:
    return dict(settings.DECK_LIMIT_SECONDS)

#: the role a system actor (``casino.actors.system_actor``) acts under at a table, as the
#: events' metadata records it: no person's role
SYSTEM_ROLE = "system"


def act_at_table(actor: Actor, table: GameTable, *roles: Role, system: bool = False) -> str:
    """The role the actor acts under at ``table``. Dealers act only at the table they are
    assigned to; floorpersons and above at any table of the property.

    A system actor holds no role: it acts only where the step allows it (``system``: the
    floor's automatic seat moves), under :data:`SYSTEM_ROLE`; any other step refuses it
    (403 ``role_required``), as it refuses a person without one of ``roles``."""
    if actor.system:
        if not system:
            raise RoleRequired(tuple(roles))
        return SYSTEM_ROLE
    # Someone who holds a higher role as well acts under it, not as a dealer.
    others = [r for r in roles if r != Role.DEALER]
    role = (actor.require(*others) if actor.has(*others) else actor.require(*roles))
    if role == Role.DEALER and table.dealer_id != actor.user_id:
        raise NotAssignedToTable(f"you are not the dealer assigned to table {table.name}")
    return role
