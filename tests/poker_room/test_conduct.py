"""The players' conduct the dealer records in a hand (§ 637a.18(d), (k)): cards not kept
in view, and a hand fouled, collected or left at the table. Domain tests on the Hand
alone; every figure worked by hand.

The table: no-limit Hold'em, blinds $1/$2 (100/200 cents), four players with $100 each,
button at seat 4: seat 1 posts the small blind, seat 2 the big blind, seat 3 acts first.
Seat 2 holds aces, seat 4 queens, seat 3 kings, seat 1 seven-deuce; the board gives
nobody better than his pair."""

from __future__ import annotations

from typing import Any

import pytest

from poker_room.domain.errors import HandComplete, PHHCannotExpress, PokerError
from poker_room.domain.hand import Hand
from poker_room.domain.ledger import balances
from poker_room.domain.phh import replay, to_phh
from tests.poker_room._helpers import C, call_down, hand, pct_rake, types

BOARD = (C("9h5c3d"), C("Jc"), C("8s"))


def _raised(**rules: Any) -> Hand:
    """Seat 3 raises to $6, seat 4 calls $6, seat 1 folds; seat 2 (the big blind) to act.
    In the pot: 100 + 200 + 600 + 600 = $15."""
    h = hand("holdem", players=4, button=4, structure="no-limit", **rules)
    h.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("KsKd"), 4: C("QsQd")})
    h.act(3, "raise", 600)
    h.act(4, "call")
    h.act(1, "fold")
    assert (h.to_act, h.pot) == (2, 1_500)
    return h


def _play_out(h: Hand) -> None:
    """Check or call to the end, the board dealt street by street."""
    for cards in BOARD:
        call_down(h)
        h.deal(cards)
    call_down(h)
    assert h.is_complete


def _refused(h: Hand, code: str, **command: Any) -> None:
    """The command is refused with ``code`` and nothing is recorded."""
    before, events = h.snapshot(), list(h.events)
    with pytest.raises(PokerError) as exc:
        h.execute(command)
    assert exc.value.code == code
    assert (h.snapshot(), h.events) == (before, events)


@pytest.mark.regulation("637a.18(k)(3)")
def test_protected_hand_collected_and_not_reconstructable_is_refunded_from_the_pot():
    """§ 637a.18(k)(3): the dealer collects seat 3's protected hand by accident and it
    cannot be reconstructed; seat 3 did not contribute to the error: all $6 he put in
    comes back and he is out of the hand. The pot then holds what the others put in,
    100 + 200 + 600 = $9; seat 2 calls $4 (to seat 4's $6): $13. Checked down, seat 2's
    aces take $13: seat 1 $100 - $1 = $99, seat 2 $100 - $6 + $13 = $107, seat 3 $100,
    seat 4 $100 - $6 = $94 (together $400, as dealt in)."""
    h = _raised()
    [fouled] = h.hand_fouled(3, "collected", protected=True)
    assert fouled["data"] == {"seat": 3, "how": "collected", "protected": True,
                              "reconstructed": False, "contributor": False,
                              "outcome": "refunded", "refunded": 600,
                              "rule": "637a.18(k)(3)"}
    assert (h.stacks[3], h.pot, h.to_act) == (10_000, 900, 2)
    assert h.legal_actions()["call"] == 400
    h.act(2, "call")
    assert h.pot == 1_300
    _play_out(h)
    assert h.stacks == {1: 9_900, 2: 10_700, 3: 10_000, 4: 9_400}
    # the hand's chip ledger: seat 3's $6 in and back out, the pot emptied
    assert balances(h.events) == {"seat:1": -100, "seat:2": 700, "seat:3": 0,
                                  "seat:4": -600, "pot": 0}
    again = Hand.from_events(h.events)
    assert again.snapshot() == h.snapshot()


@pytest.mark.regulation("637a.18(k)(3)")
def test_the_refund_comes_out_before_the_rake_is_taken():
    """§ 637a.18(k)(3) with a 10 % rake taken at the end of the round (§ 637a.17(b)(1)):
    the rake is on the $13 left after the $6 refund, $1.30 (not $1.90 on $19); seat 2
    takes $11.70: $100 - $6 + $11.70 = $105.70."""
    h = _raised(rake=pct_rake(1_000, 500))
    h.hand_fouled(3, "fouled", protected=True)
    h.act(2, "call")
    _play_out(h)
    assert (h.result["rake"], h.result["pot"]) == (130, 1_300)
    assert h.stacks == {1: 9_900, 2: 10_570, 3: 10_000, 4: 9_400}


@pytest.mark.regulation("637a.18(k)")
def test_unprotected_hand_collected_is_dead_and_its_money_stays_in_the_pot():
    """§ 637a.18(k): seat 3 did not protect his hand and the dealer collected it: no
    redress. The hand is dead, his $6 stays: seat 2 calls $4, a pot of $19 to seat 2's
    aces: seat 2 $100 - $6 + $19 = $113, seat 3 $94, seat 4 $94, seat 1 $99."""
    h = _raised()
    [fouled] = h.hand_fouled(3, "collected", protected=False)
    assert (fouled["data"]["outcome"], fouled["data"]["refunded"],
            fouled["data"]["rule"]) == ("dead", 0, "637a.18(k)")
    assert h.pot == 1_500
    h.act(2, "call")
    _play_out(h)
    assert h.stacks == {1: 9_900, 2: 11_300, 3: 9_400, 4: 9_400}
    assert 3 not in [e["data"]["seat"] for e in h.events if e["type"] == "HandShown"]


@pytest.mark.regulation("637a.18(k)(3)")
def test_a_contributor_to_the_error_gets_no_refund():
    """§ 637a.18(k)(3): only a player who did not contribute to the error is refunded:
    seat 3 pushed his protected cards into the discards himself. His hand is dead and his
    $6 stays in the pot (the same $19 to seat 2 as above)."""
    h = _raised()
    [fouled] = h.hand_fouled(3, "fouled", protected=True, contributor=True)
    assert (fouled["data"]["outcome"], fouled["data"]["refunded"],
            fouled["data"]["rule"]) == ("dead", 0, "637a.18(k)(3)")
    h.act(2, "call")
    _play_out(h)
    assert h.stacks == {1: 9_900, 2: 11_300, 3: 9_400, 4: 9_400}


@pytest.mark.regulation("637a.18(k)(2)")
def test_a_protected_hand_reconstructed_plays_on():
    """§ 637a.18(k)(2): seat 3's protected hand touched the discards and was put back
    together: the round goes on with it; seat 3's kings still contend."""
    h = _raised()
    [fouled] = h.hand_fouled(3, "fouled", protected=True, reconstructed=True)
    assert (fouled["data"]["outcome"], fouled["data"]["rule"]) == (
        "reconstructed", "637a.18(k)(2)")
    assert (h.pot, h.to_act, h.cards(3)) == (1_500, 2, C("KsKd"))
    h.act(2, "call")
    _play_out(h)
    [showdown] = [e["data"] for e in h.events if e["type"] == "ShowdownStarted"]
    assert sorted(showdown["order"]) == [2, 3, 4]
    # seat 2's aces take 100 + 600 + 600 + 600 = $19: $100 - $6 + $19 = $113
    assert h.stacks == {1: 9_900, 2: 11_300, 3: 9_400, 4: 9_400}


@pytest.mark.regulation("637a.18(k)(4)")
def test_a_player_who_leaves_without_comment_is_folded():
    """§ 637a.18(k)(4): seat 1 (the small blind, $1 in) walks away from the table with an
    unprotected hand while seat 3 is to act: his cards are collected and discarded, the
    $1 stays in the pot, and seat 3 still acts first."""
    h = hand("holdem", players=4, button=4, structure="no-limit")
    h.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("KsKd"), 4: C("QsQd")})
    [fouled] = h.hand_fouled(1, "left_table", protected=False)
    assert (fouled["data"]["outcome"], fouled["data"]["rule"]) == ("dead", "637a.18(k)(4)")
    assert (h.to_act, h.pot, h.stacks[1]) == (3, 300, 9_900)
    assert set(C("2c7d")) <= set(h.snapshot()["muck"])
    _refused(h, "seat_folded", type="hand_fouled", seat=1, how="collected",
             protected=True)


@pytest.mark.regulation("637a.18(k)(3)")
def test_the_last_opponent_losing_his_hand_ends_it():
    """§ 637a.18(k)(3): seats 3 and 4 call the $2 big blind, seat 1 folds his $1 small
    blind, seat 2 checks: $7. On the flop seat 2 checks, seat 3 bets $2, seat 4 folds,
    seat 2 calls: $11. Waiting for the turn, seat 3's protected hand is collected and he
    is refunded his $4. Seat 2 is the one player left and takes the $7 left without a
    card more: $100 - $4 + $7 = $103."""
    h = hand("holdem", players=4, button=4, structure="no-limit")
    h.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("KsKd"), 4: C("QsQd")})
    h.act(3, "call")
    h.act(4, "call")
    h.act(1, "fold")
    h.act(2, "check")
    h.deal(BOARD[0])
    h.act(2, "check")
    h.act(3, "bet", 200)
    h.act(4, "fold")
    h.act(2, "call")
    assert (h.phase, h.pot) == ("dealing", 1_100)
    h.hand_fouled(3, "collected", protected=True)
    assert h.is_complete
    assert h.stacks == {1: 9_900, 2: 10_300, 3: 10_000, 4: 9_800}


@pytest.mark.regulation("637a.18(d)")
def test_cards_not_in_view_are_recorded_for_a_player_in_the_hand():
    """§ 637a.18(d): the dealer records that seat 3 did not keep his cards in full view;
    the chapter names no consequence, so nothing else changes (§ 637a.18(s): the Rules
    Submission may add one). Refused for a seat not dealt in, a folded seat and a hand
    that is over, nothing recorded."""
    h = _raised()
    before = h.snapshot()
    [e] = h.cards_not_in_view(3)
    assert e == {"type": "CardsNotInView", "data": {"seat": 3, "rule": "637a.18(d)"}}
    assert h.snapshot() == before
    assert types(Hand.from_events(h.events).events)[-1] == "CardsNotInView"
    _refused(h, "not_in_hand", type="cards_not_in_view", seat=7)
    _refused(h, "seat_folded", type="cards_not_in_view", seat=1)
    h.void()
    before, events = h.snapshot(), list(h.events)
    with pytest.raises(HandComplete):
        h.cards_not_in_view(3)
    assert (h.snapshot(), h.events) == (before, events)


@pytest.mark.regulation("637a.18(d)")
def test_cards_not_in_view_before_the_deal_is_refused():
    """§ 637a.18(d): a player has cards to keep in view once they are dealt."""
    h = hand("holdem", players=3)
    _refused(h, "no_cards_dealt", type="cards_not_in_view", seat=2)


@pytest.mark.regulation("637a.18(k)", "637a.18(k)(1)")
def test_fouled_hand_refusals_record_nothing():
    """§ 637a.18(k): a seat not in the hand, a folded seat, a stud hand called unprotected
    (§ 637a.18(k)(1): hole cards are protected), an unprotected hand called reconstructed
    (no redress), a protected hand of a player who left ((k)(4) folds an unprotected one),
    an unknown way of losing it: each its own code, nothing recorded; and once the hand
    is over, nothing more."""
    h = _raised()
    _refused(h, "not_in_hand", type="hand_fouled", seat=8, how="fouled", protected=True)
    _refused(h, "seat_folded", type="hand_fouled", seat=1, how="fouled", protected=True)
    _refused(h, "no_redress", type="hand_fouled", seat=3, how="fouled", protected=False,
             reconstructed=True)
    _refused(h, "hand_protected", type="hand_fouled", seat=3, how="left_table",
             protected=True)
    _refused(h, "invalid_action", type="hand_fouled", seat=3, how="lost", protected=True)
    _refused(h, "invalid_action", type="hand_fouled", seat=3, how="fouled", protected="yes")
    stud = hand("stud-high", players=3)
    stud.deal({1: C("2c3c4c"), 2: C("5d6d7d"), 3: C("8h9hTh")})
    _refused(stud, "stud_hole_cards_protected", type="hand_fouled", seat=2, how="fouled",
             protected=False)
    h.act(2, "fold")
    h.hand_fouled(3, "collected", protected=True)  # seat 4 alone: the hand is over
    assert h.is_complete
    assert h.stacks == {1: 9_900, 2: 9_800, 3: 10_000, 4: 10_300}  # $1 + $2 + $6 - $6
    before, events = h.snapshot(), list(h.events)
    with pytest.raises(HandComplete):
        h.hand_fouled(4, "collected", protected=True)
    assert (h.snapshot(), h.events) == (before, events)


@pytest.mark.regulation("637a.18(k)(1)", "637a.18(k)(3)")
def test_stud_hole_cards_fouled_are_protected_and_refunded():
    """§ 637a.18(k)(1), (3): Seven-card Stud, $1 Forced Bet, $2 small bet. Seat 2 (the 2d
    showing) brings in $1, seat 3 completes to $2, seat 1 calls $2; seat 2's cards are
    fouled by the discards before he acts. His hole cards count as protected: his $1
    comes back, he is out, and fourth street is dealt to seats 1 and 3 only, over a pot
    of $4."""
    h = hand("stud-high", players=3)
    h.deal({1: C("AsKsQh"), 2: C("5d6d2d"), 3: C("8h9hTh")})
    h.act(3, "raise", 200)
    h.act(1, "call")
    assert h.to_act == 2
    [fouled] = [e for e in h.hand_fouled(2, "fouled", protected=True)
                if e["type"] == "HandFouled"]
    assert (fouled["data"]["outcome"], fouled["data"]["refunded"]) == ("refunded", 100)
    assert (h.stacks[2], h.pot, h.phase) == (10_000, 400, "dealing")
    h.deal({1: C("2c"), 3: C("3c")})
    assert h.to_act == 1  # Qh 2c showing beats Th 3c (§ 637a.10(f))


@pytest.mark.regulation("637a.18(k)(3)", "637a.17(b)(1)(i)")
def test_a_refund_cuts_the_rake_taken_as_play_progressed_to_what_the_smaller_pot_bears():
    """§ 637a.18(k)(3) with a 10 % rake capped at $5 taken as play progresses
    (§ 637a.17(b)(1)(i)): seats 2, 3 and 4 put $20 each in before the flop, seat 1 folds
    his $1 small blind: $61, 10 % is $6.10, capped: $5 taken. On the flop seat 3's
    protected hand is collected and he is refunded his $20: $41 is left, whose rake is
    10 % = $4.10 (§ 637a.17(b)(1): never more than the percentage of the pot), so $0.90
    of the $5 goes back into the pot. Checked down, seat 2's aces take $41 - $4.10 =
    $36.90: $100 - $20 + $36.90 = $116.90; seat 4 $80, seat 3 $100, seat 1 $99."""
    h = hand("holdem", players=4, button=4, structure="no-limit",
             rake=pct_rake(1_000, 500, collection="as-play-progresses"))
    h.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("KsKd"), 4: C("QsQd")})
    h.act(3, "raise", 2_000)
    h.act(4, "call")
    h.act(1, "fold")
    h.act(2, "call")
    assert (h.pot, h.rake_taken) == (6_100 - 500, 500)
    h.deal(BOARD[0])
    [fouled] = h.hand_fouled(3, "collected", protected=True)
    assert (fouled["data"]["refunded"], fouled["data"]["rake_returned"],
            fouled["data"]["rake_kind"]) == (2_000, 90, "percentage")
    assert (h.rake_taken, h.pot) == (410, 4_100 - 410)
    assert Hand.from_events(h.events).snapshot() == h.snapshot()
    call_down(h)
    for cards in BOARD[1:]:
        h.deal(cards)
        call_down(h)
    assert h.is_complete
    assert h.result["rake"] == 410
    assert h.stacks == {1: 9_900, 2: 11_690, 3: 10_000, 4: 8_000}
    # the chip ledger: the $0.90 from the rake back to the pot, the pot emptied
    assert balances(h.events) == {"seat:1": -100, "seat:2": 1_690, "seat:3": 0,
                                  "seat:4": -2_000, "rake": 410, "pot": 0}


def test_a_dead_hand_in_its_players_turn_is_a_fold_in_the_phh_history():
    """§ 637a.18(k): seat 2 (the big blind, to act) did not protect his hand and the
    dealer collected it: dead, his $2 stays. PHH writes it as seat 2's fold (p2, the
    players numbered from the button's left), and the file replays to the finishing
    stacks: seat 3's kings beat seat 4's queens for 100 + 200 + 600 + 600 = $15, seat 3
    $100 - $6 + $15 = $109, seat 4 $94, seat 2 $98, seat 1 $99."""
    h = _raised()
    h.hand_fouled(2, "collected", protected=False)
    _play_out(h)
    assert h.stacks == {1: 9_900, 2: 9_800, 3: 10_900, 4: 9_400}
    text = to_phh(h)
    assert "'p2 f # 637a.18(k) dead hand'" in text
    assert "finishing_stacks = [9900, 9800, 10900, 9400]" in text
    again = replay(text)
    assert again.is_complete
    assert again.stacks == {1: 9_900, 2: 9_800, 3: 10_900, 4: 9_400}


def test_phh_cannot_express_a_refund_or_a_dead_hand_out_of_turn():
    """§ 637a.18(k)(3): a refund out of the pot has no PHH word (the refunded player's
    bets would stay in the file's pot and the file would not replay to the stacks): the
    export is refused with its own code. § 637a.18(k)(4): nor a player folded out of
    turn (seat 1 left while seat 3 was to act): PHH writes folds in turn only."""
    refunded = _raised()
    refunded.hand_fouled(3, "collected", protected=True)
    _play_out(refunded)
    with pytest.raises(PHHCannotExpress) as exc:
        to_phh(refunded)
    assert exc.value.code == "phh_cannot_express"
    assert "637a.18(k)(3)" in exc.value.message
    left = hand("holdem", players=4, button=4, structure="no-limit")
    left.deal({1: C("2c7d"), 2: C("AsAd"), 3: C("KsKd"), 4: C("QsQd")})
    left.hand_fouled(1, "left_table", protected=False)
    with pytest.raises(PHHCannotExpress) as exc:
        to_phh(left)
    assert "637a.18(k)(4)" in exc.value.message
