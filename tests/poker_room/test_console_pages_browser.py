"""Every page of the tables' and the poker room's console pages in Chromium on a 768 px
tablet (a floorperson's, issue 23 item 7): no horizontal scrolling of the page (a wide
table scrolls inside its own captioned, focusable box) and no serious or critical axe-core
violation. The data is committed (the live server's thread reads it)."""

from __future__ import annotations

from typing import Any

import pytest

from tables.demo import deck_ready
from tables.domain.rules_options import example_options
from tables.services import rules, tables
from tests.console._axe import serious_violations
from tests.console.conftest import console_page  # noqa: F401  (a Chromium page, logged in)
from tests.poker_room._committed import poker_room
from tests.poker_room._play import play_hand, poker_table_ready
from tests.tables.test_console_pages import POSITIONS, play_hilo_round

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def _hilo_table(people: dict[str, Any]) -> Any:
    rs = rules.rules_draft(actor=people["comp"], game="five-card-hi-lo",
                           options=example_options("five-card-hi-lo"))
    rules.rules_submit(actor=people["comp"], rules_id=rs.pk)
    rules.rules_approve(actor=people["appr"], rules_id=rs.pk)
    t = tables.table_configure(actor=people["admin"], name="HL-1", game="five-card-hi-lo",
                               positions=6, dealing_method="automated-shoe",
                               shuffler="automated")
    tables.table_assign_dealer(actor=people["floor"], table_id=t.pk,
                               dealer=people["dealer"].username)
    return tables.table_open(actor=people["floor"], table_id=t.pk)


def test_each_page_at_768px_has_no_horizontal_scroll_and_passes_axe(console_page
                                                                     ) -> None:  # noqa: F811
    people, holdem = poker_room("PA-TEST-1", "cp", table_name="P-1")
    poker_table_ready(holdem, people, players=3)
    hand = play_hand(holdem, people, seed=3)
    hilo = _hilo_table(people)
    rnd = play_hilo_round(people["dealer"], hilo,
                          deck_ready(hilo, people["dealer"], people["floor"], "red", batch="r"))
    page = console_page("floorperson")
    page.set_viewport_size({"width": 768, "height": 1024})
    paths = ["/console/tables/", f"/console/tables/{hilo.pk}/", f"/console/tables/{holdem.pk}/",
             f"/console/rounds/{rnd.pk}/", "/console/poker/",
             f"/console/poker/hands/{hand.round_id}/", "/console/disputes/banked/",
             "/console/disputes/poker/"]
    problems: dict[str, list[str]] = {}
    for path in paths:
        response = page.goto(page.server + path)
        assert response.status == 200, path
        problems.update(_check(page, path))
    # the nav's badges: the home draws them; the floor asks the fragment once loaded
    # (console/_nav.html's poller) and shows the same counts out of band
    page.goto(page.server + "/console/")
    on_home = _badges(page)
    with page.expect_response(lambda r: r.url.startswith(page.server + "/console/waiting/")
                              ) as waited:
        page.goto(page.server + "/console/poker/")
    assert waited.value.status == 200
    page.wait_for_function("document.querySelector('[data-poll]').dataset.updated")
    assert _badges(page) == on_home and on_home
    # the calculator's answer too
    page.goto(page.server + "/console/disputes/banked/")
    page.select_option("#id_game", "five-card-hi-lo")
    page.fill("#id_positions", POSITIONS)
    page.fill("#id_dealer_cards", "Jh Tc 8s 6d 4c")
    page.click("form.calculator button[type=submit]")
    page.wait_for_selector("#result-h")
    problems.update(_check(page, "the banked calculator's answer"))
    assert problems == {}


def _badges(page: Any) -> dict[str, str]:
    return page.evaluate("Object.fromEntries([...document.querySelectorAll("
                         "'.console-nav .badge')].map(b => [b.id, b.textContent]))")


def _check(page: Any, what: str) -> dict[str, list[str]]:
    wide = page.evaluate("document.documentElement.scrollWidth"
                         " - document.documentElement.clientWidth")
    found = ([f"scrolls sideways by {wide}px"] if wide > 0 else []) + serious_violations(page)
    return {what: found} if found else {}
