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


@pytest.mark.regulation("637a.12(a)", "637a.12(k)(1)")
def test_omaha_two_hole_and_three_board_cards():
    """§ 637a.12(f) four hole cards; (k)(1) exactly two plus three: a four-flush in hand
    with one board spade is no flush; § 637a.12(a)-(b)."""
    h = _board_game("omaha-high", {2: C("AsKsQsJs"), 3: C("2c2d7h8h"), 1: C("3c4d9c9d")},
                    C("2s5h6d7c8d"))
    # seat 2's four spades make no flush with one board spade; seat 1's 3c4d with the
    # board's 5-6-7 make a straight
    assert h.result["winners"] == [1]
    assert all(len(h.cards(s)) == 4 for s in (1, 2, 3))


@pytest.mark.regulation("637a.12(k)(2)(i)", "637a.12(l)")
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


@pytest.mark.regulation("637a.12(n)", "637a.19(l)(3)")
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


@pytest.mark.regulation("637a.19(b)")
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


@pytest.mark.regulation("637a.13(a)", "637a.13(b)", "637a.13(f)", "637a.13(g)(1)", "637a.13(h)",
                        "637a.13(i)(1)")
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


@pytest.mark.regulation("637a.20(h)")
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


@pytest.mark.regulation("637a.20(a)", "637a.20(b)", "637a.20(k)(3)")
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


@pytest.mark.regulation("637a.20(k)(1)", "637a.20(k)(2)", "637a.20(k)(4)")
def test_triple_draw_a5_and_tie_split():
    """§ 637a.20(k)(1)-(2), (4): A-5 low, straights ignored; a tie splits the pot."""
    h = hand("triple-draw-a5", players=2)
    h.deal({2: C("As2d3h4s5s"), 1: C("Ac2c3c4c5d")})
    stand_pat_to_showdown(h)
    assert sorted(h.result["winners"]) == [1, 2]


@pytest.mark.regulation("637a.20(l)(1)(i)", "637a.20(l)(2)(i)")
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


@pytest.mark.regulation("637a.21(a)", "637a.21(b)", "637a.21(k)(2)")
def test_badugi_showdown_without_four_card_hands():
    """§ 637a.21(a)-(k): four cards, blinds, three draws; with no four-card Badugi the best
    three-card hand wins (637a.21(k)(2)); nine players at most."""
    h = hand("badugi", players=3)
    h.deal({2: C("As2s3d4h"), 3: C("5c6c7d8h"), 1: C("KsKdKhKc")})
    stand_pat_to_showdown(h, (2, 3, 1))
    assert h.result["winners"] == [2]  # A-3-4 three-card hand beats 5-7-8
    with pytest.raises(PokerError):
        Hand.start(rules("badugi"), {s: 10_000 for s in range(1, 11)}, button=1)


@pytest.mark.regulation("637a.12(l)")
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


@pytest.mark.regulation("637a.12(n)")
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


def _draw_to_showdown(game, holes, *, button=1, **kw):
    """Three players, the button at seat 1, the draw game's cards as given, everyone
    checking or calling and standing pat on every draw (seats 2, 3, 1 in order)."""
    h = Hand.start(rules(game, **kw), {1: 10_000, 2: 10_000, 3: 10_000}, button=button)
    h.deal(holes)
    draws = 1 if game.startswith("draw") else 3  # Five-card Draw draws once
    for _ in range(draws):
        call_down(h)
        for s in (2, 3, 1):
            h.draw(s, [], [])
    call_down(h)
    return h


def _awards(h):
    return {(e["data"]["seat"], e["data"]["share"]): e["data"]["amount"]
            for e in h.events if e["type"] == "PotAwarded"}


@pytest.mark.regulation("637a.12(a)", "637a.12(k)(2)(i)", "637a.12(k)(2)(iii)",
                        "637a.12(k)(2)(iv)")
def test_omaha_hilo8_tied_low_exact_shares():
    """§ 637a.12(k)(2)(i): the pot of 603 (blinds 101 and 201, everyone in for 201, then
    checked down) divides 302 to the high hand (seat 1's king-high heart flush, 9h Th with
    2h 3h Kh) and 301 to the low. § 637a.12(k)(2)(iii)-(iv): seats 2 (Ac 5c) and 3 (Ad 5d)
    tie at 5-4-3-2-A; the odd chip of the low share goes to the lowest card by suit, the
    ace of clubs: 151 to seat 2, 150 to seat 3."""
    h = Hand.start(rules("omaha-hilo8", blinds_cents=[101, 201], small_bet_cents=201,
                         big_bet_cents=402), {1: 10_000, 2: 10_000, 3: 10_000}, button=1)
    h.deal({2: C("Ac5cQdQh"), 3: C("Ad5dJsJh"), 1: C("9s9hTsTh")})
    for cards in (C("2h3h4s"), C("8d"), C("Kh")):
        call_down(h)
        h.deal(cards)
    call_down(h)
    assert _awards(h) == {(1, "high"): 302, (2, "low"): 151, (3, "low"): 150}


@pytest.mark.regulation("637a.19(k)(1)")
def test_five_card_omaha_high_two_of_five_hole_cards():
    """§ 637a.19(k), (k)(1): two of the five hole cards and three of the board. Board
    Qs Js 4h 8h 7c. Seat 2 holds three spades (As Ks 2s) but the board has only two, so
    no flush: ace high. Seat 3's 9d Td with 8h Js Qs make the queen-high straight and
    win; read as any five of ten, seat 2 would have a spade flush."""
    h = _board_game("five-card-omaha-high",
                    {2: C("AsKs2s3d9c"), 3: C("9dTd2c3c5c"), 1: C("KdKh6d6h2h")},
                    C("QsJs4h8h7c"))
    assert h.result["winners"] == [3]


@pytest.mark.regulation("637a.19(a)", "637a.19(k)(2)(i)", "637a.19(l)(2)")
def test_five_card_omaha_hilo8_split_and_scoop():
    """§ 637a.19(k)(2)(i): a pot of 603 (three 1-cent antes, blinds 100 and 200, everyone in
    for 200, then checked down), board 4h 5h 8c Td Kh: seat 2's three kings (Ks Kd with
    Kh Td 8c) take 302 with the odd chip, seat 3's 8-5-4-3-2 (2c 3d with 4h 5h 8c) 301.
    § 637a.19(l)(2): seat 2 with As 2s on a 3s 4s 8s board makes the ace-high flush and
    the 8-4-3-2-A low from the same five cards and scoops both shares."""
    h = _board_game("five-card-omaha-hilo8",
                    {2: C("AsAdKsKdQc"), 3: C("2c3d9h9sTs"), 1: C("QhQdJcJd6s")},
                    C("4h5h8cTdKh"), ante_cents=1)
    assert _awards(h) == {(2, "high"): 302, (3, "low"): 301}
    h = _board_game("five-card-omaha-hilo8",
                    {2: C("As2sKdKcQd"), 3: C("9h9dThTd7c"), 1: C("6h6d5c5dJc")},
                    C("3s4s8sJhQc"))
    assert {seat for seat, _ in _awards(h)} == {2}
    assert {share for _, share in _awards(h)} == {"high", "low"}


@pytest.mark.regulation("637a.13(d)", "637a.13(e)")
def test_five_card_draw_five_each_from_the_buttons_left_then_the_blinds():
    """§ 637a.13(d): five cards each, one round at a time from the button's left (seats 2,
    3, then the button, seat 1, last); § 637a.13(e): only then the Blind Bets, from the
    button's left: 100 by seat 2 and 200 by seat 3."""
    h = hand("draw-high", players=3)
    assert not any(e["type"] == "BlindPosted" for e in h.events)
    h.deal({2: C("AsAdAh2c3c"), 3: C("KsKdKh4c5c"), 1: C("QsQdQh6c7c")})
    dealt = next(e for e in h.events if e["type"] == "CardsDealt")["data"]
    assert [s for s, _ in dealt["cards"]] == [2, 3, 1]
    assert all(len(cs) == 5 for _, cs in dealt["cards"])
    blinds = [(e["data"]["seat"], e["data"]["amount"]) for e in h.events
              if e["type"] == "BlindPosted"]
    assert blinds == [(2, 100), (3, 200)]


@pytest.mark.regulation("637a.13(i)(2)")
def test_five_card_draw_low_lowest_wins():
    """§ 637a.13(i)(2): Five-card Low: seat 2's 6-4-3-2-A beats seat 3's K-5-4-3-2 and
    seat 1's queens full."""
    h = _draw_to_showdown("draw-low", {2: C("As2d3h4c6s"), 3: C("Ks2s3d4h5h"),
                                       1: C("QsQdQh7c7d")})
    assert h.result["winners"] == [2]


@pytest.mark.regulation("637a.20(k)(2)")
def test_triple_draw_tie_odd_chip_to_the_player_the_submission_names():
    """§ 637a.20(k)(2): seats 2 (Ac 2c 3c 4c 5d) and 3 (As 2d 3h 4s 5s) tie at 5-4-3-2-A;
    the pot of 603 (three 1-cent antes, 200 each) divides 301 each and the odd chip goes
    to the player the submission names, the first left of the button: seat 2, 302."""
    h = _draw_to_showdown("triple-draw-a5", {2: C("Ac2c3c4c5d"), 3: C("As2d3h4s5s"),
                                             1: C("KsKdKhKcQs")},
                          ante_cents=1, odd_chip_recipient="first-left-of-button")
    assert {seat: amount for (seat, _), amount in _awards(h).items()} == {2: 302, 3: 301}


@pytest.mark.regulation("637a.20(l)(1)(i)", "637a.20(l)(1)(ii)")
def test_badeucey_odd_chip_goes_to_the_best_2_7_hand():
    """§ 637a.20(l)(1)(i)-(ii): a pot of 603: half to seat 2's 7-5-4-3-2 (the best 2-7
    hand) with the odd chip, 302; half to seat 1's 2-3-4-5 Badugi, 301. Seat 3's nines
    full is worst at both."""
    h = _draw_to_showdown("badeucey", {2: C("7s5d4h3c2c"), 1: C("2s3d4c5hKc"),
                                       3: C("9s9d9h8c8h")}, ante_cents=1)
    assert {seat: amount for (seat, _), amount in _awards(h).items()} == {2: 302, 1: 301}


@pytest.mark.regulation("637a.21(k)(1)", "637a.21(k)(3)", "637a.21(k)(4)")
def test_badugi_four_cards_beat_three_then_two_then_one():
    """§ 637a.21(k)(1): seat 2's 9-8-7-6 Badugi beats seat 3's three-card A-3-4;
    (k)(3): with no three-card hand, seat 3's two-card 2-A beats seat 2's 5-2;
    (k)(4): with no two-card hand, the lowest card wins: seat 1's aces."""
    def winners(holes):
        return _draw_to_showdown("badugi", holes).result["winners"]
    assert winners({2: C("9s8d7h6c"), 3: C("As2s3d4h"), 1: C("KsKdKhKc")}) == [2]
    assert winners({2: C("2s3s4s5d"), 3: C("As2h3h4h"), 1: C("KsKdKhKc")}) == [3]
    assert winners({1: C("AsAdAhAc"), 2: C("KsKdKhKc"), 3: C("QsQdQhQc")}) == [1]


@pytest.mark.regulation("637a.21(k)(5)")
def test_badugi_tie_divides_the_pot_and_the_submission_names_the_odd_chip():
    """§ 637a.21(k)(5): seats 2 (As 2d 3h 4c) and 3 (Ad 2s 3c 4h) tie with A-2-3-4; the pot
    of 603 divides 301 each and the odd chip goes to the first player left of the
    button, as named: seat 2, 302."""
    h = _draw_to_showdown("badugi", {2: C("As2d3h4c"), 3: C("Ad2s3c4h"), 1: C("KsKdKhKc")},
                          ante_cents=1, odd_chip_recipient="first-left-of-button")
    assert {seat: amount for (seat, _), amount in _awards(h).items()} == {2: 302, 3: 301}
