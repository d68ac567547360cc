"""Tables: configured by admins, opened and closed by floorpersons, dealers assigned, and
equipment out of order recorded (589.13(g), 671a.13(g), 579.13(f))."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from casino.actors import Actor
from casino.eventstore.models import Event
from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import NewEvent
from casino.roles import Role, has_role
from casino.scoping import property_rows
from tables import timers
from tables.domain.catalogue import get_table_game
from tables.domain.decks import (
    DealingMethod,
    Shuffler,
    check_table_setup,
    deadline,
    time_limit,
)
from tables.models import Deck, DeckState, GameTable, TableStatus
from tables.services.common import (
    act_at_table,
    allowed,
    deck_limits,
    locked,
    record,
    record_new,
    setup_of,
)
from tables.selectors import rules_in_force

DEVICES = ("shuffler", "shoe")


def _choice(enum: type, value: Any, field: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        raise DomainError(f"{field} must be one of {', '.join(e.value for e in enum)}",
                          code=f"invalid_{field}", field=field) from None


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 40:
        raise DomainError("name must be 1 to 40 characters", code="invalid_input", field="name")
    return value.strip()


def _positions(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DomainError("positions must be a whole number", code="invalid_input",
                          field="positions")
    return value


def table_configure(*, actor: Actor, name: str, game: str, positions: int,
                    dealing_method: str, shuffler: str) -> GameTable:
    """A new table (closed). 589.2(a), 579.2(a), 637a.2(a) and the per-game maxima of
    637a.10(b)-637a.21(b) cap the positions."""
    role = actor.require(Role.ADMIN)
    g = get_table_game(game)
    dealing = _choice(DealingMethod, dealing_method, "dealing_method")
    shuf = _choice(Shuffler, shuffler, "shuffler")
    name, positions = _name(name), _positions(positions)
    check_table_setup(g, dealing, shuf, positions)
    table_id = uuid.uuid4()
    try:
        with transaction.atomic():
            record_new("table", f"table-{table_id}", [NewEvent("TableConfigured", {
                "property": actor.property.licence_number, "name": name, "game": game,
                "positions": positions, "dealing_method": dealing.value,
                "shuffler": shuf.value})], actor, role, table=table_id)
    except IntegrityError:
        raise ConflictError(f"there is already a table called {name!r}",
                            code="table_name_taken") from None
    return GameTable.objects.get(pk=table_id)


def table_reconfigure(*, actor: Actor, table_id: Any, changes: dict[str, Any]) -> GameTable:
    """Change a closed table's name, positions, dealing method or shuffler."""
    role = actor.require(Role.ADMIN)
    unknown = set(changes) - {"name", "positions", "dealing_method", "shuffler"}
    if unknown:
        field = sorted(unknown)[0]
        raise DomainError(f"{field} cannot be changed (a table's game is fixed: configure a "
                          "new table)", code="field_not_changeable", field=field)
    try:
        with transaction.atomic():
            table = locked(GameTable, table_id, actor, what="table")
            if table.status != TableStatus.CLOSED:
                raise ConflictError("close the table before changing it", code="table_open")
            if Deck.objects.filter(table=table, state=DeckState.IN_PLAY).exists() and (
                    "dealing_method" in changes or "shuffler" in changes):
                raise ConflictError("remove the decks in play before changing the equipment",
                                    code="decks_in_play")
            new = {"name": _name(changes.get("name", table.name)),
                   "positions": _positions(changes.get("positions", table.positions)),
                   "dealing_method": _choice(DealingMethod, changes.get(
                       "dealing_method", table.dealing_method), "dealing_method").value,
                   "shuffler": _choice(Shuffler, changes.get("shuffler", table.shuffler),
                                       "shuffler").value}
            check_table_setup(get_table_game(table.game), DealingMethod(new["dealing_method"]),
                              Shuffler(new["shuffler"]), new["positions"])
            changed = {k: v for k, v in new.items() if v != getattr(table, k)}
            if changed:
                record(table, [NewEvent("TableReconfigured", changed)], actor, role,
                       table=table.pk)
    except IntegrityError:
        raise ConflictError(f"there is already a table called {changes.get('name')!r}",
                            code="table_name_taken") from None
    return GameTable.objects.get(pk=table.pk)


def table_open(*, actor: Actor, table_id: Any) -> GameTable:
    """Open for gaming: only under a Rules Submission in force for the table's game (as of
    now, :func:`tables.selectors.rules_in_force`; nothing is put in effect here)."""
    with transaction.atomic():
        table = locked(GameTable, table_id, actor, what="table")
        role = act_at_table(actor, table, Role.FLOORPERSON)
        allowed(table, table.open, code="table_already_open", message="the table is open")
        rules = rules_in_force(actor.property, table.game)
        if rules is None:
            raise ConflictError(f"no Rules Submission for {table.game} is in effect",
                                code="no_rules_in_effect")
        record(table, [NewEvent("TableOpened", {"rules_submission_id": str(rules.pk),
                                                "rules_version_number": rules.version_number})],
               actor, role, table=table.pk)
    return GameTable.objects.get(pk=table.pk)


def table_close(*, actor: Actor, table_id: Any) -> GameTable:
    with transaction.atomic():
        table = locked(GameTable, table_id, actor, what="table")
        role = act_at_table(actor, table, Role.FLOORPERSON)
        allowed(table, table.close, code="table_closed", message="the table is already closed")
        if table.current_round_id:
            raise ConflictError("finish the round in progress first", code="round_in_progress")
        record(table, [NewEvent("TableClosed", {})], actor, role, table=table.pk)
    return GameTable.objects.get(pk=table.pk)


def table_assign_dealer(*, actor: Actor, table_id: Any, dealer: str) -> GameTable:
    """The dealer who acts at this table (a dealer acts only at their own table)."""
    with transaction.atomic():
        table = locked(GameTable, table_id, actor, what="table")
        role = act_at_table(actor, table, Role.FLOORPERSON)
        user = property_rows(get_user_model().objects.filter(username=dealer), actor,
                             via="staff__property").first()
        if user is None or not user.is_active or not has_role(user, Role.DEALER):
            raise DomainError(f"{dealer!r} is not a dealer of this property", code="not_a_dealer",
                              field="dealer")
        record(table, [NewEvent("DealerAssigned", {"dealer": user.get_username(),
                                                   "dealer_user_id": user.pk})],
               actor, role, table=table.pk)
    return GameTable.objects.get(pk=table.pk)


def table_equipment(*, actor: Actor, table_id: Any, device: str, out_of_order: bool,
                    covered_or_signed: bool = False, note: str = "") -> GameTable:
    """A shuffler or automated shoe out of order, or back in service.

    589.13(g), 671a.13(g), 579.13(f), 637a.18(r): the device is covered or signed out of
    order before any other method is used; the table then shuffles by hand (cut required,
    dealer counts) or deals by hand, and the deck time limit follows the dealing method
    now used. A floorperson puts it back in service; under the house's control (the
    setting ``EQUIPMENT_RESTORE_SECOND_FLOORPERSON``, on by default, not a chapter's rule)
    not whoever reported it.
    """
    if device not in DEVICES:
        raise DomainError(f"device must be one of {', '.join(DEVICES)}", code="invalid_device",
                          field="device")
    if not isinstance(out_of_order, bool):
        raise DomainError("out_of_order must be true or false", code="invalid_input",
                          field="out_of_order")
    with transaction.atomic():
        table = locked(GameTable, table_id, actor, what="table")
        # The dealer reports a failure; only a floorperson puts a device back in service
        # (which lengthens the deck limit from 4 to 8 hours).
        role = (act_at_table(actor, table, Role.FLOORPERSON, Role.DEALER) if out_of_order
                else act_at_table(actor, table, Role.FLOORPERSON))
        has_device = (table.shuffler != Shuffler.NONE if device == "shuffler"
                      else table.dealing_method == DealingMethod.AUTOMATED_SHOE)
        if not has_device:
            raise ConflictError(f"this table has no automated {device}", code="no_such_device")
        if getattr(table, f"{device}_out_of_order") == out_of_order:
            raise ConflictError(f"the {device} is already "
                                f"{'out of order' if out_of_order else 'in service'}",
                                code="equipment_unchanged")
        if out_of_order and covered_or_signed is not True:
            raise DomainError("589.13(g): cover the device or sign it out of order first",
                              code="out_of_order_sign_required", field="covered_or_signed")
        if not out_of_order:
            _not_the_reporter(table, device, actor)
        if out_of_order:
            event = NewEvent("EquipmentOutOfOrder", {"device": device, "covered_or_signed": True,
                                                     "note": str(note)[:500]})
        else:
            event = NewEvent("EquipmentRestored", {"device": device, "note": str(note)[:500]})
        record(table, [event], actor, role, table=table.pk)
        table.refresh_from_db()
        if device == "shoe":
            _recompute_deadlines(table, actor, role)
    return GameTable.objects.get(pk=table.pk)


def out_of_order_reports(table: GameTable) -> dict[str, dict[str, Any]]:
    """Each device of ``table`` now out of order with its report: who recorded it, when,
    whether it was covered or signed, and the note (the last ``EquipmentOutOfOrder`` of
    the device on the table's stream; one read)."""
    down = [d for d in DEVICES if getattr(table, f"{d}_out_of_order")]
    if not down:
        return {}
    reports: dict[str, dict[str, Any]] = {}
    events = Event.objects.filter(stream_id=table.stream_id, type="EquipmentOutOfOrder",
                                  data__device__in=down).order_by("-version")
    for e in events.only("data", "metadata", "recorded_at"):
        reports.setdefault(e.data["device"], {
            "device": e.data["device"], "reported_by": e.metadata.get("actor", ""),
            "role": e.metadata.get("role", ""), "at": e.recorded_at,
            "covered_or_signed": bool(e.data.get("covered_or_signed")),
            "note": e.data.get("note", "")})
    return reports


def may_put_back_in_service(actor: Actor, report: dict[str, Any] | None) -> bool:
    """A floorperson puts a device back in service; under the house's control
    ``EQUIPMENT_RESTORE_SECOND_FLOORPERSON`` (on by default) not the one who reported it
    out of order (``report``: its :func:`out_of_order_reports` entry), so a second person
    sees the repair. The chapters require only that the device be covered or signed before
    another method is used (637a.18(r), 589.13(g), 579.13(f), 671a.13(g)); the second
    person is the property's own control. The service refuses on it and the table's page
    offers the step on it."""
    if not actor.has(Role.FLOORPERSON):
        return False
    return (not second_floorperson_required() or report is None
            or report["reported_by"] != actor.username)


def second_floorperson_required() -> bool:
    """The house's control on putting equipment back in service is on (the setting)."""
    return bool(getattr(settings, "EQUIPMENT_RESTORE_SECOND_FLOORPERSON", True))


def _not_the_reporter(table: GameTable, device: str, actor: Actor) -> None:
    """The reporter is refused while the house's control is on (the floorperson's role is
    checked before)."""
    if not may_put_back_in_service(actor, out_of_order_reports(table).get(device)):
        raise ConflictError(f"{actor.username} reported the {device} out of order: under the "
                            "house's control another floorperson puts it back in service",
                            code="same_person")


def _recompute_deadlines(table: GameTable, actor: Actor, role: str) -> None:
    """The deck limit follows the dealing method in use (4 h by hand, 8 h from a shoe)."""
    setup = setup_of(table)
    basis, seconds = time_limit(setup, deck_limits())
    for deck in Deck.objects.select_for_update().filter(table=table, state=DeckState.IN_PLAY):
        if deck.limit_basis == basis:
            continue
        new_deadline = deadline(deck.entered_play_at, seconds)
        record(deck, [NewEvent("DeckDeadlineChanged", {
            "deadline_at": new_deadline.isoformat(), "limit_basis": basis,
            "limit_seconds": seconds})], actor, role, table=table.pk)
        if not deck.change_due:
            timers.schedule_deck_timers(deck.pk, new_deadline)
