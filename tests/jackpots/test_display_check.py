"""The daily check of the displayed amounts (§ 637a.15(h)(1)-(2), § 637a.16(b)): once a
gaming day is over, a fund whose display was not adjusted during it, or is still pending
after a verified Bad Beat, is an exception; checked once per fund and day."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from casino.eventstore import projections
from jackpots import services
from jackpots.models import DisplayCheck
from jackpots.services.display_check import display_checks_due
from tests.jackpots._hands import play_bad_beat, seat_four

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict:
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    h = play_bad_beat(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    return {"hand": h["round_id"], "finance": staff("finance"), "floor": crew["floor"],
            "supervisor": staff("poker_shift_supervisor"), "as_actor": as_actor}


def _tomorrow() -> datetime:
    return datetime.now().astimezone() + timedelta(days=1)


@pytest.mark.regulation("637a.15(h)")
def test_a_display_not_adjusted_during_the_day_is_an_exception(room) -> None:
    """§ 637a.15(h): no less than once a day: the high-hand display was adjusted today,
    the bad-beat one was not. Run twice, each fund is checked once."""
    services.display_adjust(actor=room["finance"], fund="high-hand")
    services.display_witness(actor=room["floor"], fund="high-hand")
    assert display_checks_due(_tomorrow()) == 2
    assert display_checks_due(_tomorrow()) == 0
    checks = {c.fund: (c.passed, c.reason) for c in DisplayCheck.objects.all()}
    assert checks == {"high-hand": (True, ""), "bad-beat": (False, "not_adjusted")}
    finance = room["as_actor"](room["finance"])
    r = finance.get("/api/v1/jackpot-funds/bad-beat/display-checks/")
    assert [(c["passed"], c["reason"]) for c in r.json()] == [(False, "not_adjusted")]


@pytest.mark.regulation("637a.15(f)(1)", "637a.15(h)")
def test_a_display_still_pending_after_a_bad_beat_is_an_exception(room) -> None:
    """§ 637a.15(f)(1), (h): adjusted in the morning, then a Bad Beat verified and the
    display never adjusted again: pending at the day's end is an exception."""
    services.display_adjust(actor=room["finance"], fund="bad-beat")
    services.display_witness(actor=room["floor"], fund="bad-beat")
    services.bad_beat_verify(actor=room["supervisor"], fund="bad-beat", hand_id=room["hand"])
    display_checks_due(_tomorrow())
    check = DisplayCheck.objects.get(fund="bad-beat")
    assert (check.passed, check.reason) == (False, "pending_not_adjusted")
