"""Who posts the Ante, the Blind Bets, the Straddle Bet or the Forced Bet, and how much
(637a.10(b)-(d), 637a.11(b)-(e), 637a.13(e), 637a.14(d))."""

from __future__ import annotations

from poker_room.domain.games import STUD
from poker_room.domain.rules import ANTE_BUTTON, ANTE_EACH, TableRules


def _forced_amounts(rules: TableRules, spec, seats: list[int], button: int | None,
                    straddle: bool) -> list[int]:
    """The blind, straddle or Forced Bet each seat may have to make this hand."""
    n = len(seats)
    if spec.family == STUD:
        return [rules.bring_in_cents] * n  # anyone may hold the lowest up card
    posters, amounts = _blind_posters(rules, n, seats.index(button), straddle)
    out = [0] * n
    for p, a in zip(posters, amounts):
        out[p] += a
    return out


def is_table_ante(rules: TableRules, b: int | None) -> bool:
    """Whether the Ante is the table's one ante, posted by the big blind or the button (as
    :func:`_ante_posters` places it), rather than each player's own."""
    return rules.ante_posted_by != ANTE_EACH and b is not None


def _ante_posters(rules: TableRules, n: int, b: int | None) -> list[int]:
    """Who posts the Ante as the Rules Submission governs it (637a.10(b)-637a.21(b)):
    each player dealt in, or one ante for the table by the big blind (the last Blind Bet)
    or by the button."""
    if not is_table_ante(rules, b):
        return list(range(n))
    if rules.ante_posted_by == ANTE_BUTTON:
        return [b]
    return [_blind_posters(rules, n, b, False)[0][-1]]


def _blind_posters(rules: TableRules, n: int, b: int, straddle: bool
                   ) -> tuple[list[int], list[int]]:
    """Who posts each Blind Bet (player indices, the button at ``b``) and how much: left
    of the button in order (637a.11(d)); heads-up the button first if the table says so;
    then the Straddle Bet left of the last blind (637a.11(e))."""
    if n == 2 and rules.heads_up_button_posts_small_blind:
        posters = [b, (b + 1) % n]
    else:
        posters = [(b + 1 + k) % n for k in range(len(rules.blinds_cents))]
    amounts = list(rules.blinds_cents)
    if straddle:
        posters.append((posters[-1] + 1) % n)
        amounts.append(rules.straddle_cents or 0)
    return posters, amounts
