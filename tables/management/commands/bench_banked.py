"""``manage.py bench_banked [--rounds N]``: rounds settled per second, JSON on stdout.

(a) **Pure domain**, per game: :func:`tables.domain.banked.simulate.bench_rounds` (seeded
decks, simple strategy, every position filled) next to a named peer in the same run — the
script runner :func:`tables.domain.banked.settle_script` replaying the same kind of round
from its JSON script ("peer: settle_script replay"; it parses cards and plays the round
command by command, as a dispute does).

(b) **Through the services** on the configured database: whole rounds (open → wagers →
no more bets → server shuffle and deal → decisions → lock/settle → close) with deck
control, at a scratch table this command configures (``BENCH-<game>``, reused on later
runs) or at ``--table NAME``. The database vendor is reported. The issue's targets are
≥ 20,000 rounds/s in the pure domain and ≥ 200 rounds/s through the services on
PostgreSQL; this reports what it measures.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from casino.actors import actor_of
from casino.domain.cards import format_card
from casino.domain.errors import DomainError
from casino.models import Property
from tables.domain.banked import settle_script
from tables.domain.banked.simulate import bench_rounds, play_round
from tables.domain.catalogue import BANKED_GAMES
from tables.domain.catalogue import get_table_game
from tables.domain.rules_options import example_options
from tables.management.commands.simulate_banked import (
    TableRunner,
    crew_for,
    find_table,
    run_rounds,
)
from tables.models import GameTable
from tables.services import tables

PURE_TARGET = 20_000
SERVICES_TARGET = 200
SCRATCH = {"lunar-poker-589": ("BENCH-LP589", "automated-shoe", "automated"),
           "lunar-poker-671a": ("BENCH-LP671", "automated-shoe", "automated-counting"),
           "five-card-hi-lo": ("BENCH-HL", "automated-shoe", "automated")}


# --- (a) pure domain --------------------------------------------------------------------------

def script_of(game: str, rng: random.Random, positions: int) -> dict[str, Any]:
    """A round script of one dealt round (the peer's input): the round played with the
    simple strategy, written down as the fixtures are."""
    played = play_round(game, example_options(game), rng, positions=positions)
    st = played.state
    out: list[dict[str, Any]] = []
    for p in st.clockwise():
        decisions: list[dict[str, Any]] = []
        if st.lunar:
            if "super" in p.declared:
                decisions.append({"decision": "declare_super"})
            decisions.append({"decision": "declare_instant"} if p.decision == "instant"
                             else {"decision": p.decision})
        else:
            high, low = p.setting
            decisions.append({"decision": "play", "high": [format_card(c) for c in high],
                              "low": [format_card(c) for c in low]})
        wagers = {w: a for w, a in p.wagered.items() if w not in ("bet", "play")}
        out.append({"position": p.number, "wagers": wagers,
                    "cards": [format_card(c) for c in p.dealt], "decisions": decisions})
    return {"game": game, "options": example_options(game), "positions": out,
            "dealer": {"cards": [format_card(c) for c in st.dealer_cards]},
            "house_win_cents": st.totals["house_win"]}


def bench_peer(game: str, n: int, seed: int, positions: int) -> float:
    rng = random.Random(seed)
    scripts = [script_of(game, rng, positions) for _ in range(n)]
    settle_script(scripts[0])  # warm
    start = time.perf_counter()
    for s in scripts:
        r = settle_script(s)
        if r["house_win_cents"] != s["house_win_cents"]:
            raise CommandError(f"peer_disagrees: the script replay of a {game} round settled "
                               f"{r['house_win_cents']}, the dealt round {s['house_win_cents']}")
    return n / (time.perf_counter() - start)


def pure(rounds: int, peer_rounds: int, seed: int, progress: bool = True
         ) -> list[dict[str, Any]]:
    out = []
    for game in BANKED_GAMES:
        positions = get_table_game(game).max_positions
        if progress:
            sys.stderr.write(f"  pure domain: {game} ...\n")
        ours = bench_rounds(game, rounds, seed, positions=positions)
        one = bench_rounds(game, rounds, seed, positions=1)
        peer = bench_peer(game, peer_rounds, seed, positions)
        out.append({
            "game": game, "positions": positions, "rounds": rounds,
            "rounds_per_second": round(ours, 1),
            "rounds_per_second_one_position": round(one, 1),
            "peer": "settle_script replay", "peer_rounds": peer_rounds,
            "peer_rounds_per_second": round(peer, 1),
            "ratio_to_peer": round(ours / peer, 2),
            "target": PURE_TARGET, "meets_target": ours >= PURE_TARGET,
        })
    return out


# --- (b) through the services -----------------------------------------------------------------

def scratch_table(game: str) -> Any:
    """A bench table of ``game`` at the (only) property: configured, dealer assigned and
    opened through the services by the demo crew on first use (its decks are put in play by
    the runner); reused afterwards."""
    props = list(Property.objects.all()[:2])
    if len(props) != 1:
        raise CommandError("no_property: run `manage.py seed_demo` first" if not props else
                           "ambiguous_property: name a table with --table")
    prop = props[0]
    name, dealing, shuffler = SCRATCH[game]
    table = GameTable.objects.filter(property=prop, name=name).first()
    User = get_user_model()

    def who(role: str, prefer: str) -> Any:
        users = User.objects.filter(staff__property=prop, groups__name=role, is_active=True)
        u = users.filter(username=prefer).first() or users.order_by("pk").first()
        if u is None:
            raise CommandError(f"no_{role}: the property has no {role}; run "
                               "`manage.py seed_demo` first")
        return actor_of(u)
    if table is None:
        table = tables.table_configure(actor=who("admin", "demo_admin"), name=name, game=game,
                                       positions=get_table_game(game).max_positions,
                                       dealing_method=dealing, shuffler=shuffler)
    floor = who("floorperson", "demo_floorperson")
    if table.dealer_id is None:
        tables.table_assign_dealer(actor=floor, table_id=table.pk,
                                   dealer=who("dealer", "demo_dealer").username)
    table = GameTable.objects.get(pk=table.pk)
    if table.status == "closed":
        tables.table_open(actor=floor, table_id=table.pk)
    return GameTable.objects.select_related("property", "dealer").get(pk=table.pk)


def services(rounds: int, seed: int, table_name: str | None, progress: bool
             ) -> list[dict[str, Any]]:
    if table_name:
        targets = [find_table(table_name)]
    else:
        targets = [scratch_table(game) for game in BANKED_GAMES]
    out = []
    for table in targets:
        dealer, floor = crew_for(table)
        if table.current_round_id:
            raise CommandError(f"round_in_progress: table {table.name} has a round open")
        runner = TableRunner(table, dealer, floor, random.Random(seed))
        runner.play()  # warm: first-use deck setup and caches are not timed
        seconds = run_rounds(runner, rounds, progress=progress, desc=f"services {table.game}")
        rate = rounds / seconds
        out.append({"game": table.game, "table": table.name, "positions": runner.positions,
                    "rounds": rounds, "seconds": round(seconds, 3),
                    "rounds_per_second": round(rate, 2),
                    "deck_counts": runner.counted, "decks_replaced": runner.replaced,
                    "target": SERVICES_TARGET if connection.vendor == "postgresql" else None,
                    "meets_target": (rate >= SERVICES_TARGET
                                     if connection.vendor == "postgresql" else None)})
    return out


def vendor() -> str:
    v = connection.vendor
    with connection.cursor() as cur:
        if v == "postgresql":
            cur.execute("SHOW server_version")
            return f"PostgreSQL {cur.fetchone()[0]}"
        if v == "sqlite":
            cur.execute("select sqlite_version()")
            return f"SQLite {cur.fetchone()[0]}"
    return v


class Command(BaseCommand):
    help = ("Rounds settled per second: in the pure domain per game (with settle_script "
            "replay as the peer) and through the services on this database; JSON.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=20_000,
                            help="pure-domain rounds per game (default 20,000)")
        parser.add_argument("--peer-rounds", type=int, default=None,
                            help="rounds for the settle_script peer (default: --rounds / 4)")
        parser.add_argument("--service-rounds", type=int, default=100,
                            help="rounds per game through the services (default 100; 0 skips)")
        parser.add_argument("--table", default=None,
                            help="bench the services at this table instead of scratch tables")
        parser.add_argument("--seed", type=int, default=20261121)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        n, service_n = opts["rounds"], opts["service_rounds"]
        peer_n = opts["peer_rounds"] if opts["peer_rounds"] is not None else max(1, n // 4)
        if n < 1 or peer_n < 1 or service_n < 0:
            raise CommandError("invalid_option: --rounds and --peer-rounds must be positive, "
                               "--service-rounds not negative")
        report: dict[str, Any] = {"python": platform.python_version(),
                                  "pure_domain": pure(n, peer_n, opts["seed"],
                                                      not opts["no_progress"])}
        if service_n:
            try:
                report["services"] = {"database": vendor(),
                                      "tables": services(service_n, opts["seed"],
                                                         opts["table"],
                                                         not opts["no_progress"])}
            except DomainError as exc:
                raise CommandError(f"{exc.code}: {exc.message}") from None
        self.stdout.write(json.dumps(report, indent=2))
