"""The product served on a real socket for the browser tests, and the small day of
:mod:`tests.finance._day` committed at a property of its own so the server's threads see
it: shared by the reports' browser tests (``test_reports_browser``, ``test_reports_print``).
Use the ``server`` fixture by importing it into the test module."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.actors import Actor, actor_of
from casino.eventstore import projections
from casino.services import property_register, staff_bootstrap
from poker_room.demo import jackpot_boxes_ready
from tables.demo import deck_ready
from tables.domain.catalogue import get_table_game
from tables.domain.rules_options import example_options
from tables.services import rules, tables
from tests.finance._day import SmallDay, bad_beat_box_counted_at_cage, small_day

PASSWORD = "browser-pass-123"
LICENCE = "PA-FIN-BROWSER"
#: the people of the small day, each a different person (tests/finance/conftest.py ``team``)
TEAM = {"admin": "admin", "compliance": "compliance", "approver": "compliance",
        "floor": "floorperson", "dealer": "dealer", "security": "security",
        "cashier": "cashier", "runner": "security", "counter": "count_team",
        "counter2": "count_team", "finance": "finance", "finance2": "finance",
        "auditor": "compliance"}


@pytest.fixture
def server(live_server_ctl: Any) -> str:
    """The product on a free port, in a thread (it sees what the test commits)."""
    return live_server_ctl.url


def caught_up(name: str) -> None:
    """The jackpots' follower brought up to date by rebuilding it from the log under the
    append lock (``rebuild_projections`` does the same). Its catch-up reads only settled
    events, below the oldest transaction in flight anywhere on the PostgreSQL server, so
    another test run's open transaction would hold this test's contributions back."""
    projections.rebuild(name)


def put_rules_in_effect(team: dict[str, Actor], game: str, **changes: Any) -> None:
    """The game's example Rules Submission (with ``changes``), drafted, submitted and
    approved by two people of compliance."""
    rs = rules.rules_draft(actor=team["compliance"], game=game,
                           options={**example_options(game), **changes})
    rules.rules_submit(actor=team["compliance"], rules_id=rs.pk)
    rules.rules_approve(actor=team["approver"], rules_id=rs.pk,
                        acknowledge_negative_house_edge=True)  # 589's Super Wager paytable


def configure_table(team: dict[str, Actor], game: str, *, name: str) -> Any:
    """A closed table of ``game``: dealt by hand (poker) or from an automated shoe."""
    g = get_table_game(game)
    return tables.table_configure(
        actor=team["admin"], name=name, game=game, positions=g.max_positions,
        dealing_method="hand" if g.is_poker else "automated-shoe", shuffler="automated")


def committed_day() -> SmallDay:
    """The small day of tests/finance/_day.py at a property of its own, committed (the
    server's threads read it), made with the same steps as the finance fixtures; and a
    Bad Beat box counted 0.10 short at the cage, so the exception report has a row."""
    prop = property_register(licence_number=LICENCE, name="Browser Casino",
                             system="test")
    team: dict[str, Actor] = {}
    for n, (name, role) in enumerate(TEAM.items()):
        team[name] = actor_of(staff_bootstrap(
            property=prop, username=f"fb-{name}", password=PASSWORD,
            credential_number=f"FB-{n:03d}", roles=[role], system="test").user)

    def rules_in_effect(game: str, **changes: Any) -> None:
        put_rules_in_effect(team, game, **changes)

    def open_table(game: str) -> Any:
        rules_in_effect(game)
        t = configure_table(team, game, name=f"{game[:12]}-B")
        tables.table_assign_dealer(actor=team["floor"], table_id=t.pk,
                                   dealer=team["dealer"].username)
        return tables.table_open(actor=team["floor"], table_id=t.pk)

    def deck_in_play(table: Any) -> Any:
        return deck_ready(table, team["dealer"], team["floor"], "red", batch="red")

    def poker_table(game: str, **changes: Any) -> dict[str, Any]:
        table = open_table(game)
        rules_in_effect(game, **changes)
        for colour in ("red", "blue"):
            deck_ready(table, team["dealer"], team["floor"], colour, batch=colour)
        jackpot_boxes_ready(table, team["floor"])  # 637a.2(e): or no contributions
        return {"table": table}

    def as_actor(actor: Actor) -> APIClient:
        from django.contrib.auth import get_user_model

        client = APIClient()
        client.force_authenticate(get_user_model().objects.get(pk=actor.user_id))
        return client

    d = small_day(team, open_table=open_table, deck_in_play=deck_in_play,
                  poker_table=poker_table, as_actor=as_actor)
    bad_beat_box_counted_at_cage(team, d.poker, counted_cents=190)
    caught_up("jackpot_funds")  # the count's rows are the follower's
    return d


def log_in(page: Any, server: str, username: str, next_path: str) -> None:
    """Log ``username`` in through the login page and land on ``next_path``."""
    page.goto(f"{server}/api-auth/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("[type=submit]")
    page.wait_for_url(f"{server}{next_path}")
