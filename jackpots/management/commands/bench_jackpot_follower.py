"""``manage.py bench_jackpot_follower``: contributions applied to the fund ledgers per
second by the contributions follower (issue 14: at least 5,000/s on PostgreSQL), against
the floor measured in the same run: reading the same events from the log in the same
batches without applying them. Prints JSON.

It appends ``--contributions`` ``JackpotContributed`` events (100 to an append, as a busy
room's hands would, spread over 240 scratch tables and two scratch funds ``bench-bad-beat``
and ``bench-high-hand`` of the (only) property; they stay in the log, like every bench's
records, so run it against a bench database), then times the follower catching up on
them, then times the floor on the same positions.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

TARGET = {"contributions_per_second": 5_000}
FOLLOWER = "jackpot_funds"
TABLES = 240
PER_APPEND = 100


def _append(n: int, licence: str, day: str) -> tuple[int, int]:
    """Append the contributions; the first and last positions they took."""
    from casino.eventstore.store import NewEvent, append, register_stream_type

    register_stream_type("bench")
    tables = [str(uuid.uuid4()) for _ in range(TABLES)]
    meta = {"actor": "bench", "property": licence, "gaming_day": day}
    stream = f"bench-jackpot-follower-{uuid.uuid4()}"
    first = last = 0
    done = 0
    while done < n:
        k = min(PER_APPEND, n - done)
        events = [NewEvent("JackpotContributed", {
            "fund": "bench-bad-beat" if (done + i) % 2 else "bench-high-hand",
            "kind": "bad_beat" if (done + i) % 2 else "high_hand", "pot": 0,
            "amount_cents": 100, "table_id": tables[(done + i) % TABLES], "gaming_day": day,
            "hand_id": None}) for i in range(k)]
        rows = append(("bench", stream), done, events, meta)
        first = first or rows[0].position
        last = rows[-1].position
        done += k
    return first, last


def _floor(first: int, batch: int) -> float:
    """Seconds to read the contributions from ``first`` in the follower's batches."""
    from casino.eventstore.store import read_all

    t0 = time.perf_counter()
    position = first
    while True:
        events = read_all(position, batch, types=["JackpotContributed"])
        if not events:
            break
        position = events[-1].position + 1
    return time.perf_counter() - t0


class Command(BaseCommand):
    help = "Contributions per second through the jackpot follower, against reading them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--contributions", type=int, default=20_000)
        parser.add_argument("--batch", type=int, default=1_000,
                            help="events the follower takes in one transaction")
        parser.add_argument("--allow-sqlite", action="store_true",
                            help="a smoke run on SQLite (its figures do not count)")

    def handle(self, *args: Any, **opts: Any) -> None:
        from casino.eventstore import projections
        from casino.models import Property

        n, batch = opts["contributions"], opts["batch"]
        if not 1 <= n <= 1_000_000 or not 1 <= batch <= 10_000:
            raise CommandError("invalid_option: --contributions 1 to 1,000,000, --batch 1 "
                               "to 10,000")
        if connection.vendor != "postgresql" and not opts["allow_sqlite"]:
            raise CommandError("not_postgresql: the figures are for PostgreSQL (set "
                               "DATABASE_URL), or pass --allow-sqlite for a smoke run")
        props = list(Property.objects.all()[:2])
        if len(props) != 1:
            raise CommandError("no_property: run `manage.py seed_demo` first" if not props
                               else "ambiguous_property: the bench needs a single property")
        day = time.strftime("%Y-%m-%d")
        print("catching up what is pending ...", file=sys.stderr)
        projections.catch_up(FOLLOWER, batch=batch)
        print(f"appending {n:,} contributions ...", file=sys.stderr)
        with projections.no_wake():  # the bench catches up itself
            first, last = _append(n, props[0].licence_number, day)
        print("the follower catches up ...", file=sys.stderr)
        t0 = time.perf_counter()
        applied = projections.catch_up(FOLLOWER, batch=batch)
        follower = time.perf_counter() - t0
        print("the floor: reading them ...", file=sys.stderr)
        floor = _floor(first, batch)
        rate = applied / follower if follower else 0.0
        self.stdout.write(json.dumps({
            "benchmark": "bench_jackpot_follower", "database": connection.vendor,
            "contributions": n, "applied": applied, "batch": batch,
            "follower": {"seconds": round(follower, 3),
                         "contributions_per_second": round(rate)},
            "floor_read_only": {"seconds": round(floor, 3),
                                "contributions_per_second": round(n / floor) if floor else None},
            "ratio_to_floor": round(floor / follower, 2) if follower else None,
            "target": TARGET, "meets_target": rate >= TARGET["contributions_per_second"],
        }, indent=2))
