"""The fairness record of a day on which a player was taken off the list (issue 24, item
9): the removal is a step with the player's place then and the reason, worked by hand.

The ``holdem`` fixture lists Ann Lee, Bob Stone and Cy Young in that order; the floor
takes Bob (position 2) off with the reason "went home": the record shows B.S. removed
from position 2, and Cy is at 2 after it."""

from __future__ import annotations

from typing import Any

import pytest

from poker_floor import fairness
from poker_floor.services.lists import player_delist
from tests.console.conftest import client_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _removed(holdem: Any) -> dict[str, Any]:
    f = holdem.floor
    ann, bob, cy = holdem.entries
    player_delist(actor=f["floor"], waitlist_id=holdem.waitlist.pk, entry_id=bob.pk,
                  reason="went home")
    return fairness.fairness_record(holdem.waitlist, f["compliance"].gaming_day(),
                                    actor=f["compliance"])


def test_a_player_taken_off_the_list_is_a_step_with_the_place_and_the_reason(holdem) -> None:
    steps = _removed(holdem)["steps"]
    removed = steps[-1]
    assert (removed.kind, removed.player.initials, removed.player.position,
            removed.reason) == ("removed", "B.S.", 2, "went home")
    assert removed.text == "B.S. removed from the list from position 2 (went home)."


def test_the_fairness_api_answers_a_day_with_a_removal(holdem) -> None:
    _removed(holdem)
    f = holdem.floor
    answer = client_of(f["compliance"]).get(
        f"/api/v1/waitlists/{holdem.waitlist.pk}/fairness/",
        {"day": f["compliance"].gaming_day().isoformat()})
    assert answer.status_code == 200
