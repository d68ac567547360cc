"""Builders for poker engine tests: rules dicts and hands dealt with chosen cards."""

from __future__ import annotations

from typing import Any

from casino.domain.cards import parse_cards
from poker_room.domain.games import POKER_SPECS
from poker_room.domain.hand import Hand


def rules(game: str, **kw: Any) -> dict[str, Any]:
    spec = POKER_SPECS[game]
    d: dict[str, Any] = {"game": game, "structure": "fixed_limit", "small_bet_cents": 200,
                         "big_bet_cents": 400}
    if spec.family == "stud":
        d["bring_in_cents"] = 100
    else:
        d["blinds_cents"] = [100, 200]
    d.update(kw)
    if d["structure"] != "fixed_limit":
        d.setdefault("min_bet_cents", 200)
    return d


def C(text: str) -> list[int]:
    return parse_cards(text)


def hand(game: str, stacks: dict[int, int] | None = None, *, button: int | None = 1,
         players: int = 3, **kw: Any) -> Hand:
    """A hand whose cards the test deals with ``hand.deal`` (no engine deck)."""
    stacks = stacks or {s: 10_000 for s in range(1, players + 1)}
    if POKER_SPECS[game].family == "stud":
        button = None
    straddle = kw.pop("straddle", False)
    return Hand.start(rules(game, **kw), stacks, button=button, straddle=straddle)


def holdem_dealt(stacks: dict[int, int] | None = None, **kw: Any) -> Hand:
    """Three-handed Hold'em, button at seat 1, hole cards dealt (seat 2 aces, seat 3
    kings, seat 1 seven-deuce): the first betting round is on."""
    h = hand("holdem", stacks, **kw)
    h.deal({2: C("AsAd"), 3: C("KsKd"), 1: C("2c7d")})
    return h


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def call_down(h: Hand) -> None:
    """Everyone checks or calls until cards are due or the hand ends."""
    while h.phase == "betting":
        la = h.legal_actions()
        h.act(la["seat"], "check" if "check" in la["actions"] else "call")


def stand_pat_to_showdown(h: Hand, seats: tuple[int, ...] = (2, 1)) -> None:
    """A draw game played out with every player checking or calling and standing pat on
    each of the three draws (``seats`` in drawing order)."""
    for _ in range(3):
        call_down(h)
        for s in seats:
            h.draw(s, [], [])
    call_down(h)
