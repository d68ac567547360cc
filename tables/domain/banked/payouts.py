"""One payout, push or collection at a time, and the close of the round.

Every settlement step emits one ``WagerSettled`` event naming the wager line, what that
step hands back to the player (0 when the dealer collects), the outcome and why, with the
subsection it follows. The round closes with the totals: everything wagered (fees
included), everything returned, and the house win, which is their difference.
"""

from __future__ import annotations

from tables.domain.banked.events import Recorder
from tables.domain.banked.state import RoundState


def settle(rec: Recorder, position: int, wager: str, outcome: str, returned: int,
           why: str, cite: str) -> None:
    rec.emit("WagerSettled", position=position, wager=wager, outcome=outcome,
             returned=returned, why=why, cite=cite)


def collect(rec: Recorder, position: int, wager: str, why: str, cite: str,
            outcome: str = "lost") -> None:
    settle(rec, position, wager, outcome, 0, why, cite)


def push(rec: Recorder, position: int, wager: str, why: str, cite: str) -> None:
    amount = rec.state.positions[position].wagered[wager]
    settle(rec, position, wager, "push", amount, why, cite)


def totals(state: RoundState) -> dict[str, int]:
    wagered = sum(sum(p.wagered.values()) for p in state.positions.values())
    returned = sum(sum(p.returned.values()) for p in state.positions.values())
    return {"wagered": wagered, "returned": returned, "house_win": wagered - returned}


def close(rec: Recorder) -> None:
    """Close the round once every wager line is settled (589.11(f), 579.11(l))."""
    state = rec.state
    open_lines = [(p.number, w) for p in state.positions.values() for w in p.unsettled()]
    if open_lines:  # the procedure settles everything before it closes; a bug otherwise
        raise RuntimeError(f"internal error: closing with unsettled wagers {open_lines}")
    t = totals(state)
    rec.emit("RoundClosed", wagered=t["wagered"], returned=t["returned"],
             house_win=t["house_win"], void=state.void is not None)
