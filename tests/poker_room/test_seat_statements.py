"""The seat commands' statements, pinned (issue 25 item 2: the seat commands run on the
command runner, one locked read, the decision in the pure domain, the appends in one
pipeline; "the ORM gate of ~17 statements goes").

Each command is counted at the wire (PostgreSQL): libpq's trace of Django's connection
gives every statement the client sent (a ``Query`` or an ``Execute`` message), the event
store's own cursors included, which Django's CaptureQueriesContext does not see, and the
points where the client waits for the server (a round trip). Outside any transaction the
command is its own; inside a caller's (pytest's, as a floor move's) the runner's steps
run in it.

Before this change (commit ee745e4: the ORM gate, ``AtTable``, each read its own round
trip), measured the same way: seat_player 12 statements in 12 round trips outside a
transaction, 12 inside one; seat_leave 10 in 10 (2 of them the floor's after-commit look-up
of the table's list, :mod:`poker_floor.hooks`), 8 inside one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection

from poker_room.models import Seat
from poker_room.services import seats
from tests.poker_room._committed import poker_room


#: per command: (statements, round trips) outside a transaction, statements inside one
#: one more each than when it first ran on the runner: the table read again,
#: unlocked, after the lock (casino.command_runner._fresh_read_sql), no round trip more
EXPECTED = {"seat_player": (8, 4, 8), "seat_leave": (9, 4, 7)}


@contextmanager
def wire() -> Iterator[dict[str, Any]]:
    """What the client sends to PostgreSQL on Django's connection while the block runs:
    ``statements`` (Query or Execute messages), ``round_trips`` and the statements'
    text (for a failing count's message)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    from psycopg import pq

    out: dict[str, Any] = {}
    with tempfile.NamedTemporaryFile("w+", suffix=".trace", delete=False) as f:
        path = f.name
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        pgconn.trace(os.dup(fd))
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        yield out
    finally:
        pgconn.untrace()
        os.close(fd)
    with open(path, encoding="utf-8", errors="replace") as f:
        sent = [line.split("\t") for line in f if line.startswith("F\t")]
    os.unlink(path)
    out["statements"] = sum(1 for m in sent if len(m) > 2 and m[2].split(" ")[0]
                            in ("Query", "Execute"))
    kinds = [m[2].split(" ")[0].strip() for m in sent if len(m) > 2]
    # the client waits for the server after a Sync, after a Flush (a result read in a
    # pipeline) unless it follows a Sync, and after each simple Query
    out["round_trips"] = sum(1 for i, k in enumerate(kinds)
                             if k in ("Sync", "Query")
                             or (k == "Flush" and (i == 0 or kinds[i - 1] != "Sync")))
    out["text"] = [" ".join(m[2:])[:160] for m in sent
                   if len(m) > 2 and m[2].split(" ")[0] in ("Query", "Parse")]


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_seat_player_and_seat_leave_outside_a_transaction() -> None:
    """§ 637a.8(a)-(b): a player seated with chips brought and leaving with the stakes,
    each a command of its own transaction."""
    people, table = poker_room("SEAT-WIRE", "sw")
    dealer = people["dealer"]
    seats.seat_player(actor=dealer, table_id=table.pk, seat=1, buy_in_cents=10_000,
                      paid_with="chips")  # the table's first event: its row is made
    with wire() as seated:
        seats.seat_player(actor=dealer, table_id=table.pk, seat=2, buy_in_cents=10_000,
                          paid_with="chips")
    with wire() as left:
        out = seats.seat_leave(actor=dealer, table_id=table.pk, seat=2)
    assert out == {"seat": 2, "cashed_out_cents": 10_000}
    assert list(Seat.objects.filter(table_id=table.pk).values_list("seat", flat=True)) == [1]
    # seat_player: BEGIN and the table's locked read (one round trip); the seat's INSERT
    # (its id returned: a round trip), the poker row's UPDATE, the append and COMMIT (one);
    # the seat read back for the answer
    assert (seated["statements"], seated["round_trips"]) == EXPECTED["seat_player"][:2], \
        seated["text"]
    # seat_leave: BEGIN and the read; the DELETE, the UPDATE, the append and COMMIT; after
    # the commit the floor's hook asks whether the table's game has a list (two reads)
    assert (left["statements"], left["round_trips"]) == EXPECTED["seat_leave"][:2], \
        left["text"]


@pytest.mark.postgres
@pytest.mark.django_db
def test_seat_player_and_seat_leave_inside_a_transaction(crew, poker_table) -> None:  # noqa: ANN001
    """The same commands inside a caller's transaction (a floor move's): the runner's
    steps in that transaction."""
    table = poker_table("holdem")["table"]
    dealer = crew["dealer"]
    seats.seat_player(actor=dealer, table_id=table.pk, seat=1, buy_in_cents=10_000,
                      paid_with="chips")
    with wire() as seated:
        seats.seat_player(actor=dealer, table_id=table.pk, seat=2, buy_in_cents=10_000,
                          paid_with="chips")
    with wire() as left:
        seats.seat_leave(actor=dealer, table_id=table.pk, seat=2)
    # the savepoint, the locked read, the projection's writes, the append, the release
    # (and the seat read back for seat_player's answer)
    assert seated["statements"] == EXPECTED["seat_player"][2], seated["text"]
    assert left["statements"] == EXPECTED["seat_leave"][2], left["text"]


@pytest.mark.django_db
def test_the_seating_reads_the_rules_in_force_as_the_selector_does(
        crew, poker_table, put_rules_in_effect) -> None:  # noqa: ANN001
    """§ 637a.8(b)(1): the buy-in limits are those of the Rules Submission in force: a
    version approved for a later time is not in force before it and is once its time has
    come, before its timer records it taking effect (tables.selectors.rules_in_force)."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from casino.domain.errors import DomainError
    from tables.models import RulesState
    from tables.selectors import rules_in_force
    from tables.services import rules

    table = poker_table("holdem")["table"]
    later = timezone.now() + timedelta(hours=1)
    draft = rules.rules_draft(actor=crew["compliance"], game="holdem",
                              options={**rules_in_force(table.property, "holdem").options,
                                       "buy_in_maximum_cents": 8_000})
    rules.rules_submit(actor=crew["compliance"], rules_id=draft.pk)
    approved = rules.rules_approve(actor=crew["approver"], rules_id=draft.pk,
                                   effective_at=later.isoformat())
    assert approved.state == RulesState.APPROVED
    seated = seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=1,
                               buy_in_cents=10_000, paid_with="chips")
    assert seated.stack_cents == 10_000
    with time_machine.travel(later + timedelta(minutes=1), tick=False):
        assert rules_in_force(table.property, "holdem").pk == approved.pk
        with pytest.raises(DomainError) as refused:
            seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=2,
                              buy_in_cents=10_000, paid_with="chips")
        assert refused.value.code == "buy_in_above_maximum"
        assert seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=2,
                                 buy_in_cents=8_000, paid_with="chips").stack_cents == 8_000


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_a_seating_refused_at_its_locked_read_appends_nothing_and_leaves_the_connection_usable(
        ) -> None:
    """§ 637a.8(a): a taken seat, an empty one, a dealer at another table's seats, each
    refused by the decision between the runner's two round trips (its transaction rolled
    back), nothing appended; the next command runs."""
    from casino.domain.errors import DomainError
    from casino.eventstore.models import Event
    from casino.roles import RoleRequired

    people, table = poker_room("SEAT-REFUSED", "sr")
    dealer, floor = people["dealer"], people["floor"]
    seats.seat_player(actor=dealer, table_id=table.pk, seat=1, buy_in_cents=10_000,
                      paid_with="chips")
    stream = f"poker_table-{table.pk}"
    before = Event.objects.filter(stream_id=stream).count()
    refusals = {
        "seat_taken": lambda: seats.seat_player(actor=dealer, table_id=table.pk, seat=1,
                                                buy_in_cents=10_000, paid_with="chips"),
        "seat_empty": lambda: seats.seat_leave(actor=dealer, table_id=table.pk, seat=5),
        "role_required": lambda: seats.step_away(actor=dealer, table_id=table.pk, seat=1,
                                                 covered_cents=10_000),
        "stakes_mismatch": lambda: seats.step_away(actor=floor, table_id=table.pk, seat=1,
                                                   covered_cents=9_000),
    }
    for code, command in refusals.items():
        with pytest.raises((DomainError, RoleRequired)) as refused:
            command()
        # a domain refusal's code, or the 403's (RoleRequired, a DRF PermissionDenied)
        assert (getattr(refused.value, "code", None) or refused.value.default_code) == code
        assert not connection.in_atomic_block
        assert connection.connection.info.transaction_status == 0  # idle: rolled back
    assert Event.objects.filter(stream_id=stream).count() == before
    assert seats.sit_out(actor=dealer, table_id=table.pk, seat=1).status == "sitting_out"
    assert Event.objects.filter(stream_id=stream).count() == before + 1
