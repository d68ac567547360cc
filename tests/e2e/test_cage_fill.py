"""The cashier's main task end to end in Chromium (issue 23, "Done when"): a fill from the
floor to the table, each of its four people in their own browser, through the pages only.

A floorperson requests it from the table's page, 20 × $25 + 20 × $5 = $500 + $100 =
$600.00; the cashier finds it on "Waiting for me" and prepares it; the runner (security)
signs for carrying it; the dealer signs at the table. The floorperson who requested it
sees it waiting at the table with no button: nobody signs two steps of one slip
(finance.domain.table_day ``check_signer``). Done, it leaves everyone's list.

The events are then the ones the API records for the same four people doing the same
fill at a second table (finance/tables/<id>/slips/, …/prepare/, …/carry/, …/complete/),
and the ones worked out by hand below."""

from __future__ import annotations

from typing import Any

import pytest

from casino.actors import actor_of
from finance.models import TableDay, table_day_stream
from tests.e2e._console import (
    checked,
    gone,
    hilo_table,
    home,
    not_offered,
    open_waiting,
    post,
    send,
    steps,
)
from tests.console.conftest import console_page  # noqa: F401  the shell's fixture

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

FILL = {"2500": 20, "500": 20}  # 50000 + 10000 = 60000 cents
SLIP_STEPS = {"SlipRequested", "SlipPrepared", "SlipCarried", "SlipCompleted"}


def only_slip(table: Any) -> str:
    (row,) = TableDay.objects.filter(table=table)
    (slip_id,) = row.state["slips"]
    return slip_id


def test_a_fill_requested_prepared_carried_and_signed_at_the_table_through_the_pages(
        console_page: Any) -> None:
    floor = console_page("floorperson")
    cashier = console_page("cashier")
    runner = console_page("security")
    dealer = console_page("dealer")
    staff = console_page.staff
    table = hilo_table(staff, dealer.user, floor.user, name="Hi-Lo 1")
    other = hilo_table(staff, dealer.user, floor.user, name="Hi-Lo 2")

    # the floorperson: Tables → the table's page → "Request a fill"
    home(floor)
    floor.locator("#console-nav-groups").get_by_role("link", name="Tables", exact=True).first.click()
    floor.get_by_role("link", name="Hi-Lo 1", exact=True).click()
    floor.wait_for_url(f"**/console/tables/{table.pk}/")
    checked(floor, "fill-table-page")
    floor.get_by_role("link", name="Request a fill", exact=True).click()
    assert floor.locator("#f-kind").input_value() == "fill"
    floor.fill("#f-pieces-2500", "20")
    floor.fill("#f-pieces-500", "20")
    send(floor, "Request the fill or credit", shot="fill-request")
    slip = only_slip(table)
    number = slip[:8].upper()
    title = f"Fill slip {number}: $600.00 to Hi-Lo 1"

    # the cashier prepares it
    open_waiting(cashier, "finance_slips_to_prepare", title, "Prepare the slip",
                 shot="cashier-waiting")
    assert cashier.locator("h1").inner_text() == "Prepare a fill or credit slip at the cage"
    send(cashier, "Prepare the slip", shot="fill-prepare")
    gone(cashier, number)

    # the runner signs for carrying it
    open_waiting(runner, "finance_slips_to_carry", title, "Sign for carrying it",
                 shot="runner-waiting")
    send(runner, "Sign for carrying the slip")
    gone(runner, number)

    # at the table: the floorperson who asked for it is not offered the signature
    not_offered(floor, "finance_slips_to_complete", title)
    checked(floor)
    open_waiting(dealer, "finance_slips_to_complete", title, "Sign at the table",
                 shot="dealer-waiting-fill")
    send(dealer, "Sign the slip at the table", shot="fill-sign-at-table")
    for page in (dealer, floor, cashier, runner):
        gone(page, number)

    # the printed slip carries the four signatures
    day = actor_of(dealer.user).gaming_day()
    cashier.goto(f"{cashier.server}/console/print/tables/{table.pk}/{day}/slips/{slip}/")
    printed = cashier.locator("main").inner_text()
    for who in (floor.user, cashier.user, runner.user, dealer.user):
        assert who.username in printed
    checked(cashier, "fill-slip-printed")

    # the same fill through the API at the second table, by the same four people
    post(floor.user, f"finance/tables/{other.pk}/slips/", {"kind": "fill", "pieces": FILL})
    api_slip = only_slip(other)
    for person, step in ((cashier, "prepare"), (runner, "carry"), (dealer, "complete")):
        post(person.user, f"finance/tables/{other.pk}/slips/{step}/", {"slip_id": api_slip})

    by_pages = steps(table_day_stream(table.pk, day), SLIP_STEPS, drop=("slip_id",))
    by_api = steps(table_day_stream(other.pk, day), SLIP_STEPS, drop=("slip_id",))
    assert by_pages == by_api == [
        ("SlipRequested", floor.user.username, "floorperson",
         {"kind": "fill", "pieces": FILL, "total_cents": 60_000}),
        ("SlipPrepared", cashier.user.username, "cashier", {}),
        ("SlipCarried", runner.user.username, "security", {}),
        ("SlipCompleted", dealer.user.username, "dealer", {}),
    ]
