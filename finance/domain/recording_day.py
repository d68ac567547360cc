"""Which gaming day a finance step may be recorded against: one rule for every step,
decided here and nowhere else (the services ask :func:`recording_day`).

**The rule.** A step is recorded against the gaming day of the table day it belongs to —
never a day still to come — and only while that step can still truly happen for that
day. How long that is depends on where the step happens:

1. **While the table plays** (the dealer's chip sale for cash, the floorperson's
   request for a fill or credit): the day being played only. Cash and chips move now;
   a sale or a request is never back-dated.
2. **At the table or the cage, opening or finishing its day** (the opening and closing
   inventory slips and their signatures, a fill or credit slip's preparing, carrying,
   completing or voiding, and the drop box's removal): the day being played or the one
   just ended. A shift straddles the gaming day's boundary: the closer, the last slip
   and the box of the day just ended are dealt with at the start of the next.
3. **In the count room** (the count of a drop box, its second signature and the
   cashier's acceptance): the day being played or any ended day. A removed box may
   wait for the count room (a weekend, a holiday); a count accepted after the day's
   close is an adjustment, and its variance an exception marked ``after_close``.

Refusals: a gaming day that is not a date, or one still to come, is 400
``invalid_gaming_day``; a day further back than the step's window is 409
``gaming_day_over``.

**The opener comes before play.** The opening inventory is the tray's count before the
table's first round (or hand) of the gaming day. One recorded once a round has been
opened at the table that day is refused, 409 ``opener_after_play``, nothing appended:
chips have moved by then, so the figure would not be the opening inventory, and the
tray's variance (closer against opener + fills − credits − chip sales + the banked win)
would hide the play it should check. The day then has no opener: the close lists it as
an open item (``no_opener``), finance closes with it listed, and the day's win is the
events' (see :mod:`finance.reports.statistical`).

Pure: no Django.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from casino.domain.errors import ConflictError
from casino.domain.wall_clock import format_date
from finance.domain.table_day import FinanceError

#: the steps of each window (the event each records), and how many ended days back it
#: reaches (None: any ended day)
WHILE_PLAYING = frozenset({"ChipsSold", "SlipRequested"})
OPENING_OR_FINISHING = frozenset({
    "InventorySlipRecorded", "InventorySlipSigned", "SlipPrepared", "SlipCarried",
    "SlipCompleted", "SlipVoided", "DropBoxRemoved"})
COUNT_ROOM = frozenset({"DropCounted", "DropCountSigned", "DropCountAccepted"})
DAYS_BACK: dict[frozenset[str], int | None] = {
    WHILE_PLAYING: 0, OPENING_OR_FINISHING: 1, COUNT_ROOM: None}


def days_back(step: str) -> int | None:
    """How many ended gaming days back ``step`` (an event type) may be recorded."""
    for steps, back in DAYS_BACK.items():
        if step in steps:
            return back
    raise KeyError(f"{step} is not a finance step of a table day")


def asked_day(asked: Any, today: date) -> date:
    """The gaming day asked for (a date or YYYY-MM-DD; default ``today``, the day being
    played), never one still to come: 400 ``invalid_gaming_day`` otherwise. What a read
    of a day checks too."""
    if asked in (None, ""):
        return today
    if isinstance(asked, date):
        day = asked
    else:
        try:
            day = date.fromisoformat(str(asked))
        except ValueError:
            raise FinanceError("gaming_day is a date, YYYY-MM-DD", code="invalid_gaming_day",
                               field="gaming_day") from None
    if day > today:
        raise FinanceError(f"the gaming day {format_date(day)} has not begun", code="invalid_gaming_day",
                           field="gaming_day")
    return day


def recording_day(step: str, asked: Any, today: date) -> date:
    """The gaming day ``step`` (an event type) is recorded against: :func:`asked_day`,
    within the step's window (module docstring)."""
    back = days_back(step)
    day = asked_day(asked, today)
    if back is not None and day < today - timedelta(days=back):
        reach = "the day being played" if back == 0 else \
            "the day being played or the one just ended"
        raise ConflictError(f"the gaming day {format_date(day)} is over for this step: it is recorded "
                            f"for {reach}", code="gaming_day_over")
    return day


def check_opener_before_play(slip: str, *, played: bool) -> None:
    """409 ``opener_after_play``: the opening inventory after the table's first round or
    hand of the gaming day (module docstring)."""
    if slip == "opener" and played:
        raise ConflictError("the table has played this gaming day: the opening inventory "
                            "is counted before its first round or hand, so it is not "
                            "recorded now (the day is closed with no_opener listed)",
                            code="opener_after_play")
