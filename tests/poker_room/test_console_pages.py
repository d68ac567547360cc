"""The poker room's console pages (issue 23, item 4): the floor (every table's seats,
players, stakes, who is away, and the seating actions as prefilled links), a hand's
history in plain words with cards and money, and the poker dispute calculator; each
property-scoped and role-checked, made with the real services on PostgreSQL."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.eventstore.models import Event
from console.registry import command_url
from poker_room.services import seats
from tables.services import tables
from tests.console.conftest import console_client  # noqa: F401  (the signed-in client)
from tests.poker_room._play import play_hand, poker_table_ready

pytestmark = pytest.mark.postgres


def _text(response: Any) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _href(url: str) -> str:
    return 'href="' + url.replace("&", "&amp;") + '"'


@pytest.fixture
def holdem(crew, poker_table) -> Any:
    """A Hold'em table ($2/$4 blinds, 10 % rake capped at $5.00: the example Rules
    Submission) with three players seated with $100.00 of chips."""
    t = poker_table("holdem")["table"]
    poker_table_ready(t, crew, players=3)
    return t


def test_floor_shows_seats_players_stakes_and_who_is_away(crew, holdem, console_client
                                                         ) -> None:
    """637a.8(b)(6): a player stepping away keeps the seat, the stakes recorded as covered."""
    seats.seat_player(actor=crew["dealer"], table_id=holdem.pk, seat=4, buy_in_cents=20000,
                      paid_with="cash", player={"name": "Ada Lovelace", "phone": "555-0101"})
    seats.step_away(actor=crew["floor"], table_id=holdem.pk, seat=4, covered_cents=20000)
    r = console_client("floorperson").get("/console/poker/")
    assert r.status_code == 200
    text = _text(r)
    assert "$4.00/$8.00 fixed limit, blinds $2.00/$4.00" in text
    assert "4 of 10 seats taken" in text
    assert "Away: seat 4 (Ada Lovelace), stakes $200.00 covered" in text
    assert "4 Ada Lovelace $200.00 Away: $200.00 covered" in text
    assert "1 Anonymous player $100.00 Playing" in text
    html = r.content.decode()
    # one link per seat: a vacant seat's form (the table and seat filled in, cash or chips
    # chosen in the form, 637a.8(b)(2)-(3)); a player's name opens the seat's page
    pk = holdem.pk
    assert _href(command_url("seat_player", pk, seat=5)) in html
    assert "paid_with" not in html
    assert _href(f"/console/poker/tables/{pk}/seats/4/") in html
    assert _href(f"/console/poker/tables/{pk}/seats/1/") in html
    assert html.count('href="/console/do/') == 10 - 4  # the six vacant seats only
    assert not any(_href(command_url(n, pk, seat=1)) in html
                   for n in ("chips_add", "sit_out", "seat_leave", "step_away"))


def test_a_seats_page_offers_the_steps_its_state_admits_and_the_viewer_may_take(
        crew, holdem, console_client) -> None:
    """Seat 1 is playing: add-on, sit out, step away (a floorperson or above only,
    637a.8(b)(6)), move and leave; seat 4 is away: add-on, returned, move, leave. A
    compliance officer reads the seat and is offered none of them."""
    seats.seat_player(actor=crew["dealer"], table_id=holdem.pk, seat=4, buy_in_cents=20000,
                      paid_with="cash", player={"name": "Ada Lovelace", "phone": "555-0101"})
    seats.step_away(actor=crew["floor"], table_id=holdem.pk, seat=4, covered_cents=20000)
    pk = holdem.pk
    playing = console_client("floorperson").get(f"/console/poker/tables/{pk}/seats/1/")
    assert playing.status_code == 200
    assert "Seat 1 at " in _text(playing) and "Player Anonymous player Stakes $100.00 Status Playing" in _text(playing)
    html = playing.content.decode()
    for link in (command_url("chips_add", pk, seat=1), command_url("sit_out", pk, seat=1),
                 command_url("step_away", pk, seat=1), command_url("seat_leave", pk, seat=1),
                 command_url("seat_leave", pk, seat=1, move="1")):
        assert _href(link) in html, link
    assert _href(command_url("sit_in", pk, seat=1)) not in html
    assert _href(command_url("player_return", pk, seat=1)) not in html
    dealer = console_client("dealer").get(f"/console/poker/tables/{pk}/seats/1/")
    assert _href(command_url("sit_out", pk, seat=1)) in dealer.content.decode()
    assert _href(command_url("step_away", pk, seat=1)) not in dealer.content.decode()
    away = console_client("poker_shift_supervisor").get(
        f"/console/poker/tables/{pk}/seats/4/")
    assert "Ada Lovelace" in _text(away) and "Away: $200.00 covered" in _text(away)
    assert _href(command_url("player_return", pk, seat=4)) in away.content.decode()
    assert _href(command_url("sit_out", pk, seat=4)) not in away.content.decode()
    officer = console_client("compliance").get(f"/console/poker/tables/{pk}/seats/1/")
    assert officer.status_code == 200 and 'href="/console/do/' not in \
        officer.content.decode().split("<main", 1)[1]  # the page's own steps
    c = console_client("floorperson")
    assert c.get(f"/console/poker/tables/{pk}/seats/11/").status_code == 404
    assert c.get(f"/console/poker/tables/{pk}/seats/0/").status_code == 404
    assert console_client("cashier").get(
        f"/console/poker/tables/{pk}/seats/1/").status_code == 403


def test_the_floor_offers_the_seat_form_only_to_who_may_seat(crew, holdem, console_client
                                                             ) -> None:
    """The floor's links go through console.registry.offer: seating is the dealer's, the
    floorperson's and the poker shift supervisor's (seats.SEATING, 637a.8(b)); a
    compliance officer and security read the seats (names, stakes) and are offered no
    form, never a link that would answer 403. A player's name is escaped (it is a
    person's words)."""
    seats.seat_player(actor=crew["dealer"], table_id=holdem.pk, seat=4, buy_in_cents=20000,
                      paid_with="cash", player={"name": "<b>Bo</b>", "phone": "555-0101"})
    pk = holdem.pk
    for role in ("dealer", "floorperson", "poker_shift_supervisor"):
        html = console_client(role).get("/console/poker/").content.decode()
        assert _href(command_url("seat_player", pk, seat=5)) in html, role
    for role in ("compliance", "security"):
        r = console_client(role).get("/console/poker/")
        assert r.status_code == 200
        html = r.content.decode()
        # the page's own steps (the navigation may offer the role's own)
        assert 'href="/console/do/' not in html.split("<main", 1)[1], role
        assert "Seat a player" not in html and "&lt;b&gt;Bo&lt;/b&gt;" in html, role
        assert "<b>Bo</b>" not in html
        # the six vacant seats say so, the seated players' names still open their seats
        assert _text(r).count(" Empty — Open ") == 10 - 4
        assert _href(f"/console/poker/tables/{pk}/seats/4/") in html


def test_the_floor_shows_one_game_when_asked(crew, holdem, console_client) -> None:
    c = console_client("floorperson")
    assert c.get("/console/poker/?game=holdem").content.decode().count(
        'class="floor-table"') == 1
    assert c.get("/console/poker/?game=omaha-high").content.decode().count(
        'class="floor-table"') == 0


def test_a_poker_tables_page_shows_its_seats(crew, holdem, console_client) -> None:
    r = console_client("poker_shift_supervisor").get(f"/console/tables/{holdem.pk}/")
    assert r.status_code == 200
    assert "Seats and stakes" in _text(r)
    assert _href(f"/console/poker/tables/{holdem.pk}/seats/2/") in r.content.decode()


def _floor_tables(crew: dict, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        t = tables.table_configure(actor=crew["admin"], name=f"F-{i:02d}", game="holdem",
                                   positions=10, dealing_method="hand", shuffler="automated")
        tables.table_assign_dealer(actor=crew["floor"], table_id=t.pk,
                                   dealer=crew["dealer"].username)
        tables.table_open(actor=crew["floor"], table_id=t.pk)
        seats.seat_player(actor=crew["dealer"], table_id=t.pk, seat=1, buy_in_cents=10000,
                          paid_with="chips")


def test_floor_reads_in_the_same_number_of_queries_for_3_and_30_tables(
        crew, put_rules_in_effect, console_client) -> None:
    put_rules_in_effect("holdem")
    c = console_client("floorperson")
    _floor_tables(crew, 3)
    with CaptureQueriesContext(connection) as three:
        assert c.get("/console/poker/").status_code == 200
    _floor_tables(crew, 27, start=3)
    with CaptureQueriesContext(connection) as thirty:
        r = c.get("/console/poker/")
    assert r.content.decode().count('class="floor-table"') == 30
    assert len(thirty) == len(three)


def test_hand_page_tells_the_hand_in_words_with_cards_and_money(crew, holdem, console_client
                                                                ) -> None:
    """Three players call the $4.00 big blind and check to the end: a gross pot of $12.00;
    the rake is 10 % of it, $1.20, taken in the table's $1.00 chips: $1.00 (under the $5.00
    cap, 637a.17(b)(1)); the High Hand contribution $1.00 (a pot of $10.00 or more,
    637a.16(c)), none to the Bad Beat (its pots start at $20.00, 637a.15(c)); the Pot is
    $12.00 - $1.00 - $1.00 = $10.00 (637a.1)."""
    ph = play_hand(holdem, crew, seed=3)
    r = console_client("finance").get(f"/console/poker/hands/{ph.round_id}/")
    assert r.status_code == 200
    text = _text(r)
    assert "Hand over: gross pot $12.00, rake $1.00, jackpot contributions $1.00, Pot $10.00" \
        in text
    html = r.content.decode()
    assert re.search(r'<span class="card( card-red)?"><span aria-hidden="true">(10|[2-9JQKA])'
                     r'[♠♥♦♣]</span><span class="visually-hidden">\w+ of (spades|hearts|'
                     r'diamonds|clubs)</span></span>', html)
    assert "??" not in text  # the hand is over: every card shown


def test_hand_page_role_and_property(crew, holdem, console_client, other_property) -> None:
    ph = play_hand(holdem, crew, seed=3)
    url = f"/console/poker/hands/{ph.round_id}/"
    assert console_client("dealer").get(url).status_code == 403  # 637a.18(a): not the dealer's
    assert console_client("floorperson", property=other_property).get(url).status_code == 404


@pytest.fixture
def other_property(db: None) -> Any:
    from casino.services import property_register

    return property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")


def test_the_floor_is_not_for_a_cashier_nor_another_propertys_tables(
        crew, holdem, console_client, other_property) -> None:
    assert console_client("cashier").get("/console/poker/").status_code == 403
    r = console_client("floorperson", property=other_property).get("/console/poker/")
    assert r.status_code == 200 and holdem.name not in r.content.decode()
    assert console_client("floorperson", property=other_property).get(
        f"/console/tables/{holdem.pk}/").status_code == 404
    # a seat of another property's table: 404, as its table
    assert console_client("floorperson", property=other_property).get(
        f"/console/poker/tables/{holdem.pk}/seats/1/").status_code == 404


def _rules_id(game: str = "holdem") -> str:
    from tables.models import RulesSubmission

    return str(RulesSubmission.objects.filter(game=game, state="in_effect").get().pk)


#: seat 1 the button, seat 2 the small blind, seat 3 the big blind; everyone calls and
#: checks to the river; seat 2's aces beat seat 3's kings and seat 1's seven-deuce
SCRIPT = [{"type": "deal", "cards": {"1": ["2c", "7d"], "2": ["As", "Ad"], "3": ["Ks", "Kd"]}},
          {"type": "act", "seat": 1, "action": "call"},
          {"type": "act", "seat": 2, "action": "call"},
          {"type": "act", "seat": 3, "action": "check"},
          {"type": "deal", "cards": ["3h", "8c", "9s"], "burn": "4d"},
          {"type": "act", "seat": 2, "action": "check"},
          {"type": "act", "seat": 3, "action": "check"},
          {"type": "act", "seat": 1, "action": "check"},
          {"type": "deal", "cards": ["Jh"], "burn": "4c"},
          {"type": "act", "seat": 2, "action": "check"},
          {"type": "act", "seat": 3, "action": "check"},
          {"type": "act", "seat": 1, "action": "check"},
          {"type": "deal", "cards": ["5s"], "burn": "4h"},
          {"type": "act", "seat": 2, "action": "check"},
          {"type": "act", "seat": 3, "action": "check"},
          {"type": "act", "seat": 1, "action": "check"}]


def test_poker_calculator_works_the_hand_out_in_dollars_and_records_nothing(
        crew, holdem, console_client) -> None:
    """The same figures as the hand dealt above: a $12.00 gross pot, $1.00 rake, $1.00 to
    the High Hand fund, the Pot of $10.00 to seat 2's aces (637a.18(a): the supervisor
    works a disputed hand out)."""
    c = console_client("poker_shift_supervisor")
    before = Event.objects.count()
    r = c.post("/console/disputes/poker/", {
        "rules_submission": _rules_id(), "stacks": "1: 100.00\n2: 100\n3: $100.00",
        "button": 1, "commands": json.dumps(SCRIPT)})
    assert r.status_code == 200
    text = _text(r)
    assert ("Gross pot $12.00, rake $1.00, jackpot contributions $1.00 to high-hand: the Pot "
            "is $10.00.") in text
    assert "awarded — seat 2 $10.00" in text
    assert "2 $100.00 $106.00 $6.00" in text  # paid $4.00, won $10.00
    assert Event.objects.count() == before


def test_poker_calculator_refuses_in_a_sentence(crew, holdem, console_client) -> None:
    c = console_client("floorperson")
    bad = [*SCRIPT[:1], {"type": "act", "seat": 3, "action": "check"}]  # not seat 3's turn
    before = Event.objects.count()
    r = c.post("/console/disputes/poker/", {"rules_submission": _rules_id(),
                                            "stacks": "1: 100\n2: 100\n3: 100", "button": 1,
                                            "commands": json.dumps(bad)})
    text = _text(r)
    assert "Not calculated." in text and "commands[1]" in text
    assert Event.objects.count() == before
    assert console_client("cashier").get("/console/disputes/poker/").status_code == 403
