"""A call's page (issue 24, item 5): the called player is paged once, through the service
configured by URL (here the fake SMS gateway on localhost), and the page is an event of
the list: PageSent with its text sealed, or PageFailed with the error in words. A page
names at most the player's initials and the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.personal_data import unseal
from poker_floor.models import Call
from poker_floor.paging import call_text
from poker_floor.paging_tasks import page_call
from poker_floor.services import calls
from poker_floor.services.pages import call_page, pages_sweep
from tests.poker_floor._gateway import (  # noqa: F401  (fixtures)
    Gateway,
    closed_port,
    gateway,
    sms_gateway,
)
from tests.poker_floor._helpers import event_count, list_events

pytestmark = pytest.mark.django_db

#: what Jane Smith's call to seat 9 of T3 says (5 minutes: the default Rules)
JANE_TEXT = ("J.S.: a seat is ready for you at table T3. Please come to the poker desk "
             "within 5 minutes.")


@pytest.fixture
def room(floor):  # noqa: ANN001, ANN201
    """Table T3 (Hold'em, 10 seats) full but seat 9, and its list."""
    t3 = floor.table(name="T3")
    floor.fill(t3, leave=(9,))
    return {"floor": floor, "table": t3, "list": floor.waitlist()}


def _list(room, name="Jane Smith", phone="201-555-0123", email=""):  # noqa: ANN001, ANN202
    return room["floor"].list_player(room["list"], name, phone=phone, email=email)


def _call(room) -> Call:  # noqa: ANN001
    return calls.call_next(actor=room["floor"]["floor"], waitlist_id=room["list"].pk,
                           table_id=room["table"].pk, seat=9)


def _pages(room) -> list:  # noqa: ANN001
    return [e for e in list_events(room["list"]) if e.type in ("PageSent", "PageFailed")]


# --- what a page says -----------------------------------------------------------------

def test_the_text_names_the_initials_and_the_table_only(room) -> None:  # noqa: ANN001
    entry = _list(room, "Jane Smith", phone="201-555-0123", email="jane.smith@example.com")
    call = _call(room)

    text = call_text(entry, call)

    assert text == JANE_TEXT
    for private in ("Jane", "Smith", "201", "555", "0123", "jane.smith", "example.com"):
        assert private not in text


def test_the_text_gives_the_rules_minutes(room) -> None:  # noqa: ANN001
    room["floor"].rules(waitlist={"call_minutes": 1, "move_down_places": 3,
                                  "missed_calls_allowed": 2})
    entry = _list(room)

    assert call_text(entry, _call(room)).endswith("within 1 minute.")


# --- paging a call --------------------------------------------------------------------

def test_a_call_pages_the_first_player_through_the_gateway(room, sms_gateway: Gateway
                                                           ) -> None:  # noqa: ANN001
    entry = _list(room)
    _list(room, "Bob Stone", phone="212-555-0199")
    call = _call(room)

    assert call_page(call.pk) == "sent"

    assert sms_gateway.messages == [{"to": "+12015550123", "message": JANE_TEXT}]
    [page] = _pages(room)
    assert (page.type, page.data["call"], page.data["entry"], page.data["channel"]) == (
        "PageSent", str(call.pk), str(entry.pk), "sms")
    assert unseal(page.data["message"]) == {"text": JANE_TEXT}
    assert "Smith" not in str(page.data)  # the text is in the event only sealed
    assert page.metadata["actor"] == "system:page"
    assert Call.objects.get(pk=call.pk).page == "sent"


def test_the_list_goes_on_after_a_page(room, sms_gateway: Gateway) -> None:  # noqa: ANN001
    _list(room)
    call = _call(room)
    call_page(call.pk)

    # the page moved the list's stream on: the next command appends after it
    cancelled = calls.call_cancel(actor=room["floor"]["floor"], call_id=call.pk,
                                  reason="the player left the room")

    assert cancelled.state == "cancelled"


def test_an_email_is_paged_through_djangos_backend_by_default(room, settings, mailoutbox
                                                              ) -> None:  # noqa: ANN001
    settings.PAGING_SMS_URL = ""
    _list(room, phone="", email="jane.smith@example.com")
    call = _call(room)

    assert call_page(call.pk) == "sent"

    assert [(m.to, m.body) for m in mailoutbox] == [(["jane.smith@example.com"], JANE_TEXT)]
    assert [(p.type, p.data["channel"]) for p in _pages(room)] == [("PageSent", "email")]


def test_a_gateway_answering_500_gives_page_failed(room, sms_gateway: Gateway
                                                   ) -> None:  # noqa: ANN001
    sms_gateway.status = 500
    entry = _list(room)
    call = _call(room)

    assert call_page(call.pk) == "failed"

    [page] = _pages(room)
    assert (page.type, page.data) == ("PageFailed", {
        "call": str(call.pk), "entry": str(entry.pk), "channel": "sms", "error": "refused"})
    assert Call.objects.get(pk=call.pk).page == "failed"
    assert len(sms_gateway.received) == 1


def test_a_failed_page_is_not_tried_again(room, sms_gateway: Gateway) -> None:  # noqa: ANN001
    sms_gateway.status = 500
    _list(room)
    call = _call(room)
    page_call(str(call.pk))
    before = event_count()

    assert page_call(str(call.pk)) == "already-paged"
    assert pages_sweep(timezone.now() + timedelta(minutes=1)) == {}

    assert len(sms_gateway.received) == 1
    assert event_count() == before


def test_a_closed_port_gives_page_failed(room, settings) -> None:  # noqa: ANN001
    settings.PAGING_SMS_URL = f"json://127.0.0.1:{closed_port()}/sms?:to={{phone}}"
    _list(room)
    call = _call(room)

    assert call_page(call.pk) == "failed"

    assert [(p.type, p.data["error"]) for p in _pages(room)] == [("PageFailed", "refused")]


def test_a_player_with_no_phone_or_email_is_no_channel(room, sms_gateway: Gateway
                                                       ) -> None:  # noqa: ANN001
    _list(room, phone="", email="")
    call = _call(room)

    assert call_page(call.pk) == "failed"

    assert [(p.type, p.data["channel"], p.data["error"]) for p in _pages(room)] == [
        ("PageFailed", "", "no_channel")]
    assert sms_gateway.received == []


# --- once -----------------------------------------------------------------------------

def test_a_page_task_delivered_twice_sends_once(room, sms_gateway: Gateway
                                                ) -> None:  # noqa: ANN001
    _list(room)
    call = _call(room)

    assert page_call(str(call.pk)) == "sent"
    assert page_call(str(call.pk)) == "already-paged"

    assert len(sms_gateway.messages) == 1
    assert [p.type for p in _pages(room)] == ["PageSent"]


def test_a_call_no_longer_open_is_not_paged(room, sms_gateway: Gateway) -> None:  # noqa: ANN001
    _list(room)
    call = _call(room)
    calls.call_cancel(actor=room["floor"]["floor"], call_id=call.pk, reason="table closing")
    before = event_count()

    assert page_call(str(call.pk)) == "not-open"

    assert sms_gateway.received == []
    assert event_count() == before


def test_an_unknown_call_is_not_paged(sms_gateway: Gateway) -> None:
    before = event_count()

    assert page_call("7d9f2c1e-0000-4000-8000-000000000000") == "no-call"
    assert page_call("not-a-call") == "no-call"

    assert sms_gateway.received == []
    assert event_count() == before


def test_the_sweep_pages_a_call_whose_message_was_lost(room, sms_gateway: Gateway
                                                       ) -> None:  # noqa: ANN001
    _list(room)
    call = _call(room)

    # not yet: its task may still be on its way (30 s)
    assert pages_sweep(call.called_at + timedelta(seconds=10)) == {}
    assert pages_sweep(call.called_at + timedelta(seconds=31)) == {"sent": 1}

    assert len(sms_gateway.messages) == 1
