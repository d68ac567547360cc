"""Shared fixtures. Database tests run on PostgreSQL (DATABASE_URL) and on SQLite (the
embedded default); see README "Tests" and bin/test."""

from __future__ import annotations

import itertools
import os
import re
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from casino.eventstore.store import register_stream_type

DB_FIXTURES = {"db", "transactional_db", "committed_db", "django_db_reset_sequences"}

# Stream types the tests append to (the product registers its own in AppConfig.ready).
register_stream_type("test")
register_stream_type("bench")


# A subsection as the chapters number it: section, then one or more (letter), (number) or
# (roman) levels, e.g. 637a.18(k)(1) or 589.11(e)(2)(ii).
SUBSECTION = re.compile(r"^(579|589|637a|671a)\.\d+(\([a-z0-9]+\))+$")


def _check_regulation_markers(item: pytest.Item) -> None:
    """A regulation marker names subsections, each in the chapters' numbering: a typo would
    count for nothing in regcov and say nothing to a reader, so it fails collection."""
    for marker in item.iter_markers("regulation"):
        if not marker.args:
            raise pytest.UsageError(f"{item.nodeid}: regulation() names no subsection")
        for cited in marker.args:
            if not isinstance(cited, str) or not SUBSECTION.match(cited):
                raise pytest.UsageError(
                    f"{item.nodeid}: regulation({cited!r}) is not a subsection such as "
                    "'637a.18(k)(1)'")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _check_regulation_markers(item)
        if DB_FIXTURES & set(getattr(item, "fixturenames", ())) or item.get_closest_marker(
                "django_db"):
            item.add_marker(pytest.mark.database)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "database: touches the database (added automatically)")
    config.addinivalue_line("markers", "browser: drives Debian's Chromium with Playwright")
    from django.conf import settings

    # Test logins need no brute-force resistance; PBKDF2 would cost ~0.3 s per user.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The live servers serve the apps' static files (the console's CSS and JS) uncollected.
    settings.WHITENOISE_USE_FINDERS = True


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL=postgres://... (bin/test does)")


@pytest.fixture(autouse=True)
def _empty_caches() -> Iterator[None]:
    """Each test starts with empty caches: the rate limits count in the shared cache (a
    file cache on the embedded default, casino.rate_limits), so one test's requests in the
    same minute would count against the next test's."""
    from django.core.cache import caches

    for cache in caches.all(initialized_only=False):
        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _own_digest_dir(settings, tmp_path_factory: pytest.TempPathFactory) -> None:  # noqa: ANN001
    """Each test its own digest store: digests live outside the database, so the
    database's reset between tests does not clear them, and a digest one test wrote
    would otherwise fail ``verify_events`` in the next (casino.eventstore.digests)."""
    settings.DIGEST_DIR = tmp_path_factory.mktemp("digests")


# --- committed data -----------------------------------------------------------------

@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker,  # noqa: ANN001, ANN201
                    django_db_use_migrations, django_db_keepdb, django_db_createdb,
                    django_db_modify_db_settings):
    """pytest-django's set-up, but always for ``default``: it only counts tests that use
    its own fixtures, and ``committed_db`` is ours."""
    from django.test.utils import setup_databases, teardown_databases

    keep = django_db_keepdb and not django_db_createdb
    with django_db_blocker.unblock():
        config = setup_databases(verbosity=0, interactive=False, aliases={"default"},
                                 serialized_aliases=set(), keepdb=keep)
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            teardown_databases(config, verbosity=0)


APPEND_ONLY_TABLES = ("casino_event", "casino_event_seal")


class suspended_append_only_triggers:
    """Test-only: lift the append-only triggers (of the events and the seals) as the
    database owner would, and put them back. Used to clean up between tests and by the
    tamper tests."""

    def __enter__(self) -> None:
        self._sqlite_triggers: list[str] = []
        with connection.cursor() as cur:
            for table in APPEND_ONLY_TABLES:
                if connection.vendor == "postgresql":
                    cur.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                    continue
                cur.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                            "AND tbl_name = %s", [table])
                for name, sql in cur.fetchall():
                    self._sqlite_triggers.append(sql)
                    cur.execute(f"DROP TRIGGER IF EXISTS {name}")

    def __exit__(self, *exc: object) -> None:
        with connection.cursor() as cur:
            if connection.vendor == "postgresql":
                for table in APPEND_ONLY_TABLES:
                    cur.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
            else:
                for sql in self._sqlite_triggers:
                    cur.execute(sql)


def _purge() -> None:
    connection.close()  # threads' transactions may have left this one stale
    with suspended_append_only_triggers():
        call_command("flush", interactive=False, verbosity=0)
    # Closed again: a purge run while Playwright's loop is active (a fixture that asks for
    # committed_db after browser) opens its connection in that loop's context, where the
    # session's last teardown cannot see it to close it, and DROP DATABASE would then fail
    # with "being accessed by other users".
    connection.close()


@pytest.fixture
def committed_db(django_db_setup: None, django_db_blocker: pytest.FixtureRequest) -> Iterator[None]:
    """Real commits (threads, Celery workers and other connections see the data); every
    table is emptied before and after."""
    with django_db_blocker.unblock():
        _purge()
        yield
        _purge()


# --- people -------------------------------------------------------------------------

_seq = itertools.count(1)


@pytest.fixture
def demo_property(db: None):  # noqa: ANN201
    from casino.services import property_register

    return property_register(licence_number="PA-TEST-1", name="Test Casino", system="test")


@pytest.fixture
def make_staff(db: None, demo_property) -> Callable:  # noqa: ANN001
    """``make_staff("compliance")`` → a user holding that role (or none: ``make_staff()``)."""
    from casino.services import staff_bootstrap

    def make(*roles: str, username: str | None = None, property=None,  # noqa: ANN001, ANN202
             admin_site: bool = False, group_wide: bool = False):
        n = next(_seq)
        profile = staff_bootstrap(property=property or demo_property,
                                  username=username or f"user{n}", password="test-pass-123",
                                  credential_number=f"T-{n:05d}", roles=roles, system="test",
                                  admin_site=admin_site, group_wide=group_wide)
        return profile.user

    return make


def token_client(user: Any) -> Any:
    """A DRF APIClient authenticated as ``user`` by an API token (knox, as
    ``POST auth/token/`` issues them); ``.user`` is the user."""
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    c.user = user
    return c


@pytest.fixture
def api_as(make_staff: Callable) -> Callable:
    """``api_as("finance")`` → a ``token_client`` of a new user with those roles."""

    def client(*roles: str) -> Any:
        return token_client(make_staff(*roles))

    return client


@pytest.fixture
def admin_user(make_staff: Callable):  # noqa: ANN201
    """pytest-django's ``admin_user``, enrolled through the staff services (a login made
    any other way is refused by casino.staff_guard)."""
    return make_staff("admin", username="admin", admin_site=True)


@pytest.fixture
def admin_client(client, admin_user):  # noqa: ANN001, ANN201
    """pytest-django's ``admin_client``, signed in as every administrator's session is:
    with the second factor (console.middleware asks it on every session page)."""
    from tests.console.conftest import verified_login

    return verified_login(client, admin_user)


def gaming_day_start_far_from_now(time_zone: str) -> int:
    """A gaming-day start hour twelve hours from the property's clock now: a test that
    seeds "today" and "yesterday" (the demo, a simulated day) and then runs for minutes
    sees no gaming day end during its run (with the default 6 AM, one starting at 5:55
    AM New York would see TODAY and YESTERDAY shift under it)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    return (datetime.now(ZoneInfo(time_zone)).hour + 12) % 24


#: Debian's Chromium, which the test set-up installs (never ``playwright install``)
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
def live_server_ctl() -> Iterator[Any]:
    """The product on a real socket (``tests/_live_server.py``), stopped at the end."""
    from tests._live_server import LiveServer

    server = LiveServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Chromium driven by Playwright, headless, for the boards' browser tests."""
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

