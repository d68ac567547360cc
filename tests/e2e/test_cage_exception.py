"""Finance's main task end to end in Chromium (issue 23, "Done when"): a DROP exception
explained by one person of finance and signed off by a second, each in their own browser,
through the pages only.

The exception is made as tests/finance/test_drop_count.py and test_exceptions_flow.py make
theirs (through the services), today: the tray opened with 40 × $25 + 100 × $5 =
$1,500.00; the dealer sold $100.00 of chips for cash (the cash into the drop box,
§ 579.7(a)); the tray closed with 40 × $25 + 80 × $5 = $1,400.00 (balanced: $1,500.00 −
$100.00). The box is removed and counted with 4 × $20 = $80.00 against the $100.00
expected: at the cashier's acceptance the drop is final and $20.00 short (expected 10000,
counted 8000, variance −2000; finance.services.drop.drop_accept). Two tables played
alike, so there are two drop exceptions: the pages take the first, the API the second, by
the same two people.

Finance explains it from "Waiting for me"; the one who explained sees it to sign off with
no button (a second person signs off: 409 ``same_person`` otherwise); a second person of
finance signs it off. Done, it leaves both lists."""

from __future__ import annotations

from typing import Any

import pytest

from casino.actors import actor_of
from finance.models import FinanceException, table_day_stream
from finance.services import drop, tray
from tests.console.conftest import console_page  # noqa: F401  the shell's fixture
from tests.e2e._console import (
    gone,
    hilo_table,
    not_offered,
    open_waiting,
    post,
    send,
    steps,
)

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

OPENER = {"2500": 40, "500": 100}   # 100000 + 50000 = 150000 cents
CLOSER = {"2500": 40, "500": 80}    # 100000 + 40000 = 140000 cents: 150000 − the sale
SALE_CENTS = 10_000                 # $100.00 of chips sold for cash
COUNTED = {"2000": 4}               # 4 × $20 = 8000 cents in the box
WHY = "A $20.00 note was left in the dealer's paddle; found and deposited at the cage."
STEPS = {"VarianceExplained", "VarianceSignedOff"}


def played_today(crew: dict[str, Any], table: Any) -> None:
    """Today at ``table``: the opener signed, a $100.00 chip sale, the closer signed, the
    box removed, counted $80.00, signed by a second counter and accepted by the cage."""
    a = {k: actor_of(u) for k, u in crew.items()}
    for slip, pieces in (("opener", OPENER), ("closer", CLOSER)):
        tray.inventory_record(actor=a["dealer"], table_id=table.pk, slip=slip, pieces=pieces)
        tray.inventory_sign(actor=a["floor"], table_id=table.pk, slip=slip)
        if slip == "opener":
            tray.chips_sell(actor=a["dealer"], table_id=table.pk, amount_cents=SALE_CENTS)
    drop.drop_remove(actor=a["runner"], table_id=table.pk)
    drop.drop_count(actor=a["counter"], table_id=table.pk, cash=COUNTED)
    drop.drop_count_sign(actor=a["counter2"], table_id=table.pk)
    drop.drop_accept(actor=a["cashier"], table_id=table.pk)


def test_finance_explains_an_exception_and_a_second_person_signs_it_off_through_the_pages(
        console_page: Any) -> None:
    explainer = console_page("finance")
    second = console_page("finance")
    staff = console_page.staff
    crew = {"dealer": staff("dealer"), "floor": staff("floorperson"),
            "runner": staff("security"), "counter": staff("count_team"),
            "counter2": staff("count_team"), "cashier": staff("cashier")}
    table = hilo_table(staff, crew["dealer"], crew["floor"], name="Hi-Lo 7")
    other = hilo_table(staff, crew["dealer"], crew["floor"], name="Hi-Lo 8")
    for t in (table, other):
        played_today(crew, t)
    day = actor_of(crew["dealer"]).gaming_day().isoformat()
    found = {e.table_id: e for e in FinanceException.objects.all()}
    assert {(e.figure, e.expected_cents, e.counted_cents, e.variance_cents)
            for e in found.values()} == {("drop", 10_000, 8_000, -2_000)}
    assert len(found) == 2  # one a table; the tray balanced, no tray exception
    title = "Drop short $20.00 at Hi-Lo 7"

    # finance explains it
    open_waiting(explainer, "finance_exceptions_to_explain", title, "Explain it",
                 shot="exception-waiting")
    explainer.fill("#f-explanation", WHY)
    send(explainer, "Explain the exception", shot="exception-explain")
    not_offered(explainer, "finance_exceptions_to_sign_off", title)

    # a second person signs it off
    open_waiting(second, "finance_exceptions_to_sign_off", title, "Sign it off",
                 shot="exception-sign-off-waiting")
    send(second, "Sign off the explanation", shot="exception-sign-off")
    for page in (explainer, second):
        gone(page, "Hi-Lo 7")
    assert FinanceException.objects.get(pk=found[table.pk].pk).state == "signed_off"

    # the second table's exception through the API, by the same two people
    api_id = found[other.pk].exception_id
    post(explainer.user, f"finance/exceptions/{api_id}/explain/", {"explanation": WHY})
    post(second.user, f"finance/exceptions/{api_id}/sign-off/")

    by_pages = steps(table_day_stream(table.pk, day), STEPS, drop=("exception_id",))
    by_api = steps(table_day_stream(other.pk, day), STEPS, drop=("exception_id",))
    assert by_pages == by_api == [
        ("VarianceExplained", explainer.user.username, "finance", {"explanation": WHY}),
        ("VarianceSignedOff", second.user.username, "finance", {}),
    ]
