"""Irregularities in the deal (§ 637a.18(g), (j), (o), (p))."""

from __future__ import annotations

import pytest

from poker_room.domain.errors import CardAlreadyDealt, InvalidAction
from poker_room.domain.hand import Hand
from tests.poker_room._helpers import C, call_down, hand, holdem_dealt, rules

DECK = list(range(51, -1, -1))  # top card first: 51 (As), 50 (Ah), ...


def _dealt_holdem() -> Hand:
    # three players, button seat 1: hole cards to seats 2, 3, 1, twice: DECK[0:6]
    return Hand.start(rules("holdem"), {1: 10_000, 2: 10_000, 3: 10_000}, button=1,
                      deck=DECK)


def test_card_found_face_up_in_the_deck_is_not_used():
    """§ 637a.18(j): the next card turns out face up: it goes to the discards and the flop
    comes after the burn from the cards below it."""
    h = _dealt_holdem()
    h.card_discard(DECK[6], "face_up_in_deck")
    call_down(h)
    flop = next(e["data"] for e in h.events if e["type"] == "BoardDealt")
    assert flop["burn"] == DECK[7]
    assert flop["cards"] == DECK[8:11]
    assert DECK[6] not in h.board


def test_a_second_card_face_up_in_the_deck_calls_for_a_misdeal():
    """§ 637a.18(g)(3): more than one card face up in the deck is a misdeal."""
    h = _dealt_holdem()
    h.card_discard(DECK[6], "face_up_in_deck")
    before = h.snapshot()
    with pytest.raises(InvalidAction) as exc:
        h.card_discard(DECK[9], "face_up_in_deck")
    assert exc.value.code == "misdeal_required"
    assert h.snapshot() == before
    h.misdeal("cards_face_up_in_deck")
    assert h.stacks == {1: 10_000, 2: 10_000, 3: 10_000}


def test_card_dealt_off_the_table_may_not_be_used():
    """§ 637a.18(o): a card dealt off the table goes to the discards and cannot be dealt
    again this round."""
    h = holdem_dealt()
    h.card_discard(C("9h")[0], "dealt_off_table")
    call_down(h)
    with pytest.raises(CardAlreadyDealt):
        h.deal(C("9h2d3d"))


def test_hole_card_dealt_face_up_is_exchanged_for_the_top_card():
    """§ 637a.18(p): in Hold'em an exposed hole card is exchanged for the top card of the
    deck and put face down with the discards."""
    h = _dealt_holdem()
    exposed = DECK[0]  # seat 2's first card
    h.hole_card_exposed(2, exposed)
    assert h.cards(2) == [DECK[6], DECK[3]]
    call_down(h)
    flop = next(e["data"] for e in h.events if e["type"] == "BoardDealt")
    assert flop["burn"] == DECK[7] and flop["cards"] == DECK[8:11]


def test_exposed_card_exchange_only_in_hold_em_and_omaha_before_the_flop():
    """§ 637a.18(p) names Hold'em and Omaha; after the flop the deal is over."""
    stud = hand("stud-high")
    stud.deal({1: C("2c3c4c"), 2: C("5d6d7d"), 3: C("8h9hTh")})
    with pytest.raises(InvalidAction) as exc:
        stud.hole_card_exposed(1, C("2c")[0])
    assert exc.value.code == "not_a_board_game"
    h = _dealt_holdem()
    h.act(1, "call")
    h.act(2, "call")
    h.act(3, "check")  # the flop is dealt
    assert len(h.board) == 3
    before = h.snapshot()
    with pytest.raises(InvalidAction) as exc:
        h.hole_card_exposed(2, DECK[0])
    assert exc.value.code == "too_late_to_exchange"
    assert h.snapshot() == before


def test_irregularities_replay_from_events():
    """§ 637a.18(j), (p): the record alone rebuilds the hand."""
    h = _dealt_holdem()
    h.hole_card_exposed(3, DECK[1])
    h.card_discard(DECK[7], "face_up_in_deck")
    call_down(h)
    assert Hand.from_events(h.events).snapshot() == h.snapshot()


def test_stud_hole_card_turned_up_in_the_deal_makes_the_third_card_a_down_card():
    """§ 637a.18(m): in Seven-card Stud a first or second hole card accidentally turned face
    up makes the third card a down card: seat 1's As is its up card (and so, as the
    highest card, it does not bring in), the 9c goes face down."""
    h = hand("stud-high", players=3, ante_cents=25)
    h.deal({1: C("AsKd9c"), 2: C("7h8h2d"), 3: C("QcJc5s")}, exposed={1: C("As")})
    assert h.up_cards(1) == C("As")
    assert sorted(h.cards(1)) == sorted(C("AsKd9c"))
    assert next(e for e in h.events if e["type"] == "BringInPosted")["data"]["seat"] == 2


def test_stud_both_hole_cards_turned_up_void_the_players_hand_and_return_the_ante():
    """§ 637a.18(m): both hole cards face up: the cards are collected, the player's hand
    is void and the $0.25 Ante goes back; the other two play on, seat 3's 5s bringing in."""
    h = hand("stud-high", players=3, ante_cents=25)
    events = h.deal({1: C("AsKd9c"), 2: C("7h8h2d"), 3: C("QcJc5s")},
                    exposed={2: C("7h8h")})
    voided = next(e for e in events if e["type"] == "PlayerHandVoided")["data"]
    assert (voided["seat"], voided["returned"]) == (2, 25)
    assert h.stacks[2] == 10_000
    assert h.pot == 2 * 25 + 100  # the other two antes and seat 3's $1 Forced Bet
    assert next(e for e in h.events if e["type"] == "BringInPosted")["data"]["seat"] == 3


def test_five_card_stud_hole_card_turned_up_makes_the_second_card_a_down_card():
    """§ 637a.18(n): in Five-card Stud the hole card turned face up is the up card and the
    second card is dealt face down."""
    h = hand("five-card-stud", players=2)
    h.deal({1: C("As9c"), 2: C("7h2d")}, exposed={1: C("As")})
    assert h.up_cards(1) == C("As") and sorted(h.cards(1)) == sorted(C("As9c"))
    with pytest.raises(InvalidAction) as err:
        hand("five-card-stud", players=2).deal({1: C("As9c"), 2: C("7h2d")},
                                                exposed={1: C("Kd")})
    assert err.value.code == "card_not_held"


def test_the_terminal_sees_the_turned_hole_card_not_the_card_dealt_down_in_its_place():
    """§ 637a.18(m): the As turned up is shown; the 9c, dealt face down instead of up, is
    hidden like any hole card; the ledger returns the voided player's Ante."""
    from poker_room.domain.ledger import balances
    from poker_room.domain.visibility import TERMINAL, event_data

    h = hand("stud-high", players=3, ante_cents=25)
    h.deal({1: C("AsKd9c"), 2: C("7h8h2d"), 3: C("QcJc5s")},
           exposed={1: C("As"), 2: C("7h8h")})
    dealt = next(e for e in h.events if e["type"] == "CardsDealt")
    seen = dict(map(tuple, event_data("CardsDealt", dealt["data"], hand_over=False,
                                      audience=TERMINAL)["cards"]))
    assert seen[1] == [C("As")[0], None, None] and seen[3] == [None, None, C("5s")[0]]
    assert balances(h.events)["seat:2"] == 0
