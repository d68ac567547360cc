"""The estimated wait of each place on a list (issue 24, item 7): plain arithmetic on the
seat openings the list's game had in the last hours.

The model. Seats at the game's tables open one at a time, at random, at a steady rate: a
Poisson process of rate ``r`` openings a minute. Each opening goes to the first waiting
player, so the player ``k``-th in line is seated at the ``k``-th opening from now, and the
time to it is the sum of ``k`` independent exponential gaps: Erlang(k, r) (the process has
no memory, so how long ago the last seat opened does not matter). The range shown is its
20th to 80th percentile (a 60% interval: narrow enough to plan by, and a player's actual
wait falls outside it one time in five each way), each end to the nearest whole minute
(not outwards: on the short waits of the first places, 0.7-5.4 minutes say, rounding out
to 0-6 would make it an 80% interval), the high end at least 1.

The rate is measured, not assumed (:func:`turnover`): the openings the list actually got in
the window, per minute of a table of the game being open, times the tables open now (a
table opened or broken in the window changes the rate at once). Which seat-leavings are
openings for the list:

* a ``PlayerLeft`` or ``PlayerRemoved`` at a table of the game is one;
* a move within the game (``PlayerMoved``) is a leaving (its own ``PlayerLeft``) that
  brings the list no new seat, so it counts one less: the must-move player who left a
  feeder took the main game's seat, and the list gets the feeder's (one opening of the
  two leavings); a broken table's seat is gone with the table. A table change called from
  the list (``PlayerMoved`` with its ``entry``) is the exception: the change was in line
  and took the list's seat, and the seat it left goes to the next (both count);
* a table opened (by lot or not) brings a burst of seats once, not a rate: it counts in
  the open table-minutes from then on, not as openings (else the burst would shorten every
  estimate of the next hours).

With fewer than the minimum openings in the window (or no table of the game open, an
interest list) the wait is unknown (None). The estimate ignores the minutes between a
seat's opening and the called player sitting down, and players seated without the list.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: the percentiles of the time to the k-th opening that the range shows
LOW_PERCENTILE, HIGH_PERCENTILE = 0.20, 0.80

#: seat-leavings in a ``poker_table-<id>`` stream
LEAVES = ("PlayerLeft", "PlayerRemoved")
#: a table's opening and closing in its ``table-<id>`` stream
TABLE_STATUS = ("TableOpened", "TableClosed")
#: the list's own stream: moves (its draws by lot are read too, as the partial index of
#: migration poker_floor/0002 names them, and count nothing)
LIST_FACTS = ("PlayerMoved", "TableOpenedByLot", "TableBrokenByLot")
#: every event type the estimate reads, in one query (the partial index's predicate)
EVENT_TYPES = LEAVES + TABLE_STATUS + LIST_FACTS


# --- the Erlang distribution -----------------------------------------------------------

def erlang_cdf(t: float, k: int, rate: float) -> float:
    """P(the k-th opening comes within t) = P(a Poisson(rate·t) count is at least k)
    = 1 - Σ_{n<k} e^{-x} x^n / n!, with x = rate·t. Each term is taken from the last in
    logarithms (log x^n/n! e^{-x} = the last's + log x - log n), so neither x^n nor n!
    overflows and e^{-x} is never taken alone (it is 0.0 in floating point past x ≈ 745,
    which a long list reaches); a term too small for a float is too small to count."""
    if k < 1:
        raise ValueError("k counts openings from 1")
    if rate <= 0:
        raise ValueError("the rate is positive")
    if t <= 0:
        return 0.0
    x = rate * t
    log_x = math.log(x)
    log_term, below = -x, 0.0
    for n in range(1, k + 1):
        below += math.exp(log_term)
        log_term += log_x - _LOG[n] if n < len(_LOG) else log_x - math.log(n)
    return min(1.0, max(0.0, 1.0 - below))


#: log n for the terms of the sum (log 0 is never used)
_LOG = [0.0] + [math.log(n) for n in range(1, 2001)]


def erlang_quantile(p: float, k: int, rate: float, *, tolerance: float | None = None
                    ) -> float:
    """The time by which the k-th opening has come with probability p: the CDF solved by
    bisection (it rises monotonically from 0) to within ``tolerance`` (a millionth of the
    mean by default). The bisection starts from a bracket around the Wilson-Hilferty
    approximation of the quantile, checked against the CDF and widened until it holds."""
    if not 0 < p < 1:
        raise ValueError("p is strictly between 0 and 1")
    if k < 1 or rate <= 0:
        raise ValueError("k counts openings from 1; the rate is positive")
    mean = k / rate
    step = tolerance if tolerance is not None else 1e-6 * mean
    guess = _wilson_hilferty(p, k) / rate
    low, high = guess * 0.95, guess * 1.05
    while erlang_cdf(low, k, rate) >= p:
        low /= 2
    while erlang_cdf(high, k, rate) < p:
        high *= 2
    while high - low > step:
        middle = (low + high) / 2
        if erlang_cdf(middle, k, rate) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _wilson_hilferty(p: float, k: int) -> float:
    """The p-quantile of Gamma(k, 1) by the Wilson-Hilferty cube-root approximation
    (within a few per cent for every k ≥ 1 at the percentiles used here)."""
    z = statistics.NormalDist().inv_cdf(p)
    c = 1 / (9 * k)
    return max(k * (1 - c + z * math.sqrt(c)) ** 3, 1e-9 * k)


@dataclass(frozen=True)
class WaitRange:
    """The wait of one place on the list, in whole minutes (low ≤ high)."""

    position: int
    low_minutes: int
    high_minutes: int

    def as_dict(self) -> dict[str, int]:
        return {"position": self.position, "low_minutes": self.low_minutes,
                "high_minutes": self.high_minutes}


@functools.lru_cache(maxsize=4096)
def wait_range(position: int, rate_per_minute: float) -> WaitRange:
    """The LOW_PERCENTILE..HIGH_PERCENTILE range of the wait of the ``position``-th in line
    (1-based), each end to the nearest whole minute (a half up), the high end at least 1."""
    # (a thousandth of a minute is fine enough to round to whole minutes)
    low = erlang_quantile(LOW_PERCENTILE, position, rate_per_minute, tolerance=1e-3)
    high = erlang_quantile(HIGH_PERCENTILE, position, rate_per_minute, tolerance=1e-3)
    return WaitRange(position, _nearest(low), max(1, _nearest(high)))


def _nearest(minutes: float) -> int:
    return math.floor(minutes + 0.5)


# --- the measured rate -----------------------------------------------------------------

@dataclass(frozen=True)
class Fact:
    """One event the estimate reads: its type, stream, time and data."""

    type: str
    stream_id: str
    at: datetime
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Turnover:
    """What the window measured: the openings the list got, the minutes tables of the game
    were open (summed over tables), and the tables open at the end of it."""

    openings: int
    table_minutes: float
    tables_open: int

    @property
    def rate_per_minute(self) -> float:
        """Openings a minute now: per open table-minute in the window, times the tables
        open now (0 without a measure)."""
        if self.table_minutes <= 0 or self.openings <= 0:
            return 0.0
        return self.openings / self.table_minutes * self.tables_open


def openings(facts: Iterable[Fact]) -> int:
    """The openings the list got among ``facts`` (the rules in the module's docstring);
    never below 0."""
    count = 0
    for fact in facts:
        if fact.type in LEAVES:
            count += 1
        elif fact.type == "PlayerMoved" and not (
                fact.data.get("why") == "table_change" and fact.data.get("entry")):
            count -= 1
    return max(0, count)


def open_minutes(open_now: bool, changes: Iterable[tuple[datetime, bool]], since: datetime,
                 until: datetime, present: datetime) -> float:
    """The minutes within ``since..until`` that one table was open, from whether it is open
    at ``present`` (≥ until) and its openings (True) and closings (False) since ``since``:
    walked back from the present, before each change the table was as the change undid."""
    state, at, minutes = open_now, present, 0.0
    for when, opened in sorted(changes, key=lambda c: c[0], reverse=True):
        if state:
            minutes += _overlap(when, at, since, until)
        state, at = not opened, when
    if state:
        minutes += _overlap(since, at, since, until)
    return minutes


def open_at(open_now: bool, changes: Iterable[tuple[datetime, bool]], moment: datetime) -> bool:
    """Whether a table open (or not) now was open at ``moment``: as its first change after
    that moment found it (the opposite of what that change made it), else as it is now."""
    after = [c for c in changes if c[0] > moment]
    if not after:
        return open_now
    return not min(after, key=lambda c: c[0])[1]


def _overlap(start: datetime, end: datetime, since: datetime, until: datetime) -> float:
    low, high = max(start, since), min(end, until)
    return max(0.0, (high - low).total_seconds() / 60)


def turnover(facts: Iterable[Fact], *, tables: Mapping[str, tuple[str, bool]],
             since: datetime, until: datetime, present: datetime) -> Turnover:
    """The window ``since..until`` measured from ``facts`` (every fact of EVENT_TYPES
    recorded from ``since`` to ``present`` in the game's streams: its tables' and its
    list's). ``tables`` maps each table of the game's ``table-<id>`` stream to its
    ``poker_table-<id>`` stream and whether it is open at ``present``; a table's status is
    walked back from then, so a window in the past is measured as it was."""
    facts = list(facts)
    changes: dict[str, list[tuple[datetime, bool]]] = {s: [] for s in tables}
    for fact in facts:
        if fact.type in TABLE_STATUS and fact.stream_id in changes:
            changes[fact.stream_id].append((fact.at, fact.type == "TableOpened"))
    table_minutes = sum(open_minutes(is_open, changes[s], since, until, present)
                        for s, (_poker, is_open) in tables.items())
    tables_open = sum(open_at(is_open, changes[s], until)
                      for s, (_poker, is_open) in tables.items())
    poker = {p for p, _is_open in tables.values()}
    counted = [f for f in facts if since <= f.at <= until and f.type not in TABLE_STATUS
               and (f.type not in LEAVES or f.stream_id in poker)]
    return Turnover(openings(counted), table_minutes, tables_open)


def estimated_waits(turnover: Turnover, positions: int,
                    min_openings: int) -> list[WaitRange | None]:
    """The range for each of the first ``positions`` places in line; None for each when
    the window saw fewer than ``min_openings`` openings or no table of the game is open."""
    rate = turnover.rate_per_minute
    if turnover.openings < min_openings or rate <= 0:
        return [None] * positions
    return [wait_range(k, rate) for k in range(1, positions + 1)]
