"""The room board shows the floor's lists (issue 24, item 6): each list's name, kind and
length, and the players on it by their initials only, in calling order (§ 637a.9(c): the
room announces its games; the board names no player)."""

from __future__ import annotations

import re

from django.test import Client

from tests.poker_floor._helpers import Floor

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def _board(floor: Floor) -> Client:
    from django.contrib.auth import get_user_model

    c = Client()
    c.force_login(get_user_model().objects.get(pk=floor["dealer"].user_id))
    return c


def test_the_board_lists_initials_only_in_calling_order(floor: Floor) -> None:
    floor.table()  # open: the Hold'em list is a waitlist
    holdem = floor.waitlist()
    floor.list_player(holdem, "Ann Lee", phone="201-555-0123")
    floor.list_player(holdem, "bob", email="bob@example.com")
    floor.list_player(holdem, "JS")
    omaha = floor.waitlist("omaha-high")  # no table of it open: an interest list
    c = _board(floor)
    r = c.get("/poker/board/data")
    assert r.json()["lists"] == [
        {"id": str(holdem.pk), "name": "$4.00/$8.00 fixed limit Hold'em", "game": "holdem",
         "kind": "waitlist", "length": 3, "initials": ["A.L.", "B.", "JS"]},
        {"id": str(omaha.pk), "name": "$4.00/$8.00 fixed limit Omaha High",
         "game": "omaha-high", "kind": "interest", "length": 0, "initials": []}]
    page = c.get("/poker/board/").content.decode()
    assert 'id="lists"' in page and "A.L., B., JS" in page and "interest list" in page
    for text in (r.content.decode(), page):
        bare = UUID.sub("", text)  # the rows' ids may hold "555"
        assert "Ann" not in bare and "bob@" not in bare and "555" not in bare


def test_a_player_delisted_leaves_the_board(floor: Floor) -> None:
    from poker_floor.services.lists import player_delist

    floor.table()
    holdem = floor.waitlist()
    ann, bob = floor.list_players(holdem, "Ann Lee", "Bob Stone")
    player_delist(actor=floor["floor"], waitlist_id=holdem.pk, entry_id=ann.pk,
                  reason="went home")
    lists = _board(floor).get("/poker/board/data").json()["lists"]
    assert [(x["length"], x["initials"]) for x in lists] == [(1, ["B.S."])]
