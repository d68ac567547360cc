"""The estimated wait read from the events (poker_floor.wait): which events of which
streams it counts, over which window, in how many queries, through which index. The clock
is set (time_machine) so that the window's minutes are worked by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection

from poker_floor.domain.wait import Turnover
from poker_floor.services.calls import call_seat
from poker_floor.wait import estimated_waits, measure, window_events
from poker_room.services.seats import player_remove
from tests.poker_floor._helpers import Floor, event_count

#: the tables open at nine; the default window is three hours
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.fixture
def clock() -> Any:
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def game(floor: Floor, clock: Any) -> Any:
    """Two Hold'em tables open at T0, six players at each, and the Hold'em list."""
    tables = floor.tables(2)
    for table in tables:
        for seat in range(1, 7):
            floor.seat(table, seat)
    return tables, floor.waitlist()


def test_leavings_and_removals_at_the_games_tables_are_openings(floor, clock, game):
    (t1, t2), wl = game
    other = floor.table("omaha-high")
    floor.seat(other, 1)
    clock.move_to(at(30))
    floor.leave(t1, 1)
    clock.move_to(at(60))
    floor.leave(t2, 1)
    clock.move_to(at(90))
    player_remove(actor=floor["floor"], table_id=t1.pk, seat=2, reason="soft play")
    floor.leave(other, 1)  # another game's table: not this list's
    clock.move_to(at(180))
    # two tables open the whole window (09:00-12:00): 360 table-minutes
    assert measure(wl) == Turnover(openings=3, table_minutes=360, tables_open=2)


def test_leavings_before_the_window_are_not_counted(floor, clock, game):
    (t1, t2), wl = game
    clock.move_to(at(30))
    floor.leave(t1, 1)
    clock.move_to(at(200))
    floor.leave(t2, 1)
    clock.move_to(at(240))
    # the window is 10:00-13:00: the 09:30 leaving is out of it
    assert measure(wl).openings == 1


def test_a_past_moment_is_measured_from_the_events_before_it(floor, clock, game):
    (t1, t2), wl = game
    clock.move_to(at(30))
    floor.leave(t1, 1)
    clock.move_to(at(90))
    floor.leave(t1, 2)
    floor.table_close(t2)
    clock.move_to(at(120))
    # at 10:00: one leaving (09:30), both tables open the hour since nine
    assert measure(wl, at(60)) == Turnover(openings=1, table_minutes=120, tables_open=2)


def test_a_table_closed_in_the_window_counts_until_it_closed(floor, clock, game):
    (t1, t2), wl = game
    clock.move_to(at(60))
    for seat in range(1, 7):
        floor.leave(t2, seat)
    floor.table_close(t2)
    clock.move_to(at(180))
    # t1 180 minutes, t2 60 minutes; one table open now
    assert measure(wl) == Turnover(openings=6, table_minutes=240, tables_open=1)


def test_a_must_move_is_one_opening_of_its_two_leavings(floor, clock, game):
    from poker_floor.services.moves import must_move, must_move_set

    (main, feeder), wl = game
    must_move_set(actor=floor["floor"], waitlist_id=wl.pk, main_table_id=main.pk,
                  feeder_table_ids=[feeder.pk])
    clock.move_to(at(30))
    floor.leave(main, 1)
    must_move(actor=floor["floor"], waitlist_id=wl.pk, to_seat=1)
    clock.move_to(at(60))
    # the main table's seat went to the feeder's player; the list gets the feeder's seat
    assert measure(wl).openings == 1


def test_a_table_change_called_from_the_list_is_two_openings(floor, clock, game):
    from poker_floor.services.calls import call_next
    from poker_floor.services.moves import table_change_request

    (t1, t2), wl = game
    table_change_request(actor=floor["floor"], waitlist_id=wl.pk, table_id=t2.pk, seat=6)
    clock.move_to(at(30))
    floor.leave(t1, 1)
    call = call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk, seat=1)
    call_seat(actor=floor["floor"], call_id=call.pk)
    clock.move_to(at(60))
    # t1's seat 1 went to the change, in line; t2's seat 6 it left goes to the next
    assert measure(wl).openings == 2


def test_a_broken_tables_seats_are_no_openings(floor, clock, game):
    from poker_floor.services.calls import call_next
    from poker_floor.services.moves import table_break_by_lot

    (t1, t2), wl = game
    clock.move_to(at(60))
    # t2's six players: three drawn to t1's vacant seats 7-9, three listed (first)
    table_break_by_lot(actor=floor["floor"], waitlist_id=wl.pk, table_id=t2.pk)
    clock.move_to(at(90))
    floor.leave(t1, 1)
    call = call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk, seat=1)
    call_seat(actor=floor["floor"], call_id=call.pk)
    clock.move_to(at(180))
    # one opening (t1's seat 1, which a broken table's player took); t2 open 60 minutes
    assert measure(wl) == Turnover(openings=1, table_minutes=240, tables_open=1)


def test_estimated_range_for_each_place(floor, clock, game, settings):
    settings.FLOOR_WAIT_MIN_OPENINGS = 2
    (t1, t2), wl = game
    for n, seat in enumerate((1, 2, 3)):
        clock.move_to(at(20 + 40 * n))
        floor.leave(t1, seat)
        floor.leave(t2, seat)
    clock.move_to(at(180))
    # 6 openings in 360 table-minutes, 2 tables open: 1/30 a minute. First in line:
    # -ln(0.8)·30 = 6.69 .. -ln(0.2)·30 = 48.28 → 7-48. Second: Erlang(2) at x = 0.8244
    # and 2.9943 (0.2 and 0.8), ·30 = 24.73 .. 89.83 → 25-90.
    assert estimated_waits(wl, places=2) == [
        {"position": 1, "low_minutes": 7, "high_minutes": 48},
        {"position": 2, "low_minutes": 25, "high_minutes": 90}]


def test_unknown_below_the_minimum_openings(floor, clock, game, settings):
    settings.FLOOR_WAIT_MIN_OPENINGS = 10
    (t1, t2), wl = game
    clock.move_to(at(30))
    for seat in range(1, 5):
        floor.leave(t1, seat)
        floor.leave(t2, seat)
    floor.leave(t1, 5)
    clock.move_to(at(60))
    floor.leave(t1, 6)
    assert estimated_waits(wl, at(45), places=2) == [None, None]   # 9 openings by then
    assert estimated_waits(wl, at(60), places=1) != [None]          # the 10th at 10:00


def test_unknown_for_an_interest_list(floor, clock, game, settings):
    settings.FLOOR_WAIT_MIN_OPENINGS = 2
    (t1, t2), wl = game
    clock.move_to(at(30))
    for table in (t1, t2):
        for seat in range(1, 7):
            floor.leave(table, seat)
        floor.table_close(table)
    assert estimated_waits(wl, places=1) == [None]


def test_each_waiting_player_on_the_list_has_a_range(floor, clock, game, settings):
    settings.FLOOR_WAIT_MIN_OPENINGS = 2
    (t1, t2), wl = game
    for seat in (1, 2, 3):
        floor.leave(t1, seat)
        floor.leave(t2, seat)
    floor.list_players(wl, "Ann Lee", "Bob Stone")
    clock.move_to(at(180))
    wl = floor.reload(wl)
    assert estimated_waits(wl) == [
        {"position": 1, "low_minutes": 7, "high_minutes": 48},
        {"position": 2, "low_minutes": 25, "high_minutes": 90}]


def test_a_called_player_has_no_range_and_is_not_ahead_of_the_rest(floor, clock, game,
                                                                   settings):
    from poker_floor.services.calls import call_next

    settings.FLOOR_WAIT_MIN_OPENINGS = 2
    (t1, t2), wl = game
    for seat in (1, 2, 3):
        floor.leave(t1, seat)
        floor.leave(t2, seat)
    floor.list_players(wl, "Ann Lee", "Bob Stone")
    call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk, seat=1)
    clock.move_to(at(180))
    wl = floor.reload(wl)
    assert estimated_waits(wl) == [
        None, {"position": 2, "low_minutes": 7, "high_minutes": 48}]


def test_the_estimate_reads_in_three_queries_and_appends_nothing(
        floor, clock, game, settings, django_assert_num_queries):
    settings.FLOOR_WAIT_MIN_OPENINGS = 2
    (t1, t2), wl = game
    for seat in (1, 2, 3):
        floor.leave(t1, seat)
    floor.list_players(wl, "Ann Lee", "Bob Stone", "Cy Young")
    wl = floor.reload(wl)
    before = event_count()
    # the game's tables, the window's events, the called entries
    with django_assert_num_queries(3):
        estimated_waits(wl)
    # the present's measure is reused: only the called entries are read again
    with django_assert_num_queries(1):
        estimated_waits(wl)
    assert event_count() == before


@pytest.mark.postgres
def test_the_window_is_read_through_the_partial_index(floor, game):
    (t1, _t2), wl = game
    streams = [f"table-{t1.pk}", f"poker_table-{t1.pk}", wl.stream_id]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    plan = window_events(streams, T0).explain()
    assert "casino_event_floor_wait" in plan
