"""``DATABASE_URL`` with several hosts, and a failover reached with no restart (issue 26
items 2 and 5; casino.env.postgres_config).

The parsing tests need no server. The failover test starts a PostgreSQL primary of its
own (``initdb`` on a free loopback port, in a temporary directory owned by the server's
user) and a streaming standby (``pg_basebackup -R``), points a connection and a gunicorn
at ``postgres://...@127.0.0.1:<primary>,127.0.0.1:<standby>/postgres?
target_session_attrs=read-write``, stops the primary (immediate: as if it died), promotes
the standby, and checks that the next use of the same connection, and the next request of
the same gunicorn, reach the new primary and write there.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError, connections

from casino import env
from poker_room.management.commands._bench_http import free_port

URL = ("postgres://postgres@10.77.0.11:5432,10.77.0.12:5432/casino"
       "?target_session_attrs=read-write&connect_timeout=2")


# --- parsing ---------------------------------------------------------------------------

def test_a_multi_host_url_gives_libpq_its_comma_lists_and_every_parameter() -> None:
    """issue 26 item 5: hosts and ports as the comma lists libpq takes; the query string's
    parameters kept, over the defaults; the session limits in ``options``."""
    config = env.postgres_config(URL)
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == (
        "10.77.0.11,10.77.0.12", "5432,5432", "casino", "postgres")
    options = config["OPTIONS"]
    assert options["target_session_attrs"] == "read-write"
    assert options["connect_timeout"] == "2"
    assert options["keepalives"] == "1" and options["tcp_user_timeout"] == "4000"
    assert options["options"] == ("-c statement_timeout=15000 -c lock_timeout=5000 "
                                  "-c idle_in_transaction_session_timeout=60000")
    assert config["CONN_HEALTH_CHECKS"] is True and config["CONN_MAX_AGE"] == 60


def test_a_host_without_a_port_gets_5432_and_a_urls_own_options_come_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DB_STATEMENT_TIMEOUT_MS", "0")
    config = env.postgres_config(
        "postgresql://u:p%40ss@db1,[::1]:6543/casino"
        "?options=-c%20lock_timeout%3D9&sslmode=require")
    assert (config["HOST"], config["PORT"], config["PASSWORD"]) == ("db1,::1", "5432,6543",
                                                                    "p@ss")
    assert config["OPTIONS"]["sslmode"] == "require"
    assert config["OPTIONS"]["options"] == ("-c statement_timeout=0 -c lock_timeout=5000 "
                                            "-c idle_in_transaction_session_timeout=60000 "
                                            "-c lock_timeout=9")


@pytest.mark.parametrize(("url", "says"), [
    ("postgres://h1:5432,h2:five/casino", "port 'five'"),
    ("postgres://h1:5432,:5433/casino", "empty host"),
    ("postgres://h1:5432", "names no database"),
])
def test_a_bad_url_stops_start_up_naming_the_variable(url: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says) as caught:
        env.postgres_config(url)
    assert "DATABASE_URL" in str(caught.value)


def test_a_bad_timeout_setting_stops_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DB_LOCK_TIMEOUT_MS", "-1")
    with pytest.raises(ImproperlyConfigured, match="DB_LOCK_TIMEOUT_MS"):
        env.postgres_config(URL)


# --- a real failover ---------------------------------------------------------------------

def _as_postgres(args: list[str], **kw: object) -> subprocess.CompletedProcess:
    """Run a PostgreSQL program as the server's user (it refuses to run as root)."""
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=60,
                          **kw)  # type: ignore[call-overload]


def _start(data: Path, port: int, sockets: Path) -> None:
    _as_postgres(["pg_ctl", "-D", str(data), "-w", "-t", "30", "-l", str(data / "log"),
                  "-o", f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 "
                        "-c fsync=off -c full_page_writes=off", "start"])


@pytest.fixture
def primary_and_standby() -> tuple[int, int, list[Path]]:
    tools = [shutil.which(t) for t in ("initdb", "pg_ctl", "pg_basebackup")]
    if not all(tools) or (os.geteuid() == 0 and not shutil.which("runuser")):
        pytest.skip("initdb, pg_ctl and pg_basebackup are needed on PATH")
    root = Path(tempfile.mkdtemp(prefix="failover-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    primary, standby = root / "primary", root / "standby"
    ports = free_port(), free_port()
    started: list[Path] = []
    try:
        _as_postgres(["initdb", "-D", str(primary), "--username=postgres", "--auth=trust",
                      "--no-sync", "-E", "UTF8"])
        _start(primary, ports[0], root)
        started.append(primary)
        _as_postgres(["pg_basebackup", "-h", "127.0.0.1", "-p", str(ports[0]), "-U",
                      "postgres", "-D", str(standby), "-R", "-X", "stream"])
        _start(standby, ports[1], root)
        started.append(standby)
        yield ports[0], ports[1], started
    finally:
        for data in started:
            subprocess.run(["runuser", "-u", "postgres", "--"] * (os.geteuid() == 0)
                           + ["pg_ctl", "-D", str(data), "-m", "immediate", "stop"],
                           capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def _wrapper(url: str) -> object:
    """A Django connection on ``url``, configured as settings.DATABASES would be."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    config = connections.configure_settings({"default": env.postgres_config(url)})
    return DatabaseWrapper(config["default"], "failover")


def _request(conn: object, sql: str) -> object:
    """One request's use of the connection, as Django's request signals bracket it."""
    conn.close_if_unusable_or_obsolete()  # request_started
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchone() if cur.description else None
    finally:
        conn.close_if_unusable_or_obsolete()  # request_finished


def test_after_a_failover_the_next_request_reaches_the_new_primary(
        primary_and_standby: tuple[int, int, list[Path]], django_db_blocker: object) -> None:
    """issue 26 item 2: the primary dies and the standby is promoted; a running process's
    persistent connection (checked before reuse, ``CONN_HEALTH_CHECKS``) and a running
    gunicorn's next request reach the new primary through the multi-host URL with
    ``target_session_attrs=read-write``, with no restart. The standby alone is never
    chosen while it is read-only."""
    with django_db_blocker.unblock():  # servers of its own, not the test database
        _failover(*primary_and_standby)


def _failover(p1: int, p2: int, started: list[Path]) -> None:
    url = (f"postgres://postgres@127.0.0.1:{p1},127.0.0.1:{p2}/postgres"
           "?target_session_attrs=read-write&connect_timeout=2")
    conn = _wrapper(url)
    server = None
    try:
        assert _request(conn, "SELECT inet_server_port()")[0] == p1
        _request(conn, "CREATE TABLE acknowledged (n int)")
        _request(conn, "INSERT INTO acknowledged VALUES (1)")
        server = _gunicorn(url)
        ready = requests.get(f"{server[1]}/health/ready", timeout=15)
        assert ready.status_code == 200, ready.text
        assert ready.json()["components"]["database"]["read_write"] is True
        # the standby is read-only: a URL naming it alone finds no read-write server
        standby_only = _wrapper(f"postgres://postgres@127.0.0.1:{p2}/postgres"
                                "?target_session_attrs=read-write&connect_timeout=2")
        with pytest.raises(OperationalError, match="session is read-only"):
            _request(standby_only, "SELECT 1")
        _wait_replayed(p2)

        # the primary dies (immediate: no checkpoint, connections dropped); the documented
        # failover step promotes the standby
        _as_postgres(["pg_ctl", "-D", str(started[0]), "-m", "immediate", "stop"])
        died_at = time.monotonic()
        _as_postgres(["pg_ctl", "-D", str(started[1]), "-w", "promote"])
        promoted_at = time.monotonic()

        # the next request of the same process: the new primary, and it writes there
        assert _request(conn, "SELECT inet_server_port()")[0] == p2
        _request(conn, "INSERT INTO acknowledged VALUES (2)")
        assert _request(conn, "SELECT array_agg(n ORDER BY n) FROM acknowledged")[0] == [1, 2]
        started_at = time.monotonic()
        ready = _ready_within(server[1], 10)
        assert ready.json()["components"]["database"]["read_write"] is True
        assert time.monotonic() - started_at < 10
        print(f"failover: promoted {promoted_at - died_at:.2f} s after the primary died; "
              f"gunicorn ready {time.monotonic() - promoted_at:.2f} s after the promotion")
    finally:
        conn.close()
        if server is not None:
            _stop(server[0])


def _wait_replayed(standby_port: int) -> None:
    """Until the standby has replayed the table (asynchronous streaming, on loopback)."""
    conn = _wrapper(f"postgres://postgres@127.0.0.1:{standby_port}/postgres")
    deadline = time.monotonic() + 15
    try:
        while time.monotonic() < deadline:
            if _request(conn, "SELECT to_regclass('acknowledged') IS NOT NULL AND "
                              "EXISTS (SELECT 1 FROM acknowledged)")[0]:
                return
            time.sleep(0.1)
    finally:
        conn.close()
    raise AssertionError("the standby did not replay the primary's writes")


def _gunicorn(url: str) -> tuple[subprocess.Popen, str]:
    """gunicorn on ``url`` (one worker, one thread: its connection is kept and reused)."""
    port = free_port()
    env_ = dict(os.environ, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="casino.settings",
                PYTHONPATH=str(settings.BASE_DIR), CASINO_VAR_DIR=str(settings.VAR_DIR),
                CELERY_BROKER_URL=settings.CELERY_BROKER_URL)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [str(gunicorn), "casino.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--worker-class", "gthread", "--threads", "1",
         "--log-level", "warning", "--chdir", str(settings.BASE_DIR)],
        env=env_, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if requests.get(base + "/health/live", timeout=5).status_code == 200:
                return proc, base
        except requests.RequestException:
            time.sleep(0.2)
    _stop(proc)
    raise AssertionError("gunicorn did not start")


def _ready_within(base: str, seconds: float) -> requests.Response:
    deadline = time.monotonic() + seconds
    answers = []
    while time.monotonic() < deadline:
        response = requests.get(base + "/health/ready", timeout=seconds)
        answers.append(response.status_code)
        if response.status_code == 200:
            return response
        time.sleep(0.2)
    raise AssertionError(f"not ready again within {seconds} s: {answers}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
