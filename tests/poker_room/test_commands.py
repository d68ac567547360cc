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
    floor = report["games"]["holdem"]["floor"]
    assert floor["hands"] == 200 and floor["hands_per_second"] > 0


def test_the_bench_floor_plays_whole_hands_and_loses_no_chip():
    """The bench's floor (a bare Hold'em loop, 637a.11(d)-(k)) plays real hands: the
    blinds go in, the chips only move between the players, and on a board where seat 2's
    aces beat everyone a check-down leaves every chip where the hand worked out says."""
    import random

    from poker_room.management.commands._holdem_floor import holdem_floor_hand

    rng = random.Random(7)
    for _ in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        stacks = {s: rng.randint(400, 20_000) for s in range(1, 7)}
        final = holdem_floor_hand(stacks, 1 + rng.randrange(6), deck, random.Random(rng.random()))
        assert sum(final) == sum(stacks.values()) and min(final) >= 0


class _NeverRaises(random.Random):
    def random(self) -> float:
        return 0.5  # neither a raise (below 1/3) nor a fold (above 2/3): call or check


def test_the_bench_floor_check_down_pays_the_best_hand():
    """§ 637a.11(k): three players, button seat 3, blinds $1 and $2 from seats 1 and 2;
    every player calls and checks. The board 9-J-Q-K-T gives everyone a straight; seat 2's
    ace makes the best, ace high: the pot of 3 x $2 = $6 goes to seat 2."""
    from casino.domain.cards import parse_card
    from poker_room.management.commands._holdem_floor import holdem_floor_hand

    # dealt from the top, one card at a time from the button's left: 1, 2, 3, 1, 2, 3;
    # then burn, flop, burn, turn, burn, river
    order = ["2c", "As", "7h", "3d", "Ad", "8h", "4c", "9s", "Jd", "Qc", "5s", "Kd", "6h",
             "Tc"]
    top = [parse_card(c) for c in order]
    deck = top + [c for c in range(52) if c not in top]
    final = holdem_floor_hand({1: 1_000, 2: 1_000, 3: 1_000}, 3, deck, _NeverRaises())
    assert final == [800, 1_400, 800]

