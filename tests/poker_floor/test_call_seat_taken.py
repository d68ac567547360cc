"""A seat given away before the called player came (review #4): at the deadline the call
is cancelled, not counted as the player's miss; the player keeps the place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from poker_floor.models import Call, CallState, EntryStatus, ListEntry
from poker_floor.services import calls
from tests.poker_floor._helpers import list_events

pytestmark = pytest.mark.django_db


def test_a_seat_taken_before_the_player_came_cancels_the_call_without_a_miss(holdem) -> None:
    call = calls.call_next(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                           table_id=holdem.tables[0].pk, seat=9)
    holdem.floor.seat(holdem.tables[0], 9, name="Walk In")
    done = calls.calls_expire(timezone.now() + timedelta(minutes=6))
    assert done == 1
    assert Call.objects.get(pk=call.pk).state == CallState.CANCELLED
    ann = ListEntry.objects.get(pk=holdem.entries[0].pk)
    assert (ann.status, ann.missed_calls) == (EntryStatus.WAITING, 0)
    assert holdem.floor.reload(holdem.waitlist).order == [str(e.pk) for e in holdem.entries]
    last = list_events(holdem.waitlist)[-1]
    assert (last.type, last.data["reason"]) == (
        "CallCancelled", "the seat was taken before the player came")
    assert not Call.objects.filter(state=CallState.OPEN).exists()


def test_a_cancelled_call_offers_the_seat_to_the_next_player_not_the_same(holdem) -> None:
    """Ann called to seat 9 and her call withdrawn: the seat goes to Bob in the same
    command; the system's offer finds it offered and calls nobody (not Ann again)."""
    call = calls.call_next(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                           table_id=holdem.tables[0].pk, seat=9)
    calls.call_cancel(actor=holdem.floor["floor"], call_id=call.pk,
                      reason="Ann is not in the room")
    again = Call.objects.get(table=holdem.tables[0].pk, seat=9, state=CallState.OPEN)
    assert str(again.entry_id) == str(holdem.entries[1].pk)
    assert calls.seats_offer(holdem.tables[0].pk) == []
    assert ListEntry.objects.get(pk=holdem.entries[0].pk).status == EntryStatus.WAITING
