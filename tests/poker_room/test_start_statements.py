"""Starting a round or a hand, its statements pinned (issue 25 item 2: a table-aggregate
command on the runner — one locked read of the table carrying the rules in force, the
decks in play and the seats, the decision in the pure domain, the appends to the round's,
the deck's and the poker table's streams in one pipeline; "the ORM gate of ~17 statements
goes").

Counted at the wire (PostgreSQL): libpq's trace of Django's connection gives every
statement the client sent (a ``Query`` or an ``Execute`` message), the event store's own
cursors included, which Django's CaptureQueriesContext does not see, and the points where
the client waits for the server (a round trip). Outside any transaction the command is its
own (the runner's two round trips: BEGIN and the locked read; then the inline
projections, the appends, the hand's snapshot and COMMIT); inside a caller's the runner's
steps run in it, one at a time.

Before this change (commit 8cc07be: ``AtTable`` and ``round_open``'s ORM gate — the table,
the poker row, the seats, the table again, the rules, the decks, each its own read — then
the appends one by one), measured the same way: round_open 11 statements in 11 round trips
outside a transaction, 13 inside one; hand_start 20 in 20, 22 inside one.

Now: BEGIN and the locked read; then RoundOpened's projection (the round inserted, the
table's row, the decks' rounds since their count), its append, the deck's projection and
append, for a hand the poker table's projection and append and the hand's snapshot, and
COMMIT.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction

from casino.domain.errors import DomainError
from casino.eventstore.store import read_stream
from poker_room.services import hands, seats
from tables.demo import deck_ready
from tables.domain.rules_options import example_options
from tables.models import Deck, GameTable, Round
from tables.services import rounds, rules, tables
from tests.poker_room._committed import poker_room

pytestmark = [pytest.mark.postgres]

#: per command: (statements, round trips) outside a transaction, and inside one
#: (statements, round trips) outside a transaction, then inside a caller's; the locked read
#: is followed by the same read unlocked in its round trip (casino.command_runner.
#: _fresh_read_sql: what the command it waited for wrote is seen)
EXPECTED = {"round_open": ((10, 2), (12, 12)), "hand_start": ((13, 2), (15, 15))}


@contextmanager
def wire() -> Iterator[dict[str, Any]]:
    """What the client sends to PostgreSQL on Django's connection while the block runs:
    ``statements`` (Query or Execute messages), ``round_trips`` and the statements' text
    (for a failing count's message)."""
    from psycopg import pq

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    out: dict[str, Any] = {}
    fd, path = tempfile.mkstemp(suffix=".trace")
    try:
        pgconn.trace(fd)
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        yield out
    finally:
        pgconn.untrace()
        os.close(fd)
    with open(path, encoding="utf-8", errors="replace") as f:
        sent = [line.rstrip("\n").split("\t") for line in f if line.startswith("F\t")]
    os.unlink(path)
    kinds = [m[2].split(" ")[0].strip() for m in sent if len(m) > 2]
    out["statements"] = sum(1 for k in kinds if k in ("Query", "Execute"))
    # the client waits for the server after a Sync, after a Flush (a result read in a
    # pipeline) unless it follows a Sync, and after each simple Query
    out["round_trips"] = sum(1 for i, k in enumerate(kinds)
                             if k in ("Sync", "Query")
                             or (k == "Flush" and (i == 0 or kinds[i - 1] != "Sync")))
    out["text"] = [" ".join(m[2:])[:160] for m in sent
                   if len(m) > 2 and m[2].split(" ")[0] in ("Query", "Parse")]


def _counted(out: dict[str, Any]) -> tuple[int, int]:
    return out["statements"], out["round_trips"]


def _banked_table(people: dict[str, Any]) -> Any:
    """A Lunar Poker table (589) of the same property, open, dealt from an automated shoe
    with a shuffler: two decks alternate (589.3(b))."""
    game = "lunar-poker-589"
    rs = rules.rules_draft(actor=people["comp"], game=game, options=example_options(game))
    rules.rules_submit(actor=people["comp"], rules_id=rs.pk)
    rules.rules_approve(actor=people["appr"], rules_id=rs.pk,
                        acknowledge_negative_house_edge=True)  # its Super Wager paytable
    table = tables.table_configure(actor=people["admin"], name="L-1", game=game, positions=5,
                                   dealing_method="automated-shoe", shuffler="automated")
    tables.table_assign_dealer(actor=people["floor"], table_id=table.pk,
                               dealer=people["dealer"].username)
    table = tables.table_open(actor=people["floor"], table_id=table.pk)
    for colour in ("red", "blue"):
        deck_ready(table, people["dealer"], people["floor"], colour, batch=colour)
    return table


def _poker_table(people: dict[str, Any], table: Any) -> None:
    for colour in ("red", "blue"):
        deck_ready(table, people["dealer"], people["floor"], colour, batch=colour)
    for seat in (1, 2, 3):
        seats.seat_player(actor=people["dealer"], table_id=table.pk, seat=seat,
                          buy_in_cents=10_000, paid_with="chips")


def _refused_outside_a_transaction(dealer: Any, table_id: Any, last_deck: Any) -> None:
    """§ 589.3(b)(3), § 637a.3(a): the deck that dealt last is refused (409 wrong_deck), a
    deck the property does not have is not found (404, looked up only then); each rolled
    back with nothing appended, the connection left usable.

    "Nothing appended" is read from the streams a round opening writes (the table's, its
    decks' and a new round's), not from the log's head: in one CI run the head moved
    during these refusals, something else of this process (a background thread, not
    identified) having appended elsewhere meanwhile."""
    before = _round_streams(table_id)
    for deck_id, code in ((last_deck, "wrong_deck"), (uuid.uuid4(), "deck_not_found")):
        with wire() as out, pytest.raises(DomainError) as err:
            rounds.round_open(actor=dealer, table_id=table_id, deck_id=deck_id)
        assert err.value.code == code
        assert out["text"][-1].endswith('"ROLLBACK"'), out["text"]
    assert _round_streams(table_id) == before


def _round_streams(table_id: Any) -> tuple[Any, ...]:
    """The versions of the streams a round opening appends to, and the table's rounds."""
    decks = sorted(str(d) for d in Deck.objects.filter(table_id=table_id)
                   .values_list("pk", flat=True))
    return (len(read_stream(f"table-{table_id}")),
            tuple(len(read_stream(f"deck-{d}")) for d in decks),
            Round.objects.filter(table_id=table_id).count())


@pytest.mark.usefixtures("committed_db")
def test_round_open_is_one_locked_read_and_one_pipeline() -> None:
    """§ 589.3(b)(3): a banked round opened with the deck due (none named): the table,
    its rules and its decks read in one statement, ``RoundOpened`` and ``DeckDealtRound``
    appended with the projections and COMMIT in the second round trip."""
    people, _ = poker_room("START-WIRE-B", "swb")
    table = _banked_table(people)
    dealer = people["dealer"]
    with wire() as out:
        rnd = rounds.round_open(actor=dealer, table_id=table.pk)
    assert _counted(out) == EXPECTED["round_open"][0], out["text"]
    # the answer is the round as the projection wrote it, with its rules
    stored = Round.objects.get(pk=rnd.pk)
    assert (rnd.number, rnd.deck_id, rnd.rules_id, rnd.snapshot) == (
        stored.number, stored.deck_id, stored.rules_id, stored.snapshot)
    assert rnd.rules.version_number == stored.rules_version_number == 1
    assert [e.type for e in read_stream(f"deck-{rnd.deck_id}")][-1] == "DeckDealtRound"
    rounds.round_close(actor=dealer, round_id=rnd.pk)
    _refused_outside_a_transaction(dealer, table.pk, rnd.deck_id)
    # inside a caller's transaction: the same steps, one statement at a time
    with wire() as out, transaction.atomic():
        second = rounds.round_open(actor=dealer, table_id=table.pk)
    assert _counted(out) == EXPECTED["round_open"][1], out["text"]
    assert second.number == 2 and second.deck_id != rnd.deck_id  # the decks alternate


@pytest.mark.usefixtures("committed_db")
def test_hand_start_is_one_locked_read_and_one_pipeline() -> None:
    """§ 637a.3(a), § 637a.8(a): a hand started with the deck due: the table, its rules,
    decks, poker row and seats read in one statement; the round's stream (``RoundOpened``
    and the engine's first events), the deck's and the table's (``HandDealtAtTable``)
    appended with the hand's snapshot and COMMIT in the second round trip."""
    people, table = poker_room("START-WIRE-P", "swp")
    _poker_table(people, table)
    dealer = people["dealer"]
    with wire() as out:
        ph = hands.hand_start(actor=dealer, table_id=table.pk, shuffle=True)
    assert _counted(out) == EXPECTED["hand_start"][0], out["text"]
    stream = read_stream(f"round-{ph.round_id}")
    assert stream[0].type == "RoundOpened" and ph.events == stream[1:]
    assert ph.version == stream[-1].version == Round.objects.get(pk=ph.round_id).snapshot_version
    assert read_stream(f"poker_table-{table.pk}")[-1].type == "HandDealtAtTable"
    hands.hand_command(actor=dealer, round_id=ph.round_id, expected_version=ph.version,
                       commands=[{"type": "void", "reason": "missing_or_extra_cards"}])
    table = GameTable.objects.get(pk=table.pk)
    assert table.current_round_id is None
    with wire() as out, transaction.atomic():
        second = hands.hand_start(actor=dealer, table_id=table.pk, shuffle=True)
    assert _counted(out) == EXPECTED["hand_start"][1], out["text"]
    assert second.number == 2
