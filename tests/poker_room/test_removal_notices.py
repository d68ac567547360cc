"""§ 637a.18(c): the notice to compliance of a player required to leave a game stays on
compliance's list until a compliance officer acknowledges it, however old it is; the list
pages through them (oldest first) and drops only the acknowledged."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from casino.eventstore.models import Event
from console.registry import REGISTRY
from poker_room.services import seats
from tests.console.conftest import client_of, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.regulation("637a.18(c)")]

KEY = "player_removals_to_acknowledge"
LIST = "/console/poker/removals/"


def _take(client, table, *seat_numbers: int) -> None:
    for seat in seat_numbers:
        r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()


def _remove(floor, table, seat: int, reason: str) -> int:
    r = floor.post(f"/api/v1/poker-tables/{table.pk}/seats/remove/",
                   {"seat": seat, "reason": reason}, format="json")
    assert r.status_code == 200, r.json()
    return Event.objects.filter(type="PlayerRemoved", stream_id=f"poker_table-{table.pk}",
                                data__seat=seat).latest("version").version


def test_an_unacknowledged_notice_stays_however_old(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """A removal recorded 400 days ago and never acknowledged is still on compliance's
    list today (the service's list, the home page, the task's count); acknowledged, it
    leaves the list."""
    long_ago = datetime.now(UTC) - timedelta(days=400)
    with time_machine.travel(long_ago, tick=True):
        table = poker_table("holdem")["table"]
        _take(as_actor(crew["dealer"]), table, 1, 2)
        version = _remove(as_actor(crew["floor"]), table, 2, "collusion with seat 1")
    assert Event.objects.get(type="PlayerRemoved").recorded_at < timezone.now() - \
        timedelta(days=399)
    officer = crew["compliance"]
    assert [e.version for e in seats.removals_to_acknowledge(officer)] == [version]
    assert REGISTRY.tasks[KEY].items(officer).total == 1
    home = text_of(client_of(officer).get("/console/").content.decode())
    assert f"{table.name}: player removed from seat 2" in home
    assert "collusion with seat 1" in home
    seats.player_removal_acknowledge(actor=officer, table_id=table.pk, removal=version,
                                     note="reviewed with surveillance")
    assert list(seats.removals_to_acknowledge(officer)) == []


def test_the_list_pages_through_every_unacknowledged_notice(
        crew, poker_table: Callable, as_actor: Callable, monkeypatch) -> None:
    """Three notices, two to a page: page 1 lists the two oldest (seats 1 and 2), page 2
    the third (seat 3), each with the step to acknowledge it; an acknowledged notice
    leaves the pages. Only compliance reads the list (a dealer is refused)."""
    from poker_room import console_removals

    monkeypatch.setattr(console_removals, "PER_PAGE", 2)
    table = poker_table("holdem")["table"]
    _take(as_actor(crew["dealer"]), table, 1, 2, 3, 4)
    floor = as_actor(crew["floor"])
    versions = [_remove(floor, table, seat, f"reason {seat}") for seat in (1, 2, 3)]
    officer = client_of(crew["compliance"])
    first = officer.get(LIST)
    assert first.status_code == 200
    text = text_of(first.content.decode())
    assert "reason 1" in text and "reason 2" in text and "reason 3" not in text
    assert "Page 1 of 2" in text
    assert re.search(r'href="\?page=2"', first.content.decode())
    second = text_of(officer.get(LIST + "?page=2").content.decode())
    assert "reason 3" in second and "reason 1" not in second
    assert "Acknowledge the notice" in second
    seats.player_removal_acknowledge(actor=crew["compliance"], table_id=table.pk,
                                     removal=versions[0], note="seen")
    text = text_of(officer.get(LIST).content.decode())
    assert "reason 1" not in text and "reason 2" in text and "reason 3" in text
    assert "Page 1 of 1" in text
    assert client_of(crew["dealer"]).get(LIST).status_code == 403
