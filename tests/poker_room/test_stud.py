"""Seven-card Stud (§ 637a.10) and Five-card Stud (§ 637a.14)."""

from __future__ import annotations

import random

import pytest

from poker_room.domain.errors import PokerError
from poker_room.domain.hand import Hand
from tests.poker_room._helpers import C, call_down, hand, rules


def _third_street(game="stud-high", **kw):
    h = hand(game, players=3, ante_cents=25, **kw)
    # seat 1 shows 9h, seat 2 the 2d, seat 3 the 2s: the deuce of diamonds brings it in
    h.deal({1: C("AsAd9h"), 2: C("KsKd2d"), 3: C("QsQd2s")})
    return h


@pytest.mark.regulation("637a.10(b)", "637a.10(c)")
def test_ante_then_two_down_one_up_from_dealers_left():
    """§ 637a.10(a) Seven-card Stud; § 637a.10(b) Ante; § 637a.10(c) two down and one
    up, from the dealer's left."""
    h = _third_street()
    antes = next(e for e in h.events if e["type"] == "AntesPosted")["data"]["amounts"]
    assert antes == [[1, 25], [2, 25], [3, 25]]
    dealt = next(e for e in h.events if e["type"] == "CardsDealt")["data"]
    assert dealt["kinds"] == ["down", "down", "up"] and [s for s, _ in dealt["cards"]] == [1, 2, 3]
    assert h.up_cards(2) == C("2d")


@pytest.mark.regulation("637a.10(d)(1)", "637a.10(e)")
def test_forced_bet_lowest_up_card_by_suit():
    """§ 637a.10(d)(1): the lowest up card makes the Forced Bet; equal ranks by suit,
    clubs lowest then diamonds; § 637a.10(e) action then goes to its left."""
    h = _third_street()
    bring = next(e for e in h.events if e["type"] == "BringInPosted")["data"]
    assert bring == {"seat": 2, "amount": 100}
    assert h.to_act == 3


@pytest.mark.regulation("637a.10(d)(2)", "637a.10(d)(3)", "637a.10(d)(4)")
def test_forced_bet_in_low_and_split_games():
    """§ 637a.10(d)(2)-(4): Low — highest up card (king high); High-low — highest with the
    ace below the deuce; Eight or Better — lowest with the ace high."""
    def bring(game, ups):
        h = hand(game, players=3)
        h.deal({1: C("2c3c") + C(ups[0]), 2: C("4c5c") + C(ups[1]), 3: C("6c7c") + C(ups[2])})
        return next(e for e in h.events if e["type"] == "BringInPosted")["data"]["seat"]
    assert bring("stud-low", ["Kd", "Ah", "9s"]) == 1
    assert bring("stud-hilo", ["Ad", "2h", "9s"]) == 3
    assert bring("stud-hilo8", ["Ad", "2h", "9s"]) == 2


@pytest.mark.regulation("637a.10(f)(1)")
def test_fourth_street_burn_and_best_showing_hand_acts_first():
    """§ 637a.10(f)(1): after a burn, a fourth card up; the best hand showing opens;
    § 637a.10(g) then clockwise."""
    h = _third_street()
    call_down(h)
    h.deal({1: C("8c"), 2: C("2h"), 3: C("3c")}, burn=C("4d")[0])
    assert h.to_act == 2  # a pair of deuces showing


@pytest.mark.regulation("637a.10(f)(3)")
def test_showing_tie_goes_to_the_dealers_left():
    """§ 637a.10(f)(3): two players show the same best hand (king-deuce): the one closest
    to the dealer's left opens, whatever the suits. Seat 2 shows 2d-Kc and seat 3 2s-Kd
    (seat 3's suits are higher), seat 1 shows 9h-3c: seat 2 must bet or check."""
    h = _third_street()
    call_down(h)
    h.deal({1: C("3c"), 2: C("Kc"), 3: C("Kh")})
    assert h.to_act == 2


@pytest.mark.regulation("637a.10(g)")
def test_fourth_street_betting_goes_clockwise_and_check_only_before_a_bet():
    """§ 637a.10(g): after the opener, clockwise; a check while nobody has bet; once a bet
    is made the next player folds, calls or raises. Seat 2 (deuces showing) opens."""
    h = _third_street()
    call_down(h)
    h.deal({1: C("8c"), 2: C("2h"), 3: C("3c")}, burn=C("4d")[0])
    assert h.to_act == 2 and "check" in h.legal_actions()["actions"]
    h.act(2, "check")
    assert h.to_act == 3 and "check" in h.legal_actions()["actions"]
    h.act(3, "bet")
    assert h.to_act == 1
    assert sorted(h.legal_actions()["actions"]) == ["call", "fold", "raise"]
    h.act(1, "call")
    assert h.to_act == 2  # seat 2 checked: it answers the bet before the round ends
    h.act(2, "call")
    assert h.phase == "dealing"  # everyone has answered the last bet: the round is over


@pytest.mark.regulation("637a.10(h)")
def test_common_card_when_deck_runs_short():
    """§ 637a.10(h): nine players, the deck in order (card 0 on top), nobody folds: third
    street takes cards 0-26, fourth street burns 27 and deals 28-36, fifth burns 37 and
    deals 38-46. Five cards remain, too few for nine: sixth street burns 47 and deals 48
    as a common card; seventh burns 49 and deals 50 as a common card; each player holds
    five cards of his own."""
    h = Hand.start(rules("stud-high"), {s: 10_000 for s in range(1, 10)}, deck=list(range(52)))
    while not h.is_complete:
        call_down(h)
    streets = [e["data"] for e in h.events if e["type"] == "CardsDealt"]
    assert [d["burn"] for d in streets] == [None, 27, 37]
    assert streets[1]["cards"][0] == [1, [28]] and streets[2]["cards"][8] == [9, [46]]
    common = [(e["data"]["burn"], e["data"]["card"]) for e in h.events
              if e["type"] == "CommonCardDealt"]
    assert common == [(47, 48), (49, 50)]
    assert h.board == [48, 50]
    assert all(len(h.cards(s)) == 5 for s in range(1, 10))


@pytest.mark.regulation("637a.10(h)")
def test_common_card_with_one_card_left_reshuffles_the_burns():
    """§ 637a.10(h): eight players, the deck in order, nobody folds: streets three to six
    use 51 cards (burns 24, 33 and 42); one card (51) remains when seventh street's
    common card is due, so the burn cards are shuffled, one burned and the common card
    dealt from them. (The product adds the one remaining card to the shuffled pile; the
    subsection names the burn cards only and is silent on it.)"""
    h = Hand.start(rules("stud-high"), {s: 10_000 for s in range(1, 9)}, deck=list(range(52)),
                   rng=random.Random(7))
    while not h.is_complete:
        call_down(h)
    kinds = [e["type"] for e in h.events]
    assert kinds.count("BurnCardsReshuffled") == 1
    pile = next(e for e in h.events if e["type"] == "BurnCardsReshuffled")["data"]["cards"]
    assert {24, 33, 42} <= set(pile) <= {24, 33, 42, 51}
    common = [e["data"] for e in h.events if e["type"] == "CommonCardDealt"]
    assert len(common) == 1 and kinds.index("BurnCardsReshuffled") < kinds.index(
        "CommonCardDealt")
    assert {common[0]["burn"], common[0]["card"]} <= set(pile)
    assert common[0]["burn"] != common[0]["card"]
    assert all(len(h.cards(s)) == 6 for s in range(1, 9))


@pytest.mark.regulation("637a.10(i)(1)")
def test_showdown_highest_high_hand_wins():
    """§ 637a.10(i)(1): best five of seven, highest high hand."""
    h = _third_street()
    for cards in ({1: C("9c"), 2: C("3h"), 3: C("4h")}, {1: C("9d"), 2: C("5h"), 3: C("4c")},
                  {1: C("Tc"), 2: C("6h"), 3: C("4d")}, {1: C("Jc"), 2: C("7h"), 3: C("Ts")}):
        call_down(h)
        h.deal(cards)
    call_down(h)
    assert h.result["winners"] == [1]  # aces full of nines


@pytest.mark.regulation("637a.10(i)(2)")
def test_stud_low_lowest_wins():
    """§ 637a.10(i)(2): the best A-5 low hand wins."""
    h = hand("stud-low", players=2)
    h.deal({1: C("As2d") + C("3h"), 2: C("KsKd") + C("Kh")})
    for cards in ({1: C("4c"), 2: C("Qh")}, {1: C("5d"), 2: C("Qs")},
                  {1: C("Kc"), 2: C("Jc")}, {1: C("Qc"), 2: C("Jd")}):
        call_down(h)
        h.deal(cards)
    call_down(h)
    assert h.result["winners"] == [1]


def _hilo(game, holes, streets, **kw):
    h = hand(game, players=len(holes), **kw)
    h.deal(holes)
    for cards in streets:
        call_down(h)
        h.deal(cards)
    call_down(h)
    return h


@pytest.mark.regulation("637a.10(i)(3)(i)")
def test_hilo8_split_and_high_gets_the_odd_chip():
    """§ 637a.10(i)(3)(i): high and low divide the pot equally; the excess goes to the high
    hand. Three 1-cent antes and three 100-cent calls of the bring-in make 303, every
    later street checked: seat 1's aces full takes 152, seat 2's 7-5-4-3-2 low 151."""
    h = _hilo("stud-hilo8", {1: C("AsAd") + C("Ac"), 2: C("2c3d") + C("4h"),
                             3: C("KsKd") + C("Kh")},
              [{1: C("9c"), 2: C("5s"), 3: C("Qd")}, {1: C("9d"), 2: C("7s"), 3: C("Jd")},
               {1: C("Tc"), 2: C("8h"), 3: C("Td")}, {1: C("Jh"), 2: C("Qc"), 3: C("9h")}],
              ante_cents=1)
    shares = {(e["data"]["seat"], e["data"]["share"]): e["data"]["amount"]
              for e in h.events if e["type"] == "PotAwarded"}
    assert shares == {(1, "high"): 152, (2, "low"): 151}


@pytest.mark.regulation("637a.10(j)")
def test_hilo8_no_qualifying_low_high_scoops():
    """§ 637a.10(j): no low of eight or better: the high hand takes the whole pot."""
    h = _hilo("stud-hilo8", {1: C("AsAd") + C("Ac"), 2: C("KsKd") + C("Kh")},
              [{1: C("9c"), 2: C("Qs")}, {1: C("9d"), 2: C("Qd")},
               {1: C("Tc"), 2: C("Jd")}, {1: C("Jh"), 2: C("9h")}])
    assert {e["data"]["share"] for e in h.events if e["type"] == "PotAwarded"} == {"whole"}
    assert h.result["winners"] == [1]


@pytest.mark.regulation("637a.10(k)", "637a.10(l)")
def test_same_five_cards_and_ace_count_both_ways():
    """§ 637a.10(k)(1): A-2-3-4-5 ... the same five may make the high and the low;
    § 637a.10(l): the ace plays high and low at once — one player scoops."""
    h = _hilo("stud-hilo8", {1: C("As2d") + C("3h"), 2: C("KsKd") + C("Qh")},
              [{1: C("4c"), 2: C("Qs")}, {1: C("5d"), 2: C("Jd")},
               {1: C("Kc"), 2: C("Jc")}, {1: C("Qc"), 2: C("9h")}])
    assert h.result["winners"] == [1]
    shares = {e["data"]["share"] for e in h.events if e["type"] == "PotAwarded"}
    assert shares == {"high", "low"}


@pytest.mark.regulation("637a.10(i)(3)(ii)", "637a.10(i)(3)(iv)")
def test_tied_high_halves_odd_chip_by_suit():
    """§ 637a.10(i)(3)(ii), (iv): a tied high share's odd chip goes to the highest card by
    suit (spades, hearts, diamonds, clubs)."""
    h = Hand.start(rules("stud-hilo", ante_cents=1, forced_bet_cents=101, small_bet_cents=200,
                         big_bet_cents=400), {1: 10_000, 2: 10_000, 3: 10_001}, button=None)
    h.deal({1: C("AsKs") + C("Qs"), 2: C("AhKh") + C("Qh"), 3: C("2c3c") + C("4c")})
    for cards in ({1: C("Js"), 2: C("Jh"), 3: C("5c")}, {1: C("9s"), 2: C("9h"), 3: C("7d")},
                  {1: C("2s"), 2: C("2h"), 3: C("8d")}, {1: C("3s"), 2: C("3h"), 3: C("6d")}):
        call_down(h)
        h.deal(cards)
    call_down(h)
    # three 1-cent antes and three calls of the 101-cent Forced Bet, checked down: 306.
    # Seats 1 and 2 tie for the high with A-K-Q-J-9 flushes (spades, hearts) and divide
    # its 153: the ace of spades takes the odd chip, 77 to 76; seat 3's 6-5-4-3-2 low
    # takes the other 153
    shares = {(e["data"]["seat"], e["data"]["share"]): e["data"]["amount"]
              for e in h.events if e["type"] == "PotAwarded"}
    assert shares == {(1, "high"): 77, (2, "high"): 76, (3, "low"): 153}


@pytest.mark.regulation("637a.10(m)")
def test_super_stud_discard_two_before_first_round():
    """§ 637a.10(m): four down and one up, each discards two, then the Forced Bet."""
    h = hand("super-stud-hilo8", players=2)
    h.deal({1: C("AsAdAh2c") + C("9h"), 2: C("KsKdKh3c") + C("2d")})
    assert h.phase == "discarding"
    with pytest.raises(PokerError):
        h.discard(1, C("As"))
    h.discard(1, C("AsAd"))
    h.discard(2, C("KsKd"))
    assert h.cards(1) == C("Ah2c9h")
    assert any(e["type"] == "BringInPosted" for e in h.events)


@pytest.mark.regulation("637a.10(b)", "637a.14(b)")
def test_stud_no_more_than_nine_and_five_stud_eight():
    """§ 637a.10(b) nine players; § 637a.14(b) eight."""
    with pytest.raises(PokerError):
        Hand.start(rules("stud-high"), {s: 10_000 for s in range(1, 11)})
    with pytest.raises(PokerError):
        Hand.start(rules("five-card-stud"), {s: 10_000 for s in range(1, 10)})
    assert Hand.start(rules("stud-high"), {s: 10_000 for s in range(1, 10)}).phase == "dealing"
    assert Hand.start(rules("five-card-stud"), {s: 10_000 for s in range(1, 9)}).phase == (
        "dealing")


@pytest.mark.regulation("637a.14(a)", "637a.14(c)", "637a.14(d)", "637a.14(e)", "637a.14(f)(1)",
                        "637a.14(h)", "637a.14(i)")
def test_five_card_stud_deal_forced_bet_and_streets():
    """§ 637a.14(a): high only; § 637a.14(c) one down, one up; § 637a.14(d) lowest up card
    brings it in; § 637a.14(e) action to its left; § 637a.14(f) after a burn the best
    showing opens; § 637a.14(g) then clockwise; § 637a.14(h) two more up cards, each
    after a burn; § 637a.14(i) high hand wins."""
    h = hand("five-card-stud", players=2)
    h.deal({1: C("As") + C("Kd"), 2: C("2s") + C("3c")})
    assert next(e for e in h.events if e["type"] == "BringInPosted")["data"]["seat"] == 2
    call_down(h)
    h.deal({1: C("Kh"), 2: C("4c")}, burn=C("5h")[0])
    assert h.to_act == 1  # pair of kings showing
    for cards in ({1: C("2d"), 2: C("5c")}, {1: C("3d"), 2: C("7c")}):
        call_down(h)
        h.deal(cards)
    call_down(h)
    assert h.result["winners"] == [1]


@pytest.mark.regulation("637a.10(a)")
@pytest.mark.parametrize("game,forced_bet_seat,winners", [
    ("stud-high", 2, [1]), ("stud-low", 1, [2]), ("stud-hilo", 1, [1, 2]),
    ("stud-hilo8", 2, [1, 2])])
def test_each_seven_card_stud_game_follows_the_section(game, forced_bet_seat, winners):
    """§ 637a.10(a): Seven-card Stud High, Low, High-low Split and High-low Split Eight or
    Better are each dealt by § 637a.10. Up cards Kd, 3h, 9s: the Forced Bet is the lowest
    (3h) in High, the highest with the ace low (Kd) in Low and High-low, the lowest with
    the ace high (3h) in Eight or Better (§ 637a.10(d)). Seven cards each; seat 1 makes
    kings full, seat 2 the 5-4-3-2-A low: High to seat 1, Low to seat 2, the split games
    divide between them."""
    h = hand(game, players=3)
    h.deal({1: C("KsKc") + C("Kd"), 2: C("As2d") + C("3h"), 3: C("QsJd") + C("9s")})
    assert next(e for e in h.events if e["type"] == "BringInPosted")["data"]["seat"] == (
        forced_bet_seat)
    for cards in ({1: C("Qh"), 2: C("4c"), 3: C("8d")}, {1: C("Qd"), 2: C("5d"), 3: C("7c")},
                  {1: C("2c"), 2: C("6h"), 3: C("Th")}, {1: C("3c"), 2: C("Jh"), 3: C("Tc")}):
        call_down(h)
        h.deal(cards)
    call_down(h)
    assert all(len(h.cards(s)) == 7 for s in (1, 2, 3))
    assert sorted(h.result["winners"]) == winners


@pytest.mark.regulation("637a.14(f)(2)", "637a.14(g)")
def test_five_card_stud_showing_tie_and_clockwise_betting():
    """§ 637a.14(f)(2): seats 2 (2d-Kc) and 3 (2s-Kh) show the same best hand, king-deuce;
    seat 2, closest to the dealer's left, opens although seat 3's suits are higher.
    § 637a.14(g): then clockwise; a check while nobody has bet, and once seat 3 bets,
    seat 1 may fold, call or raise but not check."""
    h = hand("five-card-stud", players=3)
    h.deal({1: C("As") + C("9h"), 2: C("Ks") + C("2d"), 3: C("Qs") + C("2s")})
    call_down(h)
    h.deal({1: C("3c"), 2: C("Kc"), 3: C("Kh")})
    assert h.to_act == 2
    h.act(2, "check")
    assert h.to_act == 3 and "check" in h.legal_actions()["actions"]
    h.act(3, "bet")
    assert h.to_act == 1
    assert sorted(h.legal_actions()["actions"]) == ["call", "fold", "raise"]


@pytest.mark.regulation("637a.10(k)(1)", "637a.10(k)(2)")
def test_one_five_card_grouping_makes_both_the_high_and_the_low():
    """§ 637a.10(k)(1): seat 1's 2-3-4-5-6 (with a pair of kings) is a straight for the
    high and a 6-5-4-3-2 low; § 637a.10(k)(2): seat 1's five hearts, none above the 8, are
    a flush for the high and an 8-7-5-3-2 low. Seat 2's two pair has no low: seat 1 takes
    both shares each time."""
    straight = _hilo("stud-hilo8", {1: C("2h3d") + C("4c"), 2: C("KsKh") + C("Qs")},
                     [{1: C("5s"), 2: C("Qd")}, {1: C("6d"), 2: C("Js")},
                      {1: C("Kc"), 2: C("Jd")}, {1: C("Kd"), 2: C("9c")}])
    flush = _hilo("stud-hilo8", {1: C("2h3h") + C("5h"), 2: C("KsKh") + C("Qs")},
                  [{1: C("7h"), 2: C("Qd")}, {1: C("8h"), 2: C("Js")},
                   {1: C("Kc"), 2: C("Jd")}, {1: C("Kd"), 2: C("9c")}])
    for h in (straight, flush):
        awards = {(e["data"]["seat"], e["data"]["share"]) for e in h.events
                  if e["type"] == "PotAwarded"}
        assert awards == {(1, "high"), (1, "low")}


@pytest.mark.regulation("637a.10(i)(3)(iii)", "637a.10(i)(3)(iv)")
def test_tied_low_halves_odd_chip_to_the_lowest_card_by_suit():
    """§ 637a.10(i)(3)(iii)-(iv): three 1-cent antes and three 100-cent calls make 303;
    seat 1's aces full takes the high half with the odd chip, 152; seats 2 (2c 3c 4h 5s 7s)
    and 3 (2d 3d 4s 5h 7h) tie for the low at 7-5-4-3-2 and divide 151: the odd chip goes
    to the lowest card by suit, the deuce of clubs: seat 2 76, seat 3 75."""
    h = _hilo("stud-hilo8", {1: C("AsAd") + C("Ac"), 2: C("2c3c") + C("4h"),
                             3: C("2d3d") + C("4s")},
              [{1: C("9c"), 2: C("5s"), 3: C("5h")}, {1: C("9d"), 2: C("7s"), 3: C("7h")},
               {1: C("Tc"), 2: C("Kh"), 3: C("Ks")}, {1: C("Jh"), 2: C("Qd"), 3: C("Qc")}],
              ante_cents=1)
    shares = {(e["data"]["seat"], e["data"]["share"]): e["data"]["amount"]
              for e in h.events if e["type"] == "PotAwarded"}
    assert shares == {(1, "high"): 152, (2, "low"): 76, (3, "low"): 75}
