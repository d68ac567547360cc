"""Builders for poker engine tests: rules dicts and hands dealt with chosen cards."""

from __future__ import annotations

from typing import Any

from casino.domain.cards import parse_cards
from poker_room.domain.games import GAMES
from poker_room.domain.hand import Hand


def rules(game: str, **kw: Any) -> dict[str, Any]:
    spec = GAMES[game]
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
    if GAMES[game].family == "stud":
        button = None
    straddle = kw.pop("straddle", False)
    return Hand.start(rules(game, **kw), stacks, button=button, straddle=straddle)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def call_down(h: Hand) -> None:
    """Everyone checks or calls until cards are due or the hand ends."""
    while h.phase == "betting":
        la = h.legal_actions()
        h.act(la["seat"], "check" if "check" in la["actions"] else "call")
