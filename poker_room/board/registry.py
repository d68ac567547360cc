"""What the room board shows beside its tables that a higher app keeps: the poker floor's
lists (waitlists and interest lists). The floor fills this in its ``AppConfig.ready()``
(DESIGN §2: a lower app learns of a higher one through a registry, never an import).

A provider takes the property and gives its lists as the board shows them, for everyone
in the room: ``{"id", "name", "game", "kind": "waitlist" | "interest", "length",
"initials": [...]}`` — initials only, never a name, phone or e-mail (637a.9(c) lets the
room announce its games; it names no player)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from casino.models import Property

ListsProvider = Callable[[Property], list[dict[str, Any]]]

_lists: list[ListsProvider] = []


def register_lists(provider: ListsProvider) -> None:
    """Show ``provider``'s lists on the room board (registering it twice is a no-op, so
    ``ready()`` may run more than once)."""
    if provider not in _lists:
        _lists.append(provider)


def board_lists(prop: Property) -> list[dict[str, Any]]:
    """Every registered provider's lists for ``prop``, in the order registered."""
    out: list[dict[str, Any]] = []
    for provider in _lists:
        out.extend(provider(prop))
    return out
