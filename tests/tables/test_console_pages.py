"""The tables' console pages (issue 23, item 4): a table's page, the list of tables, a
banked round's reconstruction in dollars and the banked dispute calculator, each
property-scoped and role-checked, made with the real services on PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

import pytest

from casino.eventstore.models import Event
from console.registry import command_url
from tables.services import banked, rounds
from tests.console.conftest import console_client  # noqa: F401  (the console's signed-in client)

pytestmark = pytest.mark.postgres


@pytest.fixture
def other_property(db: None) -> Any:
    from casino.services import property_register

    return property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")


def play_hilo_round(dealer: Any, table: Any, deck: Any) -> Any:
    """A Five Card Hi-Lo round played and closed at ``table``: position 1's Ante of $10.00
    and Play of $10.00, high K-Q-9 (29) and low 3-2 (5) against the dealer's J-10-8 (28)
    and 6-4 (10): both hands win (579.11(g)(1)), each wager paid 1 to 1 (579.12(a))."""
    d = dealer
    rnd = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    banked.round_place_wager(actor=d, round_id=rnd.pk, position=1, wager="ante", amount=1000)
    banked.round_no_more_bets(actor=d, round_id=rnd.pk)
    banked.round_deal(actor=d, round_id=rnd.pk, hands={"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                      dealer=["Jh", "Tc", "8s", "6d", "4c"])
    banked.round_decide(actor=d, round_id=rnd.pk, position=1, decision="play")
    banked.round_set_hands(actor=d, round_id=rnd.pk, position=1, high=["Ks", "Qd", "9c"],
                           low=["3h", "2d"])
    banked.round_lock_decisions(actor=d, round_id=rnd.pk)
    rounds.round_close(actor=d, round_id=rnd.pk)
    return rnd


@pytest.fixture
def hilo_round(crew, open_table, deck_in_play) -> Any:
    """:func:`play_hilo_round` at a new Hi-Lo table with a deck in play."""
    table = open_table("five-card-hi-lo")
    deck = deck_in_play(table)
    return {"table": table, "round": play_hilo_round(crew["dealer"], table, deck),
            "deck": deck}


def _text(response: Any) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_table_page_shows_game_rules_sign_decks_and_results(hilo_round, console_client
                                                            ) -> None:
    """The page a floorperson reads: the game, the rules in force and the sign they make
    (579.2(b)(7): the limits posted), the deck in play with its time left before a change
    is due (the shoe's 8 hours), and today's results: wagered $20.00 (Ante $10.00 + Play
    $10.00), returned $40.00 (each paid 1 to 1 with the wager back), house win -$20.00."""
    table = hilo_round["table"]
    r = console_client("floorperson").get(f"/console/tables/{table.pk}/")
    assert r.status_code == 200
    text = _text(r)
    assert f"Table {table.name}: Five Card Hi-Lo" in text
    assert "Rules Submission version 1, in force since" in text
    assert "Table limits" in text and "§ 579.2(b)(7)" in text
    assert re.search(r"[78] h \d\d min left", text)
    assert "All wagers 1 $20.00 $40.00 -$20.00" in text
    # the actions are links to the declared commands' forms
    html = r.content.decode()
    assert command_url("deck_count", hilo_round["deck"].pk) in html
    assert command_url("deck_receive", None, table=table.pk).replace("&", "&amp;") in html


def test_table_list_links_every_table_of_the_property(hilo_round, console_client) -> None:
    table = hilo_round["table"]
    r = console_client("dealer").get("/console/tables/")
    assert r.status_code == 200
    assert f'href="/console/tables/{table.pk}/"' in r.content.decode()


def test_round_page_reconstructs_the_round_in_dollars_with_cards(hilo_round, console_client
                                                                 ) -> None:
    """589.11(f), 579.11(l): the round step by step, the settlement in dollars, cards with
    their suits and their names for a screen reader."""
    rnd = hilo_round["round"]
    r = console_client("compliance").get(f"/console/rounds/{rnd.pk}/")
    assert r.status_code == 200
    text = _text(r)
    assert "Wagered $20.00, returned to players $40.00, house win -$20.00" in text
    html = r.content.decode()
    assert 'K♠</span><span class="visually-hidden">king of spades</span>' in html
    assert "queen of diamonds" in html and "Q♦" in html
    assert "position 1 wagered ante $10.00" in text


@pytest.mark.parametrize("path", ["/console/tables/", "/console/tables/{table}/",
                                  "/console/rounds/{round}/"])
def test_a_cashier_may_not_see_the_table_pages(hilo_round, console_client, path) -> None:
    url = path.format(table=hilo_round["table"].pk, round=hilo_round["round"].pk)
    assert console_client("cashier").get(url).status_code == 403


@pytest.mark.parametrize("path", ["/console/tables/{table}/", "/console/rounds/{round}/"])
def test_another_propertys_table_and_round_are_not_found(hilo_round, console_client,
                                                         other_property, path) -> None:
    """Another property's row is answered as one that does not exist (issue 11)."""
    url = path.format(table=hilo_round["table"].pk, round=hilo_round["round"].pk)
    assert console_client("floorperson", property=other_property).get(url).status_code == 404


POSITIONS = ('[{"position": 1, "wagers": {"ante": 1000}, "cards": ["Ks", "Qd", "9c", "3h", '
             '"2d"], "decisions": [{"decision": "play", "high": ["Ks", "Qd", "9c"], '
             '"low": ["3h", "2d"]}]}]')


def test_banked_calculator_settles_the_round_in_dollars_and_records_nothing(
        crew, put_rules_in_effect, console_client) -> None:
    """The same round as above, worked from the form: $40.00 back on $20.00 put up;
    nothing appended (a calculator, 579.11(l) settles the dispute)."""
    put_rules_in_effect("five-card-hi-lo")
    c = console_client("poker_shift_supervisor")
    before = Event.objects.count()
    r = c.post("/console/disputes/banked/", {"game": "five-card-hi-lo", "positions": POSITIONS,
                                             "dealer_cards": "Jh Tc 8s 6d 4c"})
    assert r.status_code == 200
    text = _text(r)
    assert "Put up $20.00; returned to the players $40.00; house win -$20.00." in text
    assert Event.objects.count() == before


def test_banked_calculator_refuses_in_a_sentence_and_records_nothing(
        crew, put_rules_in_effect, console_client) -> None:
    put_rules_in_effect("five-card-hi-lo")
    c = console_client("floorperson")
    before = Event.objects.count()
    r = c.post("/console/disputes/banked/", {"game": "five-card-hi-lo",
                                             "positions": POSITIONS,
                                             "dealer_cards": "Jh Tc 8s 6d Ks"})
    text = _text(r)
    assert r.status_code == 200 and "Not calculated." in text
    assert "duplicate_card" not in text  # a sentence, not a code
    assert Event.objects.count() == before
    assert console_client("cashier").get("/console/disputes/banked/").status_code == 403
