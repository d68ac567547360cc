"""What the simulated day plays and refuses: the tables, the trays' quantities, the
options (:class:`Plan`, ``--short``), the day checks, and :class:`Refused`/:class:`Stopped`.
Everything else in the package builds on this module."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.utils import timezone

from casino.domain.gaming_day import gaming_day_bounds, gaming_day_of
from casino.domain.money import MoneyError, format_money, parse_money
from casino.models import Property
from finance.figures import table_day_figures
from finance.models import GamingDay
from tables.models import Round


#: called after each round or hand with the table's name (the command's progress bar)
Tick = Callable[[str], None]


class Refused(Exception):
    """The day cannot be simulated: a stable ``code`` and a sentence saying why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class Stopped(Refused):
    """A step was refused part-way through the day (the day is left part-played)."""


# --- what is played -----------------------------------------------------------------------

@dataclass(frozen=True)
class SimTable:
    name: str
    game: str
    positions: int
    dealing: str
    shuffler: str

    @property
    def poker(self) -> bool:
        return self.game == "holdem"


#: the simulation's own tables (created on first use, reopened for each day played)
TABLES = (
    SimTable("SIM-HILO-1", "five-card-hi-lo", 6, "hand", "automated"),
    SimTable("SIM-LUNAR-1", "lunar-poker-671a", 5, "automated-shoe", "automated-counting"),
    # a counting shuffler counts the poker decks, so no count interrupts the hands
    SimTable("SIM-HOLDEM-1", "holdem", 10, "hand", "automated-counting"),
    SimTable("SIM-HOLDEM-2", "holdem", 10, "hand", "automated-counting"),
)
DEFAULT_SHORT_TABLE = "SIM-HOLDEM-1"
DEFAULT_SHORT_CENTS = 50_00

#: the trays' opening inventories (cents: pieces): $9,500.00 banked, $3,500.00 poker
BANKED_OPENER = {"10000": 40, "2500": 160, "500": 200, "100": 500}
POKER_OPENER = {"2500": 80, "500": 200, "100": 500}
#: one fill and one credit at every table: $1,000.00 / $500.00 banked, $500.00 / $250.00 poker
BANKED_FILL, BANKED_CREDIT = {"2500": 40}, {"10000": 5}
POKER_FILL, POKER_CREDIT = {"500": 100}, {"2500": 10}
#: chips bought for cash at a banked table: each position at the start, one more later
BANKED_BUY_IN, BANKED_TOP_UP = 200_00, 100_00
#: a tray whose expected contents fall below this is filled back up to its opening
#: inventory, in $500.00 steps (a banked game's big payout can empty a tray in a round)
BANKED_TRAY_LOW, POKER_TRAY_LOW, FILL_STEP = 2_000_00, 1_000_00, 500_00
#: poker: six players buy in for $300.00; one below $24.00 (the most a hand of this
#: calling-station game costs at 4/8 fixed limit) adds $200.00 before the next hand
POKER_PLAYERS, POKER_BUY_IN, POKER_TOP_UP, POKER_LOW = 6, 300_00, 200_00, 24_00
#: the largest shortage: less than the smallest table's opening chip sales (5 x $200.00)
MOST_SHORT_CENTS = 1_000_00


def pieces(cents: int, denominations: tuple[int, ...], what: str) -> dict[str, int]:
    """``cents`` as pieces, largest denominations first; an amount no piece can make up
    (below the smallest) is refused rather than rounded."""
    out: dict[str, int] = {}
    left = cents
    for d in sorted(denominations, reverse=True):
        n, left = divmod(left, d)
        if n:
            out[str(d)] = n
    if left or cents < 0:
        raise Refused("not_countable", f"{what} of {format_money(cents)} cannot be made up "
                      f"of pieces of {', '.join(format_money(d) for d in denominations)}")
    return out


# --- the options ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """What to play: the day, rounds per banked table, hands per poker table, the table
    whose drop box is short and by how much (or none)."""

    day: date
    rounds: int = 12
    hands: int = 12
    short_table: str | None = DEFAULT_SHORT_TABLE
    short_cents: int = DEFAULT_SHORT_CENTS
    seed: int | None = None


def parse_short(value: str | None) -> tuple[str | None, int]:
    """``TABLE:AMOUNT`` (e.g. ``SIM-HOLDEM-1:50.00``), or ``none``; default the first poker
    table $50.00 short. Whole dollars (bills missing from the box), at most $1,000.00."""
    if value is None:
        return DEFAULT_SHORT_TABLE, DEFAULT_SHORT_CENTS
    if value.strip().lower() == "none":
        return None, 0
    name, sep, amount = value.partition(":")
    names = [t.name for t in TABLES]
    if not sep or name not in names:
        raise Refused("invalid_short", f"--short is TABLE:AMOUNT with TABLE one of "
                      f"{', '.join(names)} (e.g. {DEFAULT_SHORT_TABLE}:50.00), or none")
    try:
        cents = parse_money(amount)
    except MoneyError as exc:
        raise Refused("invalid_short", exc.message) from None
    if cents <= 0 or cents % 100 or cents > MOST_SHORT_CENTS:
        raise Refused("invalid_short", "the shortage is whole dollars (bills missing from "
                      f"the box), from $1.00 to {format_money(MOST_SHORT_CENTS)}")
    return name, cents


# --- which day ------------------------------------------------------------------------------

def current_day(prop: Property, now: datetime | None = None) -> date:
    return gaming_day_of(now or timezone.now(), time_zone=prop.time_zone,
                         start_hour=prop.gaming_day_start_hour)


def check_day(prop: Property, day: date) -> None:
    """Refuse a day that has not ended (``gaming_day_not_ended``), one closed already
    (``gaming_day_closed``), or one with anything played or recorded at a table
    (``gaming_day_played``): the simulation plays a day of its own."""
    today = current_day(prop)
    if day >= today:
        raise Refused("gaming_day_not_ended", f"the gaming day {day} has not ended (the "
                      f"current one is {today}); simulate an ended day, e.g. "
                      f"{today - timedelta(days=1)}")
    row = GamingDay.objects.filter(property=prop, gaming_day=day).first()
    if row is not None and row.state == "closed":
        raise Refused("gaming_day_closed", f"the gaming day {day} is closed already")
    start, end = gaming_day_bounds(day, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    if row is not None or table_day_figures(prop, day) or Round.objects.filter(
            table__property=prop, opened_at__gte=start, opened_at__lt=end).exists():
        raise Refused("gaming_day_played", f"the gaming day {day} has play recorded "
                      "already; simulate another day (--day)")
