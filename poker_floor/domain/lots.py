"""The draw by lot (issue 24, item 4): opening a table seats the top of the list at its
seats by lot; breaking a table seats its players at the other tables' vacant seats by lot,
and those left without a seat are listed first.

The lot is drawn with the operating system's generator (``secrets.SystemRandom``: nobody,
the floor included, can predict or repeat it) and the whole draw is returned so the
service records it in the event: the draw is shown afterwards as it fell, never drawn
again.

Plain Python.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P")   # who is seated (a list entry, a seat at the broken table)
S = TypeVar("S")   # where (a seat number, a table and seat)


@dataclass(frozen=True)
class Draw(Generic[P, S]):
    """``pairs``: each person drawn with the place drawn for them, in the order drawn;
    ``unplaced``: those the lot left without a place (more people than places), in the
    order drawn."""

    pairs: tuple[tuple[P, S], ...]
    unplaced: tuple[P, ...]


def draw(people: Sequence[P], places: Sequence[S],
         rng: random.Random | None = None) -> Draw[P, S]:
    """Give each of ``people`` a distinct place of ``places`` by lot: the people in an
    order drawn by lot, the places too, paired one to one. With more places than people
    every person gets a place; with fewer, the people drawn last get none.

    ``rng``: the generator (``secrets.SystemRandom()`` unless one is given). People and
    places must each be distinct (a place given twice could seat two at one seat)."""
    if len(set(people)) != len(people):
        raise ValueError("a person is drawn once")
    if len(set(places)) != len(places):
        raise ValueError("a place is drawn once")
    rng = rng or secrets.SystemRandom()
    drawn_people = rng.sample(list(people), len(people))
    drawn_places = rng.sample(list(places), min(len(places), len(people)))
    return Draw(pairs=tuple(zip(drawn_people, drawn_places)),
                unplaced=tuple(drawn_people[len(drawn_places):]))
