"""Whose turn it is: the order in which the chapters have the dealer go round the table.

Nothing here changes the round; the decision and dealing modules ask these questions
before they accept a command.
"""

from __future__ import annotations

from tables.domain.banked.state import Position, RoundState


def undecided(state: RoundState) -> list[int]:
    """Positions still to make their first decision (abandoned positions never will)."""
    return [p.number for p in state.clockwise() if p.decision is None and not p.abandoned]


def next_to_draw(state: RoundState) -> int | None:
    """Lunar, after "all decisions are locked in": the first position clockwise from the
    dealer's left that paid an Options fee and has not yet drawn and then folded or bet
    (589.11(d)(2), 671a.11(d)). None when every draw is done."""
    for p in state.clockwise():
        if (not p.abandoned and p.decision in ("buy", "exchange")
                and (not p.drawn or p.final is None)):
            return p.number
    return None


def next_to_answer(state: RoundState) -> int | None:
    """Hi-Lo: the next position the dealer asks to play or forfeit, clockwise from the
    player farthest to the dealer's left (579.11(b))."""
    for p in state.clockwise():
        if p.decision is None and not p.abandoned:
            return p.number
    return None


def adjacent_partner(state: RoundState, p: Position) -> Position | None:
    """579.7(f): the other of two adjacent betting areas the same player wagers on."""
    if p.player is None:
        return None
    for n in (p.number - 1, p.number + 1):
        q = state.positions.get(n)
        if q is not None and q.player == p.player and q.in_round:
            return q
    return None


def sets_first(p: Position, q: Position) -> Position:
    """579.7(f): of one player's two adjacent hands, the one with the larger wager is set
    first; with equal wagers they go counterclockwise, so the hand nearer the dealer's
    right (the higher position number) is set first."""
    if p.ante != q.ante:
        return p if p.ante > q.ante else q
    return p if p.number > q.number else q


def must_set_before(state: RoundState, p: Position) -> Position | None:
    """The adjacent hand that has to be set before ``p``, if it is not set yet."""
    q = adjacent_partner(state, p)
    # a partner still to be asked may yet play, so it keeps its place in the order
    if q is None or q.abandoned or q.decision == "forfeit" or q.setting is not None:
        return None
    return q if sets_first(p, q) is q else None


def setting_order(state: RoundState) -> list[int]:
    """Hi-Lo: positions that made a Play Wager in the order their hands may be set:
    clockwise, except that one player's adjacent hands follow 579.7(f)."""
    players = [p for p in state.clockwise() if p.decision == "play" and not p.abandoned]
    out: list[int] = []
    for p in players:
        if p.number in out:
            continue
        q = adjacent_partner(state, p)
        if q is not None and q.decision == "play" and not q.abandoned and q.number not in out:
            first = sets_first(p, q)
            out.extend([first.number, (q if first is p else p).number])
        else:
            out.append(p.number)
    return out
