"""A house-banked round replayed from its events, for the floor, surveillance and the
regulator: each hand, decision and payout in the order it happened, with who recorded it
and when (589.11(f), 671a.11(g), 579.11(l)). Reads only; cards are shown as text ("As").

What it shows follows :mod:`tables.domain.banked.visibility` for the audit audience:
after the round is settled (or void, or closed) everything; before, the dealer's
face-down cards stay hidden until the dealer turns them up, and a dealt round's deck is
never shown here (it is left out of every step, :func:`cards_as_text`).
"""

from __future__ import annotations

from typing import Any

from casino.domain.cards import format_card
from casino.domain.money import format_money
from casino.eventstore.store import RecordedEvent
from tables.domain.banked.script import result
from tables.domain.banked.state import RoundState
from tables.domain.banked.visibility import Audience, dealer_cards, event_data, reported_phase

_CARD_FIELDS = ("hands", "dealer", "cards", "discard", "high", "low", "card",
                "dealer_up_card", "hand_cards")
_HIDDEN = ("deck", "next_card")  # the shuffled deck order never leaves the server


def _text(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return format_card(value)
    if isinstance(value, list):
        return [_text(v) for v in value]
    if isinstance(value, dict):
        return {k: _text(v) for k, v in value.items()}
    return value


def cards_as_text(data: dict[str, Any]) -> dict[str, Any]:
    """Event data for people: card numbers as text, the dealt-mode deck left out."""
    out: dict[str, Any] = {}
    for k, v in data.items():
        if k in _HIDDEN:
            continue
        out[k] = _text(v) if k in _CARD_FIELDS else v
    return out


def _cards(cards: list[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def _setting(d: dict[str, Any]) -> str:
    return (f"high {_cards(d['high'])} ({d['high_total']}) and low {_cards(d['low'])} "
            f"({d['low_total']})")


def describe(ev_type: str, d: dict[str, Any]) -> str:
    p = f"position {d.get('position')}"
    if ev_type == "RoundOpened":
        return (f"round {d.get('number')} opened: {d.get('game')}, rules version "
                f"{d.get('rules_version_number')}, dealing {d.get('dealing_method')}")
    if ev_type == "WagerPlaced":
        return f"{p} wagered {d['wager']} {format_money(d['amount'])}"
    if ev_type == "WagerWithdrawn":
        return f"{p} withdrew {d['wager']}"
    if ev_type == "NoMoreBets":
        return "no more bets"
    if ev_type == "CardsDealt":
        hands = "; ".join(f"position {n}: {_cards(c)}" for n, c in d["hands"].items())
        up = d.get("dealer_up_card")
        tail = f" (face up {format_card(up)})" if up is not None else ""
        dealer = _cards(d["dealer"]) if "dealer" in d else "face down"
        return f"cards dealt ({d['mode']}, {d['method']}): {hands}; dealer: {dealer}{tail}"
    if ev_type == "HandDeclared":
        return f"{p} declared {d['declaration']}: {d['hand']}"
    if ev_type == "DecisionMade":
        money = f", {d['wager']} {format_money(d['amount'])}" if d.get("wager") else ""
        return f"{p} decided {d['decision']}{money}"
    if ev_type == "HandsSet":
        return f"{p} set {_setting(d)}"
    if ev_type == "DecisionsLocked":
        return "all decisions are locked in"
    if ev_type == "CardsDrawn":
        gone = f" for {_cards(d['discard'])}" if d.get("discard") else ""
        return f"{p} drew ({d['draw']}) {_cards(d['cards'])}{gone}"
    if ev_type == "DealerRevealed":
        ok = "qualifies" if d.get("qualifies") else "does not qualify"
        return f"dealer reveals {_cards(d['cards'])}: {d['hand']}, {ok}"
    if ev_type == "DealerHandsSet":
        return f"dealer sets {_setting(d)}"
    if ev_type == "ForceOffered":
        return f"dealer did not qualify; positions {d['positions']} may force the dealer"
    if ev_type == "DealerForced":
        return f"positions {d['positions']} forced the dealer"
    if ev_type == "DealerCardReplaced":
        ok = "qualifies" if d.get("qualifies") else "does not qualify"
        return (f"dealer replaced {format_card(d['discard'])} with {format_card(d['card'])}: "
                f"{d['hand']}, {ok}")
    if ev_type == "WagerSettled":
        return (f"{p} {d['wager']}: {d['outcome']}, returned {format_money(d['returned'])} — "
                f"{d['why']} ({d['cite']})")
    if ev_type == "WagersAbandoned":
        return f"{p} abandoned its wagers ({d['cite']})"
    if ev_type == "CardFoundFaceUp":
        return f"card {format_card(d['card'])} found face up, not used ({d['cite']})"
    if ev_type == "IrregularityRecorded":
        return f"irregularity {d.get('kind')}: {d.get('action', '')} ({d.get('cite')})"
    if ev_type == "CardDrawnInError":
        return (f"card drawn in error, face down: {format_card(d['card'])}, used as the "
                f"next card ({d['cite']})")
    if ev_type == "StubCounted":
        right = "right" if d["correct"] else "wrong"
        return (f"stub counted: {d['cards']} cards, {d['deck_cards']} in the deck, "
                f"{right} ({d['cite']})")
    if ev_type == "StubDiscarded":
        return f"stub placed in the discard rack ({d['cite']})"
    if ev_type == "CardsToDiscardRack":
        return f"{p} cards {_cards(d['cards'])} to the discard rack ({d['cite']})"
    if ev_type == "RoundVoided":
        return f"round void: {d['reason']} ({d['cite']}); every wager returned"
    if ev_type == "RoundClosed":
        if "wagered" not in d:
            return "round closed"
        return (f"round closed: wagered {format_money(d['wagered'])}, returned "
                f"{format_money(d['returned'])}, house win {format_money(d['house_win'])}")
    return ev_type


def reconstruct(state: RoundState, recorded: list[RecordedEvent],
                audience: Audience = Audience.AUDIT) -> dict[str, Any]:
    """The replay of a round whose ``state`` was rebuilt from ``recorded``, as
    ``audience`` may see it (module docstring)."""
    shown = [(e, event_data(e.type, e.data, state, audience)) for e in recorded]
    steps = [{"version": e.version, "at": e.recorded_at, "actor": e.metadata.get("actor", ""),
              "role": e.metadata.get("role", ""), "event": e.type,
              "text": describe(e.type, d), "details": cards_as_text(d)}
             for e, d in shown]
    settlement = result(state, [{"type": e.type, "data": e.data} for e in recorded])
    hands = []
    for n in sorted(state.positions):
        pos = state.positions[n]
        hands.append({"position": n, "player": pos.player,
                      "dealt": [format_card(c) for c in pos.dealt],
                      "cards": [format_card(c) for c in pos.cards],
                      "decision": pos.decision, "final": pos.final,
                      "setting": ({"high": [format_card(c) for c in pos.setting[0]],
                                   "low": [format_card(c) for c in pos.setting[1]]}
                                  if pos.setting else None)})
    return {"game": state.game, "phase": reported_phase(state), "steps": steps,
            "hands": hands,
            "dealer": [format_card(c) for c in dealer_cards(state, audience)],
            "lines": settlement["lines"], "void": settlement["void"],
            "wagered_cents": settlement["wagered_cents"],
            "returned_cents": settlement["returned_cents"],
            "house_win_cents": settlement["house_win_cents"]}
