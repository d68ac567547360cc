"""What must hold after a fault run (issue 26 item 3), checked from the terminals' history
against the cluster's database, read directly (psycopg, no Django connection: the
harness's own database settings are not the cluster's).

**The link from an Idempotency-Key to its events.** The API keeps a command's key row
(``casino_idempotency_key``: login, key, the answer's bytes) in the command's own
transaction (:mod:`casino.idempotency`), and the event store numbers every event by the
transaction that appended it: ``position = xid << 16 | place`` (migration casino/0006).
So the key row's ``xmin`` -- the id of the transaction that wrote it -- names exactly the
events its command appended: those with ``position >> 16`` equal to it. No guess by time
or by content: the row and the events committed together or not at all. On top of it,
the answer the terminal got names what it produced (a hand's or a banked round's
``events`` with their versions, a round's or a deck's stream), and each of those must be
one of that transaction's events.

* **lost**: an acknowledged key (a 2xx in the history) with no key row, or whose
  transaction appended no event, or whose answer names an event that transaction did not
  append (``{"key", "why"}`` rows), or whose stored answer is not the one the terminal
  got;
* **duplicated**: a key answered 2xx twice with different answers (the command ran
  twice); a transaction that appended events of the terminals' logins during the run
  without a key row (every terminal command carries a key, so such a transaction is a
  command run outside its key); and, independent of keys, from the whole log: a stream
  with two ``RoundOpened`` or two ``HandStarted``, two events at one stream version, a
  stream whose versions are not 1..n.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from faultlab.history import CONNECT_TIMEOUT, DIGEST, Attempt, History, answer_digest

#: seconds past the request timeout after which an attempt counts as hung
HUNG_SLACK = 2.0
#: the event types that start a round or a hand: one per stream
OPENING_TYPES = ("RoundOpened", "HandStarted")
#: how long ``verify_events`` may take before it counts as failed (seconds)
VERIFY_TIMEOUT = 900
REPO = Path(__file__).resolve().parent.parent


def _connect(database_url: str) -> Any:
    import psycopg

    return psycopg.connect(database_url, autocommit=True, connect_timeout=10)


def _produced(answer: Any) -> list[tuple[str, int | None, str | None]]:
    """(stream, version, type) the answer says its command appended: a hand's or a banked
    round's ``events`` (the round's stream), a round opened (its ``RoundOpened`` at 1),
    a deck's or a table's new ``stream_version``."""
    if not isinstance(answer, dict):
        return []
    events = answer.get("events")
    round_id = answer.get("round_id") or (answer.get("id") if "phase" in answer else None)
    if isinstance(events, list) and round_id:
        return [(f"round-{round_id}", int(e["version"]), e.get("type")) for e in events
                if isinstance(e, dict) and "version" in e]
    stream = answer.get("stream_id")
    if stream and "stream_version" in answer:
        return [(stream, int(answer["stream_version"]), None)]
    if stream and answer.get("state") == "open" and "opened_at" in answer:
        return [(stream, 1, "RoundOpened")]
    if stream and answer.get("state") == "closed" and "closed_at" in answer:
        return [(stream, None, "RoundClosed")]  # a round's answer names no version
    return []


def _full_xid(cur: Any, xmins: list[int]) -> dict[int, int]:
    """Each 32-bit ``xmin`` as the 64-bit transaction id the positions carry (the epoch
    of now, or the one before for an xid above now's: it wrapped since)."""
    cur.execute("SELECT pg_current_xact_id()::text::bigint")
    now = int(cur.fetchone()[0])
    epoch, low = now >> 32, now & 0xFFFFFFFF
    return {x: ((epoch - (1 if x > low else 0)) << 32) | x for x in xmins}


def _events_of(cur: Any, xids: list[int]) -> dict[int, list[tuple[str, int, str]]]:
    """The events each transaction appended: (stream, version, type)."""
    out: dict[int, list[tuple[str, int, str]]] = defaultdict(list)
    if not xids:
        return out
    cur.execute("SELECT x.xid, e.stream_id, e.version, e.type FROM unnest(%s::bigint[]) "
                "AS x(xid) JOIN casino_event e ON e.position BETWEEN x.xid << 16 "
                "AND (x.xid << 16) + 65535", [xids])
    for xid, stream, version, type_ in cur.fetchall():
        out[int(xid)].append((stream, int(version), type_))
    return out


def _lost(cur: Any, acked: list[Attempt]) -> tuple[list[dict[str, str]], set[int]]:
    """The acknowledged keys whose effect is not in the log, and the transactions of
    those that are."""
    keys = [a.key for a in acked]
    cur.execute("SELECT key, xmin::text::bigint, body FROM casino_idempotency_key "
                "WHERE key = ANY(%s)", [keys])
    rows = {k: (int(x), bytes(b)) for k, x, b in cur.fetchall()}
    full = _full_xid(cur, [x for x, _ in rows.values()])
    events = _events_of(cur, sorted(set(full.values())))
    lost: list[dict[str, str]] = []
    for a in acked:
        if a.key not in rows:
            lost.append({"key": a.key, "why": f"{a.op} answered {a.status}: no key row "
                                              "(its transaction is not in the database)"})
            continue
        xmin, body = rows[a.key]
        mine = events.get(full[xmin], [])
        if not mine:
            lost.append({"key": a.key, "why": f"{a.op}: its transaction {full[xmin]} "
                                              "appended no event"})
            continue
        try:
            stored = json.loads(body)
        except ValueError:
            stored = None
        if isinstance(a.answer, dict) and DIGEST in a.answer:  # a compact history's
            same = answer_digest(stored) == a.answer[DIGEST]
        else:
            same = stored == a.answer
        if not same:
            lost.append({"key": a.key, "why": f"{a.op}: the answer kept under the key is "
                                              "not the one the terminal got"})
            continue
        have = {(s, v) for s, v, _ in mine}
        types = {(s, v): t for s, v, t in mine}
        for stream, version, type_ in _produced(a.answer):
            if version is None:
                found = any(s == stream and t == type_ for s, _, t in mine)
            else:
                found = (stream, version) in have and (not type_ or
                                                       types[(stream, version)] == type_)
            if not found:
                lost.append({"key": a.key, "why": f"{a.op}: the answer's {type_ or 'event'} "
                             f"at {stream} v{version} is not among transaction "
                             f"{full[xmin]}'s events"})
                break
    return lost, set(full.values())


def _twice_answered(history: History) -> list[str]:
    """Keys answered 2xx with two different answers: the command ran twice."""
    first: dict[str, Any] = {}
    out = []
    for a in history.attempts():
        if a.ok and a.key is not None:
            if a.key not in first:
                first[a.key] = a.answer
            elif a.answer != first[a.key] and a.key not in out:
                out.append(a.key)
    return out


def _unkeyed(cur: Any, history: History) -> list[str]:
    """Transactions that appended events of the terminals' logins while they ran (logins
    and logouts aside) with no key row: commands recorded outside their key."""
    attempts = [a for a in history.attempts() if a.key is not None]
    if not attempts:
        return []
    start = min(a.sent for a in attempts) - 1.0
    end = max(a.done for a in attempts) + 1.0
    actors = sorted({u for u in _usernames(cur, history)})
    if not actors:
        return []
    cur.execute(
        "SELECT e.position >> 16 AS xid, count(*), min(e.stream_id), min(e.type) "
        "FROM casino_event e WHERE e.recorded_at BETWEEN to_timestamp(%s) AND "
        "to_timestamp(%s) AND e.metadata->>'actor' = ANY(%s) AND e.stream_type <> 'login' "
        "GROUP BY 1", [start, end, actors])
    txs = {int(x): (n, s, t) for x, n, s, t in cur.fetchall()}
    cur.execute("SELECT xmin::text::bigint FROM casino_idempotency_key WHERE created_at "
                "BETWEEN to_timestamp(%s) AND to_timestamp(%s)", [start - 60, end + 60])
    keyed = set(_full_xid(cur, [int(r[0]) for r in cur.fetchall()]).values())
    return [f"transaction {x} appended {n} event(s) ({t} in {s}...) with no idempotency key"
            for x, (n, s, t) in sorted(txs.items()) if x not in keyed]


def _usernames(cur: Any, history: History) -> set[str]:
    """The logins the terminals used: read from the login attempts' answers is not
    possible (a token only), so from the key rows of the history's keys."""
    keys = [a.key for a in history.acknowledged()]
    cur.execute("SELECT DISTINCT u.username FROM casino_idempotency_key k JOIN auth_user u "
                "ON u.id = k.user_id WHERE k.key = ANY(%s)", [keys])
    return {r[0] for r in cur.fetchall()}


def domain_duplicates(cur: Any) -> list[str]:
    """From the whole log, whatever the keys: a stream opened twice, two events at one
    stream version, a stream whose versions are not exactly 1..n."""
    out = []
    cur.execute("SELECT stream_id, type, count(*) FROM casino_event WHERE type = ANY(%s) "
                "GROUP BY 1, 2 HAVING count(*) > 1", [list(OPENING_TYPES)])
    out += [f"{s}: {t} recorded {n} times" for s, t, n in cur.fetchall()]
    cur.execute("SELECT stream_id, version, count(*) FROM casino_event GROUP BY 1, 2 "
                "HAVING count(*) > 1")
    out += [f"{s}: {n} events at version {v}" for s, v, n in cur.fetchall()]
    cur.execute("SELECT stream_id, count(*), min(version), max(version) FROM casino_event "
                "GROUP BY 1 HAVING min(version) <> 1 OR max(version) <> count(*)")
    out += [f"{s}: versions {lo}..{hi} for {n} events (not contiguous)"
            for s, n, lo, hi in cur.fetchall()]
    return out


def check(history: History, database_url: str, *, request_timeout: float = 10.0,
          slack: float = HUNG_SLACK) -> dict[str, Any]:
    """The run's verdict: ``acknowledged`` (keys answered 2xx), ``lost`` (keys),
    ``lost_why`` (the reason for each), ``duplicated`` (keys and descriptions),
    ``http_500``, ``hung`` (attempts the server did not answer within the request
    timeout once connected — a ReadTimeout — or that took over it, the connect time and
    ``slack``),
    ``unresolved`` (keys never answered definitely: not acknowledged, so not lost),
    ``statuses`` and ``ok`` (nothing lost, nothing duplicated, no 500, nothing hung)."""
    acked = history.acknowledged()
    attempts = history.attempts()
    with _connect(database_url) as conn, conn.cursor() as cur:
        lost, _ = _lost(cur, acked) if acked else ([], set())
        duplicated = _twice_answered(history) + _unkeyed(cur, history) + domain_duplicates(cur)
    definite = {a.key for a in attempts if a.key and a.status is not None
                and a.status < 500 and a.code != "idempotency_key_in_flight"}
    unresolved = sorted({a.key for a in attempts if a.key} - definite)
    http_500 = sum(1 for a in attempts if a.status == 500)
    hung = sum(1 for a in attempts if a.took > request_timeout + CONNECT_TIMEOUT + slack
               or (a.status is None and "ReadTimeout" in (a.error or "")))
    lost_keys = list(dict.fromkeys(x["key"] for x in lost))
    return {"acknowledged": len(acked), "lost": lost_keys, "lost_why": lost,
            "duplicated": duplicated, "http_500": http_500, "hung": hung,
            "unresolved": len(unresolved), "statuses": history.status_counts(),
            "ok": not lost_keys and not duplicated and http_500 == 0 and hung == 0}


def verify_events(database_url: str, *, timeout: float = VERIFY_TIMEOUT,
                  env: dict[str, str] | None = None) -> tuple[int, str]:
    """``manage.py verify_events`` on ``database_url`` in a process of its own: (exit
    code, its output, stdout then stderr). A run past ``timeout`` is exit code -1."""
    run_env = dict(os.environ, **(env or {}), DATABASE_URL=database_url,
                   DJANGO_SETTINGS_MODULE="casino.settings", PYTHONPATH=str(REPO))
    try:
        done = subprocess.run([sys.executable, str(REPO / "manage.py"), "verify_events"],
                              env=run_env, cwd=REPO, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        return -1, f"verify_events did not finish within {timeout:g} s: {exc.stdout or ''}"
    return done.returncode, (done.stdout or "") + (done.stderr or "")
