"""The room board (§ 637a.9(c): the games, limits and vacant seats announced in the room;
§ 637a.3(c): each deck's time before its change), its data and who may open it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from casino.services import property_register
from poker_room.services import seats

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _user(actor):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=actor.user_id)


@pytest.mark.regulation("637a.9(c)")
def test_board_shows_games_stakes_and_vacant_seats_never_names(crew, poker_table: Callable
                                                               ) -> None:
    """§ 637a.9(c): Hold'em $4/$8 with blinds $2/$4 (the example submission), ten seats,
    two taken (one by a named player): eight vacant, and no name or phone on the board;
    two decks with about 12 hours left each (§ 637a.3(c))."""
    setup = poker_table("holdem")
    table = setup["table"]
    seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=1, buy_in_cents=10_000,
                      paid_with="chips",
                      player={"name": "Casey Secret", "phone": "555-0199"})
    seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=4, buy_in_cents=10_000,
                      paid_with="chips")
    r = _client(_user(crew["floor"])).get("/poker/board/data")
    assert r.status_code == 200
    row = next(t for t in r.json()["tables"] if t["id"] == str(table.pk))
    assert row["game"] == "Hold'em"
    assert row["stakes"] == "$4.00/$8.00 fixed limit, blinds $2.00/$4.00"
    assert (row["taken"], row["vacant"]) == ([1, 4], [2, 3, 5, 6, 7, 8, 9, 10])
    assert len(row["decks"]) == 2 and all(11 * 60 <= d["minutes_left"] <= 12 * 60
                                          for d in row["decks"])
    assert "Casey" not in r.content.decode() and "555-0199" not in r.content.decode()
    page = _client(_user(crew["floor"])).get("/poker/board/")
    assert page.status_code == 200 and "Poker room" in page.content.decode()


def test_board_is_scoped_and_refused_without_a_role_or_key(crew, poker_table, make_staff,
                                                           settings) -> None:
    """Deny by default: no login, a login without a room role, a wrong key: 403 with a
    code; another property's staff see their own room, none of ours; a screen's key shows
    its property's board."""
    setup = poker_table("holdem")
    anonymous = Client()
    r = anonymous.get("/poker/board/data")
    assert (r.status_code, r.json()["code"]) == (403, "not_authenticated")
    assert anonymous.get("/poker/board/").status_code == 403
    cashier = _client(make_staff("cashier"))
    assert cashier.get("/poker/board/data").json()["code"] == "role_required"
    assert anonymous.get("/poker/board/data?key=wrong").json()["code"] == "display_key_unknown"
    other = property_register(licence_number="PA-OTHER-9", name="Other", system="test")
    theirs = _client(make_staff("floorperson", property=other)).get("/poker/board/data")
    assert theirs.json()["tables"] == []
    settings.ROOM_BOARD_DISPLAY_KEYS = {"screen-key-0123456789": "PA-TEST-1"}
    r = anonymous.get("/poker/board/data?key=screen-key-0123456789")
    assert [t["id"] for t in r.json()["tables"]] == [str(setup["table"].pk)]


@pytest.mark.browser
def test_a_closed_table_is_shown_closed_with_no_open_seats(crew, poker_table: Callable,
                                                           request: pytest.FixtureRequest
                                                           ) -> None:
    """§ 637a.9(c) permits announcing vacant seats; the room's rule is that only a table
    being played has any (a closed one has no seat to fill). Two Hold'em
    tables: one open with a player in seat 2, one closed (ten positions, no one seated):
    the closed one has no vacant seat in the data, and the page, as served and as its
    script draws it in Chromium, says "closed" there, never "10 open" in green."""
    import re

    from tables.services import tables

    open_one = poker_table("holdem")["table"]
    closed_one = tables.table_configure(actor=crew["admin"], name="holdem-closed",
                                        game="holdem", positions=10, dealing_method="hand",
                                        shuffler="automated")
    seats.seat_player(actor=crew["dealer"], table_id=open_one.pk, seat=2, buy_in_cents=10_000,
                      paid_with="chips")
    floor = _client(_user(crew["floor"]))
    rows = {t["id"]: t for t in floor.get("/poker/board/data").json()["tables"]}
    assert (rows[str(closed_one.pk)]["status"], rows[str(closed_one.pk)]["vacant"]) == (
        "closed", [])
    assert rows[str(open_one.pk)]["vacant"] == [1, 3, 4, 5, 6, 7, 8, 9, 10]
    html = floor.get("/poker/board/").content.decode()
    served = re.search(rf'data-table="{closed_one.pk}".*?<td class="seats">(.*?)</td>', html,
                       re.S)
    assert served and served.group(1) == "closed"

    # The shared browser only now, after the ORM reads (its event loop in this thread
    # would give the ORM another connection than the test's transaction).
    page = request.getfixturevalue("browser").new_page()
    try:
        page.set_content(html)  # the script draws the rows from the page's own data
        # console.js (the boards' one script, a static file) run on that page
        page.add_script_tag(path="console/static/console/console.js")
        drawn = {tr.get_attribute("data-table"): (
            tr.query_selector_all("td")[3].inner_text(),
            tr.query_selector_all("td")[3].get_attribute("class"))
            for tr in page.query_selector_all("#tables tr")}
    finally:
        page.close()
    assert drawn[str(closed_one.pk)] == ("closed", "full seats")
    assert drawn[str(open_one.pk)] == ("9 open: seat 1, 3, 4, 5, 6, 7, 8, 9, 10",
                                       "vacant seats")
