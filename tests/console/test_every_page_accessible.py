"""Every console page is usable by everyone (issue 23, item 7 and its "Done when"): on the
demo's played day, each role logs in through the real form and the console is crawled from
``/console/`` (``tests/console/_crawl.py``: each kind of page once, links only, never a
POST): axe-core finds no serious or critical violation on any page, nor with a disclosure
opened (the nav's Menu at 768 px); nothing scrolls sideways on a 768 px tablet (a
floorperson's); one ``<h1>``; the first Tab focuses the skip link; every page answers 200.
And a floorperson verifies a deck inspection with the keyboard alone, the focus visible at
every step (§ 637a.4(a): a floorperson verifies the dealer's inspection)."""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.casino._seeded_day import demo_day
from tests.console._crawl import Visit, crawl, page_faults, report
from tests.console.conftest import enrol_second_factor, totp_code

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: at most this many pages per role (more is a fault: the console grew a kind of page the
#: crawl cannot finish), and the crawl of every role within this many seconds (a budget
#: against a hung page only: a loaded machine running out of it is a warning, not a fault)
PAGES_PER_ROLE = 60
CRAWL_SECONDS = 600
TABLET = {"width": 768, "height": 1000}
DESKTOP = {"width": 1280, "height": 900}


def _caught_up() -> None:
    """The async followers rebuilt from the log (as the pages' walker does), so the
    waiting lists read every step of the played day."""
    from casino.eventstore import projections

    for name, projection in sorted(projections.registered().items()):
        if projection.mode == "async":
            projections.rebuild(name)


def _inspected_deck(prop: Any) -> Any:
    """A deck received at an open demo table and inspected by its dealer, through the
    services: it waits for a floorperson's verification (§ 637a.4(a))."""
    from casino.actors import actor_of
    from django.contrib.auth import get_user_model
    from tables.models import GameTable
    from tables.services import decks, tables

    users = get_user_model().objects
    floor = actor_of(users.get(username="demo_floorperson"))
    dealer = actor_of(users.get(username="demo_dealer"))
    table = GameTable.objects.filter(property=prop, status="open").exclude(
        name__startswith="SIM-").order_by("name").first()
    assert table is not None, "the demo has no open table"
    tables.table_assign_dealer(actor=floor, table_id=table.pk, dealer="demo_dealer")
    deck = decks.deck_receive(actor=floor, table_id=table.pk, back_colour="red",
                              batch=f"AXE-{time.monotonic_ns()}")
    decks.deck_inspect(actor=dealer, deck_id=deck.pk, defects=[])
    return deck


@pytest.fixture(scope="module")
def day(django_db_setup: None, django_db_blocker: Any,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The demo with yesterday played (``tests/casino/_seeded_day.py``), its followers
    caught up, a deck inspection waiting, each demo login's password (and authenticator
    for the roles that need one); flushed after."""
    from django.contrib.auth import get_user_model

    from casino.roles import Role
    from casino.services.two_factor import two_factor_required

    var = tmp_path_factory.mktemp("var")
    with django_db_blocker.unblock(), demo_day(
            var, commands=("seed_demo", "seed_demo_tables", "seed_demo_players"),
            deals=1) as (prop, played, _):
        _caught_up()
        passwords = dict(line.split(" ", 1) for line in
                         (Path(var) / "demo_logins.txt").read_text().splitlines() if line)
        keys = {}
        for role in Role:
            user = get_user_model().objects.get(username=f"demo_{role.value}")
            if two_factor_required(frozenset({role.value})):
                device, _codes = enrol_second_factor(user)
                keys[role.value] = device.key
        yield {"property": prop, "day": played, "passwords": passwords, "keys": keys,
               "deck": _inspected_deck(prop)}


@pytest.fixture(scope="module")
def server(day: dict[str, Any]) -> Iterator[str]:
    from tests._live_server import LiveServer

    live = LiveServer()
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """The ``browser`` fixture's Chromium, once for the module (the crawl and the
    keyboard share it)."""
    from tests.conftest import CHROMIUM

    if not os.path.exists(CHROMIUM):  # tests/conftest.py's rule: CI must not skip
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium is not at {CHROMIUM}: .ci/run installs Debian's chromium")
        pytest.skip(f"Chromium is not at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    mp = pytest.MonkeyPatch()
    mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                  args=["--no-sandbox", "--disable-gpu"])
            try:
                yield b
            finally:
                b.close()
                from django.db import connections

                # the ORM calls the tests made while Playwright's loop ran are in its
                # context: closed there, or the test database cannot be dropped
                connections.close_all()
    finally:
        mp.undo()


def _log_in(chromium: Any, server: str, day: dict[str, Any], role: str,
            viewport: dict[str, int]) -> tuple[Any, Any]:
    """A context of its own for ``demo_<role>``, logged in through the login form (and
    the code page for the roles with a second factor)."""
    username = f"demo_{role}"
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server}/console/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", day["passwords"][username])
    page.click("button[type=submit]")
    if role in day["keys"]:
        page.wait_for_url("**/console/two-factor/verify/**")
        page.fill("#id_code", totp_code(day["keys"][role]))
        page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/console/login/" not in url
                      and "/console/two-factor/verify/" not in url)
    return context, page


def test_every_console_page_passes_axe_the_tablet_and_the_skip_link(
        day: dict[str, Any], server: str, chromium: Any) -> None:
    """Each role's console, crawled at 768 px (its home also at 1280 px): every bad page
    is listed with all its faults."""
    from casino.roles import Role

    deadline = time.monotonic() + CRAWL_SECONDS
    visits: list[Visit] = []
    unvisited: list[str] = []
    out_of_time: list[str] = []
    kinds: set[str] = set()
    for role in Role:
        context, page = _log_in(chromium, server, day, role.value, DESKTOP)
        try:
            response = page.goto(f"{server}/console/")
            faults, _ = page_faults(page, response, width_only=True)
            visits.append(Visit(url="/console/ (1280 px)", role=role.value, faults=faults))
            page.set_viewport_size(TABLET)
            seen, left = crawl(page, server, role.value, limit=PAGES_PER_ROLE,
                               deadline=deadline)
        finally:
            context.close()
        visits += seen
        if left and len(seen) < PAGES_PER_ROLE:  # not the limit: the time ran out
            out_of_time += [f"[{role.value}] {u}" for u in left]
        else:
            unvisited += [f"[{role.value}] {u}" for u in left]
        kinds |= {v.url.split("?")[0] for v in seen}

    assert unvisited == [], ("the crawl stopped at its page limit before these pages: "
                             + ", ".join(unvisited))
    if out_of_time:  # a loaded machine: the pages crawled are still checked below
        warnings.warn(f"the crawl ran out of its {CRAWL_SECONDS} s before "
                      + ", ".join(out_of_time), stacklevel=1)
    # the crawl reached what the day offers: a form from a waiting item, a table's page,
    # the compliance pages, a printable
    reached = " ".join(sorted(kinds))
    expected_kinds = ("/console/do/deck_inspection_verify/", "/console/tables/",
                      "/console/events/", "/console/staff/", "/console/poker/")
    for expected in () if out_of_time else expected_kinds:
        assert expected in reached, f"the crawl never reached {expected}: {reached}"
    assert report(visits) == "", "\n" + report(visits)


_FOCUS_SHOWN = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) { return null; }
  const s = getComputedStyle(e);
  const outline = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0;
  return {text: (e.textContent || e.value || "").trim().slice(0, 60), tag: e.tagName,
          href: e.getAttribute("href"), id: e.id,
          shown: outline || (s.boxShadow && s.boxShadow !== "none")};
}"""


def _tab_to(page: Any, wanted: Any, *, limit: int = 80) -> list[str]:
    """Tab until ``wanted(focused)`` holds; the focus must be visible at each step.
    Returns the faults (the focus invisible somewhere, or never reaching it)."""
    faults = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(_FOCUS_SHOWN)
        if focused is None:
            continue
        if not focused["shown"]:
            faults.append(f"no visible focus on {focused['tag']} {focused['text']!r}")
        if wanted(focused):
            return faults
    return [*faults, f"never reached by Tab in {limit} presses"]


def test_a_floorperson_verifies_a_deck_inspection_with_the_keyboard_alone(
        day: dict[str, Any], server: str, chromium: Any) -> None:
    """From the home, Tab to the waiting item's button, Enter; on the form, Space on
    "Yes", Tab to the button, Enter: the inspection is verified (DeckInspectionVerified,
    by demo_floorperson) and the item is gone."""
    from casino.eventstore.models import Event

    deck = day["deck"]
    url = f"/console/do/deck_inspection_verify/{deck.pk}/"
    context, page = _log_in(chromium, server, day, "floorperson", TABLET)
    try:
        page.goto(f"{server}/console/")
        faults = _tab_to(page, lambda f: (f["href"] or "").startswith(url))
        assert faults == []
        page.keyboard.press("Enter")
        page.wait_for_url(f"**{url}**")
        faults = _tab_to(page, lambda f: f["id"].endswith("accepted-yes"))
        page.keyboard.press("Space")
        assert page.is_checked("input[value=yes][name=accepted]")
        faults += _tab_to(page, lambda f: f["tag"] == "BUTTON"
                          and f["text"].startswith("Verify"))
        assert faults == []
        page.keyboard.press("Enter")
        page.wait_for_url(lambda u: url not in u)
        assert url not in page.content()  # the item is gone from the home
    finally:
        context.close()
    [verified] = Event.objects.filter(stream_id=f"deck-{deck.pk}",
                                      type="DeckInspectionVerified")
    assert verified.data["accepted"] is True
    assert verified.metadata["actor"] == "demo_floorperson"
