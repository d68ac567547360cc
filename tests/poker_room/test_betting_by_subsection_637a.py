"""The general betting rules of § 637a.6(f) and § 637a.8 as the engine records a Hold'em
hand: what a statement binds, what goes in the pot and stays there, a larger amount
keyed as a call. Blinds $1/$2, three players with $100 each, button at seat 1 (the
builders in tests/poker_room/_helpers.py); every amount below is worked by hand."""

from __future__ import annotations

import pytest

from poker_room.domain.errors import NotYourTurn
from tests.poker_room._helpers import C, call_down, hand, holdem_dealt


@pytest.mark.regulation("637a.8(c)")
def test_a_statement_on_ones_turn_binds_and_one_out_of_turn_is_refused() -> None:
    """§ 637a.8(c): seat 1 acts first pre-flop. Seat 2's "fold" out of turn is refused,
    nothing recorded; seat 1's "call" binds (200 in, his turn is over: a second statement
    from him is refused); seat 2's "fold" on his turn binds: he takes no further part,
    and his $1 small blind is lost to the pot."""
    h = holdem_dealt()
    before = h.snapshot()
    with pytest.raises(NotYourTurn):
        h.act(2, "fold")
    assert h.snapshot() == before
    assert h.act(1, "call") == [{"type": "PlayerCalled",
                                 "data": {"seat": 1, "amount": 200, "to": 200}}]
    with pytest.raises(NotYourTurn):
        h.act(1, "raise", 400)
    assert h.act(2, "fold") == [{"type": "PlayerFolded", "data": {"seat": 2}}]
    h.act(3, "check")
    h.deal(C("2d3d4h"))
    assert h.to_act == 3  # seat 2, folded, is passed over
    with pytest.raises(NotYourTurn):
        h.act(2, "check")
    assert h.stacks == {1: 9_800, 2: 9_900, 3: 9_800}


@pytest.mark.regulation("637a.8(d)", "637a.8(e)")
def test_the_bet_recorded_is_the_amount_announced_and_placed_in_the_pot() -> None:
    """§ 637a.8(d)-(e): in no-limit seat 1 raises to $6.50: the record is that amount, and
    it leaves his stakes: $100 - $6.50 = $93.50. Seat 3 calls the $4.50 more than his
    $2 blind; the pot is 650 + 100 + 650 = $14.00 with seat 2's folded small blind."""
    h = holdem_dealt(structure="no-limit")
    assert h.act(1, "raise", 650) == [{"type": "PlayerRaised",
                                       "data": {"seat": 1, "amount": 650, "to": 650}}]
    assert h.stacks[1] == 9_350
    h.act(2, "fold")
    called, closed = h.act(3, "call")
    assert called["data"] == {"seat": 3, "amount": 450, "to": 650}
    assert closed == {"type": "BettingRoundClosed", "data": {"round": 0, "pot": 1_400}}


@pytest.mark.regulation("637a.8(h)")
def test_chips_in_the_pot_stay_there_only_an_uncalled_bet_comes_back() -> None:
    """§ 637a.8(h): no one takes back chips placed in the pot. Continuing the hand above
    (pot $14), seat 3 bets $10 on the flop and seat 1 folds: seat 1's $6.50 and seat 2's
    $1 stay in the pot; only seat 3's uncalled $10 comes back to him, and he wins the $14.
    Stakes: seat 1 $93.50, seat 2 $99.00, seat 3 $100 - $6.50 + $14 = $107.50."""
    h = holdem_dealt(structure="no-limit")
    h.act(1, "raise", 650)
    h.act(2, "fold")
    h.act(3, "call")
    h.deal(C("2d3d4h"))
    h.act(3, "bet", 1_000)
    events = h.act(1, "fold")
    assert [(e["type"], e["data"].get("seat"), e["data"].get("amount")) for e in events
            if e["type"] in ("UncalledBetReturned", "PotAwarded")] == [
        ("UncalledBetReturned", 3, 1_000), ("PotAwarded", 3, 1_400)]
    assert h.stacks == {1: 9_350, 2: 9_900, 3: 10_750}


@pytest.mark.regulation("637a.8(i)")
def test_more_than_the_call_without_a_raise_announced_is_a_call() -> None:
    """§ 637a.8(i): seat 1 faces the $2 big blind and puts in more (keyed as a call of
    $10): unless "raise" is announced it is a call, $2, and the change is his:
    $100 - $2 = $98; the action moves on to seat 2."""
    h = holdem_dealt()
    assert h.act(1, "call", 1_000) == [{"type": "PlayerCalled",
                                        "data": {"seat": 1, "amount": 200, "to": 200}}]
    assert h.stacks[1] == 9_800
    assert h.to_act == 2


@pytest.mark.regulation("637a.6(f)")
def test_a_hand_is_ranked_by_the_cards_held_not_what_the_player_thinks_of_it() -> None:
    """§ 637a.6(f): seat 3 holds a pair of aces, seat 2 seven-deuce of hearts. On the
    board K♥ 9♥ 4♣ 5♥ J♠ seat 2's cards make a heart flush, king high, which beats the
    aces: the pot ($6, three $2 calls) is seat 2's, and the aces are mucked unshown.
    The engine takes no statement of a hand's value: only the cards shown are recorded."""
    h = hand("holdem")
    h.deal({2: C("7h2h"), 3: C("AsAd"), 1: C("KcQd")})
    for board in (C("Kh9h4c"), C("5h"), C("Js")):
        call_down(h)
        h.deal(board)
    call_down(h)
    shown = [e["data"] for e in h.events if e["type"] == "HandShown"]
    assert [(d["seat"], d["cards"]) for d in shown] == [(2, C("7h2h"))]
    assert [e["data"]["seat"] for e in h.events if e["type"] == "HandMucked"] == [3, 1]
    assert h.result["winners"] == [2]
    assert h.stacks == {1: 9_800, 2: 10_400, 3: 9_800}
