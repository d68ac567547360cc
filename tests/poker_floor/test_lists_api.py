"""The floor's list and call commands through the API (each declared once in
poker_floor.commands): a list opened, a player added, called and seated; a refusal is
its code with nothing appended."""

from __future__ import annotations

import pytest

from poker_floor.models import ListEntry
from poker_room.models import Seat
from tests.poker_floor._helpers import BUY_IN, event_count

pytestmark = pytest.mark.django_db
V1 = "/api/v1"


def test_a_list_opened_a_player_added_called_and_seated(floor, as_actor) -> None:
    t = floor.table()
    floor.fill(t, leave=(4,))
    api = as_actor(floor["floor"])
    r = api.post(f"{V1}/waitlists/open/", {"game": "holdem", "open_table_at": 8}, format="json")
    assert r.status_code == 201, r.json()
    wl = r.json()
    assert (wl["name"], wl["open_table_at"], wl["order"]) == (
        "$4.00/$8.00 fixed limit Hold'em", 8, [])
    r = api.post(f"{V1}/waitlists/{wl['id']}/players/",
                 {"name": "Ann Lee", "phone": "201-555-0123"}, format="json")
    assert r.status_code == 201, r.json()
    assert (r.json()["phone"], r.json()["initials"]) == ("+12015550123", "A.L.")
    r = api.post(f"{V1}/waitlists/{wl['id']}/calls/next/", {"table_id": str(t.pk), "seat": 4},
                 format="json")
    assert r.status_code == 201, r.json()
    call = r.json()
    assert (call["seat"], call["state"]) == (4, "open")
    dealer = as_actor(floor["dealer"])
    r = dealer.post(f"{V1}/calls/{call['id']}/seat/",
                    {"buy_in_cents": BUY_IN, "paid_with": "chips"}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["state"] == "seated"
    assert Seat.objects.get(table_id=t.pk, seat=4).player_name == "Ann Lee"
    assert ListEntry.objects.get().status == "seated"


def test_a_phone_that_is_not_one_is_a_400_with_its_code(floor, as_actor) -> None:
    wl = floor.waitlist()
    before = event_count()
    r = as_actor(floor["floor"]).post(f"{V1}/waitlists/{wl.pk}/players/",
                                      {"name": "Ann Lee", "phone": "12345"}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_phone")
    assert event_count() == before


def test_a_pass_without_a_reason_is_a_400(holdem, as_actor) -> None:
    api = as_actor(holdem.floor["floor"])
    before = event_count()
    r = api.post(f"{V1}/waitlists/{holdem.waitlist.pk}/calls/",
                 {"entry_id": str(holdem.entries[1].pk), "table_id": str(holdem.tables[0].pk),
                  "seat": 9}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "reason_required")
    assert event_count() == before


def test_a_dealer_may_not_add_players(floor, as_actor) -> None:
    wl = floor.waitlist()
    r = as_actor(floor["dealer"]).post(f"{V1}/waitlists/{wl.pk}/players/", {"name": "Ann Lee"},
                                       format="json")
    assert r.status_code == 403
