"""The rake ledger gives back the rake of a hand that is misdealt or voided (§ 637a.18(g),
(i)): every chip in the pot goes back to its player, the rake taken as play progressed
(§ 637a.17(b)(2)(i)) included, so none of it reaches the drop box
(§ 637a.17(b)(2)(ii)) and ``RakeDay`` must not expect it there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from poker_room.models import FundContributionDay, RakeDay, Seat

pytestmark = pytest.mark.django_db

#: § 637a.17(b)(2): $1 once the pot reaches $20 and $1 more at $40, taken after each
#: betting round (as play progresses), at most $3 a round of play
INCREMENTAL = {"types": ["incremental"], "collection": "as-play-progresses",
               "maximum_per_round_cents": 300,
               "incremental_levels": [{"pot_at_least_cents": 2_000, "rake_cents": 100},
                                      {"pot_at_least_cents": 4_000, "rake_cents": 100}]}


def _act(client, hand: str, version: int, *commands: dict) -> dict[str, Any]:
    r = client.post(f"/api/v1/hands/{hand}/commands/",
                    {"commands": list(commands), "expected_version": version}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


def _start(client, table, deck) -> dict[str, Any]:
    r = client.post(f"/api/v1/poker-tables/{table.pk}/hands/", {"deck_id": str(deck.pk)},
                    format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def _a(seat: int, action: str) -> dict[str, Any]:
    return {"type": "act", "seat": seat, "action": action}


def _ledger() -> list[tuple]:
    return sorted((str(d.table_id), d.gaming_day, d.hands, d.percentage_rake_cents,
                   d.incremental_rake_cents, d.time_charges_pending_cents,
                   d.time_charges_cents) for d in RakeDay.objects.all())


@pytest.mark.parametrize("irregularity", [
    {"type": "void", "reason": "missing_or_extra_cards"},  # § 637a.18(i)
    {"type": "misdeal", "reason": "cards_face_up_in_deck"},  # § 637a.18(g)(3)
], ids=["void", "misdeal"])
def test_rake_of_a_voided_or_misdealt_hand_is_returned_and_a_completed_hands_stays(
        crew, poker_table: Callable, as_actor: Callable, irregularity: dict) -> None:
    """§ 637a.17(b)(2), § 637a.18(g), (i). $4/$8 fixed limit, blinds $2 and $4, three
    players with $100, an incremental rake of $1 at a $20 pot and $1 more at $40, taken as
    play progresses.

    Hand 1 (red deck; button seat 3, seat 1 posts $2, seat 2 $4): seat 3 calls $4, seat 1
    raises to $8, seats 2 and 3 call: pot $24, so $1 of rake is taken after the betting
    round ($24 >= $20). The flop is dealt; then the hand is voided (missing or extra cards,
    § 637a.18(i)) or declared a misdeal (more than one card face up in the deck,
    § 637a.18(g)(3), which has no "before two voluntary bets" limit). Every chip goes back,
    the $1 of rake too: stacks $100, $100, $100; rake kept 1 - 1 = $0, no hand counted.

    Hand 2 (blue deck; the button moves to seat 1, seat 2 posts $2, seat 3 $4): seat 1
    raises to $8, seats 2 and 3 call: $24, rake $1. Flop: seat 2 bets $4, seat 3 calls,
    seat 1 folds: $32. Turn: seat 2 bets $8, seat 3 calls: $48 >= $40, rake $1 more ($2).
    River: both check; seat 2's aces beat seat 3's kings. $48 - $2 rake - $1 Bad Beat
    (pot >= $20) - $1 High Hand (pot >= $10) = $44 to seat 2: $100 - $20 + $44 = $124,
    seat 3 $80, seat 1 $92.

    The day's ledger: incremental rake 0 + 2 = $2, one hand, drop box expected $2; the
    funds $1 each, all from hand 2. Rebuilt from the events, the same rows.
    """
    setup = poker_table("holdem", rake=INCREMENTAL)
    table, (red, blue) = setup["table"], setup["decks"]
    dealer = as_actor(crew["dealer"])
    for seat in (1, 2, 3):
        r = dealer.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()

    # hand 1: $1 of incremental rake taken at a $24 pot, then the hand is voided/misdealt
    h = _start(dealer, table, red)
    hand = h["round_id"]
    h = _act(dealer, hand, h["version"],
             {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                        "3": ["2c", "7d"]}},
             _a(3, "call"), _a(1, "raise"), _a(2, "call"), _a(3, "call"),
             {"type": "deal", "cards": ["Ac", "5h", "9s"]})
    taken = [e["data"] for e in h["events"] if e["type"] == "RakeTaken"]
    assert [(d["kind"], d["amount"]) for d in taken] == [("incremental", 100)]
    h = _act(dealer, hand, h["version"], irregularity)
    assert h["over"] is True
    returned = next(e["data"] for e in h["events"]
                    if e["type"] in ("HandVoided", "MisdealDeclared"))
    assert returned["rake_returned"] == 100
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=table)} == {
        1: 10_000, 2: 10_000, 3: 10_000}
    day = RakeDay.objects.get(table=table)
    assert (day.incremental_rake_cents, day.percentage_rake_cents, day.hands,
            day.rake_and_time_charges_cents) == (0, 0, 0, 0)

    # hand 2: completed, $2 of incremental rake that stays in the ledger
    h = _start(dealer, table, blue)
    hand = h["round_id"]
    assert next(e["data"]["button"] for e in h["events"] if e["type"] == "HandStarted") == 1
    h = _act(dealer, hand, h["version"],
             {"type": "deal", "cards": {"1": ["2c", "7d"], "2": ["As", "Ad"],
                                        "3": ["Ks", "Kd"]}},
             _a(1, "raise"), _a(2, "call"), _a(3, "call"),
             {"type": "deal", "cards": ["Ac", "5h", "9s"]},
             _a(2, "bet"), _a(3, "call"), _a(1, "fold"),
             {"type": "deal", "cards": ["Jd"]}, _a(2, "bet"), _a(3, "call"),
             {"type": "deal", "cards": ["3c"]}, _a(2, "check"), _a(3, "check"))
    assert h["over"] is True
    assert {s.seat: s.stack_cents for s in Seat.objects.filter(table=table)} == {
        1: 9_200, 2: 12_400, 3: 8_000}
    day = RakeDay.objects.get(table=table)
    assert (day.incremental_rake_cents, day.percentage_rake_cents, day.hands,
            day.rake_and_time_charges_cents) == (200, 0, 1, 200)
    assert day.contributions == {"bad-beat": 100, "high-hand": 100}

    before = (_ledger(), sorted(FundContributionDay.objects.values_list(
        "table_id", "gaming_day", "fund", "cents")))
    call_command("rebuild_projections", "--no-progress")
    after = (_ledger(), sorted(FundContributionDay.objects.values_list(
        "table_id", "gaming_day", "fund", "cents")))
    assert after == before
