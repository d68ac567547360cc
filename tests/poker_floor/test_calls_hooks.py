"""A seat that opens is offered to the list (issue 24, item 2): a player leaving a table
of a listed game, or the table opening, queues ``poker_floor.seats_offer`` once the
append commits (poker_floor.hooks); the tasks run eagerly here, in this process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from casino.celery import app
from poker_floor.models import Call, CallState

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager() -> Iterator[None]:
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


def _open_calls() -> list[tuple[str, int]]:
    return [(str(c.entry_id), c.seat) for c in
            Call.objects.filter(state=CallState.OPEN).order_by("called_at", "seat")]


def test_a_player_leaving_has_the_seat_offered_to_the_list(
        holdem, eager, django_capture_on_commit_callbacks) -> None:
    ann, bob, _cy = holdem.entries
    with django_capture_on_commit_callbacks(execute=True):
        holdem.floor.leave(holdem.tables[0], 3)
    # the table's vacant seats in order: 3 (just left) and 9 (vacant since the start)
    assert _open_calls() == [(str(ann.pk), 3), (str(bob.pk), 9)]


def test_a_table_opening_has_its_seats_offered(holdem, eager,
                                               django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        new = holdem.floor.table()
    assert [seat for _, seat in _open_calls()] == [1, 2, 3]
    assert {str(c.table) for c in Call.objects.all()} == {str(new.pk)}


def test_no_offer_without_auto_call(holdem, eager, settings,
                                    django_capture_on_commit_callbacks) -> None:
    settings.FLOOR_AUTO_CALL = False
    with django_capture_on_commit_callbacks(execute=True):
        holdem.floor.leave(holdem.tables[0], 3)
    assert _open_calls() == []


def test_a_game_without_a_list_queues_nothing(floor, eager,
                                              django_capture_on_commit_callbacks) -> None:
    t = floor.table()
    floor.seat(t, 1)
    with django_capture_on_commit_callbacks(execute=True) as done:
        floor.leave(t, 1)
    assert Call.objects.count() == 0
    # the append's own after-commit work only: no floor message was queued
    assert all("poker_floor" not in repr(c) for c in done)
