"""Hold'em (§ 637a.11) and the general betting rules of § 637a.7 and § 637a.8."""

from __future__ import annotations

import pytest

from poker_room.domain.errors import (
    BetAboveLimit,
    BetBelowMinimum,
    HandComplete,
    InsufficientStakes,
    InvalidAction,
    NotYourTurn,
    PokerError,
    RaiseCapReached,
)
from poker_room.domain.hand import Hand
from poker_room.domain.table import initial_button, next_button
from tests.poker_room._helpers import C, call_down, hand, holdem_dealt, rules, types


@pytest.mark.regulation("637a.7(c)")
@pytest.mark.regulation("637a.11(d)")
def test_blinds_left_of_button_before_any_card():
    """§ 637a.11(d): the player left of the button posts the first Blind Bet, then the
    next; § 637a.7(c): blinds before any cards."""
    h = hand("holdem")
    blinds = [e["data"] for e in h.events if e["type"] == "BlindPosted"]
    assert [(b["seat"], b["amount"]) for b in blinds] == [(2, 100), (3, 200)]
    assert h.phase == "dealing"  # no card dealt yet


@pytest.mark.regulation("637a.11(f)")
def test_hole_cards_dealt_from_left_of_button_button_last():
    """§ 637a.11(f): two rounds face down from the button's left, the button last."""
    h = holdem_dealt()
    dealt = next(e for e in h.events if e["type"] == "CardsDealt")["data"]
    assert [s for s, _ in dealt["cards"]] == [2, 3, 1]
    assert dealt["burn"] is None  # no burn before the hole cards


@pytest.mark.regulation("637a.11(g)")
def test_preflop_action_starts_left_of_big_blind_and_blind_may_raise():
    """§ 637a.11(g): first to act is left of the blinds; the blind keeps the option."""
    h = holdem_dealt()
    assert h.to_act == 1
    h.act(1, "call")
    h.act(2, "call")
    assert h.to_act == 3
    assert "raise" in h.legal_actions()["actions"]


@pytest.mark.regulation("637a.11(e)")
def test_straddle_acts_last_preflop():
    """§ 637a.11(e): one Straddle Bet, left of the blinds; action starts left of it."""
    h = hand("holdem", players=4, straddled=True,
             straddle={"offered": True, "amount_cents": 400, "rules": "left of the last blind"})
    straddles = [e for e in h.events if e["data"].get("kind") == "straddle"]
    assert len(straddles) == 1 and straddles[0]["data"]["seat"] == 4
    h.deal({2: C("AsAd"), 3: C("KsKd"), 4: C("2c7d"), 1: C("3c8d")})
    assert h.to_act == 1


@pytest.mark.regulation("637a.7(c)", "637a.7(e)(3)")
@pytest.mark.regulation("637a.11(h)")
def test_flop_turn_river_each_after_a_burn_and_first_left_of_button_acts():
    """§ 637a.11(h): burn, three community cards, first active player left of the
    button opens; § 637a.11(i) the turn and § 637a.11(j) the river, each after a burn."""
    h = holdem_dealt()
    call_down(h)
    assert h.phase == "dealing"
    h.deal(C("2d3d4d"), burn=C("9h")[0])
    assert h.board == C("2d3d4d") and h.to_act == 2
    call_down(h)
    h.deal(C("5h"), burn=C("9c")[0])
    call_down(h)
    h.deal(C("Jh"), burn=C("9s")[0])
    burned = [e["data"]["burn"] for e in h.events if e["type"] == "BoardDealt"]
    assert burned == C("9h9c9s")


@pytest.mark.regulation("637a.11(h)", "637a.11(i)", "637a.11(j)")
def test_engine_deck_burns_before_flop_turn_and_river_not_before_hole_cards():
    """§ 637a.11(f), (h)-(j) with the engine's deck in order (card 0 on top), button at
    seat 1: hole cards 0-5 with no burn (seat 2 gets 0 and 3, seat 3 1 and 4, the button
    2 and 5); the flop burns 6 and shows 7, 8, 9; the turn burns 10 and shows 11; the
    river burns 12 and shows 13."""
    h = Hand.start(rules("holdem"), {1: 10_000, 2: 10_000, 3: 10_000}, button=1,
                   deck=list(range(52)))
    while not h.is_complete:
        call_down(h)
    hole = next(e for e in h.events if e["type"] == "CardsDealt")["data"]
    assert hole["cards"] == [[2, [0, 3]], [3, [1, 4]], [1, [2, 5]]] and hole["burn"] is None
    boards = [(e["data"]["burn"], e["data"]["cards"]) for e in h.events
              if e["type"] == "BoardDealt"]
    assert boards == [(6, [7, 8, 9]), (10, [11]), (12, [13])]


@pytest.mark.regulation("637a.7(d)", "637a.6(a)")
@pytest.mark.regulation("637a.11(k)")
def test_showdown_best_five_of_seven_wins():
    """§ 637a.11(k): any five of the two hole cards and five community cards."""
    h = holdem_dealt()
    for board in (C("2d3d4d"), C("5h"), C("Jh")):
        call_down(h)
        h.deal(board)
    call_down(h)
    assert h.is_complete
    # aces make the five-high straight A-2-3-4-5 with the board (§ 637a.6(a))
    assert h.result["winners"] == [2]
    assert h.stacks == {1: 9_800, 2: 10_400, 3: 9_800}


@pytest.mark.regulation("637a.6(e)")
@pytest.mark.regulation("637a.11(k)")
def test_board_plays_pot_shared_equally():
    """§ 637a.11(k): when the five community cards are every player's best hand, the
    pot is shared equally; § 637a.6(e) equal hands tie."""
    h = holdem_dealt()
    for board in (C("ThJhQh"), C("Kh"), C("Ah")):
        call_down(h)
        h.deal(board)
    call_down(h)
    assert sorted(h.result["winners"]) == [1, 2, 3]
    assert h.stacks == {1: 10_000, 2: 10_000, 3: 10_000}


@pytest.mark.regulation(
    "637a.11(c)(1)", "637a.12(c)(1)", "637a.13(c)(1)", "637a.19(c)(1)", "637a.20(c)(1)",
    "637a.21(c)(1)", "637a.11(c)(2)", "637a.12(c)(2)", "637a.13(c)(2)", "637a.19(c)(2)",
    "637a.20(c)(2)", "637a.21(c)(2)")
def test_button_rotates_clockwise_and_starts_right_of_dealer_or_by_card():
    """§ 637a.11(c)(1)-(2), § 637a.12(c), § 637a.13(c), § 637a.19(c), § 637a.20(c),
    § 637a.21(c): the button starts at the first player to the dealer's right or by the
    rank of a card dealt to each, then moves clockwise after each round of play."""
    assert next_button([1, 3, 4, 7], 4) == 7
    assert next_button([1, 3, 4, 7], 7) == 1
    assert initial_button([2, 5, 9]) == 9  # highest seat: right of the dealer
    assert initial_button([2, 5, 9], cards={2: C("Ah")[0], 5: C("As")[0], 9: C("Kd")[0]}) == 5


@pytest.mark.regulation("637a.8(c)")
def test_out_of_turn_action_refused_and_state_unchanged():
    """§ 637a.8(c): a statement binds the player whose turn it is; others are refused."""
    h = holdem_dealt()
    before = h.snapshot()
    with pytest.raises(NotYourTurn) as exc:
        h.act(2, "call")
    assert exc.value.code == "not_your_turn"
    assert h.snapshot() == before


@pytest.mark.regulation("637a.8(k)", "637a.8(g)")
def test_bet_below_minimum_and_above_limit_refused():
    """§ 637a.8(k): the posted minimum and maximum bets."""
    h = holdem_dealt(structure="no-limit")
    before = h.snapshot()
    with pytest.raises(BetBelowMinimum) as low:
        h.act(1, "raise", 300)
    with pytest.raises(BetAboveLimit) as high:
        h.act(1, "raise", 10_001)
    assert (low.value.code, high.value.code) == ("bet_below_minimum", "bet_above_limit")
    assert h.snapshot() == before


@pytest.mark.regulation("637a.8(b)(1)")
def test_table_stakes_only_bet_what_is_on_the_table():
    """§ 637a.8(b)(1): a player bets only the table stakes in front of him."""
    h = holdem_dealt({1: 1_000, 2: 10_000, 3: 10_000}, structure="no-limit")
    assert h.legal_actions()["max_to"] == 1_000


@pytest.mark.regulation("637a.8(b)(4)")
def test_player_without_forced_bets_and_minimum_cannot_play():
    """§ 637a.8(b)(4): the forced bets plus one bet at the table minimum are required;
    § 637a.8(a) only the seated players in the hand receive cards."""
    with pytest.raises(InsufficientStakes) as exc:
        Hand.start(rules("holdem"), {1: 10_000, 2: 250, 3: 10_000}, button=1)
    assert exc.value.code == "insufficient_table_stakes"


@pytest.mark.regulation("637a.8(f)")
def test_bet_cannot_be_increased_after_it_is_made():
    """§ 637a.8(f): once made, a bet is complete; the next act is someone else's."""
    h = holdem_dealt()
    h.act(1, "raise", 400)
    with pytest.raises(NotYourTurn):
        h.act(1, "raise", 600)


def test_amount_recorded_is_the_amount_bet():
    """§ 637a.8(d), § 637a.8(e): the bet recorded is the amount placed in the pot;
    § 637a.8(h) chips in the pot stay there (only the uncalled part ever returns);
    § 637a.8(i) a bet is what is announced, not a larger chip."""
    h = holdem_dealt(structure="no-limit")
    ev = h.act(1, "raise", 650)[0]
    assert ev["data"] == {"seat": 1, "amount": 650, "to": 650}


@pytest.mark.regulation("637a.8(j)")
def test_raise_after_check_allowed_unless_posted():
    """§ 637a.8(j): a player may raise after checking unless posted otherwise."""
    for allowed in (True, False):
        h = holdem_dealt(raise_after_check=allowed)
        call_down(h)
        h.deal(C("2d3d4d"))
        h.act(2, "check")
        h.act(3, "bet")
        h.act(1, "call")
        assert ("raise" in h.legal_actions()["actions"]) is allowed


@pytest.mark.regulation("637a.8(k)")
def test_raise_cap_reached():
    """§ 637a.8(k): the posted maximum number of raises; § 637a.8(g) raising continues
    within the posted limits."""
    h = holdem_dealt(max_raises_per_round=2)
    h.act(1, "raise")
    h.act(2, "raise")
    before = h.snapshot()
    with pytest.raises(RaiseCapReached) as exc:
        h.act(3, "raise")
    assert exc.value.code == "raise_cap_reached"
    assert h.snapshot() == before


@pytest.mark.regulation("637a.8(k)")
def test_fixed_limit_small_then_big_bet():
    """§ 637a.8(k): fixed-limit bets are the small bet early and the big bet later."""
    h = holdem_dealt()
    call_down(h)
    h.deal(C("2d3d4d"))
    assert h.legal_actions()["min_to"] == 200
    call_down(h)
    h.deal(C("5h"))
    assert h.legal_actions()["min_to"] == 400


@pytest.mark.regulation("637a.7(d)")
def test_action_after_the_hand_ended_refused():
    """§ 637a.7(d): the pot goes to the bettor nobody calls; then the hand is over."""
    h = holdem_dealt()
    h.act(1, "fold")
    h.act(2, "fold")
    assert h.is_complete and h.result["winners"] == [3]
    before = h.snapshot()
    with pytest.raises(HandComplete) as exc:
        h.act(3, "check")
    assert exc.value.code == "hand_complete"
    assert h.snapshot() == before


def test_card_not_in_deck_or_already_dealt_refused():
    """§ 637a.7(e)(4)-(5): a deck of 52 cards; a card cannot be dealt twice."""
    h = hand("holdem")
    before = h.snapshot()
    with pytest.raises(PokerError) as bad:
        h.deal({2: [60, 1], 3: C("KsKd"), 1: C("2c7d")})
    with pytest.raises(PokerError) as twice:
        h.deal({2: C("AsAd"), 3: C("AsKd"), 1: C("2c7d")})
    assert (bad.value.code, twice.value.code) == ("card_not_in_deck", "card_already_dealt")
    assert h.snapshot() == before


@pytest.mark.regulation("637a.7(b)")
@pytest.mark.regulation("637a.11(b)")
def test_at_most_ten_players_and_at_least_two():
    """§ 637a.11(b): no more than ten players; § 637a.7(b): at least two."""
    with pytest.raises(PokerError, match="no more than 10"):
        Hand.start(rules("holdem"), {s: 10_000 for s in range(1, 12)}, button=1)
    assert Hand.start(rules("holdem"), {s: 10_000 for s in range(1, 11)}, button=1).phase == (
        "dealing")
    with pytest.raises(PokerError) as exc:
        Hand.start(rules("holdem"), {1: 10_000}, button=1)
    assert exc.value.code == "too_few_players"


@pytest.mark.regulation("637a.11(a)")
def test_high_hand_only():
    """§ 637a.11(a): Hold'em is played for the high hand only (one share)."""
    h = holdem_dealt()
    for board in (C("2d3d4d"), C("5h"), C("Jh")):
        call_down(h)
        h.deal(board)
    call_down(h)
    assert {e["data"]["share"] for e in h.events if e["type"] == "PotAwarded"} == {"whole"}


@pytest.mark.regulation("637a.9(a)", "637a.9(b)")
def test_games_offered_are_the_637a_games():
    """§ 637a.9(a): the games of the chapter; § 637a.9(b) no other game is dealt;
    § 637a.9(c) each announced by id and title."""
    from poker_room.domain.games import POKER_SPECS
    assert len(POKER_SPECS) == 18
    assert {"holdem", "stud-high", "draw-low", "five-card-stud"} <= set(POKER_SPECS)
    from casino.domain.errors import DomainError
    with pytest.raises(DomainError):
        Hand.start({"game": "pineapple"}, {1: 1, 2: 1}, button=1)


def test_events_name_each_step_in_order():
    """§ 637a.7(e)(2): the dealer indicates the action; the events are that record."""
    h = holdem_dealt()
    assert types(h.events)[:4] == ["HandStarted", "BlindPosted", "BlindPosted", "CardsDealt"]


def _no_limit_flop(stacks):
    h = hand("holdem", stacks, players=len(stacks), structure="no-limit")
    holes = ["AsAd", "KsKd", "QsQd", "2c7d", "JhJc"]
    h.deal({s: C(holes[k]) for k, s in enumerate(sorted(stacks))})
    call_down(h)
    h.deal(C("2d3d4h"))
    return h


@pytest.mark.regulation("637a.8(b)(5)")
def test_all_in_for_less_than_a_full_raise_does_not_reopen_the_betting():
    """§ 637a.8(g), § 637a.8(b)(5): seat 2 bets 1,000 and seat 3 calls; seat 4 goes all in
    for 1,500, less than a full raise (a raise must add at least the 1,000 bet), so seat 2
    and seat 3, who already acted on the 1,000, may only call or fold. Seat 1, who has
    not acted, may raise."""
    h = _no_limit_flop({1: 10_000, 2: 10_000, 3: 10_000, 4: 1_700})
    h.act(2, "bet", 1_000)
    h.act(3, "call")
    h.act(4, "raise", 1_500)  # all in: 200 went in pre-flop
    assert h.legal_actions()["actions"] == ["fold", "call", "raise"]  # seat 1
    h.act(1, "call")
    assert h.to_act == 2
    assert "raise" not in h.legal_actions()["actions"]
    before = h.snapshot()
    with pytest.raises(InvalidAction):
        h.act(2, "raise", 5_000)
    assert h.snapshot() == before


@pytest.mark.regulation("637a.8(b)(5)")
def test_short_all_ins_reopen_only_to_whom_they_add_a_full_raise():
    """§ 637a.8(g), § 637a.8(b)(5): after a 1,000 bet, two all-ins for less than a full
    raise, to 1,600 and then 2,200. Together they add 1,200 to the 1,000 seat 2 matched,
    a full raise, so seat 2 may raise again; seat 4, who called the 1,600, faces only 600
    more and may not."""
    h = _no_limit_flop({1: 10_000, 2: 10_000, 3: 1_800, 4: 10_000, 5: 2_400})
    h.act(2, "bet", 1_000)
    h.act(3, "raise", 1_600)  # all in (200 went in pre-flop): 600 more, short
    h.act(4, "call")
    h.act(5, "raise", 2_200)  # all in: 600 more, short
    h.act(1, "call")
    assert h.to_act == 2
    assert "raise" in h.legal_actions()["actions"]
    h.act(2, "call")
    assert h.to_act == 4
    assert h.legal_actions()["actions"] == ["fold", "call"]
