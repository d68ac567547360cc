"""During a database outage the API answers 503 ``service_unavailable`` with
``Retry-After``, never a 500 and never a hang, and serves again once the database is back,
with no restart (issue 26 items 3 and 5; casino.outage, casino.health).

The product runs in gunicorn (as ``bin/run`` serves it), its ``DATABASE_URL`` pointed at a
TCP relay of this test's in front of the test database: stopping the relay is the database
going away (connections cut, new ones refused), starting it on the same port its return.
PostgreSQL only (the relay speaks to its port).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import settings
from django.db import connection, connections

from casino.eventstore.store import APPEND_LOCK_KEY
from poker_room.management.commands._bench_http import free_port
from tables.domain.rules_options import example_options

pytestmark = pytest.mark.postgres

DRAFTS = "/api/v1/rules-submissions/"
GAME = "five-card-hi-lo"
PROBLEM = "application/problem+json"
#: the longest a request may take during the outage: connect_timeout (2 s, in the URL)
#: and the server's own work, with room for a loaded machine
ANSWER_WITHIN = 8.0


class Relay:
    """A TCP relay from a free loopback port to PostgreSQL's; ``stop`` cuts every
    connection and refuses new ones, ``start`` listens again on the same port."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.listener: socket.socket | None = None
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # stopped
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self.lock:
                self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self) -> None:
        if self.listener is not None:
            try:  # wakes the accepting thread (a close alone leaves it accepting)
                self.listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.listener.close()
            self.listener = None
        with self.lock:
            cut, self.sockets = self.sockets, []
        for s in cut:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


class Gunicorn:
    """The product in gunicorn on a free port, on ``database_url``."""

    def __init__(self, database_url: str, var_dir: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile("w+")
        full_env = dict(os.environ, DATABASE_URL=database_url, CASINO_VAR_DIR=str(var_dir),
                        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
                        DJANGO_SETTINGS_MODULE="casino.settings",
                        PYTHONPATH=str(settings.BASE_DIR), **env)
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.proc = subprocess.Popen(
            [str(gunicorn), "casino.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
             "--workers", "1", "--worker-class", "gthread", "--threads", "4",
             "--log-level", "warning", "--chdir", str(settings.BASE_DIR)],
            env=full_env, stdout=subprocess.DEVNULL, stderr=self.log,
            start_new_session=True)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if requests.get(self.base + "/health/live", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise AssertionError(f"gunicorn did not start: {self.tail()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=20)
        self.log.close()

    def tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-3000:]


def _url(port: int, **query: str) -> str:
    d = connection.settings_dict
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return f"postgres://{d['USER']}@127.0.0.1:{port}/{d['NAME']}" + (f"?{q}" if q else "")


@pytest.fixture
def token(committed_db: None) -> str:
    """A compliance officer's API token, committed (the server's connections see it)."""
    from knox.models import AuthToken

    from casino.services import property_register, staff_bootstrap

    prop = property_register(licence_number="PA-TEST-1", name="Test Casino", system="test")
    user = staff_bootstrap(property=prop, username="outage", password="test-pass-123",
                           credential_number="T-26001", roles=["compliance"],
                           system="test").user
    return AuthToken.objects.create(user=user)[1]


def _send(base: str, token: str, key: str, timeout: float = 30) -> requests.Response:
    return requests.post(base + DRAFTS, json={"game": GAME, "options": example_options(GAME)},
                         headers={"Authorization": f"Token {token}", "Idempotency-Key": key},
                         timeout=timeout)


def _events() -> int:
    from casino.models import Event

    return Event.objects.count()


def _assert_503(response: requests.Response, reason: str) -> dict[str, Any]:
    assert response.status_code == 503, (response.status_code, response.text[:500])
    assert response.headers["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == "service_unavailable" and body["reason"] == reason, body
    assert int(response.headers["Retry-After"]) >= 1
    return body


def test_database_away_503_then_back_without_restart(token: str) -> None:
    """issue 26 item 3: with the database unreachable a command is 503 problem+json
    ``service_unavailable`` with Retry-After within :data:`ANSWER_WITHIN`; /health/live
    stays 200 while /health/ready is 503; once the database is back the same process
    records the command (a retry with the same key) within 10 s, once."""
    d = connection.settings_dict
    relay = Relay(("127.0.0.1", int(d["PORT"] or 5432)))
    relay.start()
    server = Gunicorn(_url(relay.port, connect_timeout="2"), Path(settings.VAR_DIR))
    try:
        server.wait_ready()
        assert _send(server.base, token, f"before-{uuid.uuid4()}").status_code == 201
        ready = requests.get(server.base + "/health/ready", timeout=10)
        assert ready.status_code == 200, ready.text
        assert ready.json()["components"]["database"]["read_write"] is True

        relay.stop()  # the database goes away: connections cut, new ones refused
        key = f"during-{uuid.uuid4()}"
        before = _events()
        started = time.monotonic()
        during = _send(server.base, token, key)
        took = time.monotonic() - started
        _assert_503(during, "database_unreachable")
        assert took < ANSWER_WITHIN, took
        live = requests.get(server.base + "/health/live", timeout=10)
        assert (live.status_code, live.json()) == (200, {"status": "ok"})
        ready = requests.get(server.base + "/health/ready", timeout=10)
        assert ready.status_code == 503 and int(ready.headers["Retry-After"]) >= 1
        assert ready.json()["status"] == "unavailable"
        assert ready.json()["components"]["database"]["status"] == "down"
        assert _events() == before  # nothing recorded
        # a person's page: the session is read in a middleware, before any view (Django
        # makes that a 500 unless handler500 says otherwise): a readable 503 page
        page = requests.get(server.base + "/console/", headers={"Accept": "text/html"},
                            cookies={"sessionid": "a-session-the-database-would-hold"},
                            timeout=30, allow_redirects=False)
        assert page.status_code == 503 and page.headers["Retry-After"] == "3"
        assert page.headers["Content-Type"].startswith("text/html")
        assert "cannot record anything right now" in page.text

        relay.start()  # back, on the same address
        back_at = time.monotonic()
        answers = []
        while time.monotonic() - back_at < 10:
            answer = _send(server.base, token, key)
            answers.append(answer.status_code)
            if answer.status_code == 201:
                break
            assert answer.status_code == 503, answer.text[:500]
            time.sleep(0.2)
        assert answers[-1] == 201, answers
        print(f"outage: 503 in {took:.2f} s; recorded {time.monotonic() - back_at:.2f} s "
              f"after the database returned ({len(answers)} sends)")
        recorded = _events()
        assert recorded > before
        again = _send(server.base, token, key)  # the key's answer, nothing more recorded
        assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
        assert _events() == recorded
    finally:
        server.stop()
        relay.stop()


def test_a_lock_held_past_lock_timeout_is_503_not_500(token: str) -> None:
    """issue 26 item 5: a command waiting for a lock another session holds gives up after
    ``DB_LOCK_TIMEOUT_MS`` (1 s here) with 503 ``lock_timeout`` and Retry-After, records
    nothing, and runs once the lock is free."""
    server = Gunicorn(_url(int(connection.settings_dict["PORT"] or 5432)),
                      Path(settings.VAR_DIR), DB_LOCK_TIMEOUT_MS="1000")
    holder = connections.create_connection("default")
    try:
        server.wait_ready()
        with holder.cursor() as cur:  # as a projection rebuild holds it: every append waits
            cur.execute("SELECT pg_advisory_lock(%s)", [APPEND_LOCK_KEY])
        before = _events()
        key = f"locked-{uuid.uuid4()}"
        started = time.monotonic()
        refused = _send(server.base, token, key)
        took = time.monotonic() - started
        _assert_503(refused, "lock_timeout")
        assert 1.0 <= took < ANSWER_WITHIN, took
        assert refused.headers["Retry-After"] == "1"
        assert _events() == before
        holder.close()  # the lock goes with the session
        assert _send(server.base, token, key).status_code == 201
        assert _events() > before
    finally:
        holder.close()
        server.stop()


def _iptables(action: str, port: int) -> None:
    """Drop (``-I``) or stop dropping (``-D``) every packet to and from ``port`` on
    loopback: a partition, packets lost rather than refused."""
    for match in ("--dport", "--sport"):
        subprocess.run(["iptables", action, "INPUT", "-i", "lo", "-p", "tcp", match,
                        str(port), "-j", "DROP"], check=action == "-I",
                       capture_output=True, timeout=10)


def test_a_partition_is_503_within_the_tcp_timeouts_not_a_hang(token: str) -> None:
    """issue 26 item 3: the database partitioned away (every packet dropped, as a network
    partition does: nothing refuses, nothing answers). The kept connection's next statement
    is never acknowledged: ``tcp_user_timeout`` (4 s) ends it, the new connection's
    ``connect_timeout`` (2 s here) gives up, and the command is 503
    ``database_unreachable``, not a hang; after the partition, served again within 10 s."""
    if os.geteuid() != 0 or not shutil.which("iptables"):
        pytest.skip("a partition needs root and iptables")
    d = connection.settings_dict
    relay = Relay(("127.0.0.1", int(d["PORT"] or 5432)))
    relay.start()
    server = Gunicorn(_url(relay.port, connect_timeout="2"), Path(settings.VAR_DIR))
    partitioned = False
    try:
        server.wait_ready()
        assert _send(server.base, token, f"before-{uuid.uuid4()}").status_code == 201
        _iptables("-I", relay.port)
        partitioned = True
        key = f"partitioned-{uuid.uuid4()}"
        started = time.monotonic()
        during = _send(server.base, token, key)
        took = time.monotonic() - started
        _assert_503(during, "database_unreachable")
        # tcp_user_timeout 4 s + connect_timeout 2 s, and the machine's load
        assert took < 4 + 2 + 4, took
        _iptables("-D", relay.port)
        partitioned = False
        healed_at = time.monotonic()
        while time.monotonic() - healed_at < 10:
            answer = _send(server.base, token, key)
            if answer.status_code == 201:
                break
            assert answer.status_code == 503, answer.text[:500]
            time.sleep(0.2)
        assert answer.status_code == 201
        print(f"partition: 503 in {took:.2f} s; recorded "
              f"{time.monotonic() - healed_at:.2f} s after it healed")
    finally:
        if partitioned:
            _iptables("-D", relay.port)
        server.stop()
        relay.stop()
