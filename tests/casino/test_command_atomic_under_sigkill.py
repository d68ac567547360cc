"""DESIGN §3 "one command, one transaction", under SIGKILL (issue 25, item 1).

The command that ends a poker hand records the hand's last events, the jackpot
contributions (§ 637a.15(c)), the round's ``RoundClosed`` and the table's ``HandSettled``
(the stacks back to the seats, the Kill carried to the next hand, § 637a.12(n)) in one
transaction; a banked round's settlement (``round_lock_decisions``, then
``round_close_banked``, § 589.11(f)) is one command each. Here a process running such a
command kills itself (SIGKILL, no clean-up of any kind) right after its N-th statement
reached the server, for every N from the first statement of the command to its last
(the last, COMMIT, sent and its answer not yet read), and right after each of its
pipelines ended (Sync sent, answers read); the store is then exactly as before the whole
command or exactly as after it: every event of the command in every stream and every
read model as the command leaves them, or none of it. ``verify_events`` passes after
every kill, the round's snapshot is what its stream rebuilds to, and the command can
simply be sent again: there is no repair step (the poker room's ``_settle_left_over`` is
gone). Measured: the hand's last command is 14 statements in 2 pipelines, the lock 5,
the close 8; only the kills after COMMIT (and after the second Sync) are "after".

The killed process is forked from a helper started once (tests/casino/_sigkill_child.py)
on this test's database, whose data is committed (``committed_db``). "Exactly after" is
what the same command leaves when run in this process inside a transaction that is then
rolled back, from the same state (the engine deals from a recorded deck, so it decides
the same): the same events (stream, version, type, data) and the same rows in every
table but for the columns a second run cannot repeat (times, positions, hashes).
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

from casino import command_runner
from casino.actors import Actor
from casino.eventstore.store import read_stream
from poker_room.demo import jackpot_boxes_ready
from poker_room.models import PokerTable, Seat
from poker_room.services import hands, seats
from tables import selectors
from tables.demo import deck_ready
from tables.domain.banked.commands import PlaceWager
from tables.domain.decks import count_due
from tables.domain.rules_options import example_options
from tables.management.commands.simulate_banked import TableRunner
from tables.models import GameTable, Round
from tables.services import banked, decks, rounds, rules, tables
from tables.services.common import setup_of
from tests.poker_room._committed import poker_room

# The sweeps take some 12 s each on a quiet 2-core machine (a fork per kill), the file
# about a minute with its committed set-ups: make test-fast leaves the sweeps out.
pytestmark = [pytest.mark.postgres]

CHILD = Path(__file__).with_name("_sigkill_child.py")
#: rows a second run of the same command cannot repeat: when, where in the log, chained how
_UNREPEATABLE_TYPES = ("timestamp with time zone", "timestamp without time zone")
_UNREPEATABLE_NAMES = ("position", "hash", "recorded_at", "metadata", "event_id")
#: tables no command writes, or that Django keeps for itself
_NOT_READ_MODELS = ("casino_event", "casino_event_seal", "django_session", "django_migrations",
                    "knox_authtoken", "django_admin_log")


# --- the killed process -------------------------------------------------------------

class KillableCommands:
    """The helper process: each :meth:`run` forks a process that runs one command and
    kills itself after ``kill_at`` statements or ``kill_at_sync`` pipelines (neither:
    runs it to the end)."""

    def __init__(self) -> None:
        s = connection.settings_dict
        env = {**os.environ,
               "DATABASE_URL": f"postgres://{s['USER'] or 'postgres'}@"
                               f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}",
               "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
               "SECRET_KEY": settings.SECRET_KEY}
        self.proc = subprocess.Popen([sys.executable, str(CHILD)], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the helper process died"
        answer = json.loads(line)
        _wait_until_the_server_saw_it_die(answer.get("backend_pid"))
        return answer

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture
def killable() -> Iterator[KillableCommands]:
    helper = KillableCommands()
    yield helper
    helper.close()


def _wait_until_the_server_saw_it_die(backend_pid: int | None) -> None:
    """The killed process's session is gone from the server (its transaction rolled back,
    or committed before the kill): only then is the store's state final."""
    if backend_pid is None:
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with connection.cursor() as cur:
            cur.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [backend_pid])
            if cur.fetchone() is None:
                return
        time.sleep(0.01)
    raise AssertionError(f"backend {backend_pid} still alive 30 s after its process died")


# --- the store's state ----------------------------------------------------------------

def _read_model_tables() -> dict[str, list[tuple[str, str]]]:
    with connection.cursor() as cur:
        cur.execute("SELECT table_name, column_name, data_type FROM information_schema.columns"
                    " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")
        out: dict[str, list[tuple[str, str]]] = {}
        for table, column, kind in cur.fetchall():
            if table not in _NOT_READ_MODELS:
                out.setdefault(table, []).append((column, kind))
    return out


def _repeatable(column: str, kind: str) -> bool:
    serial = column == "id" and kind in ("integer", "bigint")  # sequences do not roll back
    return not serial and kind not in _UNREPEATABLE_TYPES and not any(
        n in column for n in _UNREPEATABLE_NAMES)


_queries: dict[bool, str] = {}


def _state_query(exact: bool) -> str:
    """One statement reading every event and every row of every other table (as text),
    built once: the sweep reads the whole store several times per kill."""
    if exact not in _queries:
        parts = ["SELECT 'casino_event', ROW(stream_id, version, type, data"
                 + (", position, hash, recorded_at, metadata" if exact else "")
                 + ")::text FROM casino_event"]
        for table, columns in _read_model_tables().items():
            names = [c for c, kind in columns if exact or _repeatable(c, kind)]
            if names:
                row = "ROW(" + ", ".join(f'"{c}"' for c in names) + ")::text"
                parts.append(f"SELECT '{table}', {row} FROM \"{table}\"")
        _queries[exact] = " UNION ALL ".join(parts)
    return _queries[exact]


def store_state(*, exact: bool) -> dict[str, Any]:
    """Every event (stream, version, type, data) and every row of every other table, by
    table; ``exact`` False leaves out the columns a second run cannot repeat."""
    state: dict[str, list[str]] = {}
    with connection.cursor() as cur:
        cur.execute(_state_query(exact))
        for table, row in cur.fetchall():
            state.setdefault(table, []).append(row)
    return {table: sorted(rows) for table, rows in state.items()}


def difference(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The tables whose contents differ (for the assertion's message)."""
    return [t for t in sorted(set(a) | set(b)) if a.get(t) != b.get(t)]


def dry_run(command: Callable[[], Any]) -> dict[str, Any]:
    """What the command leaves, run here in a transaction rolled back afterwards."""
    with transaction.atomic():
        command()
        after = store_state(exact=False)
        transaction.set_rollback(True)
    return after


def snapshot_is_its_stream_rebuilt(agg: command_runner.Aggregate[Any], round_id: Any) -> bool:
    """DESIGN §2: the snapshot in the round's row is the state its stream rebuilds to."""
    row = Round.objects.get(pk=round_id)
    recorded = read_stream(agg.stream_id(round_id))
    stored = row.snapshot if isinstance(row.snapshot, dict) else json.loads(row.snapshot)
    rebuilt = json.loads(json.dumps(agg.to_snapshot(agg.rebuild(recorded))))
    return row.snapshot_version == recorded[-1].version and stored == rebuilt


def verify_events_passes() -> None:
    """Every stream's chain intact (the command exits 1 otherwise)."""
    call_command("verify_events", "--no-progress", stdout=io.StringIO())


# --- a poker table with hands one action from their end -------------------------------

#: a buy-in deep enough for every hand of the sweep (topped up between hands)
STACK = 40_000


@pytest.fixture
def poker(committed_db: None) -> dict[str, Any]:
    crew, table = poker_room("PA-KILL-1", "kill")
    for colour in ("red", "blue"):
        deck_ready(table, crew["dealer"], crew["floor"], colour, batch=colour)
    jackpot_boxes_ready(table, crew["floor"])  # § 637a.2(e): the hands pay into the funds
    for seat in (1, 2, 3):
        seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=seat,
                          buy_in_cents=STACK, paid_with="chips")
    return {"crew": crew, "table": table}


def _policy(hand: Any) -> dict[str, Any]:
    """Check or call; bet when a bet is open to the player, so the pot reaches the
    jackpot's contribution minimum (§ 637a.15(c))."""
    legal = hand.legal_actions()
    acts = legal["actions"]
    action = "bet" if "bet" in acts else "check" if "check" in acts else "call"
    return {"type": "act", "seat": legal["seat"], "action": action}


def _between_hands(table: Any, crew: dict[str, Actor]) -> None:
    """What the floor does between hands of a long session: the decks counted when due
    (§ 637a.7(e)(4), every 5 rounds) and a short stack topped up (§ 637a.8(b)(2))."""
    dealer = crew["dealer"]
    table = selectors.with_decks_in_play(GameTable.objects.filter(pk=table.pk)).get()
    for deck in selectors.decks_in_play(table):
        if count_due(setup_of(table), deck.rounds_since_count):
            decks.deck_count(actor=dealer, deck_id=deck.pk, cards=52)
            decks.deck_count_verify(actor=crew["floor"], deck_id=deck.pk)
    for s in Seat.objects.filter(table=table):
        if s.stack_cents < STACK // 2:
            seats.chips_add(actor=dealer, table_id=table.pk, seat=s.seat,
                            amount_cents=STACK - s.stack_cents, paid_with="chips")


def hand_at_its_last_action(table: Any, crew: dict[str, Actor], seed: int
                            ) -> tuple[Any, dict]:
    """A hand dealt from a recorded deck and played (one batch) up to its last action:
    (the round's id, that action)."""
    _between_hands(table, crew)
    dealer = crew["dealer"]
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    ph = hands.hand_start(actor=dealer, table_id=table.pk, deck=deck)
    hand, batch = ph.hand, []
    while True:
        command = _policy(hand)
        hand.execute(command)
        if hand.is_complete:
            break
        batch.append(command)
    if batch:
        hands.hand_command(actor=dealer, round_id=ph.round_id, commands=batch)
    return ph.round_id, command


# --- a Lunar Poker table with rounds at their settlement -------------------------------

LUNAR = "lunar-poker-589"


@pytest.fixture
def lunar(poker: dict[str, Any]) -> dict[str, Any]:
    """A Lunar Poker (chapter 589) table of the same property, its decks kept in play by
    the simulator's runner (589.3)."""
    crew = poker["crew"]
    rs = rules.rules_draft(actor=crew["comp"], game=LUNAR, options=example_options(LUNAR))
    rules.rules_submit(actor=crew["comp"], rules_id=rs.pk)
    rules.rules_approve(actor=crew["appr"], rules_id=rs.pk,
                        acknowledge_negative_house_edge=True)  # its Super Wager paytable
    table = tables.table_configure(actor=crew["admin"], name="LP589-K", game=LUNAR,
                                   positions=5, dealing_method="manual-shoe", shuffler="none")
    tables.table_assign_dealer(actor=crew["floor"], table_id=table.pk, dealer="kill-dealer")
    table = tables.table_open(actor=crew["floor"], table_id=table.pk)
    runner = TableRunner(table, crew["dealer"], crew["floor"], random.Random(5), positions=2)
    return {"crew": crew, "runner": runner}


#: 589.11(e)(1): the dealer qualifies (a pair), so locking the decisions settles every
#: wager with no force offered; the kings bet, the queen-high folds
LUNAR_DEAL = {"hands": {"1": ["Kh", "Kd", "9c", "8s", "2h"], "2": ["Qc", "Js", "7d", "5c", "3s"]},
              "dealer": ["Ah", "Ad", "7c", "6s", "4h"],
              # 589.8(a), (b): the manual shoe's attestations, as the dealer states them
              "placed_by": "dealer", "card_hand": "closest_to_shoe"}


def round_at_its_lock(runner: Any) -> Any:
    """A round with its wagers placed, dealt and every decision made: the lock is next."""
    d = runner.dealer
    deck = runner.next_deck()
    rnd = rounds.round_open(actor=d, table_id=runner.table.pk, deck_id=deck.pk)
    banked.round_place_wagers(actor=d, round_id=rnd.pk, no_more_bets=True, wagers=[
        PlaceWager(n, wager, amount) for n, wager, amount in runner._wagers()])
    banked.round_deal(actor=d, round_id=rnd.pk, **LUNAR_DEAL)
    banked.round_decide(actor=d, round_id=rnd.pk, position=1, decision="bet")
    banked.round_decide(actor=d, round_id=rnd.pk, position=2, decision="fold")
    return rnd.pk


# --- the sweep ------------------------------------------------------------------------

@dataclass(frozen=True)
class Ready:
    """A command ready to be sent: the job for the killed process, the same command run
    here (the dry run, and the resend after a kill before the commit), its round."""

    job: dict[str, Any]
    here: Callable[[], Any]
    round_id: Any


@dataclass
class Sweep:
    """What the sweep saw: the command's statements (their first words, from a run not
    killed), after how many of them each pipeline ended, and the store after each kill,
    by where it cut ("statement 3", "sync 2")."""

    statements: list[str]
    syncs: list[int]
    outcomes: dict[str, str] = field(default_factory=dict)

    @property
    def points(self) -> list[tuple[str, dict[str, int]]]:
        """Every place to cut: after each statement, after each pipeline's Sync."""
        return ([(f"statement {n}", {"kill_at": n})
                 for n in range(1, len(self.statements) + 1)]
                + [(f"sync {k}", {"kill_at_sync": k}) for k in range(1, len(self.syncs) + 1)])

    def sent_before(self, kill: dict[str, int]) -> list[str]:
        """The statements sent when the process dies at ``kill``."""
        n = kill.get("kill_at") or self.syncs[kill["kill_at_sync"] - 1]
        return self.statements[:n]

    @property
    def tally(self) -> dict[str, int]:
        return dict(Counter(self.outcomes.values()))


def _outcome(before: dict[str, Any], expected: dict[str, Any]) -> str:
    """"before" when nothing at all changed (every column of every table and every event);
    "after" when the store is what the whole command leaves; anything else fails."""
    if store_state(exact=True) == before:
        return "before"
    partial = difference(store_state(exact=False), expected)
    assert partial == [], f"the command is partly recorded: {partial} differ from after it"
    return "after"


def kill_after_every_statement(killable: KillableCommands, ready: Callable[[], Ready],
                               agg: command_runner.Aggregate[Any],
                               done: Callable[[Any], None],
                               between: Callable[[Any], None] = lambda key: None) -> Sweep:
    """Run the command once to the end to learn its T statements and its pipelines; then,
    for every N in 1..T (and after each pipeline's Sync), on a fresh round, kill the
    process right there and check the store is before or after the whole command (and
    the command, sent again when it was before, completes: no repair step). ``done``
    checks a round the command completed; ``between`` finishes a round before the
    table's next (closes it)."""
    first = ready()
    expected = dry_run(first.here)
    answer = killable.run(first.job)
    assert answer["done"] and answer["signal"] is None, answer
    assert difference(store_state(exact=False), expected) == []
    done(first.round_id)
    between(first.round_id)
    sweep = Sweep(answer["statements"], answer["syncs"])
    assert len(sweep.statements) >= 2 and "COMMIT" in sweep.statements, sweep.statements
    for where, kill in sweep.points:
        r = ready()
        before = store_state(exact=True)
        expected = dry_run(r.here)
        assert store_state(exact=True) == before, "the dry run left something behind"
        answer = killable.run({**r.job, **kill})
        assert answer["signal"] == signal.SIGKILL, answer
        assert answer["statements"] == sweep.sent_before(kill), "not the first run's path"
        sweep.outcomes[where] = _outcome(before, expected)
        if sweep.outcomes[where] == "before":
            r.here()  # the terminal sends it again, as after a lost answer: it completes
            assert difference(store_state(exact=False), expected) == []
        verify_events_passes()
        assert snapshot_is_its_stream_rebuilt(agg, r.round_id)
        done(r.round_id)
        between(r.round_id)
    assert set(sweep.tally) == {"before", "after"}, sweep.outcomes  # the kills cut apart
    return sweep


def _report(name: str, sweep: Sweep) -> None:
    """The statements and the tally, for the run's log (``-s``). The kill after the last
    statement (COMMIT sent, its answer unread) is an "after": the server commits a
    transaction-control statement when it executes it, not at the pipeline's Sync."""
    print(f"\n{name}: T = {len(sweep.statements)} statements in {len(sweep.syncs)} "
          f"pipelines ({' | '.join(s[:40] for s in sweep.statements)}); killed after "
          f"each statement and each Sync: {sweep.tally} ({sweep.outcomes})")


# --- the poker hand's last command ------------------------------------------------------

def _hand_settled(round_id: Any) -> None:
    """§ 637a.15(c), § 637a.12(n): the round closed with its contributions, the table's
    ``HandSettled`` for it (the stacks, the Kill carried), no hand in progress."""
    rnd = Round.objects.get(pk=round_id)
    types = [e.type for e in read_stream(f"round-{round_id}")]
    assert rnd.state == "closed" and types[-1] == "RoundClosed"
    assert "JackpotContributed" in types
    settled = read_stream(f"poker_table-{rnd.table_id}")[-1]
    assert settled.type == "HandSettled" and settled.data["round_id"] == str(round_id)
    assert "kill_next" in settled.data
    poker = PokerTable.objects.get(table_id=rnd.table_id)
    assert poker.current_hand_id is None
    stacks = {str(s.seat): s.stack_cents for s in Seat.objects.filter(table_id=rnd.table_id)}
    assert stacks == settled.data["stacks"]


@pytest.mark.slow
def test_the_hands_last_command_is_all_or_nothing_under_sigkill(poker, killable) -> None:
    """DESIGN §3, § 637a.15(c), § 637a.12(n): the hand's last action killed after each of
    its statements leaves the hand either one action from its end (and that action, sent
    again, ends and settles it) or ended, contributed, closed and settled at the table;
    the table's next hand starts with no repair step."""
    table, crew = poker["table"], poker["crew"]
    dealer = crew["dealer"]

    def ready() -> Ready:
        round_id, last = hand_at_its_last_action(table, crew, seed=1)
        return Ready({"command": "hand", "user": dealer.user_id, "round": str(round_id),
                      "commands": [last]},
                     lambda: hands.hand_command(actor=dealer, round_id=round_id,
                                                commands=[last]), round_id)

    sweep = kill_after_every_statement(killable, ready, hands.HAND, _hand_settled)
    _report("hand_command (the hand's last action)", sweep)


# --- the banked round's settlement ------------------------------------------------------

def _round_settled(round_id: Any) -> None:
    """§ 589.11(f): locking the decisions settled every wager; the round awaits its close."""
    rnd = Round.objects.get(pk=round_id)
    state = banked.load(rnd)[0]
    assert banked.awaiting_close(state) and rnd.state == "open"


def _round_closed(round_id: Any) -> None:
    """§ 589.11(f): the round closed with its totals; the table has no round open."""
    rnd = Round.objects.select_related("table").get(pk=round_id)
    assert rnd.state == "closed" and rnd.table.current_round_id is None
    assert read_stream(f"round-{round_id}")[-1].type == "RoundClosed"


@pytest.mark.slow
def test_a_banked_rounds_settlement_is_all_or_nothing_under_sigkill(lunar, killable) -> None:
    """DESIGN §3, § 589.11(f): ``round_lock_decisions`` (every wager settled) and
    ``round_close_banked`` (the RoundClosed with the totals, the table results), each
    killed after each of its statements, leave the round before or after the command,
    and the command sent again completes it."""
    runner, dealer = lunar["runner"], lunar["crew"]["dealer"]

    def job(command: str, round_id: Any) -> dict[str, Any]:
        return {"command": command, "user": dealer.user_id, "round": str(round_id)}

    def lock_ready() -> Ready:
        rid = round_at_its_lock(runner)
        return Ready(job("lock", rid), lambda: banked.round_lock_decisions(
            actor=dealer, round_id=rid), rid)

    def close_ready() -> Ready:
        rid = round_at_its_lock(runner)
        banked.round_lock_decisions(actor=dealer, round_id=rid)
        return Ready(job("close", rid), lambda: banked.round_close_banked(
            actor=dealer, round_id=rid), rid)

    def close(round_id: Any) -> None:
        banked.round_close_banked(actor=dealer, round_id=round_id)

    lock = kill_after_every_statement(killable, lock_ready, banked.ROUND, _round_settled,
                                      between=close)
    closing = kill_after_every_statement(killable, close_ready, banked.ROUND, _round_closed)
    _report("round_lock_decisions", lock)
    _report("round_close_banked", closing)


# --- no repair step --------------------------------------------------------------------

def test_a_completed_hand_leaves_no_hand_in_progress_and_the_next_starts(poker) -> None:
    """DESIGN §3: the command that ends the hand settles it, so the table has no hand in
    progress and the next ``hand_start`` needs nothing repaired (the poker room's
    ``_settle_left_over``, which settled a hand left half-done before the next, is gone)."""
    table, crew = poker["table"], poker["crew"]
    dealer = crew["dealer"]
    round_id, last = hand_at_its_last_action(table, crew, seed=2)
    assert PokerTable.objects.get(table=table).current_hand_id == round_id
    out = hands.hand_command(actor=dealer, round_id=round_id, commands=[last])
    assert out.closed
    _hand_settled(round_id)
    following = hands.hand_start(actor=dealer, table_id=table.pk, shuffle=True)
    assert PokerTable.objects.get(table=table).current_hand_id == following.round_id
    assert not hasattr(hands, "_settle_left_over") and not hasattr(seats, "_settle_left_over")
