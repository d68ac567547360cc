"""Counting the payout boxes (§ 637a.15(d)-(e), § 637a.16(d)-(e), (g)): at a closed table
or in the cage, each step of the chain of custody by its own role and person with its
credential, the cashier's count at the cage, a variance explained and signed off; the
beat task opening each count when it falls due; against the real database and API."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from casino.eventstore import projections
from jackpots import services
from jackpots.models import FundCount, PayoutBox
from jackpots.services import counts
from tests.jackpots._hands import play_hand, seat_three

pytestmark = pytest.mark.django_db
URL = "/api/v1/jackpot-funds/bad-beat/counts/"


@pytest.fixture
def room(crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict:
    """Two hands at the example Hold'em table: $2 in the table's bad-beat box and $2 in
    its high-hand box."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    people = {"dealer": crew["dealer"], "floor": crew["floor"], "security": crew["security"],
              "cashier": staff("cashier"), "finance": staff("finance"),
              "compliance": crew["compliance"]}
    return {"table": str(setup["table"].pk), "people": people,
            **{k: as_actor(v) for k, v in people.items()}}


def _post(client, path: str, body: dict, status: int = 200) -> dict:  # noqa: ANN001
    r = client.post(URL + path, body, format="json")
    assert r.status_code == status, r.json()
    return r.json()


@pytest.mark.regulation("637a.15(d)", "637a.15(d)(1)", "637a.15(e)")
def test_a_count_at_a_closed_table(room) -> None:
    """§ 637a.15(d)(1): the dealer counts the box in a floorperson's presence and both
    sign; security carries the locked container to the cage; § 637a.15(e): a cashier
    verifies the aggregate. $2 expected, $2 counted: no variance, the box emptied; the
    compliance representative was notified when the count opened (§ 637a.15(d))."""
    c = _post(room["floor"], "open/", {"place": "table"})["count_id"]
    _post(room["dealer"], "box/", {"count_id": c, "table_id": room["table"],
                                   "counted_cents": 200})
    _post(room["floor"], "witness/", {"count_id": c})
    _post(room["security"], "carry/", {"count_id": c})
    _post(room["cashier"], "verify/", {"count_id": c, "counted_cents": 200})
    row = room["finance"].get(URL).json()[0]
    assert (row["state"], row["expected_cents"], row["counted_cents"], row["variance_cents"]) \
        == ("closed", 200, 200, 0)
    assert row["compliance_notified_at"] is not None
    people = room["people"]
    assert [(s["step"], s["by"], s["role"], s.get("credential_number", ""))
            for s in row["steps"][1:]] == [
        ("BoxCounted", people["dealer"].username, "dealer", people["dealer"].credential_number),
        ("CountWitnessed", people["floor"].username, "floorperson",
         people["floor"].credential_number),
        ("CountCarriedToCage", people["security"].username, "security",
         people["security"].credential_number),
        ("CountVerified", people["cashier"].username, "cashier",
         people["cashier"].credential_number)]
    box = PayoutBox.objects.get(fund="bad-beat")
    assert (box.expected_cents, box.contributed_cents) == (0, 200)


@pytest.mark.regulation("637a.15(d)(2)", "637a.15(e)")
def test_a_cage_count_with_a_shortage_is_explained_and_signed_off(room) -> None:
    """§ 637a.15(d)(2): a floorperson accounts for the locked box, security carries it;
    § 637a.15(e): the cashier counts $1.90 where $2 should be: a variance of -$0.10,
    recorded, explained by finance and signed off by a second person (compliance), never
    absorbed. The one who explained may not sign it off."""
    c = _post(room["floor"], "open/", {"place": "cage"})["count_id"]
    _post(room["floor"], "account/", {"count_id": c})
    _post(room["security"], "carry/", {"count_id": c})
    _post(room["cashier"], "box/", {"count_id": c, "table_id": room["table"],
                                    "counted_cents": 190})
    _post(room["cashier"], "verify/", {"count_id": c, "counted_cents": 190})
    row = FundCount.objects.get(count_id=c)
    assert (row.state, row.variance_cents) == ("verified", -10)
    _post(room["finance"], "explain/", {"count_id": c,
                                        "explanation": "a $0.10 chip found under the box"})
    r = _post(room["finance"], "sign-off/", {"count_id": c}, 409)
    assert r["code"] == "same_person"
    _post(room["compliance"], "sign-off/", {"count_id": c})
    row.refresh_from_db()
    assert (row.state, row.explanation) == ("closed", "a $0.10 chip found under the box")


@pytest.mark.regulation("637a.15(d)(1)", "637a.15(d)(2)", "637a.15(e)")
def test_each_step_by_its_role_in_order_and_nobody_signs_twice(room, staff: Callable,
                                                               as_actor: Callable) -> None:
    """§ 637a.15(d)(1)-(2), (e): a cashier may not count at the table, nothing is carried
    before it is signed, a box is counted once, a negative count and a total that is not
    the boxes' are refused; a person who counted may not also witness."""
    c = _post(room["floor"], "open/", {"place": "table"})["count_id"]
    r = room["cashier"].post(URL + "box/", {"count_id": c, "table_id": room["table"],
                                            "counted_cents": 200}, format="json")
    assert r.status_code == 403
    assert _post(room["security"], "carry/", {"count_id": c}, 409)["code"] == \
        "count_out_of_order"
    assert _post(room["dealer"], "box/", {"count_id": c, "table_id": room["table"],
                                          "counted_cents": -5}, 400)["code"] == "invalid_count"
    both = staff("dealer", "floorperson")
    as_actor(both).post(URL + "box/", {"count_id": c, "table_id": room["table"],
                                       "counted_cents": 200}, format="json")
    assert _post(room["dealer"], "box/", {"count_id": c, "table_id": room["table"],
                                          "counted_cents": 200}, 409)["code"] == "box_counted"
    r = as_actor(both).post(URL + "witness/", {"count_id": c}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "signed_already")
    _post(room["floor"], "witness/", {"count_id": c})
    _post(room["security"], "carry/", {"count_id": c})
    assert _post(room["cashier"], "verify/", {"count_id": c, "counted_cents": 150},
                 409)["code"] == "aggregate_differs"
    assert _post(room["cashier"], "witness/", {"count_id": "nope"}, 403)


@pytest.mark.regulation("637a.15(d)", "637a.16(d)", "637a.16(g)")
def test_the_beat_opens_each_count_once_then_reminds_and_escalates(room, settings) -> None:
    """§ 637a.15(d): the Bad Beat boxes counted each gaming day, the count opened with
    the compliance notice; § 637a.16(d), (g): the High Hand boxes counted at the end of
    each period. Run twice, each count opens once; a count still open is reminded each
    hour and escalated once after four."""
    settings.JACKPOT_COUNT_REMIND_MINUTES, settings.JACKPOT_COUNT_ESCALATE_MINUTES = 60, 240
    slip = services.high_hand_record(
        actor=room["people"]["floor"], fund="high-hand", table_id=room["table"], seat=1,
        cards=["Ks", "Kd", "Kh", "5c", "5d"], dealer=room["people"]["dealer"].username,
        player={"name": "Ann", "phone": "555"})
    end = datetime.fromisoformat(slip["period_end"])
    services.high_hand_periods_close_due(now=end + timedelta(seconds=1))
    now = end + timedelta(seconds=2)
    assert counts.counts_due(now)["opened"] == 2
    assert counts.counts_due(now)["opened"] == 0
    opened = {(c.fund, c.reason): c for c in FundCount.objects.all()}
    assert set(opened) == {("bad-beat", "daily"), ("high-hand", "period_end")}
    assert opened[("bad-beat", "daily")].compliance_notified_at is not None
    assert opened[("high-hand", "period_end")].key == slip["period"]
    started = opened[("bad-beat", "daily")].opened_at
    assert counts.counts_due(started + timedelta(minutes=61))["reminded"] == 2
    assert counts.counts_due(started + timedelta(minutes=62))["reminded"] == 0
    later = started + timedelta(minutes=241)
    assert counts.counts_due(later)["escalated"] == 2
    assert counts.counts_due(later)["escalated"] == 0
    # one reminder a run while it stays open past each hour: the 61st minute's, then
    # the one after the escalation
    row = FundCount.objects.get(pk=opened[("bad-beat", "daily")].pk)
    assert (row.reminders, row.escalated_at is not None) == (2, True)


@pytest.mark.regulation("637a.15(e)")
def test_the_lists_name_each_table_and_the_day(room) -> None:
    """§ 637a.15(d)-(e): a count's record says which boxes, so the list names each box's
    table by its name (not its id alone) and the gaming day the count belongs to (the one
    it was opened in: the property's local date, the day starting at its start hour); the
    fund's ledger by table and day (§ 637a.15(e)) and its payout boxes name their tables
    too."""
    from datetime import date
    from zoneinfo import ZoneInfo

    from tables.models import GameTable

    name = GameTable.objects.get(pk=room["table"]).name
    _post(room["floor"], "open/", {"place": "cage"})
    row = room["finance"].get(URL).json()[0]
    prop = room["people"]["finance"].property
    local = datetime.fromisoformat(row["opened_at"]).astimezone(ZoneInfo(prop.time_zone))
    day = (local - timedelta(hours=prop.gaming_day_start_hour)).date()
    assert row["gaming_day"] == day.isoformat()
    assert [(b["table_id"], b["table_name"], b["expected_cents"]) for b in row["boxes"]] == [
        (room["table"], name, 200)]
    ledger = room["finance"].get(f"/api/v1/jackpot-funds/bad-beat/ledger/?first={day}").json()
    assert [(r["gaming_day"], r["table_name"], r["contributions_cents"])
            for r in ledger["rows"]] == [(day.isoformat(), name, 200)]
    funds = room["finance"].get("/api/v1/jackpot-funds/").json()
    assert {(f["fund"], b["table_name"]) for f in funds for b in f["boxes"]} == {
        ("bad-beat", name), ("high-hand", name)}
    ledger = room["floor"].get(f"/api/v1/poker-tables/{room['table']}/rake-ledger/"
                               f"?gaming_day={date.fromisoformat(row['gaming_day'])}").json()
    assert (ledger["table"], ledger["table_name"], ledger["gaming_day"]) == (
        room["table"], name, day.isoformat())


@pytest.mark.regulation("637a.16(b)(1)", "637a.16(d)")
def test_a_period_count_is_named_on_its_own_propertys_clock(room, as_actor) -> None:
    """§ 637a.16(b)(1), (d): a High Hand period is the property's local span, so the count
    list names a period count by its local start with that property's offset — a property
    in Chicago reads -06:00 (CST) beside the start, not the installation's New York -05:00.
    (The list was built without its request and fell back to the configured zone.)"""
    from zoneinfo import ZoneInfo

    from casino.actors import actor_of
    from casino.models import Property
    from django.contrib.auth import get_user_model

    chicago = "America/Chicago"
    prop = room["people"]["floor"].property
    Property.objects.filter(pk=prop.pk).update(time_zone=chicago)
    users = get_user_model().objects
    floor = actor_of(users.get(pk=room["people"]["floor"].user_id))
    slip = services.high_hand_record(
        actor=floor, fund="high-hand", table_id=room["table"], seat=1,
        cards=["Ks", "Kd", "Kh", "5c", "5d"], dealer=room["people"]["dealer"].username,
        player={"name": "Ann", "phone": "555"})
    end = datetime.fromisoformat(slip["period_end"])
    services.high_hand_periods_close_due(now=end + timedelta(seconds=1))
    counts.counts_due(end + timedelta(seconds=2))
    stored = FundCount.objects.get(fund="high-hand", reason="period_end").key
    finance = as_actor(actor_of(users.get(pk=room["people"]["finance"].user_id)))
    row = finance.get("/api/v1/jackpot-funds/high-hand/counts/").json()[0]
    named = datetime.fromisoformat(row["key"])
    # the stored key is the naive local start; Chicago is an hour behind New York always
    local = datetime.fromisoformat(stored)
    assert named.replace(tzinfo=None) == local
    assert named.utcoffset() == local.replace(tzinfo=ZoneInfo(chicago)).utcoffset()
    assert named.utcoffset() != local.replace(tzinfo=ZoneInfo("America/New_York")).utcoffset()


@pytest.mark.regulation("637a.16(d)(1)", "637a.16(d)(2)", "637a.16(e)")
def test_the_high_hand_boxes_are_counted_at_a_closed_table_or_in_the_cage(room) -> None:
    """§ 637a.16(d)(1): the High Hand box counted at a closed table by the dealer, a
    floorperson witnessing, security carrying it, and § 637a.16(e) a cashier verifying
    the aggregate: $2 expected (two hands' $1 each), $2 counted, no variance, the box
    emptied, each step signed by its own role with its credential. § 637a.16(d)(2): at
    the cage a floorperson accounts for the locked box before security carries it, and a
    cashier counts it; a carry before the floorperson has accounted for it is refused."""
    url = "/api/v1/jackpot-funds/high-hand/counts/"

    def post(client, path: str, body: dict, status: int = 200) -> dict:  # noqa: ANN001
        r = client.post(url + path, body, format="json")
        assert r.status_code == status, r.json()
        return r.json()

    c = post(room["floor"], "open/", {"place": "table"})["count_id"]
    post(room["dealer"], "box/", {"count_id": c, "table_id": room["table"],
                                  "counted_cents": 200})
    post(room["floor"], "witness/", {"count_id": c})
    post(room["security"], "carry/", {"count_id": c})
    post(room["cashier"], "verify/", {"count_id": c, "counted_cents": 200})
    row = room["finance"].get(url).json()[0]
    assert (row["state"], row["expected_cents"], row["counted_cents"], row["variance_cents"]) \
        == ("closed", 200, 200, 0)
    people = room["people"]
    assert [(s["step"], s["role"], s.get("credential_number", ""))
            for s in row["steps"][1:]] == [
        ("BoxCounted", "dealer", people["dealer"].credential_number),
        ("CountWitnessed", "floorperson", people["floor"].credential_number),
        ("CountCarriedToCage", "security", people["security"].credential_number),
        ("CountVerified", "cashier", people["cashier"].credential_number)]
    box = PayoutBox.objects.get(fund="high-hand")
    assert (box.expected_cents, box.contributed_cents) == (0, 200)

    from tables.models import GameTable

    play_hand(room["dealer"], GameTable.objects.get(pk=room["table"]))  # $1 more in the box
    projections.catch_up("jackpot_funds")
    c = post(room["floor"], "open/", {"place": "cage"})["count_id"]
    assert post(room["security"], "carry/", {"count_id": c}, 409)["code"] == \
        "count_out_of_order"
    post(room["floor"], "account/", {"count_id": c})
    post(room["security"], "carry/", {"count_id": c})
    post(room["cashier"], "box/", {"count_id": c, "table_id": room["table"],
                                   "counted_cents": 100})
    post(room["cashier"], "verify/", {"count_id": c, "counted_cents": 100})
    row = FundCount.objects.get(count_id=c)
    assert (row.fund, row.state, row.variance_cents) == ("high-hand", "closed", 0)
