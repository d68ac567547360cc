"""Must-move games (issue 24, item 3): when a seat opens at the main game, the player
seated longest at its must-move tables moves; the floor may move another only with a
reason; the order chosen from is recorded. Seated times are set by hand (time_machine) so
the expected order is worked out here, not by the code under test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from casino.domain.errors import DomainError
from poker_floor.services.moves import (
    IN_HAND_REASON,
    must_move,
    must_move_clear,
    must_move_offer,
    must_move_set,
)
from poker_room.models import Seat
from tests.poker_floor._helpers import event_count, list_events, list_types

pytestmark = pytest.mark.django_db


@contextmanager
def at_minute(start: Any, minutes: int) -> Iterator[None]:
    with time_machine.travel(start + timedelta(minutes=minutes), tick=False):
        yield


@pytest.fixture
def game(floor: Any) -> SimpleNamespace:
    """The Hold'em list with a must-move game: main table M (seats 1-8 taken, 9 free) fed
    by F1 and F2. Players sat down at the feeders (minutes after the start):
    F1 seat 2 at +25, F2 seat 7 at +10, F1 seat 5 at +15 — so F2/7 moves first, then
    F1/5, then F1/2."""
    start = timezone.now().replace(microsecond=0) + timedelta(hours=1)
    with at_minute(start, 0):
        main, f1, f2 = floor.tables(3)
        floor.fill(main, leave=(9,))
        wl = floor.waitlist()
        must_move_set(actor=floor["supervisor"], waitlist_id=wl.pk, main_table_id=main.pk,
                      feeder_table_ids=[f1.pk, f2.pk])
    with at_minute(start, 10):
        floor.seat(f2, 7, "Gus Seven", buy_in_cents=15000)
    with at_minute(start, 15):
        floor.seat(f1, 5, "Fay Five")
    with at_minute(start, 25):
        floor.seat(f1, 2, "Deb Two")
    return SimpleNamespace(start=start, main=main, f1=f1, f2=f2, waitlist=wl)


def moved(game: SimpleNamespace) -> Any:
    return [e for e in list_events(game.waitlist) if e.type == "PlayerMoved"][-1]


def test_must_move_set_records_the_main_table_and_its_feeders(floor: Any,
                                                              game: SimpleNamespace) -> None:
    wl = floor.reload(game.waitlist)

    assert wl.main_table == game.main.pk
    assert wl.feeders == [str(game.f1.pk), str(game.f2.pk)]
    assert list_types(wl)[-1] == "MustMoveSet"


def test_the_player_seated_longest_at_the_feeders_moves(floor: Any,
                                                        game: SimpleNamespace) -> None:
    with at_minute(game.start, 60):
        seat = must_move(actor=floor["floor"], waitlist_id=game.waitlist.pk, to_seat=9)

    assert (seat.table_id, seat.seat, seat.player_name, seat.stack_cents) == \
        (game.main.pk, 9, "Gus Seven", 15000)
    assert not Seat.objects.filter(table_id=game.f2.pk, seat=7).exists()
    e = moved(game)
    assert (e.data["from_table"], e.data["from_seat"], e.data["to_table"], e.data["to_seat"],
            e.data["why"], e.data["reason"]) == \
        (str(game.f2.pk), 7, str(game.main.pk), 9, "must_move", "")
    at = [(game.start + timedelta(minutes=m)).isoformat() for m in (10, 15, 25)]
    assert e.data["order"] == [
        {"table": str(game.f2.pk), "seat": 7, "seated_at": at[0]},
        {"table": str(game.f1.pk), "seat": 5, "seated_at": at[1]},
        {"table": str(game.f1.pk), "seat": 2, "seated_at": at[2]}]


def test_moving_another_without_a_reason_is_refused(floor: Any,
                                                    game: SimpleNamespace) -> None:
    before = event_count()

    with pytest.raises(DomainError) as refused:
        must_move(actor=floor["floor"], waitlist_id=game.waitlist.pk, to_seat=9,
                  from_table_id=game.f1.pk, from_seat=2)

    assert (refused.value.code, refused.value.field) == ("reason_required", "reason")
    assert event_count() == before


def test_moving_another_with_a_reason_records_it(floor: Any, game: SimpleNamespace) -> None:
    seat = must_move(actor=floor["supervisor"], waitlist_id=game.waitlist.pk, to_seat=9,
                     from_table_id=game.f1.pk, from_seat=2,
                     reason="Seat 7 at F2 asked to finish the orbit")

    assert seat.player_name == "Deb Two"
    e = moved(game)
    assert (e.data["from_table"], e.data["from_seat"]) == (str(game.f1.pk), 2)
    assert e.data["reason"] == "Seat 7 at F2 asked to finish the orbit"
    assert [(o["table"], o["seat"]) for o in e.data["order"]][0] == (str(game.f2.pk), 7)


def test_a_full_main_table_is_refused_and_nothing_is_recorded(floor: Any,
                                                              game: SimpleNamespace) -> None:
    floor.seat(game.main, 9)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        must_move(actor=floor["floor"], waitlist_id=game.waitlist.pk, to_seat=9)

    assert refused.value.code == "must_move_table_full"
    assert event_count() == before


def test_a_taken_seat_at_the_main_table_is_refused(floor: Any, game: SimpleNamespace) -> None:
    before = event_count()

    with pytest.raises(DomainError) as refused:
        must_move(actor=floor["floor"], waitlist_id=game.waitlist.pk, to_seat=3)

    assert refused.value.code == "must_move_table_full"
    assert event_count() == before


def test_a_feeder_of_another_game_is_refused(floor: Any, game: SimpleNamespace) -> None:
    omaha = floor.table("omaha-high")
    before = event_count()

    with pytest.raises(DomainError) as refused:
        must_move_set(actor=floor["supervisor"], waitlist_id=game.waitlist.pk,
                      main_table_id=game.main.pk, feeder_table_ids=[game.f1.pk, omaha.pk])

    assert (refused.value.code, refused.value.field) == ("table_not_in_game",
                                                         "feeder_table_ids")
    assert event_count() == before


def test_the_main_table_is_not_its_own_feeder(floor: Any, game: SimpleNamespace) -> None:
    with pytest.raises(DomainError) as refused:
        must_move_set(actor=floor["supervisor"], waitlist_id=game.waitlist.pk,
                      main_table_id=game.main.pk, feeder_table_ids=[game.main.pk])

    assert refused.value.code == "invalid_feeders"


def test_after_clearing_there_is_no_must_move(floor: Any, game: SimpleNamespace) -> None:
    wl = must_move_clear(actor=floor["supervisor"], waitlist_id=game.waitlist.pk)
    before = event_count()

    with pytest.raises(DomainError) as refused:
        must_move(actor=floor["floor"], waitlist_id=wl.pk, to_seat=9)

    assert (wl.main_table, wl.feeders) == (None, [])
    assert refused.value.code == "no_must_move"
    assert event_count() == before


def test_a_dealer_may_not_set_a_must_move_game(floor: Any, game: SimpleNamespace) -> None:
    from casino.roles import RoleRequired

    before = event_count()
    with pytest.raises(RoleRequired):
        must_move_set(actor=floor["dealer"], waitlist_id=game.waitlist.pk,
                      main_table_id=game.main.pk, feeder_table_ids=[game.f1.pk])
    assert event_count() == before


# --- the system's offer when a main-table seat opens ---------------------------------------

def test_the_offer_moves_the_longest_seated_at_once(floor: Any, game: SimpleNamespace) -> None:
    assert must_move_offer(game.waitlist, game.main.pk, 9) is True

    assert Seat.objects.get(table_id=game.main.pk, seat=9).player_name == "Gus Seven"
    e = moved(game)
    assert (e.data["from_seat"], e.data["reason"]) == (7, "")
    assert e.metadata["actor"] == "system:must-move"


def test_the_offer_passes_over_a_player_in_a_hand_and_says_why(
        floor: Any, game: SimpleNamespace) -> None:
    """F2's hand is dealt with Gus Seven (F2/7) in it and F2/8 so two are dealt in: the
    next in order, Fay Five (F1/5), moves."""
    from tests.poker_floor.test_moves_player_move import hand_started

    floor.seat(game.f2, 8)
    hand_started(floor, game.f2)

    assert must_move_offer(game.waitlist, game.main.pk, 9) is True

    assert Seat.objects.get(table_id=game.main.pk, seat=9).player_name == "Fay Five"
    assert moved(game).data["reason"] == IN_HAND_REASON


def test_the_offer_of_another_table_moves_nobody(floor: Any, game: SimpleNamespace) -> None:
    before = event_count()

    assert must_move_offer(game.waitlist, game.f1.pk, 9) is False
    assert event_count() == before


def test_the_offer_is_not_automatic_when_the_room_says_so(floor: Any, game: SimpleNamespace,
                                                          settings: Any) -> None:
    settings.FLOOR_AUTO_CALL = False
    before = event_count()

    assert must_move_offer(game.waitlist, game.main.pk, 9) is False
    assert event_count() == before


def test_a_main_table_seat_takes_the_must_move_player_and_the_list_the_feeder_seat(
        floor: Any, game: SimpleNamespace) -> None:
    """The list's offer of seats (the calls' seats_offer, as the task runs it when a seat
    opens): at the main table the must-move player moves first (no call); the feeder seat
    left is then offered to the first on the list."""
    from poker_floor.services.calls import seats_offer

    with at_minute(game.start, 30):
        floor.fill(game.f2, leave=(7,))
        [ann] = floor.list_players(game.waitlist, "Ann Lee")

    assert seats_offer(game.main.pk) == []
    assert Seat.objects.get(table_id=game.main.pk, seat=9).player_name == "Gus Seven"

    [call] = seats_offer(game.f2.pk)
    assert (call.entry_id, call.table, call.seat) == (ann.pk, game.f2.pk, 7)


def test_a_rebuild_of_the_lists_projection_alone_gives_the_same_list_row(
        floor: Any, game: SimpleNamespace) -> None:
    """One projection owns the list's row (review #8): after a must-move set and a move,
    rebuilding ``poker_floor_lists`` by itself (rebuild_projections --name) gives the
    live row back — the must-move tables, the order and the stream's version."""
    from casino.eventstore import projections
    from poker_floor.models import Waitlist

    with at_minute(game.start, 60):
        must_move(actor=floor["floor"], waitlist_id=game.waitlist.pk, to_seat=9)
    fields = ("main_table", "feeders", "stream_version", "order", "open_table_at")
    before = Waitlist.objects.values(*fields).get(pk=game.waitlist.pk)
    # MustMoveSet and PlayerMoved are the list's last events: the version is the head
    assert list_types(game.waitlist)[-2:] == ["MustMoveSet", "PlayerMoved"]
    assert (before["main_table"], before["feeders"], before["stream_version"]) == (
        game.main.pk, [str(game.f1.pk), str(game.f2.pk)], 3)

    projections.rebuild("poker_floor_lists")

    assert Waitlist.objects.values(*fields).get(pk=game.waitlist.pk) == before
    assert not [n for n, p in projections.registered().items()
                if n != "poker_floor_lists" and "MustMoveSet" in (p.event_types or ())]
