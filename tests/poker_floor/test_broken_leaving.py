"""A broken table's player left without a seat keeps the stakes at the closed table until
moved (review #6). Taking the entry off the list by the floor cashes the player out there
(the poker room's seat_leave: PlayerLeft with the stakes) in the same transaction, so no
stakes stay on record at a closed table and the player may be seated again. The system's
timeout at the last allowed miss does not take such an entry off: a cash-out is a
person's step at a table, so it moves the player down as a miss short of the last would
and leaves the player to the floor."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from casino.eventstore.store import read_stream
from poker_floor.models import EntryStatus, ListEntry
from poker_floor.services import calls, lists
from poker_floor.services.moves import table_break_by_lot
from poker_room.models import Seat
from tests.poker_floor._helpers import list_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def broken(floor: Any) -> SimpleNamespace:
    """One miss allowed. Table B with players at seats 1 to 3 ($51, $52, $53), table T
    full but seats 8 and 9: B broken by lot, two move to T and one is listed (first,
    before Ann Lee), keeping the stakes at B."""
    floor.rules("holdem", waitlist={"missed_calls_allowed": 1})
    b, t = floor.tables(2)
    for n in (1, 2, 3):
        floor.seat(b, n, f"Pat {n}", buy_in_cents=5000 + n * 100)
    floor.fill(t, leave=(8, 9))
    wl = floor.waitlist()
    [ann] = floor.list_players(wl, "Ann Lee")
    result = table_break_by_lot(actor=floor["floor"], waitlist_id=wl.pk, table_id=b.pk)
    entry = ListEntry.objects.get(pk=result["listed"][0])
    return SimpleNamespace(b=b, t=t, waitlist=wl, ann=ann, entry=entry)


def _left_at(table: Any) -> list[dict]:
    return [e.data for e in read_stream(f"poker_table-{table.pk}") if e.type == "PlayerLeft"]


def test_taking_a_broken_table_s_player_off_cashes_the_player_out(
        floor: Any, broken: SimpleNamespace) -> None:
    seat = broken.entry.from_seat
    assert Seat.objects.filter(table_id=broken.b.pk, seat=seat).exists()

    out = lists.player_delist(actor=floor["floor"], waitlist_id=broken.waitlist.pk,
                              entry_id=broken.entry.pk, reason="went home")

    assert out.status == EntryStatus.REMOVED
    assert not Seat.objects.filter(table_id=broken.b.pk).exists()
    assert _left_at(broken.b)[-1] == {"seat": seat, "cashed_out_cents": 5000 + seat * 100}
    assert list_events(broken.waitlist)[-1].type == "PlayerDelisted"


def test_at_the_last_miss_a_broken_table_s_player_is_moved_down_not_taken_off(
        floor: Any, broken: SimpleNamespace) -> None:
    floor.leave(broken.t, 1)
    call = calls.call_next(actor=floor["floor"], waitlist_id=broken.waitlist.pk,
                           table_id=broken.t.pk, seat=1)
    assert call.entry_id == broken.entry.pk

    assert calls.calls_expire(timezone.now() + timedelta(minutes=5.1)) == 1

    [timed_out] = [e.data for e in list_events(broken.waitlist) if e.type == "CallTimedOut"]
    # one miss allowed, but the player still holds seat at B: moved down to 2nd (after Ann)
    assert (timed_out["missed"], timed_out["moved_to"]) == (1, 2)
    assert floor.reload(broken.waitlist).order == [str(broken.ann.pk), str(broken.entry.pk)]
    assert ListEntry.objects.get(pk=broken.entry.pk).status == EntryStatus.WAITING
    assert Seat.objects.filter(table_id=broken.b.pk, seat=broken.entry.from_seat).exists()


def test_at_the_last_miss_a_player_who_left_the_broken_table_is_taken_off(
        floor: Any, broken: SimpleNamespace) -> None:
    floor.leave(broken.t, 1)
    call = calls.call_next(actor=floor["floor"], waitlist_id=broken.waitlist.pk,
                           table_id=broken.t.pk, seat=1)
    floor.leave(broken.b, broken.entry.from_seat)  # cashed out by hand meanwhile

    assert calls.calls_expire(timezone.now() + timedelta(minutes=5.1)) == 1

    assert ListEntry.objects.get(pk=broken.entry.pk).status == EntryStatus.REMOVED
    assert call.entry_id == broken.entry.pk
