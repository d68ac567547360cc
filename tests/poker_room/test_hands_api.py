"""Hands through the dealer terminal's API (637a.7, 637a.11, 637a.17), figures worked by
hand from the chapter, against the real database and event store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from poker_room.models import RakeDay, Seat

pytestmark = pytest.mark.django_db


def _seat_three(client, table) -> None:
    for seat in (1, 2, 3):
        r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000}, format="json")
        assert r.status_code == 201, r.json()


def _act(client, hand: str, version: int, *commands: dict) -> dict[str, Any]:
    r = client.post(f"/api/v1/hands/{hand}/commands/",
                    {"commands": list(commands), "expected_version": version}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


def test_holdem_hand_through_the_api_rake_into_the_drop_box(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """§ 637a.11(c)-(k), § 637a.17(b)(1), § 637a.15(c), § 637a.16(c). The example Rules
    Submission: $4/$8 fixed limit, blinds $2 and $4, 10 % rake capped at $5 in $1 chips,
    $1 to the Bad Beat fund (pots of $20) and $1 to the High Hand fund (pots of $10).
    Three players with $100: the button starts at seat 3 (the dealer's right), seat 1
    posts $2, seat 2 $4. Seat 3 calls $4, seat 1 raises to $8, seats 2 and 3 call: $24.
    Flop: seat 1 bets $4, seat 2 calls, seat 3 folds: $32. Turn and river: seat 1 bets $8,
    seat 2 calls each: $64. Seat 1's aces win. Rake 10 % of $64 = $6.40, capped at $5;
    $59 left, $1 to each fund, $57 to seat 1: seat 1 $100 - $28 + $57 = $129, seat 2 $72,
    seat 3 $92."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    _seat_three(dealer, table)
    r = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    hand, v = h["round_id"], h["version"]
    blinds = [(e["data"]["seat"], e["data"]["amount"]) for e in h["events"]
              if e["type"] == "BlindPosted"]
    assert blinds == [(1, 200), (2, 400)]
    h = _act(dealer, hand, v, {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                        "3": ["2c", "7d"]}})
    assert all(s["down"] == [None, None] for s in h["seats"])  # hole cards hidden
    assert h["to_act"] == 3
    h = _act(dealer, hand, h["version"],
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "act", "seat": 1, "action": "raise"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "act", "seat": 3, "action": "call"},
             {"type": "deal", "cards": ["Ac", "5h", "9s"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "act", "seat": 3, "action": "fold"},
             {"type": "deal", "cards": ["Jd"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"},
             {"type": "deal", "cards": ["3c"]},
             {"type": "act", "seat": 1, "action": "bet"},
             {"type": "act", "seat": 2, "action": "call"})
    assert h["over"] is True
    stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=table)}
    assert stacks == {1: 12_900, 2: 7_200, 3: 9_200}
    day = RakeDay.objects.get(table=table)
    assert (day.percentage_rake_cents, day.hands, day.drop_box_expected_cents) == (500, 1, 500)
    assert day.contributions == {"bad-beat": 100, "high-hand": 100}
    contributed = [e for e in h["events"] if e["type"] == "JackpotContributed"]
    assert [(e["data"]["fund"], e["data"]["pot"], e["data"]["amount_cents"])
            for e in contributed] == [("bad-beat", 0, 100), ("high-hand", 0, 100)]
    table.refresh_from_db()
    assert table.current_round_id is None
