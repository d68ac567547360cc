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
