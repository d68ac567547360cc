"""The jackpots' fixtures: the poker room's (a poker table with its Rules Submission in
effect and two decks), made through the real services."""

from __future__ import annotations

from tests.poker_room.conftest import as_actor, poker_table  # noqa: F401
from tests.tables.conftest import (  # noqa: F401  the tables fixtures, shared
    crew,
    open_table,
    put_rules_in_effect,
    staff,
)
