"""The load of the restore test (tests/casino/test_backup_restore.py): whole house-banked
rounds played through the services at one scratch table, with every command the services
acknowledged written down.

Run by the test as ``python tests/casino/_restore_load.py ROUNDS OUT.json`` with
``DATABASE_URL`` naming the test's own PostgreSQL. The rounds are simulate_banked's
(:class:`tables.management.commands.simulate_banked.TableRunner`, batched as a terminal
sends them: open, the wagers with "no more bets", the deal, the decisions with "lock",
close) at bench_commands' scratch table ``BENCH-CMD-1``. A command is acknowledged when
its service returned: its transaction has committed. The round services are wrapped so
that each return is recorded as it happens (the real function runs; only its answer is
read): the ids of the events a banked command returns, or, for ``round_open`` and
``round_close``, which return the round's row, the round's stream and the event type
they record. OUT.json is ``{"acknowledged": [{"command", "event_ids"} | {"command",
"stream_id", "type"}, ...], "rounds": N}``.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

#: banked commands: each returns the events it appended (tables.services.banked.BankedRound)
BANKED = ("round_place_wagers", "round_place_wager", "round_no_more_bets",
          "round_deal_from_shuffle", "round_lock_decisions", "round_decide", "round_command")
#: round commands that return the round's row: the event type each records
ROW = {"round_open": "RoundOpened", "round_close": "RoundClosed"}


def record_acknowledged(acked: list[dict[str, Any]]) -> None:
    """Wrap the round services so that every return is appended to ``acked``."""
    from tables.services import banked, rounds

    def wrap(module: Any, name: str, note: Any) -> None:
        real = getattr(module, name)

        @functools.wraps(real)
        def acknowledged(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            acked.append({"command": name, **note(result)})
            return result
        setattr(module, name, acknowledged)

    for name in BANKED:
        wrap(banked, name, lambda r: {"event_ids": [str(e.event_id) for e in r.events]})
    for name, event_type in ROW.items():
        wrap(rounds, name, lambda r, t=event_type: {"stream_id": f"round-{r.pk}", "type": t})


def main(rounds: int, out: Path) -> None:
    import django

    django.setup()
    from tables.management.commands.bench_commands import _runner, bench_tables

    acked: list[dict[str, Any]] = []
    record_acknowledged(acked)
    (table_id,) = bench_tables(1)
    runner = _runner(table_id, random.randrange(2**32))
    played = 0
    try:
        for _ in range(rounds):
            runner.play(batched=True)
            played += 1
    finally:  # what was acknowledged before a failure is still a promise to keep
        out.write_text(json.dumps({"acknowledged": acked, "rounds": played}))


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
