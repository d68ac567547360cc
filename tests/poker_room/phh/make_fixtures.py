"""Write the PHH fixtures: random hands of our engine played again in pokerkit, and the
history *pokerkit* writes for them (``HandHistory.from_game_state``).

    .venv/bin/python -m tests.poker_room.phh.make_fixtures
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pokerkit

from poker_room.domain.pokerkit_bridge import (
    PAIRS,
    automations,
    game_and_args,
    replay_in_pokerkit,
)
from poker_room.domain.simulate import random_hand
from tests.poker_room.test_differential_pokerkit import _rules

HERE = Path(__file__).parent


def main() -> None:
    rng = random.Random(637)
    for (game, structure), (_, code) in sorted(PAIRS.items()):
        for k in range(2):
            while True:
                h = random_hand(_rules(game, structure), rng, players=rng.randint(2, 6),
                                max_cbr=4)
                odd = any(e["type"] == "PotAwarded" and e["data"]["odd_chips"]
                          for e in h.events)
                if not odd:
                    break
            state = replay_in_pokerkit(h)
            cls, args, _ = game_and_args(h)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pk_game = cls(automations(), *args[:-2])
                hh = pokerkit.HandHistory.from_game_state(
                    pk_game, state, finishing_stacks=list(state.stacks))
            name = code.replace("/", "") + f"-{k + 1}.phh"
            (HERE / name).write_text(hh.dumps(), encoding="utf-8")
            print(name)


if __name__ == "__main__":
    main()
