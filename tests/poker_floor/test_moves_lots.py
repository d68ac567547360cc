"""Table changes, and opening and breaking tables by lot (issue 24, items 3 and 4): a
table change is served before the list; opening a table calls the top of the list to
seats drawn by lot; breaking one seats its players by lot at the other tables of the game
and lists first those left without a seat. Every draw is recorded; every seat drawn is
distinct."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from casino.domain.errors import DomainError
from poker_floor.models import Call, CallState, EntryKind, ListEntry
from poker_floor.services.calls import call_next, call_seat
from poker_floor.services.moves import (
    table_break_by_lot,
    table_change_request,
    table_open_by_lot,
)
from poker_room.models import Seat
from tables.models import GameTable, TableStatus
from tests.poker_floor._helpers import event_count, list_events

pytestmark = pytest.mark.django_db


def order_of(floor: Any, waitlist: Any) -> list[str]:
    return floor.reload(waitlist).order


# --- table changes --------------------------------------------------------------------

def test_a_table_change_is_listed_before_the_list(floor: Any, holdem: SimpleNamespace) -> None:
    t1 = holdem.tables[0]

    entry = table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                                 table_id=t1.pk, seat=4)

    assert (entry.kind, entry.from_table, entry.from_seat) == (EntryKind.CHANGE, t1.pk, 4)
    assert order_of(floor, holdem.waitlist) == [str(entry.pk),
                                                *(str(e.pk) for e in holdem.entries)]
    assert entry.name == f"seat 4 at {t1.name}"  # an anonymous seat
    listed = list_events(holdem.waitlist)[-1]
    assert listed.type == "PlayerListed"
    assert t1.name not in str(listed.data["details"])  # sealed, never in clear


def test_a_named_seat_is_listed_by_the_seat_s_name(floor: Any) -> None:
    t1, _t2 = floor.tables(2)
    floor.seat(t1, 2, "Lou Park", "201-555-0123")
    wl = floor.waitlist()

    entry = table_change_request(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk,
                                 seat=2)

    assert (entry.name, entry.phone, entry.initials) == ("Lou Park", "+12015550123", "L.P.")


def test_a_table_change_is_served_before_the_list(floor: Any, holdem: SimpleNamespace) -> None:
    """A seat opens at table 2: the table change from table 1 is called to it (not Ann Lee,
    first on the list), and taking it moves the player with the stakes."""
    t1, t2 = holdem.tables
    change = table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                                  table_id=t1.pk, seat=4)

    call = call_next(actor=floor["floor"], waitlist_id=holdem.waitlist.pk, table_id=t2.pk,
                     seat=9)
    call_seat(actor=floor["floor"], call_id=call.pk)

    assert call.entry_id == change.pk
    assert not Seat.objects.filter(table_id=t1.pk, seat=4).exists()
    assert Seat.objects.get(table_id=t2.pk, seat=9).stack_cents == 4000


def test_a_table_change_is_never_offered_its_own_table(floor: Any,
                                                      holdem: SimpleNamespace) -> None:
    t1 = holdem.tables[0]
    table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                         table_id=t1.pk, seat=4)

    call = call_next(actor=floor["floor"], waitlist_id=holdem.waitlist.pk, table_id=t1.pk,
                     seat=9)

    assert call.entry_id == holdem.entries[0].pk  # Ann Lee


def test_asking_twice_from_one_seat_is_refused(floor: Any, holdem: SimpleNamespace) -> None:
    t1 = holdem.tables[0]
    table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                         table_id=t1.pk, seat=4)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                             table_id=t1.pk, seat=4)

    assert refused.value.code == "already_listed"
    assert event_count() == before


def test_a_change_from_an_empty_seat_is_refused(floor: Any, holdem: SimpleNamespace) -> None:
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                             table_id=holdem.tables[0].pk, seat=9)

    assert (refused.value.code, refused.value.field) == ("seat_empty", "seat")
    assert event_count() == before


def test_a_change_from_a_table_of_another_game_is_refused(floor: Any,
                                                         holdem: SimpleNamespace) -> None:
    omaha = floor.table("omaha-high")
    floor.seat(omaha, 1)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_change_request(actor=floor["floor"], waitlist_id=holdem.waitlist.pk,
                             table_id=omaha.pk, seat=1)

    assert refused.value.code == "table_not_in_game"
    assert event_count() == before


# --- opening a table by lot -------------------------------------------------------------

@pytest.fixture
def long_list(floor: Any) -> SimpleNamespace:
    """One open Hold'em table (full but seat 9), a closed 6-seat one, and the list with
    eight players."""
    t1 = floor.table()
    floor.fill(t1, leave=(9,))
    new = floor.table(open=False, positions=6)
    wl = floor.waitlist()
    names = ["Ann Lee", "Bob Stone", "Cy Young", "Di Fox", "Ed Wu", "Flo Ray", "Gil Tan",
             "Hal Ode"]
    entries = floor.list_players(wl, *names)
    return SimpleNamespace(open=t1, new=new, waitlist=wl, entries=entries)


def test_opening_by_lot_calls_the_top_of_the_list_to_every_seat(
        floor: Any, long_list: SimpleNamespace) -> None:
    """Six seats: the first six on the list are called, one to each of seats 1-6."""
    result = table_open_by_lot(actor=floor["floor"], waitlist_id=long_list.waitlist.pk,
                               table_id=long_list.new.pk)

    top_six = {str(e.pk) for e in long_list.entries[:6]}
    assert {d["entry"] for d in result["draw"]} == top_six
    assert sorted(d["seat"] for d in result["draw"]) == [1, 2, 3, 4, 5, 6]
    calls = Call.objects.filter(table=long_list.new.pk, state=CallState.OPEN)
    assert sorted((str(c.entry_id), c.seat) for c in calls) == \
        sorted((d["entry"], d["seat"]) for d in result["draw"])
    assert all(c.by_lot for c in calls)
    assert GameTable.objects.get(pk=long_list.new.pk).status == TableStatus.OPEN


def test_the_draw_is_recorded_before_the_calls(floor: Any,
                                               long_list: SimpleNamespace) -> None:
    result = table_open_by_lot(actor=floor["floor"], waitlist_id=long_list.waitlist.pk,
                               table_id=long_list.new.pk)

    events = list_events(long_list.waitlist)[-7:]
    assert [e.type for e in events] == ["TableOpenedByLot"] + ["SeatOffered"] * 6
    assert events[0].data == {"table": str(long_list.new.pk),
                              "draw": [{"entry": d["entry"], "seat": d["seat"]}
                                       for d in result["draw"]]}
    assert all(e.data["by_lot"] is True for e in events[1:])


def test_a_short_list_fills_the_seats_it_can(floor: Any) -> None:
    new = floor.table(open=False, positions=9)
    wl = floor.waitlist()
    entries = floor.list_players(wl, "Ann Lee", "Bob Stone")

    result = table_open_by_lot(actor=floor["floor"], waitlist_id=wl.pk, table_id=new.pk)

    assert {d["entry"] for d in result["draw"]} == {str(e.pk) for e in entries}
    seats = [d["seat"] for d in result["draw"]]
    assert len(set(seats)) == 2 and set(seats) <= set(range(1, 10))


def test_opening_a_table_with_a_player_seated_is_refused(floor: Any,
                                                         long_list: SimpleNamespace) -> None:
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_open_by_lot(actor=floor["floor"], waitlist_id=long_list.waitlist.pk,
                          table_id=long_list.open.pk)

    assert refused.value.code == "table_not_empty"
    assert event_count() == before


def test_opening_by_lot_on_an_empty_list_is_refused(floor: Any) -> None:
    new = floor.table(open=False)
    wl = floor.waitlist()
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_open_by_lot(actor=floor["floor"], waitlist_id=wl.pk, table_id=new.pk)

    assert refused.value.code == "list_empty"
    assert event_count() == before
    assert GameTable.objects.get(pk=new.pk).status == TableStatus.CLOSED


# --- breaking a table by lot ------------------------------------------------------------

@pytest.fixture
def breaking(floor: Any) -> SimpleNamespace:
    """Table B (to break) with five players at seats 1, 3, 4, 6, 8; table T2 with seats
    1-6 taken (7, 8, 9 free); table T3 full but seat 2 — four vacant seats for five
    players. The list has Ann Lee waiting."""
    b, t2, t3 = floor.tables(3)
    for n, name in ((1, "Pat One"), (3, "Quin Three"), (4, "Rae Four"), (6, "Sol Six"),
                    (8, "Tao Eight")):
        floor.seat(b, n, name, buy_in_cents=5000 + n * 100)
    floor.fill(t2, leave=(7, 8, 9))
    floor.fill(t3, leave=(2,))
    wl = floor.waitlist()
    [ann] = floor.list_players(wl, "Ann Lee")
    return SimpleNamespace(b=b, t2=t2, t3=t3, waitlist=wl, ann=ann)


def test_a_broken_table_s_players_are_all_seated_or_listed_first(
        floor: Any, breaking: SimpleNamespace) -> None:
    result = table_break_by_lot(actor=floor["floor"], waitlist_id=breaking.waitlist.pk,
                                table_id=breaking.b.pk)

    vacant = {(str(breaking.t2.pk), 7), (str(breaking.t2.pk), 8), (str(breaking.t2.pk), 9),
              (str(breaking.t3.pk), 2)}
    drawn = [(m["to_table"], m["to_seat"]) for m in result["draw"]]
    assert sorted(drawn) == sorted(vacant)  # every vacant seat, each once
    moved_from = {m["from_seat"] for m in result["draw"]}
    [listed] = result["listed"]
    entry = ListEntry.objects.get(pk=listed)
    assert moved_from | {entry.from_seat} == {1, 3, 4, 6, 8}
    assert entry.kind == EntryKind.BROKEN
    # listed first, before Ann Lee
    assert order_of(floor, breaking.waitlist) == [listed, str(breaking.ann.pk)]
    # each moved player sits with the stakes carried
    for m in result["draw"]:
        seat = Seat.objects.get(table_id=m["to_table"], seat=m["to_seat"])
        assert seat.stack_cents == 5000 + m["from_seat"] * 100


def test_breaking_records_the_draw_and_each_move_and_closes_the_table(
        floor: Any, breaking: SimpleNamespace) -> None:
    result = table_break_by_lot(actor=floor["floor"], waitlist_id=breaking.waitlist.pk,
                                table_id=breaking.b.pk)

    events = list_events(breaking.waitlist)[-6:]
    assert [e.type for e in events] == ["TableBrokenByLot"] + ["PlayerMoved"] * 4 + \
        ["PlayerListed"]
    assert events[0].data == {"table": str(breaking.b.pk), "draw": result["draw"],
                              "listed": result["listed"]}
    assert {e.data["why"] for e in events[1:5]} == {"table_broken"}
    assert GameTable.objects.get(pk=breaking.b.pk).status == TableStatus.CLOSED


def test_the_broken_table_s_listed_player_moves_with_the_stakes_when_called(
        floor: Any, breaking: SimpleNamespace) -> None:
    result = table_break_by_lot(actor=floor["floor"], waitlist_id=breaking.waitlist.pk,
                                table_id=breaking.b.pk)
    entry = ListEntry.objects.get(pk=result["listed"][0])
    floor.leave(breaking.t3, 5)

    call = call_next(actor=floor["floor"], waitlist_id=breaking.waitlist.pk,
                     table_id=breaking.t3.pk, seat=5)
    call_seat(actor=floor["floor"], call_id=call.pk)

    assert call.entry_id == entry.pk
    assert Seat.objects.get(table_id=breaking.t3.pk, seat=5).stack_cents == \
        5000 + entry.from_seat * 100
    assert not Seat.objects.filter(table_id=breaking.b.pk).exists()


def test_a_table_with_room_for_everyone_lists_nobody(floor: Any) -> None:
    b, t2 = floor.tables(2)
    floor.seat(b, 2)
    floor.seat(b, 5)
    wl = floor.waitlist()

    result = table_break_by_lot(actor=floor["floor"], waitlist_id=wl.pk, table_id=b.pk)

    assert result["listed"] == []
    assert sorted(m["from_seat"] for m in result["draw"]) == [2, 5]
    assert len({m["to_seat"] for m in result["draw"]}) == 2
    assert Seat.objects.filter(table_id=t2.pk).count() == 2


def test_breaking_during_a_hand_is_refused(floor: Any, breaking: SimpleNamespace) -> None:
    from tests.poker_floor.test_moves_player_move import hand_started

    hand_started(floor, breaking.b)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_break_by_lot(actor=floor["floor"], waitlist_id=breaking.waitlist.pk,
                           table_id=breaking.b.pk)

    assert refused.value.code == "hand_in_progress"
    assert event_count() == before


def test_breaking_an_empty_table_is_refused(floor: Any) -> None:
    b = floor.table()
    wl = floor.waitlist()
    before = event_count()

    with pytest.raises(DomainError) as refused:
        table_break_by_lot(actor=floor["floor"], waitlist_id=wl.pk, table_id=b.pk)

    assert refused.value.code == "table_empty"
    assert event_count() == before
