"""``manage.py bench_poker_room``: Hold'em hands through the services on PostgreSQL, with
several tables dealing at once (a dealer terminal per table, each its own process), the
same through the API, and the floor measured in the same run. Prints JSON.

Each hand: the hand started (the server shuffles, the engine deals), then the dealer's
commands, random legal decisions of six players (a fold now and then, mostly calls and
checks, some bets and raises). Rows:

* ``single``: one command per action, as a terminal that sends each, as fast as the
  terminals go;
* ``batched``: a terminal that buffers a betting round sends it as one ``commands`` batch;
* ``batched_at_target_rate``: batched with the room dealing 60 hands/s (the latency a
  dealer sees at that load, not at saturation);
* ``http``: one command per action through gunicorn and the API, a terminal process per
  table with a kept-alive session and a token, an ``Idempotency-Key`` on every command;
  ``http_overhead_ms`` per kind is its p50 minus ``single``'s;
* ``floor_bare_appends``: as many bare appends (``store.append``, one durable commit each)
  from as many processes.

Each row is reported per kind of command: the start, the betting (``action``), and the
command that ends the hand (it also settles the stacks and closes the round).
``checks`` are the targets of issue 25, ratios to the same run (see ``_bench_checks``):
commands/s one command per action at least half the floor's appends/s, and the start and
the last action within 2x of a betting command at p50 and p99. The absolute targets (60
hands/s, p99 20 ms) are ``quiet_run_targets``, reported, not part of ``meets_targets``.
It uses scratch tables ``BENCH-POKER-<n>`` of the (only) property (``seed_demo`` first),
created on first use, with a counting shuffler so no deck count interrupts the hands.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from poker_room.management.commands import _bench_checks as targets
from poker_room.management.commands import _bench_http as http
from poker_room.management.commands import _bench_room as room

#: the room deals at this rate in the paced row (issue 13's target)
TARGET_RATE = 60


def _say(text: str) -> None:
    print(text, file=sys.stderr)


class Command(BaseCommand):
    help = ("Hold'em hands with several tables dealing at once, through the services (one "
            "command per action, batched, batched at the target rate) and through the API, "
            "against bare appends in the same run (JSON with checks).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=8)
        parser.add_argument("--seconds", type=float, default=10.0,
                            help="how long each row runs")
        parser.add_argument("--no-http", action="store_true",
                            help="leave out the row through gunicorn and the API")
        parser.add_argument("--http-workers", type=int, default=None,
                            help="gunicorn's workers (default 2 per core)")
        parser.add_argument("--allow-sqlite", action="store_true",
                            help="a smoke run on SQLite (its figures do not count)")

    def handle(self, *args: Any, **opts: Any) -> None:
        n, seconds, workers = opts["tables"], opts["seconds"], opts["http_workers"]
        if (not 1 <= n <= 32 or not 0 < seconds <= 600
                or (workers is not None and not 1 <= workers <= 64)):
            raise CommandError("invalid_option: --tables 1-32, --seconds above 0 and at "
                               "most 600, --http-workers 1-64")
        if connection.vendor != "postgresql" and not opts["allow_sqlite"]:
            raise CommandError("not_postgresql: the figures are for PostgreSQL (set "
                               "DATABASE_URL), or pass --allow-sqlite for a smoke run")
        if connection.vendor != "postgresql":
            n = 1  # SQLite serializes writers: one terminal
        load = os.getloadavg()[0]
        _say(f"setting up {n} tables ...")
        table_ids = room.bench_tables(n)
        rows: dict[str, Any] = {}
        for mode, batched in (("single", False), ("batched", True)):
            _say(f"{mode}: {n} terminals as fast as they go for {seconds:g} s ...")
            rows[mode] = room.summary(room.terminals(table_ids, seconds, batched))
        _say(f"batched at {TARGET_RATE} hands/s: {n} terminals for {seconds:g} s ...")
        rows["batched_at_target_rate"] = room.summary(
            room.terminals(table_ids, seconds, True, rate=TARGET_RATE / n))
        _say(f"floor: {n} bare appenders for {seconds:g} s ...")
        floor = room.floor(table_ids, seconds)
        for row in rows.values():
            row["kind_to_action"] = targets.kind_to_action(row)
        single = rows["single"]
        out: dict[str, Any] = {
            "benchmark": "bench_poker_room", "database": connection.vendor, "tables": n,
            "seconds_per_row": seconds, "ratio_targets": targets.RATIO_TARGETS,
            "quiet_run": targets.QUIET_RUN, **rows, "floor_bare_appends": floor,
            "ratio_commands_to_floor": targets.commands_to_floor(single, floor)}
        if not opts["no_http"]:
            _say(f"http: gunicorn and {n} terminals through the API for {seconds:g} s ...")
            results, server = http.http_results(table_ids, seconds, workers)
            out["http"] = {**room.summary(results), "server": server}
            out["http"]["kind_to_action"] = targets.kind_to_action(out["http"])
            out["http_overhead_ms"] = http.overhead(out["http"], single)
        checks = targets.checks(n, single, floor)
        out.update({
            "quiet_run_targets": targets.quiet_run_targets(
                single, rows["batched"], rows["batched_at_target_rate"], TARGET_RATE),
            "checks": checks, "meets_targets": all(checks.values()),
            "note": targets.note(single, floor, checks), "machine": targets.machine(load)})
        self.stdout.write(json.dumps(out, indent=2))
