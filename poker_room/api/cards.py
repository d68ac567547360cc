"""Cards at the API boundary: a terminal writes and reads card codes (``As``, ``Td``); the
engine holds card numbers. One place converts both ways, for commands and for views."""

from __future__ import annotations

from typing import Any

from casino.domain.cards import CardError, format_card, parse_card
from poker_room.domain.errors import CardNotInDeck

#: the keys of a command or an event that hold cards
CARD_KEYS = frozenset({"cards", "card", "burn", "discard", "discarded", "replacement",
                       "exposed", "board", "deck", "common", "down", "up"})


def _card_in(value: Any, field: str) -> Any:
    if isinstance(value, str):
        try:
            return parse_card(value)
        except CardError as exc:
            raise CardNotInDeck(str(exc), field=field) from None
    return value  # the engine says why anything else is not a card


def cards_in(value: Any, field: str = "cards") -> Any:
    """Card codes in any nesting (a list, a seat → cards map, ``{"common": c}``) to
    numbers; what is not a card code is left for the engine to refuse."""
    if isinstance(value, list):
        return [cards_in(v, f"{field}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: cards_in(v, f"{field}.{k}") for k, v in value.items()}
    return _card_in(value, field)


def command_in(command: Any) -> Any:
    """A terminal's command with its cards as the engine takes them."""
    if not isinstance(command, dict):
        return command
    return {k: cards_in(v, k) if k in CARD_KEYS else v for k, v in command.items()}


def card_out(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
        return format_card(value)
    return value


def cards_out(value: Any, key: str | None = None) -> Any:
    """An event's or a view's data with every card as its code (hidden cards stay None)."""
    if isinstance(value, dict):
        return {k: cards_out(v, k) for k, v in value.items()}
    if key in CARD_KEYS:
        return _codes(value)
    if isinstance(value, list):
        return [cards_out(v, key) for v in value]
    return value


def _is_seat_pair(value: Any) -> bool:
    """``[seat, [cards]]``: how the engine lists each seat's cards (CardsDealt)."""
    return (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)
            and isinstance(value[1], list))


def _codes(value: Any) -> Any:
    if _is_seat_pair(value):
        return [value[0], _codes(value[1])]
    if isinstance(value, list):
        return [_codes(v) for v in value]
    if isinstance(value, dict):
        return {k: _codes(v) for k, v in value.items()}
    return card_out(value)
