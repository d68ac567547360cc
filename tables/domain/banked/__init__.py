"""House-banked rounds (Lunar Poker under chapters 589 and 671a, Five Card Hi-Lo under
chapter 579) as a pure event-sourced state machine: no Django, no I/O.

* :func:`decide` / :func:`execute` — a command in, events out (:mod:`.round`);
* :func:`evolve` / :func:`rebuild` — events in, state out (:mod:`.events`);
* :func:`settle_script` — a whole round from a JSON script (:mod:`.script`);
* :mod:`.simulate` — dealt rounds with a simple strategy, and the benchmark.
"""

from tables.domain.banked.events import EVENT_TYPES, evolve, rebuild
from tables.domain.banked.round import COMMANDS, decide, execute
from tables.domain.banked.script import settle_script
from tables.domain.banked.state import Phase, Position, RoundState

__all__ = ["COMMANDS", "EVENT_TYPES", "Phase", "Position", "RoundState", "decide", "evolve",
           "execute", "rebuild", "settle_script"]
