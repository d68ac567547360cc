"""The poker floor's console pages (issue 24, items 1, 2 and 9): the lists, one list, its
results-only fragment for polling, and the fairness record's page — each for the roles
that read it (403 for the others, 404 for another property's list), the players' names,
phones and e-mail for the floor's roles only, and the steps offered only when declared
and the viewer's to take. Made with the real services (PostgreSQL, and SQLite)."""

from __future__ import annotations

from typing import Any

import pytest

from console.registry import command_url
from poker_floor.services import calls
from tests.console.conftest import client_of, text_of
from tests.poker_floor.test_console_tasks import past

pytestmark = pytest.mark.django_db

PAGES = ("/console/poker/lists/", "/console/poker/lists/{pk}/",
         "/console/poker/lists/results/", "/console/poker/lists/{pk}/results/")
FAIRNESS = "/console/poker/lists/{pk}/fairness/"
READERS = ("floor", "supervisor", "dealer", "compliance", "security")
NOT_READERS = ("cashier", "finance", "admin", "count_team", "nobody")


def _get(floor: Any, who: str, url: str) -> Any:
    return client_of(floor[who]).get(url)


@pytest.mark.parametrize("who", READERS)
def test_the_lists_pages_are_read_by_the_floor_dealers_compliance_and_security(
        holdem, who: str) -> None:
    for url in PAGES:
        r = _get(holdem.floor, who, url.format(pk=holdem.waitlist.pk))
        assert r.status_code == 200, url


@pytest.mark.parametrize("who", NOT_READERS)
def test_the_lists_pages_are_refused_to_other_roles(holdem, who: str) -> None:
    for url in (*PAGES, FAIRNESS):
        r = _get(holdem.floor, who, url.format(pk=holdem.waitlist.pk))
        assert r.status_code == 403, url


@pytest.mark.parametrize("who", ("dealer", "security"))
def test_the_fairness_record_is_refused_to_dealers_and_security(holdem, who: str) -> None:
    r = _get(holdem.floor, who, FAIRNESS.format(pk=holdem.waitlist.pk))
    assert r.status_code == 403


@pytest.mark.parametrize("who", ("floor", "supervisor", "compliance"))
def test_the_fairness_record_is_read_by_compliance_and_the_floor(holdem, who: str) -> None:
    r = _get(holdem.floor, who, FAIRNESS.format(pk=holdem.waitlist.pk))
    assert r.status_code == 200


def test_another_propertys_list_is_not_found(holdem, other_property, make_floor) -> None:
    theirs = make_floor(other_property)
    for url in (*PAGES[1::2], FAIRNESS):
        r = _get(theirs, "supervisor", url.format(pk=holdem.waitlist.pk))
        assert r.status_code == 404, url


def test_another_propertys_list_is_not_on_the_lists_page(holdem, other_property, make_floor
                                                         ) -> None:
    theirs = make_floor(other_property)
    text = text_of(_get(theirs, "floor", "/console/poker/lists/").content.decode())
    assert "Hold'em" not in text
    assert "No lists yet." in text


def test_the_floor_reads_each_player_in_calling_order_with_name_phone_and_email(holdem
                                                                               ) -> None:
    text = text_of(_get(holdem.floor, "floor", "/console/poker/lists/").content.decode())
    # the holdem fixture: Ann Lee, Bob Stone, Cy Young with the first three PHONES
    assert "$4.00/$8.00 fixed limit Hold'em" in text
    assert "Waitlist · 2 tables open · 3 waiting · 0 calls open" in text
    assert "1 Ann Lee (A.L.) +12015550123 —" in text
    assert "2 Bob Stone (B.S.) +12125550199 —" in text
    assert "3 Cy Young (C.Y.) +16175550142 —" in text


@pytest.mark.parametrize("who", ("dealer", "compliance", "security"))
def test_other_readers_see_initials_only(holdem, who: str) -> None:
    html = _get(holdem.floor, who, "/console/poker/lists/").content.decode()
    text = text_of(html)
    assert "1 A.L." in text and "2 B.S." in text and "3 C.Y." in text
    for personal in ("Ann", "Lee", "Bob", "Stone", "Cy Young", "+1201", "+1212", "+1617"):
        assert personal not in html


def test_a_list_with_no_open_table_is_an_interest_list(floor) -> None:
    wl = floor.waitlist("holdem")
    floor.list_players(wl, "Ann Lee")
    text = text_of(_get(floor, "floor", f"/console/poker/lists/{wl.pk}/").content.decode())
    assert "Interest list · no table of the game open · 1 waiting" in text


def _href(url: str) -> str:
    return 'href="' + url.replace("&", "&amp;") + '"'


def test_the_floor_is_offered_the_declared_steps_with_the_seat_filled_in(holdem) -> None:
    pk = holdem.waitlist.pk
    t1, t2 = holdem.tables
    ann = holdem.entries[0]
    html = _get(holdem.floor, "floor", "/console/poker/lists/").content.decode()
    assert _href(command_url("player_list", pk)) in html
    # each open seat (seat 9 at both tables, by table name) is a call of the next player
    for t in sorted((t1, t2), key=lambda t: t.name):
        assert _href(command_url("call_next", pk, table_id=t.pk, seat=9)) in html
    first = min((t1, t2), key=lambda t: t.name)
    assert _href(command_url("call_player", pk, entry_id=ann.pk, table_id=first.pk,
                             seat=9)) in html
    assert _href(command_url("player_delist", pk, entry_id=ann.pk)) in html


@pytest.mark.parametrize("who", ("compliance", "security"))
def test_a_reader_is_offered_no_step(holdem, who: str) -> None:
    calls.call_next(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                    table_id=holdem.tables[0].pk, seat=9)
    html = _get(holdem.floor, who, "/console/poker/lists/").content.decode()
    # the page's own steps: the navigation may offer the role's own (a compliance officer's
    # "Lift a lock-out")
    assert 'href="/console/do/' not in html.split("<main", 1)[1]
    assert "Seats open:" in text_of(html)


def test_an_open_call_shows_its_table_seat_and_deadline_and_the_dealer_may_seat(holdem
                                                                                ) -> None:
    t1 = holdem.tables[0]
    call = calls.call_next(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                           table_id=t1.pk, seat=9)
    html = _get(holdem.floor, "dealer", "/console/poker/lists/").content.decode()
    text = text_of(html)
    assert f"A.L., position 1 {t1.name}, seat 9" in text
    assert "Waitlist · 2 tables open · 2 waiting · 1 call open" in text
    assert _href(command_url("call_seat", call.pk)) in html
    # the dealer seats a called player; timing out and withdrawing are the floor's
    assert _href(command_url("call_timeout", call.pk)) not in html
    assert _href(command_url("call_cancel", call.pk)) not in html
    floor_html = _get(holdem.floor, "floor", "/console/poker/lists/").content.decode()
    assert _href(command_url("call_timeout", call.pk)) in floor_html
    assert _href(command_url("call_cancel", call.pk)) in floor_html
    assert "Ann Lee (A.L.), position 1" in text_of(floor_html)


def test_a_call_past_its_time_is_marked(holdem, settings) -> None:
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    past(calls.call_next(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                         table_id=holdem.tables[0].pk, seat=9))
    text = text_of(_get(holdem.floor, "floor", "/console/poker/lists/").content.decode())
    assert "PAST ITS TIME" in text.upper()


def test_the_results_fragment_is_204_while_unchanged(holdem) -> None:
    c = client_of(holdem.floor["floor"])
    url = "/console/poker/lists/results/"
    first = c.get(url)
    stamp = first["ETag"].strip('"')
    assert f'data-updated="{stamp}"' in first.content.decode()
    assert c.get(url, HTTP_IF_NONE_MATCH=f'"{stamp}"').status_code == 204
    holdem.floor.list_players(holdem.waitlist, "Di Ross")
    changed = c.get(url, HTTP_IF_NONE_MATCH=f'"{stamp}"')
    assert changed.status_code == 200
    assert "4 Di Ross (D.R.)" in text_of(changed.content.decode())


def test_the_waitlists_nav_item_is_shown_to_the_readers_only(holdem) -> None:
    link = 'href="/console/poker/lists/"'
    assert link in _get(holdem.floor, "dealer", "/console/").content.decode()
    assert link not in _get(holdem.floor, "cashier", "/console/").content.decode()


def test_a_must_move_game_is_named_and_its_steps_offered(holdem) -> None:
    from poker_floor.services.moves import must_move_set

    pk = holdem.waitlist.pk
    t1, t2 = holdem.tables
    before = _get(holdem.floor, "floor", "/console/poker/lists/").content.decode()
    assert _href(command_url("must_move_set", pk)) in before
    assert _href(command_url("must_move", pk)) not in before
    must_move_set(actor=holdem.floor["supervisor"], waitlist_id=pk, main_table_id=t1.pk,
                  feeder_table_ids=[t2.pk])
    html = _get(holdem.floor, "floor", "/console/poker/lists/").content.decode()
    assert f"Must-move game: {t1.name} is the main game, fed by {t2.name}." in text_of(html)
    assert _href(command_url("must_move", pk)) in html
    assert _href(command_url("must_move_clear", pk)) in html
    assert _href(command_url("must_move_set", pk)) not in html


def test_every_step_the_pages_offer_names_a_declared_command() -> None:
    # a step naming no command is a mistake found here, never a step silently not offered
    from casino.declared import declared
    from poker_floor import console_pages as pages

    steps = (pages.LIST_STEPS + pages.MUST_MOVE_STEPS + pages.MUST_MOVE_SET
             + pages.ENTRY_STEPS + pages.CALL_STEPS)
    assert [name for _, name in steps if declared(name).name != name] == []


def test_the_seats_offered_are_those_the_rules_allow_as_the_calls_count_them(floor) -> None:
    """Rules seating six at tables of ten and of four positions: seats 1-6 and 1-4 are
    offered (seat_limit at each table), 7-10 never (a call there is invalid_seat)."""
    from poker_floor import selectors
    from poker_floor.services import calls

    floor.rules("holdem", seats=6)
    wide = floor.table("holdem", positions=10, name="HE-WIDE")
    narrow = floor.table("holdem", positions=4, name="HE-NARROW")
    wl = floor.waitlist()
    floor.list_players(wl, "Ann Lee")
    [view] = selectors.lists(floor["floor"])
    assert [(name, seat) for _, name, seat in view.vacant] == [
        ("HE-NARROW", 1), ("HE-NARROW", 2), ("HE-NARROW", 3), ("HE-NARROW", 4),
        ("HE-WIDE", 1), ("HE-WIDE", 2), ("HE-WIDE", 3), ("HE-WIDE", 4), ("HE-WIDE", 5),
        ("HE-WIDE", 6)]
    assert (calls.seat_limit(wide), calls.seat_limit(narrow)) == (6, 4)
