"""Reads never wait for writes (issue 25, item 4; DESIGN §2 "Reads never write"): finance's
long reads of a 240-table gaming day — the gaming-day page, every report, a table's
"behind" page (read from the event log) and the room board — run while eight dealer
terminals deal Hold'em through the services, one command per action, on PostgreSQL.

Two checks, both measured in the one run:

* **No lock is shared.** A monitor (a process of its own) polls ``pg_stat_activity`` and
  ``pg_locks`` every few milliseconds: no terminal's backend ever waits on a lock the
  report's backend holds (``pg_blocking_pids``), and the report's backend holds nothing a
  command could need — only ``AccessShareLock`` on relations (what every plain ``SELECT``
  takes, which conflicts with no ``INSERT``/``UPDATE``), never a row, advisory or
  transaction-id lock, never a transaction id of its own (it writes nothing, so it never
  holds the settled line of the log back, casino.eventstore.reading), never a transaction
  left open between statements;
  every statement it sent is a plain ``SELECT`` (no ``FOR UPDATE``/``FOR SHARE``, no
  advisory lock, no isolation level).
* **The terminals do not notice.** The dealing alternates quiet windows and windows with
  the report running; each command is classed by whether a report page overlapped it.
  The p99 of the commands overlapping a report is within the noise band of the quiet
  windows' p99 (≤ 2× + 5 ms): the machine's two cores are shared, so the report's CPU
  shows as some noise, never as a wait.

The day is made as ``bench_gaming_day_close`` makes it (finance/management/commands/
_bench_day.py): one table per game through the services, every other table a replay of
its events under new ids through the event store, so the read models are the ones real
commands build; the trays are left open (the tables' finance is not what is measured, and
the open items make the day page read more, not less).

A second test crawls, by link from the console's home, every kind of page of the console,
finance and the room board as each role of the room, and finds only plain reads there too.
A report that takes a row lock (tried: ``SELECT ... FOR UPDATE`` of the terminals' tables
around each page) fails the first test at once: hundreds of waits on the report's backend,
p99 four times the quiet one.
"""

from __future__ import annotations

import gc
import json
import multiprocessing as mp
import random
import re
import statistics
import threading
import time
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from tests.casino._seeded_day import empty_database
from tests.conftest import gaming_day_start_far_from_now

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

LICENCE = "PA-TEST-READS"
#: the room of the issue: a 240-table day (a third poker, the rest banked)
TABLES = 240
TERMINALS = 8
PLAYERS, BUY_IN = 6, 40_000
#: bounds: a hand that never ends, a terminal that never stops, are errors, not hangs
MAX_COMMANDS_PER_HAND, MAX_HANDS = 400, 5_000
#: the dealing alternates windows without and with the report, so drift in the machine's
#: speed (shared, threefold between runs) falls on both alike
WINDOWS = ("quiet", "report") * 3
WINDOW_SECONDS = 3.0
POLL_SECONDS = 0.002
#: bounds of the run: the last report window goes on until every page was read (a busy
#: machine is slow), the terminals stop in any case
LAST_WINDOW_MAX_SECONDS, MAX_SECONDS = 40.0, 90.0
#: the noise band: the p99 with the report at most this factor of the quiet p99, plus this
NOISE_FACTOR, NOISE_MS = 2.0, 5.0
#: the lock modes a plain SELECT takes: on relations (tables, indexes) and its own
#: virtual transaction id; none conflicts with a command's INSERT or UPDATE
READ_LOCKS = {("relation", "AccessShareLock"), ("virtualxid", "ExclusiveLock")}
#: a statement the report may send: a plain read, without a locking clause or function
#: (the cursor: a queryset's ``.iterator()``)
PLAIN_READ = re.compile(r"\s*(SELECT|WITH|DECLARE\s+\S+\s+NO\s+SCROLL\s+CURSOR\s+WITH\s+HOLD"
                        r"\s+FOR\s+SELECT)\b", re.IGNORECASE)
LOCKING = re.compile(r"\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE|KEY\s+SHARE)\b|pg_advisory|"
                     r"\bLOCK\s+TABLE\b|\bISOLATION\s+LEVEL\b", re.IGNORECASE)


# --- the day -------------------------------------------------------------------------------

def _make_day(day: date) -> tuple[Any, dict[str, Any], list[str]]:
    """A property with a 240-table day (as bench_gaming_day_close makes it, less the
    trays): each table set up and one round or hand played. (The property, its crew, the
    poker tables' ids.)"""
    from casino.eventstore import projections
    from casino.services import property_register
    from finance.management.commands import _bench_day as bench
    from tables.demo import example_rules_in_effect

    plan = bench.plan_tables(TABLES)
    with bench.on_the_day_of(day), projections.no_wake():
        prop = property_register(licence_number=LICENCE, name="Reads never wait",
                                 system="test")
        crew = bench.crew_of(prop)
        for game in {t.game for t in plan}:
            example_rules_in_effect(crew, game)
        rng = random.Random(25)
        made = {t.game: bench.template_table(t, crew, 1, rng, lambda _n: None)
                for t in plan if t.template}
        replay = bench.Replay()
        rest = [t for t in plan if not t.template]
        for i in range(0, len(rest), 60):  # 60 tables a transaction: fewer commits
            with transaction.atomic():
                for t in rest[i:i + 60]:
                    bench.replay_setup(t, made[t.game], replay)
        later: dict[tuple[str, str], list[list[Any]]] = {}
        snapshots: list[Any] = []
        with transaction.atomic():
            for t in rest:
                bench.replay_round(t, made[t.game], replay, later, snapshots)
            for stream, rows in later.items():
                replay.put(*stream, rows)
            bench._save_snapshots(snapshots)
    return prop, crew, [t.table_id for t in plan if t.kind == "poker"]


def _terminal_tables(crew: dict[str, Any]) -> list[Any]:
    """Today's Hold'em tables the terminals deal at: open, decks in play, six seated."""
    from poker_room.services import seats
    from tables.demo import keep_decks_in_play
    from tables.services import tables

    out = []
    for i in range(1, TERMINALS + 1):
        t = tables.table_configure(actor=crew["admin"], name=f"READS-{i}", game="holdem",
                                   positions=10, dealing_method="hand",
                                   shuffler="automated-counting")
        tables.table_assign_dealer(actor=crew["floor"], table_id=t.pk,
                                   dealer=crew["dealer"].username)
        t = tables.table_open(actor=crew["floor"], table_id=t.pk)
        keep_decks_in_play(t, crew["dealer"], crew["floor"], batch="READS")
        for seat in range(1, PLAYERS + 1):
            seats.seat_player(actor=crew["dealer"], table_id=t.pk, seat=seat,
                              buy_in_cents=BUY_IN, paid_with="chips")
        out.append(t.pk)
    return out


@pytest.fixture(scope="module")
def room(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Yesterday's 240-table day played, and eight Hold'em tables seated for today, made
    once for the module and committed (the terminals are other processes); the database
    emptied before and after. The gaming day starts twelve hours from now, so "today" and
    "yesterday" hold for the whole run."""
    from django.utils import timezone

    from casino.domain.gaming_day import gaming_day_of
    from finance.simulation import current_day

    if connection.vendor != "postgresql":  # before the day is made: the marker skips later
        pytest.skip("needs PostgreSQL: run with DATABASE_URL=postgres://... (bin/test does)")
    start_hour = gaming_day_start_far_from_now(settings.PROPERTY_TIME_ZONE)
    with django_db_blocker.unblock(), override_settings(GAMING_DAY_START_HOUR=start_hour):
        empty_database()
        try:
            today = gaming_day_of(timezone.now(), time_zone=settings.PROPERTY_TIME_ZONE,
                                  start_hour=start_hour)
            prop, crew, poker = _make_day(today - timedelta(days=1))
            assert current_day(prop) == today
            yield {"property": prop, "crew": crew, "day": today - timedelta(days=1),
                   "today": today, "poker_table": poker[0],
                   "terminals": _terminal_tables(crew)}
        finally:
            connections.close_all()
            empty_database()


# --- the terminals (processes) ----------------------------------------------------------------

#: the deck refusals a terminal answers by having the floor put new decks in play
DECK_DUE = frozenset({"deck_change_due", "second_deck_missing", "no_deck_in_play",
                      "deck_count_due"})


class Terminal:
    """A dealer terminal at one table: hands one after another through the services, one
    command per player's action (random legal decisions: mostly calls and checks, some
    bets, raises and folds). Each command's latency, stamped with the moment it ended
    (CLOCK_MONOTONIC: one clock for every process of the machine)."""

    def __init__(self, table_id: Any, seed: int, floor: str) -> None:
        from django.contrib.auth import get_user_model

        from casino.actors import actor_of
        from poker_room.models import Seat
        from tables.models import GameTable

        users = get_user_model().objects
        self.table = GameTable.objects.select_related("property").get(pk=table_id)
        self.dealer = actor_of(users.get(pk=self.table.dealer_id))
        self.floor = actor_of(users.get(username=floor))
        self.rng = random.Random(seed)
        self.stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=self.table)}
        self.commands: list[tuple[float, float]] = []
        self.hands = 0

    def timed(self, call: Any, **kwargs: Any) -> Any:
        """The service called as the dealer; timed when it answers (a refusal raises)."""
        t0 = time.monotonic()
        out = call(actor=self.dealer, **kwargs)
        t1 = time.monotonic()
        self.commands.append((t1, t1 - t0))
        return out

    def decide(self, legal: dict[str, Any]) -> dict[str, Any]:
        """The bench terminals' random legal decision (one way to play a hand)."""
        from poker_room.management.commands._bench_room import decide

        return decide(legal, self.rng)

    def start(self) -> Any:
        from casino.domain.errors import ConflictError
        from poker_room.services import hands
        from tables.demo import keep_decks_in_play

        for _ in range(3):
            try:
                return self.timed(hands.hand_start, table_id=self.table.pk, shuffle=True)
            except ConflictError as exc:
                if exc.code not in DECK_DUE:
                    raise
                keep_decks_in_play(self.table, self.dealer, self.floor, batch="READS")
        raise AssertionError("the terminal's decks could not be kept in play")

    def hand(self) -> None:
        from poker_room.services import hands, seats

        for seat, stack in self.stacks.items():
            if stack < BUY_IN // 4:
                self.timed(seats.chips_add, table_id=self.table.pk, seat=seat,
                           amount_cents=BUY_IN - stack, paid_with="chips")
                self.stacks[seat] = BUY_IN
        ph = self.start()
        for _ in range(MAX_COMMANDS_PER_HAND):
            if ph.hand.is_complete:
                break
            local = ph.hand
            batch = [self.decide(local.legal_actions())] if local.to_act is not None else []
            ph = self.timed(hands.hand_command, round_id=ph.round_id, commands=batch,
                            expected_version=ph.version)
        else:
            raise AssertionError(f"a hand took {MAX_COMMANDS_PER_HAND} commands")
        self.stacks.update(ph.hand.stacks)
        self.hands += 1


def _deal(args: tuple) -> dict[str, Any]:
    """One dealer terminal (a forked process, its own connection): a warm hand, then
    hands until the test says stop (or ``MAX_SECONDS`` have passed since the barrier)."""
    table_id, seed, floor, barrier, stop = args
    term = Terminal(table_id, seed, floor)
    term.hand()  # warm: the imports done, the decks' first refusal answered
    term.commands, term.hands = [], 0
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
    gc.freeze()  # what the fork inherited is not walked by a collection mid-command
    barrier.wait()
    start = time.monotonic()
    for _ in range(MAX_HANDS):
        if stop.is_set() or time.monotonic() - start >= MAX_SECONDS:
            break
        term.hand()
    connections.close_all()
    return {"pid": pid, "hands": term.hands, "commands": term.commands}


# --- the report and the monitor (threads of the test, each its own connection) ------------------

class Report(threading.Thread):
    """Finance's reads, one page after another while ``running`` is set: the day pages of
    yesterday (240 tables) and today (being dealt), every report over both days, a poker
    table's "behind" page (read from the event log) and the room board. The interval of
    each page and every SQL statement the report sent."""

    def __init__(self, room: dict[str, Any], ctx: Any) -> None:
        super().__init__(daemon=True)
        from django.contrib.auth import get_user_model

        from finance import reports

        day, today = room["day"].isoformat(), room["today"].isoformat()
        users = get_user_model().objects
        finance, floor = Client(), Client()
        finance.force_login(users.get(username=room["crew"]["finance"].username))
        floor.force_login(users.get(username=room["crew"]["floor"].username))
        self.pages = [(finance, url) for url in (
            f"/finance/days/{day}/", f"/finance/days/{today}/",
            *(f"/finance/reports/{n}/?first={day}&last={today}" for n in reports.names()),
            f"/finance/behind/{room['poker_table']}/{day}/")] + [(floor, "/poker/board/data")]
        self.ready, self.running, self.done = (threading.Event(), threading.Event(),
                                               threading.Event())
        # what the monitor's process reads: whether a page is being read, and by which
        # backend
        self.busy, self.backend = ctx.Event(), ctx.Value("i", 0)
        self.pid: int | None = None
        self.spans: list[tuple[float, float]] = []
        self.statements: list[str] = []
        self.error: BaseException | None = None

    def read(self, client: Client, url: str) -> None:
        with CaptureQueriesContext(connection) as sent:
            self.busy.set()
            t0 = time.monotonic()
            r = client.get(url)
            self.spans.append((t0, time.monotonic()))
            self.busy.clear()
        assert r.status_code == 200, (url, r.status_code)
        self.statements += [q["sql"] for q in sent.captured_queries]

    def run(self) -> None:
        try:
            with connection.cursor() as cur:
                cur.execute("SELECT pg_backend_pid()")
                self.pid = self.backend.value = cur.fetchone()[0]
            for client, url in self.pages:  # warm: templates compiled, paytables worked out
                client.get(url)
            # the monitor's calibration: one plain read long enough to be seen in flight
            # (the pages' own statements take a millisecond or so and are caught rarely)
            self.busy.set()
            with connection.cursor() as cur:
                cur.execute("SELECT count(*), pg_sleep(0.3) FROM tables_gametable")
            self.busy.clear()
            self.ready.set()
            k = 0
            while not self.done.is_set():
                if self.running.wait(0.05):  # one page at a time: the window may end
                    self.read(*self.pages[k % len(self.pages)])
                    k += 1
        except BaseException as exc:  # noqa: BLE001  raised in the test
            self.error = exc
        finally:
            connection.close()


class Monitor:
    """Polls the server from a process of its own (a thread of the test would take its
    turns when the report's thread lets go of the interpreter, between its statements,
    and so miss them): every backend waiting on a lock and who blocks it; while the report
    reads a page, what the report's backend holds and whether it has a transaction id or
    a transaction left open."""

    def __init__(self, ctx: Any, report: Report) -> None:
        self.report, self.done, self.found = report, ctx.Event(), ctx.Queue()
        self.process = ctx.Process(target=self.run, daemon=True)
        self.waits: list[tuple[int, list[int]]] = []
        self.report_locks: set[tuple[str, str]] = set()
        self.report_xids: set[str] = set()
        self.report_states: set[str] = set()
        self.samples = self.mid_statement = 0

    def start(self) -> None:
        self.process.start()

    def stop(self) -> None:
        self.done.set()
        found = self.found.get(timeout=60)
        self.process.join(timeout=60)
        self.waits, self.samples = found["waits"], found["samples"]
        self.mid_statement = found["mid_statement"]
        self.report_locks, self.report_xids, self.report_states = (
            set(map(tuple, found["locks"])), set(found["xids"]), set(found["states"]))

    def run(self) -> None:  # in the monitor's process
        try:
            with connection.cursor() as cur:
                while not self.done.is_set():
                    self.sample(cur)
                    time.sleep(POLL_SECONDS)
        finally:
            connection.close()
            self.found.put({"waits": self.waits, "samples": self.samples,
                            "mid_statement": self.mid_statement,
                            "locks": list(self.report_locks), "xids": list(self.report_xids),
                            "states": list(self.report_states)})

    def sample(self, cur: Any) -> None:
        cur.execute("SELECT pid, pg_blocking_pids(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'")
        self.waits += [(pid, list(blockers)) for pid, blockers in cur.fetchall()]
        pid = self.report.backend.value
        if not pid or not self.report.busy.is_set():
            return
        # one statement: the report's locks and its transaction as of one moment
        cur.execute("SELECT a.state, a.backend_xid::text, l.locktype, l.mode "
                    "FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid "
                    "WHERE a.pid = %s", [pid])
        rows = cur.fetchall()
        for state, xid, locktype, mode in rows:
            self.report_states.add(state)
            if xid is not None:
                self.report_xids.add(xid)
            if locktype is not None:
                self.report_locks.add((locktype, mode))
        self.samples += 1
        self.mid_statement += any(r[2] == "relation" for r in rows)


# --- the run ------------------------------------------------------------------------------------

def _p99_ms(latencies: list[float]) -> float:
    s = sorted(latencies)
    return round(1000 * s[min(len(s) - 1, round(0.99 * (len(s) - 1)))], 2)


def _overlaps(start: float, end: float, spans: list[tuple[float, float]]) -> bool:
    return any(a < end and start < b for a, b in spans)


def _windows(report: Report) -> dict[str, list[tuple[float, float]]]:
    """The windows without and with the report; the last goes on until the report has
    read every page at least once."""
    windows: dict[str, list[tuple[float, float]]] = {"quiet": [], "report": []}
    for k, kind in enumerate(WINDOWS):
        t0 = time.monotonic()
        if kind == "report":
            report.running.set()
        time.sleep(WINDOW_SECONDS)
        while (k == len(WINDOWS) - 1 and len(report.spans) < len(report.pages)
               and time.monotonic() - t0 < LAST_WINDOW_MAX_SECONDS):
            time.sleep(0.05)
        report.running.clear()
        windows[kind].append((t0, time.monotonic()))
    return windows


def _run(room: dict[str, Any]) -> dict[str, Any]:
    """The terminals deal through every window; the report runs in the report windows."""
    ctx = mp.get_context("fork")
    report = Report(room, ctx)
    monitor = Monitor(ctx, report)
    connections.close_all()  # the processes fork: none inherits this process's connection
    with ctx.Manager() as manager, ctx.Pool(TERMINALS) as pool:
        monitor.start()  # forked before the report's thread starts
        barrier, stop = manager.Barrier(TERMINALS + 1), manager.Event()
        floor = room["crew"]["floor"].username
        dealt = pool.map_async(_deal, [(t, 100 + i, floor, barrier, stop)
                                       for i, t in enumerate(room["terminals"])])
        report.start()
        assert report.ready.wait(timeout=120), report.error
        barrier.wait(timeout=120)
        windows = _windows(report)
        stop.set()
        results = dealt.get(timeout=120)
        monitor.stop()
    report.done.set()
    report.join(timeout=60)
    if report.error is not None:
        raise report.error
    return {"results": results, "windows": windows, "report": report, "monitor": monitor}


def _who(pid: int, run: dict[str, Any]) -> str:
    if pid == run["report"].pid:
        return "report"
    return "terminal" if pid in {r["pid"] for r in run["results"]} else "other"


def _figures(run: dict[str, Any]) -> tuple[dict[str, Any], list[float], list[float]]:
    """The commands classed: those a report page overlapped, and those of the quiet
    windows that none did. The figures of the run, printed by the test."""
    report, monitor, windows = run["report"], run["monitor"], run["windows"]
    quiet, busy = [], []
    for r in run["results"]:
        for end, latency in r["commands"]:
            start = end - latency
            if _overlaps(start, end, report.spans):
                busy.append(latency)
            elif _overlaps(start, end, windows["quiet"]):
                quiet.append(latency)
    pages = [b - a for a, b in report.spans]
    return {
        "tables_of_the_day": TABLES, "terminals": TERMINALS,
        "hands": sum(r["hands"] for r in run["results"]),
        "report_pages_read": len(pages),
        "report_seconds": round(sum(pages), 2),
        "report_statements": len(report.statements),
        "commands_quiet": len(quiet), "commands_with_report": len(busy),
        "p50_ms_quiet": round(1000 * statistics.median(quiet), 2) if quiet else None,
        "p50_ms_with_report": round(1000 * statistics.median(busy), 2) if busy else None,
        "p99_ms_quiet": _p99_ms(quiet) if quiet else None,
        "p99_ms_with_report": _p99_ms(busy) if busy else None,
        "monitor_samples_while_reading": monitor.samples,
        "monitor_samples_mid_statement": monitor.mid_statement,
        # who waited on whom (the report, a terminal or another backend): never the report
        "lock_waits_seen": sorted({f"{_who(w, run)} on {'+'.join(_who(b, run) for b in bs)}"
                                   for w, bs in monitor.waits}),
        "report_locks_seen": sorted(map(list, monitor.report_locks)),
    }, quiet, busy


def test_a_long_report_holds_no_lock_a_dealing_terminal_needs(room: dict[str, Any]) -> None:
    """Issue 25 item 4: a report of a 240-table day running while 8 terminals deal never
    holds a lock a command needs, and the terminals' p99 is unchanged within noise."""
    run = _run(room)
    report, monitor = run["report"], run["monitor"]
    figures, quiet, busy = _figures(run)
    print("\nreads_never_wait " + json.dumps(figures))

    # the run measured what it says: the report read every page, the monitor saw the
    # report's backend mid-statement (its calibration read at least), and each class of
    # command is large enough for a p99
    assert len(report.spans) >= len(report.pages), figures  # every page read
    assert ("relation", "AccessShareLock") in monitor.report_locks, figures
    assert len(quiet) >= 200 and len(busy) >= 200, figures

    # (a) nothing waited on the report, and the report held nothing a command could need:
    # plain reads only, no transaction id (it wrote nothing), no transaction left open
    blocked = [(pid, blockers) for pid, blockers in monitor.waits if report.pid in blockers]
    assert blocked == [], f"backends waited on the report's locks: {blocked[:5]}"
    assert monitor.report_locks <= READ_LOCKS, monitor.report_locks
    assert monitor.report_xids == set(), "the report took a transaction id: it wrote"
    assert "idle in transaction" not in monitor.report_states, monitor.report_states
    not_plain = [q for q in report.statements if not PLAIN_READ.match(q) or LOCKING.search(q)]
    assert not_plain == [], not_plain[:5]

    # (b) the terminals' p99 with the report running is within the noise band
    assert figures["p99_ms_with_report"] <= (NOISE_FACTOR * figures["p99_ms_quiet"]
                                             + NOISE_MS), figures


# --- every page a person opens: plain reads ---------------------------------------------------

_HREF = re.compile(r'href="(/(?:console|finance|poker)/[^"#]*)"')
_KIND = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|"
                   r"\d{4}-\d{2}-\d{2}|(?<![A-Za-z])\d+", re.IGNORECASE)
#: never opened: logging out
NEVER = ("/console/logout/",)
MAX_PAGES = 300


def _crawl(client: Client, start: list[str]) -> dict[str, list[str]]:
    """Every page reachable by links from ``start`` under /console/, /finance/ and
    /poker/, each kind of page once (ids, days and numbers collapsed): ``{url: the SQL it
    sent}``. GETs only."""
    import html

    seen_kinds: set[str] = set()
    todo, sent = list(start), {}
    while todo and len(sent) < MAX_PAGES:
        url = todo.pop(0)
        kind = _KIND.sub("#", url.split("?")[0]) + "?" + ",".join(
            sorted(p.split("=")[0] for p in url.partition("?")[2].split("&") if p))
        if kind in seen_kinds or url.startswith(NEVER):
            continue
        seen_kinds.add(kind)
        with CaptureQueriesContext(connection) as q:
            r = client.get(url)
        sent[url] = [x["sql"] for x in q.captured_queries]
        if r.status_code == 200 and "html" in r.get("Content-Type", ""):
            todo += [html.unescape(h) for h in _HREF.findall(r.content.decode())]
    return sent


def _not_plain(statement: str) -> bool:
    """A statement that is not a plain read: a write (the login's session included), or a
    read that takes a lock or sets an isolation level."""
    return not PLAIN_READ.match(statement) or bool(LOCKING.search(statement))


def test_every_page_and_board_a_person_opens_sends_plain_reads_only(
        room: dict[str, Any]) -> None:
    """Issue 25 item 4: the pages and lists of the console, finance's pages and the room
    board, crawled by link from the console's home as each role of the room, send only
    plain reads: no write (not even of the login's session), no row, advisory or table
    lock, no isolation level (what a command could wait for)."""
    from django.contrib.auth import get_user_model

    from tests.console.conftest import verified_login

    users = get_user_model().objects
    pages: dict[str, list[str]] = {}
    for who in ("admin", "compliance", "floor", "dealer", "security", "cashier", "counter",
                "finance"):
        client = verified_login(Client(), users.get(username=room["crew"][who].username))
        pages.update(_crawl(client, ["/console/", "/finance/reports/", "/poker/board/"]))
    print(f"\npages crawled: {len(pages)}, statements: {sum(map(len, pages.values()))}")
    assert len(pages) >= 30, sorted(pages)
    offending = {url: [q for q in sent if _not_plain(q)] for url, sent in pages.items()}
    offending = {url: sent[:3] for url, sent in offending.items() if sent}
    assert offending == {}, offending
