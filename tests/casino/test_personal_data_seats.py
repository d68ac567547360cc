"""A named player seated at a poker table (§ 637a.8(a); the name and phone a High Hand slip
needs, § 637a.16(f)(1)) is personal data too (issue 24 item 8): ``PlayerSeated`` holds
them sealed, under the list entry's key when the floor seats a called player, or a key of
the seating's own, kept 30 days from the seating by default. Erased, the seat is a seat
with no name, the table's history says so, and the log verifies."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino import personal_data
from casino.domain.errors import ConflictError
from casino.models import Event, PersonalDataKey
from poker_room.models import Seat
from poker_room.services.seats import seat_player
from tests.console.conftest import client_of, text_of
from tests.poker_room.conftest import as_actor, poker_table  # noqa: F401
from tests.tables.conftest import (  # noqa: F401
    crew,
    open_table,
    put_rules_in_effect,
    staff,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(crew: dict, poker_table: Callable, as_actor: Callable) -> dict[str, Any]:
    table = poker_table("holdem")["table"]
    before = timezone.now()
    r = as_actor(crew["dealer"]).post(
        f"/api/v1/poker-tables/{table.pk}/seats/take/",
        {"seat": 3, "buy_in_cents": 10_000, "paid_with": "cash",
         "player": {"name": "Jo Smith", "phone": "215-555-0101"}}, format="json")
    assert r.status_code == 201, r.json()
    return {"table": table, "before": before, "after": timezone.now(), "crew": crew,
            "api": as_actor(crew["floor"])}


def _seated_event() -> Event:
    return Event.objects.get(type="PlayerSeated")


def _reads(seated: dict, compliance: Any) -> str:
    table = seated["table"]
    pages = [seated["api"].get(f"/api/v1/poker-tables/{table.pk}/seats/").content.decode()]
    r = client_of(seated["crew"]["floor"]).get(f"/console/poker/tables/{table.pk}/seats/3/")
    assert r.status_code == 200
    pages.append(text_of(r.content.decode()))
    r = client_of(compliance).get(f"/console/events/stream/poker_table-{table.pk}/")
    assert r.status_code == 200
    pages.append(text_of(r.content.decode()))
    return "\n".join(pages)


def test_the_seated_players_details_are_sealed_in_the_event(seated) -> None:
    event = _seated_event()
    stored = json.dumps(event.data)
    assert "Jo Smith" not in stored and "555-0101" not in stored
    assert personal_data.unseal(event.data["player"]) == {"name": "Jo Smith",
                                                          "phone": "215-555-0101"}
    seat = Seat.objects.get(seat=3)
    assert (seat.player_name, seat.player_phone) == ("Jo Smith", "215-555-0101")


def test_a_seating_of_its_own_is_kept_thirty_days_from_then(seated) -> None:
    key = PersonalDataKey.objects.get(subject=Seat.objects.get(seat=3).personal_subject)
    assert key.kind == "seated_player"
    days = timedelta(days=30)
    assert seated["before"] + days <= key.retain_until <= seated["after"] + days


def test_the_erasure_leaves_a_seat_with_no_name_and_the_log_intact(seated, staff,
                                                                   capsys) -> None:  # noqa: ANN001
    compliance = staff("compliance")
    assert "Jo Smith" in _reads(seated, compliance)
    stored = [(e.position, e.hash, json.dumps(e.data, sort_keys=True))
              for e in Event.objects.order_by("position")]
    personal_data.personal_data_erase(Seat.objects.get(seat=3).personal_subject,
                                      actor=compliance, reason="the player asked")
    text = _reads(seated, compliance)
    assert "Jo Smith" not in text and "555-0101" not in text
    assert "seated a player (details erased) at seat 3" in text
    # an anonymous seat, as the API answers one (the player null)
    r = seated["api"].get(f"/api/v1/poker-tables/{seated['table'].pk}/seats/").json()
    assert [(s["seat"], s["player"]) for s in r["seats"]] == [(3, None)]
    assert [(e.position, e.hash, json.dumps(e.data, sort_keys=True))
            for e in Event.objects.order_by("position")][:len(stored)] == stored
    call_command("verify_events", "--no-progress")
    assert f"ok: {Event.objects.count()} events in " in capsys.readouterr().out


def test_a_player_seated_under_an_erased_key_is_refused_and_nothing_appended(
        crew: dict, poker_table: Callable, staff: Callable, demo_property) -> None:  # noqa: ANN001
    table = poker_table("holdem")["table"]
    subject = uuid.uuid4()
    personal_data.key_create(subject=subject, property_id=demo_property.pk, kind="list_entry")
    personal_data.personal_data_erase(subject, actor=staff("compliance"), reason="asked")
    before = Event.objects.count()
    with pytest.raises(ConflictError) as refused:
        seat_player(actor=crew["dealer"], table_id=table.pk, seat=2, buy_in_cents=10_000,
                    paid_with="chips", player={"name": "Jo Smith", "phone": ""},
                    personal_subject=subject)
    assert (refused.value.code, Event.objects.count()) == ("personal_data_erased", before)
