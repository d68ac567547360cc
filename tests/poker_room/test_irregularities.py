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


@pytest.mark.regulation("637a.18(j)")
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


@pytest.mark.regulation("637a.18(g)(3)")
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


@pytest.mark.regulation("637a.18(o)")
def test_card_dealt_off_the_table_may_not_be_used():
    """§ 637a.18(o): a card dealt off the table goes to the discards and cannot be dealt
    again this round."""
    h = holdem_dealt()
    h.card_discard(C("9h")[0], "dealt_off_table")
    call_down(h)
    with pytest.raises(CardAlreadyDealt):
        h.deal(C("9h2d3d"))


@pytest.mark.regulation("637a.18(p)")
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


@pytest.mark.regulation("637a.18(p)")
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


@pytest.mark.regulation("637a.18(m)")
def test_stud_hole_card_turned_up_in_the_deal_makes_the_third_card_a_down_card():
    """§ 637a.18(m): in Seven-card Stud a first or second hole card accidentally turned face
    up makes the third card a down card: seat 1's As is its up card (and so, as the
    highest card, it does not bring in), the 9c goes face down."""
    h = hand("stud-high", players=3, ante_cents=25)
    h.deal({1: C("AsKd9c"), 2: C("7h8h2d"), 3: C("QcJc5s")}, exposed={1: C("As")})
    assert h.up_cards(1) == C("As")
    assert sorted(h.cards(1)) == sorted(C("AsKd9c"))
    assert next(e for e in h.events if e["type"] == "BringInPosted")["data"]["seat"] == 2


@pytest.mark.regulation("637a.18(m)")
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


@pytest.mark.regulation("637a.18(n)")
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


def _to_seventh_street() -> Hand:
    """Seven-card Stud, three players with $100, $1 Forced Bet, $2/$4: third street
    seat 1 As Ks / Ah, seat 2 2h 3h / 4h, seat 3 9c 9d / 2s; the 2s brings in $1, seats 1
    and 2 call ($3 in the pot); fourth to sixth street are checked round."""
    h = hand("stud-high", players=3)
    h.deal({1: C("AsKsAh"), 2: C("2h3h4h"), 3: C("9c9d2s")})
    call_down(h)
    for street in ({1: C("Ad"), 2: C("5h"), 3: C("9h")}, {1: C("Kh"), 2: C("8d"), 3: C("Qd")},
                   {1: C("7c"), 2: C("8c"), 3: C("Jc")}):
        h.deal(street)
        call_down(h)
    assert h.pot == 300
    return h


SEVENTH = {1: C("Kd"), 2: C("6h"), 3: C("9s")}


def _bet_and_call(h: Hand) -> None:
    """The player to act bets the $4 big bet and everyone still betting calls."""
    h.act(h.to_act, "bet")
    while h.to_act is not None:
        h.act(h.to_act, "call")


@pytest.mark.regulation("637a.18(m)(1)")
def test_stud_third_hole_card_exposed_player_stops_betting_for_the_pot_so_far():
    """§ 637a.18(m)(1): seat 2's last card, the 6h, is turned face up in the deal; seat 2
    chooses to make no more bets and contend only for the pot as it was ($3). Seats 1 and
    3 bet and call $4 each: a side pot of $8 between them. Seat 2's 6-high straight flush
    takes the $3 pot; seat 3's four nines beat seat 1's aces full for the $8: seat 1
    $100 - $5 = $95, seat 2 $100 - $1 + $3 = $102, seat 3 $100 - $5 + $8 = $103."""
    h = _to_seventh_street()
    events = h.deal(SEVENTH, exposed={2: C("6h")}, exposure_choice={2: "pot_so_far"})
    exposed = next(e["data"] for e in events if e["type"] == "ThirdHoleCardExposed")
    assert (exposed["seat"], exposed["card"], exposed["choice"]) == (2, C("6h")[0],
                                                                     "pot_so_far")
    assert C("6h")[0] in h.up_cards(2)
    # 637a.10(f): seat 1's pair of aces showing acts first; the exposed 6h is not one of
    # the cards dealt face up and does not change the order
    assert h.to_act == 1
    _bet_and_call(h)
    acted = [e["data"]["seat"] for e in h.events[-8:] if e["type"].startswith("Player")]
    assert 2 not in acted
    assert h.is_complete
    assert h.stacks == {1: 9_500, 2: 10_200, 3: 10_300}
    awards = [(e["data"]["pot"], e["data"]["seat"], e["data"]["amount"]) for e in h.events
              if e["type"] == "PotAwarded"]
    assert awards == [(0, 2, 300), (1, 3, 800)]
    again = Hand.from_events(h.events)
    assert again.snapshot() == h.snapshot()


@pytest.mark.regulation("637a.18(m)(2)")
def test_stud_third_hole_card_exposed_player_plays_on_for_the_entire_pot():
    """§ 637a.18(m)(2): seat 2 plays on: all three bet and call $4, a single pot of
    $3 + $12 = $15 to seat 2's straight flush: seat 2 $100 - $5 + $15 = $110."""
    h = _to_seventh_street()
    h.deal(SEVENTH, exposed={2: C("6h")}, exposure_choice={2: "entire_pot"})
    _bet_and_call(h)
    assert h.stacks == {1: 9_500, 2: 11_000, 3: 9_500}


def test_the_terminal_sees_the_exposed_last_card():
    """§ 637a.18(m): the exposed last card is face up for the table; the others' last
    cards stay hidden."""
    from poker_room.domain.visibility import TERMINAL, event_data

    h = _to_seventh_street()
    h.deal(SEVENTH, exposed={2: C("6h")}, exposure_choice={2: "pot_so_far"})
    dealt = [e for e in h.events if e["type"] == "CardsDealt"][-1]
    seen = event_data("CardsDealt", dealt["data"], hand_over=False, audience=TERMINAL)
    assert all(cs == [None] for _, cs in seen["cards"])
    shown = next(e for e in h.events if e["type"] == "ThirdHoleCardExposed")
    assert event_data(shown["type"], shown["data"], hand_over=False,
                      audience=TERMINAL)["card"] == C("6h")[0]


@pytest.mark.parametrize("exposed,choice,code", [
    ({2: C("6h")}, None, "exposure_choice_required"),
    ({2: C("6h")}, {2: "fold"}, "exposure_choice_required"),
    ({2: C("Kd")}, {2: "pot_so_far"}, "card_not_held"),
    (None, {2: "pot_so_far"}, "invalid_action"),
    ({2: C("6h")}, {2: "pot_so_far", 3: "entire_pot"}, "invalid_action"),
])
@pytest.mark.regulation("637a.18(m)")
def test_a_bad_last_card_exposure_is_refused_and_changes_nothing(exposed, choice, code):
    """§ 637a.18(m): the exposed card is the one just dealt to the seat, and the player's
    choice is one of the two the rule offers, for that seat only."""
    h = _to_seventh_street()
    before = h.snapshot()
    with pytest.raises(InvalidAction) as err:
        h.deal(SEVENTH, exposed=exposed, exposure_choice=choice)
    assert err.value.code == code
    assert h.snapshot() == before


def test_only_the_first_deal_and_the_last_card_are_dealt_exposed():
    """§ 637a.18(m)-(n): an up card dealt on fourth street is not a hole card."""
    h = hand("stud-high", players=3)
    h.deal({1: C("AsKsAh"), 2: C("2h3h4h"), 3: C("9c9d2s")})
    call_down(h)
    with pytest.raises(InvalidAction):
        h.deal({1: C("Ad"), 2: C("5h"), 3: C("9h")}, exposed={2: C("5h")},
               exposure_choice={2: "entire_pot"})


@pytest.mark.parametrize("choice,stacks", [("pot_so_far", [9_500, 10_200, 10_300]),
                                           ("entire_pot", [9_500, 11_000, 9_500])])
def test_the_exposed_last_card_and_the_choice_survive_the_phh_export(choice, stacks):
    """§ 637a.18(m)(1)-(2): the hand history notes the exposure and the choice on the
    deal, and replaying it gives the same stacks."""
    from poker_room.domain.phh import replay, to_phh

    h = _to_seventh_street()
    h.deal(SEVENTH, exposed={2: C("6h")}, exposure_choice={2: choice})
    _bet_and_call(h)
    text = to_phh(h)
    assert f"d dh p2 6h # 637a.18(m) exposed: {choice}" in text
    again = replay(text)
    assert [again.stacks[s] for s in (1, 2, 3)] == stacks == [h.stacks[s] for s in (1, 2, 3)]
