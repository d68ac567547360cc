"""The kiosk (issue 24, item 6): a player adds themselves to a list from the live feed's
page with a name or initials and a phone; a 6-digit code texted to the phone (to the fake
gateway here) confirms it. Every refusal appends nothing: a phone that is not one
(``invalid_phone``), a flood past the limits per phone and per address (429
``kiosk_limit``), a wrong or spent code."""

from __future__ import annotations

import pickle
import re
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from poker_floor import feed
from poker_floor.models import ListEntry
from tests.poker_floor._gateway import Gateway, gateway, sms_gateway  # noqa: F401  fixtures
from tests.poker_floor._helpers import Floor, event_count, list_events

pytestmark = pytest.mark.django_db

JOIN = "/poker/live/PA-TEST-1/join/"
CONFIRM = "/poker/live/PA-TEST-1/join/confirm/"


@pytest.fixture(autouse=True)
def kiosk(settings: Any) -> Iterator[None]:
    """The kiosk on, its requests and counts in this test's own memory."""
    settings.FLOOR_KIOSK = True
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                    "LOCATION": "kiosk-test-default"},
        "kiosk": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                  "LOCATION": "kiosk-test"}}
    caches["kiosk"].clear()
    feed.forget()
    yield
    caches["kiosk"].clear()


@pytest.fixture
def waitlist(floor: Floor) -> Any:
    floor.table()
    return floor.waitlist()


def _ask(client: Client, waitlist: Any, name: str = "Jo Smith",
         phone: str = "201-555-0123") -> Any:
    return client.post(JOIN, {"waitlist": str(waitlist.pk), "name": name, "phone": phone})


def _code(gateway: Gateway) -> str:
    return re.search(r"\b(\d{6})\b", gateway.messages[-1]["message"]).group(1)


def _refusal(response: Any) -> str | None:
    m = re.search(r'data-code="([a-z_]+)"', response.content.decode())
    return m.group(1) if m else None


def test_a_player_adds_themselves_with_the_texted_code(waitlist, sms_gateway) -> None:
    c = Client()
    form = c.get(JOIN)
    assert form.status_code == 200
    page = form.content.decode()
    for field in ("id_waitlist", "id_name", "id_phone"):
        assert f'<label for="{field}">' in page
    assert "csrfmiddlewaretoken" in page
    before = event_count()
    asked = _ask(c, waitlist)
    assert asked.status_code == 302 and asked["Location"].startswith(CONFIRM + "?r=")
    # the code went to the phone given (E.164), and nothing is recorded yet
    assert [m["to"] for m in sms_gateway.messages] == ["+12015550123"]
    assert event_count() == before
    assert c.get(asked["Location"]).status_code == 200
    token = asked["Location"].split("?r=")[1]
    done = c.post(CONFIRM, {"r": token, "code": _code(sms_gateway)})
    assert done.status_code == 200
    text = done.content.decode()
    assert "J.S." in text and "number 1 in line" in text and "Smith" not in text
    entry = ListEntry.objects.get(waitlist=waitlist)
    assert (entry.name, entry.phone, entry.source, entry.initials) == (
        "Jo Smith", "+12015550123", "kiosk", "J.S.")
    listed = list_events(waitlist)[-1]
    assert (listed.type, listed.data["source"], listed.metadata["actor"]) == (
        "PlayerListed", "kiosk", "system:kiosk")
    # the code is spent: a second confirmation adds no one
    again = c.post(CONFIRM, {"r": token, "code": _code(sms_gateway)})
    assert (again.status_code, _refusal(again)) == (400, "kiosk_code_expired")
    assert ListEntry.objects.filter(waitlist=waitlist).count() == 1


def test_a_phone_that_is_not_a_phone_is_refused_and_nothing_sent(waitlist, sms_gateway
                                                                 ) -> None:
    before = event_count()
    r = _ask(Client(), waitlist, phone="12")
    assert (r.status_code, _refusal(r)) == (400, "invalid_phone")
    assert 'aria-invalid="true"' in r.content.decode()
    assert sms_gateway.messages == [] and event_count() == before


def test_a_phone_is_needed(waitlist, sms_gateway) -> None:
    r = _ask(Client(), waitlist, phone="")
    assert (r.status_code, _refusal(r)) == (400, "invalid_phone")
    assert sms_gateway.messages == []


def test_a_wrong_code_is_refused_and_five_end_the_request(waitlist, sms_gateway) -> None:
    c = Client()
    token = _ask(c, waitlist)["Location"].split("?r=")[1]
    right = _code(sms_gateway)
    wrong = "000000" if right != "000000" else "111111"
    before = event_count()
    codes = [_refusal(c.post(CONFIRM, {"r": token, "code": wrong})) for _ in range(5)]
    assert codes == ["kiosk_code_wrong"] * 4 + ["kiosk_code_expired"]
    late = c.post(CONFIRM, {"r": token, "code": right})
    assert (late.status_code, _refusal(late)) == (400, "kiosk_code_expired")
    assert event_count() == before


def test_a_phone_past_its_daily_limit_is_429(waitlist, sms_gateway, settings) -> None:
    settings.KIOSK_PER_PHONE_PER_DAY = 2
    assert [_ask(Client(REMOTE_ADDR=f"198.51.100.{n}"), waitlist).status_code
            for n in (1, 2)] == [302, 302]
    before = event_count()
    r = _ask(Client(REMOTE_ADDR="198.51.100.3"), waitlist)
    assert (r.status_code, _refusal(r)) == (429, "kiosk_limit")
    assert int(r["Retry-After"]) in range(1, 86_401)  # within the day's limit
    assert len(sms_gateway.messages) == 2 and event_count() == before


def test_an_address_past_its_hourly_limit_is_429(waitlist, sms_gateway, settings) -> None:
    settings.KIOSK_PER_ADDRESS_PER_HOUR = 2
    c = Client()
    phones = ["201-555-0123", "(212) 555-0199", "617-555-0142"]
    statuses = [_ask(c, waitlist, phone=p).status_code for p in phones]
    assert statuses == [302, 302, 429]
    assert len(sms_gateway.messages) == 2


def test_players_behind_the_proxy_have_an_hourly_limit_each(waitlist, sms_gateway,
                                                            settings) -> None:
    """Issue 35 item 4: behind a trusted reverse proxy every player's request came from
    the proxy's address, one hourly bucket for the whole floor. Each client behind it is
    counted apart; one that names another address to the left of its own is still
    itself."""
    settings.KIOSK_PER_ADDRESS_PER_HOUR = 2
    settings.TRUSTED_PROXIES = ["10.35.4.1"]
    first = Client(REMOTE_ADDR="10.35.4.1", HTTP_X_FORWARDED_FOR="198.51.100.41")
    second = Client(REMOTE_ADDR="10.35.4.1", HTTP_X_FORWARDED_FOR="198.51.100.42")
    dodger = Client(REMOTE_ADDR="10.35.4.1",
                    HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.41")
    phones = ["201-555-0123", "(212) 555-0199", "617-555-0142", "412-555-0101"]
    assert [_ask(first, waitlist, phone=p).status_code for p in phones[:2]] == [302, 302]
    refused = _ask(dodger, waitlist, phone=phones[2])
    assert (refused.status_code, _refusal(refused)) == (429, "kiosk_limit")
    assert [_ask(second, waitlist, phone=p).status_code for p in phones[2:]] == [302, 302]
    assert len(sms_gateway.messages) == 4


def test_a_player_listed_already_is_refused_at_the_code(waitlist, sms_gateway) -> None:
    c = Client()
    for _ in range(2):
        token = _ask(c, waitlist)["Location"].split("?r=")[1]
        r = c.post(CONFIRM, {"r": token, "code": _code(sms_gateway)})
    assert (r.status_code, _refusal(r)) == (409, "already_listed")
    assert ListEntry.objects.filter(waitlist=waitlist).count() == 1


def test_a_text_that_cannot_be_sent_keeps_nothing(waitlist, settings) -> None:
    from tests.poker_floor._gateway import closed_port

    settings.PAGING_SMS_URL = f"json://127.0.0.1:{closed_port()}/sms?:to={{phone}}"
    settings.PAGING_TIMEOUT_SECONDS = 1
    before = event_count()
    r = _ask(Client(), waitlist)
    assert (r.status_code, _refusal(r)) == (503, "kiosk_code_not_sent")
    assert event_count() == before


def test_the_form_needs_its_csrf_token(waitlist, sms_gateway) -> None:
    r = _ask(Client(enforce_csrf_checks=True), waitlist)
    assert r.status_code == 403 and sms_gateway.messages == []


def test_the_kiosk_is_off_by_default(waitlist, settings) -> None:
    settings.FLOOR_KIOSK = False
    assert Client().get(JOIN).status_code == 404
    assert _ask(Client(), waitlist).status_code == 404


def test_an_address_trying_codes_past_its_limit_is_429_even_for_the_right_code(
        waitlist, sms_gateway, settings) -> None:
    # one request an hour from an address: 5 codes (its tries) an hour from there
    settings.KIOSK_PER_ADDRESS_PER_HOUR = 1
    here = Client(REMOTE_ADDR="198.51.100.7")
    token = _ask(here, waitlist)["Location"].split("?r=")[1]
    right = _code(sms_gateway)
    wrong = "000000" if right != "000000" else "111111"
    before = event_count()
    tried = [_refusal(here.post(CONFIRM, {"r": token, "code": wrong})) for _ in range(4)]
    ended = here.post(CONFIRM, {"r": "no-such-request", "code": wrong})
    assert tried + [_refusal(ended)] == ["kiosk_code_wrong"] * 4 + ["kiosk_code_expired"]
    late = here.post(CONFIRM, {"r": token, "code": right})
    assert (late.status_code, _refusal(late)) == (429, "kiosk_limit")
    assert int(late["Retry-After"]) in range(1, 3_601)  # within the hour
    assert event_count() == before
    # the request itself has one try left, from another address
    done = Client(REMOTE_ADDR="198.51.100.8").post(CONFIRM, {"r": token, "code": right})
    assert done.status_code == 200
    assert ListEntry.objects.filter(waitlist=waitlist).count() == 1


def _cached(path: Any) -> bytes:
    """What the file cache keeps in ``path``: its key's expiry, then the value pickled
    and compressed (Django's FileBasedCache), uncompressed here."""
    with path.open("rb") as f:
        pickle.load(f)
        return path.name.encode() + zlib.decompress(f.read())


def test_the_cache_holds_no_name_phone_or_token_in_clear(waitlist, sms_gateway, settings,
                                                         tmp_path) -> None:
    settings.CACHES = {**settings.CACHES, "kiosk": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(tmp_path)}}
    c = Client()
    token = _ask(c, waitlist, name="Jo Smith", phone="201-555-0123")["Location"].split(
        "?r=")[1]
    stored = b"".join(_cached(f) for f in tmp_path.rglob("*.djcache"))
    assert b"licence" in stored  # the request (and its counts) are there, readable
    for clear in (b"Jo Smith", b"Smith", b"5550123", b"555-0123", token.encode()):
        assert clear not in stored
    # and the request still opens with the token
    done = c.post(CONFIRM, {"r": token, "code": _code(sms_gateway)})
    assert done.status_code == 200
    assert ListEntry.objects.get(waitlist=waitlist).phone == "+12015550123"


def test_concurrent_tries_never_get_more_than_five(settings, tmp_path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from poker_floor import kiosk

    settings.CACHES = {**settings.CACHES, "kiosk": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(tmp_path)}}
    caches["kiosk"].set_many({kiosk._ticket_key("t0k3n", n): 1 for n in range(5)})
    with ThreadPoolExecutor(max_workers=12) as pool:
        left = list(pool.map(lambda _: kiosk._take_ticket("t0k3n"), range(24)))
    # five tries were there: 4, 3, 2, 1 and 0 left after them, once each; no more
    assert sorted(x for x in left if x is not None) == [0, 1, 2, 3, 4]
    assert left.count(None) == 19
