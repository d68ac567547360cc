"""Bad Beat hits (§ 637a.15(f)-(g)) and the displayed amount (§ 637a.15(b), (h)): held at
the showdown, verified or rejected by the poker shift supervisor, paid by the posted
shares against each player's identification, the display adjusted by finance with a
floorperson as witness; against the real database, event store and API."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from casino.eventstore import projections
from casino.eventstore.store import read_stream
from jackpots.models import BadBeatHit, Fund
from tests.jackpots._hands import play_bad_beat, seat_four

pytestmark = pytest.mark.django_db

URL = "/api/v1/jackpot-funds/bad-beat/"
IDS = [{"seat": 1, "name": "Ann Lee", "identification": "PA DL 1111"},
       {"seat": 2, "name": "Bo Kim", "identification": "PA DL 2222"},
       {"seat": 3, "name": "Cy Ray", "identification": "Passport 3333"},
       {"seat": 4, "name": "Di Fox", "identification": "NJ DL 4444"}]


@pytest.fixture
def bad_beat(crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict:
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    h = play_bad_beat(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    people = {"supervisor": staff("poker_shift_supervisor"), "finance": staff("finance"),
              "floor": crew["floor"]}
    return {"hand": h["round_id"], "table": setup["table"], "dealer": dealer,
            **{k: as_actor(v) for k, v in people.items()}, "people": people}


def _fund_events() -> int:
    fund = Fund.objects.get(name="bad-beat")
    return len(read_stream(fund.stream_id))


@pytest.mark.regulation("637a.15(b)(3)", "637a.15(f)", "637a.15(f)(1)", "637a.15(g)")
def test_a_bad_beat_is_held_verified_and_paid_by_the_posted_shares(bad_beat) -> None:
    """§ 637a.15(f): the hand is held for verification; the supervisor verifies it and the
    payout is the fund's amount, $1 (this hand's own contribution), divided 50/25/25:
    losing hand seat 1 $0.50, winning hand seat 2 $0.25, the table share $0.25 between
    seats 3 and 4, $0.12 each, the cent left over to the losing hand ($0.51).
    § 637a.15(f)(1): the display is pending adjustment. § 637a.15(g): paid at the table,
    each share against the player's identification; the fund goes down by $1."""
    hand = bad_beat["hand"]
    r = bad_beat["supervisor"].get(URL + "bad-beats/")
    assert [(h["hand_id"], h["state"], h["losing_seat"], h["winning_seat"])
            for h in r.json()] == [(hand, "held", 1, 2)]
    r = bad_beat["supervisor"].post(URL + "bad-beats/verify/", {"hand_id": hand},
                                    format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["state"] == "verified" and r.json()["amount_cents"] == 100
    assert [(s["share"], s["seat"], s["amount_cents"]) for s in r.json()["shares"]] == [
        ("losing_hand", 1, 51), ("winning_hand", 2, 25), ("table_share", 3, 12),
        ("table_share", 4, 12)]
    fund = Fund.objects.get(name="bad-beat")
    assert (fund.committed_cents, fund.record_cents, fund.display_pending) == (100, 0, True)
    r = bad_beat["finance"].post(URL + "bad-beats/pay/",
                                 {"hand_id": hand, "payees": IDS, "where": "table"},
                                 format="json")
    assert r.status_code == 200, r.json()
    paid = r.json()
    assert paid["state"] == "paid"
    assert [(p["seat"], p["amount_cents"], p["identification"]) for p in paid["payees"]] == [
        (1, 51, "PA DL 1111"), (2, 25, "PA DL 2222"), (3, 12, "Passport 3333"),
        (4, 12, "NJ DL 4444")]
    fund.refresh_from_db()
    assert (fund.paid_cents, fund.committed_cents, fund.contributions_cents) == (100, 0, 100)


@pytest.mark.regulation("637a.15(f)", "637a.15(g)")
def test_a_hit_is_decided_once(bad_beat) -> None:
    """§ 637a.15(f)-(g): a second verification, a rejection after it, a payment twice, a
    verification of a paid hit: each a 409 with its code, nothing appended."""
    hand, sup, fin = bad_beat["hand"], bad_beat["supervisor"], bad_beat["finance"]
    r = fin.post(URL + "bad-beats/pay/", {"hand_id": hand, "payees": IDS}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hit_not_verified")
    assert sup.post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json"
                    ).status_code == 200
    before = _fund_events()
    for client, path, body, code in (
            (sup, "verify/", {"hand_id": hand}, "hit_already_verified"),
            (sup, "reject/", {"hand_id": hand, "reason": "late"}, "hit_already_verified")):
        r = client.post(URL + "bad-beats/" + path, body, format="json")
        assert (r.status_code, r.json()["code"]) == (409, code)
    assert _fund_events() == before
    assert fin.post(URL + "bad-beats/pay/", {"hand_id": hand, "payees": IDS},
                    format="json").status_code == 200
    before = _fund_events()
    r = fin.post(URL + "bad-beats/pay/", {"hand_id": hand, "payees": IDS}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hit_already_paid")
    r = sup.post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hit_already_paid")
    assert _fund_events() == before


def test_a_payout_needs_every_players_identification(bad_beat) -> None:
    """§ 637a.15(g): each share is recorded against the player's identification: a share
    with nobody identified, an unknown seat, an empty identification: 400, nothing paid."""
    hand = bad_beat["hand"]
    bad_beat["supervisor"].post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json")
    before = _fund_events()
    for payees, code in ((IDS[:3], "identification_required"),
                         (IDS + [{"seat": 6, "name": "X", "identification": "Y"}],
                          "invalid_payees"),
                         ([{**IDS[0], "identification": " "}] + IDS[1:],
                          "identification_required")):
        r = bad_beat["finance"].post(URL + "bad-beats/pay/",
                                     {"hand_id": hand, "payees": payees}, format="json")
        assert (r.status_code, r.json()["code"]) == (400, code), r.json()
    assert _fund_events() == before
    assert BadBeatHit.objects.get(hand_id=hand).state == "verified"


@pytest.mark.regulation("637a.15(f)")
def test_who_may_decide(bad_beat, staff: Callable, as_actor: Callable) -> None:
    """§ 637a.15(f): only the poker shift supervisor verifies; § 637a.15(g): finance or
    the cage pays, never the person who verified (nobody approves their own work)."""
    hand = bad_beat["hand"]
    r = bad_beat["dealer"].post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json")
    assert r.status_code == 403
    r = bad_beat["finance"].post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json")
    assert r.status_code == 403
    both = as_actor(staff("poker_shift_supervisor", "finance"))
    assert both.post(URL + "bad-beats/verify/", {"hand_id": hand},
                     format="json").status_code == 200
    r = both.post(URL + "bad-beats/pay/", {"hand_id": hand, "payees": IDS}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "same_person")
    r = bad_beat["supervisor"].post(URL + "bad-beats/verify/", {"hand_id": "not-a-hand"},
                                    format="json")
    assert (r.status_code, r.json()["code"]) == (404, "hit_not_found")


@pytest.mark.regulation("637a.15(f)")
def test_a_rejected_hand_is_not_paid(bad_beat) -> None:
    """§ 637a.15(f): the supervisor rejects the hand, saying why; it cannot be paid."""
    hand, sup = bad_beat["hand"], bad_beat["supervisor"]
    r = sup.post(URL + "bad-beats/reject/", {"hand_id": hand, "reason": " "}, format="json")
    assert r.status_code == 400
    r = sup.post(URL + "bad-beats/reject/",
                 {"hand_id": hand, "reason": "seat 2's ace was exposed before the river"},
                 format="json")
    assert r.status_code == 200 and r.json()["state"] == "rejected"
    r = bad_beat["finance"].post(URL + "bad-beats/pay/", {"hand_id": hand, "payees": IDS},
                                 format="json")
    assert (r.status_code, r.json()["code"]) == (409, "hit_rejected")
    fund = Fund.objects.get(name="bad-beat")
    assert (fund.record_cents, fund.display_pending) == (100, False)


@pytest.mark.regulation("637a.15(h)(1)", "637a.15(h)(2)")
def test_the_display_is_adjusted_by_finance_with_a_floorperson_witness(
        bad_beat, staff: Callable, as_actor: Callable) -> None:
    """§ 637a.15(h)(1)-(2), § 637a.15(b): after the verification the display is pending
    adjustment; finance adjusts it to the official record ($0 once the $1 is owed), a
    floorperson witnesses it, and the display shows $0, no longer pending. Finance may
    not witness its own adjustment; a witness with nothing to witness is a 409."""
    hand = bad_beat["hand"]
    fin, floor = bad_beat["finance"], bad_beat["floor"]
    r = floor.post(URL + "display/witness/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_adjustment_waiting")
    bad_beat["supervisor"].post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json")
    both = staff("finance", "floorperson")
    r = as_actor(both).post(URL + "display/adjust/", {}, format="json")
    assert r.status_code == 200 and r.json()["adjustment_waiting_cents"] == 0
    r = as_actor(both).post(URL + "display/witness/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "same_person")
    r = fin.post(URL + "display/adjust/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "adjustment_waiting")
    r = floor.post(URL + "display/witness/", {}, format="json")
    assert r.status_code == 200, r.json()
    assert (r.json()["displayed_cents"], r.json()["display_pending"],
            r.json()["adjustment_waiting_cents"]) == (0, False, None)
    adjusted = [e for e in read_stream(Fund.objects.get(name="bad-beat").stream_id)
                if e.type == "DisplayedAmountAdjusted"][0]
    assert adjusted.data["witnessed_by"] == bad_beat["people"]["floor"].username
    assert adjusted.metadata["role"] == "floorperson"


def test_the_read_model_rebuilds_to_the_same_rows(bad_beat) -> None:
    """The funds and hits are a projection: rebuilt from the events, the same rows."""
    hand = bad_beat["hand"]
    bad_beat["supervisor"].post(URL + "bad-beats/verify/", {"hand_id": hand}, format="json")
    bad_beat["finance"].post(URL + "bad-beats/pay/", {"hand_id": hand, "payees": IDS},
                             format="json")

    def rows() -> tuple:
        f = Fund.objects.get(name="bad-beat")
        h = BadBeatHit.objects.get(hand_id=hand)
        return (f.contributions_cents, f.paid_cents, f.committed_cents, f.display_pending,
                h.state, h.amount_cents, h.shares, h.payees)

    before = rows()
    projections.rebuild("jackpot_funds")
    assert rows() == before
