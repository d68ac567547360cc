"""Who moves from the must-move tables (poker_floor.domain.must_move): the player seated
longest, worked out by hand from the times they sat down; another only with a reason."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from casino.domain.errors import DomainError
from poker_floor.domain.must_move import FeederSeat, choose, moving_order


def at(hh: int, mm: int) -> datetime:
    return datetime(2026, 11, 25, hh, mm, tzinfo=UTC)


#: two feeder tables: F1 seat 2 sat down at 19:05, F2 seat 7 at 18:40, F1 seat 5 at
#: 18:55, F2 seat 1 at 19:30 — so the order is F2/7, F1/5, F1/2, F2/1
SEATS = [FeederSeat("F1", 2, at(19, 5)), FeederSeat("F2", 7, at(18, 40)),
         FeederSeat("F1", 5, at(18, 55)), FeederSeat("F2", 1, at(19, 30))]


def test_the_longest_seated_comes_first() -> None:
    order = moving_order(SEATS)

    assert [(s.table, s.seat) for s in order] == [("F2", 7), ("F1", 5), ("F1", 2), ("F2", 1)]


def test_the_same_instant_goes_by_table_then_seat() -> None:
    same = [FeederSeat("F2", 1, at(20, 0)), FeederSeat("F1", 9, at(20, 0)),
            FeederSeat("F1", 3, at(20, 0))]

    assert [(s.table, s.seat) for s in moving_order(same)] == [("F1", 3), ("F1", 9),
                                                               ("F2", 1)]


def test_without_a_name_the_first_moves_and_no_reason_is_needed() -> None:
    choice = choose(moving_order(SEATS))

    assert (choice.moving.table, choice.moving.seat, choice.reason) == ("F2", 7, "")
    assert len(choice.order) == 4


def test_naming_the_first_needs_no_reason() -> None:
    choice = choose(moving_order(SEATS), table="F2", seat=7)

    assert (choice.moving.table, choice.moving.seat) == ("F2", 7)


def test_naming_another_needs_a_reason() -> None:
    with pytest.raises(DomainError) as refused:
        choose(moving_order(SEATS), table="F1", seat=2, reason="  ")

    assert (refused.value.code, refused.value.field) == ("reason_required", "reason")


def test_naming_another_with_a_reason_moves_that_one() -> None:
    choice = choose(moving_order(SEATS), table="F1", seat=2,
                    reason="F2 seat 7 asked to finish the orbit")

    assert (choice.moving.table, choice.moving.seat) == ("F1", 2)
    assert choice.reason == "F2 seat 7 asked to finish the orbit"
    # the order passed over is kept whole
    assert [(s.table, s.seat) for s in choice.order][0] == ("F2", 7)


def test_a_seat_not_at_a_feeder_is_refused() -> None:
    with pytest.raises(DomainError) as refused:
        choose(moving_order(SEATS), table="F1", seat=8, reason="x")

    assert refused.value.code == "not_at_feeder"


def test_nobody_at_the_feeders_is_refused() -> None:
    with pytest.raises(DomainError) as refused:
        choose([])

    assert refused.value.code == "must_move_nobody"


def test_the_order_is_recorded_with_the_times() -> None:
    assert SEATS[1].recorded() == {"table": "F2", "seat": 7,
                                   "seated_at": "2026-11-25T18:40:00+00:00"}
