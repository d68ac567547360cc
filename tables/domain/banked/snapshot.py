"""A house-banked round's state as a JSON snapshot, and back (DESIGN §2: the command runner
loads a snapshot kept with the round's row instead of replaying the stream).

``state_from_snapshot(state_to_snapshot(s)) == s`` for every state, and a snapshot taken at
version N equals the state rebuilt from the stream's first N events (tests check both).
``SCHEMA`` changes whenever the state's shape does: a snapshot of another schema is not
read (the runner replays the stream and writes a new one).
"""

from __future__ import annotations

from typing import Any

from tables.domain.banked.state import Phase, Position, RoundState

SCHEMA = 2

_TUPLES = ("dealt", "cards", "discards")
_STATE_TUPLES = ("deck", "dealer_cards", "face_up_found", "forcers")


def _position_out(p: Position) -> dict[str, Any]:
    return {"number": p.number, "player": p.player, "wagered": dict(p.wagered),
            "returned": dict(p.returned), "settled": sorted(p.settled),
            "dealt": list(p.dealt), "cards": list(p.cards), "discards": list(p.discards),
            "decision": p.decision, "final": p.final, "drawn": p.drawn,
            "declared": sorted(p.declared), "force": p.force,
            "setting": [list(p.setting[0]), list(p.setting[1])] if p.setting else None,
            "totals": list(p.totals) if p.totals else None, "abandoned": p.abandoned}


def _position_in(d: dict[str, Any]) -> Position:
    setting = d["setting"]
    totals = d["totals"]
    return Position(
        number=d["number"], player=d["player"], wagered=dict(d["wagered"]),
        returned=dict(d["returned"]), settled=frozenset(d["settled"]),
        dealt=tuple(d["dealt"]), cards=tuple(d["cards"]), discards=tuple(d["discards"]),
        decision=d["decision"], final=d["final"], drawn=d["drawn"],
        declared=frozenset(d["declared"]), force=d["force"],
        setting=(tuple(setting[0]), tuple(setting[1])) if setting else None,
        totals=(totals[0], totals[1]) if totals else None, abandoned=d["abandoned"])


def state_to_snapshot(s: RoundState) -> dict[str, Any]:
    """The state as JSON-ready data (positions keyed by their number as text)."""
    return {"schema": SCHEMA, "phase": s.phase.value, "round_id": s.round_id, "game": s.game,
            "options": s.options, "max_positions": s.max_positions,
            "positions": {str(n): _position_out(p) for n, p in s.positions.items()},
            "mode": s.mode, "method": s.method, "deck": list(s.deck),
            "next_card": s.next_card, "dealer_cards": list(s.dealer_cards),
            "dealer_up": s.dealer_up, "dealer_discard": s.dealer_discard,
            "face_up_found": list(s.face_up_found), "forcers": list(s.forcers),
            "drawn_in_error": list(s.drawn_in_error), "dealing_method": s.dealing_method,
            "shuffler": s.shuffler, "stub": s.stub, "stub_count": s.stub_count,
            "void": s.void, "totals": s.totals}


def state_from_snapshot(d: dict[str, Any]) -> RoundState | None:
    """The state a snapshot holds; None for a snapshot of another schema."""
    if not isinstance(d, dict) or d.get("schema") != SCHEMA:
        return None
    return RoundState(
        phase=Phase(d["phase"]), round_id=d["round_id"], game=d["game"], options=d["options"],
        max_positions=d["max_positions"],
        positions={int(n): _position_in(p) for n, p in d["positions"].items()},
        mode=d["mode"], method=d["method"], deck=tuple(d["deck"]), next_card=d["next_card"],
        dealer_cards=tuple(d["dealer_cards"]), dealer_up=d["dealer_up"],
        dealer_discard=d["dealer_discard"], face_up_found=tuple(d["face_up_found"]),
        forcers=tuple(d["forcers"]), drawn_in_error=tuple(d["drawn_in_error"]),
        dealing_method=d["dealing_method"], shuffler=d["shuffler"], stub=d["stub"],
        stub_count=d["stub_count"], void=d["void"], totals=d["totals"])
