"""``manage.py bench_poker``: complete hands per second of our engine and of pokerkit's
``State`` on the same hands (JSON on stdout).

Six players, random legal decisions (each a uniform choice among fold when facing a bet,
check or call, and bet or raise — to the minimum or a random legal amount), hands played
to the end (showdown or the last player standing). pokerkit then plays the same hands:
the same cards and the same decisions (``pokerkit_bridge``). Its fixed-limit cap of four
bets a round is respected by the random player so both engines accept every hand.

For Hold'em the same hands also go through a bare loop (``floor``, :mod:`._holdem_floor`):
no checks, no records, no rake; the most any engine could do in this Python on this
machine, and its ratio to pokerkit.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from poker_room.domain.hand import Hand
from poker_room.domain.rules_schema import NO_POT_RAKE
from poker_room.domain.simulate import play_randomly

# The table rules of the games the bench plays (ids of the one registry,
# tables.domain.catalogue): one of each family pokerkit can replay.
_TABLE = {"chip_unit_cents": 1, "buy_in_minimum_cents": 1, "buy_in_maximum_cents": 10**6,
          "rake": NO_POT_RAKE}
BENCH_RULES = {
    "holdem": {"game": "holdem", "structure": "no-limit", "blinds_cents": [100, 200],
               "minimum_bet_cents": 200, "odd_chip_recipient": "first-left-of-button",
               "table_minimum_cents": 200, "table_maximum_cents": 10**6, **_TABLE},
    "omaha-hilo8": {"game": "omaha-hilo8", "structure": "fixed-limit",
                    "blinds_cents": [100, 200], "small_bet_cents": 200,
                    "big_bet_cents": 400, "odd_chip_recipient": "first-left-of-button",
                    "odd_chip_recipient_low": "first-left-of-button",
                    "table_minimum_cents": 200, "table_maximum_cents": 400, **_TABLE},
    "stud-high": {"game": "stud-high", "structure": "fixed-limit", "ante_cents": 25,
                  "forced_bet_cents": 100, "small_bet_cents": 200, "big_bet_cents": 400,
                  "table_minimum_cents": 200, "table_maximum_cents": 400, **_TABLE},
}
WEIGHTS = {"fold_weight": 1 / 3, "raise_weight": 1 / 3, "max_cbr": 4}
#: issue 13: six-handed Hold'em
TARGETS = {"holdem_hands_per_second": 25_000, "ratio_to_pokerkit": 100}


def _hands(rules: dict, n: int, seed: int) -> list[tuple[dict, int | None, list[int], int]]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        stacks = {s: rng.randint(4_000, 40_000) for s in range(1, 7)}
        button = 1 + k % 6 if rules["game"] != "stud-high" else None
        out.append((stacks, button, deck, rng.randrange(1 << 30)))
    return out


class Command(BaseCommand):
    help = "Benchmark the poker engine against pokerkit (JSON on stdout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=20_000)
        parser.add_argument("--peer-hands", type=int, default=1_000,
                            help="hands pokerkit replays (it is much slower); 0 skips it")
        parser.add_argument("--seed", type=int, default=20261121)
        parser.add_argument("--games", default=",".join(BENCH_RULES))

    def handle(self, *args: Any, **options: Any) -> None:
        n, peer_n = options["hands"], options["peer_hands"]
        if n <= 0 or peer_n < 0:
            raise CommandError("invalid_option: --hands must be positive, --peer-hands "
                               "not negative")
        from poker_room.domain import evaluate
        from poker_room.domain.rules import TableRules

        evaluate.tables()  # built once per process: not part of any hand
        results = {}
        for name in options["games"].split(","):
            if name not in BENCH_RULES:
                raise CommandError(f"unknown_game: {name}")
            rules = TableRules.from_dict(BENCH_RULES[name])
            specs = _hands(BENCH_RULES[name], n, options["seed"])
            played: list[Hand] = []  # only the sample pokerkit replays is kept: holding
            actions = showdowns = 0  # every hand would time the garbage collector instead
            ours = 0.0
            for k, (stacks, button, deck, seed) in enumerate(specs):
                t0 = time.perf_counter()
                rng = random.Random(seed)
                hand = Hand.start(rules, stacks, button=button, deck=deck, rng=rng)
                play_randomly(hand, rng, **WEIGHTS)
                ours += time.perf_counter() - t0
                if k < peer_n:
                    played.append(hand)
                for e in hand.events:
                    t = e["type"]
                    if t.startswith("Player"):
                        actions += 1
                    elif t == "ShowdownStarted":
                        showdowns += 1
            row: dict[str, Any] = {
                "hands": n, "seconds": round(ours, 3),
                "hands_per_second": round(n / ours),
                "actions_per_hand": round(actions / n, 2),
                "showdown_share": round(showdowns / n, 3)}
            if name == "holdem":
                row["floor"] = _floor(specs)
            if peer_n:
                from poker_room.domain.pokerkit_bridge import (
                    pokerkit_stacks,
                    run_script,
                    script,
                )
                sample = played[:peer_n]
                agree = sum(pokerkit_stacks(h) == h.stacks for h in sample)
                scripts = [script(h) for h in sample]  # cards parsed, calls listed
                t0 = time.perf_counter()
                for cls, cargs, log in scripts:
                    run_script(cls, cargs, log)
                theirs = time.perf_counter() - t0
                # time only our engine on the same sample too, for a like-for-like ratio
                t0 = time.perf_counter()
                for stacks, button, deck, seed in specs[:peer_n]:
                    rng = random.Random(seed)
                    play_randomly(Hand.start(rules, stacks, button=button, deck=deck,
                                             rng=rng), rng, **WEIGHTS)
                ours_sample = time.perf_counter() - t0
                row["pokerkit"] = {"hands": len(sample), "seconds": round(theirs, 3),
                                   "hands_per_second": round(len(sample) / theirs),
                                   "same_final_stacks": agree}
                row["ratio"] = round(theirs / ours_sample, 1)
                if "floor" in row:
                    row["floor"]["ratio_to_pokerkit"] = round(
                        row["floor"]["hands_per_second"] / row["pokerkit"]["hands_per_second"],
                        1)
            results[name] = row
            print(f"{name}: {row['hands_per_second']} hands/s", file=sys.stderr)
        self.stdout.write(json.dumps({
            "players": 6, "python": platform.python_version(),
            "machine": platform.machine(), "targets": TARGETS, "games": results},
            indent=2))


def _floor(specs: list[tuple[dict, int | None, list[int], int]]) -> dict[str, Any]:
    """The same Hold'em hands through the bare loop of :mod:`._holdem_floor`: the most
    any engine could do here (best of three runs, the machine being shared)."""
    from poker_room.management.commands._holdem_floor import holdem_floor_hand

    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for stacks, button, deck, seed in specs:
            holdem_floor_hand(stacks, button, deck, random.Random(seed))
        best = min(best, time.perf_counter() - t0)
    return {"what": "a bare loop: blinds, deal, betting, board, showdown values and pots; "
                    "no checks, no records, no rake",
            "hands": len(specs), "hands_per_second": round(len(specs) / best)}
