"""A simulated gaming day for the demo (issue 15, "Demo"): tables opened, banked rounds and
poker hands played through the real services, every finance step a person takes on the
way (the tray's slips, chips sold for cash, a fill and a credit through all their
signatures, the drop removed, counted, signed and accepted, the jackpot payout boxes
counted and the displayed amounts adjusted), and the day closed by finance, so that a new
user finds every report filled. ``manage.py simulate_gaming_day`` runs it.

A gaming day closes only once it has ended (:func:`finance.services.gaming_day_close`),
and every service stamps its events with the clock. So the day played is one that has
ended (the previous one by default), with this process's clock set to it
(``time_machine``, ticking): the tables open ten minutes after the day's start and play,
close half an hour before its end (closing slips, players gone, decks out, jackpot boxes
counted), and after the end security removes the drop boxes, the count team counts them,
a cashier accepts the counts and finance closes the day. Nothing is left for the
real-time sweeps (deck timers, time charges, jackpot counts) to act on afterwards.

What the count should find is known before the count: the closer is the expected closer
(opener + fills − credits − chip sales + the banked win) and every drop box holds the
expected drop (chip sales for cash, plus the rake at poker), except the one box the
caller names short, so the close finds exactly one exception: that table's drop
(DESIGN §4 "Finance"; § 637a.17 for the rake, § 637a.15(d)-(e) and § 637a.16(d)-(e) for the
jackpot boxes, § 589.11, § 671a.11 and § 579.11 for the banked tables' settlement).

The people are the demo staff of ``manage.py seed_demo``: the dealer deals every table,
the floorperson signs, the cashier prepares slips and accepts counts, security carries
slips and removes boxes, two count team members who never worked a table count and sign,
finance closes.

The package, each module importing only those above it in this list:

- ``plan``: the tables and quantities played, :class:`Plan`, ``--short``, the day checks,
  :class:`Refused` and :class:`Stopped`;
- ``crew``: the demo staff as actors;
- ``table_day``: one table's opening, tray slips, chip sales, fills and credits, closing
  and drop count;
- ``banked``, ``poker``: a table's play;
- ``jackpot_boxes``: the jackpot payout boxes' count;
- ``day``: the day itself (:func:`simulate_day`).
"""

from finance.simulation.day import DayResult, simulate_day, steps
from finance.simulation.plan import (
    DEFAULT_SHORT_CENTS,
    DEFAULT_SHORT_TABLE,
    TABLES,
    Plan,
    Refused,
    Stopped,
    check_day,
    current_day,
    parse_short,
    pieces,
)

__all__ = ["DEFAULT_SHORT_CENTS", "DEFAULT_SHORT_TABLE", "DayResult", "Plan", "Refused", "Stopped",
           "TABLES", "check_day", "current_day", "parse_short", "pieces", "simulate_day",
           "steps"]
