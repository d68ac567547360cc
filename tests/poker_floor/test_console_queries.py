"""No N+1 on the poker floor's console pages and reads (issue 23's rule, as
tests/console/test_no_n_plus_one.py holds the other pages to it): the number of SQL
queries of the lists page, its fragment, one list, the fairness record's page and the two
API reads does not grow with the players, the calls, the tables or the lists.

The state is built through the real services twice as big: first the Hold'em list with
two open tables, three players and one call; then four open tables, nine players, three
calls and a second list (Omaha, an interest list: no table of it open). Each page is asked
as a floorperson (the names, the steps) and a compliance officer, once to warm up and once
counted, before and after; the counts must be equal."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from poker_floor.services import calls
from tests.console.conftest import client_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _urls(wl: Any) -> list[str]:
    return ["/console/poker/lists/", "/console/poker/lists/results/",
            f"/console/poker/lists/{wl.pk}/", f"/console/poker/lists/{wl.pk}/fairness/",
            "/api/v1/waitlists/", f"/api/v1/waitlists/{wl.pk}/fairness/"]


def _counts(clients: dict[str, Any], wl: Any) -> dict[tuple[str, str], int]:
    out = {}
    for who, c in clients.items():
        for url in _urls(wl):
            assert c.get(url).status_code == 200, (who, url)   # warm up
            with CaptureQueriesContext(connection) as ctx:
                r = c.get(url)
            assert r.status_code == 200, (who, url)
            out[(who, url)] = len(ctx.captured_queries)
    return out


def test_the_pages_and_reads_do_not_grow_with_players_calls_tables_or_lists(holdem) -> None:
    f = holdem.floor
    wl = holdem.waitlist
    clients = {"floor": client_of(f["floor"]), "compliance": client_of(f["compliance"])}
    calls.call_next(actor=f["floor"], waitlist_id=wl.pk, table_id=holdem.tables[0].pk,
                    seat=9)
    small = _counts(clients, wl)

    more = f.tables(2)
    for t in more:
        f.fill(t, leave=(9,))
    f.list_players(wl, *(f"Player {n}" for n in range(1, 7)))
    for t in (holdem.tables[1], *more):
        calls.call_next(actor=f["floor"], waitlist_id=wl.pk, table_id=t.pk, seat=9)
    omaha = f.waitlist("omaha-high")
    f.list_players(omaha, "Oma One", "Oma Two")
    big = _counts(clients, wl)

    body = clients["floor"].get("/console/poker/lists/").content.decode()
    assert body.count("Player ") >= 6 and "Oma One" in body    # the items are there
    assert big == small
