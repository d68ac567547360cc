"""Builders for poker engine tests: rules dicts and hands dealt with chosen cards."""

from __future__ import annotations

from typing import Any

from casino.domain.cards import parse_cards
from poker_room.domain.games import POKER_SPECS
from poker_room.domain.hand import Hand
from poker_room.domain.rules_schema import SPLIT_GAMES
from tables.domain.catalogue import OddChip, get_table_game


#: no pot rake (a time charge only): the engine tests' default
NO_POT_RAKE = {"types": ["time-charge"], "time_charge": {
    "basis": "per-table", "hourly_cents": 600, "assessed_every_minutes": 30}}


def pct_rake(bp: int, cap: int, *, collection: str = "end-of-round", **kw: Any
             ) -> dict[str, Any]:
    """A percentage rake's options (637a.17(b)(1))."""
    return {"types": ["percentage"], "percentage_bp": bp, "maximum_per_round_cents": cap,
            "collection": collection, **kw}


def rules(game: str, **kw: Any) -> dict[str, Any]:
    """A poker Rules Submission's options for ``game`` with the game (the one schema,
    poker_room.domain.rules_schema), small limits and 1-cent chips unless ``kw`` says
    otherwise."""
    spec = POKER_SPECS[game]
    table = get_table_game(game)
    d: dict[str, Any] = {"game": game, "structure": "fixed-limit", "small_bet_cents": 200,
                         "big_bet_cents": 400, "table_minimum_cents": 200,
                         "table_maximum_cents": 400, "chip_unit_cents": 1,
                         "buy_in_minimum_cents": 100, "buy_in_maximum_cents": 10_000_000,
                         "rake": NO_POT_RAKE}
    if spec.family == "stud":
        d["forced_bet_cents"] = 100
    else:
        d["blinds_cents"] = [100, 200]
    if table.odd_chip is OddChip.REQUIRED:
        d["odd_chip_recipient"] = "highest-card-by-suit"
        if game in SPLIT_GAMES:
            d["odd_chip_recipient_low"] = "highest-card-by-suit"
    d.update(kw)
    if d["structure"] != "fixed-limit":
        for k in ("small_bet_cents", "big_bet_cents"):
            if k not in kw:
                d.pop(k, None)
        d.setdefault("minimum_bet_cents", 200)
    return d


def C(text: str) -> list[int]:
    return parse_cards(text)


def hand(game: str, stacks: dict[int, int] | None = None, *, button: int | None = 1,
         players: int = 3, **kw: Any) -> Hand:
    """A hand whose cards the test deals with ``hand.deal`` (no engine deck)."""
    stacks = stacks or {s: 10_000 for s in range(1, players + 1)}
    if POKER_SPECS[game].family == "stud":
        button = None
    straddle = kw.pop("straddled", False)
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
