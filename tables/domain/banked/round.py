"""A house-banked round as a state machine: ``decide(state, command) -> events`` and
``evolve(state, event) -> state`` (DESIGN §2).

Commands are plain dicts with a ``type``:

==================== =====================================================================
type                 fields
==================== =====================================================================
open_round           game, options (Rules Submission options), round_id (optional)
open_round           ... dealing_method, shuffler (optional: the table's equipment)
place_wager          position, wager, amount (cents), player (optional id), instrument
                     ("chips" | "plaque" | "cash": cash refused, x.7(a))
withdraw_wager       position, wager
no_more_bets         —
deal                 recorded: hands {"1": [5 cards], ...}, dealer [5 cards],
                     dealer_face_up (optional, Lunar), method ("by_card" | "stacks");
                     dealt: deck [52 cards, top first], method; at a manual shoe both
                     required, as the dealer states them: placed_by ("dealer" |
                     "shuffler", x.8(a)) and card_hand ("closest_to_shoe", 579.8(c))
decision             position, decision, amount (optional, checked); Hi-Lo ``play`` may
                     carry high [3 cards] and low [2 cards]
set_hands            position, high, low (Hi-Lo)
lock_decisions       — ("all decisions are locked in"; Hi-Lo: every hand set)
draw                 position, discard [cards] (exchange), cards (recorded mode) — Lunar
draw_dealer          card (recorded mode), discard (optional, checked) — 589 forcing
stub_discard         — (579.8(e), 579.9(c), 579.10(c): the stub to the discard rack)
stub_count           cards (counted in the stub), misdealt with held (the cards the players
                     and the dealer hold; the deck stays only if they make 52) — 579.8(f)-(h) ...
report_irregularity  kind, and card / position / misdealt / face_exposed as the kind needs
==================== =====================================================================

Cards are card numbers 0..51 or text (``"As"``, ``"10d"``). A refused command raises a
:class:`~casino.domain.errors.DomainError` with a stable ``code`` and produces no event;
the state passed in is never changed (it is immutable).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables.domain.banked import dealing, decisions, irregularities, stub, wagers
from tables.domain.banked.errors import bad
from tables.domain.banked.events import Event, Recorder, evolve, rebuild
from tables.domain.banked.state import RoundState

__all__ = ["COMMANDS", "decide", "evolve", "execute", "rebuild"]

Command = dict[str, Any]

COMMANDS: dict[str, Callable[[Recorder, Command], None]] = {
    "open_round": wagers.open_round,
    "place_wager": wagers.place_wager,
    "withdraw_wager": wagers.withdraw_wager,
    "no_more_bets": wagers.no_more_bets,
    "deal": dealing.deal,
    "decision": decisions.decision,
    "set_hands": decisions.set_hands,
    "lock_decisions": decisions.lock,
    "draw": dealing.draw,
    "draw_dealer": dealing.draw_dealer,
    "stub_discard": stub.stub_discard,
    "stub_count": stub.stub_count,
    "report_irregularity": irregularities.report,
}


def execute(state: RoundState | None, command: Command) -> tuple[RoundState, list[Event]]:
    """The events ``command`` produces and the state after them (one pass, no replay)."""
    if not isinstance(command, dict):
        raise bad("invalid_command", "a command is an object with a 'type'")
    type_ = command.get("type")
    handler = COMMANDS.get(type_) if isinstance(type_, str) else None
    if handler is None:
        raise bad("unknown_command", f"{type_!r} is not a round command; "
                  f"expected one of: {', '.join(COMMANDS)}", field="type")
    rec = Recorder(state if state is not None else RoundState())
    handler(rec, command)
    return rec.state, rec.events


def decide(state: RoundState | None, command: Command) -> list[Event]:
    """The events that ``command`` produces in ``state`` (refused: a DomainError)."""
    return execute(state, command)[1]
