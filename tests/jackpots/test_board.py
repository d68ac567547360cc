"""The jackpot board's data and who may open it (§ 637a.15(b), § 637a.16(b): the current
amounts displayed; § 637a.15(f)(1): pending adjustment after a verified Bad Beat)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from casino.eventstore import projections
from casino.services import property_register
from jackpots import services
from tests.jackpots._hands import play_bad_beat, seat_four
from tests.console.conftest import client_of, verified_login  # the second factor given

pytestmark = pytest.mark.django_db
KEY = "jackpot-screen-key-0123"


@pytest.mark.regulation("637a.15(b)", "637a.15(f)(1)", "637a.16(b)")
def test_the_board_shows_the_displayed_amounts_and_the_pending_adjustment(
        crew, poker_table: Callable, as_actor: Callable, staff: Callable, settings) -> None:
    """§ 637a.15(b): the amount shown is the one finance last adjusted the display to
    (§ 637a.15(h)), not the running record; § 637a.15(f)(1): once the supervisor verifies
    a Bad Beat the board says the amount is pending adjustment; no player's name."""
    settings.JACKPOT_BOARD_DISPLAY_KEYS = {KEY: "PA-TEST-1"}
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    h = play_bad_beat(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    screen = Client()
    board = screen.get(f"/jackpots/board/data?key={KEY}").json()
    assert {f["fund"]: (f["displayed"], f["pending_adjustment"]) for f in board["funds"]} == {
        "bad-beat": ("to be announced", False), "high-hand": ("to be announced", False)}
    finance, floor = staff("finance"), crew["floor"]
    services.display_adjust(actor=finance, fund="high-hand")
    services.display_witness(actor=floor, fund="high-hand")
    supervisor = staff("poker_shift_supervisor")
    services.bad_beat_verify(actor=supervisor, fund="bad-beat", hand_id=h["round_id"])
    r = screen.get(f"/jackpots/board/data?key={KEY}")
    funds = {f["fund"]: f for f in r.json()["funds"]}
    assert (funds["high-hand"]["displayed"], funds["high-hand"]["kind"]) == ("$1.00",
                                                                            "High Hand")
    assert (funds["bad-beat"]["kind"], funds["bad-beat"]["pending_adjustment"]) == (
        "Bad Beat", True)
    page = screen.get(f"/jackpots/board/?key={KEY}").content.decode()
    assert "Pending adjustment" in page and "$1.00" in page


def test_the_board_is_scoped_and_refused_without_a_role_or_key(crew, make_staff,
                                                               settings) -> None:
    """Deny by default: no login, a login without a role of the room, a wrong key: 403
    with a code; another property's staff see their own funds only."""
    anonymous = Client()
    r = anonymous.get("/jackpots/board/data")
    assert (r.status_code, r.json()["code"]) == (403, "not_authenticated")
    assert anonymous.get("/jackpots/board/").status_code == 403
    assert anonymous.get("/jackpots/board/data?key=wrong").json()["code"] == \
        "display_key_unknown"
    nobody = Client()
    verified_login(nobody, make_staff())
    assert nobody.get("/jackpots/board/data").json()["code"] == "role_required"
    other = property_register(licence_number="PA-OTHER-8", name="Other", system="test")
    theirs = Client()
    verified_login(theirs, make_staff("floorperson", property=other))
    assert theirs.get("/jackpots/board/data").json()["funds"] == []
    assert client_of(crew["floor"]).get("/jackpots/board/").status_code == 200


@pytest.mark.regulation("637a.16(f)(3)")
def test_the_board_shows_the_periods_high_hand_by_table_and_seat_never_the_player(
        crew, poker_table: Callable, as_actor: Callable, settings) -> None:
    """§ 637a.16(f), (g): the highest hand of the period running, with its table and
    seat, and when the period ends; the slip's name and phone stay off the board."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from tests.jackpots._hands import play_hand, seat_three

    settings.JACKPOT_BOARD_DISPLAY_KEYS = {KEY: "PA-TEST-1"}
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_three(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    board = Client().get(f"/jackpots/board/data?key={KEY}").json()
    high = next(f for f in board["funds"] if f["fund"] == "high-hand")["high_hand"]
    assert high["hand"] is None and datetime.fromisoformat(high["ends_at"])
    slip = services.high_hand_record(
        actor=crew["floor"], fund="high-hand", table_id=setup["table"].pk, seat=3,
        cards=["Ks", "Kd", "Kh", "5c", "5d"], dealer=crew["dealer"].username,
        player={"name": "Secret Name", "phone": "555-0123"})
    r = Client().get(f"/jackpots/board/data?key={KEY}")
    high = next(f for f in r.json()["funds"] if f["fund"] == "high-hand")["high_hand"]
    assert (high["hand"], high["table"], high["seat"]) == (
        "Full house, kings over fives", setup["table"].name, 3)
    # the period named as the API names it (issue 22): the slip's local start (its key,
    # "2026-11-25T20:00") with the property's offset, never the naive key
    start = datetime.fromisoformat(high["period"])
    assert start.tzinfo is not None
    assert start == datetime.fromisoformat(slip["period"]).replace(
        tzinfo=ZoneInfo(setup["table"].property.time_zone))
    assert high["ends_at"] == slip["period_end"]
    page = Client().get(f"/jackpots/board/?key={KEY}").content.decode()
    assert "Secret Name" not in r.content.decode() + page and "555-0123" not in page
