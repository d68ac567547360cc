"""The HTTP row of ``bench_poker_room``: the same hands, one command per action, dealt by
terminals through the API.

gunicorn serves the product on a free loopback port (threaded workers, so a terminal's
connection is kept alive between commands, as ``bin/run`` serves it otherwise), started
here and always stopped with the bench, Ctrl-C, SIGTERM or SIGKILL included. Each terminal is a process with
a ``requests.Session`` (keep-alive) and an API token of the demo dealer (``POST
auth/token/`` with the password ``seed_demo`` kept; see :func:`dealer_tokens`); it sends
every command with a fresh ``Idempotency-Key``, as a real terminal's retry-safe send, and
logs out at the end.
"""

from __future__ import annotations

import gc
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection, connections

from poker_room.management.commands._bench_room import (
    BUY_IN, DECK_DUE, KINDS, MAX_COMMANDS_PER_HAND, decide, max_hands, new_decks, parallel)

API = "/api/v1"
DEALER = "demo_dealer"
TIMEOUT = 30  # seconds a request may take before the terminal gives up (the run fails)


# --- the server -----------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """This connection's database (under pytest, the test database) for the server."""
    d = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{d['NAME']}"
    auth = d["USER"] or ""
    if d.get("PASSWORD"):
        auth += f":{d['PASSWORD']}"
    # several hosts (casino.env: HOST and PORT are libpq's comma lists) stay several
    hosts = (d["HOST"] or "127.0.0.1").split(",")
    ports = str(d["PORT"] or 5432).split(",")
    ports += ports[-1:] * (len(hosts) - len(ports))
    netloc = ",".join(f"{h}:{p}" for h, p in zip(hosts, ports))
    attrs = d.get("OPTIONS", {}).get("target_session_attrs")
    query = f"?target_session_attrs={attrs}" if attrs else ""
    return f"postgres://{auth}{'@' if auth else ''}{netloc}/{d['NAME']}{query}"


def _die_with_parent() -> None:
    """In gunicorn's master before it starts (Linux): when the bench dies, however (a
    SIGTERM, a SIGKILL), the master is sent SIGINT, gunicorn's quick shutdown, and its
    workers stop with it."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGINT))


class Server:
    """gunicorn on a free loopback port, in a session of its own (so its workers stop with
    it and a Ctrl-C at the terminal reaches only the bench, which stops it)."""

    def __init__(self, workers: int, threads: int):
        import requests

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile("w+")
        env = dict(os.environ, DATABASE_URL=database_url(),
                   CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
                   DJANGO_SETTINGS_MODULE="casino.settings",
                   PYTHONPATH=str(settings.BASE_DIR))
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.proc = subprocess.Popen(
            [str(gunicorn), "casino.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(workers), "--worker-class", "gthread", "--threads",
             str(threads), "--keep-alive", "30", "--log-level", "warning",
             "--chdir", str(settings.BASE_DIR)],
            env=env, stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True,
            preexec_fn=_die_with_parent)
        self._requests = requests

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if self._requests.get(self.base + "/health", timeout=5).status_code == 200:
                    return
            except self._requests.RequestException:
                pass
            time.sleep(0.2)
        raise CommandError(f"server_not_ready: gunicorn did not answer /health within "
                           f"{timeout:g} s: {self.tail()}")

    def tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-2000:]

    def stop(self) -> None:
        """A quick shutdown (SIGINT: gunicorn's workers stop without finishing their
        requests, nothing of the bench's is left to answer), then SIGKILL to whatever of
        the server's session is still there."""
        for sig, wait in ((signal.SIGINT, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break  # the whole session is gone
            try:
                self.proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                continue
        self.log.close()


@contextmanager
def served(workers: int, threads: int) -> Iterator[Server]:
    """The server for the ``with`` block, stopped at its end however it ends (Ctrl-C
    unwinds through here); a bench killed outright takes it along (``_die_with_parent``).
    No SIGTERM handler of Python's is set here: the terminals' processes would inherit
    it, and one that arrives as a pool worker waits on its queue's lock is never run."""
    server = Server(workers, threads)
    try:
        server.wait_ready()
        yield server
    except CommandError:
        print(f"the server's log ends: {server.tail()}", file=sys.stderr)
        raise
    finally:
        server.stop()


# --- logging in -----------------------------------------------------------------------------

def _saved_password(user: Any) -> str | None:
    """The demo dealer's password ``seed_demo`` kept in the var directory, if it is this
    database's."""
    saved = Path(settings.VAR_DIR) / "demo_logins.txt"
    if saved.exists():
        for line in saved.read_text().splitlines():
            name, _, password = line.partition(" ")
            if name == DEALER and user.check_password(password):
                return password
    return None


def dealer_tokens(base: str, n: int) -> tuple[list[str], str]:
    """A token for each of ``n`` terminals, and how they were had: logged in through
    ``auth/token/`` with the password ``seed_demo`` kept, or, when that file is not this
    database's (or the server hashes passwords otherwise, as under the tests' settings),
    issued here (``TokenIssued`` recorded, as the login records it). A wrong password is
    never sent twice: it counts towards the login's lock-out."""
    import requests
    from django.contrib.auth import get_user_model

    from casino.services import logins

    user = get_user_model().objects.get(username=DEALER)
    password = _saved_password(user)
    tokens: list[str] = []
    if password is not None:
        with requests.Session() as session:
            for _ in range(n):
                r = session.post(base + API + "/auth/token/", timeout=TIMEOUT,
                                 json={"username": DEALER, "password": password})
                if r.status_code != 200:
                    break
                tokens.append(r.json()["token"])
        if len(tokens) == n:
            return tokens, "auth_token"
    tokens += [logins.token_issue(user)[0] for _ in range(n - len(tokens))]
    return tokens, "token_issued"


# --- one terminal (child process) -----------------------------------------------------------

class HttpTerminal:
    """A dealer terminal at one table, through the API: starts a hand (the server
    shuffles), sends one command per action from the ``legal_actions`` the last answer
    gave, and buys the short stacks back up between hands (not timed)."""

    def __init__(self, base: str, token: str, table_id: Any, seed: int):
        import requests

        self.base, self.table_id = base + API, str(table_id)
        self.session = requests.Session()
        self.rng = random.Random(seed)
        self.session.headers["Authorization"] = f"Token {token}"
        self.stacks: dict[int, int] = {}
        self.reset()

    def reset(self) -> None:
        self.latencies: dict[str, list[float]] = {k: [] for k in KINDS}
        self.commands = self.hands = self.rebuys = self.deck_changes = self.resends = 0

    def logout(self) -> None:
        """The token revoked (``auth/logout/``), as a terminal signing off."""
        self.session.post(self.base + "/auth/logout/", timeout=TIMEOUT)
        self.session.close()

    def _post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
        """The command sent with a fresh ``Idempotency-Key``; a connection lost before the
        answer (a kept-alive connection the server had closed) sends it once more with
        the same key and body, as a terminal that lost the answer does. The time is the
        whole exchange, the resend included."""
        import requests

        headers = {"Idempotency-Key": str(uuid.uuid4())}
        t0 = time.perf_counter()
        try:
            r = self.session.post(self.base + path, json=body, headers=headers,
                                  timeout=TIMEOUT)
        except requests.ConnectionError:
            self.resends += 1
            r = self.session.post(self.base + path, json=body, headers=headers,
                                  timeout=TIMEOUT)
        took = time.perf_counter() - t0
        try:
            answer = r.json()
        except ValueError:
            answer = {"code": "not_json", "detail": r.text[:200]}
        return r.status_code, answer, took

    @staticmethod
    def _refused(path: str, status: int, body: dict[str, Any]) -> CommandError:
        return CommandError(f"http_{status}: {path} answered {body.get('code')}: "
                            f"{body.get('detail')}")

    def _rebuy(self) -> None:
        for seat, stack in self.stacks.items():
            if stack < BUY_IN // 4:
                path = f"/poker-tables/{self.table_id}/seats/chips/"
                status, body, _ = self._post(path, {"seat": seat, "paid_with": "chips",
                                                    "amount_cents": BUY_IN - stack})
                if status >= 300:
                    raise self._refused(path, status, body)
                self.stacks[seat] = BUY_IN
                self.rebuys += 1

    def _start(self) -> dict[str, Any]:
        path = f"/poker-tables/{self.table_id}/hands/"
        for _ in range(3):
            status, body, took = self._post(path, {"shuffle": True})
            if status < 300:
                self.latencies["start"].append(took)
                self.commands += 1
                return body
            if body.get("code") not in DECK_DUE:
                raise self._refused(path, status, body)
            self.decks_due()
            self.deck_changes += 1
        raise CommandError("decks_not_kept: the bench table's decks could not be kept in "
                           "play")

    def decks_due(self) -> None:
        """What a start refused for the table's decks waits for: here the floor's work,
        done in-process (the fault harness's terminals, which have no database of their
        own, say so instead: faultlab.terminals)."""
        new_decks(self.table_id)

    def refused_in_hand(self, path: str, status: int, body: dict[str, Any]
                        ) -> dict[str, Any]:
        """A betting command refused: the bench stops (nothing else moves its hands);
        a terminal that shares its table with faults re-reads the hand and goes on
        (faultlab.terminals)."""
        raise self._refused(path, status, body)

    def hand(self) -> None:
        self._rebuy()
        hand = self._start()
        path = f"/hands/{hand['round_id']}/command/"
        for _ in range(MAX_COMMANDS_PER_HAND):
            if hand["over"]:
                break
            if not hand.get("legal_actions"):
                raise CommandError(f"no_legal_action: the hand waits for a card: {hand}")
            command = decide(hand["legal_actions"], self.rng)
            status, hand, took = self._post(path, {"command": command,
                                                   "expected_version": hand["version"]})
            if status >= 300:
                hand = self.refused_in_hand(path, status, hand)
                continue
            # the command that ends the hand is known from its answer here
            self.latencies["last" if hand["over"] else "action"].append(took)
            self.commands += 1
        else:
            raise CommandError(f"hand_not_over: a hand took {MAX_COMMANDS_PER_HAND} commands")
        self.stacks.update({s["seat"]: s["stack_cents"] for s in hand["seats"]})
        self.hands += 1


def run_http_terminal(args: tuple) -> dict[str, Any]:
    table_id, seconds, barrier, base, token, seed = args
    import django

    django.setup()
    term = HttpTerminal(base, token, table_id, seed)
    try:
        term.hand()  # warm: the connection opened, the server's workers loaded
        term.reset()
        gc.freeze()  # as run_terminal: the inherited imports out of the collector's walk
        barrier.wait()
        start = time.perf_counter()
        for _ in range(max_hands(seconds)):
            if time.perf_counter() - start >= seconds:
                break
            term.hand()
        elapsed = time.perf_counter() - start
    finally:
        term.logout()
        connections.close_all()
    return {"elapsed": elapsed, "hands": term.hands, "commands": term.commands,
            "latencies": term.latencies, "rebuys": term.rebuys,
            "deck_changes": term.deck_changes, "resends": term.resends}


def server_size(terminals: int, workers: int | None) -> tuple[int, int]:
    """gunicorn's workers (2 per core unless told) and threads each, enough threads that
    every terminal's request can be in the server at once."""
    workers = workers or 2 * (os.cpu_count() or 1)
    return workers, max(1, math.ceil(terminals / workers))


def http_results(table_ids: list[Any], seconds: float,
                 workers: int | None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The terminals' results and how the server was run."""
    workers, threads = server_size(len(table_ids), workers)
    with served(workers, threads) as server:
        tokens, login = dealer_tokens(server.base, len(table_ids))
        results = parallel(run_http_terminal, [(t, seconds, server.base, tokens[i], 200 + i)
                                               for i, t in enumerate(table_ids)])
    return results, {"workers": workers, "threads": threads, "worker_class": "gthread",
                     "login": login, "resends": sum(r["resends"] for r in results)}


def overhead(http: dict[str, Any], single: dict[str, Any]) -> dict[str, float | None]:
    """Per kind: the HTTP p50 minus the in-process p50 (one command per action) of the same
    run -- what the API, the server and the loopback add to a command."""
    out: dict[str, float | None] = {}
    for kind in KINDS:
        h, s = http["by_command"].get(kind), single["by_command"].get(kind)
        out[kind] = round(h["p50_ms"] - s["p50_ms"], 2) if h and s else None
    return out
