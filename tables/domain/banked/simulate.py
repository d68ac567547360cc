"""Whole rounds dealt from a deck with a simple strategy, and the pure-domain benchmark.

The deck is a secure shuffle (:func:`casino.domain.cards.shuffled_deck`, the OS CSPRNG)
unless a seeded ``random.Random`` is given, which makes a round repeatable. Every round
goes through ``execute`` exactly as a table's commands would, in *dealt* mode.

:class:`SimpleStrategy` (documented so simulated results can be read):

* Lunar Poker — declare a royal or straight flush in the first five cards for the instant
  payout; declare the Super Wager hand when there is one; otherwise Bet with a pair or
  better or an ace-king, else fold; never buy or exchange; never force the dealer.
* Five Card Hi-Lo — always make the Play Wager and set the three highest-valued cards
  high, aces counted 11 (the largest high total; the low hand is then what is left, and
  four aces put the fourth ace low) — the dealer's own rule of 579.11(e), which always
  meets 579.11(d).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

from casino.domain.cards import shuffled_deck
from tables.domain.hands.hilo import dealer_setting
from tables.domain.hands.lunar import (
    LunarCategory,
    instant_payout_hand,
    lunar_category,
    lunar_value,
    super_hand,
)
from tables.domain.banked.events import Event
from tables.domain.banked.round import execute
from tables.domain.banked.state import Phase, Position, RoundState
from tables.domain.banked.wagers import canonical_options
from tables.domain.catalogue import get_table_game
from tables.domain.rules_options import example_options


class Strategy(Protocol):
    def lunar(self, state: RoundState, p: Position) -> list[str]:
        """Declarations, then fold / bet (or buy / exchange), for the first five cards."""

    def hilo(self, state: RoundState, p: Position) -> tuple[str, list[int], list[int]]:
        """("play", high, low) or ("forfeit", [], [])."""


class SimpleStrategy:
    """See the module docstring."""

    def lunar(self, state: RoundState, p: Position) -> list[str]:
        out: list[str] = []
        if "super" in p.wagered and super_hand(state.rulebook, p.dealt) is not None:
            out.append("declare_super")
        if instant_payout_hand(p.dealt) is not None:
            return [*out, "declare_instant"]
        good = lunar_category(lunar_value(p.dealt)) >= LunarCategory.ACE_KING
        return [*out, "bet" if good else "fold"]

    def hilo(self, state: RoundState, p: Position) -> tuple[str, list[int], list[int]]:
        s = dealer_setting(p.dealt)
        return "play", list(s.high), list(s.low)


@dataclass(frozen=True)
class PlayedRound:
    state: RoundState
    events: list[Event]

    @property
    def wagered(self) -> int:
        return self.state.totals["wagered"]

    @property
    def returned(self) -> int:
        return self.state.totals["returned"]

    @property
    def house_win(self) -> int:
        return self.state.totals["house_win"]


def _wagers(game: str, options: dict[str, Any], positions: int, side_wagers: bool
            ) -> list[tuple[int, str, int]]:
    ante = options["table_minimum_cents"]
    out: list[tuple[int, str, int]] = []
    for n in range(1, positions + 1):
        out.append((n, "ante", ante))
        if game == "lunar-poker-671a" or (game == "lunar-poker-589"
                                          and options["super_wager_offered"]):
            out.append((n, "super", ante))
        if not side_wagers:
            continue
        if game == "lunar-poker-671a" and options["super_on_other_hands_offered"]:
            out.append((n, "super_dealer", ante))
        if game == "five-card-hi-lo":
            if options["tie_wager_offered"]:
                out.append((n, "tie", ante))
            if options["poker_bonus_offered"]:
                out.append((n, "poker_bonus", ante))
    return out


def deal_deck(rng: random.Random | None = None) -> list[int]:
    """A shuffled deck, top card first: seeded by ``rng``, else the secure shuffle."""
    if rng is None:
        return shuffled_deck()[0]
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def play_round(game: str, options: dict[str, Any] | None = None,
               rng: random.Random | None = None, strategy: Strategy | None = None, *,
               positions: int = 1, side_wagers: bool = True,
               deck: list[int] | None = None) -> PlayedRound:
    """Deal and settle one round from ``deck``, or from a deck shuffled with ``rng`` (a
    secure shuffle when ``rng`` is None)."""
    options = canonical_options(game, options if options is not None
                                else example_options(game))
    strategy = strategy or SimpleStrategy()
    if not 1 <= positions <= get_table_game(game).max_positions:
        raise ValueError(f"{game} has 1 to {get_table_game(game).max_positions} positions")
    if deck is None:
        deck = deal_deck(rng)
    events: list[Event] = []

    def run(cmd: dict[str, Any]) -> RoundState:
        nonlocal state
        state, evs = execute(state, cmd)
        events.extend(evs)
        return state

    state: RoundState | None = None
    run({"type": "open_round", "game": game, "options": options})
    for n, wager, amount in _wagers(game, options, positions, side_wagers):
        run({"type": "place_wager", "position": n, "wager": wager, "amount": amount})
    run({"type": "no_more_bets"})
    run({"type": "deal", "deck": deck})
    if state.lunar:
        for p in state.clockwise():
            for d in strategy.lunar(state, p):
                run({"type": "decision", "position": p.number, "decision": d})
        run({"type": "lock_decisions"})
        if state.phase is Phase.FORCING:  # the simple strategy never forces
            for p in state.counterclockwise():
                if p.has_bet and p.force is None:
                    run({"type": "decision", "position": p.number, "decision": "no_force"})
    else:
        for p in state.clockwise():
            what, high, low = strategy.hilo(state, p)
            cmd: dict[str, Any] = {"type": "decision", "position": p.number, "decision": what}
            if what == "play":
                cmd.update(high=high, low=low)
            run(cmd)
        run({"type": "lock_decisions"})
    return PlayedRound(state, events)


def bench_rounds(game: str, n: int = 20_000, seed: int = 1, *, positions: int = 1,
                 side_wagers: bool = True, include_shuffle: bool = False) -> float:
    """Rounds dealt, decided and settled per second in the pure domain (seeded decks,
    :class:`SimpleStrategy`, ``example_options(game)``).

    The decks are shuffled before the clock starts unless ``include_shuffle``: the
    service, not the domain, shuffles (it passes a secure shuffle to the deal).
    """
    rng = random.Random(seed)
    options = example_options(game)
    play_round(game, options, rng, positions=positions)  # warm the evaluators' tables
    decks = None if include_shuffle else [deal_deck(rng) for _ in range(n)]
    start = time.perf_counter()
    for i in range(n):
        play_round(game, options, rng, positions=positions, side_wagers=side_wagers,
                   deck=decks[i] if decks is not None else None)
    return n / (time.perf_counter() - start)
