"""The boards' data (``/poker/board/data``, ``/jackpots/board/data``) show time and money one
way (issue 22, items 1 and 2). They are JSON outside /api/, so neither walker reads them:
the page walker skips JSON, the API walker reads the schema's operations. Each is read
here over the API walker's seeded day (the demo property, a simulated gaming day with
Hold'em hands paying into both funds, a High Hand slip) and held to its rules
(:func:`problems_in`): timestamps with their offset, cents only in ``…_cents``, texts in
dollars and the property's zone, contributions in one shape.

The room board is 637a.9(c)'s list of games and vacancies; the jackpot board shows the
amounts displayed to patrons (637a.15(b), 637a.16(b)).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.casino.test_api_shows_time_and_money import problems_in, seeded  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _read(url: str) -> Any:
    """The board's data as a screen of the room reads it: with a floorperson's login (a
    role both boards admit)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username="demo_floorperson"))
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    return response.json()


@pytest.mark.parametrize(("url", "rows"), [("/poker/board/data", "tables"),
                                           ("/jackpots/board/data", "funds")])
def test_the_boards_data_show_time_and_money_one_way(seeded: dict[str, Any], url: str,
                                                      rows: str) -> None:
    """Issue 22: the walker's checks over each board's data, which lists the seeded day's
    poker tables (637a.9(c)) or its Bad Beat and High Hand funds (637a.15(b), 637a.16(b))."""
    zone = ZoneInfo(seeded["property"].time_zone)
    year = seeded["day"].year
    zones = {datetime(year, month, 15, 12, tzinfo=zone).tzname() for month in (1, 7)}
    board = _read(url)
    assert board[rows], f"{url} lists no {rows}: the check would read nothing"
    assert problems_in(board, zones) == []
