"""A game's list is opened from the Waitlists page (issue 24, item 1): the floor's roles
are offered the step and its form records WaitlistOpened; the readers who keep no list
(a dealer, compliance) are not offered it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from poker_floor.models import Waitlist
from tests.console.conftest import client_of, text_of

pytestmark = pytest.mark.django_db


def test_the_floor_opens_a_list_from_the_waitlists_page(floor: Any) -> None:
    floor.table()  # a Hold'em table with the Rules in effect
    c = client_of(floor["supervisor"])
    page = c.get("/console/poker/lists/").content.decode()
    assert "Open a list for a game" in text_of(page)
    form = c.get("/console/do/waitlist_open/").content.decode()
    assert '<option value="holdem">Hold&#x27;em</option>' in form  # the games by name
    hidden = dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"', form))
    r = c.post("/console/do/waitlist_open/", {**hidden, "game": "holdem"})
    assert r.status_code == 303
    assert list(Waitlist.objects.filter(property=floor.property).values_list("game", flat=True)
                ) == ["holdem"]


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_a_reader_is_not_offered_to_open_a_list(floor: Any, who: str) -> None:
    page = client_of(floor[who]).get("/console/poker/lists/").content.decode()
    assert "Open a list for a game" not in text_of(page)
