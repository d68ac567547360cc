"""What a person may see of a poker hand (DESIGN §2: a domain rule, as for banked rounds).

The dealer terminal sees what the table sees: up cards, the board, the bets, shown hands.
Face-down cards (hole cards, draws, discards, burns) and the deck's recorded order are
hidden (``None``) until the hand is over; then the audit roles (compliance, finance) see
every card, as the hand history does. 637a.18(d)-(e): hands are shown at a showdown, a
losing hand may be discarded unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TERMINAL, AUDIT = "terminal", "audit"


def _hide_per_seat(cards: list, kinds: list[str], exposed: list | None = None) -> list:
    """Each seat's cards with the face-down ones hidden. A hole card turned face up in the
    deal is shown, and the card dealt in its place face down is hidden (637a.18(m)-(n))."""
    turned = {seat: hole for seat, hole in exposed or () if len(hole) == 1}
    out = []
    for seat, cs in cards:
        shown = [c if kinds[r] == "up" else None for r, c in enumerate(cs)]
        if seat in turned:
            shown = [c if c in turned[seat] else None for c in cs]
        out.append([seat, shown])
    return out


def event_data(type_: str, data: Mapping[str, Any], *, hand_over: bool, audience: str
               ) -> dict[str, Any]:
    """``data`` of one hand event as ``audience`` may see it."""
    d = dict(data)
    if audience == AUDIT and hand_over:
        return d
    if type_ == "HandStarted":
        d["deck"] = None if d.get("deck") is None else "recorded"
    elif type_ == "CardsDealt":
        d["cards"] = _hide_per_seat(d["cards"], d["kinds"], d.get("exposed"))
        d["burn"] = None
    elif type_ == "PlayerDrew":
        d["cards"] = [None] * len(d["cards"])
        d["discarded"] = [None] * len(d["discarded"])
    elif type_ == "PlayerDiscarded":
        d["cards"] = [None] * len(d["cards"])
    elif type_ in ("BoardDealt", "CommonCardDealt"):
        d["burn"] = None
    elif type_ == "CardBurned":
        d["card"] = None
    elif type_ in ("BurnCardsReshuffled", "DiscardsReshuffled"):
        d["cards"] = [None] * len(d["cards"])
    elif type_ == "ExposedCardReplaced":
        d["replacement"] = None
    return d


def seat_cards(down: list[int], up: list[int], *, hand_over: bool, audience: str
               ) -> dict[str, Any]:
    """A seat's cards in a state view: up cards always, down cards counted only."""
    if audience == AUDIT and hand_over:
        return {"down": list(down), "up": list(up)}
    return {"down": [None] * len(down), "up": list(up)}
