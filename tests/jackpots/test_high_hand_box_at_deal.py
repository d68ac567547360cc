"""A High Hand slip is eligible by the jackpot box the hand was dealt with (§ 637a.2(e)):
the hand's ``HandDealtAtTable`` records the funds it paid nothing into for want of their
box, and that record, not the table as it stands when the slip is written, decides."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from casino.eventstore import projections
from casino.eventstore.store import read_stream
from jackpots.models import Fund
from tests.jackpots._hands import play_hand, seat_three

pytestmark = [pytest.mark.django_db, pytest.mark.regulation("637a.2(e)")]
URL = "/api/v1/jackpot-funds/high-hand/"
FULL_HOUSE = ["Ks", "Kd", "Kh", "5c", "5d"]


def _slip(floor, dealer, table, hand_id) -> object:
    return floor.post(URL + "high-hands/record/", {
        "table_id": str(table.pk), "seat": 1, "cards": FULL_HOUSE, "hand_id": hand_id,
        "player": {"name": "Player 1", "phone": "555-0101"}, "dealer": dealer.username},
        format="json")


def _boxes(table) -> str:
    return f"/api/v1/poker-tables/{table.pk}/jackpot-boxes/"


def _events() -> int:
    projections.catch_up("jackpot_funds")
    fund = Fund.objects.filter(name="high-hand").first()  # made by its first contribution
    return len(read_stream(fund.stream_id)) if fund else 0


def test_a_hand_dealt_with_the_box_stays_recordable_after_the_box_comes_off(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """The hand was dealt with the High Hand box attached (it paid $1 into the fund); the
    box is taken off before the floorperson writes the slip: the slip is recorded."""
    table = poker_table("holdem")["table"]
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    seat_three(dealer, table)
    hand = play_hand(dealer, table)
    r = floor.post(_boxes(table) + "remove/", {"fund": "high-hand", "reason": "lock broken"},
                   format="json")
    assert r.status_code == 200, r.json()
    r = _slip(floor, crew["dealer"], table, hand["round_id"])
    assert r.status_code == 201, r.json()


def test_a_hand_dealt_without_the_box_is_refused_after_a_box_is_added(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """The first hand is dealt with the box (it pays $1 into the fund); the box comes off
    and the second hand is dealt without it (its ``HandDealtAtTable`` withholds the
    fund); a box is registered again. A slip for the second hand is refused with
    ``no_jackpot_box``, nothing appended; one for the first hand is recorded."""
    table = poker_table("holdem")["table"]
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    seat_three(dealer, table)
    with_box = play_hand(dealer, table)
    r = floor.post(_boxes(table) + "remove/", {"fund": "high-hand", "reason": "lock broken"},
                   format="json")
    assert r.status_code == 200, r.json()
    without = play_hand(dealer, table)
    r = floor.post(_boxes(table) + "register/", {
        "fund": "high-hand", "box": "HH-2", "transparent": True, "locked": True,
        "beside_drop_box": True}, format="json")
    assert r.status_code == 201, r.json()
    before = _events()
    r = _slip(floor, crew["dealer"], table, without["round_id"])
    assert (r.status_code, r.json().get("code")) == (409, "no_jackpot_box"), r.json()
    assert _events() == before
    assert _slip(floor, crew["dealer"], table, with_box["round_id"]).status_code == 201


def test_a_hand_not_dealt_at_the_table_is_refused(
        crew, poker_table: Callable, as_actor: Callable) -> None:
    """A slip naming a hand the table has no record of dealing cannot be checked against
    its box: refused with ``unknown_hand``, nothing appended."""
    table = poker_table("holdem")["table"]
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    seat_three(dealer, table)
    play_hand(dealer, table)
    before = _events()
    r = _slip(floor, crew["dealer"], table, "6f1c1f0e-5a0b-4d8e-9a43-0b7d6c1e2f3a")
    assert (r.status_code, r.json().get("code")) == (409, "unknown_hand"), r.json()
    assert _events() == before
