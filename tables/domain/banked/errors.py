"""Refusals of a house-banked round, each with a stable ``code``.

Two kinds, so the API can answer 400 or 409 without knowing the rule:

* :class:`RoundInputError` (400) — the command itself is wrong whatever the state: a Bet
  that is not twice the Ante, a card that is not a card, an exchange of one card.
* :class:`RoundStateError` (409) — the command is well formed but the round is not at a
  point where it is allowed: a wager after "no more bets", a draw out of turn, locking
  while a player has not decided.

Card errors of :mod:`casino.domain.cards` (``invalid_card``, ``duplicate_card``,
``wrong_card_count``) pass through unchanged; they are DomainErrors already.
"""

from __future__ import annotations

from casino.domain.errors import ConflictError, DomainError


class RoundInputError(DomainError):
    """A command the chapter refuses whatever the state of the round (HTTP 400)."""

    code = "invalid_round_command"


class RoundStateError(ConflictError):
    """A command the round refuses at this point of play (HTTP 409)."""

    code = "round_state_conflict"


def bad(code: str, message: str, field: str | None = None) -> RoundInputError:
    return RoundInputError(message, code=code, field=field)


def conflict(code: str, message: str, field: str | None = None) -> RoundStateError:
    return RoundStateError(message, code=code, field=field)
