"""Calling and seating from a list (issue 24, item 2): the first eligible player is
offered the seat; another only with a reason, the players passed over recorded; a called
player seated through poker_room's seat service; the posted move-down procedure on a
timeout; each bad input of the issue a code and nothing appended."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from casino.domain.errors import DomainError
from casino.models import Event
from poker_floor.models import Call, CallState, EntryStatus, ListEntry
from poker_floor.services import calls, lists
from poker_room.models import Seat
from tests.poker_floor._helpers import BUY_IN, event_count, list_events, table_events

pytestmark = pytest.mark.django_db


def _refused(code: str, fn, **kw) -> DomainError:  # noqa: ANN001
    before = event_count()
    with pytest.raises(DomainError) as err:
        fn(**kw)
    assert err.value.code == code
    assert event_count() == before
    return err.value


def _ids(*entries) -> list[str]:  # noqa: ANN002
    return [str(e.pk) for e in entries]


def _next(room, table=None, seat=9):  # noqa: ANN001, ANN202
    return calls.call_next(actor=room.floor["floor"], waitlist_id=room.waitlist.pk,
                           table_id=(table or room.tables[0]).pk, seat=seat)


def _later(minutes: float):  # noqa: ANN202
    return timezone.now() + timedelta(minutes=minutes)


# --- calling in turn ------------------------------------------------------------------

def test_the_first_player_is_offered_the_seat(holdem) -> None:
    before = timezone.now()
    call = _next(holdem)
    ann = holdem.entries[0]
    assert (str(call.entry_id), call.table, call.seat, call.state) == (
        str(ann.pk), holdem.tables[0].pk, 9, CallState.OPEN)
    # the default procedure: 5 minutes to come (no waitlist section in the Rules)
    assert before + timedelta(minutes=5) <= call.deadline_at \
        <= timezone.now() + timedelta(minutes=5)
    e = list_events(holdem.waitlist)[-1]
    assert e.type == "SeatOffered"
    assert (e.data["entry"], e.data["seat"], e.data["reason"], e.data["passed"],
            e.data["by_lot"]) == (str(ann.pk), 9, "", [], False)
    assert ListEntry.objects.get(pk=ann.pk).status == EntryStatus.CALLED


def test_the_rules_set_the_minutes_to_come(floor) -> None:
    floor.rules("holdem", waitlist={"call_minutes": 2})
    t = floor.table()
    wl = floor.waitlist()
    floor.list_players(wl, "Ann Lee")
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t.pk, seat=1)
    assert timedelta(minutes=1, seconds=59) < call.deadline_at - call.called_at \
        <= timedelta(minutes=2)


def test_the_next_call_goes_to_the_next_player_not_the_one_called(holdem) -> None:
    first = _next(holdem, holdem.tables[0])
    second = _next(holdem, holdem.tables[1])
    assert [str(first.entry_id), str(second.entry_id)] == _ids(*holdem.entries[:2])


def test_a_call_on_an_empty_list_is_refused(floor) -> None:
    t = floor.table()
    wl = floor.waitlist()
    _refused("list_empty", calls.call_next, actor=floor["floor"], waitlist_id=wl.pk,
             table_id=t.pk, seat=1)


def test_a_call_when_everyone_is_called_already_is_list_empty(holdem) -> None:
    room = holdem
    room.floor.leave(room.tables[0], 8)
    room.floor.leave(room.tables[0], 7)
    for seat in (9, 8, 7):
        _next(room, seat=seat)
    room.floor.leave(room.tables[0], 6)
    _refused("list_empty", calls.call_next, actor=room.floor["floor"],
             waitlist_id=room.waitlist.pk, table_id=room.tables[0].pk, seat=6)


def test_a_seat_at_a_table_of_another_game_is_refused(holdem) -> None:
    omaha = holdem.floor.table("omaha-high")
    _refused("table_not_in_game", calls.call_next, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, table_id=omaha.pk, seat=1)


def test_a_seat_at_a_closed_table_is_refused(holdem) -> None:
    closed = holdem.floor.table(open=False)
    _refused("table_not_open", calls.call_next, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, table_id=closed.pk, seat=1)


def test_a_seat_taken_is_refused(holdem) -> None:
    _refused("seat_taken", calls.call_next, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, table_id=holdem.tables[0].pk, seat=3)


@pytest.mark.parametrize("seat", [0, 11, "9", None, True])
def test_a_seat_not_at_the_table_is_refused(holdem, seat) -> None:
    _refused("invalid_seat", calls.call_next, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, table_id=holdem.tables[0].pk, seat=seat)


def test_a_seat_offered_already_is_refused(holdem) -> None:
    _next(holdem)
    _refused("seat_already_offered", calls.call_next, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, table_id=holdem.tables[0].pk, seat=9)


def test_a_dealer_may_not_call(holdem) -> None:
    before = event_count()
    with pytest.raises(Exception) as err:
        calls.call_next(actor=holdem.floor["dealer"], waitlist_id=holdem.waitlist.pk,
                        table_id=holdem.tables[0].pk, seat=9)
    assert getattr(err.value, "default_code", None) == "role_required"
    assert event_count() == before


def test_another_propertys_table_is_not_found(holdem, make_floor, other_property) -> None:
    other = make_floor(other_property)
    theirs = other.table()
    _refused("table_not_found", calls.call_next, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, table_id=theirs.pk, seat=1)


# --- calling out of turn --------------------------------------------------------------

def test_calling_out_of_turn_needs_a_reason(holdem) -> None:
    cy = holdem.entries[2]
    err = _refused("reason_required", calls.call_player, actor=holdem.floor["floor"],
                   waitlist_id=holdem.waitlist.pk, entry_id=cy.pk,
                   table_id=holdem.tables[0].pk, seat=9, reason="")
    assert err.field == "reason"


def test_calling_out_of_turn_records_the_reason_and_who_was_passed(holdem) -> None:
    ann, bob, cy = holdem.entries
    call = calls.call_player(actor=holdem.floor["supervisor"], waitlist_id=holdem.waitlist.pk,
                             entry_id=cy.pk, table_id=holdem.tables[0].pk, seat=9,
                             reason="Ann and Bob asked for the other table")
    assert str(call.entry_id) == str(cy.pk)
    assert call.reason == "Ann and Bob asked for the other table"
    e = list_events(holdem.waitlist)[-1]
    assert e.data["passed"] == _ids(ann, bob)
    assert e.data["reason"] == "Ann and Bob asked for the other table"
    assert e.metadata["role"] == "poker_shift_supervisor"


def test_a_player_already_called_is_not_passed_over(holdem) -> None:
    ann, bob, cy = holdem.entries
    _next(holdem, holdem.tables[0])  # Ann is called to table 1
    call = calls.call_player(actor=holdem.floor["floor"], waitlist_id=holdem.waitlist.pk,
                             entry_id=bob.pk, table_id=holdem.tables[1].pk, seat=9)
    assert (call.reason, list_events(holdem.waitlist)[-1].data["passed"]) == ("", [])


def test_a_player_called_is_not_called_to_a_second_seat(holdem) -> None:
    ann = holdem.entries[0]
    _next(holdem, holdem.tables[0])
    _refused("entry_already_called", calls.call_player, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, entry_id=ann.pk, table_id=holdem.tables[1].pk,
             seat=9, reason="")


# --- seating --------------------------------------------------------------------------

def test_the_called_player_is_seated_through_the_seat_service(holdem) -> None:
    call = _next(holdem)
    ann = holdem.entries[0]
    out = calls.call_seat(actor=holdem.floor["dealer"], call_id=call.pk,
                          buy_in_cents=BUY_IN, paid_with="cash")
    assert out.state == CallState.SEATED
    seat = Seat.objects.get(table_id=holdem.tables[0].pk, seat=9)
    assert (seat.player_name, seat.stack_cents) == ("Ann Lee", BUY_IN)
    seated = table_events(holdem.tables[0])
    assert [e.type for e in seated if e.type == "PlayerSeated"][-1:] == ["PlayerSeated"]
    last_seated = [e for e in seated if e.type == "PlayerSeated"][-1]
    assert (last_seated.data["seat"], last_seated.data["buy_in_cents"],
            last_seated.data["paid_with"]) == (9, BUY_IN, "cash")
    e = list_events(holdem.waitlist)[-1]
    assert e.type == "PlayerSeatedFromList"
    assert e.data == {"call": str(call.pk), "entry": str(ann.pk),
                      "table": str(holdem.tables[0].pk), "seat": 9, "stays_listed": False}
    assert ListEntry.objects.get(pk=ann.pk).status == EntryStatus.SEATED
    assert holdem.floor.reload(holdem.waitlist).order == _ids(*holdem.entries[1:])


def test_a_buy_in_below_the_minimum_seats_nobody(holdem) -> None:
    call = _next(holdem)
    _refused("buy_in_below_minimum", calls.call_seat, actor=holdem.floor["dealer"],
             call_id=call.pk, buy_in_cents=100, paid_with="cash")
    assert Call.objects.get(pk=call.pk).state == CallState.OPEN
    assert not Seat.objects.filter(table_id=holdem.tables[0].pk, seat=9).exists()


def test_a_player_who_stays_listed_keeps_the_place(holdem) -> None:
    call = _next(holdem)
    calls.call_seat(actor=holdem.floor["floor"], call_id=call.pk, buy_in_cents=BUY_IN,
                    paid_with="chips", stays_listed=True)
    ann = ListEntry.objects.get(pk=holdem.entries[0].pk)
    assert (ann.status, ann.stays_listed) == (EntryStatus.WAITING, True)
    assert holdem.floor.reload(holdem.waitlist).order == _ids(*holdem.entries)


def test_a_seated_call_is_answered(holdem) -> None:
    call = _next(holdem)
    calls.call_seat(actor=holdem.floor["floor"], call_id=call.pk, buy_in_cents=BUY_IN,
                    paid_with="chips")
    _refused("call_already_answered", calls.call_cancel, actor=holdem.floor["floor"],
             call_id=call.pk, reason="changed my mind")
    _refused("call_already_answered", calls.call_timeout, actor=holdem.floor["floor"],
             call_id=call.pk)


# --- timeouts: the posted procedure ---------------------------------------------------

def test_a_timeout_before_the_deadline_is_refused(holdem) -> None:
    call = _next(holdem)
    _refused("call_not_due", calls.call_timeout, actor=holdem.floor["floor"],
             call_id=call.pk)


def test_a_player_who_does_not_come_is_moved_down_and_the_next_called(floor) -> None:
    """Five waiting, A called; the default procedure moves A down 3 places: from 1st to
    4th (B C D A E), and B is offered the seat."""
    t = floor.table()
    floor.fill(t, leave=(9,))
    wl = floor.waitlist()
    a, b, c, d, e = floor.list_players(wl, "Al A", "Bo B", "Cy C", "Di D", "Ed E")
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t.pk, seat=9)
    assert calls.calls_expire(_later(5.1)) == 1
    timed_out = [x for x in list_events(wl) if x.type == "CallTimedOut"]
    assert [x.data for x in timed_out] == [
        {"call": str(call.pk), "entry": str(a.pk), "missed": 1, "moved_to": 4}]
    assert floor.reload(wl).order == _ids(b, c, d, a, e)
    nxt = Call.objects.get(state=CallState.OPEN)
    assert (str(nxt.entry_id), nxt.seat) == (str(b.pk), 9)
    assert ListEntry.objects.get(pk=a.pk).missed_calls == 1


def test_at_the_last_allowed_miss_the_player_is_taken_off(floor) -> None:
    """missed_calls_allowed 2, move_down_places 1: A misses (B A), B is called and
    misses (A B: moved down one), A is called again and misses a second time: taken off."""
    floor.rules("holdem", waitlist={"move_down_places": 1, "missed_calls_allowed": 2})
    t = floor.table()
    floor.fill(t, leave=(9,))
    wl = floor.waitlist()
    a, b = floor.list_players(wl, "Al A", "Bo B")
    calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t.pk, seat=9)
    assert calls.calls_expire(_later(5.1)) == 1      # A: 1 miss, B called
    assert floor.reload(wl).order == _ids(b, a)
    assert calls.calls_expire(_later(10.2)) == 1     # B: 1 miss, A called
    assert floor.reload(wl).order == _ids(a, b)
    assert calls.calls_expire(_later(15.3)) == 1     # A: 2nd miss, taken off; B called
    assert floor.reload(wl).order == _ids(b)
    moved = [(x.data["entry"], x.data["missed"], x.data["moved_to"])
             for x in list_events(wl) if x.type == "CallTimedOut"]
    assert moved == [(str(a.pk), 1, 2), (str(b.pk), 1, 2), (str(a.pk), 2, None)]
    assert ListEntry.objects.get(pk=a.pk).status == EntryStatus.REMOVED
    assert Call.objects.get(state=CallState.OPEN).entry_id == b.pk


def test_a_timeout_of_an_answered_call_is_refused(holdem) -> None:
    call = _next(holdem)
    calls.call_cancel(actor=holdem.floor["floor"], call_id=call.pk, reason="table broke")
    _refused("call_already_answered", calls.call_timeout, actor=holdem.floor["floor"],
             call_id=call.pk)


def test_expiring_twice_times_a_call_out_once(holdem) -> None:
    _next(holdem)
    assert calls.calls_expire(_later(6)) == 1
    assert calls.calls_expire(_later(6)) == 0
    assert [x.type for x in list_events(holdem.waitlist)].count("CallTimedOut") == 1


# --- cancelling -----------------------------------------------------------------------

def test_a_cancelled_call_leaves_the_player_in_place(holdem) -> None:
    call = _next(holdem)
    out = calls.call_cancel(actor=holdem.floor["floor"], call_id=call.pk,
                            reason="the seat is held for a player returning")
    assert out.state == CallState.CANCELLED
    assert ListEntry.objects.get(pk=holdem.entries[0].pk).status == EntryStatus.WAITING
    assert holdem.floor.reload(holdem.waitlist).order == _ids(*holdem.entries)


def test_cancelling_needs_a_reason(holdem) -> None:
    call = _next(holdem)
    _refused("reason_required", calls.call_cancel, actor=holdem.floor["floor"],
             call_id=call.pk, reason="")


def test_a_called_player_is_not_delisted_while_called(holdem) -> None:
    _next(holdem)
    _refused("entry_called", lists.player_delist, actor=holdem.floor["floor"],
             waitlist_id=holdem.waitlist.pk, entry_id=holdem.entries[0].pk, reason="left")


# --- the system's offers --------------------------------------------------------------

def test_every_vacant_seat_is_offered_in_list_order(holdem) -> None:
    made = calls.seats_offer(holdem.tables[0].pk) + calls.seats_offer(holdem.tables[1].pk)
    assert [str(c.entry_id) for c in made] == _ids(*holdem.entries[:2])
    assert calls.seats_offer(holdem.tables[0].pk) == []   # offered already: nothing more
    called = [x for x in list_events(holdem.waitlist) if x.type == "SeatOffered"]
    assert {x.metadata["actor"] for x in called} == {"system:floor"}


def test_no_offer_without_auto_call(holdem, settings) -> None:
    settings.FLOOR_AUTO_CALL = False
    assert calls.seats_offer(holdem.tables[0].pk) == []


def test_the_sweep_offers_the_seats_of_listed_games(holdem) -> None:
    out = calls.floor_sweep()
    assert (out["timed_out"], out["offered"]) == (0, 2)


# --- personal data --------------------------------------------------------------------

def test_the_floors_events_hold_no_name_or_phone_in_clear(holdem) -> None:
    call = _next(holdem)
    calls.call_seat(actor=holdem.floor["floor"], call_id=call.pk, buy_in_cents=BUY_IN,
                    paid_with="chips")
    _next(holdem, holdem.tables[1])
    calls.calls_expire(_later(6))
    raw = Event.objects.filter(stream_id=f"waitlist-{holdem.waitlist.pk}")
    # the sealed values are base64 ciphertext: "Lee" turned up in one by chance in CI
    text = " ".join(str(_unsealed(e.data)) + str(e.metadata) for e in raw)
    assert "[sealed]" in text  # the names and phones are there, sealed
    for secret in ("Ann", "Lee", "Bob", "Stone", "Cy Young", "2015550123", "201-555",
                   "2125550199", "A.L.", "B.S."):
        assert secret not in text


def _unsealed(value: Any) -> Any:
    """``value`` with each sealed ciphertext (casino.personal_data.seal) written as
    ``[sealed]``."""
    from casino.personal_data import SEALED

    if isinstance(value, dict):
        return {k: "[sealed]" if k == SEALED else _unsealed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unsealed(v) for v in value]
    return value


# --- table changes --------------------------------------------------------------------

def test_a_table_change_is_called_first_and_moved_with_the_stakes(floor) -> None:
    """Dee, seated at table 1, asks for a change; Ann waits on the list. A seat opens at
    table 2: Dee is called before Ann and moves there with her $40 (no buy-in)."""
    from poker_floor.services.moves import table_change_request

    t1, t2 = floor.tables(2)
    floor.seat(t1, 1, name="Dee Park", phone="+12025550101")
    floor.fill(t2, leave=(5,))
    wl = floor.waitlist()
    (ann,) = floor.list_players(wl, "Ann Lee")
    dee = table_change_request(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk, seat=1)
    assert floor.reload(wl).order == _ids(dee, ann)
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t2.pk, seat=5)
    assert str(call.entry_id) == str(dee.pk)
    calls.call_seat(actor=floor["floor"], call_id=call.pk)
    assert not Seat.objects.filter(table_id=t1.pk, seat=1).exists()
    moved = Seat.objects.get(table_id=t2.pk, seat=5)
    assert (moved.player_name, moved.stack_cents) == ("Dee Park", BUY_IN)
    last = list_events(wl)[-2:]
    assert [e.type for e in last] == ["PlayerMoved", "PlayerSeatedFromList"]
    assert (last[0].data["why"], last[0].data["from_seat"], last[0].data["to_seat"]) == (
        "table_change", 1, 5)
    assert floor.reload(wl).order == _ids(ann)


def test_a_table_change_is_not_offered_its_own_table(floor) -> None:
    from poker_floor.services.moves import table_change_request

    t1 = floor.table()
    floor.seat(t1, 1, name="Dee Park")
    wl = floor.waitlist()
    (ann,) = floor.list_players(wl, "Ann Lee")
    dee = table_change_request(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk, seat=1)
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t1.pk, seat=2)
    assert str(call.entry_id) == str(ann.pk)
    _refused("entry_own_table", calls.call_player, actor=floor["floor"], waitlist_id=wl.pk,
             entry_id=dee.pk, table_id=t1.pk, seat=3, reason="asked")
