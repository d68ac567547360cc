"""Hypothesis over random hands of every game: chips are conserved and nobody wins more
from a pot than they could be eligible for (§ 637a.8(b)(5)(i), § 637a.17)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker_room.domain.games import POKER_SPECS
from poker_room.domain.hand import Hand
from poker_room.domain.ledger import balances
from poker_room.domain.pots import side_pots
from poker_room.domain.simulate import random_hand
from tests.poker_room._helpers import pct_rake, rules

RAKE = pct_rake(500, 300)
BAD_BEAT = {"contribution": {"method": "fixed", "amount_cents": 50},
            "maximum_per_pot_cents": 50, "minimum_pot_cents": 500,
            "qualifying_hand": {"losing_hand_at_least": "four-of-a-kind"},
            "payout_shares_bp": {"losing_hand": 10_000}}


def _check(h: Hand) -> None:
    start = sum(h._start)
    taken = h.result["rake"] + sum(a for _, a in h.result["contributions"])
    assert sum(h.stacks.values()) + taken == start  # conservation
    assert balances(h.events)["pot"] == 0
    # eligibility: a player's winnings never exceed the pots he reached
    contrib = {}
    for e in h.events:
        t, d = e["type"], e["data"]
        if t == "AntesPosted":
            for s, a in d["amounts"]:
                contrib[s] = contrib.get(s, 0) + a
        elif "amount" in d and t in ("BlindPosted", "BringInPosted", "PlayerCalled",
                                     "PlayerBet", "PlayerRaised"):
            contrib[d["seat"]] = contrib.get(d["seat"], 0) + d["amount"]
        elif t == "UncalledBetReturned":
            contrib[d["seat"]] -= d["amount"]
    seats = h.seats
    c = [contrib.get(s, 0) for s in seats]
    live = list(h._live)
    pots = side_pots(c, live)
    won = {}
    for e in h.events:
        if e["type"] == "PotAwarded":
            d = e["data"]
            assert seats.index(d["seat"]) in pots[d["pot"]][1]
            won[d["seat"]] = won.get(d["seat"], 0) + d["amount"]
    for s, w in won.items():
        reach = sum(a for a, elig in pots if seats.index(s) in elig)
        assert w <= reach


@pytest.mark.parametrize("game", sorted(POKER_SPECS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10),
       structure=st.sampled_from(["fixed-limit", "pot-limit", "no-limit"]),
       raked=st.booleans())
def test_chips_conserved_and_winnings_within_eligibility(game, seed, players, structure,
                                                          raked):
    spec = POKER_SPECS[game]
    kw = {"structure": structure, "ante_cents": 10}
    if raked:
        kw.update(rake=RAKE, bad_beat=BAD_BEAT)
    h = random_hand(rules(game, **kw), random.Random(seed),
                    players=min(players, spec.max_players))
    _check(h)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(POKER_SPECS))
def test_many_random_hands_conserve_chips(game):
    rng = random.Random(hash(game) & 0xFFFF)
    spec = POKER_SPECS[game]
    for k in range(1_500):
        structure = ("fixed-limit", "pot-limit", "no-limit")[k % 3]
        h = random_hand(rules(game, structure=structure, ante_cents=10, rake=RAKE,
                              bad_beat=BAD_BEAT), rng,
                        players=rng.randint(2, spec.max_players))
        _check(h)
