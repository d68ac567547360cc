"""Benchmark the event store against the ``eventsourcing`` library's PostgreSQL recorder,
and both against the floor (the same events as one bare durable INSERT, no recorder).

All three run the same workloads in the same run, in one scratch database on the configured
PostgreSQL server (created and dropped here, so benchmark events never enter the real
audit trail). Writers are processes, as gunicorn workers would be. Prints JSON.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import statistics
import sys
import time
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connections

SCENARIOS = [
    # name, writers, events per append, shared (hot) stream
    ("1-event, 1 writer", 1, 1, False),
    ("1-event, 4 writers", 4, 1, False),
    ("10-event, 1 writer", 1, 10, False),
    ("10-event, 4 writers", 4, 10, False),
    ("1-event, 4 writers, one hot stream", 4, 1, True),
]


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


# --- workers (run in child processes) ----------------------------------------------

def _ours_worker(args: tuple) -> dict[str, Any]:
    writer, appends, per_append, hot, barrier = args
    from casino.eventstore.errors import ConcurrencyError
    from casino.eventstore.store import NewEvent, append, register_stream_type, stream_version

    register_stream_type("bench")
    stream_id = "bench-hot" if hot else f"bench-{writer}-{uuid.uuid4().hex[:8]}"
    version = stream_version(stream_id)
    latencies, conflicts = [], 0
    payload = {"amount": 2500, "seat": 3, "wager": "ante"}
    barrier.wait()
    start = time.perf_counter()
    for i in range(appends):
        events = [NewEvent("BenchWagerPlaced", {**payload, "n": i, "k": k})
                  for k in range(per_append)]
        t0 = time.perf_counter()
        while True:
            try:
                append(("bench", stream_id), version, events, {"actor": f"bench-{writer}"})
                version += per_append
                break
            except ConcurrencyError as exc:
                conflicts += 1  # a raced insert does not know the head: read it
                version = exc.actual if exc.actual is not None else stream_version(stream_id)
        latencies.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    connections.close_all()
    return {"latencies": latencies, "conflicts": conflicts, "elapsed": elapsed}


def _peer_worker(args: tuple) -> dict[str, Any]:
    writer, appends, per_append, hot, barrier, dsn = args
    from eventsourcing.persistence import IntegrityError, StoredEvent
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    ds = PostgresDatastore(dbname=dsn["NAME"], host=dsn["HOST"] or "127.0.0.1",
                           port=dsn["PORT"] or 5432, user=dsn["USER"] or "postgres",
                           password=dsn["PASSWORD"] or "", pool_size=1)
    recorder = PostgresApplicationRecorder(ds, events_table_name="es_bench_events")
    originator = uuid.UUID(int=0) if hot else uuid.uuid4()

    def current_version() -> int:
        last = recorder.select_events(originator, desc=True, limit=1)
        return last[0].originator_version if last else 0

    version = current_version()
    latencies, conflicts = [], 0
    payload = {"amount": 2500, "seat": 3, "wager": "ante"}
    barrier.wait()
    start = time.perf_counter()
    for i in range(appends):
        t0 = time.perf_counter()
        while True:
            stored = [StoredEvent(originator, version + 1 + k, "BenchWagerPlaced",
                                  json.dumps({**payload, "n": i, "k": k}).encode())
                      for k in range(per_append)]
            try:
                recorder.insert_events(stored)
                version += per_append
                break
            except IntegrityError:
                conflicts += 1
                version = current_version()
        latencies.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    ds.close()
    return {"latencies": latencies, "conflicts": conflicts, "elapsed": elapsed}


def _floor_worker(args: tuple) -> dict[str, Any]:
    """The floor: the same events as one multi-row INSERT, in its own durable commit, into
    a bare table with only the (stream, version) guard: no hash, no chain, no metadata,
    no lock. No recorder can append for less on this server."""
    writer, appends, per_append, hot, barrier, dsn = args
    import psycopg

    conn = psycopg.connect(dbname=dsn["NAME"], host=dsn["HOST"] or "127.0.0.1",
                           port=dsn["PORT"] or 5432, user=dsn["USER"] or "postgres",
                           password=dsn["PASSWORD"] or None, autocommit=True)
    stream = "floor-hot" if hot else f"floor-{writer}-{uuid.uuid4().hex[:8]}"
    payload = {"amount": 2500, "seat": 3, "wager": "ante"}
    version = 0
    latencies, conflicts = [], 0
    barrier.wait()
    start = time.perf_counter()
    for i in range(appends):
        t0 = time.perf_counter()
        while True:
            rows = [(stream, version + 1 + k, json.dumps({**payload, "n": i, "k": k}))
                    for k in range(per_append)]
            try:
                conn.execute("INSERT INTO bench_floor (stream_id, version, data) VALUES "
                             + ", ".join(["(%s, %s, %s::jsonb)"] * per_append),
                             [x for row in rows for x in row])
                version += per_append
                break
            except psycopg.errors.UniqueViolation:
                conflicts += 1
                version = conn.execute("SELECT coalesce(max(version), 0) FROM bench_floor "
                                       "WHERE stream_id = %s", [stream]).fetchone()[0]
        latencies.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    conn.close()
    return {"latencies": latencies, "conflicts": conflicts, "elapsed": elapsed}


def _run(worker: Any, writers: int, appends: int, per_append: int, hot: bool,
         extra: tuple = ()) -> dict[str, Any]:
    ctx = mp.get_context("fork")
    barrier = ctx.Manager().Barrier(writers)
    per_writer = max(1, appends // writers)
    connections.close_all()  # children must open their own connections
    with ctx.Pool(writers) as pool:
        results = pool.map(worker, [(w, per_writer, per_append, hot, barrier, *extra)
                                    for w in range(writers)])
    latencies = sorted(x for r in results for x in r["latencies"])
    wall = max(r["elapsed"] for r in results)
    n = len(latencies)
    return {
        "appends": n,
        "events": n * per_append,
        "appends_per_s": round(n / wall, 1),
        "events_per_s": round(n * per_append / wall, 1),
        "p50_ms": round(_percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 2),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2),
        "conflicts": sum(r["conflicts"] for r in results),
    }


class Command(BaseCommand):
    help = ("Benchmark event appends (ours vs the eventsourcing library) on PostgreSQL in a "
            "scratch database; prints JSON.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--appends", type=int, default=2000,
                            help="appends per scenario, split across writers (default 2000)")
        parser.add_argument("--scratch-db", default="casino_bench",
                            help="name of the scratch database (created and dropped)")
        parser.add_argument("--keep", action="store_true", help="keep the scratch database")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["appends"] < 10:
            raise CommandError("invalid_option: --appends must be at least 10")
        conn = connections["default"]
        if conn.vendor != "postgresql":
            raise CommandError("needs_postgresql: bench_events measures PostgreSQL; set "
                               "DATABASE_URL=postgres://... (the targets are for PostgreSQL)")
        scratch = opts["scratch_db"]
        if not scratch.isidentifier():
            raise CommandError("invalid_option: --scratch-db must be a plain identifier")
        original = conn.settings_dict["NAME"]
        self._recreate(scratch)
        try:
            conn.close()
            conn.settings_dict["NAME"] = scratch
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            self._create_peer_table(conn.settings_dict)
            self._create_floor_table()
            report = {"database": f"PostgreSQL {self._server_version()}",
                      "scratch_database": scratch, "peer": "eventsourcing "
                      + self._peer_version() + " PostgresApplicationRecorder",
                      "scenarios": []}
            for name, writers, per_append, hot in SCENARIOS:
                self.stderr.write(f"  {name} ...")
                ours = _run(_ours_worker, writers, opts["appends"], per_append, hot)
                peer = _run(_peer_worker, writers, opts["appends"], per_append, hot,
                            (dict(conn.settings_dict),))
                floor = _run(_floor_worker, writers, opts["appends"], per_append, hot,
                             (dict(conn.settings_dict),))
                report["scenarios"].append({
                    "scenario": name, "ours": ours, "eventsourcing": peer, "floor": floor,
                    "throughput_ratio": round(ours["events_per_s"] / peer["events_per_s"], 2),
                    "ours_of_floor": round(ours["events_per_s"] / floor["events_per_s"], 2),
                    "eventsourcing_of_floor": round(peer["events_per_s"]
                                                    / floor["events_per_s"], 2),
                })
            from casino.eventstore.verify import verify_chain

            chain = verify_chain()
            report["chain_valid_after_run"] = chain.ok
            report["events_in_chain"] = chain.count
        finally:
            conn.close()
            conn.settings_dict["NAME"] = original
            if not opts["keep"]:
                self._drop(scratch)
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")

    # -- helpers ----------------------------------------------------------------------
    def _admin(self) -> Any:
        import psycopg

        s = connections["default"].settings_dict
        return psycopg.connect(dbname="postgres", host=s["HOST"] or "127.0.0.1",
                               port=s["PORT"] or 5432, user=s["USER"] or "postgres",
                               password=s["PASSWORD"] or None, autocommit=True)

    def _recreate(self, name: str) -> None:
        self._drop(name)
        with self._admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')

    def _drop(self, name: str) -> None:
        connections.close_all()
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _create_floor_table(self) -> None:
        with connections["default"].cursor() as cur:
            cur.execute("CREATE TABLE bench_floor (id bigserial PRIMARY KEY, stream_id text "
                        "NOT NULL, version integer NOT NULL, data jsonb NOT NULL, "
                        "UNIQUE (stream_id, version))")

    def _create_peer_table(self, s: dict) -> None:
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

        ds = PostgresDatastore(dbname=s["NAME"], host=s["HOST"] or "127.0.0.1",
                               port=s["PORT"] or 5432, user=s["USER"] or "postgres",
                               password=s["PASSWORD"] or "")
        PostgresApplicationRecorder(ds, events_table_name="es_bench_events").create_table()
        ds.close()

    def _server_version(self) -> str:
        with connections["default"].cursor() as cur:
            cur.execute("SHOW server_version")
            return cur.fetchone()[0]

    def _peer_version(self) -> str:
        from importlib.metadata import version

        return version("eventsourcing")
