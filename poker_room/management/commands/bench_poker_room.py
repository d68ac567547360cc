"""``manage.py bench_poker_room``: Hold'em hands through the services on PostgreSQL, with
several tables dealing at once (a dealer terminal per table, each its own process), and
the floor measured in the same run. Prints JSON.

Each hand: the hand started (the server shuffles, the engine deals), then the dealer's
commands, random legal decisions of six players (a fold now and then, mostly calls and
checks, some bets and raises). Two modes: ``single`` (one command per action, as a
terminal that sends each) and ``batched`` (a terminal that buffers a betting round sends
it as one ``commands`` batch). The floor: as many bare appends (``store.append``, one
durable commit each) from as many processes in the same run.

Targets (issue 13): at least 60 hands/s with 8 tables at once, p99 per command 20 ms.
Three runs: one command per action and batched, each as fast as the terminals go (the
throughput; every command then also queues for the machine's cores), and batched with
the room dealing at the target rate (the latency a dealer sees at that load). Each is
reported per kind of command: the start, the betting, and the command that ends the
hand (it also settles the stacks and closes the round). ``checks`` says which targets
hold.
It uses scratch tables ``BENCH-POKER-<n>`` of the (only) property (``seed_demo`` first),
created on first use, with a counting shuffler so no deck count interrupts the hands.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, connections

TARGETS = {"hands_per_second": 60, "p99_ms": 20.0, "tables": 8}
BUY_IN = 40_000


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else 0.0


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


# --- set-up (main process) -----------------------------------------------------------------

def bench_tables(n: int) -> list[Any]:
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


# --- one terminal (child process) --------------------------------------------------------------

def _decide(hand: Any, rng: random.Random) -> dict[str, Any]:
    legal = hand.legal_actions()
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


#: the deck refusals a terminal answers by having the floor change the decks, then retries
_DECK_DUE = frozenset({"deck_change_due", "second_deck_missing", "no_deck_in_play",
                       "deck_count_due"})


class Terminal:
    """A dealer terminal at one table: hands one after another. It names no deck (the
    server deals with the deck due) and reads the stacks from the hand it just played;
    only a deck refusal sends it to the floor for new decks."""

    def __init__(self, table_id: Any, seed: int, batched: bool):
        from django.contrib.auth import get_user_model

        from casino.actors import actor_of
        from poker_room.models import Seat
        from tables.demo import demo_people
        from tables.models import GameTable

        self.table = GameTable.objects.select_related("property").get(pk=table_id)
        self.dealer = actor_of(get_user_model().objects.get(pk=self.table.dealer_id))
        self.floor = demo_people(self.table.property)["floor"]
        self.rng, self.batched = random.Random(seed), batched
        self.latencies: dict[str, list[float]] = {"start": [], "action": [], "last": []}
        self.commands = self.hands = self.rebuys = self.deck_changes = 0
        self.stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=self.table)}

    def reset(self) -> None:
        self.latencies = {k: [] for k in self.latencies}
        self.commands = self.hands = self.rebuys = self.deck_changes = 0

    def _new_decks(self) -> None:
        from tables.demo import keep_decks_in_play
        from tables.models import GameTable

        keep_decks_in_play(GameTable.objects.get(pk=self.table.pk), self.dealer, self.floor,
                           batch="BENCH")
        self.deck_changes += 1

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
                if exc.code not in _DECK_DUE:
                    raise
                self._new_decks()
                continue
            self.latencies["start"].append(time.perf_counter() - t0)
            self.commands += 1
            return ph
        raise CommandError("the bench table's decks could not be kept in play")

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
        while not ph.hand.is_complete:
            local, batch = ph.hand, []
            street = local.board[:]
            while not local.is_complete and local.to_act is not None:
                command = _decide(local, self.rng)
                local.execute(command)
                batch.append(command)
                if not self.batched or local.board != street:
                    break
            ph = self._send(ph, batch, last=local.is_complete)
        self.stacks.update(ph.hand.stacks)
        self.hands += 1


def _terminal(args: tuple) -> dict[str, Any]:
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
    k = 0
    while time.perf_counter() - start < seconds:
        if rate:  # paced: this table's hands at even intervals, the tables staggered
            due = start + (k + (seed % 100) / 100) / rate
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
        term.hand()
        k += 1
    elapsed = time.perf_counter() - start
    connections.close_all()
    return {"elapsed": elapsed, "hands": term.hands, "commands": term.commands,
            "latencies": term.latencies, "rebuys": term.rebuys,
            "deck_changes": term.deck_changes}


def _bare(args: tuple) -> dict[str, Any]:
    table_id, seconds, barrier, seed, _, _ = args
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
    while time.perf_counter() - start < seconds:
        n += 1
        t0 = time.perf_counter()
        append(stream, n, [NewEvent("BenchActed", {"seat": 1})], {"actor": "bench"})
        lat.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    connections.close_all()
    return {"elapsed": elapsed, "commands": n, "latencies": {"append": lat}, "hands": 0,
            "rebuys": 0, "deck_changes": 0}


def _parallel(worker: Any, table_ids: list[Any], seconds: float, batched: bool,
              rate: float = 0.0) -> list[dict[str, Any]]:
    connections.close_all()
    ctx = mp.get_context("fork")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(len(table_ids))
        with ctx.Pool(len(table_ids)) as pool:
            return pool.map(worker, [(t, seconds, barrier, 100 + i, batched, rate)
                                     for i, t in enumerate(table_ids)])


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
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
            "p50_ms": _ms(statistics.median(lat)) if lat else None,
            "p95_ms": _ms(_pct(lat, 0.95)), "p99_ms": _ms(_pct(lat, 0.99)),
            # the start, the betting commands, and the command that ends the hand (it
            # settles the stacks and closes the round too)
            "by_command": {kind: {"n": len(v), "p50_ms": _ms(statistics.median(v)),
                                  "p99_ms": _ms(_pct(v, 0.99)), "max_ms": _ms(max(v))}
                           for kind, v in kinds.items() if v},
            "rebuys": sum(r["rebuys"] for r in results),
            "deck_changes": sum(r["deck_changes"] for r in results)}


class Command(BaseCommand):
    help = ("Hold'em hands through the services with several tables dealing at once, one "
            "command per action and batched, against bare appends (JSON).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=8)
        parser.add_argument("--seconds", type=float, default=10.0,
                            help="how long each mode runs")
        parser.add_argument("--allow-sqlite", action="store_true",
                            help="a smoke run on SQLite (its figures do not count)")

    def handle(self, *args: Any, **opts: Any) -> None:
        n, seconds = opts["tables"], opts["seconds"]
        if not 1 <= n <= 32 or not 0 < seconds <= 600:
            raise CommandError("invalid_option: --tables 1-32, --seconds above 0 and at "
                               "most 600")
        if connection.vendor != "postgresql" and not opts["allow_sqlite"]:
            raise CommandError("not_postgresql: the figures are for PostgreSQL (set "
                               "DATABASE_URL), or pass --allow-sqlite for a smoke run")
        if connection.vendor != "postgresql":
            n = 1  # SQLite serializes writers: one terminal
        print(f"setting up {n} tables ...", file=sys.stderr)
        table_ids = bench_tables(n)
        rows: dict[str, Any] = {}
        for mode, batched in (("single", False), ("batched", True)):
            print(f"{mode}: {n} terminals as fast as they go for {seconds:g} s ...",
                  file=sys.stderr)
            rows[mode] = _summary(_parallel(_terminal, table_ids, seconds, batched))
        # the latency a dealer sees with the room dealing at the target rate (the figures
        # above are at saturation, where every command also waits for the CPU)
        rate = TARGETS["hands_per_second"]
        print(f"batched at {rate} hands/s: {n} terminals for {seconds:g} s ...",
              file=sys.stderr)
        rows["batched_at_target_rate"] = _summary(
            _parallel(_terminal, table_ids, seconds, True, rate=rate / n))
        print(f"floor: {n} bare appenders for {seconds:g} s ...", file=sys.stderr)
        floor = _summary(_parallel(_bare, table_ids, seconds, False))
        floor = {k: floor[k] for k in ("commands", "commands_per_second", "p50_ms", "p99_ms")}
        single, batched, paced = rows["single"], rows["batched"], rows["batched_at_target_rate"]
        checks = {
            "tables": n >= TARGETS["tables"],
            "hands_per_second_batched": batched["hands_per_second"]
            >= TARGETS["hands_per_second"],
            "target_rate_kept": paced["hands_per_second"] >= 0.95 * rate,
            "p99_ms_at_target_rate": paced["p99_ms"] <= TARGETS["p99_ms"],
            "hands_per_second_single": single["hands_per_second"]
            >= TARGETS["hands_per_second"],
            "p99_ms_single": single["p99_ms"] <= TARGETS["p99_ms"],
        }
        out = {"benchmark": "bench_poker_room", "database": connection.vendor, "tables": n,
               "seconds_per_mode": seconds, "targets": TARGETS, **rows,
               "floor_bare_appends": floor,
               "ratio_commands_to_floor": round(single["commands_per_second"]
                                                / floor["commands_per_second"], 2)
               if floor["commands_per_second"] else None,
               "checks": checks, "meets_targets": all(checks.values())}
        self.stdout.write(json.dumps(out, indent=2))
