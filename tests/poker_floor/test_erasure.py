"""The erasure test of issue 24 (item 8, "Done when"): a list entry's name, phone and
e-mail are sealed in the events under the entry's own key, and once the retention period
has passed (FLOOR_RETENTION_DAYS, 30 days from the listing by default) the beat task
erases them. After it no read shows them — the lists' API and console pages, the
fairness record, the public feed and the room board, the list's and the table's
histories, the seat the player was called to — while every event stored before is
unchanged, the chain is intact and ``verify_events`` passes."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from casino import personal_data
from casino.models import Event, PersonalDataKey
from poker_floor.models import ListEntry
from poker_floor.services import calls
from poker_floor.services.pages import call_page
from poker_room.models import Seat
from tests.console.conftest import client_of, text_of
from tests.poker_floor._gateway import Gateway, gateway, sms_gateway  # noqa: F401  (fixtures)
from tests.poker_floor._helpers import BUY_IN, Floor

pytestmark = pytest.mark.django_db

#: every detail the two players gave, as typed and as stored, and what everyone else
#: reads of them (their initials)
DETAILS = ["Jane Smith", "201-555-0123", "+12015550123", "jane.smith@example.com",
           "Bob Stone", "212-555-0199", "+12125550199", "J.S.", "B.S."]


@pytest.fixture
def day(floor: Floor, sms_gateway: Gateway) -> dict[str, Any]:  # noqa: F811
    """Table T3 full but seat 9 and the Hold'em list: Jane Smith and Bob Stone listed,
    Jane called to seat 9, paged (the fake gateway received it) and seated; Bob waits."""
    t3 = floor.table(name="T3")
    floor.fill(t3, leave=(9,))
    wl = floor.waitlist()
    listed_at = timezone.now()
    jane = floor.list_player(wl, "Jane Smith", phone="201-555-0123",
                             email="jane.smith@example.com")
    bob = floor.list_player(wl, "Bob Stone", phone="212-555-0199")
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=t3.pk, seat=9)
    assert call_page(call.pk) == "sent"
    assert [m["to"] for m in sms_gateway.messages] == ["+12015550123"]
    calls.call_seat(actor=floor["floor"], call_id=call.pk, buy_in_cents=BUY_IN,
                    paid_with="cash")
    return {"floor": floor, "table": t3, "list": wl, "jane": jane, "bob": bob,
            "listed_at": listed_at}


def _reads(day: dict[str, Any]) -> str:
    """Every read of the floor a person has: the lists' API and pages (the floor's, with
    the details), the fairness record (page and API), the public feed and kiosk page, the
    room board, the list's and the table's histories, the table's seats (API and page)."""
    f, wl, t3 = day["floor"], day["list"], day["table"]
    floor_person = client_of(f["floor"])
    pages = []
    for url in ("/console/poker/lists/", f"/console/poker/lists/{wl.pk}/",
                f"/console/poker/lists/{wl.pk}/fairness/",
                f"/console/poker/tables/{t3.pk}/seats/9/"):
        r = floor_person.get(url)
        assert r.status_code == 200, url
        pages.append(text_of(r.content.decode()))
    officer = client_of(f["compliance"])
    for stream in (f"waitlist-{wl.pk}", f"poker_table-{t3.pk}"):
        r = officer.get(f"/console/events/stream/{stream}/")
        assert r.status_code == 200
        pages.append(text_of(r.content.decode()))
    api = client_of(f["floor"])
    for url in ("/api/v1/waitlists/", f"/api/v1/waitlists/{wl.pk}/fairness/",
                f"/api/v1/poker-tables/{t3.pk}/seats/"):
        r = api.get(url)
        assert r.status_code == 200, url
        pages.append(r.content.decode())
    public = Client()
    for url in ("/poker/live/PA-TEST-1/", "/poker/live/PA-TEST-1/feed.json"):
        r = public.get(url)
        assert r.status_code == 200, url
        pages.append(r.content.decode())
    board = Client()
    board.force_login(get_user_model().objects.get(pk=f["dealer"].user_id))
    pages.append(json.dumps(board.get("/poker/board/data").json()))
    return "\n".join(pages)


def _stored() -> list[tuple]:
    return [(e.position, e.prev_hash, e.hash, json.dumps(e.data, sort_keys=True),
             json.dumps(e.metadata, sort_keys=True)) for e in Event.objects.order_by("position")]


def test_the_details_are_never_in_clear_in_the_events(day) -> None:
    stored = "\n".join(f"{data} {meta}" for _, _, _, data, meta in _stored())
    assert [d for d in DETAILS if d in stored] == []


def test_the_floor_reads_the_details_while_the_keys_exist(day) -> None:
    text = _reads(day)
    assert [d for d in ("Jane Smith", "Bob Stone", "+12125550199", "J.S.", "B.S.")
            if d not in text] == []


def test_each_entry_is_kept_thirty_days_from_its_listing(day) -> None:
    key = PersonalDataKey.objects.get(subject=day["jane"].pk)
    assert key.kind == "list_entry"
    days = timedelta(days=30)
    assert day["listed_at"] + days <= key.retain_until <= timezone.now() + days


def test_after_the_retention_the_details_are_gone_from_every_read_and_the_log_is_intact(
        day, capsys) -> None:  # noqa: ANN001
    before = _stored()
    assert personal_data.erase_due(timezone.now() + timedelta(days=29)) == 0
    later = timezone.now() + timedelta(days=31)
    assert personal_data.erase_due(later) == 2
    assert personal_data.erase_due(later) == 0
    after = _stored()
    assert after[:len(before)] == before  # every event stored before, byte for byte
    # then the two erasures, Jane's first (listed first, due first)
    assert [(json.loads(data)["kind"], json.loads(data)["subject"])
            for _, _, _, data, _ in after[len(before):]] == [
        ("list_entry", str(day["jane"].pk)), ("list_entry", str(day["bob"].pk))]
    call_command("verify_events", "--no-progress")
    assert f"ok: {len(after)} events in " in capsys.readouterr().out
    text = _reads(day)
    assert [d for d in DETAILS if d in text] == []
    rows = ListEntry.objects.order_by("listed_at").values_list(
        "name", "phone", "email", "initials", "erased")
    assert list(rows) == [("", "", "", "", True), ("", "", "", "", True)]
    seat = Seat.objects.get(table_id=day["table"].pk, seat=9)
    assert (seat.player_name, seat.player_phone) == ("", "")
