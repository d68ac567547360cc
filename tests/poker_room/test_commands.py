"""``replay_phh`` and ``bench_poker`` (no database)."""

from __future__ import annotations

import io
import json
import random
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from poker_room.domain.phh import replay, to_phh
from poker_room.domain.simulate import random_hand
from tests.poker_room._helpers import rules

PHH = sorted((Path(__file__).parent / "phh").glob("*.phh"))


def test_fixtures_cover_every_variant():
    variants = {tomllib.loads(p.read_text())["variant"] for p in PHH}
    assert variants == {"FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"}


def test_replay_phh_reproduces_pokerkit_finishing_stacks():
    out = io.StringIO()
    call_command("replay_phh", *map(str, PHH), stdout=out, stderr=io.StringIO())
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert rows and all(r["finishing_stack"] == r["expected"] for r in rows)
    assert {r["file"] for r in rows} == set(map(str, PHH))


def test_replay_phh_names_the_file_that_disagrees(tmp_path):
    data = PHH[0].read_text().replace("finishing_stacks = [", "finishing_stacks = [1")
    bad = tmp_path / "bad.phh"
    bad.write_text(data)
    with pytest.raises(CommandError, match="finishing_stacks_mismatch: .*bad.phh"):
        call_command("replay_phh", str(PHH[1]), str(bad), stdout=io.StringIO(),
                     stderr=io.StringIO())


def test_export_any_game_and_replay_roundtrip():
    """Every game exports to PHH; the nine PHH variants replay to the same stacks."""
    from poker_room.domain.games import POKER_SPECS
    rng = random.Random(8)
    for game in POKER_SPECS:
        h = random_hand(rules(game), rng, players=3)
        text = to_phh(h)
        data = tomllib.loads(text)
        assert data["finishing_stacks"] == [h._stacks[i] for i in
                                            ([1, 2, 0] if h.spec.uses_button and
                                             h._button == 0 else
                                             [(h._button + 1 + k) % 3 for k in range(3)]
                                             if h.spec.uses_button else [0, 1, 2])]
        if not data["variant"].startswith("PA:") and game != "holdem":
            again = replay(text)
            assert [again.stacks[s] for s in sorted(again.stacks)] == data["finishing_stacks"]


def test_bench_poker_small_run():
    out = io.StringIO()
    call_command("bench_poker", "--hands", "200", "--peer-hands", "20", stdout=out,
                 stderr=io.StringIO())
    report = json.loads(out.getvalue())
    for game in ("holdem", "omaha-hilo8", "stud-high"):
        row = report["games"][game]
        assert row["hands_per_second"] > 0 and row["ratio"] > 0
        assert row["pokerkit"]["same_final_stacks"] == 20
