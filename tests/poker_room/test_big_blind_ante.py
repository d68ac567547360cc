"""The table's one Ante, posted by the big blind (a Rules Submission's placement,
637a.11(b)), is dead money in the pot every player still in contests: issue 41 found it
handed back to its poster whenever he reached the end against players who matched his bets
but not his ante. Worked by hand: the pots alone (no database), then a live five-seat hand
through the dealer terminal's API, settled to the cent on the real database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from poker_room.domain.pots import side_pots
from poker_room.models import RakeDay, Seat


@pytest.mark.regulation("637a.8(b)(5)(i)")
def test_the_table_ante_joins_the_main_pot_not_a_layer_of_its_poster():
    """Seat 0 posted a $4 ante and $16 in bets; seat 1 called $16; seat 2 folded after $2.
    Without the ante as a layer: one pot of 4 + 16 + 16 + 2 = $38 that seats 0 and 1 both
    contest (in cents)."""
    assert side_pots([2000, 1600, 200], [True, True, False], [400, 0, 0]) == [
        (3800, (0, 1))]


@pytest.mark.regulation("637a.8(b)(5)(i)", "637a.8(b)(5)(iii)")
def test_an_all_in_players_side_pot_leaves_the_ante_in_the_main_pot():
    """Seat 0 (the big blind) posted the $4 ante and went all in for $10 more; seats 1 and 2
    bet $30 each. Main pot: the $4 ante + $10 from each of the three = $34, all three
    contest it; the side pot: $20 from each of seats 1 and 2 = $40, theirs alone."""
    assert side_pots([1400, 3000, 3000], [True, True, True], [400, 0, 0]) == [
        (3400, (0, 1, 2)), (4000, (1, 2))]


@pytest.mark.regulation("637a.8(b)(5)(i)")
def test_a_poster_all_in_on_the_ante_alone_contests_only_the_ante():
    """Seat 0 had only $3 and posted it as the ante; seats 1 and 2 bet $8 each. Seat 0
    contributed $3 and may win no more than that (the dead ante, which all three
    contest); the $16 the others bet is theirs alone."""
    assert side_pots([300, 800, 800], [True, True, True], [300, 0, 0]) == [
        (300, (0, 1, 2)), (1600, (1, 2))]


def _act(client, hand: str, version: int, *commands: dict) -> dict[str, Any]:
    r = client.post(f"/api/v1/hands/{hand}/commands/",
                    {"commands": list(commands), "expected_version": version}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


@pytest.mark.django_db
@pytest.mark.regulation("637a.11(b)", "637a.8(b)(5)(i)", "637a.17(b)(1)")
def test_a_five_seat_big_blind_ante_hand_settles_to_the_cent(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """The example Rules Submission ($4/$8 fixed limit, blinds $2 and $4, 10 % rake capped
    at $5 in $1 chips, $1 to the Bad Beat fund in pots of $20 and $1 to the High Hand fund
    in pots of $10) with a $4 ante posted by the big blind. Five players with $100; the
    button at seat 5: seat 1 posts $2, seat 2 the $4 ante and the $4 blind.
    Pre-flop seats 3 and 4 fold, seat 5 calls $4, seat 1 folds, seat 2 checks: $14.
    Flop: checks. Turn: seat 2 bets $8, seat 5 calls: $30. River: checks. Seat 5's aces
    beat seat 2's kings. The pot is $2 + $4 + $4 + $4 + $8 + $8 = $30 (the ante in it):
    rake 10 % = $3, under the cap; $1 to each fund; seat 5 takes $25.
    Seat 1: $98; seat 2: $100 - $16 = $84; seats 3 and 4: $100; seat 5: $100 - $12 + $25
    = $113. (With the ante layered as seat 2's own, $4 of the pot went back to seat 2.)"""
    setup = poker_table("holdem", ante_cents=400, ante_posted_by="big-blind")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    for seat in range(1, 6):
        r = dealer.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()
    r = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    hand = h["round_id"]
    assert [e["data"]["amounts"] for e in h["events"] if e["type"] == "AntesPosted"] == [
        [[2, 400]]]
    assert [(e["data"]["seat"], e["data"]["amount"]) for e in h["events"]
            if e["type"] == "BlindPosted"] == [(1, 200), (2, 400)]
    h = _act(dealer, hand, h["version"], {"type": "deal", "cards": {
        "1": ["4h", "5h"], "2": ["Ks", "Kd"], "3": ["8c", "8d"], "4": ["Qc", "Td"],
        "5": ["As", "Ad"]}})
    h = _act(dealer, hand, h["version"],
             {"type": "act", "seat": 3, "action": "fold"},
             {"type": "act", "seat": 4, "action": "fold"},
             {"type": "act", "seat": 5, "action": "call"},
             {"type": "act", "seat": 1, "action": "fold"},
             {"type": "act", "seat": 2, "action": "check"},
             {"type": "deal", "cards": ["2c", "7d", "9h"]},
             {"type": "act", "seat": 2, "action": "check"},
             {"type": "act", "seat": 5, "action": "check"},
             {"type": "deal", "cards": ["Jc"]},
             {"type": "act", "seat": 2, "action": "bet"},
             {"type": "act", "seat": 5, "action": "call"},
             {"type": "deal", "cards": ["3s"]},
             {"type": "act", "seat": 2, "action": "check"},
             {"type": "act", "seat": 5, "action": "check"})
    assert h["over"] is True
    awarded = [(e["data"]["seat"], e["data"]["amount"]) for e in h["events"]
               if e["type"] == "PotAwarded"]
    assert awarded == [(5, 2500)]
    stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=table)}
    assert stacks == {1: 9_800, 2: 8_400, 3: 10_000, 4: 10_000, 5: 11_300}
    day = RakeDay.objects.get(table=table)
    assert (day.percentage_rake_cents, day.hands) == (300, 1)
    assert day.contributions == {"bad-beat": 100, "high-hand": 100}
