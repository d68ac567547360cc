"""What the console offers is what the person may do (issue 23, "a role without the right
(403, the item never offered)"), and every offered link opens its form.

On the demo's played day (``tests/casino/_seeded_day.py``) with a deck inspection and a
fill request waiting, each demo login reads every page that builds action links (the
home's waiting lists, the table list and every table's page, the Rules Submissions page,
the staff list and a person's page, the jackpot records) and opens every
``/console/do/`` link found there: each must be a 200 form — never a 403 (an action its
roles cannot take), never a 404 (an id given to a command that takes none, as the table
page's "Open a round" was) — with each prefilled query value a field of the form. Every
nav item a role sees opens (no 403: the Tables item and its page share the API's roles).

Not walked: the poker floor (``poker_room/console_floor.py`` is being rewritten; its seat
actions are to go through :func:`console.registry.offer` the same way)."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.test import Client
from django.urls import get_resolver

from tests.casino._seeded_day import demo_day
from tests.console.conftest import verified_login

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

HREF = re.compile(r'href="([^"]+)"')
#: query keys that are the form's own, not a field of the command's input
NOT_FIELDS = {"next", "fixed"}


def _caught_up() -> None:
    from casino.eventstore import projections

    for name, projection in sorted(projections.registered().items()):
        if projection.mode == "async":
            projections.rebuild(name)


def _waiting_steps(prop: Any) -> dict[str, Any]:
    """Through the services: a deck received and inspected at an open demo table (a
    floorperson's verification waits, § 637a.4(a)) and a fill of 4 × $25 requested there
    (the cage's preparation waits)."""
    from django.contrib.auth import get_user_model

    from casino.actors import actor_of
    from finance.services import tray
    from tables.models import GameTable
    from tables.services import decks, tables

    users = get_user_model().objects
    floor = actor_of(users.get(username="demo_floorperson"))
    dealer = actor_of(users.get(username="demo_dealer"))
    table = GameTable.objects.filter(property=prop, status="open").exclude(
        name__startswith="SIM-").exclude(game__icontains="poker").order_by("name").first() \
        or GameTable.objects.filter(property=prop, status="open").order_by("name").first()
    tables.table_assign_dealer(actor=floor, table_id=table.pk, dealer="demo_dealer")
    deck = decks.deck_receive(actor=floor, table_id=table.pk, back_colour="blue",
                              batch=f"OFFER-{time.monotonic_ns()}")
    decks.deck_inspect(actor=dealer, deck_id=deck.pk, defects=[])
    tray.slip_request(actor=floor, table_id=table.pk, kind="fill", pieces={"2500": 4})
    return {"table": table, "deck": deck}


@pytest.fixture(scope="module")
def day(django_db_setup: None, django_db_blocker: Any,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from django.contrib.auth import get_user_model

    from casino.roles import Role

    with django_db_blocker.unblock(), demo_day(
            tmp_path_factory.mktemp("var"),
            commands=("seed_demo", "seed_demo_tables", "seed_demo_players"),
            deals=1) as (prop, _played, _):
        _caught_up()
        waiting = _waiting_steps(prop)
        clients = {}
        for role in Role:
            c = Client()
            verified_login(c, get_user_model().objects.get(username=f"demo_{role.value}"))
            clients[role.value] = c
        yield {"property": prop, "clients": clients, **waiting}


@pytest.fixture
def db_open(django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        yield


def _pages(prop: Any) -> list[str]:
    from django.contrib.auth import get_user_model

    from tables.models import GameTable

    dealer = get_user_model().objects.get(username="demo_dealer")
    return (["/console/", "/console/tables/", "/console/rules/", "/console/staff/",
             f"/console/staff/{dealer.pk}/", "/console/jackpots/"]
            + [f"/console/tables/{t.pk}/" for t in
               GameTable.objects.filter(property=prop).order_by("name")])


def _links(body: str, prefix: str) -> list[str]:
    return sorted({html.unescape(h) for h in HREF.findall(body) if h.startswith(prefix)})


def _form_faults(url: str, r: Any) -> list[str]:
    """A 200 form with every prefilled query value as a field (its value shown, unless a
    time the form writes on the property's clock)."""
    if r.status_code != 200:
        return [f"{r.status_code}"]
    body = r.content.decode()
    faults = []
    for key, value in parse_qsl(urlsplit(url).query):
        if key in NOT_FIELDS:
            continue
        if f'name="{key}"' not in body:
            faults.append(f"no field {key!r}")
        elif ":" not in value and html.escape(value) not in body and value not in body:
            faults.append(f"{key!r} not prefilled with {value!r}")
    return faults


def test_every_offered_action_opens_its_form_for_every_role(
        day: dict[str, Any], db_open: None) -> None:
    """No page offers a role a step it cannot take (403) or a form that is not there
    (404); every prefilled value lands in a field. Each fault names the role, the page
    and the link."""
    faults: list[str] = []
    offered: dict[str, set[str]] = {}
    for role, client in day["clients"].items():
        opened: dict[str, list[str]] = {}
        for page in _pages(day["property"]):
            r = client.get(page)
            if r.status_code != 200:
                continue
            for link in _links(r.content.decode(), "/console/do/"):
                opened.setdefault(link, []).append(page)
        for link, where in sorted(opened.items()):
            offered.setdefault(role, set()).add(urlsplit(link).path.split("/")[3])
            for f in _form_faults(link, client.get(link)):
                faults.append(f"[{role}] {link} (on {where[0]}): {f}")
    assert faults == [], "\n".join(faults)
    # the walk reached what the day offers, each to the roles that take it
    assert {"deck_inspection_verify", "table_close", "round_open", "deck_receive"} \
        <= offered["floorperson"]
    assert "slip_prepare" in offered["cashier"]
    assert {"role_grant_request", "credential_reset_request", "staff_enrol"} <= offered["admin"]
    assert "credential_reset_request" not in offered.get("compliance", set())
    assert "deck_inspection_verify" not in offered.get("dealer", set())
    assert "table_close" not in offered.get("dealer", set())


def test_the_open_a_round_link_names_the_table_and_its_deck_in_play(
        day: dict[str, Any], db_open: None) -> None:
    """``round_open`` takes no id (tables/commands.py): its link is
    ``/console/do/round_open/?table=…&deck=…``, both fields filled (it was
    ``/console/do/round_open/<table>/``: a 404)."""
    from tables.models import Deck, DeckState, GameTable

    floor = day["clients"]["floorperson"]
    for table in GameTable.objects.filter(property=day["property"], status="open",
                                          current_round_id__isnull=True):
        body = floor.get(f"/console/tables/{table.pk}/").content.decode()
        links = _links(body, "/console/do/round_open/")
        if not links:
            continue
        [link] = links
        query = dict(parse_qsl(urlsplit(link).query))
        assert urlsplit(link).path == "/console/do/round_open/"
        assert query["table"] == str(table.pk)
        in_play = {str(d) for d in Deck.objects.filter(
            table=table, state=DeckState.IN_PLAY).values_list("pk", flat=True)}
        if in_play:
            assert query["deck"] in in_play
        assert _form_faults(link, floor.get(link)) == []
        return
    pytest.fail("no open banked table offered 'Open a round' to the floorperson")


def test_every_nav_item_a_role_sees_opens(day: dict[str, Any], db_open: None) -> None:
    """An item in the navigation is never a 403 (the Tables item once had roles the page
    did not: an administrator saw it and was refused)."""
    from casino.roles import Role
    from console.registry import nav_for

    faults = []
    for role in Role:
        client = day["clients"][role.value]
        for _group, items in nav_for(frozenset({role.value})):
            for item in items:
                r = client.get(item.url.split("#")[0])
                if r.status_code != 200:
                    faults.append(f"[{role.value}] {item.label} {item.url}: {r.status_code}")
    assert faults == [], "\n".join(faults)


def test_one_tables_item_with_the_apis_roles() -> None:
    """One "Tables" item; its roles are the page's and the API's table list's."""
    from casino.roles import Role
    from console.registry import REGISTRY
    from tables.api.views import TableList
    from tables.console_table_page import TABLE_PAGE_ROLES, table_list

    get_resolver().url_patterns  # every app's registrations made
    [item] = [i for i in REGISTRY.nav if i.label == "Tables"]
    [permission] = TableList.permission_classes
    assert item.url == "/console/tables/"
    assert set(item.roles) == set(TABLE_PAGE_ROLES) == set(table_list.roles) \
        == set(permission.allowed)
    assert Role.ADMIN in item.roles
    # "Decks to handle" leads to the same page, for roles it admits
    for other in REGISTRY.nav:
        if other.url == item.url:
            assert set(other.roles) <= set(TABLE_PAGE_ROLES), other.label


def test_offer_holds_the_declarations_roles() -> None:
    """``offer`` answers a link only for a role the declaration admits; an unknown
    command is never offered; a page giving an id to a command without one (or none to
    one that needs it) is a mistake named at once, not a 404 link."""
    from console.registry import offer

    get_resolver().url_patterns  # every app's declarations made
    assert offer({"floorperson"}, "Close", "table_close", "t-1") == {
        "label": "Close", "url": "/console/do/table_close/t-1/"}
    assert offer({"dealer"}, "Close", "table_close", "t-1") is None
    assert offer({"cashier"}, "Open", "round_open", None, table="t-1") is None
    assert offer({"dealer"}, "Open", "round_open", None, table="t-1", deck=None) == {
        "label": "Open", "url": "/console/do/round_open/?table=t-1"}
    assert offer({"admin"}, "X", "no_such_command") is None
    with pytest.raises(ValueError, match="takes no id"):
        offer({"dealer"}, "Open", "round_open", "t-1")
    with pytest.raises(ValueError, match="table_id"):
        offer({"floorperson"}, "Close", "table_close")
