"""Finance's fixtures: the tables' (crew, open tables with rules in effect) and a finance
crew of the roles a table's gaming day needs, each a different person."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.poker_room.conftest import as_actor, poker_table  # noqa: F401
from tests.tables.conftest import (  # noqa: F401  the tables fixtures, shared
    crew,
    deck_in_play,
    open_table,
    put_rules_in_effect,
    ready_deck,
    staff,
)


@pytest.fixture
def team(crew: dict[str, Any], staff: Callable[..., Any]) -> dict[str, Any]:
    """The crew (its dealer and floorperson work the tables) and the cage, the runners,
    the count team, finance and compliance."""
    return {**crew, "cashier": staff("cashier"), "runner": staff("security"),
            "counter": staff("count_team"), "counter2": staff("count_team"),
            "finance": staff("finance"), "finance2": staff("finance"),
            "auditor": staff("compliance")}
