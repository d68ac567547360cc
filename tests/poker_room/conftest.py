"""Fixtures for the poker room: the tables app's staff, rules and tables (reused), and a
poker table with its two decks in play, all made through the real services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from casino.actors import Actor
from poker_room.demo import jackpot_boxes_ready
from tables.demo import deck_ready
from tests.tables.conftest import (  # noqa: F401  the tables fixtures, shared
    crew,
    open_table,
    put_rules_in_effect,
    staff,
)


@pytest.fixture
def as_actor() -> Callable[[Actor], APIClient]:
    """An API client logged in as ``actor``."""
    def make(actor: Actor) -> APIClient:
        client = APIClient()
        client.force_authenticate(get_user_model().objects.get(pk=actor.user_id))
        return client
    return make


@pytest.fixture
def poker_table(crew: dict[str, Actor], open_table: Callable, put_rules_in_effect: Callable
                ) -> Callable[..., dict[str, Any]]:
    """``poker_table("holdem", **option_changes)`` → {"table", "decks"}: an open table
    with its Rules Submission in effect (the example options with the changes), two
    decks in play (637a.3(a)) and a jackpot box registered for each fund its rules pay
    into (637a.2(e); ``jackpot_boxes=False``: none)."""
    def make(game: str, jackpot_boxes: bool = True, **changes: Any) -> dict[str, Any]:
        table = open_table(game)
        if changes:
            put_rules_in_effect(game, **changes)
        decks = [deck_ready(table, crew["dealer"], crew["floor"], colour, batch=colour)
                 for colour in ("red", "blue")]
        if jackpot_boxes:
            jackpot_boxes_ready(table, crew["floor"])
        return {"table": table, "decks": decks}
    return make
