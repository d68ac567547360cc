"""A banked table's play: chips sold, rounds dealt by tables' ``TableRunner``, a fill and a
credit (§ 589.11, § 671a.11 and § 579.11 for the settlement)."""

from __future__ import annotations

import random

from finance.simulation.crew import Crew
from finance.simulation.plan import BANKED_BUY_IN, BANKED_CREDIT, BANKED_FILL, BANKED_TOP_UP, Tick
from finance.simulation.table_day import Played, _sell, _slip, keep_tray
from tables.management.commands.simulate_banked import TableRunner


def play_banked(p: Played, crew: Crew, rounds: int, rng: random.Random, tick: Tick) -> None:
    """Chips sold to every position, rounds dealt (tables' TableRunner: the decks counted
    and changed as the chapters want), a fill halfway and one more player buying chips,
    then a credit; a fill whenever the tray runs low."""
    runner = TableRunner(p.table, crew.dealer, crew.floor, rng)
    for _ in range(runner.positions):
        _sell(crew, p.table, BANKED_BUY_IN)
    for n in range(rounds):
        if n == rounds // 2:
            _slip(crew, p.table, "fill", BANKED_FILL)
            _sell(crew, p.table, BANKED_TOP_UP)
        runner.play()
        p.rounds += 1
        keep_tray(p, crew)
        tick(p.spec.name)
    _slip(crew, p.table, "credit", BANKED_CREDIT)
