"""A hand's start and its last action cost the round trips of a betting command (issue 25,
Benchmarks: "every kind of command — the start and the last action included — at p50 and
p99 within 2× of a betting command").

Counted at the wire (PostgreSQL, :func:`tests.poker_room.test_start_statements.wire`):
every statement the client sent and every point where it waited for the server. A
command outside any transaction is the runner's two round trips — BEGIN with the locked
read, then the inline projections, the appends, the snapshot and COMMIT in one pipeline —
as long as no inline projection reads a result in the middle of that pipeline (each read
is a Sync, one more round trip, and under load one more wait on the server).

Measured before this change (commit 18b66cd) the same way: already 2 round trips each (an
action 5 statements, the start 12, the last action 13): psycopg does not wait for a
statement's result in a pipeline when the ORM reads ``rowcount``, it answers -1 — which
is also why round_closed's "already closed" guard never fired there (tests/tables/
test_round_close_guard.py). The cost of the start and the last action over a bet was the
projections' CPU (an ORM query built for each statement) and the server's work, not waits;
the projections now write plain SQL (one terminal, busy machine: CPU per command at p50,
start 3.3-3.8 ms -> 2.2 ms, last 4.3-4.9 ms -> 1.9 ms, a bet 0.85 ms). This pins that
none of them adds a wait.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from poker_room.models import PokerTable, RakeDay
from poker_room.services import hands
from tables.models import GameTable, Round
from tests.casino.test_command_atomic_under_sigkill import _between_hands, _policy
from tests.poker_room._committed import poker_room
from tests.poker_room.test_start_statements import _poker_table, wire

pytestmark = [pytest.mark.postgres]

#: per command kind: round trips outside a transaction (the runner's two)
EXPECTED = {"action": 2, "start": 2, "last": 2}


def _play(dealer: Any, table: Any, seed: int) -> dict[str, dict[str, Any]]:
    """One hand of hold'em, one command per action, each counted at the wire: the start,
    the betting actions and the last action (the one that completes and settles the
    hand). Returns the wire counts by kind (the betting actions' largest)."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    with wire() as start:
        ph = hands.hand_start(actor=dealer, table_id=table.pk, deck=deck)
    hand, version, counted = ph.hand, ph.version, {"start": start}
    while True:
        command = _policy(hand)
        hand.execute(command)
        with wire() as out:
            answer = hands.hand_command(actor=dealer, round_id=ph.round_id,
                                        expected_version=version, commands=[command])
        if hand.is_complete:
            counted["last"] = out
            assert answer.closed
            return counted | {"round_id": ph.round_id}
        version = answer.version
        if out["round_trips"] >= counted.get("action", {}).get("round_trips", -1):
            counted["action"] = out


@pytest.mark.usefixtures("committed_db")
def test_the_start_and_the_last_action_are_two_round_trips_like_a_bet() -> None:
    """§ 637a.3(a), § 637a.15(c), § 637a.12(n): a hand started, bet and ended one command
    per action; the start and the last action (the round closed, the hand settled at the
    table, the rake and contribution days added up) each in the runner's two round trips,
    as a betting action is; the read models as the settlement says."""
    people, table = poker_room("RT-WIRE-P", "rtw")
    _poker_table(people, table)
    dealer = people["dealer"]
    crew = {**people}
    for seed in (1, 2):
        _between_hands(table, crew)
        counted = _play(dealer, table, seed)
        trips = {kind: counted[kind]["round_trips"] for kind in EXPECTED}
        for kind in EXPECTED:  # for the run's log (-s)
            print(f"\n{kind}: {counted[kind]['statements']} statements in "
                  f"{counted[kind]['round_trips']} round trips", *counted[kind]["text"],
                  sep="\n  ")
        assert trips == EXPECTED, {k: counted[k]["text"] for k in EXPECTED}
        rnd = Round.objects.get(pk=counted["round_id"])
        assert rnd.state == "closed" and rnd.closed_at is not None
        assert GameTable.objects.get(pk=table.pk).current_round_id is None
        poker = PokerTable.objects.get(table_id=table.pk)
        assert poker.current_hand_id is None and poker.hands_dealt == seed
        assert RakeDay.objects.get(table_id=table.pk).hands == seed
