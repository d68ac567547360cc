"""One table's gaming day as finance sees it: the chip tray's inventory slips, the chips
sold for cash, the fill and credit slips, the drop box from removal to the cashier's
acceptance, and the variances found against the events. Pure: folded from the events of
the table day's own stream (``finance_table_day-<table>-<day>``) and deciding on them.

Every step names its person; nobody signs two steps of one slip or count (the dealer
who recorded an inventory does not verify it, the runner who carried a fill does not
receive it, the counter does not sign the count, the explainer does not sign off).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.domain.money import format_money, said_amount

#: chip denominations a tray, a fill or a credit slip lists (cents)
CHIP_DENOMINATIONS = (25, 50, 100, 250, 500, 1000, 2500, 10000, 50000, 100000, 500000)
#: currency found in a drop box (cents)
CASH_DENOMINATIONS = (100, 200, 500, 1000, 2000, 5000, 10000)
OPENER, CLOSER = "opener", "closer"
FILL, CREDIT = "fill", "credit"

#: a drop box's way from the table to the cage's books
DROP_STEPS = ("in_play", "removed", "counted", "signed", "accepted")
#: the most pieces of one denomination a slip or a count lists: more is a typing error
#: (100,000 chips of $5,000 is $500 million), and it keeps every total within the
#: database's 64-bit integers
MAX_PIECES = 100_000
#: the most one chip sale may be: a million dollars in cash at a table is a typing error
MAX_SALE_CENTS = 100_000_000
#: a fill or credit slip's way: requested by the floor, prepared by the cage, signed by the
#: runner who carries it and by the dealer or floorperson at the table (or voided)
SLIP_STEPS = ("requested", "prepared", "carried", "completed")


class FinanceError(DomainError):
    code = "invalid_finance_command"


def slip_number(slip_id: Any) -> str:
    """How a fill or credit slip is named to a person: the first eight characters of its
    id, upper case (the console's lists, the table day's panel, the record's events)."""
    return str(slip_id)[:8].upper()


def denominations(value: Any, *, allowed: tuple[int, ...], field: str) -> dict[str, int]:
    """``{"2500": 4, ...}`` checked: known denominations (cents, as text or numbers),
    whole non-negative counts of at most :data:`MAX_PIECES`, at least one denomination
    listed; keys normalised to text.

    400 ``negative_count`` for a count below zero, ``invalid_count`` for a count that is
    not a whole number or is past :data:`MAX_PIECES`, ``invalid_denomination`` for a
    denomination not in ``allowed`` (or no listing at all)."""
    if not isinstance(value, dict) or not value:
        raise FinanceError(f"{field} lists pieces by denomination in cents, "
                           f'e.g. {{"2500": 4}}', code="invalid_denomination", field=field)
    out: dict[str, int] = {}
    for key, count in value.items():
        try:
            denom = int(key)
        except (TypeError, ValueError):
            denom = -1
        if denom not in allowed:
            raise FinanceError(f"{field}: {key!r} is not a denomination: {_named(allowed)}",
                               code="invalid_denomination", field=field)
        # a person reads the refusal: the piece named in dollars (issue 22)
        piece = f"{format_money(denom)} pieces"
        if not isinstance(count, int) or isinstance(count, bool):
            raise FinanceError(f"{field}: the count of {piece} is a whole number",
                               code="invalid_count", field=field)
        if count < 0:
            raise FinanceError(f"{field}: the count of {piece} is {count}; a count is never "
                               "negative", code="negative_count", field=field)
        # "25" and "025" name one denomination: their pieces add up, within the limit
        count += out.get(str(denom), 0)
        if count > MAX_PIECES:
            raise FinanceError(f"{field}: {count:,} {piece} is more than {MAX_PIECES:,}",
                               code="invalid_count", field=field)
        out[str(denom)] = count
    return out


def _named(allowed: tuple[int, ...]) -> str:
    """The denominations as a refusal states them: in dollars, each with the key that
    lists it ("$25.00 as "2500""), since the keys are cents."""
    return ", ".join(f'{format_money(d)} as "{d}"' for d in allowed)


def total_cents(pieces: dict[str, int]) -> int:
    return sum(int(d) * n for d, n in pieces.items())


@dataclass
class TableDayState:
    """What the table day's stream says so far."""

    version: int = 0
    inventories: dict[str, dict[str, Any]] = field(default_factory=dict)
    chip_sales_cents: int = 0
    chip_sales: int = 0
    slips: dict[str, dict[str, Any]] = field(default_factory=dict)
    drop: dict[str, Any] = field(default_factory=lambda: {"state": "in_play", "signers": {}})
    variances: dict[str, dict[str, Any]] = field(default_factory=dict)

    # -- figures -------------------------------------------------------------------------
    def inventory_cents(self, kind: str) -> int | None:
        """A signed inventory slip's total; None until the floorperson has signed."""
        slip = self.inventories.get(kind)
        return slip["total_cents"] if slip and slip["state"] == "signed" else None

    def slips_cents(self, kind: str) -> int:
        return sum(s["total_cents"] for s in self.slips.values()
                   if s["kind"] == kind and s["state"] == "completed")

    def open_slips(self) -> list[str]:
        return sorted(k for k, s in self.slips.items() if s["state"] not in
                      ("completed", "voided"))

    # -- refusals ------------------------------------------------------------------------
    def slip(self, slip_id: Any) -> dict[str, Any]:
        found = self.slips.get(str(slip_id))
        if found is None:
            raise NotFoundError(f"no fill or credit slip {slip_id} at this table today",
                                code="slip_not_found")
        return found


def check_signer(signers: dict[str, str], who: str, step: str) -> None:
    """409 ``signed_already`` when ``who`` signed another step of the same item."""
    done = signers.get(who)
    if done is not None and done != step:
        raise ConflictError(f"{who} signed this already ({done}); another person signs "
                            f"the {step}", code="signed_already")


def _step(item: dict[str, Any], expected: str | tuple[str, ...], doing: str,
          code: str) -> None:
    wanted = (expected,) if isinstance(expected, str) else expected
    if item["state"] not in wanted:
        raise ConflictError(f"it is {item['state']}: it cannot be {doing} now", code=code)


def evolve(state: TableDayState, type_: str, data: dict[str, Any],
           meta: dict[str, Any]) -> TableDayState:
    """Apply one event (the stream is this table day's alone)."""
    who = meta.get("actor", "")
    state.version += 1
    if type_ == "InventorySlipRecorded":
        state.inventories[data["slip"]] = {
            "state": "recorded", "pieces": data["pieces"], "total_cents": data["total_cents"],
            "signers": {who: "recorded"}}
    elif type_ == "InventorySlipSigned":
        slip = state.inventories[data["slip"]]
        slip["state"] = "signed"
        slip["signers"][who] = "signed"
    elif type_ == "ChipsSold":
        state.chip_sales_cents += data["amount_cents"]
        state.chip_sales += 1
    elif type_ == "SlipRequested":
        state.slips[data["slip_id"]] = {
            "kind": data["kind"], "state": "requested", "pieces": data["pieces"],
            "total_cents": data["total_cents"], "signers": {who: "requested"}}
    elif type_ in ("SlipPrepared", "SlipCarried", "SlipCompleted"):
        slip = state.slips[data["slip_id"]]
        slip["state"] = {"SlipPrepared": "prepared", "SlipCarried": "carried",
                         "SlipCompleted": "completed"}[type_]
        slip["signers"][who] = slip["state"]
    elif type_ == "SlipVoided":
        slip = state.slips[data["slip_id"]]
        slip["state"] = "voided"
        slip["void_reason"] = data["reason"]
    elif type_ in ("DropBoxRemoved", "DropCounted", "DropCountSigned", "DropCountAccepted"):
        step = {"DropBoxRemoved": "removed", "DropCounted": "counted",
                "DropCountSigned": "signed", "DropCountAccepted": "accepted"}[type_]
        state.drop["state"] = step
        state.drop["signers"][who] = step
        if type_ == "DropCounted":
            state.drop.update(cash=data["cash"], chips=data["chips"],
                              counted_cents=data["counted_cents"])
    elif type_ == "VarianceRecorded":
        state.variances[data["exception_id"]] = {**data, "state": "open", "signers": {}}
    elif type_ == "VarianceRevised":
        # the figures moved after the exception was recorded (a time charge verified
        # after the count's acceptance): its figures are the close's, explained anew
        v = state.variances[data["exception_id"]]
        v.update(expected_cents=data["expected_cents"], counted_cents=data["counted_cents"],
                 variance_cents=data["variance_cents"], state="open", revised=True)
    elif type_ == "VarianceExplained":
        v = state.variances[data["exception_id"]]
        v.update(state="explained", explanation=data["explanation"], explained_by=who)
        v["signers"][who] = "explained"
    elif type_ == "VarianceSignedOff":
        v = state.variances[data["exception_id"]]
        v.update(state="signed_off", signed_off_by=who)
        v["signers"][who] = "signed_off"
    return state


def fold(events: Any) -> TableDayState:
    state = TableDayState()
    for type_, data, meta in events:
        evolve(state, type_, data, meta)
    return state


# -- decisions (each returns the event's type and data, or raises) --------------------------

def inventory_record(state: TableDayState, *, slip: Any, pieces: Any,
                     who: str) -> tuple[str, dict[str, Any]]:
    if slip not in (OPENER, CLOSER):
        raise FinanceError("slip is 'opener' or 'closer'", code="invalid_slip", field="slip")
    counted = denominations(pieces, allowed=CHIP_DENOMINATIONS, field="pieces")
    if slip in state.inventories:
        raise ConflictError(f"the {slip} of this table and gaming day is recorded already",
                            code="inventory_recorded_already")
    if slip == CLOSER and state.open_slips():
        raise ConflictError("a fill or credit slip is not signed yet: "
                            f"{', '.join(state.open_slips())}; sign or void it first",
                            code="fill_unsigned")
    return "InventorySlipRecorded", {"slip": slip, "pieces": counted,
                                     "total_cents": total_cents(counted)}


def inventory_sign(state: TableDayState, *, slip: Any, who: str) -> tuple[str, dict[str, Any]]:
    found = state.inventories.get(slip) if isinstance(slip, str) else None
    if found is None:
        raise NotFoundError(f"no {slip} inventory slip recorded for this table today",
                            code="slip_not_found")
    _step(found, "recorded", "signed", "slip_out_of_order")
    check_signer(found["signers"], who, "signed")
    return "InventorySlipSigned", {"slip": slip}


def _table_day_open(state: TableDayState, doing: str) -> None:
    """409 ``table_day_closed`` once the closing inventory is recorded: the tray is
    counted, nothing more moves in or out of it that gaming day."""
    if CLOSER in state.inventories:
        raise ConflictError(f"the table's closing inventory is recorded: no more {doing} "
                            "today", code="table_day_closed")


def chips_sell(state: TableDayState, *, amount_cents: Any,
               round_id: str | None = None) -> tuple[str, dict[str, Any]]:
    """Chips sold for cash at the table: a whole number of cents, 1 to
    :data:`MAX_SALE_CENTS` (400 ``invalid_amount``); the chips leave the tray, so not after
    the closing inventory (409 ``table_day_closed``), and the cash goes into the drop box,
    so not once the box is removed (409 ``drop_removed``)."""
    whole = isinstance(amount_cents, int) and not isinstance(amount_cents, bool)
    if not whole or not 0 < amount_cents <= MAX_SALE_CENTS:
        raise FinanceError(f"amount_cents is a whole number of cents, $0.01 to "
                           f"{format_money(MAX_SALE_CENTS)}, not {said_amount(amount_cents)}",
                           code="invalid_amount", field="amount_cents")
    _table_day_open(state, "chip sales")
    if state.drop["state"] != "in_play":
        raise ConflictError("the drop box is removed: the cash of a chip sale has no box "
                            "to go into", code="drop_removed")
    data: dict[str, Any] = {"amount_cents": amount_cents}
    if round_id is not None:
        data["round_id"] = str(round_id)
    return "ChipsSold", data


def slip_request(state: TableDayState, *, slip_id: str, kind: Any,
                 pieces: Any) -> tuple[str, dict[str, Any]]:
    if kind not in (FILL, CREDIT):
        raise FinanceError("kind is 'fill' or 'credit'", code="invalid_slip", field="kind")
    counted = denominations(pieces, allowed=CHIP_DENOMINATIONS, field="pieces")
    total = total_cents(counted)
    if total <= 0:
        raise FinanceError("a fill or credit moves at least one chip", code="invalid_slip",
                           field="pieces")
    _table_day_open(state, "fill or credit slips")
    return "SlipRequested", {"slip_id": slip_id, "kind": kind, "pieces": counted,
                             "total_cents": total}


_SLIP_NEXT = {"SlipPrepared": ("requested", "prepared"),
              "SlipCarried": ("prepared", "carried"),
              "SlipCompleted": ("carried", "completed")}


def slip_step(state: TableDayState, type_: str, *, slip_id: Any,
              who: str) -> tuple[str, dict[str, Any]]:
    """Prepared by the cage, carried (signed) by the runner, signed at the table: in this
    order, each by another person; 409 ``fill_out_of_order`` otherwise."""
    slip = state.slip(slip_id)
    before, step = _SLIP_NEXT[type_]
    _step(slip, before, f"{step}", "fill_out_of_order")
    check_signer(slip["signers"], who, step)
    return type_, {"slip_id": str(slip_id)}


def slip_void(state: TableDayState, *, slip_id: Any, reason: str) -> tuple[str, dict[str, Any]]:
    slip = state.slip(slip_id)
    _step(slip, ("requested", "prepared", "carried"), "voided", "fill_out_of_order")
    return "SlipVoided", {"slip_id": str(slip_id), "reason": reason}


def drop_step(state: TableDayState, type_: str, *, who: str,
              cash: Any = None, chips: Any = None) -> tuple[str, dict[str, Any]]:
    """Removed by security, counted by one of the count team, signed by another, accepted
    by a cashier: in this order; 409 ``count_out_of_order`` otherwise."""
    before = {"DropBoxRemoved": "in_play", "DropCounted": "removed",
              "DropCountSigned": "counted", "DropCountAccepted": "signed"}[type_]
    _step(state.drop, before, type_, "count_out_of_order")
    step = DROP_STEPS[DROP_STEPS.index(before) + 1]
    check_signer(state.drop["signers"], who, step)
    if type_ != "DropCounted":
        return type_, {}
    # an empty box is counted as nothing ({} or left out); anything else is a listing
    cash_n = {} if cash is None or cash == {} else \
        denominations(cash, allowed=CASH_DENOMINATIONS, field="cash")
    chips_n = {} if chips is None or chips == {} else \
        denominations(chips, allowed=CHIP_DENOMINATIONS, field="chips")
    return type_, {"cash": cash_n, "chips": chips_n,
                   "counted_cents": total_cents(cash_n) + total_cents(chips_n)}


def variance(state: TableDayState, exception_id: Any) -> dict[str, Any]:
    found = state.variances.get(str(exception_id))
    if found is None:
        raise NotFoundError(f"no exception {exception_id} at this table and gaming day",
                            code="exception_not_found")
    return found


def variance_explain(state: TableDayState, *, exception_id: Any, explanation: str,
                     who: str) -> tuple[str, dict[str, Any]]:
    v = variance(state, exception_id)
    _step(v, ("open", "explained"), "explained", "exception_signed_off")
    return "VarianceExplained", {"exception_id": str(exception_id), "explanation": explanation}


def variance_sign_off(state: TableDayState, *, exception_id: Any,
                      who: str) -> tuple[str, dict[str, Any]]:
    v = variance(state, exception_id)
    if v["state"] == "open":
        raise ConflictError("the exception is not explained yet", code="exception_unexplained")
    _step(v, "explained", "signed off", "exception_signed_off")
    # Whoever explained it — the last explainer or one before — does not sign it off.
    if v.get("explained_by") == who or v["signers"].get(who) == "explained":
        raise ConflictError("the person who explained an exception does not sign it off",
                            code="same_person")
    return "VarianceSignedOff", {"exception_id": str(exception_id)}
