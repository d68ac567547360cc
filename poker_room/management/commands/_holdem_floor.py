"""The floor of ``bench_poker``: the least work any Hold'em engine in this Python does.

A bare loop over the same hands (stacks, button, deck and seed) with the same random player
as the engine's bench (:mod:`poker_room.domain.simulate`: a third folds when facing a bet,
a third bets or raises to the minimum or a random legal amount, at most four bets a round):
blinds, hole cards, four betting rounds, the board, the showdown values
(:func:`poker_room.domain.evaluate.high`, the engine's own lookups) and the pots. Nothing
else: no check of a command, no record of what happened, no rake, no contributions, no
uncalled bet returned, odd chips to the first winner. It is not an engine (it answers no
one and records nothing) and is never used outside the benchmark: it says how fast a
complete engine could be here at most, so the engine's figure and pokerkit's can be read
against it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from poker_room.domain import evaluate
from poker_room.domain.pots import side_pots

SMALL_BLIND, BIG_BLIND, MAX_BETS = 100, 200, 4


def holdem_floor_hand(stacks: Mapping[int, int], button: int, deck: Sequence[int],
                      rng: random.Random) -> list[int]:
    """Play one hand; the final stacks in seat order."""
    high = evaluate.high
    seats = sorted(stacks)
    n = len(seats)
    st = [stacks[s] for s in seats]
    b = seats.index(button)
    bets, contrib, live = [0] * n, [0] * n, [True] * n
    cards = list(reversed(deck))
    big = (b + 2) % n
    for i, a in (((b + 1) % n, SMALL_BLIND), (big, BIG_BLIND)):
        a = min(a, st[i])
        st[i] -= a
        bets[i] += a
        contrib[i] += a
    hole: list[list[int]] = [[] for _ in range(n)]
    for _ in range(2):
        for k in range(n):
            hole[(b + 1 + k) % n].append(cards.pop())
    board: list[int] = []
    in_hand = n
    for street in range(4):
        if street:
            cards.pop()  # the burn card
            board += [cards.pop() for _ in range(3 if street == 1 else 1)]
            bets = [0] * n
        top, min_raise, raises = max(bets), BIG_BLIND, 0
        pending = [live[j] and st[j] > 0 for j in range(n)]
        actor = (big + 1) % n if street == 0 else (b + 1) % n
        while in_hand > 1:
            i = next(((actor + k) % n for k in range(n) if pending[(actor + k) % n]), -1)
            if i < 0:
                break
            call = min(top - bets[i], st[i])
            x = rng.random()
            if st[i] > top - bets[i] and raises < MAX_BETS and x < 1 / 3:
                low, most = min(top + min_raise, st[i] + bets[i]), st[i] + bets[i]
                to = rng.randint(low, most) if most > low and rng.random() < 0.5 else low
                st[i] -= to - bets[i]
                contrib[i] += to - bets[i]
                bets[i] = to
                min_raise = max(min_raise, to - top)
                top, raises = to, raises + 1
                pending = [live[j] and st[j] > 0 for j in range(n)]
            elif call and x > 2 / 3:
                live[i] = False
                in_hand -= 1
            else:
                st[i] -= call
                bets[i] += call
                contrib[i] += call
            pending[i] = False
            actor = i + 1
    pots = side_pots(contrib, live)
    if in_hand == 1:
        st[live.index(True)] += sum(a for a, _ in pots)
        return st
    values = [high(hole[i] + board) if live[i] else -1 for i in range(n)]
    for amount, eligible in pots:
        best = max(values[i] for i in eligible)
        winners = [i for i in eligible if values[i] == best]
        each = amount // len(winners)
        for w in winners:
            st[w] += each
        st[winners[0]] += amount - each * len(winners)
    return st
