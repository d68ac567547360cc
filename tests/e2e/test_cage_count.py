"""The count team's main task end to end in Chromium (issue 23, "Done when"): a table's drop
box from the table to the cage, each of its four people in their own browser, through the
pages only.

The day at the table (through the services, earlier in the shift): the tray's opener and
closer counted and signed, and $700.00 of chips sold for cash, so $700.00 is in the box
(§ 579.2(c): the box every Hi-Lo table has). Security removes the box; one of the count
team counts it by denomination, 5 × $100 + 10 × $20 = $500 + $200 = $700.00; a second
member signs the count (the one who counted sees it with no button: nobody signs two
steps of one count, finance.domain.table_day ``check_signer``); the cashier accepts it.
Done, it leaves everyone's list.

The events are the ones the API records for the same people counting a second table's box
the same way (finance/tables/<id>/drop/remove/, …/count/, …/sign/, …/accept/)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.actors import actor_of
from finance.models import table_day_stream
from finance.services import tray
from tests.console.conftest import console_page  # noqa: F401  the shell's fixture
from tests.e2e._console import (
    checked,
    gone,
    hilo_table,
    not_offered,
    open_waiting,
    post,
    send,
    steps,
)

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

TRAY = {"2500": 40, "500": 100}     # $1,000.00 + $500.00
CLOSER = {"2500": 12, "500": 100}   # $1,500.00 − $700.00 of chips sold = $800.00
CASH = {"10000": 5, "2000": 10}     # 50000 + 20000 = 70000 cents
DROP_STEPS = {"DropBoxRemoved", "DropCounted", "DropCountSigned", "DropCountAccepted"}


def played(dealer: Any, floor: Any, table: Any) -> None:
    """The tray opened, $700.00 of chips sold for cash, the tray closed; both signed."""
    d, f = actor_of(dealer), actor_of(floor)
    tray.inventory_record(actor=d, table_id=table.pk, slip="opener", pieces=TRAY)
    tray.inventory_sign(actor=f, table_id=table.pk, slip="opener")
    tray.chips_sell(actor=d, table_id=table.pk, amount_cents=70_000)
    tray.inventory_record(actor=d, table_id=table.pk, slip="closer", pieces=CLOSER)
    tray.inventory_sign(actor=f, table_id=table.pk, slip="closer")


def test_two_count_team_members_count_a_drop_box_through_the_pages(console_page: Any) -> None:
    runner = console_page("security")
    counter = console_page("count_team")
    second = console_page("count_team")
    cashier = console_page("cashier")
    staff = console_page.staff
    dealer, floor = staff("dealer"), staff("floorperson")
    table = hilo_table(staff, dealer, floor, name="Hi-Lo 5")
    other = hilo_table(staff, dealer, floor, name="Hi-Lo 6")
    for t in (table, other):
        played(dealer, floor, t)
    title = "Drop box of Hi-Lo 5"

    # security takes the box to the count room
    open_waiting(runner, "finance_drop_boxes_to_remove", title, "Remove the box",
                 shot="drop-remove-waiting")
    send(runner, "Record the drop box removed")

    # one of the count team counts it by denomination
    open_waiting(counter, "finance_drop_boxes_to_count", title, "Count the box",
                 shot="count-waiting")
    counter.fill("#f-cash-10000", "5")
    counter.fill("#f-cash-2000", "10")
    send(counter, "Enter the count", shot="count-enter")
    not_offered(counter, "finance_drop_counts_to_sign", f"{title}: counted $700.00")
    checked(counter)

    # a second member signs it; the cashier accepts it
    open_waiting(second, "finance_drop_counts_to_sign", f"{title}: counted $700.00",
                 "Sign the count", shot="count-sign-waiting")
    send(second, "Sign the count")
    open_waiting(cashier, "finance_drop_counts_to_accept", f"{title}: counted $700.00",
                 "Accept the count", shot="count-accept-waiting")
    send(cashier, "Accept the count", shot="count-accept")
    for page in (runner, counter, second, cashier):
        gone(page, title)

    # the count sheet carries the four signatures
    day = actor_of(dealer).gaming_day()
    cashier.goto(f"{cashier.server}/console/print/tables/{table.pk}/{day}/drop/")
    sheet = cashier.locator("main").inner_text()
    assert "$700.00" in sheet
    for page in (runner, counter, second, cashier):
        assert page.user.username in sheet
    checked(cashier, "count-sheet-printed")

    # the same count of the second table's box through the API, by the same people
    base = f"finance/tables/{other.pk}/drop/"
    post(runner.user, base + "remove/")
    post(counter.user, base + "count/", {"cash": CASH})
    post(second.user, base + "sign/")
    post(cashier.user, base + "accept/")

    by_pages = steps(table_day_stream(table.pk, day), DROP_STEPS)
    by_api = steps(table_day_stream(other.pk, day), DROP_STEPS)
    assert by_pages == by_api == [
        ("DropBoxRemoved", runner.user.username, "security", {}),
        ("DropCounted", counter.user.username, "count_team",
         {"cash": CASH, "chips": {}, "counted_cents": 70_000}),
        ("DropCountSigned", second.user.username, "count_team", {}),
        ("DropCountAccepted", cashier.user.username, "cashier", {}),
    ]
