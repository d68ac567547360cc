"""High Hand Jackpot periods (§ 637a.16(f)-(h)): the tracking slip recorded by a
floorperson, higher hands only, the period closed once when it ends, the pooled amount to
the highest hand (ties as posted), paid at the cage against identification; against the
real database, event store and API."""

from __future__ import annotations

import csv
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from casino.eventstore import projections
from casino.eventstore.store import read_stream
from jackpots import services
from jackpots.models import Fund, HighHandSlip
from tests.jackpots._hands import play_hand, seat_three

pytestmark = pytest.mark.django_db
URL = "/api/v1/jackpot-funds/high-hand/"


@pytest.fixture
def room(crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict:
    """Two hands dealt at the example Hold'em table: $2 in the high-hand fund."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    return {"table": setup["table"], "floor": as_actor(crew["floor"]), "dealer": dealer,
            "finance": as_actor(staff("finance")), "crew": crew}


def _slip(room: dict, cards: list[str], seat: int = 1, **changes) -> object:
    body = {"table_id": str(room["table"].pk), "seat": seat, "cards": cards,
            "player": {"name": f"Player {seat}", "phone": f"555-010{seat}"},
            "dealer": room["crew"]["dealer"].username, **changes}
    return room["floor"].post(URL + "high-hands/record/", body, format="json")


def _events() -> int:
    return len(read_stream(Fund.objects.get(name="high-hand").stream_id))


@pytest.mark.regulation("637a.16(f)", "637a.16(f)(1)", "637a.16(f)(2)", "637a.16(f)(3)",
                        "637a.16(f)(4)", "637a.16(f)(5)", "637a.16(b)(5)")
def test_the_tracking_slip_records_each_higher_hand(room) -> None:
    """§ 637a.16(f): from a full house up; each higher hand recorded with (f)(1) the
    player's name, phone and seat, (f)(2) the table, (f)(3) the hand, (f)(4) the dealer's
    name and credential, (f)(5) the verifying floorperson and credential. A flush, a
    lower full house: refused, nothing appended; an equal hand is recorded to share
    (the example submission divides ties equally, § 637a.16(b)(5))."""
    r = _slip(room, ["Ks", "Kd", "Kh", "5c", "5d", "2s", "9h"])
    assert r.status_code == 201, r.json()
    assert (r.json()["slip"], r.json()["hand"]) == (1, "Full house, kings over fives")
    before = _events()
    r = _slip(room, ["As", "Qs", "9s", "5s", "2s"], seat=2)
    assert (r.status_code, r.json()["code"]) == (409, "not_a_full_house")
    r = _slip(room, ["Qs", "Qd", "Qh", "2c", "2d"], seat=2)
    assert (r.status_code, r.json()["code"]) == (409, "not_higher")
    assert _events() == before
    assert _slip(room, ["Kc", "Ks", "Kh", "5s", "5h"], seat=3).status_code == 201
    assert _slip(room, ["9c", "9s", "9h", "9d", "2h"], seat=2).status_code == 201
    slips = room["floor"].get(URL + "high-hands/").json()
    assert [(s["slip"], s["seat"], s["hand"]) for s in slips] == [
        (1, 1, "Full house, kings over fives"), (2, 3, "Full house, kings over fives"),
        (3, 2, "Four of a kind, nines")]
    first = slips[0]
    crew = room["crew"]
    assert (first["player_name"], first["player_phone"], first["table_name"]) == (
        "Player 1", "555-0101", room["table"].name)
    assert (first["dealer"], first["dealer_credential"]) == (
        crew["dealer"].username, crew["dealer"].credential_number)
    assert (first["verified_by"], first["verified_credential"]) == (
        crew["floor"].username, crew["floor"].credential_number)


@pytest.mark.regulation("637a.16(f)", "637a.16(f)(1)", "637a.16(f)(4)")
def test_a_slip_needs_what_the_chapter_lists(room) -> None:
    """§ 637a.16(f)(1), (f)(4): the player's phone, a real dealer; only a floorperson or
    above records (a dealer calls the floorperson, § 637a.16(f))."""
    r = _slip(room, ["Ks", "Kd", "Kh", "5c", "5d"], player={"name": "Ann", "phone": ""})
    assert (r.status_code, r.json()["code"], r.json()["field"]) == (400, "invalid_slip",
                                                                    "player.phone")
    r = _slip(room, ["Ks", "Kd", "Kh", "5c", "5d"], dealer=room["crew"]["floor"].username)
    assert (r.status_code, r.json()["code"]) == (400, "invalid_dealer")
    r = _slip(room, ["Ks", "Kd", "Kh", "5c", "Ks"])
    assert (r.status_code, r.json()["code"]) == (400, "invalid_cards")
    r = room["dealer"].post(URL + "high-hands/record/", {}, format="json")
    assert r.status_code == 403


def test_a_table_without_the_funds_box_records_no_high_hand(room) -> None:
    """§ 637a.2(e): a table offers the High Hand payout only with the fund's transparent
    locked box attached. The box taken off (between hands): a full house there is refused,
    nothing appended to the fund; registered again, it is recorded."""
    boxes = f"/api/v1/poker-tables/{room['table'].pk}/jackpot-boxes/"
    r = room["floor"].post(boxes + "remove/", {"fund": "high-hand", "reason": "lock broken"},
                           format="json")
    assert r.status_code == 200, r.json()
    before = _events()
    r = _slip(room, ["Ks", "Kd", "Kh", "5c", "5d"])
    assert (r.status_code, r.json()["code"]) == (409, "no_jackpot_box")
    assert _events() == before
    r = room["floor"].post(boxes + "register/", {
        "fund": "high-hand", "box": "HH-2", "transparent": True, "locked": True,
        "beside_drop_box": True}, format="json")
    assert r.status_code == 201, r.json()
    assert _slip(room, ["Ks", "Kd", "Kh", "5c", "5d"]).status_code == 201


@pytest.mark.regulation("637a.16(g)", "637a.16(h)", "637a.16(b)(7)")
def test_the_period_closes_once_and_pays_the_highest_hand(room) -> None:
    """§ 637a.16(g)-(h): when the period has ended the pooled $2 goes to the four nines;
    the beat task run twice closes it once; closing it again is a 409. § 637a.16(h),
    (b)(7): paid at the cage against identification, once."""
    _slip(room, ["Ks", "Kd", "Kh", "5c", "5d"])
    r = _slip(room, ["9c", "9s", "9h", "9d", "2h"], seat=2)
    period, end = r.json()["period"], datetime.fromisoformat(r.json()["period_end"])
    r = room["finance"].post(URL + "high-hands/close/", {"period": period}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "period_not_over")
    after = end + timedelta(seconds=1)
    assert services.high_hand_periods_close_due(now=after) == 1
    assert services.high_hand_periods_close_due(now=after) == 0
    r = room["finance"].post(URL + "high-hands/close/", {"period": period}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "period_closed")
    slip = HighHandSlip.objects.get(period=period[:16], slip=2)  # its key: the local start
    assert slip.award_cents == 200
    fund = Fund.objects.get(name="high-hand")
    assert (fund.committed_cents, fund.record_cents) == (200, 0)
    body = {"period": period, "slip": 2, "name": "Player 2", "identification": ""}
    r = room["finance"].post(URL + "high-hands/pay/", body, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "identification_required")
    body["identification"] = "PA DL 2222"
    r = room["finance"].post(URL + "high-hands/pay/", body, format="json")
    assert r.status_code == 200 and r.json()["amount_cents"] == 200
    r = room["finance"].post(URL + "high-hands/pay/", body, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "award_already_paid")
    fund.refresh_from_db()
    assert (fund.paid_cents, fund.committed_cents, fund.record_cents) == (200, 0, 0)


@pytest.mark.regulation("637a.16(b)(5)", "637a.16(h)")
def test_equal_high_hands_share_the_award(room) -> None:
    """§ 637a.16(b)(5), (h): two equal full houses, the pooled $2 divided equally."""
    _slip(room, ["Ks", "Kd", "Kh", "5c", "5d"])
    r = _slip(room, ["Kc", "Ks", "Kh", "5s", "5h"], seat=3)
    end = datetime.fromisoformat(r.json()["period_end"])
    services.high_hand_periods_close_due(now=end + timedelta(seconds=1))
    assert sorted(HighHandSlip.objects.values_list("slip", "award_cents")) == [
        (1, 100), (2, 100)]


@pytest.mark.regulation("637a.16(h)")
def test_a_period_without_a_full_house_leaves_its_money_to_the_next(room) -> None:
    """§ 637a.16(h): no full house in the period: nothing is awarded and nothing is closed;
    the $2 stays in the fund for the next period's award."""
    later = datetime.now().astimezone() + timedelta(days=2)
    assert services.high_hand_periods_close_due(now=later) == 0
    r = room["finance"].post(URL + "high-hands/close/", {"period": "2026-11-25T06:00"},
                             format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_high_hand_recorded")
    assert Fund.objects.get(name="high-hand").record_cents == 200


@pytest.mark.regulation("637a.16(i)", "637a.16(b)(6)")
def test_an_award_not_collected_in_time_goes_by_the_posted_procedure(room) -> None:
    """§ 637a.16(i), (b)(6): the example submission gives the winner 24 hours; after
    them the award is recorded as uncollected with the posted procedure ("added to the
    next qualifying period's payout"), cannot be paid any more, and its $2 is back in the
    fund. The sweep does it once."""
    r = _slip(room, ["9c", "9s", "9h", "9d", "2h"], seat=2)
    period, end = r.json()["period"], datetime.fromisoformat(r.json()["period_end"])
    services.high_hand_periods_close_due(now=end + timedelta(seconds=1))
    assert Fund.objects.get(name="high-hand").record_cents == 0
    late = end + timedelta(hours=24, seconds=2)
    services.high_hand_periods_close_due(now=late)
    services.high_hand_periods_close_due(now=late)
    events = [e for e in read_stream(Fund.objects.get(name="high-hand").stream_id)
              if e.type == "HighHandAwardUncollected"]
    assert len(events) == 1
    assert events[0].data["procedure"] == "added to the next qualifying period's payout"
    assert HighHandSlip.objects.get(period=period[:16], slip=1).uncollected is True
    body = {"period": period, "slip": 1, "name": "Player 2", "identification": "PA DL 2"}
    r = room["finance"].post(URL + "high-hands/pay/", body, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "award_uncollected")
    assert Fund.objects.get(name="high-hand").record_cents == 200


@pytest.mark.regulation("637a.16(e)", "637a.16(g)")
def test_the_fund_ledger_by_period(room) -> None:
    """§ 637a.16(g)-(h): the period's line in the ledger by period: the $2 pooled and
    awarded to the four nines, $2 paid at the cage; the CSV says the same."""
    r = _slip(room, ["9c", "9s", "9h", "9d", "2h"], seat=2)
    period, end = r.json()["period"], datetime.fromisoformat(r.json()["period_end"])
    services.high_hand_periods_close_due(now=end + timedelta(seconds=1))
    room["finance"].post(URL + "high-hands/pay/", {"period": period, "slip": 1, "name": "P2",
                                                   "identification": "PA DL 2"},
                         format="json")
    day = period[:10]
    r = room["finance"].get(URL + f"report/?by=period&first={day}")
    assert r.status_code == 200, r.json()
    line = r.json()["rows"][0]
    assert (line["period"], line["hand"], line["pooled_cents"], line["awarded_cents"],
            line["paid_cents"], line["uncollected_cents"]) == (
        period, "Four of a kind, nines", 200, 200, 200, 0)
    csv_text = room["finance"].get(URL + f"report/?by=period&first={day}&as=csv"
                                   ).content.decode().splitlines()
    # the CSV a person reads (issue 22): the period by its start and end in the
    # property's zone with their offset (New York's, -05:00 or -04:00), dollars to the cent;
    # text quoted, figures bare (issue 35: no cell a formula)
    assert csv_text[0] == ('"Period start","Period end","Winning hand","Pooled ($)",'
                           '"Awarded ($)","Paid ($)","Uncollected ($)",'
                           '"Counted to the cage ($)"')
    start, _end, *rest = next(iter(csv.reader(csv_text[1:2])))
    assert datetime.fromisoformat(start) == datetime.fromisoformat(line["period_start"])
    assert start[19:] in ("-05:00", "-04:00")
    assert rest == ["Four of a kind, nines", "2.00", "2.00", "2.00", "0.00", "0.00"]
    from django.contrib.auth import get_user_model
    from django.test import Client

    page = Client()
    page.force_login(get_user_model().objects.get(username=room["crew"]["floor"].username))
    html = page.get(f"/jackpots/report/high-hand/?by=period&first={day}").content.decode()
    assert "High Hand periods: high-hand" in html and "Four of a kind, nines" in html


@pytest.mark.regulation("637a.16(b)")
def test_a_paid_award_leaves_the_display_pending_until_finance_adjusts_it(
        room, settings) -> None:
    """§ 637a.16(b): the amount displayed is the fund's current amount (pending after an
    award: the room's rule after § 637a.15(f)(1)). The display shows the $2 the
    fund held; the period closes with the $2 awarded (the record is $0): the display is
    pending adjustment, and still is once the award is paid at the cage. The board and
    the fund's answer say so, the day's display check (§ 637a.15(h)(2)) flags it, and the
    follower's row agrees with a fold of the fund's stream. Finance adjusts it to $0
    with a floorperson: no longer pending."""
    from django.test import Client

    from jackpots.models import DisplayCheck
    from jackpots.services.common import fund_state
    from jackpots.services.display_check import display_checks_due

    finance, floor = room["finance"], room["floor"]
    settings.JACKPOT_BOARD_DISPLAY_KEYS = {"hh-screen-key-0123456": "PA-TEST-1"}
    screen = Client()

    def pending() -> tuple[str, bool, bool]:
        board = screen.get("/jackpots/board/data?key=hh-screen-key-0123456").json()
        shown = next(f for f in board["funds"] if f["fund"] == "high-hand")
        fund = next(f for f in finance.get("/api/v1/jackpot-funds/").json()
                    if f["fund"] == "high-hand")
        return shown["displayed"], shown["pending_adjustment"], fund["display_pending"]

    def adjust() -> None:
        assert finance.post(URL + "display/adjust/").status_code == 200
        assert floor.post(URL + "display/witness/").status_code == 200

    adjust()
    assert pending() == ("$2.00", False, False)
    r = _slip(room, ["9c", "9s", "9h", "9d", "2h"], seat=2)
    period, end = r.json()["period"], datetime.fromisoformat(r.json()["period_end"])
    services.high_hand_periods_close_due(now=end + timedelta(seconds=1))
    assert pending() == ("$2.00", True, True)
    r = finance.post(URL + "high-hands/pay/", {"period": period, "slip": 1, "name": "P2",
                                               "identification": "PA DL 2"}, format="json")
    assert r.status_code == 200, r.json()
    row = Fund.objects.get(name="high-hand")
    assert (row.record_cents, row.displayed_cents) == (0, 200)
    assert pending() == ("$2.00", True, True)
    page = screen.get("/jackpots/board/?key=hh-screen-key-0123456").content.decode()
    assert "Pending adjustment: a payout from this fund is being recorded" in page
    assert "a Bad Beat is being paid" not in page  # the High Hand's own words, not the beat's
    assert fund_state(row).display_pending is True
    display_checks_due(datetime.now().astimezone() + timedelta(days=1))
    check = DisplayCheck.objects.get(fund="high-hand")
    assert (check.passed, check.reason) == (False, "pending_not_adjusted")
    adjust()
    assert pending() == ("$0.00", False, False)
