"""One round of play of any chapter 637a game, as an event-sourced state machine.

Create a hand with :meth:`Hand.start`; drive it with commands (:meth:`Hand.act`,
:meth:`Hand.draw`, :meth:`Hand.discard`, :meth:`Hand.deal`, :meth:`Hand.misdeal`,
:meth:`Hand.void`, or :meth:`Hand.execute` with a command dict). Every command is checked
in full first; a refused command raises a :mod:`poker_room.domain.errors` error and changes
nothing. An accepted command yields events (``{"type": ..., "data": {...}}``, JSON-ready,
amounts in integer cents), each applied by :meth:`Hand.apply` — the only code that changes
the state — and appended to :attr:`Hand.events`. :meth:`Hand.from_events` rebuilds a hand
from its events alone (the events are the record, DESIGN.md §2).

Cards come either from a ``deck`` given at the start (the shuffled order, top card first:
the engine deals, burns and reshuffles itself and records every card) or, without a
deck, from the dealer: the hand stops at each deal and :meth:`Hand.deal` supplies the
cards, which must be real cards not already out (``card_not_in_deck``,
``card_already_dealt``).

Seats are the table's seat numbers, numbered clockwise from the dealer's left, so the
lowest seat is "the first player to the dealer's left" (637a.10(c)) and the seat after the
button is the one "to the immediate left of the button" (637a.11(d)).

Where the hand's parts are: :mod:`.state` (construction, reads, the one way the state
changes), :mod:`.dealing` (the steps of a hand, cards and draws), :mod:`.betting`,
:mod:`.money` (rake and contributions), :mod:`.showdown` (showing, values, pots, odd
chips), :mod:`.irregularities` (637a.18(g)-(p)), :mod:`.conduct` (637a.18(d), (k)),
:mod:`.forced_bets`, :mod:`.constants`.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from poker_room.domain.hand import state as _state
from poker_room.domain.hand.betting import BettingMixin
from poker_room.domain.hand.conduct import ConductMixin
from poker_room.domain.hand.constants import (
    BET,
    BETTING,
    BRING_IN,
    CALL,
    CHECK,
    COMPLETE,
    COMPLETE_PHASE,
    DEALING,
    DISCARD_REASONS,
    DISCARDING,
    DRAWING,
    ENTIRE_POT,
    EXPOSURE_CHOICES,
    FOLD,
    FORCED,
    MISDEAL_REASONS,
    POT_SO_FAR,
    RAISE,
)
from poker_room.domain.hand.dealing import DealingMixin
from poker_room.domain.hand.irregularities import IrregularitiesMixin
from poker_room.domain.hand.money import MoneyMixin
from poker_room.domain.hand.showdown import ShowdownMixin
from poker_room.domain.hand.state import HandState

__all__ = ["Hand", "decide", "evolve", "FOLD", "CHECK", "CALL", "BET", "RAISE", "BRING_IN",
           "COMPLETE", "BETTING", "DRAWING", "DISCARDING", "DEALING", "FORCED",
           "COMPLETE_PHASE", "MISDEAL_REASONS", "DISCARD_REASONS", "POT_SO_FAR",
           "ENTIRE_POT", "EXPOSURE_CHOICES"]


class Hand(ConductMixin, IrregularitiesMixin, ShowdownMixin, MoneyMixin, BettingMixin,
           DealingMixin, HandState):
    """The state of one hand. Build with :meth:`start` or :meth:`from_events`."""


_state._HANDLERS.update({name[4:]: getattr(Hand, name) for name in dir(Hand)
                         if name.startswith("_on_")})
#: the commands :meth:`Hand.execute` runs, by ``type``
_state._COMMANDS.update({name: inspect.signature(getattr(Hand, name)) for name in (
    "act", "draw", "discard", "deal", "misdeal", "void", "card_discard",
    "hole_card_exposed", "cards_not_in_view", "hand_fouled")})


def decide(hand: Hand, command: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The events ``command`` would produce, leaving ``hand`` untouched (house pattern
    ``decide(state, command) -> events``). Works on a copy rebuilt from the events."""
    copy = Hand.from_events(hand.events)
    copy._rng = hand._rng
    return copy.execute(command)


def evolve(hand: Hand, event: Mapping[str, Any]) -> Hand:
    """Apply one event to the hand (house pattern ``evolve(state, event) -> state``)."""
    return hand.apply(event)
