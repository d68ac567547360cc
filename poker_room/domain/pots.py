"""Main pot, side pots and the division of a pot among tied winners (637a.8(b)(5),
637a.6(e), 637a.10(i)(3))."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def side_pots(contrib: Sequence[int], live: Sequence[bool], dead: Sequence[int] = ()
              ) -> list[tuple[int, tuple[int, ...]]]:
    """Split the chips in the pot into the main pot and side pots.

    ``contrib[i]`` is everything player ``i`` put in (uncalled bets already returned);
    ``live[i]`` is False for a folded player, whose chips stay in the pots they reached but
    who can win none (637a.8(b)(5)(i): an all-in player is eligible only for the amount of
    the pot to which he contributed; (iii): the others play on for a side pot).
    ``dead[i]`` is the part of ``contrib[i]`` that is the table's one Ante (a big-blind or
    button ante, 637a.11(b): the Rules Submission governs its placement): dead money for
    the main pot, which every player still in contests, not a bet of its poster's that the
    others must match — layered with his bets, the ante above what the others put in would
    form a pot only he could win, and go back to him.
    Returns ``(amount, eligible player indices)`` for the main pot then each side pot.
    """
    n = len(contrib)
    pots: list[tuple[int, tuple[int, ...]]] = []
    if any(dead):
        contrib = [c - d for c, d in zip(contrib, dead)]
        pots.append((sum(dead), tuple(i for i in range(n) if live[i])))
    levels = sorted({c for c, alive in zip(contrib, live) if alive and c > 0})
    prev = 0
    for level in levels:
        amount = 0
        for c in contrib:
            if c > prev:
                amount += (level if c > level else c) - prev  # noqa: FURB136 - hot path
        eligible = tuple(i for i in range(n) if live[i] and contrib[i] >= level)
        if amount:
            if pots and pots[-1][1] == eligible:  # same players: one pot
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        prev = level
    # a folded player's chips above every live player's total (cannot happen once the
    # uncalled bet is returned, but no chip may be lost): into the last pot
    over = sum(c - prev for c in contrib if c > prev)
    if over and pots:
        pots[-1] = (pots[-1][0] + over, pots[-1][1])
    return pots


def split_evenly(amount: int, winners: Sequence[int], unit: int,
                 odd_chip_to: Callable[[Sequence[int]], int]) -> dict[int, int]:
    """Divide ``amount`` equally among ``winners`` in whole chips of ``unit`` cents; the
    excess goes to the one player ``odd_chip_to(winners)`` names (637a.10(i)(3)(ii)-(iii),
    637a.11(k))."""
    n = len(winners)
    if n == 1:
        return {winners[0]: amount}
    each = amount // (n * unit) * unit
    out = {w: each for w in winners}
    rest = amount - each * n
    if rest:
        out[odd_chip_to(winners)] += rest
    return out


def halves(amount: int, unit: int) -> tuple[int, int]:
    """A split pot's two halves in whole chips; the first (the high hand, or the 2-7/A-5
    hand in Badeucey/Badacey) takes the excess (637a.10(i)(3)(i), 637a.20(l)(1)(ii))."""
    second = amount // (2 * unit) * unit
    return amount - second, second
