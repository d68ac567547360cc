"""Races the review of issue 25 found (fixed in commit 0486659), each pinned on PostgreSQL
with committed data and real connections: two commands made to overlap by holding a row
lock from a third connection while both start, then releasing it.

1. Two seatings of one named player at one table: the room is asked after the table's
   lock, so the second sees the first (§ 637a.8(a)).
2. A floor ruling and the hand's last action: both take the round before the table, so
   they take turns and never deadlock (§ 637a.18(a)).
3. A seat command that waited for its table's lock behind another, inside a caller's
   transaction, decides on what the first wrote instead of failing on a stale version
   (§ 637a.8(b), sitting out: § 637a.17(b)(3)(i)).
4. A value the database refuses in a pipelined projection answers 400 invalid_data, not
   500, and records nothing (§ 637a.8(b)(6)).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Max
from rest_framework.test import APIClient

from casino.eventstore.models import Event
from casino.eventstore.store import read_stream
from poker_room.models import PokerTable, Seat
from poker_room.services import hands, seats
from tables.models import GameTable, Round
from tests.casino.test_command_atomic_under_sigkill import hand_at_its_last_action
from tests.poker_room._committed import poker_room
from tests.poker_room.test_start_statements import _poker_table

pytestmark = [pytest.mark.postgres]

#: how long any one wait in these tests may take before the test fails (seconds)
BOUND = 10.0


# --- connections and threads ---------------------------------------------------------------

def _raw(*, autocommit: bool = False) -> psycopg.Connection:
    """A connection of its own to the test database (not Django's)."""
    s = connection.settings_dict
    return psycopg.connect(dbname=s["NAME"], user=s["USER"], password=s["PASSWORD"] or None,
                           host=s["HOST"] or None, port=s["PORT"] or None,
                           autocommit=autocommit)


@contextmanager
def _row_held(sql: str, pk: Any) -> Iterator[psycopg.Connection]:
    """``sql`` (a SELECT ... FOR UPDATE) run in an open transaction of another
    connection: the row stays locked until the block ends (then rolled back)."""
    with _raw() as holder:
        holder.execute(sql, [pk])
        try:
            yield holder
        finally:
            holder.rollback()


def _waiting_for_a_lock(watcher: psycopg.Connection, count: int) -> None:
    """Until ``count`` backends of the test database wait for a row lock (the commands
    started and queued behind the held row); fails the test after BOUND seconds.
    ``watcher`` is in autocommit: pg_stat_activity is read once per transaction."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        n = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'").fetchone()[0]
        if n >= count:
            return
        time.sleep(0.01)
    pytest.fail(f"{count} commands never queued behind the held lock")


class Run(threading.Thread):
    """``fn`` in a thread with its own Django connection (closed at the end); what it
    returned or raised is kept."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.fn, self.result, self.error = fn, None, None

    def run(self) -> None:
        try:
            self.result = self.fn()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        finally:
            connection.close()

    def outcome(self) -> Any:
        self.join(BOUND)
        assert not self.is_alive(), "the command did not finish in time"
        return self.error if self.error is not None else self.result


def _code(outcome: Any) -> str | None:
    return getattr(outcome, "code", None)


# --- 1. two seatings of one named player at one table ----------------------------------------

@pytest.mark.usefixtures("committed_db")
def test_one_named_player_seated_twice_at_one_table_at_once_is_seated_once() -> None:
    """§ 637a.8(a): a named player is seated nowhere else in the room. Two seatings of
    the same player (same name and phone) at two free seats of one table, started while
    the table's row is locked elsewhere, then let go together: one is seated, the other
    refused ``player_already_seated``, one PlayerSeated appended. (Before 0486659 the
    room was asked before the table's lock: both asked while neither was seated.)"""
    people, table = poker_room("RACE-SEAT", "rs")
    dealer = people["dealer"]
    player = {"name": "Ann Lee", "phone": "555-0101"}
    before = len(read_stream(f"poker_table-{table.pk}"))

    def seat(n: int) -> Callable[[], Any]:
        return lambda: seats.seat_player(actor=dealer, table_id=table.pk, seat=n,
                                         buy_in_cents=10_000, paid_with="chips",
                                         player=player)

    with _raw(autocommit=True) as watcher, _row_held(
            "SELECT id FROM tables_gametable WHERE id = %s FOR UPDATE", table.pk):
        runs = [Run(seat(1)), Run(seat(2))]
        for r in runs:
            r.start()
        _waiting_for_a_lock(watcher, 2)
    outcomes = [r.outcome() for r in runs]

    seated = [o for o in outcomes if isinstance(o, Seat)]
    refused = [o for o in outcomes if not isinstance(o, Seat)]
    assert len(seated) == 1 and len(refused) == 1, outcomes
    assert _code(refused[0]) == "player_already_seated", repr(refused[0])
    assert Seat.objects.filter(table_id=table.pk).count() == 1
    events = read_stream(f"poker_table-{table.pk}")[before:]
    assert [e.type for e in events].count("PlayerSeated") == 1


# --- 2. a floor ruling as the hand ends ---------------------------------------------------------

@pytest.mark.usefixtures("committed_db")
def test_a_floor_ruling_and_the_hands_last_action_at_once_never_deadlock() -> None:
    """§ 637a.18(a): a floorperson's ruling recorded on the hand while the dealer sends
    the hand's last action: both take the round's row before the table's, so one waits
    for the other and both complete (the ruling in the hand's stream, the hand settled),
    no deadlock. (Before 0486659 the ruling took the table first, the last action the
    round first and then the table: PostgreSQL aborted one as a deadlock.)"""
    people, table = poker_room("RACE-RULE", "rr")
    _poker_table(people, table)
    round_id, last = hand_at_its_last_action(table, people, seed=3)

    with _raw(autocommit=True) as watcher, _row_held(
            "SELECT id FROM tables_round WHERE id = %s FOR UPDATE", round_id):
        # the last action queues first, the ruling after it: the order that deadlocked
        ending = Run(lambda: hands.hand_command(actor=people["dealer"], round_id=round_id,
                                                commands=[last]))
        ending.start()
        _waiting_for_a_lock(watcher, 1)
        ruling = Run(lambda: hands.floor_ruling(actor=people["floor"], round_id=round_id,
                                                ruling="the player's hand is live"))
        ruling.start()
        _waiting_for_a_lock(watcher, 2)
    ended, ruled = ending.outcome(), ruling.outcome()

    assert not isinstance(ended, BaseException), repr(ended)
    assert not isinstance(ruled, BaseException), repr(ruled)
    assert ended.closed
    types = [e.type for e in read_stream(f"round-{round_id}")]
    assert "FloorRuling" in types
    assert Round.objects.get(pk=round_id).state == "closed"
    assert GameTable.objects.get(pk=table.pk).current_round_id is None
    assert PokerTable.objects.get(table_id=table.pk).current_hand_id is None


# --- 3. a seat command that waited for its table, in a caller's transaction -------------------

@pytest.mark.usefixtures("committed_db")
def test_a_seat_command_that_waited_for_its_table_in_a_transaction_succeeds() -> None:
    """§ 637a.8(b), § 637a.17(b)(3)(i): seat 1 sits out in one connection's transaction
    (a console form's, a floor move's) and seat 2 in another's, which waits for the
    table's lock; when the first commits, the second decides on what it wrote and sits
    out too. (Before 0486659 it decided on the poker table's version as its statement
    began and failed ``stream_version_conflict``.)"""
    people, table = poker_room("RACE-SIT", "rsit")
    dealer = people["dealer"]
    for n in (1, 2):
        seats.seat_player(actor=dealer, table_id=table.pk, seat=n, buy_in_cents=10_000,
                          paid_with="chips")
    first_done, commit_first = threading.Event(), threading.Event()

    def first() -> Any:
        with transaction.atomic():
            out = seats.sit_out(actor=dealer, table_id=table.pk, seat=1)
            first_done.set()
            assert commit_first.wait(BOUND), "never told to commit"
        return out

    def second() -> Any:
        with transaction.atomic():
            return seats.sit_out(actor=dealer, table_id=table.pk, seat=2)

    with _raw(autocommit=True) as watcher:
        one = Run(first)
        one.start()
        assert first_done.wait(BOUND), "the first sit-out did not run"
        two = Run(second)
        two.start()
        try:
            _waiting_for_a_lock(watcher, 1)  # the second waits for the table's lock
        finally:
            commit_first.set()
    a, b = one.outcome(), two.outcome()

    assert not isinstance(a, BaseException), repr(a)
    assert not isinstance(b, BaseException), repr(b)
    assert dict(Seat.objects.filter(table_id=table.pk).values_list("seat", "status")) == \
        {1: "sitting_out", 2: "sitting_out"}
    types = [e.type for e in read_stream(f"poker_table-{table.pk}")]
    assert types.count("PlayerSatOut") == 2


# --- 4. a value the database refuses ------------------------------------------------------------

def _seats(table: Any) -> list[tuple[int, str, int]]:
    return list(Seat.objects.filter(table_id=table.pk).order_by("seat")
                .values_list("seat", "status", "stack_cents"))


@pytest.mark.usefixtures("committed_db")
def test_stakes_beyond_the_databases_range_are_400_invalid_data_and_record_nothing() -> None:
    """§ 637a.8(b)(6): a floorperson records the stakes of a player stepping away during
    a hand (any amount is taken then); 2**63 cents is beyond what the seat's row holds:
    the API answers 400 invalid_data (problem+json), nothing is recorded. (Before
    0486659 the database's refusal in the pipelined projection was a 500.)"""
    people, table = poker_room("RACE-AWAY", "ra")
    _poker_table(people, table)
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    hands.hand_start(actor=people["dealer"], table_id=table.pk, deck=deck)
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(pk=people["floor"].user_id))
    # the log's last position as stored (not eventstore's head(): its "settled" cut is
    # below any transaction in flight in the cluster, other databases' included)
    last, seated = Event.objects.aggregate(last=Max("position"))["last"], _seats(table)

    r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/step-away/",
                    {"seat": 3, "covered_cents": 2**63}, format="json")

    assert r.status_code == 400, r.content
    assert r["Content-Type"].startswith("application/problem+json")
    assert r.json()["code"] == "invalid_data"
    appended = list(Event.objects.filter(position__gt=last)
                    .values_list("type", "stream_id", "metadata"))
    assert appended == [], appended
    assert _seats(table) == seated
    # the connection is usable after the refusal: the same step away, in range, is taken
    r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/step-away/",
                    {"seat": 3, "covered_cents": 10_000}, format="json")
    assert (r.status_code, r.json()["status"]) == (200, "away"), r.content
