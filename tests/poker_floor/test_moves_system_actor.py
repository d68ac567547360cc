"""The system at the table (review #7): the automatic must-move acts as ``system:must-move``
holding no role; the table's seat service records its steps under the role "system",
and lets it take only a seat move — not a dealer's or a floorperson's other steps. A
person without a role is refused as before."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from casino.actors import system_actor
from casino.roles import RoleRequired
from poker_floor.services.moves import must_move_offer, must_move_set, player_move
from poker_room.models import Seat
from poker_room.services import seats as seat_service
from tests.poker_floor._helpers import event_count, table_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(floor: Any) -> SimpleNamespace:
    """A must-move game: main table M (seats 1-8 taken, 9 free) fed by F, where one
    player (F seat 4, $150.00) is seated."""
    main, feeder = floor.tables(2)
    floor.fill(main, leave=(9,))
    wl = floor.waitlist()
    must_move_set(actor=floor["supervisor"], waitlist_id=wl.pk, main_table_id=main.pk,
                  feeder_table_ids=[feeder.pk])
    floor.seat(feeder, 4, "Gus Four", buy_in_cents=15000)
    return SimpleNamespace(main=main, feeder=feeder, waitlist=wl)


def test_the_automatic_must_move_is_recorded_as_the_system_under_the_role_system(
        floor: Any, game: SimpleNamespace) -> None:
    assert must_move_offer(game.waitlist, game.main.pk, 9) is True

    left = table_events(game.feeder)[-1]
    seated = table_events(game.main)[-1]
    assert (left.type, left.data["seat"]) == ("PlayerLeft", 4)
    assert (seated.type, seated.data["seat"]) == ("PlayerSeated", 9)
    for e in (left, seated):
        assert (e.metadata["actor"], e.metadata["role"]) == ("system:must-move", "system")
        assert "credential_number" not in e.metadata


def test_a_person_moving_a_player_is_recorded_under_the_person_s_role(
        floor: Any, game: SimpleNamespace) -> None:
    player_move(actor=floor["floor"], from_table_id=game.feeder.pk, from_seat=4,
                to_table_id=game.main.pk, to_seat=9)

    seated = table_events(game.main)[-1]
    assert (seated.type, seated.metadata["role"]) == ("PlayerSeated", "floorperson")


def test_a_person_without_a_role_may_not_move_a_player(floor: Any,
                                                       game: SimpleNamespace) -> None:
    before = event_count()
    with pytest.raises(RoleRequired):
        player_move(actor=floor["nobody"], from_table_id=game.feeder.pk, from_seat=4,
                    to_table_id=game.main.pk, to_seat=9)
    assert event_count() == before


def test_a_person_without_a_role_may_not_record_a_leaving_for_a_move(
        floor: Any, game: SimpleNamespace) -> None:
    """``moving`` admits the system to a seat move, never a person without a role."""
    before = event_count()
    with pytest.raises(RoleRequired):
        seat_service.seat_leave(actor=floor["nobody"], table_id=game.feeder.pk, seat=4,
                                moving=True)
    assert event_count() == before


def test_the_system_may_not_record_a_player_leaving_outside_a_move(
        floor: Any, game: SimpleNamespace) -> None:
    before = event_count()
    with pytest.raises(RoleRequired):
        seat_service.seat_leave(actor=system_actor(floor.property, "must-move"),
                                table_id=game.feeder.pk, seat=4)
    assert event_count() == before
    assert Seat.objects.filter(table_id=game.feeder.pk, seat=4).exists()


def test_the_system_may_not_seat_a_player_with_a_buy_in(floor: Any,
                                                        game: SimpleNamespace) -> None:
    before = event_count()
    with pytest.raises(RoleRequired):
        seat_service.seat_player(actor=system_actor(floor.property, "must-move"),
                                 table_id=game.main.pk, seat=9, buy_in_cents=4000,
                                 paid_with="cash")
    assert event_count() == before


def test_the_system_may_not_take_a_dealer_s_step_at_the_table(
        floor: Any, game: SimpleNamespace) -> None:
    before = event_count()
    with pytest.raises(RoleRequired):
        seat_service.sit_out(actor=system_actor(floor.property, "must-move"),
                             table_id=game.feeder.pk, seat=4)
    assert event_count() == before
