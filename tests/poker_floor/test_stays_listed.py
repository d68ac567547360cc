"""A player seated from the list who chooses to stay on it (review #3) is seated at a
table of the game now: the entry becomes a table change from the seat just taken (listed
when seated, so it is served with the table changes, before the list's players), never
offered a seat at that table, and moved with the stakes when called elsewhere."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from poker_floor.models import EntryKind, EntryStatus, ListEntry
from poker_floor.services import calls
from poker_room.models import Seat
from tests.poker_floor._helpers import BUY_IN

pytestmark = pytest.mark.django_db


@pytest.fixture
def stayed(holdem: SimpleNamespace) -> SimpleNamespace:
    """Ann Lee called to seat 9 of the first table and seated there, staying listed."""
    t1 = holdem.tables[0]
    call = calls.call_next(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                           table_id=t1.pk, seat=9)
    calls.call_seat(actor=holdem.floor["floor"], call_id=call.pk, buy_in_cents=BUY_IN,
                    paid_with="chips", stays_listed=True)
    return holdem


def test_the_entry_becomes_a_table_change_from_the_seat_taken(stayed) -> None:
    ann = ListEntry.objects.get(pk=stayed.entries[0].pk)
    seat = Seat.objects.get(table_id=stayed.tables[0].pk, seat=9)

    assert (ann.status, ann.stays_listed, ann.kind, ann.from_table, ann.from_seat) == (
        EntryStatus.WAITING, True, EntryKind.CHANGE, stayed.tables[0].pk, 9)
    assert ann.listed_at >= seat.seated_at
    assert stayed.floor.reload(stayed.waitlist).order == [str(e.pk) for e in stayed.entries]


def test_a_seat_at_the_player_s_own_table_goes_to_the_next(stayed) -> None:
    t1 = stayed.tables[0]
    stayed.floor.leave(t1, 3)

    call = calls.call_next(actor=stayed.floor["floor"], waitlist_id=stayed.waitlist.pk,
                           table_id=t1.pk, seat=3)

    assert call.entry_id == stayed.entries[1].pk  # Bob Stone, not Ann Lee seated at t1
    assert ListEntry.objects.get(pk=stayed.entries[0].pk).status == EntryStatus.WAITING


def test_a_seat_at_another_table_moves_the_player_with_the_stakes(stayed) -> None:
    t1, t2 = stayed.tables
    call = calls.call_next(actor=stayed.floor["floor"], waitlist_id=stayed.waitlist.pk,
                           table_id=t2.pk, seat=9)
    assert call.entry_id == stayed.entries[0].pk

    calls.call_seat(actor=stayed.floor["floor"], call_id=call.pk)

    assert Seat.objects.get(table_id=t2.pk, seat=9).stack_cents == BUY_IN
    assert not Seat.objects.filter(table_id=t1.pk, seat=9).exists()
    assert ListEntry.objects.get(pk=stayed.entries[0].pk).status == EntryStatus.SEATED


def test_the_entry_moves_up_with_the_table_changes_in_the_fairness_record_too(
        holdem: SimpleNamespace) -> None:
    """Bob Stone, called before Ann Lee (a reason given), stays listed once seated: a
    table change now, he goes before the list's players (Bob, Ann, Cy) — in the list's
    order and in the order the fairness record replays."""
    from casino.eventstore.models import Event
    from poker_floor import fairness

    ann, bob, cy = holdem.entries
    call = calls.call_player(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                             entry_id=bob.pk, table_id=holdem.tables[0].pk, seat=9,
                             reason="Bob asked for this table")
    calls.call_seat(actor=holdem.floor["floor"], call_id=call.pk, buy_in_cents=BUY_IN,
                    paid_with="chips", stays_listed=True)

    expected = [str(bob.pk), str(ann.pk), str(cy.pk)]
    assert holdem.floor.reload(holdem.waitlist).order == expected
    order = fairness._Order()
    for e in Event.objects.filter(stream_id=f"waitlist-{holdem.waitlist.pk}") \
            .order_by("version"):
        fairness._step(e, order, lambda x, p: fairness.Who(str(x), "", p), lambda t: "")
    assert order.ids == expected
