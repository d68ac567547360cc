"""The facts a house-banked round records, and :func:`evolve`, which applies one fact.

An event is a plain JSON-ready dict ``{"type": ..., "data": {...}}``; money is integer
cents, cards are card numbers 0..51 (:mod:`casino.domain.cards`). ``evolve`` never
decides anything: it applies what the event says, so replaying a round's events gives the
same state every time (:func:`rebuild`).

Event types (CamelCase, the event store's house style, DESIGN §3) and their data.
``RoundOpened`` is the same event the round gate (tables.services.rounds) appends:

=======================  ===========================================================
RoundOpened              round_id, game, options (canonical), max_positions; from the
                         round gate also dealing_method and shuffler (the table's)
WagerPlaced              position, wager, amount, player
WagerWithdrawn           position, wager
NoMoreBets               (nothing)
CardFoundFaceUp          card, cite — x.13(a): not used this round
IrregularityRecorded     kind, cite, action — no effect on wagers (shuffler jam)
CardDrawnInError         card, cite — x.13(b): used as the next card dealt or drawn
CardsDealt               mode, method, hands {"1": [5 cards]...}, dealer, dealer_up_card,
                         deck (dealt mode), next_card; at a table whose dealing method the
                         round knows: dealing_method, and from a manual shoe placed_by
                         ("dealer" | "shuffler", x.8(a)) and card_hand
                         ("closest_to_shoe", 579.8(c), 589.8(b), 671a.8(b))
StubCounted              cards (in the stub), deck_cards (stub + cards out), correct, cite
StubDiscarded            cite — the stub in the discard rack, cards not exposed
CardsToDiscardRack       position, cards, cite — 579.11(c), (i), (k)
HandDeclared             position, declaration ("instant" | "super"), hand
DecisionMade             position, decision, wager and amount when it puts money down
HandsSet                 position, high, low, high_total, low_total (579.11(d))
DecisionsLocked          (nothing) — "all decisions are locked in"
CardsDrawn               position, draw ("buy" | "exchange"), discard, cards, next_card
DealerRevealed           cards, hand, qualifies (Lunar)
DealerHandsSet           cards, high, low, high_total, low_total (579.11(e))
ForceOffered             positions — 589.11(e)(2): those who may force the dealer
DealerForced             positions — 589.11(e)(2)(ii): those who did
DealerCardReplaced       discard, card, hand, qualifies, next_card
WagerSettled             position, wager, outcome, returned, why, cite
WagersAbandoned          position, cite — 589.7(b)
RoundVoided              reason, cite, lines [{position, wager, wagered}], deck_removed
RoundClosed              wagered, returned, house_win, void
=======================  ===========================================================

``WagerSettled.returned`` is what that one payout hands back. Outcomes ``won``,
``lost``, ``push``, ``instant_payout``, ``forfeited``, ``abandoned`` and ``collected``
(an Options fee) decide a line;
``second_combination`` (589.11(e)(1)(ii), 671a.11(f)(2)(ii)) and ``ante_bonus``
(579.11(h)) add a further payout to a line already decided.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tables.domain.banked.state import Phase, Position, RoundState, amend

Event = dict[str, Any]

#: outcomes that pay more on a line without deciding it
EXTRA_PAYOUTS = frozenset({"second_combination", "ante_bonus"})


# --- applying one event ---------------------------------------------------------------

_EMPTY = Position(number=0)


def _pos(state: RoundState, n: int) -> Position:
    return state.positions.get(n) or amend(_EMPTY, number=n)


def _with_position(state: RoundState, p: Position, **changes: Any) -> RoundState:
    return amend(state, positions={**state.positions, p.number: amend(p, **changes)})


def _opened(s: RoundState, d: dict) -> RoundState:
    return RoundState(phase=Phase.BETTING, round_id=d["round_id"], game=d["game"],
                      options=d["options"], max_positions=d["max_positions"],
                      dealing_method=d.get("dealing_method"), shuffler=d.get("shuffler"))


def _wager_placed(s: RoundState, d: dict) -> RoundState:
    p = _pos(s, d["position"])
    player = d["player"] if d["player"] is not None else p.player
    return _with_position(s, p, player=player,
                          wagered={**p.wagered, d["wager"]: d["amount"]})


def _wager_withdrawn(s: RoundState, d: dict) -> RoundState:
    p = s.positions[d["position"]]
    wagered = {k: v for k, v in p.wagered.items() if k != d["wager"]}
    if not wagered:  # an empty position is no longer anyone's
        return amend(s, positions={n: q for n, q in s.positions.items() if n != p.number})
    return _with_position(s, p, wagered=wagered)


def _no_more_bets(s: RoundState, d: dict) -> RoundState:
    return amend(s, phase=Phase.DEALING)


def _face_up(s: RoundState, d: dict) -> RoundState:
    return amend(s, face_up_found=(*s.face_up_found, d["card"]))


def _noted(s: RoundState, d: dict) -> RoundState:
    return s


def _drawn_in_error(s: RoundState, d: dict) -> RoundState:
    return amend(s, drawn_in_error=(*s.drawn_in_error, d["card"]))


def _used(pending: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """x.13(b): the cards drawn in error still to be used once ``cards`` came out."""
    gone = set(cards)
    return tuple(c for c in pending if c not in gone)


def _stub_counted(s: RoundState, d: dict) -> RoundState:
    return amend(s, stub_count=d["cards"])


def _stub_discarded(s: RoundState, d: dict) -> RoundState:
    return amend(s, stub="discarded")


def _dealt(s: RoundState, d: dict) -> RoundState:
    positions = dict(s.positions)
    for key, cards in d["hands"].items():
        p = positions[int(key)]
        positions[p.number] = amend(p, dealt=tuple(cards), cards=tuple(cards))
    every = [c for h in d["hands"].values() for c in h] + list(d["dealer"])
    return amend(s, phase=Phase.DECISIONS, positions=positions, mode=d["mode"],
                 drawn_in_error=_used(s.drawn_in_error, every),
                 method=d.get("method"), deck=tuple(d.get("deck") or ()),
                 next_card=d.get("next_card", 0), dealer_cards=tuple(d["dealer"]),
                 dealer_up=d.get("dealer_up_card"))


def _declared(s: RoundState, d: dict) -> RoundState:
    p = s.positions[d["position"]]
    changes: dict[str, Any] = {"declared": p.declared | {d["declaration"]}}
    if d["declaration"] == "instant":  # 589.11(b)(2): the declaration is the decision
        changes["decision"] = "instant"
    return _with_position(s, p, **changes)


def _decision(s: RoundState, d: dict) -> RoundState:
    p = s.positions[d["position"]]
    decision = d["decision"]
    changes: dict[str, Any] = {}
    if d.get("wager"):
        changes["wagered"] = {**p.wagered, d["wager"]: d["amount"]}
    if decision in ("force_dealer", "no_force"):
        changes["force"] = decision == "force_dealer"
    elif p.decision is None:
        changes["decision"] = decision
    else:  # the decision after a draw (589.11(d)(2)(iii), 671a.11(d)(3))
        changes["final"] = decision
    return _with_position(s, p, **changes)


def _hands_set(s: RoundState, d: dict) -> RoundState:
    p = s.positions[d["position"]]
    return _with_position(s, p, setting=(tuple(d["high"]), tuple(d["low"])),
                          totals=(d["high_total"], d["low_total"]))


def _locked(s: RoundState, d: dict) -> RoundState:
    return amend(s, phase=Phase.DRAWING if s.lunar else Phase.SHOWDOWN)


def _drawn(s: RoundState, d: dict) -> RoundState:
    p = s.positions[d["position"]]
    gone = set(d["discard"])
    cards = tuple(c for c in p.cards if c not in gone) + tuple(d["cards"])
    s = _with_position(s, p, cards=cards, discards=p.discards + tuple(d["discard"]),
                       drawn=True)
    return amend(s, next_card=d.get("next_card", s.next_card),
                 drawn_in_error=_used(s.drawn_in_error, d["cards"]))


def _revealed(s: RoundState, d: dict) -> RoundState:
    return amend(s, phase=Phase.SHOWDOWN)


def _force_offered(s: RoundState, d: dict) -> RoundState:
    return amend(s, phase=Phase.FORCING)


def _forced(s: RoundState, d: dict) -> RoundState:
    return amend(s, phase=Phase.DEALER_DRAW, forcers=tuple(d["positions"]))


def _replaced(s: RoundState, d: dict) -> RoundState:
    cards = tuple(d["card"] if c == d["discard"] else c for c in s.dealer_cards)
    return amend(s, phase=Phase.SHOWDOWN, dealer_cards=cards, dealer_discard=d["discard"],
                 next_card=d.get("next_card", s.next_card),
                 drawn_in_error=_used(s.drawn_in_error, [d["card"]]))


def _settled(s: RoundState, d: dict) -> RoundState:
    p = s.positions[d["position"]]
    w = d["wager"]
    settled = p.settled if d["outcome"] in EXTRA_PAYOUTS else p.settled | {w}
    return _with_position(s, p, returned={**p.returned, w: p.returned.get(w, 0) + d["returned"]},
                          settled=settled)


def _abandoned(s: RoundState, d: dict) -> RoundState:
    return _with_position(s, s.positions[d["position"]], abandoned=True)


def _voided(s: RoundState, d: dict) -> RoundState:
    # x.13: "all wagers shall be returned" — every line, whatever was settled before
    positions = {n: amend(p, returned=dict(p.wagered), settled=frozenset(p.wagered))
                 for n, p in s.positions.items()}
    return amend(s, positions=positions, void={"reason": d["reason"], "cite": d["cite"]})


def _closed(s: RoundState, d: dict) -> RoundState:
    return amend(s, phase=Phase.CLOSED,
                 totals={"wagered": d["wagered"], "returned": d["returned"],
                         "house_win": d["house_win"]})


_APPLY: dict[str, Callable[[RoundState, dict], RoundState]] = {
    "RoundOpened": _opened,
    "WagerPlaced": _wager_placed,
    "WagerWithdrawn": _wager_withdrawn,
    "NoMoreBets": _no_more_bets,
    "CardFoundFaceUp": _face_up,
    "IrregularityRecorded": _noted,
    "CardDrawnInError": _drawn_in_error,
    "CardsDealt": _dealt,
    "StubCounted": _stub_counted,
    "StubDiscarded": _stub_discarded,
    "CardsToDiscardRack": _noted,
    "HandDeclared": _declared,
    "DecisionMade": _decision,
    "HandsSet": _hands_set,
    "DecisionsLocked": _locked,
    "CardsDrawn": _drawn,
    "DealerRevealed": _revealed,
    "DealerHandsSet": _noted,
    "ForceOffered": _force_offered,
    "DealerForced": _forced,
    "DealerCardReplaced": _replaced,
    "WagerSettled": _settled,
    "WagersAbandoned": _abandoned,
    "RoundVoided": _voided,
    "RoundClosed": _closed,
}

EVENT_TYPES = tuple(_APPLY)


def evolve(state: RoundState | None, ev: Event) -> RoundState:
    """The state after ``ev``. ``state`` None is a round not yet opened."""
    try:
        apply = _APPLY[ev["type"]]
    except KeyError:
        raise ValueError(f"unknown round event type {ev.get('type')!r}") from None
    return apply(state if state is not None else RoundState(), ev["data"])


def rebuild(events: Iterable[Event]) -> RoundState:
    """The state a round's events lead to, from the first event."""
    state = RoundState()
    for ev in events:
        state = evolve(state, ev)
    return state


class Recorder:
    """Collects the events one command produces, applying each as it goes, so a command
    that runs several steps of the procedure sees the state after each step."""

    __slots__ = ("events", "state")

    def __init__(self, state: RoundState):
        self.state = state
        self.events: list[Event] = []

    def emit(self, type_: str, **data: Any) -> Event:
        ev = {"type": type_, "data": data}
        self.state = _APPLY[type_](self.state, data)
        self.events.append(ev)
        return ev
