"""Refusals of the poker engine, each with a stable ``code``.

A command the engine refuses raises one of these before anything changes, so the hand's
state is exactly what it was (the house rule for every domain state machine).
"""

from __future__ import annotations

from casino.domain.errors import ConflictError, DomainError


class PokerError(DomainError):
    code = "invalid_action"


class PHHError(PokerError):
    """A PHH hand history the replay cannot read."""

    code = "invalid_phh"


class PHHCannotExpress(ConflictError):
    """A hand PHH has no way to write so that it replays (its record stands; only the
    export is refused)."""

    code = "phh_cannot_express"


class InvalidAction(PokerError):
    """The action is not one the game allows here (e.g. a check facing a bet)."""

    code = "invalid_action"


class NotYourTurn(ConflictError):
    """Only the player whose turn it is may act (637a.8(c))."""

    code = "not_your_turn"


class HandComplete(ConflictError):
    code = "hand_complete"


class BetBelowMinimum(PokerError):
    code = "bet_below_minimum"


class BetAboveLimit(PokerError):
    code = "bet_above_limit"


class RaiseCapReached(PokerError):
    """The posted maximum number of raises for the round has been made (637a.8(k))."""

    code = "raise_cap_reached"


class CardNotInDeck(PokerError):
    code = "card_not_in_deck"


class CardAlreadyDealt(PokerError):
    code = "card_already_dealt"


class InsufficientStakes(PokerError):
    """A player without the forced bets and one minimum bet on the table (637a.8(b)(4))."""

    code = "insufficient_table_stakes"


class InvalidRules(DomainError):
    """A table-rules field is missing or out of range; ``field`` names it."""

    code = "invalid_rules"
