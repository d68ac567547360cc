"""The poker floor on the console's "waiting for me" (poker_floor.console_tasks): "Open a
table" once a list's waiting players reach the number the property set for it (issue 24,
item 4: the console suggests, opening is the floor's command), and "Calls past their
time" for the open calls whose deadline has passed — for the floor's roles only, never
another property's, each in one query however many lists or calls.

State is built through the real services; the lists are read through the registry."""

from __future__ import annotations

from typing import Any

import time

import pytest
from django.db import connection
from django.utils import timezone
from django.test.utils import CaptureQueriesContext

from casino.actors import Actor
from console.registry import REGISTRY, command_url, providers_for
from poker_floor.services import calls, lists
from tests.console.conftest import client_of, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

OPEN, PAST = "floor_open_a_table", "floor_calls_past_time"


def past(call: Any) -> Any:
    """Wait until ``call``'s deadline (a "minute" of a millisecond here) has passed."""
    time.sleep(max(0.0, (call.deadline_at - timezone.now()).total_seconds()) + 0.005)
    return call


def waiting(actor: Actor, key: str) -> list[Any]:
    if key not in {p.key for p in providers_for(actor.roles)}:
        return []
    return list(REGISTRY.tasks[key].items(actor, None))


def test_a_list_at_its_number_suggests_opening_a_table(holdem) -> None:
    f = holdem.floor
    lists.waitlist_configure(actor=f["supervisor"], waitlist_id=holdem.waitlist.pk,
                             open_table_at=4)
    assert waiting(f["floor"], OPEN) == []          # three waiting, the number is four
    f.list_player(holdem.waitlist, "Di Ross")
    [item] = waiting(f["floor"], OPEN)
    assert item.title == "$4.00/$8.00 fixed limit Hold'em: 4 waiting"
    # opening by lot is declared by the moves (poker_floor.move_commands): its form
    assert item.url == command_url("table_open_by_lot", holdem.waitlist.pk)
    assert [i.title for i in waiting(f["supervisor"], OPEN)] == [item.title]


def test_a_called_player_is_not_counted_as_waiting_for_a_new_table(holdem) -> None:
    f = holdem.floor
    lists.waitlist_configure(actor=f["supervisor"], waitlist_id=holdem.waitlist.pk,
                             open_table_at=3)
    assert len(waiting(f["floor"], OPEN)) == 1
    calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                    table_id=holdem.tables[0].pk, seat=9)
    assert waiting(f["floor"], OPEN) == []


def test_no_suggestion_when_the_number_is_none(holdem) -> None:
    f = holdem.floor
    f.list_players(holdem.waitlist, *(f"Player {n}" for n in range(1, 8)))
    assert waiting(f["floor"], OPEN) == []


@pytest.mark.parametrize("who", ("dealer", "compliance", "security", "cashier"))
def test_the_floors_lists_are_not_shown_to_other_roles(holdem, settings, who: str) -> None:
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    f = holdem.floor
    lists.waitlist_configure(actor=f["supervisor"], waitlist_id=holdem.waitlist.pk,
                             open_table_at=2)
    calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                    table_id=holdem.tables[0].pk, seat=9)
    assert waiting(f[who], OPEN) == [] and waiting(f[who], PAST) == []


def test_a_call_past_its_time_waits_for_the_floor_to_time_it_out(holdem, settings) -> None:
    f = holdem.floor
    t1 = holdem.tables[0]
    on_time = calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                              table_id=t1.pk, seat=9)
    assert waiting(f["floor"], PAST) == []
    settings.FLOOR_AUTO_CALL = False  # the floor calls Ann again itself, not the system Bob
    calls.call_cancel(actor=f["floor"], call_id=on_time.pk, reason="wrong seat")
    settings.FLOOR_AUTO_CALL = True
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    late = past(calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                                table_id=t1.pk, seat=9))
    [item] = waiting(f["floor"], PAST)
    assert item.title == "$4.00/$8.00 fixed limit Hold'em: A.L.'s call is past its time"
    assert item.detail.startswith("Called to seat 9; to come by ")
    assert (item.url, item.overdue) == (command_url("call_timeout", late.pk), True)
    calls.call_timeout(actor=f["floor"], call_id=late.pk)
    # the seat was offered again to Bob, whose call is past its time too (a millisecond)
    time.sleep(0.01)
    assert [i.title for i in waiting(f["floor"], PAST)] == [
        "$4.00/$8.00 fixed limit Hold'em: B.S.'s call is past its time"]


def test_another_propertys_lists_are_not_shown(holdem, settings, other_property, make_floor
                                               ) -> None:
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    f = holdem.floor
    lists.waitlist_configure(actor=f["supervisor"], waitlist_id=holdem.waitlist.pk,
                             open_table_at=2)
    calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                    table_id=holdem.tables[0].pk, seat=9)
    theirs = make_floor(other_property)
    assert waiting(theirs["floor"], OPEN) == [] and waiting(theirs["floor"], PAST) == []


def test_each_list_is_one_query_however_many_calls(holdem, settings) -> None:
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    f = holdem.floor
    lists.waitlist_configure(actor=f["supervisor"], waitlist_id=holdem.waitlist.pk,
                             open_table_at=1)
    counts = []
    for t in holdem.tables:
        past(calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk, table_id=t.pk,
                             seat=9))
        for key in (OPEN, PAST):
            with CaptureQueriesContext(connection) as ctx:
                got = REGISTRY.tasks[key].items(f["floor"], 5)
            counts.append((key, len(ctx.captured_queries), got.total))
    # no declared-form lookup reads the database; the provider is its one query
    assert counts == [(OPEN, 1, 1), (PAST, 1, 1), (OPEN, 1, 1), (PAST, 1, 2)]


def test_the_home_page_shows_them_and_the_nav_badge_counts_them(holdem, settings) -> None:
    settings.FLOOR_CALL_MINUTE_SECONDS = 0.001
    f = holdem.floor
    past(calls.call_next(actor=f["floor"], waitlist_id=holdem.waitlist.pk,
                         table_id=holdem.tables[0].pk, seat=9))
    text = text_of(client_of(f["floor"]).get("/console/").content.decode())
    assert "Calls past their time" in text
    assert "A.L.'s call is past its time" in text
