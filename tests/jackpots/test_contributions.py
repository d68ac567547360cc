"""The contributions follower: the poker room's ``JackpotContributed`` events into the
funds' ledgers and payout boxes (§ 637a.15(c), § 637a.15(e), § 637a.16(c),
§ 637a.16(e)), against the real database, event store and API."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from casino.eventstore import projections
from jackpots.models import Fund, FundDay, PayoutBox
from tests.jackpots._hands import play_hand, seat_three

pytestmark = pytest.mark.django_db

FOLLOWER = "jackpot_funds"


def _rows() -> dict[str, list[tuple]]:
    return {
        "funds": sorted((f.name, f.kind, f.contributions_cents, f.contributions)
                        for f in Fund.objects.all()),
        "days": sorted((d.fund, str(d.table_id), d.gaming_day.isoformat(),
                        d.contributions_cents, d.contributions)
                       for d in FundDay.objects.all()),
        "boxes": sorted((b.fund, str(b.table_id), b.expected_cents, b.contributed_cents)
                        for b in PayoutBox.objects.all()),
    }


@pytest.mark.regulation("637a.15(c)", "637a.16(c)", "637a.15(e)", "637a.16(e)")
def test_each_pot_contribution_reaches_its_fund_once(crew, poker_table: Callable,
                                                     as_actor: Callable) -> None:
    """§ 637a.15(c), § 637a.16(c): after the rake, $1 of the $64 pot to each fund, into the
    table's payout boxes; § 637a.15(e), § 637a.16(e): the fund's record by table and
    gaming day. Two hands: $2 in each fund, two pots; caught up twice (a task delivered
    twice), then rebuilt: the same rows."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, table)
    play_hand(dealer, table)
    assert projections.catch_up(FOLLOWER) == 2  # one event per fund for the one pot
    play_hand(dealer, table)
    assert projections.catch_up(FOLLOWER) == 2
    assert projections.catch_up(FOLLOWER) == 0
    day = crew["dealer"].gaming_day().isoformat()
    expected = {
        "funds": [("bad-beat", "bad_beat", 200, 2), ("high-hand", "high_hand", 200, 2)],
        "days": [("bad-beat", str(table.pk), day, 200, 2),
                 ("high-hand", str(table.pk), day, 200, 2)],
        "boxes": [("bad-beat", str(table.pk), 200, 200),
                  ("high-hand", str(table.pk), 200, 200)],
    }
    assert _rows() == expected
    projections.rebuild(FOLLOWER)
    assert _rows() == expected


def test_each_contribution_names_its_hand(crew, poker_table: Callable,
                                         as_actor: Callable) -> None:
    """§ 637a.15(c), § 637a.16(c): each pot's contribution is the record of a hand: both
    funds' ``JackpotContributed`` of each of two hands carry that hand's id (the hand
    started by an earlier command than the one that ended it)."""
    from casino.eventstore.models import Event

    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    hands = [play_hand(dealer, setup["table"])["round_id"] for _ in range(2)]
    named = sorted((e.stream_id, e.data["fund"], e.data["hand_id"])
                   for e in Event.objects.filter(type="JackpotContributed"))
    assert named == sorted((f"round-{h}", fund, str(h)) for h in hands
                           for fund in ("bad-beat", "high-hand"))


def test_a_batch_of_many_contributions_is_added_up_exactly(crew, poker_table: Callable,
                                                           as_actor: Callable) -> None:
    """§ 637a.15(e): five hands caught up in batches of three events: every cent once."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    for _ in range(5):
        play_hand(dealer, setup["table"])
    assert projections.catch_up(FOLLOWER, batch=3) == 10
    assert {f.name: f.contributions_cents for f in Fund.objects.all()} == {
        "bad-beat": 500, "high-hand": 500}


def test_the_funds_and_their_ledger_through_the_api(crew, poker_table: Callable,
                                                    as_actor: Callable, staff: Callable
                                                    ) -> None:
    """§ 637a.15(e), § 637a.16(e): finance reads each fund, its boxes and its ledger;
    a dealer may not; bad dates are a 400 naming the field; an unknown fund a 404."""
    setup = poker_table("holdem")
    table = setup["table"]
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, table)
    play_hand(dealer, table)
    projections.catch_up(FOLLOWER)
    finance = as_actor(staff("finance"))
    r = finance.get("/api/v1/jackpot-funds/")
    assert r.status_code == 200, r.json()
    got = {f["fund"]: f for f in r.json()}
    assert got["bad-beat"]["contributions_cents"] == 100
    assert got["bad-beat"]["boxes"][0]["table"] == str(table.pk)
    assert got["bad-beat"]["boxes"][0]["expected_cents"] == 100
    day = crew["dealer"].gaming_day().isoformat()
    r = finance.get(f"/api/v1/jackpot-funds/high-hand/ledger/?first={day}")
    assert r.status_code == 200, r.json()
    assert r.json()["total_cents"] == 100
    assert r.json()["rows"] == [{"gaming_day": day, "table": str(table.pk),
                                 "table_name": table.name,
                                 "contributions_cents": 100, "contributions_count": 1}]
    assert dealer.get("/api/v1/jackpot-funds/").status_code == 403
    r = finance.get("/api/v1/jackpot-funds/high-hand/ledger/?first=yesterday")
    assert (r.status_code, r.json()["code"], r.json()["field"]) == (400, "invalid_gaming_day",
                                                                    "first")
    r = finance.get(f"/api/v1/jackpot-funds/high-hand/ledger/?first={day}&last=2000-01-01")
    assert (r.status_code, r.json()["field"]) == (400, "last")
    r = finance.get("/api/v1/jackpot-funds/no-such-fund/ledger/")
    assert (r.status_code, r.json()["code"]) == (404, "fund_not_found")


def test_another_property_sees_none_of_the_funds(crew, poker_table: Callable,
                                                 as_actor: Callable, make_staff) -> None:  # noqa: ANN001
    """Every read scoped to the caller's property: another casino's finance sees no fund
    and its ledger answers 404, as for a fund that does not exist."""
    from casino.services import property_register
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    projections.catch_up(FOLLOWER)
    other = property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(
        pk=make_staff("finance", property=other).pk))
    assert client.get("/api/v1/jackpot-funds/").json() == []
    r = client.get("/api/v1/jackpot-funds/bad-beat/ledger/")
    assert (r.status_code, r.json()["code"]) == (404, "fund_not_found")
