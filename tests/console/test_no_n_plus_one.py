"""No N+1 on the console (issue 23, "Benchmark"): the number of SQL queries of each console
page does not grow with the number of tables or of items waiting.

One state is built through the real services, first with 2 tables of each kind, then with
8: each banked table opened with a deck received (its dealer inspects it) and a deck
inspected (a floorperson verifies it: § 637a.4(a)), a fill requested (the cage prepares
it), its opening inventory recorded (a floorperson signs it) and its drop box removed (the
count team counts it); each poker table opened with a player seated; and per table a new
member of staff with a role grant awaiting a second person; at 8, the first table (whose
page is counted) has three more decks too. (The jackpots' lists grow
with hands and box counts, not tables: tests/jackpots/test_console_tasks.py counts them
at 3 and 30 items.) Every page is asked as a signed-in person of the role that reads
it (test ``Client``, the whole middleware stack), once to warm up and once counted
(``CaptureQueriesContext``), at 2 and at 8; the counts must be equal, page by page. The
items are checked to be there (so a page that showed nothing could not pass)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.actors import Actor
from casino.roles import Role
from finance.services import drop, tray
from poker_room.services import seats
from tables.services import decks
from tables.services import tables as table_services
from tests.finance.test_tray import FILL, OPENER
from tests.tables.conftest import (  # noqa: F401  the tables fixtures, shared
    crew,
    open_table,
    put_rules_in_effect,
    staff,
)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROLES = [r.value for r in Role]


def _grow(crew: dict[str, Actor], team: dict[str, Actor], make_staff: Callable,
          start: int, n: int) -> list[Any]:
    """``n`` more banked and ``n`` more poker tables, with their items (see the module's
    docstring); the banked tables."""
    banked = []
    for i in range(start, start + n):
        t = table_services.table_configure(
            actor=crew["admin"], name=f"NQ-HL-{i:02d}", game="five-card-hi-lo", positions=6,
            dealing_method="automated-shoe", shuffler="automated")
        table_services.table_assign_dealer(actor=crew["floor"], table_id=t.pk,
                                           dealer=crew["dealer"].username)
        table_services.table_open(actor=crew["floor"], table_id=t.pk)
        decks.deck_receive(actor=crew["floor"], table_id=t.pk, back_colour="red",
                           batch=f"R-{i}")
        inspected = decks.deck_receive(actor=crew["floor"], table_id=t.pk,
                                       back_colour="blue", batch=f"B-{i}")
        decks.deck_inspect(actor=crew["dealer"], deck_id=inspected.pk, defects=[])
        tray.slip_request(actor=crew["floor"], table_id=t.pk, kind="fill", pieces=FILL)
        tray.inventory_record(actor=crew["dealer"], table_id=t.pk, slip="opener",
                              pieces=OPENER)
        drop.drop_remove(actor=team["security"], table_id=t.pk)
        banked.append(t)

        p = table_services.table_configure(
            actor=crew["admin"], name=f"NQ-HOLDEM-{i:02d}", game="holdem", positions=10,
            dealing_method="hand", shuffler="automated")
        table_services.table_assign_dealer(actor=crew["floor"], table_id=p.pk,
                                           dealer=crew["dealer"].username)
        table_services.table_open(actor=crew["floor"], table_id=p.pk)
        seats.seat_player(actor=crew["dealer"], table_id=p.pk, seat=1, buy_in_cents=10000,
                          paid_with="chips")

        newcomer = make_staff(username=f"nq-newcomer-{i}")
        from casino.services.staff import role_grant_request

        # staff_id is the login's id (casino.services.staff._staff, field="user_id")
        role_grant_request(actor=crew["admin"], staff_id=newcomer.pk, role="dealer",
                           reason="joins the pit")
    return banked


def _pages(first_table: Any) -> list[tuple[str, str, str]]:
    """(what, path, role): each role's home and fragment, and the pages that list tables,
    items, people or events, each asked by a role that reads it."""
    out = [(f"home as {r}", "/console/", r) for r in ROLES]
    out += [(f"fragment as {r}", "/console/waiting/", r) for r in ROLES]
    out += [("poker floor", "/console/poker/", "floorperson"),
            ("table list", "/console/tables/", "floorperson"),
            ("a table's page", f"/console/tables/{first_table.pk}/", "floorperson"),
            ("staff list (admin)", "/console/staff/", "admin"),
            ("staff list (compliance)", "/console/staff/", "compliance"),
            ("event log", "/console/events/", "compliance")]
    return out


def _count(clients: dict[str, Any], pages: list[tuple[str, str, str]]
           ) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Queries of each page (its second request: the first warms what a process caches
    once), and the SQL of each, to name the query that grew."""
    counted, sql = {}, {}
    for what, path, role in pages:
        assert clients[role].get(path).status_code == 200, what
        with CaptureQueriesContext(connection) as q:
            response = clients[role].get(path)
        assert response.status_code == 200, what
        counted[what] = len(q)
        sql[what] = [x["sql"] for x in q.captured_queries]
    return counted, sql


def test_no_console_page_reads_more_queries_with_more_tables_or_items(
        crew: dict[str, Actor], put_rules_in_effect: Callable, staff: Callable,
        make_staff: Callable, console_client: Callable) -> None:
    for game in ("five-card-hi-lo", "holdem"):
        put_rules_in_effect(game)
    team = {"security": staff("security")}
    # the readers: one person per role, signed in (and the second factor verified)
    clients = {r: console_client(r) for r in ROLES}
    # the dealer is asked to inspect at their own tables only: the crew's, who deals them
    clients["dealer"].force_login(_user(crew["dealer"]))

    first = _grow(crew, team, make_staff, 0, 2)[0]
    pages = _pages(first)
    at_2, _ = _count(clients, pages)
    _items_are_shown(clients, 2)

    _grow(crew, team, make_staff, 2, 6)
    # and more items on the first table's page: three more decks received, one inspected
    for k in range(3):
        deck = decks.deck_receive(actor=crew["floor"], table_id=first.pk,
                                  back_colour="green", batch=f"G-{k}")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk, defects=[])
    at_8, sql_8 = _count(clients, pages)
    _items_are_shown(clients, 8, more_decks=(2, 1))
    assert clients["floorperson"].get(f"/console/tables/{first.pk}/").content.decode(
    ).count("G-") >= 3

    grew = {what: (at_2[what], at_8[what]) for what in at_2 if at_2[what] != at_8[what]}
    assert not grew, "queries grew with the tables (2 → 8): " + "; ".join(
        f"{what}: {a} → {b}, e.g. {_repeated(sql_8[what])}" for what, (a, b) in grew.items())


def _user(actor: Actor) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=actor.user_id)


def _items_are_shown(clients: dict[str, Any], n: int, more_decks: tuple[int, int] = (0, 0)
                     ) -> None:
    """Each kind of item the state made is on its reader's list, ``n`` of them (and the
    first table's ``more_decks``: to inspect, to verify)."""
    def waiting(role: str) -> dict[str, int]:
        response = clients[role].get("/console/")
        return response.wsgi_request._console_shell.counts

    assert waiting("dealer")["decks_to_inspect"] == n + more_decks[0]
    floor = waiting("floorperson")
    assert floor["deck_inspections_to_verify"] == n + more_decks[1]
    assert floor["finance_inventories_to_sign"] == n
    assert waiting("cashier")["finance_slips_to_prepare"] == n
    assert waiting("count_team")["finance_drop_boxes_to_count"] == n
    assert waiting("admin")["role_grants"] == n
    floor_page = clients["floorperson"].get("/console/poker/").content.decode()
    assert floor_page.count('class="floor-table"') == n


def _repeated(queries: list[str]) -> str:
    """The statement asked most often (the N+1's, when a page has one)."""
    import re
    from collections import Counter

    shapes = Counter(re.sub(r"'[^']*'|\b\d+\b", "?", q) for q in queries)
    shape, times = shapes.most_common(1)[0]
    return f"{times}× {shape[:300]}"
