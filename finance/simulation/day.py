"""The day played: the tables opened and played at the day's start, closed and the jackpot
boxes counted before its end, the drops counted and the day closed after it, each step
under this process's clock set to that moment (``time_machine``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import time_machine
from django.utils import timezone

from casino.domain.errors import DomainError
from casino.domain.gaming_day import gaming_day_bounds
from casino.eventstore import projections
from casino.eventstore.models import Event
from casino.models import Property
from finance import services as fin
from finance.models import FinanceException, GamingDay
from finance.simulation.banked import play_banked
from finance.simulation.crew import Crew, crew_of
from finance.simulation.jackpot_boxes import count_jackpot_boxes
from finance.simulation.plan import (
    BANKED_OPENER,
    POKER_OPENER,
    TABLES,
    Plan,
    Refused,
    Stopped,
    Tick,
    check_day,
)
from finance.simulation.poker import PokerDealer, play_poker
from finance.simulation.table_day import Played, _inventory, _table, close_table, count_drop
from tables.demo import example_rules_in_effect

#: when things happen in the simulated day
OPEN_AFTER_START = timedelta(minutes=10)
CLOSE_BEFORE_END = timedelta(minutes=30)
COUNT_AFTER_END = timedelta(minutes=10)


@dataclass
class DayResult:
    day: date
    property: Property
    tables: list[Played]
    events: int
    gaming_day: GamingDay
    exceptions: list[FinanceException]
    jackpot_counts: int
    open_items: list[dict[str, Any]]
    #: what the simulation could not do, for the reader
    notes: list[str] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        return sum(p.rounds for p in self.tables)

    @property
    def hands(self) -> int:
        return sum(p.hands for p in self.tables)


def _travel(moment: datetime) -> Any:
    """This process's clock at ``moment``, ticking on from there."""
    return time_machine.travel(moment, tick=True)


def steps(plan: Plan) -> int:
    """How many rounds and hands the plan deals (the progress bar's total)."""
    banked = sum(1 for t in TABLES if not t.poker)
    return banked * plan.rounds + (len(TABLES) - banked) * plan.hands


def simulate_day(prop: Property, plan: Plan, *, tick: Tick | None = None) -> DayResult:
    """Play ``plan.day`` at ``prop`` and close it. Refused (:class:`Refused`, nothing
    played) for a day that has not ended, was played or is closed, or without the demo
    staff; :class:`Stopped` when a step is refused part-way (the day is left part-played,
    and so refused the next time)."""
    crew = crew_of(prop)
    check_day(prop, plan.day)
    before = Event.objects.count()
    try:
        result = _play(prop, plan, crew, tick or (lambda _name: None))
    except (Refused, DomainError) as exc:
        raise Stopped(exc.code, f"the gaming day {plan.day} was left part-played: "
                      f"{exc.message}") from exc
    result.events = Event.objects.count() - before
    return result


def _play(prop: Property, plan: Plan, crew: Crew, tick: Tick) -> DayResult:
    rng = random.Random(plan.seed)
    start, end = gaming_day_bounds(plan.day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    played: list[Played] = []
    notes: list[str] = []
    dealers: dict[str, PokerDealer] = {}

    # the day: the tables open and play
    with _travel(start + OPEN_AFTER_START):
        for game in dict.fromkeys(t.game for t in TABLES):
            example_rules_in_effect(crew.people, game)
        for spec in TABLES:
            p = Played(spec, _table(spec, crew), plan.day)
            _inventory(crew, p.table, "opener", POKER_OPENER if spec.poker else BANKED_OPENER)
            played.append(p)
        for p in played:
            if p.spec.poker:
                dealers[p.spec.name] = play_poker(p, crew, plan.hands, tick)
            else:
                play_banked(p, crew, plan.rounds, rng, tick)

    # half an hour before the day ends: the players leave, the tables close, the jackpot
    # boxes are counted and the displays adjusted
    with _travel(end - CLOSE_BEFORE_END):
        for p in played:
            if p.spec.poker:
                dealers[p.spec.name].players_leave()
            close_table(p, crew, plan.day)
        counted = count_jackpot_boxes(crew)

    # after the day: the drop boxes removed and counted, the day closed
    now = timezone.now()
    with _travel(max(end + timedelta(seconds=1), min(end + COUNT_AFTER_END, now))):
        for p in played:
            count_drop(p, crew, plan.day,
                       plan.short_cents if p.spec.name == plan.short_table else 0)
        items = fin.open_items(prop, plan.day)
        row = fin.gaming_day_close(actor=crew.finance, gaming_day=plan.day,
                                   with_open_items=bool(items))
    projections.catch_up_all()
    return DayResult(
        day=plan.day, property=prop, tables=played, events=0,
        gaming_day=row, open_items=items, jackpot_counts=counted, notes=notes,
        exceptions=list(FinanceException.objects.filter(property=prop, gaming_day=plan.day)
                        .order_by("recorded_at")))
