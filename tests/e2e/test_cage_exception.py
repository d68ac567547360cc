"""Finance's main task end to end in Chromium (issue 23, "Done when"): a drop exception
explained by one person of finance and signed off by a second, each in their own browser,
through the pages only.

The exception is made as tests/finance/test_exceptions_flow.py makes it (through the
services): yesterday the tray opened with 40 × $25 + 100 × $5 = $1,500.00 and closed with
40 × $25 + 80 × $5 = $1,400.00, no fill, credit or chip sale, the empty box counted; the
close finds the tray $100.00 short (expected 150000, counted 140000, variance −10000). Two
tables played that day alike, so the close finds two exceptions: the pages take the first,
the API the second, by the same two people.

Finance explains it from "Waiting for me"; the one who explained sees it to sign off with
no button (a second person signs off: 409 ``same_person`` otherwise); a second person of
finance signs it off. Done, it leaves both lists."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from finance.models import FinanceException, table_day_stream
from finance.services import drop, tray
from finance.services.close import gaming_day_close
from tests.console.conftest import console_page  # noqa: F401  the shell's fixture
from tests.e2e._cage import (
    actor,
    gone,
    hilo_table,
    not_offered,
    open_waiting,
    post,
    send,
    steps,
)

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

OPENER = {"2500": 40, "500": 100}        # 100000 + 50000 = 150000 cents
CLOSER_SHORT = {"2500": 40, "500": 80}   # 100000 + 40000 = 140000 cents
WHY = "A $100.00 chip paid out twice in round 12; the dealer was retrained."
STEPS = {"VarianceExplained", "VarianceSignedOff"}


def played_yesterday(crew: dict[str, Any], table: Any) -> str:
    """Yesterday at ``table`` (test_exceptions_flow's ``played_yesterday``): the opener and
    the short closer signed, the empty box removed, counted, signed and accepted."""
    a = {k: actor(u) for k, u in crew.items()}
    day = (a["dealer"].gaming_day() - timedelta(days=1)).isoformat()
    for slip, pieces in (("opener", OPENER), ("closer", CLOSER_SHORT)):
        tray.inventory_record(actor=a["dealer"], table_id=table.pk, slip=slip,
                              pieces=pieces, gaming_day=day)
        tray.inventory_sign(actor=a["floor"], table_id=table.pk, slip=slip, gaming_day=day)
    drop.drop_remove(actor=a["runner"], table_id=table.pk, gaming_day=day)
    drop.drop_count(actor=a["counter"], table_id=table.pk, cash={}, gaming_day=day)
    drop.drop_count_sign(actor=a["counter2"], table_id=table.pk, gaming_day=day)
    drop.drop_accept(actor=a["cashier"], table_id=table.pk, gaming_day=day)
    return day


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
        day = played_yesterday(crew, t)
    gaming_day_close(actor=actor(staff("finance")), gaming_day=day)
    found = {e.table_id: e for e in FinanceException.objects.all()}
    assert {(e.figure, e.expected_cents, e.counted_cents, e.variance_cents)
            for e in found.values()} == {("tray", 150_000, 140_000, -10_000)}
    title = "Tray short $100.00 at Hi-Lo 7"

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
