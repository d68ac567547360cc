"""§ 637a.18(k)(1) deems a stud player's hole cards protected only for purposes of
fouling a hand; a stud hand the dealer collects by accident is protected only if the
player took reasonable means to protect it, and then follows (k)(3). Domain tests on the
Hand alone; every figure worked by hand.

Seven-card Stud, $1 Forced Bet, $2 small bet, three players with $100 each: seat 2 (the 2d
showing) brings in $1, seat 3 completes to $2, seat 1 calls $2: a pot of $5, seat 2 to
act."""

from __future__ import annotations

import pytest

from poker_room.domain.errors import PokerError
from poker_room.domain.hand import Hand
from tests.poker_room._helpers import C, hand


def _third_street() -> Hand:
    h = hand("stud-high", players=3)
    h.deal({1: C("AsKsQh"), 2: C("5d6d2d"), 3: C("8h9hTh")})
    h.act(3, "raise", 200)
    h.act(1, "call")
    assert (h.to_act, h.pot, h.stacks[2]) == (2, 500, 9_900)
    return h


@pytest.mark.regulation("637a.18(k)(1)", "637a.18(k)")
def test_a_collected_unprotected_stud_hand_has_no_redress() -> None:
    """The dealer collects seat 2's hand, which he did not protect: (k)(1) does not reach
    a collected hand, so (k) gives him no redress. His $1 stays in the pot ($5), his
    stack stays $99, he is out of the hand, and fourth street goes to seats 1 and 3."""
    h = _third_street()
    [lost] = [e for e in h.hand_fouled(2, "collected", protected=False)
              if e["type"] == "HandFouled"]
    assert (lost["data"]["outcome"], lost["data"]["refunded"], lost["data"]["rule"]) == (
        "dead", 0, "637a.18(k)")
    assert (h.stacks[2], h.pot, h.phase) == (9_900, 500, "dealing")
    h.deal({1: C("2c"), 3: C("3c")})
    assert h.to_act == 1  # Qh 2c showing beats Th 3c (§ 637a.10(f))
    assert Hand.from_events(h.events).snapshot() == h.snapshot()


@pytest.mark.regulation("637a.18(k)(3)")
def test_a_collected_stud_hand_the_player_protected_is_refunded() -> None:
    """The dealer collects seat 2's hand, which he protected, and he did not contribute to
    the error: (k)(3) refunds the $1 he put in; the pot is $4, his stack $100."""
    h = _third_street()
    [lost] = [e for e in h.hand_fouled(2, "collected", protected=True)
              if e["type"] == "HandFouled"]
    assert (lost["data"]["outcome"], lost["data"]["refunded"], lost["data"]["rule"]) == (
        "refunded", 100, "637a.18(k)(3)")
    assert (h.stacks[2], h.pot) == (10_000, 400)


@pytest.mark.regulation("637a.18(k)(1)")
def test_stud_hole_cards_fouled_are_still_protected() -> None:
    """Fouled by the discards, the hole cards count as protected whatever the dealer
    says: called unprotected, refused (``stud_hole_cards_protected``), nothing recorded."""
    h = _third_street()
    before, events = h.snapshot(), list(h.events)
    with pytest.raises(PokerError) as exc:
        h.hand_fouled(2, "fouled", protected=False)
    assert exc.value.code == "stud_hole_cards_protected"
    assert (h.snapshot(), h.events) == (before, events)
