"""The jackpot boxes attached to a poker table (637a.2(e)).

A table that collects Bad Beat or High Hand Jackpot contributions (637a.15(c), 637a.16(c))
holds them in a transparent locked box attached on the drop box's side. The floor
registers each box for its fund, confirming the three things the chapter requires of it,
and removes it when it leaves the table; each is an event in the table's
``poker_table-<table id>`` stream carrying the table's boxes after it (the poker table's
row keeps them: :mod:`poker_room.projections`). A hand started at the table pays into a
fund only when the fund's box is registered there (:mod:`poker_room.services.hand_opening`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.domain.errors import ConflictError
from casino.eventstore.store import NewEvent
from poker_room.domain import contributions as jp
from poker_room.domain import seating
from poker_room.models import PokerTable
from poker_room.services.seats import FLOOR, AtTable, table_rules

#: who registers and removes a box: a floorperson or the poker shift supervisor, who
#: witness the funds' displays and verify their hits (jackpots.services)
BOX_ROLES = FLOOR


def _boxes(at: AtTable) -> dict[str, Any]:
    return dict(at.poker.jackpot_boxes or {}) if at.poker else {}


def _answer(at: AtTable) -> dict[str, Any]:
    poker = PokerTable.objects.filter(table_id=at.table.pk).first()
    return {"table": at.table.pk, "jackpot_boxes": poker.jackpot_boxes if poker else {}}


def jackpot_box_register(*, actor: Actor, table_id: Any, fund: Any, box: Any,
                         transparent: Any = False, locked: Any = False,
                         beside_drop_box: Any = False) -> dict[str, Any]:
    """637a.2(e): register the box ``box`` (its number or tag) on the table for ``fund``,
    a fund the table's rules in effect pay into; the person confirms the box is
    transparent, locked and attached on the same side of the table as the drop box. From
    the next hand dealt the table's contributions to the fund go into it. The table
    (404 for another property's) and the person's role (403) are checked before what
    they say of the box."""
    with transaction.atomic():
        at = AtTable(actor, table_id, BOX_ROLES)
        tag = jp.box_tag(box)
        jp.box_confirmed(transparent=transparent, locked=locked,
                         beside_drop_box=beside_drop_box)
        funds = jp.posted_funds(table_rules(at.table).shared_dict())
        boxes = jp.box_registered(_boxes(at), funds, fund, tag)
        at.record(NewEvent("JackpotBoxRegistered", {
            "fund": fund, "kind": funds[fund], "box": tag, "transparent": True,
            "locked": True, "beside_drop_box": True, "boxes": boxes}))
    return _answer(at)


def jackpot_box_remove(*, actor: Actor, table_id: Any, fund: Any, reason: Any
                       ) -> dict[str, Any]:
    """The fund's box taken off the table, with why (not during a hand: the hand dealt
    pays into it). From the next hand the table pays nothing into that fund (637a.2(e))."""
    with transaction.atomic():
        at = AtTable(actor, table_id, BOX_ROLES)
        why = seating.removal_reason(reason, "the box")
        boxes = _boxes(at)
        remaining = jp.box_removed(boxes, fund)
        if at.poker is not None and at.poker.current_hand_id is not None:
            raise ConflictError("the hand in progress pays into the box: remove it between "
                                "hands", code="hand_in_progress")
        at.record(NewEvent("JackpotBoxRemoved", {
            "fund": fund, "box": boxes[fund]["box"], "reason": why, "boxes": remaining}))
    return _answer(at)


__all__ = ["BOX_ROLES", "jackpot_box_register", "jackpot_box_remove"]
