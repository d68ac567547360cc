"""The shared dealing and betting order of the button games with blinds and a straddle:
Omaha (§ 637a.12), Five-card Omaha (§ 637a.19), Triple Draw (§ 637a.20) and Badugi
(§ 637a.21), and Five-card Draw's blinds after the deal (§ 637a.13).

§ 637a.12(b) § 637a.19(b) § 637a.20(b) § 637a.21(b): player limits and antes.
§ 637a.12(d) § 637a.19(d) § 637a.20(d) § 637a.21(d): blinds left of the button.
§ 637a.12(e) § 637a.19(e) § 637a.20(e) § 637a.21(e): one straddle.
§ 637a.12(f) § 637a.19(f) § 637a.20(f) § 637a.21(f): hole cards from the button's left,
button last.
§ 637a.12(g) § 637a.19(g) § 637a.20(g) § 637a.21(g): first action left of the straddle.
§ 637a.12(h) § 637a.19(h) § 637a.20(h) § 637a.21(h): after a burn, the next round opens
left of the button.
§ 637a.12(i) § 637a.12(j) § 637a.19(i) § 637a.19(j) § 637a.20(i) § 637a.20(j)
§ 637a.21(i) § 637a.21(j): the later rounds the same way.
"""

from __future__ import annotations

import random

import pytest

from poker_room.domain.errors import PokerError
from poker_room.domain.games import POKER_SPECS
from poker_room.domain.hand import Hand
from tests.poker_room._helpers import call_down, hand, rules

CASES = ["omaha-hilo8", "five-card-omaha-hilo8", "triple-draw-27", "badugi"]


@pytest.mark.regulation(
    "637a.12(d)", "637a.12(e)", "637a.12(f)", "637a.12(g)", "637a.12(h)", "637a.12(i)",
    "637a.12(j)", "637a.19(d)", "637a.19(e)", "637a.19(f)", "637a.19(g)", "637a.19(h)",
    "637a.19(i)", "637a.19(j)", "637a.20(d)", "637a.20(e)", "637a.20(f)", "637a.20(g)",
    "637a.20(h)", "637a.20(i)", "637a.20(j)", "637a.21(d)", "637a.21(e)", "637a.21(f)",
    "637a.21(g)", "637a.21(h)", "637a.21(i)", "637a.21(j)")
@pytest.mark.parametrize("game", CASES)
def test_blinds_straddle_deal_order_and_opening_players(game):
    spec = POKER_SPECS[game]
    deck = list(range(52))
    random.Random(1).shuffle(deck)
    h = Hand.start(rules(game, ante_cents=5, straddle={"offered": True, "amount_cents": 400, "rules": "left of the last blind"}),
                   {s: 20_000 for s in range(1, 6)}, button=3, deck=deck, straddle=True)
    posted = [(e["data"]["seat"], e["data"]["kind"]) for e in h.events
              if e["type"] == "BlindPosted"]
    assert posted == [(4, "blind"), (5, "blind"), (1, "straddle")]
    dealt = next(e for e in h.events if e["type"] == "CardsDealt")["data"]
    assert [s for s, _ in dealt["cards"]] == [4, 5, 1, 2, 3]
    assert all(len(cs) == spec.hole_cards for _, cs in dealt["cards"])
    assert h.to_act == 2  # left of the straddle
    for r in range(1, 4):
        before = h._bet_round
        while h.phase == "betting" and h._bet_round == before:
            la = h.legal_actions()
            h.act(la["seat"], "check" if "check" in la["actions"] else "call")
        drawers = []
        while h.phase == "drawing":
            seat = h.to_act
            drawers.append(seat)
            if seat == 4:  # the first drawer changes one card; the rest stand pat
                old = h.cards(4)
                h.draw(4, old[:1])
                drew = [e for e in h.events if e["type"] == "PlayerDrew"][-1]["data"]
                assert drew["discarded"] == old[:1] and len(drew["cards"]) == 1
                assert sorted(h.cards(4)) == sorted(old[1:] + drew["cards"])
            else:
                h.draw(seat, [])
        burns = [e for e in h.events if e["type"] in ("BoardDealt", "CardBurned")]
        assert len(burns) == r
        if spec.family == "draw":
            assert drawers == [4, 5, 1, 2, 3]  # one at a time from the button's left
            assert all(len(h.cards(s)) == spec.hole_cards for s in range(1, 6))
        else:
            assert len(h.board) == r + 2  # three on the flop, then one and one
        assert h.to_act == 4  # first active player left of the button
    call_down(h)
    assert h.is_complete
    assert len(spec.id) and spec.max_players in (7, 8, 9, 10)


@pytest.mark.regulation("637a.11(b)")
@pytest.mark.parametrize("posted_by,seat", [("each-player", None), ("big-blind", 3),
                                             ("button", 1)])
def test_ante_posted_as_the_submission_governs(posted_by, seat):
    """§ 637a.11(b): the rules governing the placement of an Ante. Three players, the
    button at seat 1, blinds $1 (seat 2) and $2 (seat 3), a $2 ante: each player posts
    $2 ($6 in the pot before the blinds), or one $2 ante for the table by the big blind
    (seat 3) or by the button (seat 1)."""
    h = hand("holdem", ante_cents=200, ante_posted_by=posted_by)
    antes = next(e for e in h.events if e["type"] == "AntesPosted")["data"]["amounts"]
    if seat is None:
        assert antes == [[1, 200], [2, 200], [3, 200]]
    else:
        assert antes == [[seat, 200]]
    assert h.pot == sum(a for _, a in antes) + 300


@pytest.mark.regulation("637a.12(b)", "637a.19(b)", "637a.20(b)", "637a.21(b)")
@pytest.mark.parametrize("game,most", [("omaha-high", 10), ("omaha-hilo8", 10),
                                       ("five-card-omaha-high", 8), ("triple-draw-27", 7),
                                       ("triple-draw-a5", 7), ("badugi", 9)])
def test_no_more_players_than_the_section_allows(game, most):
    """§ 637a.12(b) ten players in Omaha, § 637a.19(b) eight in Five-card Omaha,
    § 637a.20(b) seven in Triple Draw, § 637a.21(b) nine in Badugi: one more is refused
    with nothing dealt."""
    assert Hand.start(rules(game), {s: 10_000 for s in range(1, most + 1)},
                      button=1).phase == "dealing"
    with pytest.raises(PokerError) as exc:
        Hand.start(rules(game), {s: 10_000 for s in range(1, most + 2)}, button=1)
    assert f"no more than {most}" in str(exc.value)
