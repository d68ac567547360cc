"""The one command runner (DESIGN §2, issue 12): the snapshot kept with a round's row is
the state its stream rebuilds to, batch commands are one commit with one event per fact,
and an in-round command takes two database round trips on PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core.management import call_command

from casino import command_runner
from casino.domain.errors import DomainError
from casino.eventstore.store import read_stream
from tables.domain.banked import Phase
from tables.domain.banked.commands import Decide, PlaceWager
from tables.management.commands.simulate_banked import TableRunner
from tables.models import Round
from tables.services import banked, rounds
from tests.poker_room._play import play_hand, poker_table_ready

BANKED = ("lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo")


def _runner(open_table: Any, crew: dict, game: str, seed: int = 7) -> TableRunner:
    return TableRunner(open_table(game), crew["dealer"], crew["floor"], random.Random(seed))


def _snapshot_problems(*, every_aggregate: bool = True) -> list[str]:
    """Every aggregate row whose snapshot is not what its stream rebuilds to (and, with
    ``every_aggregate``, a problem if some registered aggregate has no row played)."""
    problems = []
    for agg in command_runner.aggregates().values():
        if not agg.keeps_snapshot:  # a table starting a round: its row is its state
            continue
        keys = command_runner.aggregate_keys(agg)
        assert keys or not every_aggregate, f"no {agg.name} rows were played"
        for key in keys:
            row = Round.objects.get(pk=key)
            recorded = read_stream(agg.stream_id(key))
            rebuilt = agg.rebuild(recorded)
            stored = row.snapshot if isinstance(row.snapshot, dict) else json.loads(row.snapshot)
            if (row.snapshot_version != recorded[-1].version
                    or agg.to_snapshot(agg.from_snapshot(stored)) != agg.to_snapshot(rebuilt)
                    or stored != json.loads(json.dumps(agg.to_snapshot(rebuilt)))):
                problems.append(f"{agg.name} {key}")
    return problems


def test_every_snapshot_equals_its_stream_rebuilt_and_rebuild_projections_restores_them(
        open_table, crew) -> None:  # noqa: ANN001
    """§ 589.11(f), § 579.11(l), § 637a.11: whole rounds of every banked game and poker
    hands, one command at a time and in batches, leave each round's snapshot equal to the
    state its events rebuild to; dropped and rebuilt by ``rebuild_projections`` they are
    equal again."""
    for i, game in enumerate(BANKED):
        runner = _runner(open_table, crew, game, seed=i)
        for n in range(2):
            runner.play(batched=bool(n % 2))
    poker = open_table("holdem")
    poker_table_ready(poker, crew)
    for n in range(2):
        play_hand(poker, crew, seed=n, batched=bool(n % 2))
    assert _snapshot_problems() == []
    Round.objects.update(snapshot=None, snapshot_version=0)
    call_command("rebuild_projections", "--no-progress")
    assert _snapshot_problems() == []


def _open_round(open_table: Any, crew: dict, game: str = "lunar-poker-589") -> tuple:
    runner = _runner(open_table, crew, game)
    deck = runner.next_deck()
    rnd = rounds.round_open(actor=crew["dealer"], table_id=runner.table.pk, deck_id=deck.pk)
    return runner, rnd


def test_wagers_with_no_more_bets_are_one_command_with_one_event_per_wager(
        open_table, crew) -> None:  # noqa: ANN001
    """§ 589.7(d): the wagers a terminal holds and "no more bets" go in one command and one
    commit, each still its own event."""
    runner, rnd = _open_round(open_table, crew)
    ante = runner.options["table_minimum_cents"]
    out = banked.round_place_wagers(actor=crew["dealer"], round_id=rnd.pk, no_more_bets=True,
                                    wagers=[PlaceWager(1, "ante", ante),
                                            PlaceWager(2, "ante", 2 * ante)])
    assert [e.type for e in out.events] == ["WagerPlaced", "WagerPlaced", "NoMoreBets"]
    assert len({e.recorded_at for e in out.events}) == 1  # one append, one commit
    assert out.state.phase is Phase.DEALING and out.version == 4
    assert out.state.positions[2].wagered == {"ante": 2 * ante}


def test_a_batch_with_one_refused_wager_appends_nothing(open_table, crew) -> None:  # noqa: ANN001
    """§ 589.7(a): a wager over the table maximum is refused, and with it the whole batch."""
    runner, rnd = _open_round(open_table, crew)
    o = runner.options
    with pytest.raises(DomainError):
        banked.round_place_wagers(actor=crew["dealer"], round_id=rnd.pk, no_more_bets=True,
                                  wagers=[PlaceWager(1, "ante", o["table_minimum_cents"]),
                                          PlaceWager(2, "ante", o["table_maximum_cents"] + 1)])
    assert [e.type for e in read_stream(rnd.stream_id)] == ["RoundOpened"]


def test_every_decision_with_the_lock_settles_the_round_in_one_command(
        open_table, crew) -> None:  # noqa: ANN001
    """§ 579.11(d), § 579.11(l): every position's setting and "lock" as one command; the
    wagers are settled and the round may close."""
    runner, rnd = _open_round(open_table, crew, "five-card-hi-lo")
    ante = runner.options["table_minimum_cents"]
    banked.round_place_wagers(actor=crew["dealer"], round_id=rnd.pk, no_more_bets=True,
                              wagers=[PlaceWager(1, "ante", ante), PlaceWager(3, "ante", ante)])
    state = banked.round_deal_from_shuffle(actor=crew["dealer"], round_id=rnd.pk).state
    decisions = []
    for p in state.clockwise():
        what, hi, lo = runner.strategy.hilo(state, p)
        decisions.append(Decide(p.number, what, high=hi, low=lo))
    out = banked.round_lock_decisions(actor=crew["dealer"], round_id=rnd.pk,
                                      decisions=decisions)
    types = [e.type for e in out.events]
    assert types[:2] == ["HandsSet", "HandsSet"] or types.count("DecisionMade") >= 2
    assert out.settled
    assert rounds.round_close(actor=crew["dealer"], round_id=rnd.pk).state == "closed"


def test_a_snapshot_left_behind_its_stream_is_replayed_and_written_again(
        open_table, crew) -> None:  # noqa: ANN001
    """DESIGN §2: the append is made at the snapshot's version, so a stale snapshot cannot
    decide a command; the runner replays the stream and keeps the snapshot with it."""
    runner, rnd = _open_round(open_table, crew)
    ante = runner.options["table_minimum_cents"]
    banked.round_place_wager(actor=crew["dealer"], round_id=rnd.pk, position=1,
                             wager="ante", amount=ante)
    Round.objects.filter(pk=rnd.pk).update(snapshot=None)
    out = banked.round_place_wager(actor=crew["dealer"], round_id=rnd.pk, position=2,
                                   wager="ante", amount=ante)
    assert sorted(out.state.positions) == [1, 2] and out.version == 3
    assert _snapshot_problems(every_aggregate=False) == []
