"""The finance app's commands, each declared once (issue 23, DESIGN §7): the chip tray's
slips, chip sales, fills and credits, the drop, the exceptions and a gaming day's close.
The API operation, the API reference and the console form are made from these.

No ``stream``: a table day's stream names its gaming day as well as the table
(``finance_table_day-<table>-<day>``), and the day comes from the body (default: today's),
so it is not derivable from the URL's id alone; an exception's stream is its table day's."""

from __future__ import annotations

from typing import Any

from casino.api.commands import EmptyInput
from casino.declared import declare
from finance import services
from finance.api.serializers import (
    ChipSaleIn,
    CloseIn,
    CountIn,
    DayIn,
    ExceptionOut,
    ExplainIn,
    GamingDayOut,
    InventoryIn,
    InventorySignIn,
    OpenItemOut,
    SlipIn,
    SlipStepIn,
    SlipVoidIn,
    TableDayOut,
)

T = "finance/tables/<str:pk>/"


def _table(service: Any, roles: tuple[Any, ...], input: type, route: str, url_name: str,
           label: str, summary: str, doc: str, created: bool = False) -> Any:
    return declare(service=service, input=input, output=TableDayOut, roles=roles,
                   path=T + route, url_name=url_name, id_arg="table_id", created=created,
                   label=label, summary=summary, doc=doc)


inventory_record = _table(
    services.inventory_record, services.DEALING, InventoryIn, "inventory/",
    "finance-inventory", "Record the tray's inventory",
    "Record the chip tray's opening or closing inventory.",
    "The dealer records the chip tray's opening or closing inventory by denomination.")
inventory_sign = _table(
    services.inventory_sign, services.FLOOR, InventorySignIn, "inventory/sign/",
    "finance-inventory-sign", "Sign the inventory slip",
    "Sign the chip tray's inventory slip as the floorperson.",
    "A floorperson (not the dealer who recorded it) signs the inventory slip.")
chips_sell = _table(
    services.chips_sell, services.DEALING, ChipSaleIn, "chip-sales/", "finance-chip-sales",
    "Record the chip sale", "Record a chip sale for cash at the table.",
    "The dealer sells chips for cash at the table; the cash goes into the drop box.")
slip_request = _table(
    services.slip_request, services.FLOOR, SlipIn, "slips/", "finance-slips",
    "Request the fill or credit", "Request a fill or a credit for a table.",
    "A floorperson requests a fill or a credit, chips by denomination.", created=True)
slip_prepare = _table(
    services.slip_prepare, services.CAGE, SlipStepIn, "slips/prepare/",
    "finance-slip-prepare", "Prepare the slip", "Prepare a fill or credit slip at the cage.",
    "The cashier prepares the fill or credit slip.")
slip_carry = _table(
    services.slip_carry, services.RUNNERS, SlipStepIn, "slips/carry/", "finance-slip-carry",
    "Sign for carrying the slip", "Sign for carrying a fill or credit to the table.",
    "The runner (security) signs for carrying the slip and the chips.")
slip_complete = _table(
    services.slip_complete, services.AT_TABLE, SlipStepIn, "slips/complete/",
    "finance-slip-complete", "Sign the slip at the table",
    "Sign at the table that a fill or credit is made.",
    "The dealer or floorperson signs at the table: the fill or credit is made.")
slip_void = _table(
    services.slip_void, services.VOIDING, SlipVoidIn, "slips/void/", "finance-slip-void",
    "Void the slip", "Void a fill or credit slip not used, with the reason.",
    "A slip not used is voided with its reason, so every slip is accounted for.")
drop_remove = _table(
    services.drop_remove, services.REMOVING, DayIn, "drop/remove/", "finance-drop-remove",
    "Record the drop box removed",
    "Remove a table's drop box at the end of the gaming day.",
    "Security removes the table's drop box at the end of the gaming day.")
drop_count = _table(
    services.drop_count, services.COUNTING, CountIn, "drop/count/", "finance-drop-count",
    "Enter the count", "Enter the count of a table's drop box.",
    "One of the count team (who took no part at the table that day) enters the count.")
drop_count_sign = _table(
    services.drop_count_sign, services.COUNTING, DayIn, "drop/sign/", "finance-drop-sign",
    "Sign the count", "Sign a drop count as the second member of the count team.",
    "A second member of the count team signs the count.")
drop_accept = _table(
    services.drop_accept, services.CAGE, DayIn, "drop/accept/", "finance-drop-accept",
    "Accept the count", "Accept a signed drop count at the cage.",
    "A cashier accepts the signed count: the drop is final.")

variance_explain = declare(
    service=services.variance_explain, input=ExplainIn, output=ExceptionOut,
    roles=services.FINANCE, path="finance/exceptions/<str:pk>/explain/",
    url_name="finance-exception-explain", id_arg="exception_id",
    label="Explain the exception", summary="Explain a finance exception.",
    doc="Finance explains an exception (negative poker revenue: the investigation).")
variance_sign_off = declare(
    service=services.variance_sign_off, input=EmptyInput, output=ExceptionOut,
    roles=services.SIGNING_OFF, path="finance/exceptions/<str:pk>/sign-off/",
    url_name="finance-exception-sign-off", id_arg="exception_id",
    label="Sign off the explanation",
    summary="Sign off an explained finance exception as the second person.",
    doc="A second person (finance or compliance) signs off an explained exception.")
gaming_day_close = declare(
    service=services.gaming_day_close, input=CloseIn, output=GamingDayOut,
    roles=services.FINANCE, path="finance/gaming-days/close/",
    url_name="finance-gaming-day-close", label="Close the gaming day",
    summary="Close a gaming day that has ended.",
    doc="Finance closes a gaming day that has ended; refused while items are open unless "
        "closed with them listed.",
    # the 409 open_items problem lists the items as GET gaming-days/{day}/ does (schema:
    # the problem's members, casino.api.schema)
    schema={"problem_codes": {409: ["open_items", "gaming_day_not_ended"]},
            "problem_members": {409: {
                "open_items": OpenItemOut(many=True),
                "open_count": {"type": "integer", "description": "open_items: how many"}}}})
