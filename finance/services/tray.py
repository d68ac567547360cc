"""The chip tray of a table through its gaming day: the opening and closing inventory
slips (recorded by the dealer, signed by a floorperson), the chips sold for cash (the
cash goes into the drop box), and the fill and credit slips (requested by a floorperson,
prepared by a cashier, signed by the runner who carries them and by the dealer or
floorperson at the table; an unused or voided slip is voided with its reason, so every
slip is accounted for). Each step an event with its person, role and credential; the
gaming day each is recorded against is :mod:`finance.domain.recording_day`'s rule.
"""

from __future__ import annotations

import uuid
from typing import Any

from casino.actors import Actor
from casino.domain.errors import NotFoundError
from casino.scoping import parse_key
from finance.domain import table_day as td
from finance.domain.recording_day import check_opener_before_play
from finance.models import TableDay
from finance.services.common import (
    AT_TABLE,
    CAGE,
    DEALING,
    FLOOR,
    RUNNERS,
    VOIDING,
    AtTableDay,
    played,
    run,
    step_day,
    text,
)
from tables.models import Round


def inventory_record(*, actor: Actor, table_id: Any, slip: Any, pieces: Any,
                     gaming_day: Any = None) -> TableDay:
    """The dealer records the tray's opening (``opener``) or closing (``closer``) count,
    chips by denomination; it counts once a floorperson has signed it. The opener comes
    before the table's first round or hand of the day: 409 ``opener_after_play`` after
    (:mod:`finance.domain.recording_day`)."""
    role = actor.require(*DEALING)

    def decide(at: AtTableDay) -> None:
        decided = td.inventory_record(at.state, slip=slip, pieces=pieces, who=actor.username)
        check_opener_before_play(slip, played=played(at.table, at.day))
        at.record(decided, role)
    return run(actor, table_id, step_day(actor, "InventorySlipRecorded", gaming_day), decide)


def inventory_sign(*, actor: Actor, table_id: Any, slip: Any,
                   gaming_day: Any = None) -> TableDay:
    """A floorperson who is not the dealer who recorded it signs the inventory slip."""
    role = actor.require(*FLOOR)

    def decide(at: AtTableDay) -> None:
        at.record(td.inventory_sign(at.state, slip=slip, who=actor.username), role)
    return run(actor, table_id, step_day(actor, "InventorySlipSigned", gaming_day), decide)


def chips_sell(*, actor: Actor, table_id: Any, amount_cents: Any,
               round_id: Any = None) -> TableDay:
    """The dealer sells chips for cash at the table (in a round or between hands): the
    chips leave the tray, the cash goes into the drop box (§ 579.7(a), § 589.7(a):
    wagers are made with chips, cash is not wagered). ``round_id`` names the round or
    hand it was sold in, one of this table's (404 ``round_not_found`` otherwise)."""
    role = actor.require(*DEALING)

    def decide(at: AtTableDay) -> None:
        decided = td.chips_sell(at.state, amount_cents=amount_cents)
        if round_id is not None:
            decided[1]["round_id"] = str(_round_at(at, round_id))
        at.record(decided, role)
    return run(actor, table_id, step_day(actor, "ChipsSold", None), decide)


def poker_cash_sale(*, actor: Actor, table_id: Any, amount_cents: int, seat: int,
                    paid_for: str, role: str) -> None:
    """A poker buy-in or add-on paid in cash at the table (§ 637a.8(b)(2)-(3): added to
    the table stakes between rounds, the currency converted into chips by the dealer;
    registered with :mod:`poker_room.chip_sales`): the chips sold, in the table day's
    stream, by the seating command and in its transaction, so the dealer records one
    thing. Refused as
    any chip sale is (after the closing inventory, once the box is removed): the seat is
    then refused with it, nothing recorded."""
    at = AtTableDay(actor, table_id, step_day(actor, "ChipsSold", None))
    type_, data = td.chips_sell(at.state, amount_cents=amount_cents)
    at.record((type_, {**data, "seat": seat, "paid_for": paid_for}), role)


def _round_at(at: AtTableDay, round_id: Any) -> Any:
    """The key of ``round_id``, a round or hand of the table; 404 ``round_not_found``."""
    key = parse_key(round_id, what="round")
    if not Round.objects.filter(pk=key, table=at.table).exists():
        raise NotFoundError(f"no round or hand {round_id} at {at.table.name}",
                            code="round_not_found", field="round_id")
    return key


def slip_request(*, actor: Actor, table_id: Any, kind: Any, pieces: Any) -> TableDay:
    """A floorperson requests a fill (chips to the table) or a credit (chips to the
    cage) listing the chips by denomination."""
    role = actor.require(*FLOOR)

    def decide(at: AtTableDay) -> None:
        at.record(td.slip_request(at.state, slip_id=str(uuid.uuid4()), kind=kind,
                                  pieces=pieces), role)
    return run(actor, table_id, step_day(actor, "SlipRequested", None), decide)


def _slip_step(type_: str, roles: tuple[Any, ...]) -> Any:
    def step(*, actor: Actor, table_id: Any, slip_id: Any, gaming_day: Any = None
             ) -> TableDay:
        role = actor.require(*roles)

        def decide(at: AtTableDay) -> None:
            at.record(td.slip_step(at.state, type_, slip_id=slip_id, who=actor.username),
                      role)
        return run(actor, table_id, step_day(actor, type_, gaming_day), decide)
    return step


slip_prepare = _slip_step("SlipPrepared", CAGE)
slip_prepare.__name__ = "slip_prepare"
slip_prepare.__doc__ = "The cashier prepares the fill or credit slip requested."
slip_carry = _slip_step("SlipCarried", RUNNERS)
slip_carry.__name__ = "slip_carry"
slip_carry.__doc__ = "The runner (security) signs for carrying the chips and the slip."
slip_complete = _slip_step("SlipCompleted", AT_TABLE)
slip_complete.__name__ = "slip_complete"
slip_complete.__doc__ = ("The dealer or floorperson at the table signs: the fill or credit "
                         "is made and counts in the tray.")


def slip_void(*, actor: Actor, table_id: Any, slip_id: Any, reason: Any,
              gaming_day: Any = None) -> TableDay:
    """A slip not used (or spoiled) is voided with its reason, so it is accounted for."""
    role = actor.require(*VOIDING)
    why = text(reason, "reason", 500, code="invalid_reason")

    def decide(at: AtTableDay) -> None:
        at.record(td.slip_void(at.state, slip_id=slip_id, reason=why), role)
    return run(actor, table_id, step_day(actor, "SlipVoided", gaming_day), decide)
