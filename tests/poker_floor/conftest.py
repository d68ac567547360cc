"""Fixtures of the poker floor (issue 24), all made through the real services:

* ``floor`` — a :class:`tests.poker_floor._helpers.Floor` at the test property: a person
  of each role (``floor["floor"]``, ``floor["supervisor"]``, ``floor["dealer"]`` ...), and
  ``floor.table()``, ``floor.waitlist()``, ``floor.list_players(...)``, ``floor.seat(...)``;
* ``make_floor(property)`` — the same at another property (``other_property`` gives one);
* ``holdem`` — a ready room: two open Hold'em tables (10 seats, all taken but seat 9),
  the Hold'em list and three players on it (Ann Lee, Bob Stone, Cy Young);
* ``as_actor(actor)`` — an API client logged in as that Actor.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from casino.actors import Actor
from tests.poker_floor._helpers import Floor, make_floor_for


@pytest.fixture
def make_floor(make_staff: Callable) -> Callable[[Any], Floor]:
    def make(property: Any) -> Floor:
        return make_floor_for(property, make_staff)
    return make


@pytest.fixture
def floor(demo_property: Any, make_floor: Callable[[Any], Floor]) -> Floor:
    return make_floor(demo_property)


@pytest.fixture
def other_property(db: None) -> Any:
    from casino.services import property_register

    return property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")


@pytest.fixture
def holdem(floor: Floor) -> SimpleNamespace:
    """Two open Hold'em tables (10 seats) with every seat taken but seat 9, the Hold'em
    list (a waitlist: its tables are open) and three players on it in this order."""
    t1, t2 = floor.tables(2)
    floor.fill(t1, leave=(9,))
    floor.fill(t2, leave=(9,))
    wl = floor.waitlist()
    entries = floor.list_players(wl, "Ann Lee", "Bob Stone", "Cy Young")
    return SimpleNamespace(floor=floor, tables=[t1, t2], waitlist=wl, entries=entries)


@pytest.fixture
def as_actor() -> Callable[[Actor], APIClient]:
    """An API client logged in as ``actor``."""
    def make(actor: Actor) -> APIClient:
        client = APIClient()
        client.force_authenticate(get_user_model().objects.get(pk=actor.user_id))
        return client
    return make
