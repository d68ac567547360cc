"""A hand in plain words (637a.18(a): disputes are settled on the record): each event of
the hand's stream as a floorperson would say it, with who recorded it (login, role and
Board-issued credential number, 637a.16(f)(4)) and the cards as codes (face-down cards
``??`` until the hand is over)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from casino.actors import Actor
from casino.domain.cards import format_card
from casino.domain.money import format_money
from casino.eventstore.store import RecordedEvent
from poker_room.domain import pot_figures
from poker_room.domain.visibility import AUDIT, event_data
from poker_room.services.hand_state import ROUND_EVENTS
from poker_room.services.hands import hand_load
from poker_room.services.histories import HISTORY_READERS, day_of



# --- the hand in plain words ------------------------------------------------------------

def _usd(cents: Any) -> str:
    """Dollars the one way (casino.domain.money); "?" for an amount an old event lacks."""
    return format_money(cents) if isinstance(cents, int) and not isinstance(cents, bool) \
        else "?"


def _codes(cards: Any) -> str:
    """Cards as codes; a card the audience may not see yet is ``??``."""
    if not isinstance(cards, list):
        return "??" if cards is None else format_card(cards)
    return " ".join("??" if c is None else format_card(c) for c in cards)


def _seats_of(pairs: list) -> str:
    return "; ".join(f"seat {s} {_codes(cs)}" for s, cs in pairs)


def _stacks(pairs: list) -> str:
    return ", ".join(f"seat {s} {_usd(v)}" for s, v in pairs)


def _round(d: Mapping[str, Any]) -> int:
    return d.get("round", 0) + 1  # the engine counts betting rounds from 0


#: 637a.18(k): how the hand was lost, and what became of it
_FOULED_HOW = {"fouled": "hand fouled by the discards",
               "collected": "hand collected by the dealer",
               "left_table": "hand left at the table, the player gone without comment"}
_FOULED_OUTCOME: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "dead": lambda d: ("protected, but the player contributed to the error: dead, no refund"
                       if d.get("protected") else "unprotected: dead, no redress"),
    "reconstructed": lambda d: "protected and reconstructed: the hand plays on",
    "refunded": lambda d: f"protected: {_usd(d.get('refunded'))} refunded from the pot, "
                          "out of the hand",
}


def _completed(d: Mapping[str, Any]) -> str:
    if d.get("voided"):
        return f"Hand void: every bet returned; stacks {_stacks(d['stacks'])}"
    winners = ", ".join(str(s) for s in d.get("winners") or [])
    # 637a.1: the Pot is what is left after the rake (and the jackpot contributions taken
    # after it); the gross pot is every chip put in
    taken = sum(a for _, a in d.get("contributions") or [])
    return (f"Hand over: gross pot {_usd(d['pot'])}, rake {_usd(d['rake'])}, jackpot "
            f"contributions {_usd(taken)}, "
            f"Pot {_usd(pot_figures.pot_after(d['pot'], d['rake'], taken))} won by "
            f"seat {winners}; stacks {_stacks(d['stacks'])}")


#: each event in words (``d``: its data as the audit audience may see it)
_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "RoundOpened": lambda d: f"Hand {d.get('number')} opened under Rules Submission "
                             f"version {d.get('rules_version_number')}",
    "HandStarted": lambda d: f"Dealt in: {_stacks(d['seats'])}"
                             + (f"; button at seat {d['button']}" if d.get("button") else ""),
    "AntesPosted": lambda d: f"Antes: {_stacks(d['amounts'])}",
    "BlindPosted": lambda d: f"Seat {d['seat']} posts the {d.get('kind', 'blind')} "
                             f"{_usd(d['amount'])}",
    "CardsDealt": lambda d: f"Dealt: {_seats_of(d['cards'])}",
    "BoardDealt": lambda d: f"Board: {_codes(d['cards'])}",
    "CommonCardDealt": lambda d: f"Common card (637a.10(h)): {_codes(d['card'])}",
    "CardBurned": lambda d: f"Card burned: {_codes(d['card'])}",
    "BettingRoundStarted": lambda d: f"Betting round {_round(d)}: seat {d['first']} first",
    "BringInDue": lambda d: f"Seat {d['seat']} is to make the Forced Bet",
    "BringInPosted": lambda d: f"Seat {d['seat']} brings in {_usd(d['amount'])}",
    "PlayerBet": lambda d: f"Seat {d['seat']} bets {_usd(d['to'])}",
    "PlayerRaised": lambda d: f"Seat {d['seat']} raises to {_usd(d['to'])}",
    "PlayerCalled": lambda d: f"Seat {d['seat']} calls {_usd(d['amount'])}",
    "PlayerChecked": lambda d: f"Seat {d['seat']} checks",
    "PlayerFolded": lambda d: f"Seat {d['seat']} folds",
    "PlayerDrew": lambda d: f"Seat {d['seat']} discards {_codes(d['discarded']) or 'none'}"
                            f" and draws {_codes(d['cards']) or 'none'}",
    "PlayerDiscarded": lambda d: f"Seat {d['seat']} discards {_codes(d['cards'])}",
    "UncalledBetReturned": lambda d: f"Uncalled {_usd(d['amount'])} returned to seat "
                                     f"{d['seat']} (637a.17(d))",
    "BettingRoundClosed": lambda d: f"Betting round {_round(d)} over: pot {_usd(d['pot'])}",
    "RakeTaken": lambda d: f"Rake {_usd(d['amount'])} ({d.get('kind')}; "
                           f"{_usd(d.get('total'))} in all)",
    "JackpotContributionTaken": lambda d: f"{_usd(d['amount'])} from pot {d['pot'] + 1} to "
                                          f"the {d.get('fund_name', d.get('fund'))} fund",
    "ShowdownStarted": lambda d: "Showdown, shown in the order seat "
                                 + ", ".join(str(s) for s in d["order"]),
    "HandShown": lambda d: f"Seat {d['seat']} shows {_codes(d['cards'])}",
    "HandMucked": lambda d: f"Seat {d['seat']} mucks",
    "PotAwarded": lambda d: f"Pot {d['pot'] + 1}: {_usd(d['amount'])} to seat {d['seat']}"
                            + ("" if d.get("share") in (None, "whole")
                               else f" ({d['share']} share)"),
    "HandCompleted": _completed,
    "CardDiscarded": lambda d: f"Card {_codes(d['card'])} taken out of play: "
                               f"{d.get('reason')}",
    "ExposedCardReplaced": lambda d: f"Seat {d['seat']}'s exposed {_codes(d['card'])} "
                                     f"replaced by {_codes(d['replacement'])} (637a.18(p))",
    "ThirdHoleCardExposed": lambda d: f"Seat {d['seat']}'s last card {_codes(d['card'])} "
                                      "turned face up; the player "
                                      + ("stops betting and contends for the pot as it "
                                         "stands (637a.18(m)(1))"
                                         if d.get("choice") == "pot_so_far"
                                         else "plays on for the entire pot (637a.18(m)(2))"),
    "PlayerHandVoided": lambda d: f"Seat {d['seat']}'s hand void, {_usd(d['returned'])} "
                                  f"returned ({d.get('rule')})",
    "CardsNotInView": lambda d: f"Seat {d['seat']}'s cards not kept in full view of the "
                                "dealer (637a.18(d))",
    "HandFouled": lambda d: f"Seat {d['seat']}'s {_FOULED_HOW.get(d['how'], d['how'])}, "
                            + _FOULED_OUTCOME[d["outcome"]](d) + f" ({d.get('rule')})",
    "MisdealDeclared": lambda d: f"Misdeal (637a.18(g)): {d.get('reason')}",
    "HandVoided": lambda d: f"Hand void (637a.18(i)): {d.get('reason')}",
    "BurnCardsReshuffled": lambda d: "The burn cards reshuffled to finish the deal",
    "DiscardsReshuffled": lambda d: "The discards reshuffled to finish the draw",
    "FloorRuling": lambda d: f"Floor ruling: {d.get('ruling')}",
    "JackpotContributed": lambda d: f"{_usd(d['amount_cents'])} recorded for the "
                                    f"{d.get('fund')} fund",
    "BadBeatQualified": lambda d: "The hand met the posted Bad Beat rules, for the poker "
                                  "shift supervisor to verify (637a.15(f))",
    "RoundClosed": lambda d: "Hand closed",
}


def _words(type_: str, data: Mapping[str, Any]) -> str:
    """The event in plain words; an event this list does not know by its type's words
    (a record is never left out of the history for want of a sentence)."""
    say = _WORDS.get(type_)
    try:
        if say is not None:
            return say(data)
    except (KeyError, TypeError, ValueError, IndexError):
        pass  # an older event's shape: its type still says what happened
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type_).capitalize()


def _step(e: RecordedEvent, over: bool) -> dict[str, Any]:
    """One recorded event: when, who recorded it under which role, in words, its data."""
    data = e.data if e.type in ROUND_EVENTS else event_data(e.type, e.data, hand_over=over,
                                                             audience=AUDIT)
    meta = e.metadata or {}
    return {"version": e.version, "at": e.recorded_at.isoformat(), "type": e.type,
            "actor": meta.get("actor"), "role": meta.get("role"),
            "credential_number": meta.get("credential_number"),
            "text": _words(e.type, data), "data": data}


def hand_steps(*, actor: Actor, round_id: Any) -> dict[str, Any]:
    """637a.18(a): the hand as it happened, step by step, for whoever settles a dispute:
    every card once the hand is over; face-down cards hidden (``??``) while it is in
    progress (:mod:`poker_room.domain.visibility`)."""
    actor.require(*HISTORY_READERS)
    ph = hand_load(actor=actor, round_id=round_id)
    over = ph.closed or ph.hand.is_complete
    return {"round_id": str(ph.round_id), "number": ph.number,
            "table": {"id": str(ph.table.pk), "name": ph.table.name, "game": ph.table.game},
            "gaming_day": day_of(ph.events), "over": over,
            "steps": [_step(e, over) for e in ph.events]}


