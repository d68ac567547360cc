"""The draw by lot (poker_floor.domain.lots): every person drawn gets a distinct place,
the places drawn are among those offered, and those the lot leaves without a place are
the rest — whichever way the lot falls."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from poker_floor.domain.lots import draw


def test_as_many_people_as_seats_covers_every_seat_once() -> None:
    """A 9-seat table opened for the top 9 of the list: seats 1 to 9, each drawn once."""
    people = [f"entry-{i}" for i in range(9)]

    d = draw(people, list(range(1, 10)))

    assert sorted(seat for _, seat in d.pairs) == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert sorted(p for p, _ in d.pairs) == sorted(people)
    assert d.unplaced == ()


def test_fewer_seats_than_people_leaves_the_rest_unplaced() -> None:
    """A broken table's 6 players and 4 vacant seats elsewhere: 4 seated, 2 to the list."""
    people = [1, 2, 3, 4, 5, 6]
    seats = [("T2", 9), ("T3", 4), ("T3", 8), ("T4", 1)]

    d = draw(people, seats)

    assert sorted(s for _, s in d.pairs) == sorted(seats)
    assert len(d.unplaced) == 2
    assert sorted([p for p, _ in d.pairs] + list(d.unplaced)) == people


def test_more_seats_than_people_draws_distinct_seats_for_all() -> None:
    d = draw(["a", "b"], [1, 2, 3, 4, 5, 6, 7, 8, 9])

    assert len({s for _, s in d.pairs}) == 2
    assert {p for p, _ in d.pairs} == {"a", "b"}
    assert d.unplaced == ()


def test_nobody_to_draw_is_an_empty_draw() -> None:
    d = draw([], [1, 2])

    assert (d.pairs, d.unplaced) == ((), ())


def test_a_place_offered_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        draw(["a", "b"], [3, 3])


def test_a_person_drawn_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        draw(["a", "a"], [1, 2])


def test_the_lot_falls_differently() -> None:
    """The seats are drawn, not handed out in order: 9 players over 9 seats give the
    same seating 40 times running with probability (1/9!)^39."""
    people = list(range(9))
    seatings = {draw(people, list(range(1, 10))).pairs for _ in range(40)}

    assert len(seatings) > 1


def test_a_given_generator_decides_the_draw() -> None:
    """The generator is the only source of chance: the same seed, the same draw."""
    people, seats = list("abcdef"), list(range(1, 10))

    assert draw(people, seats, random.Random(7)) == draw(people, seats, random.Random(7))


@given(people=st.lists(st.integers(0, 50), unique=True, max_size=12),
       places=st.lists(st.integers(100, 160), unique=True, max_size=12),
       seed=st.integers(0, 2**32))
def test_every_draw_is_distinct_and_covers_whom_it_can(people: list[int], places: list[int],
                                                       seed: int) -> None:
    d = draw(people, places, random.Random(seed))

    drawn_people = [p for p, _ in d.pairs]
    drawn_places = [s for _, s in d.pairs]
    assert len(d.pairs) == min(len(people), len(places))
    assert len(set(drawn_places)) == len(drawn_places)
    assert set(drawn_places) <= set(places)
    assert sorted(drawn_people + list(d.unplaced)) == sorted(people)
