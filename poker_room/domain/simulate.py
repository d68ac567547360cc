"""Random legal play, for property tests and the benchmark (``manage.py bench_poker``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from poker_room.domain.hand import (
    BETTING,
    BRING_IN,
    COMPLETE,
    DISCARDING,
    DRAWING,
    FORCED,
    Hand,
)
from poker_room.domain.rules import TableRules, rules_from


def random_action(hand: Hand, rng: random.Random, *, fold_weight: float = 0.15,
                  raise_weight: float = 0.25, max_cbr: int | None = None) -> tuple:
    """One random legal command for the hand as it stands, as ``(method, args)``."""
    phase = hand.phase
    if phase == DRAWING:
        seat = hand.to_act
        own = hand.cards(seat)
        k = rng.randrange(len(own) + 1)
        return "draw", (seat, rng.sample(own, k))
    if phase == DISCARDING:
        seat = hand.legal_actions()["seats"][0]
        down = [c for c in hand.cards(seat) if c not in hand.up_cards(seat)]
        return "discard", (seat, rng.sample(down, hand.spec.discard))
    if phase == FORCED:
        la = hand.legal_actions()
        return "act", (la["seat"], BRING_IN if rng.random() < 0.7 else COMPLETE, None)
    assert phase == BETTING
    i = hand._actor
    can_check, _, can_raise, min_to, max_to = hand._options(i)
    seat = hand._seats[i]
    x = rng.random()
    if max_cbr is not None and hand._raise_count >= max_cbr:
        can_raise = False  # e.g. pokerkit's fixed-limit cap, for differential runs
    if can_raise and x < raise_weight:
        if max_to > min_to and rng.random() < 0.5:
            to = rng.randint(min_to, max_to)
        else:
            to = min_to
        return "act", (seat, "bet" if hand._max_bet == 0 else "raise", to)
    if not can_check and x > 1 - fold_weight:
        return "act", (seat, "fold", None)
    return "act", (seat, "check" if can_check else "call", None)


def play_randomly(hand: Hand, rng: random.Random, **weights: Any) -> Hand:
    """Play ``hand`` to its end with random legal decisions."""
    while not hand.is_complete:
        method, args = random_action(hand, rng, **weights)
        getattr(hand, method)(*args)
    return hand


def random_hand(rules: TableRules | Mapping[str, Any], rng: random.Random, *,
                players: int = 6, stacks: Mapping[int, int] | None = None,
                **weights: Any) -> Hand:
    """A complete hand with a shuffled deck, random stacks and random decisions."""
    rules = rules_from(rules)
    if stacks is None:
        low = rules.ante_cents + max(rules.blinds_cents or (rules.bring_in_cents,)) * 2 \
            + rules.opening_bet_cents
        stacks = {s: rng.randint(low, low * 40) for s in range(1, players + 1)}
    deck = list(range(52))
    rng.shuffle(deck)
    seats = sorted(stacks)
    button = rng.choice(seats) if rules.spec.uses_button else None
    hand = Hand.start(rules, stacks, button=button, deck=deck, rng=rng)
    return play_randomly(hand, rng, **weights)
