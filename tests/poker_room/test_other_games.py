"""Omaha (§ 637a.12), Five-card Omaha (§ 637a.19), Five-card Draw (§ 637a.13), Triple
Draw (§ 637a.20) and Badugi (§ 637a.21)."""

from __future__ import annotations

import pytest

from poker_room.domain.errors import InvalidRules, PokerError
from poker_room.domain.hand import Hand
from poker_room.domain.kill import next_kill_active
from poker_room.domain.rules import TableRules
from tests.poker_room._helpers import C, call_down, hand, pct_rake, rules, stand_pat_to_showdown


def _board_game(game, holes, board, **kw):
    h = hand(game, players=len(holes), **kw)
    h.deal(holes)
    for cards in (board[:3], board[3:4], board[4:]):
        call_down(h)
        h.deal(cards)
    call_down(h)
    return h


def test_omaha_two_hole_and_three_board_cards():
    """§ 637a.12(f) four hole cards; (k)(1) exactly two plus three: a four-flush in hand
    with one board spade is no flush; § 637a.12(a)-(b)."""
    h = _board_game("omaha-high", {2: C("AsKsQsJs"), 3: C("2c2d7h8h"), 1: C("3c4d9c9d")},
                    C("2s5h6d7c8d"))
    # seat 2's four spades make no flush with one board spade; seat 1's 3c4d with the
    # board's 5-6-7 make a straight
    assert h.result["winners"] == [1]
    assert all(len(h.cards(s)) == 4 for s in (1, 2, 3))


def test_omaha_hilo8_split_no_low_and_scoop():
    """§ 637a.12(k)(2): high and low split; § 637a.12(l) no qualifying low: the high hand
    takes the pot; § 637a.12(m) the player may use different fives for high and low."""
    h = _board_game("omaha-hilo8", {2: C("AsAdKsKd"), 3: C("2c3d9h9s"), 1: C("QcQdJcJd")},
                    C("4h5h8cTdKh"))
    shares = {(e["data"]["seat"], e["data"]["share"]) for e in h.events
              if e["type"] == "PotAwarded"}
    assert shares == {(2, "high"), (3, "low")}
    h = _board_game("omaha-hilo8", {2: C("AsAdKsKd"), 3: C("2c3d9h9s"), 1: C("QcQdJcJd")},
                    C("TcJhQhTdKh"))
    assert {e["data"]["share"] for e in h.events if e["type"] == "PotAwarded"} == {"whole"}


def test_omaha_tied_low_odd_chip_by_lowest_card_suit():
    """§ 637a.12(k)(2)(iii)-(iv): the odd chip of a tied low goes to the lowest card by
    suit (clubs lowest)."""
    h = Hand.start(rules("omaha-hilo8", blinds_cents=[101, 201], small_bet_cents=201,
                         big_bet_cents=402), {1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    h.deal({2: C("Ac5cQdQh"), 3: C("Ad5dJsJh"), 1: C("9s9hTsTh")})
    for cards in (C("2h3h4s"), C("8d"), C("Kh")):
        call_down(h)
        h.deal(cards)
    call_down(h)
    low = {e["data"]["seat"]: e["data"]["amount"] for e in h.events
           if e["type"] == "PotAwarded" and e["data"]["share"] == "low"}
    assert set(low) == {2, 3} and low[2] > low[3]


def test_kill_and_half_kill():
    """§ 637a.12(n), § 637a.19(l)(3), § 637a.20(b), § 637a.21(b): a scooped qualifying pot
    doubles (or raises by half) the next hand's limits until a split or a small pot."""
    r = TableRules.from_dict(rules("omaha-hilo8", kill={"option": "kill",
                                                       "qualifying_pot_cents": 2000}))
    assert next_kill_active(r, False, pot_cents=2500, scooped=True, split_high_low=False)
    assert next_kill_active(r, True, pot_cents=2500, scooped=False, split_high_low=False)
    assert not next_kill_active(r, True, pot_cents=2500, scooped=False, split_high_low=True)
    assert not next_kill_active(r, True, pot_cents=1500, scooped=True, split_high_low=False)
    assert r.with_kill(True).small_bet_cents == 400
    half = TableRules.from_dict(rules("omaha-hilo8", kill={
        "option": "half-kill", "qualifying_pot_cents": 2000}))
    assert half.with_kill(True).big_bet_cents == 600
    h = Hand.start(r, {1: 10_000, 2: 10_000}, button=1, kill_active=True)
    assert h.rules.small_bet_cents == 400
    with pytest.raises(InvalidRules) as exc:
        TableRules.from_dict(rules("holdem", kill={"option": "kill", "qualifying_pot_cents": 100}))
    assert (exc.value.code, exc.value.field) == ("option_not_allowed", "kill.option")
    # 637a.19(l)(3) offers it in Five-card Omaha High-low only, as 637a.12(n) in Omaha
    with pytest.raises(InvalidRules):
        TableRules.from_dict(rules("five-card-omaha-high", kill={"option": "kill",
                                                                "qualifying_pot_cents": 100}))
    assert TableRules.from_dict(rules("five-card-omaha-hilo8", kill={
        "option": "kill", "qualifying_pot_cents": 100})).kill == "kill"


def test_five_card_omaha():
    """§ 637a.19(a): Five-card Omaha; § 637a.19(b) eight players at most; § 637a.19(f)
    five hole cards; § 637a.19(k) two plus three, high and low; § 637a.19(l)."""
    h = _board_game("five-card-omaha-hilo8",
                    {2: C("AsAdKsKd2h"), 3: C("2c3d9h9sTs"), 1: C("QcQdJcJd6s")},
                    C("4h5h8cTdKh"))
    assert all(len(h.cards(s)) == 5 for s in (1, 2, 3))
    assert h.is_complete
    with pytest.raises(PokerError):
        Hand.start(rules("five-card-omaha-high"), {s: 10_000 for s in range(1, 10)}, button=1)


def test_five_card_draw_order_blinds_after_deal_and_draw():
    """§ 637a.13(a) Five-card Draw; § 637a.13(b) eight players at most; § 637a.13(c)
    button; § 637a.13(d) five cards each, button last; § 637a.13(e) then the blinds;
    § 637a.13(f) betting from the left of the blinds; § 637a.13(g) a burn and one draw
    from the button's left; § 637a.13(h) final betting from the button's left;
    § 637a.13(i) high (or low) wins."""
    h = hand("draw-high", players=3)
    assert not any(e["type"] == "BlindPosted" for e in h.events)
    h.deal({2: C("AsAdAh2c3c"), 3: C("KsKdKh4c5c"), 1: C("QsQdQh6c7c")})
    kinds = [e["type"] for e in h.events]
    assert kinds.index("CardsDealt") < kinds.index("BlindPosted")
    assert h.to_act == 1
    call_down(h)
    assert h.phase == "drawing" and h.to_act == 2
    assert any(e["type"] == "CardBurned" for e in h.events)
    h.draw(2, C("2c3c"), C("8s8d"))
    h.draw(3, [], [])
    h.draw(1, C("6c"), C("Qc"))
    assert h.to_act == 2
    call_down(h)
    assert h.result["winners"] == [1]  # four queens
    with pytest.raises(PokerError):
        Hand.start(rules("draw-low"), {s: 10_000 for s in range(1, 10)}, button=1)


def test_draw_reshuffles_discards_but_not_the_drawers_own():
    """§ 637a.13(g)(2), § 637a.20(h): a short deck: the discards, never the drawing
    player's own, are reshuffled for the draw."""
    import random

    from poker_room.domain.simulate import random_hand
    rng = random.Random(4)
    for _ in range(400):
        h = random_hand(rules("triple-draw-27"), rng, players=7, fold_weight=0.0)
        for k, e in enumerate(h.events):
            if e["type"] == "DiscardsReshuffled":
                drew = next(x for x in h.events[k:] if x["type"] == "PlayerDrew")["data"]
                assert not set(drew["discarded"]) & set(e["data"]["cards"])
                return
    pytest.fail("no reshuffle seen")


def test_triple_draw_three_draws_and_four_rounds_2_7_low_wins():
    """§ 637a.20(a)-(k): blinds, five cards, four betting rounds with three draws; 2-7:
    the ace is high and a straight counts (637a.20(k)(3)); at most seven players."""
    h = hand("triple-draw-27", players=2)
    h.deal({2: C("7s5d4h3c2c"), 1: C("As2d3h4s5s")})
    stand_pat_to_showdown(h)
    assert h.result["winners"] == [2]
    assert sum(e["type"] == "CardBurned" for e in h.events) == 3
    with pytest.raises(PokerError):
        Hand.start(rules("triple-draw-a5"), {s: 10_000 for s in range(1, 9)}, button=1)


def test_triple_draw_a5_and_tie_split():
    """§ 637a.20(k)(1)-(2), (4): A-5 low, straights ignored; a tie splits the pot."""
    h = hand("triple-draw-a5", players=2)
    h.deal({2: C("As2d3h4s5s"), 1: C("Ac2c3c4c5d")})
    stand_pat_to_showdown(h)
    assert sorted(h.result["winners"]) == [1, 2]


def test_badeucey_halves_and_badacey():
    """§ 637a.20(l)(1)-(2): half to the best 2-7 (or A-5) hand, half to the best Badugi."""
    h = hand("badeucey", players=2)
    h.deal({2: C("7s5d4h3c2c"), 1: C("2s3d4c5hKc")})
    stand_pat_to_showdown(h)
    shares = {e["data"]["share"]: e["data"]["seat"] for e in h.events
              if e["type"] == "PotAwarded"}
    assert shares == {"2-7": 2, "badugi": 1}
    h = hand("badacey", players=2)
    h.deal({2: C("As2d3h4c5c"), 1: C("9s9d9h9cKc")})
    stand_pat_to_showdown(h)
    assert h.result["winners"] == [2]


def test_badugi_showdown_without_four_card_hands():
    """§ 637a.21(a)-(k): four cards, blinds, three draws; with no four-card Badugi the best
    three-card hand wins (637a.21(k)(2)); nine players at most."""
    h = hand("badugi", players=3)
    h.deal({2: C("As2s3d4h"), 3: C("5c6c7d8h"), 1: C("KsKdKhKc")})
    stand_pat_to_showdown(h, (2, 3, 1))
    assert h.result["winners"] == [2]  # A-3-4 three-card hand beats 5-7-8
    with pytest.raises(PokerError):
        Hand.start(rules("badugi"), {s: 10_000 for s in range(1, 11)}, button=1)


def test_omaha_hilo8_side_pot_without_a_qualifying_low_goes_to_the_high_hand():
    """§ 637a.12(l)(1): the low is judged among the players contending for each pot. Seat
    3, all in for 400, holds the only low, so it shares the main pot (1,200: 600 high to
    seat 2, 600 low to seat 3); no one in the side pot (400, seats 1 and 2) has a low,
    so seat 2's high hand takes all of it. (pokerkit 0.7.7 splits that side pot because
    some player in the hand has a low.)"""
    h = Hand.start(rules("omaha-hilo8"), {1: 10_000, 2: 10_000, 3: 400}, button=1)
    h.deal({2: C("AsAdKsKd"), 3: C("2c3d9h9s"), 1: C("QcQdJcJd")})
    h.act(1, "raise", 400)
    h.act(2, "call")
    h.act(3, "call")  # all in
    h.deal(C("4h5h8c"))
    h.act(2, "bet", 200)
    h.act(1, "call")
    for cards in (C("Td"), C("Kh")):
        call_down(h)
        h.deal(cards)
    call_down(h)
    awards = sorted((e["data"]["pot"], e["data"]["seat"], e["data"]["share"],
                     e["data"]["amount"]) for e in h.events if e["type"] == "PotAwarded")
    assert awards == [(0, 2, "high", 600), (0, 3, "low", 600), (1, 2, "whole", 400)]
    assert h.stacks == {1: 9_400, 2: 10_400, 3: 600}


def test_kill_qualifying_pot_is_counted_after_the_rake():
    """§ 637a.12(n), § 637a.1 "Pot" and "Kill option": the Pot is what is awarded, the
    rake taken out. Both players put in 1,200 (2,400); the qualifying pot is 2,300. With
    no rake seat 2 scoops 2,400 and the kill starts; with a 10 % rake (240) the Pot is
    2,160 and it does not."""
    def play(**kw):
        h = hand("omaha-hilo8", {1: 10_000, 2: 10_000}, players=2,
                 kill={"option": "kill", "qualifying_pot_cents": 2_300}, **kw)
        h.deal({2: C("AsAdKsKd"), 1: C("QcQdJcJd")})
        call_down(h)  # 200 each
        for cards in (C("TcJhQh"), C("Td"), C("Kh")):
            h.deal(cards)
            first = h.legal_actions()["seat"]
            h.act(first, "bet")
            h.act(3 - first, "call")  # +200, +400, +400
        return h.result
    plain = play()
    assert plain["winners"] == [2] and plain["kill_next"] is True
    raked = play(rake=pct_rake(1_000, 10_000))
    assert raked["rake"] == 240 and raked["kill_next"] is False
