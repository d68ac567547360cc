"""``manage.py bench_floor``: the poker floor (issue 24) in a busy room, on PostgreSQL, with
its floors measured beside it in the same run (this machine's speed varies between runs,
so only ratios within one run count). Prints JSON; progress goes to stderr.

The room: ``--tables`` tables (240) of the only property (``seed_demo`` first), of which
``--poker-tables`` (60) are poker tables of ``--lists`` (8) games, open, each with all but
two of its seats taken; the rest are banked tables, rows only (configured, closed). One
list per game (``waitlist_open``), ``--waiting`` (400) players waiting on them. What is
missing is made through the services on first use (tables ``BENCH-FLOOR-P-*`` and
``BENCH-FLOOR-B-*``, players ``Bench <run>-<n>``) and found again by later runs.

Three figures, each with its target and ``ok``:

* **list commands** (``player_list``, ``call_next``, ``call_player``, ``call_seat``,
  ``call_timeout``, ``player_delist``) at ``--calls-per-minute`` (30) for ``--seconds``
  (60): a seat opens (a seated player leaves, ``seat_leave``), the floor calls the first
  on the game's list (every fifth call another player, with a reason), the called player
  takes the seat (``call_seat``) or, one call in four, does not come and the call times
  out at its deadline (``call_timeout``; a minute of the Rules' ``call_minutes`` lasts
  ``--call-minute-seconds`` here, as the setting ``FLOOR_CALL_MINUTE_SECONDS`` shortens
  it; the timeout offers the seat to the next player in the same command, as the
  product does with ``FLOOR_AUTO_CALL``); a new player is listed for each one who leaves
  the lists, and now and then one is taken off (``player_delist``). After each list command
  the floor, one bare durable append (``store.append`` in its own transaction), is timed
  beside it. Target: the list commands' p99 within 2x the bare appends' p99.
* **the feed** (``GET /poker/live/<licence>/feed.json``, served from its cache) against
  the bare ``GET /health`` on the same server: gunicorn (as ``bin/run`` serves the
  product, with threaded workers so that clients keep their connections alive) on a free
  loopback port against this database, the feed's rate limit raised for the run
  (``FEED_RATE_PER_MINUTE``), ``--clients`` processes each on one kept-alive connection,
  in turn for ``--throughput-seconds`` each, twice. Target: the feed's requests/s at least
  half of ``/health``'s.
* **staleness**: while the list commands run, ``--readers`` processes read the feed
  every ``--feed-interval`` seconds; after each change (a list command or a seat left)
  the time until a feed response requested after it shows that state or a later one (the
  lists' lengths and the tables' vacant seats, compared with what the feed's builder says
  at that moment). Target: max and p99 at most 1 s.

Bounded: every loop stops at its count or its time, whichever comes first; the server is
stopped at the end whatever happens. The tasks the commands queue (pages, timeouts) are
left to no worker here: the bench itself times calls out at their deadlines, and removes
its own ``poker_floor.*`` messages from a Redis broker's queue at the end (those queued
during the run for one of its calls or its room's tables; any other is left alone).
"""

from __future__ import annotations

import base64
import heapq
import http.client
import json
import multiprocessing as mp
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, connections
from django.test.utils import override_settings
from django.utils import timezone

TARGETS = {"list_p99_to_bare_append_p99": 2.0, "feed_to_health_requests_per_second": 0.5,
           "staleness_seconds": 1.0}
#: the lists' games: the demo's poker tables' games first (seed_demo_tables), then others
LIST_GAMES = ("holdem", "omaha-hilo8", "stud-high", "triple-draw-27", "badugi",
              "omaha-high", "draw-high", "five-card-omaha-high", "stud-hilo8", "draw-low",
              "five-card-stud", "triple-draw-a5")
PREFIX = "BENCH-FLOOR"
#: the seats each poker table keeps vacant at set-up (the room's vacant seats)
VACANT = 2
#: the most seats a bench poker table is configured with
POSITIONS = 9
#: the list commands measured (and the seat command that opens a seat, measured apart)
LIST_COMMANDS = ("player_list", "call_next", "call_player", "call_seat", "call_timeout",
                 "player_delist")
PASS_REASON = "the first player asked to wait for a seat at another table"
DELIST_REASON = "the player left the room"


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else 0.0


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _figures(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50_ms": _ms(statistics.median(values)) if values else None,
            "p99_ms": _ms(_pct(values, 0.99)) if values else None,
            "max_ms": _ms(max(values)) if values else None}


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- the room (main process) ------------------------------------------------------------

class Room:
    """The bench's room: its crew, the poker tables of each list's game, the lists."""

    def __init__(self, prop: Any, people: dict[str, Any], games: tuple[str, ...]):
        self.prop, self.people, self.games = prop, people, games
        self.tables: dict[str, list[Any]] = {g: [] for g in games}
        self.lists: dict[str, Any] = {}
        self.minimum: dict[str, int] = {}
        #: what the set-up had to make: tables, players seated, players listed
        self.made: dict[str, int] = {}


def _free_names(prop: Any, kind: str) -> Callable[[], str]:
    from tables.models import GameTable

    taken = set(GameTable.objects.filter(property=prop, name__startswith=f"{PREFIX}-{kind}-")
                .values_list("name", flat=True))
    counter = iter(range(1, 100_000))

    def name() -> str:
        while True:
            candidate = f"{PREFIX}-{kind}-{next(counter):03d}"
            if candidate not in taken:
                taken.add(candidate)
                return candidate
    return name


def build_room(opts: dict[str, Any], run: str) -> Room:
    """The room of the options, made through the services where it is missing."""
    from casino.models import Property
    from poker_floor.models import EntryStatus, ListEntry, Waitlist
    from poker_floor.services import lists
    from poker_room.models import Seat
    from poker_room.services import seats
    from poker_room.services.seats import table_rules
    from tables.demo import demo_people, example_rules_in_effect
    from tables.domain.catalogue import BANKED_GAMES, get_table_game
    from tables.models import GameTable, TableStatus
    from tables.services import tables

    props = list(Property.objects.all()[:2])
    if len(props) != 1:
        raise CommandError("no_property: run `manage.py seed_demo` first" if not props else
                           "ambiguous_property: bench_floor needs a single property")
    prop = props[0]
    try:
        people = demo_people(prop)
    except Exception:  # noqa: BLE001
        raise CommandError("no_demo_staff: run `manage.py seed_demo` first") from None
    room = Room(prop, people, LIST_GAMES[:opts["lists"]])
    for game in room.games:
        example_rules_in_effect(people, game)
    existing = list(GameTable.objects.filter(property=prop))
    poker = sum(1 for t in existing if get_table_game(t.game).is_poker)
    banked = len(existing) - poker
    name = _free_names(prop, "P")
    made = 0
    while poker < opts["poker_tables"]:
        game = room.games[poker % len(room.games)]
        tables.table_configure(actor=people["admin"], name=name(), game=game,
                               positions=min(POSITIONS, get_table_game(game).max_positions),
                               dealing_method="hand", shuffler="automated")
        poker, made = poker + 1, made + 1
    name = _free_names(prop, "B")
    while banked < opts["tables"] - opts["poker_tables"]:
        game = BANKED_GAMES[banked % len(BANKED_GAMES)]
        tables.table_configure(actor=people["admin"], name=name(), game=game, positions=5,
                               dealing_method="automated-shoe", shuffler="automated")
        banked, made = banked + 1, made + 1
    # the list games' tables open, each with all but VACANT seats taken
    seated = 0
    for table in GameTable.objects.filter(property=prop, game__in=room.games).order_by("name"):
        if table.status == TableStatus.CLOSED:
            table = tables.table_open(actor=people["floor"], table_id=table.pk)
        room.tables[table.game].append(table.pk)
        if table.game not in room.minimum:
            room.minimum[table.game] = table_rules(table).shared_dict()["buy_in_minimum_cents"]
        taken = set(Seat.objects.filter(table_id=table.pk).values_list("seat", flat=True))
        for seat in range(1, table.positions + 1):
            if len(taken) >= table.positions - VACANT:
                break
            if seat not in taken:
                seats.seat_player(actor=people["floor"], table_id=table.pk, seat=seat,
                                  buy_in_cents=room.minimum[table.game], paid_with="chips")
                taken.add(seat)
                seated += 1
    for game in room.games:
        wl = Waitlist.objects.filter(property=prop, game=game).first()
        room.lists[game] = (wl or lists.waitlist_open(actor=people["floor"], game=game)).pk
    waiting = ListEntry.objects.filter(waitlist_id__in=room.lists.values(),
                                       status=EntryStatus.WAITING).count()
    for n in range(max(0, opts["waiting"] - waiting)):
        game = room.games[n % len(room.games)]
        lists.player_list(actor=people["floor"], waitlist_id=room.lists[game],
                          **_player(run, n))
    room.made = {"tables_made": made, "players_seated": seated,
                 "players_listed": max(0, opts["waiting"] - waiting)}
    return room


def _player(run: str, n: int) -> dict[str, str]:
    """A bench player: a name, and an e-mail address of its own for two in three (one
    contact is one player on a list: a phone or address given twice is refused as
    ``already_listed``, and the fictional phone numbers are too few for thousands)."""
    out = {"name": f"Bench {run}-{n}"}
    if n % 3:
        out["email"] = f"bench-{run}-{n}@example.com"
    return out


# --- the feed's view ----------------------------------------------------------------------

def feed_view(payload: Any) -> str:
    """What a change of the floor shows in the feed's JSON
    (:func:`poker_floor.feed.live_feed`): each open table's vacant seats and each list's
    kind and length, as one comparable text. The estimated waits are left out: they move
    with the clock too."""
    tables, lists = [], []
    for g in payload.get("games", []):
        tables.extend(f"{t.get('table')}:{t.get('vacant')}" for t in g.get("open_tables", []))
        if g.get("waitlist"):
            lists.append(f"{g['waitlist'].get('id')}:waitlist={g['waitlist'].get('length')}")
    lists.extend(f"{i.get('id')}:interest={i.get('length')}"
                 for i in payload.get("interest_lists", []))
    return "|".join(sorted(tables)) + "#" + "|".join(sorted(lists))


def fresh_view(prop: Any) -> str:
    """The same view read now from the selectors the feed is built from (the room board's
    tables and lists; the feed's own builder would add the estimated waits, which cost
    more than the rest and are not in the view): what a fresh response shows."""
    from poker_floor.feed import board_lists
    from poker_room.board.selectors import board_tables

    tables = [f"{t['name']}:{t['vacant']}" for t in board_tables(prop) if t["status"] == "open"]
    lists = [f"{w['id']}:{w['kind']}={w['length']}" for w in board_lists(prop)]
    return "|".join(sorted(tables)) + "#" + "|".join(sorted(lists))


# --- bare durable appends (the floor of the list commands) ------------------------------

class BareAppend:
    """One small event appended to a bench stream of its own, in its own transaction."""

    def __init__(self) -> None:
        from casino.eventstore.store import register_stream_type

        register_stream_type("bench")
        self.stream = ("bench", f"bench-floor-{os.getpid()}-{time.time_ns()}")
        self.version = 0

    def __call__(self) -> None:
        from casino.eventstore.store import NewEvent, append

        append(self.stream, self.version, [NewEvent("BenchListed", {
            "entry": "00000000-0000-0000-0000-000000000000", "source": "floor",
            "kind": "player", "details": {"sealed": "x" * 160}})],
            {"actor": "bench", "property": "bench"})
        self.version += 1


# --- the server -----------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    d = connection.settings_dict
    auth = d["USER"] or ""
    if d.get("PASSWORD"):
        auth += f":{d['PASSWORD']}"
    return (f"postgres://{auth}{'@' if auth else ''}{d['HOST'] or '127.0.0.1'}:"
            f"{d['PORT'] or 5432}/{d['NAME']}")


class Server:
    """gunicorn serving the product on a free loopback port, in a session of its own (so
    its workers are stopped with it)."""

    def __init__(self, workers: int, threads: int, feed_rate: int):
        self.port = _free_port()
        self.log = tempfile.TemporaryFile("w+")
        env = dict(os.environ, DATABASE_URL=_database_url(),
                   CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
                   FEED_RATE_PER_MINUTE=str(feed_rate),
                   DJANGO_SETTINGS_MODULE="casino.settings",
                   PYTHONPATH=str(settings.BASE_DIR))
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.proc = subprocess.Popen(
            [str(gunicorn), "casino.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(workers), "--worker-class", "gthread", "--threads",
             str(threads), "--keep-alive", "30", "--log-level", "warning",
             "--chdir", str(settings.BASE_DIR)],
            env=env, stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                status, _ = _get(self.port, "/health")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise CommandError(f"server_not_ready: gunicorn did not answer /health within "
                           f"{timeout:g} s: {self.tail()}")

    def tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-2000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)
            except ProcessLookupError:
                pass
        self.log.close()


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


# --- clients (child processes) --------------------------------------------------------------

def _hammer(args: tuple) -> dict[str, Any]:
    """One client on one kept-alive connection: GET ``path`` as fast as answered until
    ``stop_at`` (monotonic) or ``limit`` requests."""
    port, path, start_at, stop_at, limit = args
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    ok, statuses, errors, reconnects = 0, {}, 0, 0
    while time.monotonic() < start_at:
        time.sleep(0.001)
    n = 0
    while time.monotonic() < stop_at and n < limit:
        n += 1
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            resp.read()
            if resp.status == 200:
                ok += 1
            else:
                statuses[str(resp.status)] = statuses.get(str(resp.status), 0) + 1
            if resp.will_close:
                conn.close()
                reconnects += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            reconnects += 1
    elapsed = time.monotonic() - start_at
    conn.close()
    return {"ok": ok, "statuses": statuses, "errors": errors, "reconnects": reconnects,
            "elapsed": elapsed}


def _watch(args: tuple) -> list[tuple[float, float, int, str]]:
    """One feed reader: every ``interval`` s until ``stop_at``, (sent, received, status,
    view) of each response."""
    port, path, start_at, stop_at, interval, limit = args
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    out: list[tuple[float, float, int, str]] = []
    due = start_at
    while len(out) < limit:
        now = time.monotonic()
        if now >= stop_at:
            break
        if now < due:
            time.sleep(due - now)
        due += interval
        sent = time.monotonic()
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
            received = time.monotonic()
            view = feed_view(json.loads(body)) if resp.status == 200 else ""
            out.append((sent, received, resp.status, view))
            if resp.will_close:
                conn.close()
        except (OSError, http.client.HTTPException, ValueError):
            conn.close()
            out.append((sent, time.monotonic(), 0, ""))
    conn.close()
    return out


def _pool(n: int) -> Any:
    connections.close_all()
    return mp.get_context("fork").Pool(n)


# --- the feed against /health ----------------------------------------------------------

def throughput(port: int, feed_path: str, clients: int, seconds: float,
               rounds: int = 2) -> dict[str, Any]:
    """``/health`` and the feed in turn, ``rounds`` times, ``clients`` kept-alive
    connections each: requests/s of each over all its windows."""
    totals: dict[str, dict[str, Any]] = {
        p: {"ok": 0, "elapsed": 0.0, "errors": 0, "statuses": {}, "reconnects": 0}
        for p in ("health", "feed")}
    for path in ("/health", feed_path):  # warm both (the feed's cache filled)
        for _ in range(20):
            _get(port, path)
    with _pool(clients) as pool:
        for r in range(rounds):
            for key, path in (("health", "/health"), ("feed", feed_path)):
                _say(f"  round {r + 1}: {key} from {clients} clients for {seconds:g} s ...")
                start = time.monotonic() + 0.2
                results = pool.map(_hammer, [(port, path, start, start + seconds, 10_000_000)
                                             for _ in range(clients)])
                t = totals[key]
                t["ok"] += sum(x["ok"] for x in results)
                t["elapsed"] += max(x["elapsed"] for x in results)
                t["errors"] += sum(x["errors"] for x in results)
                t["reconnects"] += sum(x["reconnects"] for x in results)
                for x in results:
                    for s, c in x["statuses"].items():
                        t["statuses"][s] = t["statuses"].get(s, 0) + c
    out = {key: {"requests": t["ok"], "requests_per_second": round(t["ok"] / t["elapsed"], 1),
                 "not_200": t["statuses"], "errors": t["errors"],
                 "reconnects": t["reconnects"]}
           for key, t in totals.items()}
    ratio = (out["feed"]["requests_per_second"] / out["health"]["requests_per_second"]
             if out["health"]["requests_per_second"] else 0.0)
    clean = not out["feed"]["not_200"] and not out["feed"]["errors"]
    return {"clients": clients, "seconds_each": seconds, "rounds": rounds, **out,
            "ratio": round(ratio, 3),
            "target": TARGETS["feed_to_health_requests_per_second"],
            "ok": clean and ratio >= TARGETS["feed_to_health_requests_per_second"]}


# --- the list commands ---------------------------------------------------------------------

class Floor:
    """The floor at work: list commands at a steady rate of calls, each timed beside a bare
    append, and every change's time and the feed's view after it (for the staleness)."""

    def __init__(self, room: Room, run: str, rng: random.Random):
        self.room, self.run, self.rng = room, run, rng
        self.floor = room.people["floor"]
        self.bare = BareAppend()
        self.times: dict[str, list[float]] = {c: [] for c in LIST_COMMANDS}
        self.times["seat_leave"] = []
        self.bare_times: list[float] = []
        self.changes: list[tuple[float, str, str]] = []   # (monotonic, command, view)
        self.refused: dict[str, int] = {}
        self.listed = 0
        self.calls = 0

    # every command goes through here
    def do(self, name: str, fn: Callable[[], Any]) -> Any:
        from casino.domain.errors import DomainError

        t0 = time.perf_counter()
        try:
            out = fn()
        except DomainError as exc:
            key = f"{name}:{exc.code}"
            self.refused[key] = self.refused.get(key, 0) + 1
            return None
        t1 = time.perf_counter()
        at = time.monotonic()
        self.times[name].append(t1 - t0)
        if name in LIST_COMMANDS:
            t2 = time.perf_counter()
            self.bare()
            self.bare_times.append(time.perf_counter() - t2)
        self.changes.append((at, name, fresh_view(self.room.prop)))
        return out

    def list_one(self, game: str) -> None:
        from poker_floor.services import lists

        n = self.listed
        self.listed += 1
        self.do("player_list", lambda: lists.player_list(
            actor=self.floor, waitlist_id=self.room.lists[game],
            **_player(f"{self.run}x", n)))

    def open_seat(self, table_id: Any) -> int | None:
        from poker_room.models import Seat
        from poker_room.services import seats

        taken = list(Seat.objects.filter(table_id=table_id).values_list("seat", flat=True))
        if not taken:
            return None
        seat = self.rng.choice(taken)
        left = self.do("seat_leave", lambda: seats.seat_leave(actor=self.floor,
                                                              table_id=table_id, seat=seat))
        return seat if left is not None else None

    def waiting(self, game: str) -> list[str]:
        """The list's waiting entries (not called) in calling order."""
        from poker_floor.models import Waitlist
        from poker_floor.services import calls

        waitlist = Waitlist.objects.get(pk=self.room.lists[game])
        return [e.id for e in calls.entries_in_order(waitlist) if e.status == "waiting"]

    def call(self, game: str, table_id: Any, seat: int, out_of_turn: bool) -> Any:
        from poker_floor.services import calls

        waitlist_id = self.room.lists[game]
        self.calls += 1
        if out_of_turn:
            waiting = self.waiting(game)
            if len(waiting) >= 2:  # the second called, the first passed over
                return self.do("call_player", lambda: calls.call_player(
                    actor=self.floor, waitlist_id=waitlist_id, entry_id=waiting[1],
                    table_id=table_id, seat=seat, reason=PASS_REASON))
        return self.do("call_next", lambda: calls.call_next(
            actor=self.floor, waitlist_id=waitlist_id, table_id=table_id, seat=seat))

    def seat(self, call: Any, game: str) -> Any:
        from poker_floor.services import calls

        return self.do("call_seat", lambda: calls.call_seat(
            actor=self.floor, call_id=call.pk, buy_in_cents=self.room.minimum[game],
            paid_with="chips"))

    def timeout(self, call: Any) -> Any:
        """The call timed out as its task does it (the system; with FLOOR_AUTO_CALL the
        seat is offered to the next player in the same command)."""
        from casino.actors import system_actor
        from poker_floor.services import calls

        system = system_actor(self.room.prop, "floor")
        return self.do("call_timeout", lambda: calls.call_timeout(actor=system,
                                                                  call_id=call.pk))

    def delist(self, game: str) -> Any:
        from poker_floor.services import lists

        waiting = self.waiting(game)
        if not waiting:
            return None
        return self.do("player_delist", lambda: lists.player_delist(
            actor=self.floor, waitlist_id=self.room.lists[game], entry_id=waiting[-1],
            reason=DELIST_REASON))


def run_floor(floor: Floor, seconds: float, per_minute: float) -> dict[str, Any]:
    """The scenario, on a clock: each ``60 / per_minute`` s a seat opens at the next table
    (the games in turn) and is called; what follows is scheduled, each step at its time:
    the player seated half an interval later (or, one call in four, the call timed out at
    its deadline and the seat called again), a new player listed on another list after each
    who leaves the lists, one taken off now and then."""
    from poker_floor.models import Call, CallState, ListEntry

    room = floor.room
    interval = 60.0 / per_minute
    games = room.games
    heap: list[tuple[float, int, str, tuple]] = []
    seq = iter(range(10_000_000))
    start = time.monotonic()
    end = start + seconds
    cycles = int(seconds / interval) + 1
    for k in range(cycles):
        heapq.heappush(heap, (start + k * interval, next(seq), "open", (k,)))
    steps, late = 0, []
    limit = cycles * 12 + 100
    while heap and steps < limit:
        due, _, what, args = heapq.heappop(heap)
        if due >= end:
            break
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        late.append(max(0.0, -wait))
        steps += 1
        if what == "open":
            (k,) = args
            game = games[k % len(games)]
            tables = room.tables[game]
            table_id = tables[(k // len(games)) % len(tables)]
            seat = floor.open_seat(table_id)
            if seat is None:
                continue
            heapq.heappush(heap, (time.monotonic() + 0.1 * interval, next(seq), "call",
                                  (game, table_id, seat, k % 5 == 2, k % 4 == 1)))
        elif what == "call":
            game, table_id, seat, out_of_turn, no_show = args
            call = floor.call(game, table_id, seat, out_of_turn)
            if call is None:
                continue
            if no_show:
                deadline = call.deadline_at.timestamp() - time.time() + time.monotonic()
                heapq.heappush(heap, (deadline + 0.05, next(seq), "timeout",
                                      (game, table_id, seat, call)))
            else:
                heapq.heappush(heap, (time.monotonic() + 0.4 * interval, next(seq), "seat",
                                      (game, call)))
        elif what == "seat":
            game, call = args
            if floor.seat(call, game) is not None:
                heapq.heappush(heap, (time.monotonic() + 0.2 * interval, next(seq), "list",
                                      (games[(games.index(game) + 3) % len(games)],)))
        elif what == "timeout":
            game, table_id, seat, call = args
            if floor.timeout(call) is not None:
                if ListEntry.objects.filter(pk=call.entry_id, status="removed").exists():
                    heapq.heappush(heap, (time.monotonic() + 0.1 * interval, next(seq),
                                          "list", (game,)))
                # the seat offered to the next player by the timeout itself, or called now
                again = Call.objects.filter(table=table_id, seat=seat,
                                            state=CallState.OPEN).first()
                if again is not None:
                    heapq.heappush(heap, (time.monotonic() + 0.4 * interval, next(seq),
                                          "seat", (game, again)))
                else:
                    heapq.heappush(heap, (time.monotonic() + 0.1 * interval, next(seq),
                                          "call", (game, table_id, seat, False, False)))
        elif what == "list":
            (game,) = args
            floor.list_one(game)
            if floor.listed % 5 == 0:  # now and then a player leaves the lists
                other = games[(games.index(game) + 5) % len(games)]
                heapq.heappush(heap, (time.monotonic() + 0.15 * interval, next(seq),
                                      "delist", (other,)))
        elif what == "delist":
            (game,) = args
            if floor.delist(game) is not None:
                heapq.heappush(heap, (time.monotonic() + 0.1 * interval, next(seq),
                                      "list", (game,)))
    elapsed = time.monotonic() - start
    # calls the run left open are cancelled, so the next run finds the seats free
    from casino.domain.errors import DomainError
    from poker_floor.services import calls as call_service

    for c in Call.objects.filter(waitlist_id__in=room.lists.values(), state=CallState.OPEN):
        try:
            call_service.call_cancel(actor=floor.floor, call_id=c.pk,
                                     reason="the benchmark ended")
        except DomainError:  # answered meanwhile
            pass
    return {"elapsed": elapsed, "steps": steps,
            "schedule_late_ms": {"p99": _ms(_pct(late, 0.99)), "max": _ms(max(late))}
            if late else None}


def staleness(changes: list[tuple[float, str, str]], initial: str,
              responses: list[tuple[float, float, int, str]]) -> dict[str, Any]:
    """For each change that altered the feed's view: the time from its commit until the
    first response requested after it that shows it or a later state (the response's
    view is that of a change ``j >= i`` committed before the response came back). A view
    the room had twice is taken as its later time: the scenario moves on to other lists
    and tables, so a state comes back only after many changes, not within a second."""
    responses = sorted(r for r in responses if r[2] == 200)
    views = [initial] + [c[2] for c in changes]
    times = [float("-inf")] + [c[0] for c in changes]
    where: dict[str, list[int]] = {}
    for j, view in enumerate(views):
        where.setdefault(view, []).append(j)
    # each response: the latest state it can be showing
    shown = [max((j for j in where.get(r[3], ()) if times[j] <= r[1]), default=-1)
             for r in responses]
    delays: list[float] = []
    unseen = 0
    first = 0
    for i in range(1, len(views)):
        if views[i] == views[i - 1]:
            continue  # the change does not show in the feed (a call made, ...)
        while first < len(responses) and responses[first][0] < times[i]:
            first += 1
        seen = next((responses[k][1] for k in range(first, len(responses))
                     if shown[k] >= i), None)
        if seen is None:
            unseen += 1
        else:
            delays.append(seen - times[i])
    worst = max(delays) if delays else None
    p99 = _pct(delays, 0.99) if delays else None
    limit = TARGETS["staleness_seconds"]
    took = [r[1] - r[0] for r in responses]
    return {"changes_shown": len(delays), "changes_never_shown": unseen,
            "responses": len(responses),
            # how long a reader waited for each response (part of every delay below)
            "response_ms": {"p50": _ms(statistics.median(took)), "p99": _ms(_pct(took, 0.99)),
                            "max": _ms(max(took))} if took else None,
            "p50_seconds": round(statistics.median(delays), 3) if delays else None,
            "p99_seconds": round(p99, 3) if p99 is not None else None,
            "max_seconds": round(worst, 3) if worst is not None else None,
            "target_seconds": limit,
            "ok": bool(delays) and unseen == 0 and worst is not None and worst <= limit}


# --- the command ------------------------------------------------------------------------------

class Command(BaseCommand):
    help = ("The poker floor in a 240-table room: list commands against a bare durable "
            "append, the feed against /health on one server, and the feed's staleness (JSON).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=60.0,
                            help="how long the list commands run (default 60)")
        parser.add_argument("--calls-per-minute", type=float, default=30.0)
        parser.add_argument("--tables", type=int, default=240)
        parser.add_argument("--poker-tables", type=int, default=60)
        parser.add_argument("--lists", type=int, default=8)
        parser.add_argument("--waiting", type=int, default=400)
        parser.add_argument("--call-minute-seconds", type=int, default=1,
                            help="how long a minute of the Rules' call_minutes lasts here "
                                 "(default 1: a call times out 5 s after it is made)")
        parser.add_argument("--clients", type=int, default=4,
                            help="client processes of the requests/s figure (default 4)")
        parser.add_argument("--throughput-seconds", type=float, default=5.0,
                            help="each window of the requests/s figure (default 5)")
        parser.add_argument("--readers", type=int, default=2,
                            help="feed readers while the list commands run (default 2)")
        parser.add_argument("--feed-interval", type=float, default=0.05,
                            help="each reader's time between two reads (default 0.05 s)")
        parser.add_argument("--workers", type=int, default=2,
                            help="gunicorn workers (default 2, as bin/run)")
        parser.add_argument("--threads", type=int, default=4,
                            help="threads per gunicorn worker (default 4)")

    def _check(self, opts: dict[str, Any]) -> None:
        bounds = {"seconds": (0.1, 3600), "calls_per_minute": (1, 600), "tables": (1, 2000),
                  "poker_tables": (1, 500), "lists": (1, len(LIST_GAMES)),
                  "waiting": (0, 5000), "call_minute_seconds": (1, 60), "clients": (1, 32),
                  "throughput_seconds": (0.1, 600), "readers": (1, 16),
                  "feed_interval": (0.0, 10), "workers": (1, 16), "threads": (1, 64)}
        for name, (low, high) in bounds.items():
            if not low <= opts[name] <= high:
                raise CommandError(f"invalid_option: --{name.replace('_', '-')} must be "
                                   f"{low:g} to {high:g}")
        if opts["poker_tables"] > opts["tables"] or opts["poker_tables"] < opts["lists"]:
            raise CommandError("invalid_option: --poker-tables at most --tables and at "
                               "least --lists (a table for each list's game)")
        if connection.vendor != "postgresql":
            raise CommandError("not_postgresql: bench_floor runs on PostgreSQL (set "
                               "DATABASE_URL)")

    def handle(self, *args: Any, **opts: Any) -> None:
        self._check(opts)
        # a call's minutes short enough to time calls out within the run
        with override_settings(FLOOR_CALL_MINUTE_SECONDS=opts["call_minute_seconds"]):
            self.stdout.write(json.dumps(self._run(opts), indent=2))

    def _run(self, opts: dict[str, Any]) -> dict[str, Any]:
        run = secrets.token_hex(3)
        queued_before = _queued()
        started = timezone.now()
        _say(f"the room: {opts['tables']} tables, {opts['poker_tables']} poker, "
             f"{opts['lists']} lists, {opts['waiting']} waiting ...")
        t0 = time.perf_counter()
        room = build_room(opts, run)
        setup_seconds = time.perf_counter() - t0
        counts = _room_counts(room)  # the room as the run starts
        feed_path = f"/poker/live/{room.prop.licence_number}/feed.json"
        server = Server(opts["workers"], opts["threads"], feed_rate=10_000_000)
        try:
            _say(f"gunicorn on 127.0.0.1:{server.port} ...")
            server.wait_ready()
            status, body = _get(server.port, feed_path)
            if status != 200:
                raise CommandError(f"feed_unavailable: {feed_path} answered {status}: "
                                   f"{body[:300]!r}")
            _say("the feed against /health ...")
            feed = throughput(server.port, feed_path, opts["clients"],
                              opts["throughput_seconds"])
            report = self._floor(room, run, opts, server.port, feed_path)
        finally:
            server.stop()
            removed = _purge_floor_tasks(queued_before, _run_ids(room, started))
        checks = {"list_commands_p99": report["list_commands"]["ok"],
                  "feed_requests_per_second": feed["ok"],
                  "feed_staleness": report["feed_staleness"]["ok"]}
        out = {"benchmark": "bench_floor", "database": connection.vendor,
               "room": {**counts, "waiting_at_end": _room_counts(room)["waiting"]},
               "targets": TARGETS,
               "list_commands": report["list_commands"], "feed_requests": feed,
               "feed_staleness": report["feed_staleness"], "scenario": report["scenario"],
               "setup": {"seconds": round(setup_seconds, 2), **room.made},
               "queued_floor_tasks_removed": removed,
               "checks": checks, "meets_targets": all(checks.values())}
        return out

    def _floor(self, room: Room, run: str, opts: dict[str, Any], port: int,
               feed_path: str) -> dict[str, Any]:
        seconds, per_minute = opts["seconds"], opts["calls_per_minute"]
        floor = Floor(room, f"{run}", random.Random(7))
        floor.bare()  # the bench stream made (its first append is not timed)
        initial = fresh_view(room.prop)
        _say(f"the floor: {per_minute:g} calls a minute for {seconds:g} s, the feed read by "
             f"{opts['readers']} readers every {opts['feed_interval']:g} s ...")
        start = time.monotonic() + 0.5
        stop = start + seconds + 1.5  # the readers go on a little after the last change
        interval = opts["feed_interval"]
        limit = int((seconds + 2) / max(interval, 0.001)) + 10
        with _pool(opts["readers"]) as pool:
            pending = pool.map_async(_watch, [(port, feed_path, start + i * interval
                                               / opts["readers"], stop, interval, limit)
                                              for i in range(opts["readers"])])
            while time.monotonic() < start:
                time.sleep(0.01)
            scenario = run_floor(floor, seconds, per_minute)
            responses = [r for chunk in pending.get(timeout=seconds + 120) for r in chunk]
        ours = [x for c in LIST_COMMANDS for x in floor.times[c]]
        bare = floor.bare_times
        ratio = (_pct(ours, 0.99) / _pct(bare, 0.99)) if ours and bare else None
        limit_ratio = TARGETS["list_p99_to_bare_append_p99"]
        list_commands = {
            "commands": len(ours), **{k: v for k, v in _figures(ours).items() if k != "n"},
            "bare_append": _figures(bare),
            "p99_ratio": round(ratio, 2) if ratio is not None else None,
            "p50_ratio": round(statistics.median(ours) / statistics.median(bare), 2)
            if ours and bare else None,
            "target_ratio": limit_ratio,
            "ok": ratio is not None and ratio <= limit_ratio,
            "by_command": {c: _figures(floor.times[c]) for c in LIST_COMMANDS},
            "seat_leave": _figures(floor.times["seat_leave"]),
            "refused": floor.refused}
        return {"list_commands": list_commands,
                "feed_staleness": {"readers": opts["readers"],
                                   "read_interval_seconds": interval,
                                   **staleness(floor.changes, initial, responses)},
                "scenario": {"seconds": round(scenario["elapsed"], 2),
                             "calls_per_minute": per_minute, "calls": floor.calls,
                             "steps": scenario["steps"],
                             "schedule_late_ms": scenario["schedule_late_ms"]}}


def _room_counts(room: Room) -> dict[str, Any]:
    from poker_floor.models import EntryStatus, ListEntry
    from tables.domain.catalogue import get_table_game
    from tables.models import GameTable

    games = list(GameTable.objects.filter(property=room.prop).values_list("game", flat=True))
    return {"tables": len(games),
            "poker_tables": sum(1 for g in games if get_table_game(g).is_poker),
            "lists": len(room.lists),
            "waiting": ListEntry.objects.filter(waitlist_id__in=room.lists.values(),
                                                status=EntryStatus.WAITING).count()}


#: the Celery queue the floor's tasks go to (the default)
QUEUE = "celery"


def _redis() -> Any:
    """A client of the Redis broker (None for another broker)."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis

    return redis.Redis.from_url(url)


def _task(raw: bytes) -> tuple[str, str, list[str]]:
    """A queued message's (task name, message id, args as strings); ("", "", []) for one
    that is not a Celery task message."""
    try:
        message = json.loads(raw)
        headers = message.get("headers", {})
        body = message.get("body", "")
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return (str(headers.get("task", "")), str(headers.get("id", "")),
                [str(a) for a in args])
    except (ValueError, TypeError, AttributeError, IndexError, KeyError):
        return "", "", []


def _queued() -> set[str] | None:
    """The ids of the messages in the broker's queue now (None: not a Redis broker)."""
    client = _redis()
    if client is None:
        return None
    try:
        return {_task(raw)[1] for raw in client.lrange(QUEUE, 0, -1)}
    finally:
        client.close()


def _run_ids(room: Room, started: Any) -> set[str]:
    """What the run's floor tasks are about: the calls made on the room's lists since it
    started, and the room's tables."""
    from poker_floor.models import Call

    calls = Call.objects.filter(waitlist_id__in=room.lists.values(), called_at__gte=started)
    return ({str(pk) for pk in calls.values_list("pk", flat=True)}
            | {str(t) for ts in room.tables.values() for t in ts})


def _purge_floor_tasks(before: set[str] | None, ours: set[str]) -> int | None:
    """The run's own ``poker_floor.*`` messages (pages, timeouts, seat offers) removed
    from a Redis broker's queue, none of them for a worker to run later against the
    bench's data: queued since the run started (not in ``before``) and about one of
    ``ours`` (its calls, its room's tables). Any other message is left as it is. None for
    another broker."""
    client = _redis()
    if client is None or before is None:
        return None
    removed = 0
    try:
        for raw in client.lrange(QUEUE, 0, -1):
            task, message_id, args = _task(raw)
            if (task.startswith("poker_floor.") and message_id not in before
                    and ours.intersection(args)):
                removed += client.lrem(QUEUE, 1, raw)
    finally:
        client.close()
    return removed
