"""``manage.py bench_hands``: evaluations per second of our batch evaluators and peers.

Prints one JSON object on stdout (progress goes to stderr). Our evaluators run on
``--hands`` random hands (default 1,000,000, seeded); treys (7-card high only) and
pokerkit run on the first ``--peer-hands`` of the same hands, because they are pure
Python and orders of magnitude slower. ``ratio`` is ours / peer in evaluations per second.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from casino.domain.cards import format_card
from casino.domain.hands import fast


def deal(rng: np.random.Generator, n: int, k: int, chunk: int = 100_000) -> np.ndarray:
    """``n`` random ``k``-card hands (distinct cards within a hand) as uint8 ids."""
    out = np.empty((n, k), dtype=np.uint8)
    for i in range(0, n, chunk):
        m = min(chunk, n - i)
        out[i:i + m] = np.argpartition(rng.random((m, 52)), k, axis=1)[:, :k]
    return out


def _rate(n: int, fn: Callable[[], Any], repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


class Command(BaseCommand):
    help = "Benchmark the batch hand evaluators against treys and pokerkit (JSON on stdout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=1_000_000)
        parser.add_argument("--seed", type=int, default=20261121)
        parser.add_argument("--peer-hands", type=int, default=20_000,
                            help="hands for the (slow) treys and pokerkit runs; 0 skips them")
        parser.add_argument("--repeat", type=int, default=3,
                            help="time our evaluators this many times and keep the best")

    def handle(self, *args: Any, **options: Any) -> None:
        n, peer_n = options["hands"], options["peer_hands"]
        if n <= 0 or peer_n < 0:
            raise CommandError("invalid_option: --hands must be positive and "
                               "--peer-hands not negative")
        peer_n = min(peer_n, n)
        rng = np.random.default_rng(options["seed"])
        t0 = time.perf_counter()
        fast.tables()
        build = time.perf_counter() - t0
        nine = deal(rng, n, 9)       # Omaha: 4 hole + 5 board; the others use a prefix
        badugi4 = nine[:, :4]
        ours: dict[str, Callable[[np.ndarray], Any]] = {
            "high7": lambda a: fast.high_batch(a[:, :7]),
            "high5": lambda a: fast.high_batch(a[:, :5]),
            "omaha_hilo8": lambda a: fast.omaha_hilo8_batch(a[:, :4], a[:, 4:9]),
            "a5_low7": lambda a: fast.a5_low_batch(a[:, :7]),
            "a5_low5": lambda a: fast.a5_low_batch(a[:, :5]),
            "deuce7_low5": lambda a: fast.deuce7_low_batch(a[:, :5]),
            "deuce7_low7": lambda a: fast.deuce7_low_batch(a[:, :7]),
            "badugi": lambda a: fast.badugi_batch(a[:, :4]),
        }
        results: dict[str, Any] = {}
        for name, fn in tqdm(ours.items(), desc="ours", file=sys.stderr):
            arr = np.ascontiguousarray(nine)
            results[name] = {"hands": n, "ours_per_s": round(_rate(n, lambda: fn(arr),
                                                                    options["repeat"]))}
        if peer_n:
            self._peers(results, nine[:peer_n], badugi4[:peer_n])
        out = {
            "hands": n, "seed": options["seed"], "peer_hands": peer_n,
            "table_build_s": round(build, 3),
            "note": ("ours = numpy batch evaluators on all hands (best of --repeat runs); "
                     "peers on the first peer_hands of the same hands, one hand per call; "
                     "pokerkit Omaha (60 groupings per hand, high and low) on a tenth of them; "
                     "ratio = ours_per_s / peer_per_s; suffix 5/7 = cards per hand, "
                     "Omaha = 4 hole + 5 board with high and eight-or-better low, "
                     "Badugi = 4 cards; treys has no low or Badugi evaluator"),
            "machine": {"python": platform.python_version(), "numpy": np.__version__},
            "results": results,
        }
        self.stdout.write(json.dumps(out, indent=2))

    def _peers(self, results: dict[str, Any], nine: np.ndarray, four: np.ndarray) -> None:
        m = len(nine)
        treys_rate = _treys_high7(nine[:, :7])
        if treys_rate is not None:
            results["high7"]["treys_per_s"] = round(treys_rate)
            results["high7"]["ratio_vs_treys"] = round(results["high7"]["ours_per_s"]
                                                       / treys_rate, 1)
        import pokerkit as pk
        text = [format_card(c) for c in range(52)]
        cards = [next(iter(pk.Card.parse(t))) for t in text]
        hands = [[cards[c] for c in row] for row in nine.tolist()]
        fours = [[cards[c] for c in row] for row in four.tolist()]
        jobs: dict[str, Callable[[int], Any]] = {
            "high7": lambda i: pk.StandardHighHand.from_game(hands[i][:7]),
            "high5": lambda i: pk.StandardHighHand(hands[i][:5]),
            "omaha_hilo8": lambda i: (pk.OmahaHoldemHand.from_game(hands[i][:4], hands[i][4:]),
                                      pk.OmahaEightOrBetterLowHand.from_game_or_none(
                                          hands[i][:4], hands[i][4:])),
            "a5_low7": lambda i: pk.RegularLowHand.from_game(hands[i][:7]),
            "a5_low5": lambda i: pk.RegularLowHand(hands[i][:5]),
            "deuce7_low5": lambda i: pk.StandardLowHand(hands[i][:5]),
            "deuce7_low7": lambda i: pk.StandardLowHand.from_game(hands[i][:7]),
            "badugi": lambda i: pk.BadugiHand.from_game(fours[i]),
        }
        for name, job in jobs.items():
            # Omaha in pokerkit is slow (60 combinations per hand): a tenth of the sample
            k = max(1, m // 10) if name == "omaha_hilo8" else m
            t0 = time.perf_counter()
            for i in tqdm(range(k), desc=f"pokerkit {name}", file=sys.stderr, leave=False):
                job(i)
            rate = k / (time.perf_counter() - t0)
            results[name]["pokerkit_hands"] = k
            results[name]["pokerkit_per_s"] = round(rate)
            results[name]["ratio_vs_pokerkit"] = round(results[name]["ours_per_s"] / rate, 1)


def _treys_high7(seven: np.ndarray) -> float | None:
    try:
        from treys import Card, Evaluator
    except ImportError:  # pragma: no cover - treys is pinned in requirements
        return None
    ev = Evaluator()
    ints = [Card.new(format_card(c)) for c in range(52)]
    hands = [[ints[c] for c in row] for row in seven.tolist()]
    t0 = time.perf_counter()
    for h in tqdm(hands, desc="treys high7", file=sys.stderr, leave=False):
        ev.evaluate(h[:2], h[2:])
    return len(hands) / (time.perf_counter() - t0)
