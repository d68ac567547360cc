"""The one way to scope a read to the caller's property (issue 11; DESIGN §5).

Every view, selector and service that reads rows or events of a property goes through
here, so "another property's rows are not shown" is written once: a row of another
property is answered exactly like a row that does not exist (404), never 403, so its
existence is not disclosed either.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.db.models import Q, QuerySet

from casino.actors import Actor
from casino.domain.errors import NotFoundError


def property_rows(rows: QuerySet, actor: Actor, *, via: str = "property") -> QuerySet:
    """``rows`` of the actor's property; ``via`` is the path to the property
    (``"table__property"`` for a round)."""
    # the property's own rows (``via="pk"``) are matched by its key, not the instance
    return rows.filter(**{via: actor.property.pk if via == "pk" else actor.property})


def parse_key(pk: Any, *, what: str, parse: Callable[[Any], Any] = uuid.UUID) -> Any:
    """A row key as the database holds it, or 404 ``<what>_not_found`` for a malformed
    one (as :func:`property_row` answers it): for code that reads the row itself, such as
    the command runner (:mod:`casino.command_runner`), which then scopes its read to the
    caller's property the same way."""
    try:
        return parse(str(pk))
    except (TypeError, ValueError, OverflowError):
        raise NotFoundError(f"no {what.replace('_', ' ')} {pk}",
                            code=f"{what}_not_found") from None


def property_row(rows: QuerySet, actor: Actor, pk: Any, *, what: str,
                 via: str = "property", field: str = "pk",
                 parse: Callable[[Any], Any] = uuid.UUID) -> Any:
    """The row whose ``field`` is ``pk`` at the actor's property, or 404
    ``<what>_not_found`` — for a malformed key and for another property's row alike."""
    missing = NotFoundError(f"no {what.replace('_', ' ')} {pk}", code=f"{what}_not_found")
    try:
        key = parse(str(pk))
        return property_rows(rows, actor, via=via).get(**{field: key})
    except (TypeError, ValueError, OverflowError, rows.model.DoesNotExist):
        raise missing from None


def whole_number(text: str) -> int:
    """A key that is a database integer (a login's id): 1 to 2**63 - 1."""
    value = int(text)
    if not 0 < value < 2**63:
        raise ValueError(text)
    return value


def event_rows(events: QuerySet, actor: Actor) -> QuerySet:
    """Events the actor may read: those recorded for their property, or every property's
    for a compliance officer granted the whole group (``StaffProfile.group_wide``).
    Events record their property in ``metadata["property"]`` (``Actor.metadata``)."""
    if actor.group_wide:
        return events
    return events.filter(Q(metadata__property=actor.property.licence_number))


#: ``property_path`` of a model the whole group shares or that holds no property's data.
UNSCOPED = "unscoped"
#: ``property_path`` of a technical read model that names every property's streams: only
#: a group-wide officer sees it.
GROUP_ONLY = "group-only"
#: ``property_path`` of the event log itself.
EVENTS = "events"


def admin_rows(rows: QuerySet, user: Any, property_path: str) -> QuerySet:
    """What the (read-only) admin site lists for ``user``: the same scoping as the API.
    A login that is not staff of a property sees nothing."""
    from casino.actors import NoStaffProfile, actor_of

    try:
        actor = actor_of(user)
    except NoStaffProfile:
        return rows.none()
    if property_path == UNSCOPED:
        return rows
    if property_path == GROUP_ONLY:
        return rows if actor.group_wide else rows.none()
    if property_path == EVENTS:
        return event_rows(rows, actor)
    return property_rows(rows, actor, via=property_path)
