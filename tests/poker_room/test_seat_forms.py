"""A seat's console forms during play (issue 23 item 3): the seat, chips, sit-out,
step-away, minimum-bet and time-charge forms carry no version of the poker table's
stream, which moves at every hand dealt and settled (HandDealtAtTable, HandSettled), so a
form opened before a hand is still good after it; the services' rules refuse a seat in
the wrong state, as the API does."""

from __future__ import annotations

import re
from typing import Any

import pytest

from django.contrib.auth import get_user_model
from django.test import Client

from casino.declared import declared
from casino.eventstore.models import Event
from poker_room.models import Seat
from tests.poker_room._play import play_hand, poker_table_ready

pytestmark = pytest.mark.postgres

SEAT_FORMS = ("seat_player", "chips_add", "sit_out", "sit_in", "step_away", "player_return",
              "seat_leave", "player_remove", "minimum_bet_raise", "time_charge_verify")


def _hidden(response: Any) -> dict[str, str]:
    assert response.status_code == 200
    return dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"',
                           response.content.decode()))


@pytest.mark.parametrize("name", SEAT_FORMS)
def test_a_seat_form_carries_no_version_of_the_tables_stream(name: str) -> None:
    assert declared(name).stream is None


def test_a_chips_form_opened_before_a_hand_is_recorded_after_it(
        crew, poker_table) -> None:  # noqa: ANN001
    """637a.8(b)(2): chips are added between hands. The form is opened, a whole hand is
    dealt and settled at the table, then the form is sent: recorded (not "this changed
    since you opened it"), seat 1's stakes $100.00 + $50.00 = $150.00 give or take the
    hand's result."""
    table = poker_table("holdem")["table"]
    poker_table_ready(table, crew, players=3)
    c = Client()
    c.force_login(get_user_model().objects.get(pk=crew["dealer"].user_id))  # its dealer
    url = f"/console/do/chips_add/{table.pk}/"
    hidden = _hidden(c.get(url))
    assert "_version" not in hidden
    play_hand(table, crew)
    stack = Seat.objects.get(table=table, seat=1).stack_cents
    before = Event.objects.count()
    r = c.post(url, {**hidden, "seat": "1", "amount_cents": "50.00", "paid_with": "chips"})
    assert r.status_code == 303, r.content.decode()[:2000]
    assert [e.type for e in Event.objects.order_by("position")[before:]] == ["ChipsAdded"]
    assert Seat.objects.get(table=table, seat=1).stack_cents == stack + 5_000
