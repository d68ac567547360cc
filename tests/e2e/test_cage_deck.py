"""The floorperson's main task end to end in Chromium (issue 23, "Done when"): a deck's
inspection verified, through the pages only, the verification on a 768 px tablet with the
keyboard alone (issue 23 item 7).

A floorperson records a red deck (batch B-7) received at the table from the table's page;
its dealer finds it on "Waiting for me" and records the inspection, no defect found
(§ 589.4(b), § 637a.4(b): the dealer inspects); a floorperson verifies it (§ 589.4(c),
§ 637a.4(c): a second person). The dealer is never offered the verification: it is not on
their home, and its form is refused to them (403) — not a dealer's step.

The events are the ones the API records for the same people with a second deck
(decks/<id>/inspect/, decks/<id>/verify-inspection/)."""

from __future__ import annotations

from typing import Any

import pytest

from tables.models import Deck
from tests.console.conftest import console_page  # noqa: F401  the shell's fixture
from tests.e2e._console import (
    checked,
    gone,
    hilo_table,
    home,
    open_waiting,
    post,
    send,
    steps,
)

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

DECK_STEPS = {"DeckInspected", "DeckInspectionVerified"}
TABLET = {"width": 768, "height": 1024}


def no_sideways_scroll(page: Any) -> None:
    """Nothing wider than the tablet (issue 23 item 7); else the elements that stick out."""
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > w)
        .map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' +
             Math.round(e.getBoundingClientRect().right))""", TABLET["width"])
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"], wide


def tab_to(page: Any, selector: str, most: int = 80) -> None:
    """Press Tab until the element ``selector`` has the focus (the keyboard's way there)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)",
                         selector):
            return
    raise AssertionError(f"Tab never reached {selector} on {page.url}")


def test_a_floorperson_verifies_the_dealers_deck_inspection_through_the_pages(
        console_page: Any) -> None:
    floor = console_page("floorperson")
    dealer = console_page("dealer")
    table = hilo_table(console_page.staff, dealer.user, floor.user, name="Hi-Lo 3")

    # the floorperson records the deck received, from the table's page
    home(floor)
    floor.goto(f"{floor.server}/console/tables/{table.pk}/")
    floor.get_by_role("link", name="Receive a deck", exact=True).click()
    floor.wait_for_url("**/console/do/deck_receive/**")
    floor.fill("#f-back_colour", "red")
    floor.fill("#f-batch", "B-7")
    send(floor, "Record the deck received")
    deck = Deck.objects.get(table=table)
    title = "Red deck (batch B-7) at Hi-Lo 3"

    # the dealer inspects it; no verification is offered to them
    open_waiting(dealer, "decks_to_inspect", title, "Inspect the deck", shot="deck-waiting")
    send(dealer, "Record the inspection", shot="deck-inspect")
    home(dealer)
    assert dealer.locator("#deck_inspections_to_verify").count() == 0
    assert title not in dealer.locator("#waiting").inner_text()
    answer = dealer.goto(f"{dealer.server}/console/do/deck_inspection_verify/{deck.pk}/")
    assert answer.status == 403

    # the floorperson verifies it on a tablet, keyboard only: Tab to the item's button,
    # Enter; Tab to "Yes", Space; Tab to the form's button, Enter
    home(floor)
    floor.set_viewport_size(TABLET)
    checked(floor, "floor-waiting-tablet")
    no_sideways_scroll(floor)
    link = f"#deck_inspections_to_verify a.waiting-action[href*='{deck.pk}']"
    floor.locator("body").focus()
    tab_to(floor, link)
    floor.keyboard.press("Enter")
    floor.wait_for_url("**/console/do/deck_inspection_verify/**")
    no_sideways_scroll(floor)
    tab_to(floor, "#f-accepted-yes")
    floor.keyboard.press("Space")
    tab_to(floor, ".command-actions button[type=submit]")
    checked(floor, "deck-verify-tablet")
    floor.keyboard.press("Enter")
    floor.wait_for_url(f"{floor.server}/console/")
    assert "Recorded:" in floor.locator("#messages").inner_text()
    for page in (floor, dealer):
        gone(page, title)
    assert Deck.objects.get(pk=deck.pk).state == "verified"

    # the same two steps through the API with a second deck, by the same people
    other = post(floor.user, "decks/", {"table": str(table.pk), "back_colour": "blue",
                                        "batch": "B-8"}).json()
    post(dealer.user, f"decks/{other['id']}/inspect/", {"defects": []})
    post(floor.user, f"decks/{other['id']}/verify-inspection/", {"accepted": True})

    by_pages = steps(f"deck-{deck.pk}", DECK_STEPS)
    by_api = steps(f"deck-{other['id']}", DECK_STEPS)
    assert by_pages == by_api
    assert [(t, who, role) for t, who, role, _ in by_pages] == [
        ("DeckInspected", dealer.user.username, "dealer"),
        ("DeckInspectionVerified", floor.user.username, "floorperson")]
