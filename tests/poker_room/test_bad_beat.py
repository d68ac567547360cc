"""Bad Beat qualification judged at the showdown (§ 637a.15(b)(3)-(4), § 637a.15(f)(1)),
from the hand's events alone."""

from __future__ import annotations

import pytest

from poker_room.domain.bad_beat import judge
from poker_room.domain.hand import Hand
from tests.poker_room._helpers import C, call_down, rules

BAD_BEAT = {"fund": "bad-beat", "contribution": {"method": "fixed", "amount_cents": 100},
            "maximum_per_pot_cents": 100, "minimum_pot_cents": 0,
            "qualifying_hand": {"losing_hand_at_least": "four-of-a-kind",
                                "rank_at_least": "8", "both_hole_cards_must_play": True,
                                "minimum_players_dealt": 2},
            "payout_shares_bp": {"losing_hand": 10_000}}


def _showdown(hole: dict[int, str], board: list[str], **q) -> dict | None:
    options = {**BAD_BEAT, "qualifying_hand": {**BAD_BEAT["qualifying_hand"], **q}}
    h = Hand.start(rules("holdem", bad_beat=options), {s: 10_000 for s in hole}, button=1)
    h.deal({s: C(c) for s, c in hole.items()})
    for cards in (board[:3], board[3:4], board[4:]):
        call_down(h)
        h.deal(C("".join(cards)))
    call_down(h)
    assert h.is_complete
    return judge("holdem", options, h.events)


@pytest.mark.regulation("637a.15(b)(3)", "637a.15(f)")
def test_four_eights_beaten_by_a_straight_flush_qualifies():
    """Four eights with both hole cards (8s 8h on 8c 8d) lose to a queen-high straight
    flush: the posted qualifying hand lost (§ 637a.15(f)(1))."""
    got = _showdown({1: "8s8h", 2: "9dTd"}, ["8c", "8d", "Jd", "Qd", "2c"])
    assert got is not None
    assert (got["losing_seat"], got["winning_seat"]) == (1, 2)
    assert got["losing_hand"].startswith("Four")


@pytest.mark.regulation("637a.15(b)(3)")
def test_below_the_posted_hand_or_rank_or_players_does_not_qualify():
    """Four sevens are below "eights or better"; three players required with two dealt;
    the hole cards must both play: 8s 2h on 8c 8h 8d Td Jd makes four eights with one
    hole card (the jack kicks), beaten by 9d Qd's queen-high straight flush — it would
    qualify only where the submission does not require both hole cards."""
    assert _showdown({1: "7s7h", 2: "9dTd"}, ["7c", "7d", "Jd", "Qd", "2c"]) is None
    assert _showdown({1: "8s8h", 2: "9dTd"}, ["8c", "8d", "Jd", "Qd", "2c"],
                     minimum_players_dealt=3) is None
    one_card = ({1: "8s2h", 2: "9dQd"}, ["8c", "8h", "8d", "Td", "Jd"])
    assert _showdown(*one_card) is None
    assert _showdown(*one_card, both_hole_cards_must_play=False)["losing_seat"] == 1
