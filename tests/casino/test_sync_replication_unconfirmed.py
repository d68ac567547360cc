"""503s that must hold (issue 26 item 3; review findings F2 and F4).

* A commit the synchronous standby did not confirm is never answered 2xx: the API answers
  503 ``replication_unconfirmed``, a keyed retry too while no standby is in sync, and the
  stored 2xx once the primary no longer waits for one (casino.replication). Tested on a
  PostgreSQL primary of the test's own (``initdb`` on a free loopback port) with
  ``synchronous_standby_names = 'standby'`` and no standby attached, behind a real
  gunicorn.
* The Redis cache away is 503 ``cache_unreachable``, never a 500 or a hang.
* On SQLite only "database is locked" is an outage.
"""

from __future__ import annotations

import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import psycopg
import pytest
import requests
from django.conf import settings
from django.db import OperationalError, connection
from django.test import override_settings

from casino.outage import outage_of
from casino.replication import is_unconfirmed_warning, required_of
from poker_room.management.commands._bench_http import free_port
from tests.casino.test_db_failover_url import _as_postgres, _start
from tables.domain.rules_options import example_options
from tests.casino.test_service_unavailable import (  # noqa: F401  token: a fixture
    DRAFTS,
    GAME,
    Gunicorn,
    _assert_503,
    _send,
    token,
)

# --- pieces ------------------------------------------------------------------------------


def test_the_cancelled_wait_warning_is_recognised_in_both_of_its_forms() -> None:
    """issue 26 item 3: PostgreSQL 15's texts (src/backend/replication/syncrep.c)."""
    detail = ("The transaction has already committed locally, but might not have been "
              "replicated to the standby.")
    for primary in ("canceling wait for synchronous replication due to user request",
                    "canceling the wait for synchronous replication and terminating "
                    "connection due to administrator command"):
        assert is_unconfirmed_warning(SimpleNamespace(message_primary=primary,
                                                      message_detail=detail))
    assert not is_unconfirmed_warning(SimpleNamespace(
        message_primary="there is no transaction in progress", message_detail=None))


@pytest.mark.parametrize(("names", "required"), [
    ("", 0), ("standby", 1), ("s1, s2", 1), ("FIRST 2 (s1, s2, s3)", 2),
    ("ANY 1 (s1, s2)", 1), ("2 (s1, s2)", 2), ("*", 1)])
def test_how_many_standbys_a_commit_waits_for(names: str, required: int) -> None:
    assert required_of(names) == required


def _sqlite_error(message: str) -> OperationalError:
    exc = OperationalError(message)
    exc.__cause__ = sqlite3.OperationalError(message)
    return exc


def test_on_sqlite_only_a_locked_database_is_an_outage() -> None:
    """issue 26 item 3: a lock waited for past the busy timeout is 503 ``lock_timeout``;
    a missing table is a bug (a 500), not an outage."""
    locked = outage_of(_sqlite_error("database is locked"))
    assert locked is not None and locked.reason == "lock_timeout"
    assert outage_of(_sqlite_error("no such table: casino_event")) is None


# --- the cache away ----------------------------------------------------------------------

def _caches(location: str) -> dict:
    return {alias: {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                    "LOCATION": location, "KEY_PREFIX": alias,
                    "OPTIONS": dict(settings.CACHE_REDIS_OPTIONS)}
            for alias in ("default", "kiosk")}


def _feed(client: object) -> tuple[object, float]:
    started = time.monotonic()
    response = client.get("/poker/live/PA-NOWHERE/feed.json")  # type: ignore[attr-defined]
    return response, time.monotonic() - started


@pytest.mark.django_db
def test_the_cache_refusing_is_503_cache_unreachable(client: object) -> None:
    """issue 26 item 3 (F4): ``CACHE_URL`` on a closed port: the feed (its rate limit is
    counted in the cache) answers 503 ``cache_unreachable`` with Retry-After 3, not 500."""
    with override_settings(CACHES=_caches(f"redis://127.0.0.1:{free_port()}/0")):
        response, _ = _feed(client)
    assert response.status_code == 503, response.content[:300]
    body = response.json()
    assert (body["code"], body["reason"]) == ("service_unavailable", "cache_unreachable")
    assert response["Retry-After"] == "3"


@pytest.mark.django_db
def test_a_cache_that_never_answers_is_503_within_its_socket_timeout(client: object) -> None:
    """issue 26 item 3 (F4): a Redis that takes the connection and never answers (a
    listening socket nobody reads): 503 after ``socket_timeout`` (1 s), not a hang."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        with override_settings(CACHES=_caches(f"redis://127.0.0.1:{silent.getsockname()[1]}/0")):
            response, took = _feed(client)
    finally:
        silent.close()
    assert response.status_code == 503, response.content[:300]
    assert response.json()["reason"] == "cache_unreachable"
    assert 0.9 <= took < 3, took


# --- a synchronous standby that is not there ---------------------------------------------

@pytest.fixture
def sync_primary(token: str) -> tuple[str, str]:  # noqa: F811
    """A primary of the test's own holding a copy of the test database (the token's login
    committed), configured to wait for a standby named ``standby`` that never comes."""
    if not all(shutil.which(t) for t in ("initdb", "pg_ctl", "pg_dump", "psql", "runuser")):
        pytest.skip("initdb, pg_ctl, pg_dump, psql and runuser are needed on PATH")
    root = Path(tempfile.mkdtemp(prefix="syncrep-"))
    shutil.chown(root, "postgres", "postgres")
    data, port = root / "primary", free_port()
    started = False
    try:
        _as_postgres(["initdb", "-D", str(data), "--username=postgres", "--auth=trust",
                      "--no-sync", "-E", "UTF8", "--locale=C"])
        _start(data, port, root)
        started = True
        psql = ["psql", "-q", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                "-v", "ON_ERROR_STOP=1"]
        subprocess.run([*psql, "-c", "CREATE DATABASE casino"], check=True, timeout=30,
                       capture_output=True)
        d = connection.settings_dict
        dump = subprocess.run(["pg_dump", "-h", "127.0.0.1", "-p", str(d["PORT"] or 5432),
                               "-U", d["USER"], "--no-owner", d["NAME"]],
                              check=True, capture_output=True, timeout=60)
        subprocess.run([*psql, "-d", "casino"], input=dump.stdout, check=True, timeout=60,
                       capture_output=True)
        subprocess.run([*psql, "-c", "ALTER SYSTEM SET synchronous_standby_names = 'standby'",
                        "-c", "SELECT pg_reload_conf()"], check=True, timeout=30,
                       capture_output=True)
        yield f"postgres://postgres@127.0.0.1:{port}/casino", token
    finally:
        if started:
            subprocess.run(["runuser", "-u", "postgres", "--", "pg_ctl", "-D", str(data),
                            "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def _events(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:  # a read: no wait for the standby
        return conn.execute("SELECT count(*) FROM casino_event").fetchone()[0]


@pytest.mark.postgres
@pytest.mark.slow
def test_a_commit_the_standby_did_not_confirm_is_503_until_it_is_safe(
        sync_primary: tuple[str, str]) -> None:
    """issue 26 item 3 (F2), recovery point zero: with the synchronous standby away a
    command's COMMIT waits; after ``DB_STATEMENT_TIMEOUT_MS`` (2 s here) the product
    cancels the wait, PostgreSQL warns that the transaction committed locally only, and
    the command answers 503 ``replication_unconfirmed`` (keyed or not: the pipelined
    COMMIT too), never 2xx. Its keyed retry is 503 while no standby is in sync; readiness
    says ``replication`` down (degraded, 200). Once the failover step clears
    ``synchronous_standby_names`` the retry gets the stored 201, and the command is in
    the log once."""
    url, api_token = sync_primary
    server = Gunicorn(url, Path(settings.VAR_DIR), DB_STATEMENT_TIMEOUT_MS="2000")
    try:
        server.wait_ready()
        before = _events(url)
        key = f"unconfirmed-{uuid.uuid4()}"
        started = time.monotonic()
        first = _send(server.base, api_token, key)
        took = time.monotonic() - started
        _assert_503(first, "replication_unconfirmed")
        assert first.headers["Retry-After"] == "3"
        assert 2 <= took < 4, took
        recorded = _events(url)
        assert recorded > before  # committed locally: the key's row with it

        started = time.monotonic()
        retry = _send(server.base, api_token, key)
        retry_took = time.monotonic() - started
        _assert_503(retry, "replication_unconfirmed")
        assert retry_took < 1.5, retry_took  # one query, no commit to wait for

        unkeyed = requests.post(server.base + DRAFTS,
                                json={"game": GAME, "options": example_options(GAME)},
                                headers={"Authorization": f"Token {api_token}"}, timeout=30)
        _assert_503(unkeyed, "replication_unconfirmed")  # the runner's pipelined COMMIT

        ready = requests.get(server.base + "/health/ready", timeout=15)
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "degraded"
        replication = ready.json()["components"]["replication"]
        assert replication == {"status": "down", "synchronous_standby_names": "standby",
                               "required": 1, "in_sync": 0, "attached": 0}

        with psycopg.connect(url, autocommit=True) as conn:  # the failover step
            conn.execute("ALTER SYSTEM RESET synchronous_standby_names")
            conn.execute("SELECT pg_reload_conf()")
        time.sleep(0.5)  # the reload reaches the backends at their next command
        after = _events(url)
        replayed = _send(server.base, api_token, key)
        assert replayed.status_code == 201, replayed.text[:500]
        assert replayed.headers["Idempotent-Replayed"] == "true"
        assert _events(url) == after  # nothing more recorded: the command is there once
        ready = requests.get(server.base + "/health/ready", timeout=15).json()
        assert ready["components"]["replication"]["status"] == "ok"
        print(f"sync standby away: 503 in {took:.2f} s; keyed retry 503 in "
              f"{retry_took:.2f} s")
    finally:
        server.stop()
