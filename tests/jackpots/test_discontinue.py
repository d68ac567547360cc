"""Discontinuing a fund (§ 637a.15(i)): proposed by finance, approved by compliance (a
second person), the balance transferred to another Bad Beat fund in the same event, so
nothing is left unaccounted; afterwards nothing but counts is decided on the fund."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from casino.eventstore import projections
from casino.eventstore.store import NewEvent, append
from jackpots.models import Fund
from tests.jackpots._hands import play_hand, seat_three

pytestmark = pytest.mark.django_db
URL = "/api/v1/jackpot-funds/"


@pytest.fixture
def funds(crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict:
    """$1 in bad-beat and high-hand from a hand at the example table, and $3 in a second
    Bad Beat fund, bad-beat-2, from another table's pots (its contributions as the poker
    room records them)."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    meta = crew["dealer"].metadata(role="dealer", table=str(setup["table"].pk))
    hand = str(uuid.uuid4())
    append(("round", f"round-{hand}"), 0, [NewEvent("JackpotContributed", {
        "fund": "bad-beat-2", "kind": "bad_beat", "pot": 0, "amount_cents": 300,
        "table_id": str(uuid.uuid4()), "gaming_day": meta["gaming_day"],
        "hand_id": hand})], meta)
    projections.catch_up("jackpot_funds")
    return {"finance": as_actor(staff("finance")), "compliance": as_actor(crew["compliance"]),
            "floor": as_actor(crew["floor"]), "staff": staff, "as_actor": as_actor}


@pytest.mark.regulation("637a.15(i)")
def test_a_fund_discontinued_transfers_its_balance(funds) -> None:
    """§ 637a.15(i): the $1 of bad-beat goes to bad-beat-2 ($4 there now), bad-beat holds
    nothing and takes no more decisions but counts."""
    fin, comp = funds["finance"], funds["compliance"]
    for target in ("high-hand", "bad-beat", "no-such-fund"):
        r = fin.post(URL + "bad-beat/discontinue/", {"transfer_to": target}, format="json")
        assert (r.status_code, r.json()["code"]) == (409, "invalid_transfer"), target
    r = comp.post(URL + "bad-beat/discontinue/approve/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_discontinuance")
    r = fin.post(URL + "bad-beat/discontinue/", {"transfer_to": "bad-beat-2"}, format="json")
    assert r.status_code == 200, r.json()
    assert fin.post(URL + "bad-beat/discontinue/approve/", {}, format="json").status_code == 403
    r = comp.post(URL + "bad-beat/discontinue/approve/", {}, format="json")
    assert r.status_code == 200, r.json()
    assert (r.json()["discontinued"], r.json()["discontinued_to"],
            r.json()["transferred_out_cents"], r.json()["record_cents"]) == (
        True, "bad-beat-2", 100, 0)
    target = Fund.objects.get(name="bad-beat-2")
    assert (target.transferred_in_cents, target.record_cents) == (100, 400)
    r = fin.post(URL + "bad-beat/display/adjust/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "fund_discontinued")
    r = funds["floor"].post(URL + "bad-beat/counts/open/", {"place": "cage"}, format="json")
    assert r.status_code == 200, r.json()


@pytest.mark.regulation("637a.15(i)")
def test_the_proposer_does_not_approve(funds) -> None:
    """§ 637a.15(i): the approval is a second person's."""
    both = funds["as_actor"](funds["staff"]("finance", "compliance"))
    assert both.post(URL + "bad-beat/discontinue/", {"transfer_to": "bad-beat-2"},
                     format="json").status_code == 200
    r = both.post(URL + "bad-beat/discontinue/approve/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "same_person")
    assert Fund.objects.get(name="bad-beat").discontinued is False
