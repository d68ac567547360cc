"""Kill and Half-kill limits (637a.1, 637a.12(n), 637a.19(l)(3), 637a.20(b), 637a.21(b)).

When one player wins an entire qualifying pot, the next hand is played at twice (Kill) or
one and a half times (Half-kill) the posted limits, and stays so until a pot is split
between a high-hand winner and a different low-hand winner, or a pot falls short of the
qualifying pot.
"""

from __future__ import annotations

from poker_room.domain.rules import TableRules


def next_kill_active(rules: TableRules, active: bool, *, pot_cents: int, scooped: bool,
                     split_high_low: bool) -> bool:
    """Whether the next hand is played with the kill limits.

    ``pot_cents`` is the hand's Pot as 637a.1 defines it: what is awarded, after the rake
    and any jackpot contributions (the uncalled bet returned); ``scooped`` says one player
    won every chip of it; ``split_high_low`` says some pot was divided between a high and
    a different low winner.
    """
    if rules.kill is None or rules.kill_qualifying_pot_cents is None:
        return False
    qualifying = pot_cents >= rules.kill_qualifying_pot_cents
    if not qualifying or split_high_low:
        return False
    if scooped:
        return True
    return active  # neither ends nor starts a kill: limits stay as they are
