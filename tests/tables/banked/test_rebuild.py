"""Events are the record: replaying them rebuilds the same state, they survive JSON, and
decide never changes the state it is given (DESIGN §2, §3)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from tables.domain.banked import EVENT_TYPES, decide, evolve, execute, rebuild, settle_script
from tables.domain.banked.simulate import play_round

from .drive import Table

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.json"))


def _money_is_whole_cents(value: object) -> bool:
    if isinstance(value, dict):
        return all(_money_is_whole_cents(v) for v in value.values())
    if isinstance(value, list):
        return all(_money_is_whole_cents(v) for v in value)
    return not isinstance(value, float)


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_prefix_of_a_scripted_round_rebuilds(path: Path) -> None:
    result = settle_script(json.loads(path.read_text(encoding="utf-8")))
    events = result["events"]
    state = None
    for i, ev in enumerate(events):
        state = evolve(state, ev)
        assert rebuild(events[: i + 1]) == state
    decoded = json.loads(json.dumps(events))
    assert decoded == events  # plain JSON-ready dicts
    assert rebuild(decoded) == state
    assert _money_is_whole_cents(events)


@pytest.mark.parametrize("game", ["lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo"])
def test_dealt_rounds_rebuild_from_their_events(game: str) -> None:
    rng = random.Random(7)
    for _ in range(50):
        played = play_round(game, None, rng, positions=rng.randint(1, 5))
        assert rebuild(json.loads(json.dumps(played.events))) == played.state


def test_decide_returns_events_that_evolve_to_the_executed_state() -> None:
    t = Table("lunar-poker-589")
    t.wager(1, "ante", 1000)
    t.deal({1: "2c 2d 8h 9s Jc"}, "Ad Kh 5c 6h Tc")
    before = copy.deepcopy(t.state)
    cmd = {"type": "decision", "position": 1, "decision": "bet"}
    events = decide(t.state, cmd)
    assert t.state == before  # decide changed nothing
    after, same = execute(t.state, cmd)
    assert events == same
    state = t.state
    for ev in events:
        state = evolve(state, ev)
    assert state == after


def test_every_event_type_has_a_reducer() -> None:
    assert set(EVENT_TYPES) >= {"RoundOpened", "WagerSettled", "RoundVoided", "RoundClosed"}
    with pytest.raises(ValueError):
        evolve(None, {"type": "no_such_event", "data": {}})
