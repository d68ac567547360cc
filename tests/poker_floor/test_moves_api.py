"""The moving commands through the API (poker_floor.move_commands): made from their
declarations, answered with the read of what was done, refused with the code and
nothing appended."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.poker_floor._helpers import event_count

pytestmark = pytest.mark.django_db


def test_a_table_change_is_asked_through_the_api(floor: Any, holdem: SimpleNamespace,
                                                 as_actor: Any) -> None:
    t1 = holdem.tables[0]

    r = as_actor(floor["floor"]).post(
        f"/api/v1/waitlists/{holdem.waitlist.pk}/table-changes/",
        {"table_id": str(t1.pk), "seat": 3}, format="json")

    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["kind"], body["from_table"], body["from_seat"]) == ("change", str(t1.pk), 3)
    assert body["name"] == f"seat 3 at {t1.name}"


def test_a_dealer_may_not_ask_for_a_table_change(floor: Any, holdem: SimpleNamespace,
                                                 as_actor: Any) -> None:
    before = event_count()

    r = as_actor(floor["dealer"]).post(
        f"/api/v1/waitlists/{holdem.waitlist.pk}/table-changes/",
        {"table_id": str(holdem.tables[0].pk), "seat": 3}, format="json")

    assert r.status_code == 403
    assert event_count() == before


def test_a_must_move_to_a_full_table_is_a_problem_with_its_code(
        floor: Any, holdem: SimpleNamespace, as_actor: Any) -> None:
    t1, t2 = holdem.tables
    client = as_actor(floor["supervisor"])
    r = client.post(f"/api/v1/waitlists/{holdem.waitlist.pk}/must-move/",
                    {"main_table_id": str(t1.pk), "feeder_table_ids": [str(t2.pk)]},
                    format="json")
    assert r.status_code == 200, r.content
    assert r.json()["main_table"] == str(t1.pk)
    floor.seat(t1, 9)
    before = event_count()

    r = client.post(f"/api/v1/waitlists/{holdem.waitlist.pk}/must-move/move/",
                    {"to_seat": 9}, format="json")

    assert r.status_code == 409
    assert r.json()["code"] == "must_move_table_full"
    assert event_count() == before


def test_breaking_a_table_answers_the_draw(floor: Any, holdem: SimpleNamespace,
                                          as_actor: Any) -> None:
    """Every seat of table 1 but seat 9 taken, and table 2 likewise: one of table 1's
    players moves to table 2's seat 9, the rest are listed first."""
    from poker_room.models import Seat

    t1, t2 = holdem.tables
    players = Seat.objects.filter(table_id=t1.pk).count()

    r = as_actor(floor["floor"]).post(f"/api/v1/waitlists/{holdem.waitlist.pk}/break-by-lot/",
                                      {"table_id": str(t1.pk)}, format="json")

    assert r.status_code == 200, r.content
    body = r.json()
    assert [(m["to_table"], m["to_seat"]) for m in body["draw"]] == [(str(t2.pk), 9)]
    assert len(body["listed"]) == players - 1
