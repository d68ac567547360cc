"""The room board in a real browser (Debian's Chromium driven by Playwright) against the
product served on a real socket: § 637a.9(c), a seat taken shows on the board within five
seconds, without a reload, on a screen opened with its display key."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.db import connections

from poker_room.services import seats
from tests.poker_room._committed import poker_room

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

KEY = "room-screen-key-for-tests"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    """The product on a free port, in a thread (it sees what the test commits)."""
    handler = WSGIHandler()

    def app(environ: dict, start_response: Any) -> list[bytes]:
        try:
            return list(handler(environ, start_response))
        finally:
            connections.close_all()  # this request's thread ends with it

    httpd = ThreadedWSGIServer(("127.0.0.1", 0), _Quiet)
    httpd.set_app(app)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        _end_other_sessions()


def _end_other_sessions() -> None:
    """A request thread still serving the browser's kept-alive connection when the server
    stopped may hold a database session: end it, so the test database can be dropped."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the ORM calls the test
    # makes meanwhile are plain synchronous ones.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium is not at {CHROMIUM}: .ci/run installs Debian's chromium")
        pytest.skip(f"Chromium is not at {CHROMIUM} (apt-get install chromium, or set "
                    "CHROMIUM_PATH)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def room(settings: Any) -> dict[str, Any]:
    """A property with one open Hold'em table under the example Rules Submission and a
    dealer; the screen's display key opens its board."""
    settings.ROOM_BOARD_DISPLAY_KEYS = {KEY: "PA-BOARD"}
    people, table = poker_room("PA-BOARD", "rb", table_name="P-BOARD")
    return {"people": people, "table": table}


def test_a_seat_taken_shows_on_the_board_within_five_seconds(room, server, browser) -> None:
    page = browser.new_page()
    page.goto(f"{server}/poker/board/?key={KEY}")
    row = page.locator(f"tr[data-table='{room['table'].pk}']")
    assert "P-BOARD" in row.inner_text()
    page.wait_for_function(
        "document.querySelector('#status').textContent.startsWith('updated')", timeout=6000)
    assert "10 open" in row.inner_text()
    seats.seat_player(actor=room["people"]["dealer"], table_id=room["table"].pk, seat=3,
                      buy_in_cents=10_000, player={"name": "Screen Test", "phone": "555"})
    started = time.monotonic()
    page.wait_for_function(
        f"document.querySelector(\"tr[data-table='{room['table'].pk}']\")"
        ".innerText.includes('9 open')", timeout=5000)
    assert time.monotonic() - started < 5
    text = row.inner_text()
    assert "seat 1, 2, 4" in text and "Screen Test" not in text
    page.close()
