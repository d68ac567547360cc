"""The in-process part of ``bench_poker_room``: the scratch tables, a dealer terminal that
calls the services, the bare appenders of the floor, and the summary of a run.

Each terminal is its own process (forked), as each gunicorn worker is; every loop stops by
time and by count, so a hand that never ends or a run that never stops is an error, not a
hang.
"""

from __future__ import annotations

import multiprocessing as mp
import random
import statistics
import time
from typing import Any

from django.core.management.base import CommandError
from django.db import connections

BUY_IN = 40_000
#: a Hold'em hand of six takes about 30 commands; one that takes this many never ends
MAX_COMMANDS_PER_HAND = 400
#: no terminal deals more hands a second than this, whatever the machine
MAX_HANDS_PER_SECOND = 1_000
KINDS = ("start", "action", "last")

#: the deck refusals a terminal answers by having the floor change the decks, then retries
DECK_DUE = frozenset({"deck_change_due", "second_deck_missing", "no_deck_in_play",
                      "deck_count_due"})


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else 0.0


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


#: how long a terminal ready to start waits for the others (their set-up and warm-up hand)
START_TIMEOUT = 300


def max_hands(seconds: float) -> int:
    return max(10, int(seconds * MAX_HANDS_PER_SECOND))


# --- set-up (main process) -----------------------------------------------------------------

def bench_tables(n: int) -> list[Any]:
    """``n`` scratch Hold'em tables ``BENCH-POKER-<i>``, open, six players seated, a hand
    an interrupted run left voided (a misdeal)."""
    from casino.models import Property
    from poker_room.models import Seat
    from poker_room.services import hands, seats
    from tables.demo import demo_people, example_rules_in_effect
    from tables.models import GameTable
    from tables.services import tables

    props = list(Property.objects.all()[:2])
    if len(props) != 1:
        raise CommandError("no_property: run `manage.py seed_demo` first" if not props else
                           "ambiguous_property: bench_poker_room needs a single property")
    try:
        people = demo_people(props[0])
    except Exception:  # noqa: BLE001
        raise CommandError("no_demo_staff: run `manage.py seed_demo` first") from None
    example_rules_in_effect(people, "holdem")
    out = []
    for i in range(1, n + 1):
        name = f"BENCH-POKER-{i}"
        table = GameTable.objects.filter(property=props[0], name=name).first()
        if table is None:
            table = tables.table_configure(actor=people["admin"], name=name, game="holdem",
                                           positions=10, dealing_method="hand",
                                           shuffler="automated-counting")
            tables.table_assign_dealer(actor=people["floor"], table_id=table.pk,
                                       dealer="demo_dealer")
        table = GameTable.objects.get(pk=table.pk)
        if table.status == "closed":
            tables.table_open(actor=people["floor"], table_id=table.pk)
        if table.current_round_id:  # an interrupted run's hand: a misdeal ends it
            hands.hand_command(actor=people["dealer"], round_id=table.current_round_id,
                               commands=[{"type": "void"}])
        for seat in range(1, 7):
            if not Seat.objects.filter(table=table, seat=seat).exists():
                seats.seat_player(actor=people["dealer"], table_id=table.pk, seat=seat,
                                  buy_in_cents=BUY_IN, paid_with="chips")
        out.append(table.pk)
    return out


# --- the players' decisions ----------------------------------------------------------------

def decide(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal decision of the player to act (``legal``: the engine's
    ``legal_actions()``, as the API answers it too): a fold now and then, mostly calls and
    checks, some bets and raises (the server makes a bet or raise the minimum)."""
    acts, seat = legal["actions"], legal["seat"]
    roll = rng.random()
    if "check" in acts:
        action = "bet" if roll < 0.2 and "bet" in acts else "check"
    elif roll < 0.12:
        action = "fold"
    elif roll < 0.25 and "raise" in acts:
        action = "raise"
    else:
        action = "call"
    return {"type": "act", "seat": seat, "action": action}


def new_decks(table_id: Any) -> None:
    """The floor takes the decks due out of play and puts new ones in (what a terminal
    refused for its decks waits for)."""
    from django.contrib.auth import get_user_model

    from casino.actors import actor_of
    from tables.demo import demo_people, keep_decks_in_play
    from tables.models import GameTable

    table = GameTable.objects.select_related("property").get(pk=table_id)
    dealer = actor_of(get_user_model().objects.get(pk=table.dealer_id))
    keep_decks_in_play(table, dealer, demo_people(table.property)["floor"], batch="BENCH")


# --- one terminal (child process) ----------------------------------------------------------

class Terminal:
    """A dealer terminal at one table: hands one after another through the services. It
    names no deck (the server deals with the deck due) and reads the stacks from the hand
    it just played; only a deck refusal sends it to the floor for new decks."""

    def __init__(self, table_id: Any, seed: int, batched: bool):
        from django.contrib.auth import get_user_model

        from casino.actors import actor_of
        from poker_room.models import Seat
        from tables.models import GameTable

        self.table = GameTable.objects.select_related("property").get(pk=table_id)
        self.dealer = actor_of(get_user_model().objects.get(pk=self.table.dealer_id))
        self.rng, self.batched = random.Random(seed), batched
        self.stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=self.table)}
        self.reset()

    def reset(self) -> None:
        self.latencies: dict[str, list[float]] = {k: [] for k in KINDS}
        self.commands = self.hands = self.rebuys = self.deck_changes = 0

    def _rebuy(self) -> None:
        from poker_room.services import seats

        for seat, stack in self.stacks.items():
            if stack < BUY_IN // 4:
                seats.chips_add(actor=self.dealer, table_id=self.table.pk, seat=seat,
                                amount_cents=BUY_IN - stack, paid_with="chips")
                self.stacks[seat] = BUY_IN
                self.rebuys += 1

    def _start(self) -> Any:
        from casino.domain.errors import ConflictError
        from poker_room.services import hands

        for _ in range(3):
            t0 = time.perf_counter()
            try:
                ph = hands.hand_start(actor=self.dealer, table_id=self.table.pk,
                                      shuffle=True)
            except ConflictError as exc:
                if exc.code not in DECK_DUE:
                    raise
                new_decks(self.table.pk)
                self.deck_changes += 1
                continue
            self.latencies["start"].append(time.perf_counter() - t0)
            self.commands += 1
            return ph
        raise CommandError("decks_not_kept: the bench table's decks could not be kept in "
                           "play")

    def _send(self, ph: Any, batch: list[dict[str, Any]], last: bool) -> Any:
        from poker_room.services import hands

        t0 = time.perf_counter()
        ph = hands.hand_command(actor=self.dealer, round_id=ph.round_id, commands=batch,
                                expected_version=ph.version)
        self.latencies["last" if last else "action"].append(time.perf_counter() - t0)
        self.commands += 1
        return ph

    def hand(self) -> None:
        self._rebuy()
        ph = self._start()
        for _ in range(MAX_COMMANDS_PER_HAND):
            if ph.hand.is_complete:
                break
            # the terminal keeps its own copy of the hand to know which command ends it
            # and, batched, where the betting round ends
            local, batch = ph.hand, []
            street = local.board[:]
            while not local.is_complete and local.to_act is not None:
                command = decide(local.legal_actions(), self.rng)
                local.execute(command)
                batch.append(command)
                if not self.batched or local.board != street:
                    break
            ph = self._send(ph, batch, last=local.is_complete)
        else:
            raise CommandError(f"hand_not_over: a hand took {MAX_COMMANDS_PER_HAND} commands")
        self.stacks.update(ph.hand.stacks)
        self.hands += 1


def run_terminal(args: tuple) -> dict[str, Any]:
    """One terminal for ``seconds`` (a warm-up hand first), or paced at ``rate`` hands a
    second."""
    table_id, seconds, barrier, seed, batched, rate = args
    import gc

    import django

    django.setup()
    term = Terminal(table_id, seed, batched)
    term.hand()  # warm
    term.reset()
    # what the forked terminal inherited (the whole management command's imports) is
    # left out of garbage collection, as a server's forked workers do: otherwise a full
    # collection walks it all and shows up as a pause of a few hundred ms in a command
    gc.freeze()
    barrier.wait()
    start = time.perf_counter()
    for k in range(max_hands(seconds)):
        if time.perf_counter() - start >= seconds:
            break
        if rate:  # paced: this table's hands at even intervals, the tables staggered
            due = start + (k + (seed % 100) / 100) / rate
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
        term.hand()
    elapsed = time.perf_counter() - start
    connections.close_all()
    return {"elapsed": elapsed, "hands": term.hands, "commands": term.commands,
            "latencies": term.latencies, "rebuys": term.rebuys,
            "deck_changes": term.deck_changes}


def run_bare(args: tuple) -> dict[str, Any]:
    """The floor: bare appends (``store.append``, one durable commit each) to a stream of
    its own, as fast as one process goes, for ``seconds``."""
    _, seconds, barrier, seed, _, _ = args
    import django

    django.setup()
    from casino.eventstore.store import NewEvent, append, register_stream_type

    register_stream_type("bench")
    stream = ("bench", f"bench-poker-{seed}-{time.time_ns()}")
    n = 0
    append(stream, n, [NewEvent("BenchActed", {"seat": 1})], {"actor": "bench"})
    barrier.wait()
    lat = []
    start = time.perf_counter()
    for _ in range(max_hands(seconds) * 100):
        if time.perf_counter() - start >= seconds:
            break
        n += 1
        t0 = time.perf_counter()
        append(stream, n, [NewEvent("BenchActed", {"seat": 1})], {"actor": "bench"})
        lat.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    connections.close_all()
    return {"elapsed": elapsed, "commands": n, "latencies": {"append": lat}, "hands": 0,
            "rebuys": 0, "deck_changes": 0}


def _guarded(call: tuple) -> dict[str, Any]:
    """The worker's result, or what stopped it: the barrier broken first, so that the
    other terminals stop waiting for this one and every process returns."""
    worker, args = call
    try:
        return worker(args)
    except BaseException as exc:  # noqa: BLE001 -- reported by the parent, whatever it is
        try:
            args[2].abort()
        except Exception:  # noqa: BLE001 -- the manager is gone: nobody waits on it
            pass
        return {"error": f"{type(exc).__name__}: {exc}"}


def parallel(worker: Any, jobs: list[tuple]) -> list[dict[str, Any]]:
    """``worker`` once per job, each in a forked process, started together (a barrier):
    a job is ``(first, seconds, *rest)`` and the worker gets ``(first, seconds, barrier,
    *rest)``. A worker that fails breaks the barrier (the others stop instead of waiting
    for it) and the run stops with its reason."""
    connections.close_all()
    ctx = mp.get_context("fork")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(len(jobs), timeout=START_TIMEOUT)
        with ctx.Pool(len(jobs)) as pool:
            results = pool.map(_guarded, [(worker, (j[0], j[1], barrier, *j[2:]))
                                          for j in jobs])
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        # the terminal that failed first, not the ones that found the barrier broken
        errors.sort(key=lambda e: e.startswith("BrokenBarrierError"))
        raise CommandError(f"terminal_failed: {errors[0]}")
    return results


def terminals(table_ids: list[Any], seconds: float, batched: bool,
              rate: float = 0.0) -> list[dict[str, Any]]:
    return parallel(run_terminal, [(t, seconds, 100 + i, batched, rate)
                                   for i, t in enumerate(table_ids)])


def floor(table_ids: list[Any], seconds: float) -> dict[str, Any]:
    row = summary(parallel(run_bare, [(t, seconds, 100 + i, False, 0.0)
                                      for i, t in enumerate(table_ids)]))
    return {k: row[k] for k in ("commands", "commands_per_second", "p50_ms", "p99_ms")}


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Hands and commands a second over the longest terminal's time, percentiles over
    every command and per kind: the start, the betting commands, and the command that ends
    the hand (it settles the stacks and closes the round too)."""
    elapsed = max(r["elapsed"] for r in results)
    kinds: dict[str, list[float]] = {}
    for r in results:
        for kind, values in r["latencies"].items():
            kinds.setdefault(kind, []).extend(values)
    lat = [x for values in kinds.values() for x in values]
    hands = sum(r["hands"] for r in results)
    commands = sum(r["commands"] for r in results)
    return {"hands": hands, "hands_per_second": round(hands / elapsed, 1),
            "commands": commands, "commands_per_second": round(commands / elapsed, 1),
            "commands_per_hand": round(commands / hands, 1) if hands else None,
            "p50_ms": ms(statistics.median(lat)) if lat else None,
            "p95_ms": ms(pct(lat, 0.95)), "p99_ms": ms(pct(lat, 0.99)),
            "by_command": {kind: {"n": len(v), "p50_ms": ms(statistics.median(v)),
                                  "p99_ms": ms(pct(v, 0.99)), "max_ms": ms(max(v))}
                           for kind, v in kinds.items() if v},
            "rebuys": sum(r["rebuys"] for r in results),
            "deck_changes": sum(r["deck_changes"] for r in results)}
