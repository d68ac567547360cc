"""A table change moves the player who asked for it, never whoever sits in that seat
later (review #2): the entry records when its player sat down (PlayerListed.seated_at);
once that player leaves the seat, the entry is taken off the list by the next offer,
and a call already made for it seats nobody."""

from __future__ import annotations

import pytest

from casino.domain.errors import DomainError
from poker_floor.models import EntryStatus, ListEntry
from poker_floor.services import calls
from poker_floor.services.moves import table_change_request
from poker_room.models import Seat
from tests.poker_floor._helpers import event_count, list_events

pytestmark = pytest.mark.django_db


def _room(floor):  # noqa: ANN001, ANN202
    """Dee seated at table 1 seat 1 asks for a change; Ann waits; table 2 has seat 5
    free."""
    t1, t2 = floor.tables(2)
    floor.seat(t1, 1, name="Dee Park")
    floor.fill(t2, leave=(5,))
    wl = floor.waitlist()
    (ann,) = floor.list_players(wl, "Ann Lee")
    dee = table_change_request(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk,
                               seat=1)
    return t1, t2, wl, ann, dee


def test_the_change_records_when_its_player_sat_down(floor) -> None:
    t1, _, wl, _, dee = _room(floor)
    listed = [e for e in list_events(wl) if e.type == "PlayerListed"][-1]
    seated = Seat.objects.get(table_id=t1.pk, seat=1).seated_at
    assert listed.data["seated_at"] == seated.isoformat()


def test_a_change_whose_player_left_is_taken_off_and_the_seat_offered_to_the_next(
        floor) -> None:
    t1, t2, wl, ann, dee = _room(floor)
    floor.leave(t1, 1)
    floor.seat(t1, 1, name="Eve Walk-in")
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t2.pk, seat=5)
    assert str(call.entry_id) == str(ann.pk)
    gone = ListEntry.objects.get(pk=dee.pk)
    assert gone.status == EntryStatus.REMOVED
    delisted = [e for e in list_events(wl) if e.type == "PlayerDelisted"]
    assert [(e.data["entry"], e.data["reason"]) for e in delisted] == [
        (str(dee.pk), "the player left the seat the entry was listed from")]


def test_the_system_offer_takes_the_departed_change_off(floor) -> None:
    t1, _, wl, ann, dee = _room(floor)
    floor.leave(t1, 1)
    calls.seats_offer(t1.pk)
    assert ListEntry.objects.get(pk=dee.pk).status == EntryStatus.REMOVED
    assert floor.reload(wl).order == [str(ann.pk)]


def test_a_call_for_a_change_whose_player_left_seats_nobody_else(floor) -> None:
    t1, t2, wl, _, dee = _room(floor)
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t2.pk, seat=5)
    assert str(call.entry_id) == str(dee.pk)
    floor.leave(t1, 1)
    floor.seat(t1, 1, name="Eve Walk-in")
    before = event_count()
    with pytest.raises(DomainError) as err:
        calls.call_seat(actor=floor["floor"], call_id=call.pk)
    assert err.value.code == "entry_player_left"
    assert event_count() == before
    assert Seat.objects.get(table_id=t1.pk, seat=1).player_name == "Eve Walk-in"
    assert not Seat.objects.filter(table_id=t2.pk, seat=5).exists()


def test_an_out_of_turn_call_for_a_departed_change_is_refused(floor) -> None:
    t1, t2, wl, _, dee = _room(floor)
    floor.leave(t1, 1)
    before = event_count()
    with pytest.raises(DomainError) as err:
        calls.call_player(actor=floor["floor"], waitlist_id=wl.pk, entry_id=dee.pk,
                          table_id=t2.pk, seat=5, reason="asked")
    assert err.value.code == "entry_player_left"
    assert event_count() == before
