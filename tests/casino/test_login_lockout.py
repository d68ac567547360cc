"""A login lock-out that cannot be turned against the floor (issue 26 item 7).

An account is locked after ``LOGIN_FAILURE_LIMIT`` wrong passwords from any address; an
address is never locked (one person at a terminal behind the floor's proxy locked out
every account there), only slowed once its wrong passwords, whatever the accounts, pass
``LOGIN_ADDRESS_FAILURE_LIMIT``; and behind a trusted proxy the client's own address is
the one counted. Real axes, real database, both login paths (the API's token, the
console's form).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Sum
from django.test import Client, override_settings
from rest_framework.test import APIClient

from casino.eventstore.store import read_stream
from casino.login_addresses import client_address, parse_trusted_proxies
from casino.services.logins import login_stream_id

PASSWORD = "test-pass-123"  # make_staff's
ROOT = Path(__file__).resolve().parents[2]


def _api(username: str, password: str, address: str, **headers: str) -> tuple[str, Any]:
    answer = APIClient(REMOTE_ADDR=address).post(
        "/api/v1/auth/token/", {"username": username, "password": password},
        format="json", **headers)
    kind = {200: "in", 401: "wrong", 429: "locked"}[answer.status_code]
    return kind, answer


def _console(username: str, password: str, address: str, **headers: str) -> tuple[str, Any]:
    answer = Client(REMOTE_ADDR=address).post(
        "/console/login/", {"username": username, "password": password}, **headers)
    kind = {302: "in", 400: "wrong", 429: "locked"}[answer.status_code]
    return kind, answer


LOGINS = {"api": _api, "console": _console}


def _failures_from(address: str) -> int:
    return AccessAttempt.objects.filter(ip_address=address).aggregate(
        n=Sum("failures_since_start"))["n"] or 0


def _types(stream_id: str) -> list[str]:
    return [e.type for e in read_stream(stream_id)]


def _throttle(answer: Any) -> float:
    """The delay the login code put on this answer (0: none)."""
    return getattr(answer.wsgi_request, "login_throttle_seconds", 0.0)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["api", "console"])
def test_200_wrong_passwords_lock_that_account_only(make_staff: Callable, path: str) -> None:
    """THE "done when" of issue 26 item 7, with the default limits: 200 wrong passwords
    on one account from one address, then every other account logs in from that address
    with its own password; the attacked account is locked, right password or not, from
    that address and from any other."""
    login = LOGINS[path]
    assert (settings.AXES_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT) == (5, 50)
    victim = make_staff("dealer")
    others = [make_staff(role) for role in ("dealer", "floorperson", "cashier", "security",
                                            "poker_shift_supervisor", "count_team")]
    address = "10.26.7.1"
    kinds = [login(victim.username, f"guess-{n}", address)[0] for n in range(200)]
    # Four wrong answers, then the fifth wrong password is answered with the lock-out,
    # and every later attempt is refused without its password being checked.
    assert kinds[:4] == ["wrong"] * 4 and kinds[4:] == ["locked"] * 196
    # Only the five checked passwords are on record against the address: far below its
    # limit of 50, so nothing from it is slowed.
    assert _failures_from(address) == 5
    started = time.monotonic()
    for other in others:
        kind, answer = login(other.username, PASSWORD, address)
        assert kind == "in", (other.username, answer.status_code)
        assert _throttle(answer) == 0.0
    assert time.monotonic() - started < 5  # six logins, none waited a second
    for elsewhere in (address, "10.26.99.1"):
        kind, answer = login(victim.username, PASSWORD, elsewhere)
        assert kind == "locked" and answer.status_code == 429
        assert int(answer["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    if path == "api":
        assert answer["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "login_locked_out"
    # Staff see it as before: one LoginLockedOut for the account, none for the address.
    lockouts = [e for e in read_stream(login_stream_id(username=victim.username))
                if e.type == "LoginLockedOut"]
    assert len(lockouts) == 1 and lockouts[0].data["failures"] == 5
    assert lockouts[0].data["ip_address"] == address
    assert _types(login_stream_id(ip_address=address)) == []


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["api", "console"])
@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=4, LOGIN_ADDRESS_DELAY_MS=400,
                   LOGIN_ADDRESS_MAX_DELAY_MS=800)
def test_spraying_from_one_address_is_slowed_and_a_right_password_still_logs_in(
        make_staff: Callable, path: str) -> None:
    """One wrong password at each of many accounts from one address: no account reaches
    its own limit, the address's fifth failure (limit 4) waits 0.4 s, the sixth 0.8 s,
    the seventh 0.8 s (the cap); a right password from there is not slowed, and another
    address is not slowed either."""
    login = LOGINS[path]
    accounts = [make_staff("dealer") for _ in range(8)]
    address = "10.26.8.1"
    waits, bodies = [], set()
    for account in accounts[:4]:
        kind, answer = login(account.username, "spring2026", address)
        assert kind == "wrong"
        waits.append(_throttle(answer))
        bodies.add(answer.content)
    # Past the limit, a known account and an unknown login are slowed alike.
    for username in (accounts[4].username, "no-such-login", accounts[5].username):
        started = time.monotonic()
        kind, answer = login(username, "spring2026", address)
        elapsed = time.monotonic() - started
        assert kind == "wrong"  # slowed, not refused: the same answer as before
        waits.append(_throttle(answer))
        assert elapsed >= waits[-1]
        bodies.add(answer.content)
    assert waits == [0.0, 0.0, 0.0, 0.0, 0.4, 0.8, 0.8]
    if path == "api":
        assert len(bodies) == 1  # nothing tells a slowed failure, or an unknown login, apart
    assert _failures_from(address) == 7

    started = time.monotonic()
    kind, answer = login(accounts[7].username, PASSWORD, address)
    assert kind == "in" and _throttle(answer) == 0.0
    assert time.monotonic() - started < 0.4
    # A sprayed account was tried once: not locked, its owner logs in from there.
    assert login(accounts[0].username, PASSWORD, address)[0] == "in"
    kind, answer = login(accounts[6].username, "spring2026", "10.26.8.2")
    assert kind == "wrong" and _throttle(answer) == 0.0

    # Staff see the slowing once, in the address's stream, with no property.
    events = read_stream(login_stream_id(ip_address=address))
    assert [e.type for e in events] == ["LoginThrottled"]
    assert events[0].data["failures"] == 5 and events[0].data["limit"] == 4
    assert "property" not in events[0].metadata
    assert not any("LoginLockedOut" in _types(login_stream_id(username=a.username))
                   for a in accounts)


@pytest.mark.django_db
@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=2, LOGIN_ADDRESS_DELAY_MS=50,
                   LOGIN_ADDRESS_MAX_DELAY_MS=50)
def test_unlocking_an_address_lifts_its_slowing(make_staff: Callable) -> None:
    officer = make_staff("compliance")
    for _ in range(3):
        _api(make_staff("dealer").username, "wrong", "10.26.9.1")
    assert _throttle(_api(make_staff("dealer").username, "wrong", "10.26.9.1")[1]) == 0.05
    c = APIClient()
    c.force_authenticate(officer)
    answer = c.post("/api/v1/logins/unlock/", {"ip_address": "10.26.9.1",
                                               "reason": "training room terminal"},
                    format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["attempts_reset"] == 4  # four accounts' rows from that address
    assert _throttle(_api(make_staff("dealer").username, "wrong", "10.26.9.1")[1]) == 0.0
    assert _types(login_stream_id(ip_address="10.26.9.1")) == ["LoginThrottled",
                                                               "LoginUnlocked"]


@pytest.mark.django_db
def test_a_locked_unknown_login_looks_like_a_locked_account(make_staff: Callable) -> None:
    """Failures do not tell which usernames exist: wrong password and unknown login get
    one answer, and so do their lock-outs."""
    real = make_staff("dealer")
    wrong = [_api(name, "nope", f"10.26.10.{n}")[1]
             for n, name in enumerate([real.username, "ghost"] * 5)]
    assert {a.status_code for a in wrong[:8]} == {401}
    assert len({a.content for a in wrong[:8]}) == 1
    locked = [_api(name, "nope", "10.26.10.99")[1] for name in (real.username, "ghost")]
    assert [a.status_code for a in locked] == [429, 429]
    assert locked[0].content == locked[1].content


# --- behind a reverse proxy ----------------------------------------------------------

PROXY = "10.26.1.1"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["api", "console"])
@override_settings(TRUSTED_PROXIES=[PROXY, "10.26.2.0/24"], LOGIN_ADDRESS_FAILURE_LIMIT=3,
                   LOGIN_ADDRESS_DELAY_MS=50, LOGIN_ADDRESS_MAX_DELAY_MS=50)
def test_clients_behind_a_trusted_proxy_are_counted_apart(make_staff: Callable,
                                                           path: str) -> None:
    login = LOGINS[path]
    accounts = [make_staff("dealer") for _ in range(6)]
    first, second = "198.51.100.7", "198.51.100.8"
    # The first client sprays four accounts through the proxy: its fourth is slowed.
    for account in accounts[:4]:
        kind, answer = login(account.username, "wrong", PROXY, HTTP_X_FORWARDED_FOR=first)
    assert _throttle(answer) == 0.05
    # The second client, through the same proxy (and a second one), is not.
    kind, answer = login(accounts[4].username, "wrong", PROXY,
                         HTTP_X_FORWARDED_FOR=f"{second}, 10.26.2.9")
    assert kind == "wrong" and _throttle(answer) == 0.0
    # A client that writes an address of its own to the left is still itself.
    kind, answer = login(accounts[5].username, "wrong", PROXY,
                         HTTP_X_FORWARDED_FOR=f"203.0.113.50, {first}")
    assert _throttle(answer) == 0.05
    assert (_failures_from(first), _failures_from(second)) == (5, 1)
    assert _failures_from(PROXY) == _failures_from("203.0.113.50") == 0
    assert login(accounts[0].username, PASSWORD, PROXY, HTTP_X_FORWARDED_FOR=first)[0] == "in"


@pytest.mark.django_db
@override_settings(TRUSTED_PROXIES=[PROXY], LOGIN_ADDRESS_FAILURE_LIMIT=3,
                   LOGIN_ADDRESS_DELAY_MS=50, LOGIN_ADDRESS_MAX_DELAY_MS=50)
def test_an_untrusted_senders_forwarded_for_is_ignored(make_staff: Callable) -> None:
    """A client that is not the proxy cannot dodge the per-address limit (or lock
    someone else) by naming a new address in each request's X-Forwarded-For."""
    sender = "203.0.113.9"
    for n in range(4):
        kind, answer = _api(make_staff("dealer").username, "wrong", sender,
                            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert _throttle(answer) == 0.05
    assert _failures_from(sender) == 4
    assert not AccessAttempt.objects.filter(ip_address__startswith="192.0.2.").exists()


@pytest.mark.django_db
def test_without_trusted_proxies_the_header_is_never_read(make_staff: Callable) -> None:
    assert settings.TRUSTED_PROXIES == []
    _api(make_staff("dealer").username, "wrong", PROXY, HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert _failures_from(PROXY) == 1


@pytest.mark.parametrize(("remote", "forwarded", "client"), [
    ("10.0.0.9", "192.0.2.1", "10.0.0.9"),                      # not a proxy: header ignored
    ("10.0.0.5", "192.0.2.1", "192.0.2.1"),                     # the proxy's word
    ("10.0.0.5", "192.0.2.66, 192.0.2.1", "192.0.2.1"),         # left of it: the client's
    ("10.0.0.5", "192.0.2.1, 10.0.1.3", "192.0.2.1"),           # two proxies deep
    ("10.0.0.5", "10.0.1.3", "10.0.1.3"),                       # only proxies: the farthest
    ("10.0.0.5", "", "10.0.0.5"),                               # no header: the proxy
    ("10.0.0.5", "192.0.2.1, not-an-address", "10.0.0.5"),     # garbage: stop at the proxy
    ("10.0.0.5", "2001:db8::1", "2001:db8::1"),
    ("::ffff:10.0.0.5", "192.0.2.1", "192.0.2.1"),              # IPv4 seen through IPv6
    ("", "192.0.2.1", None),
])
def test_the_client_address_is_read_from_the_right(remote: str, forwarded: str,
                                                   client: str | None) -> None:
    proxies = parse_trusted_proxies(["10.0.0.5", "10.0.1.0/24"])
    assert client_address(remote, forwarded, proxies) == client


@pytest.mark.parametrize(("entry", "says"), [
    ("proxy.local", "is not an IP address or network"),
    ("10.0.0.5/24", "has host bits set"),
    ("0.0.0.0/0", "trusts every address"),
    ("::/0", "trusts every address"),
])
def test_a_bad_trusted_proxy_is_refused(entry: str, says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        parse_trusted_proxies(["10.0.0.1", entry])


def test_start_up_stops_on_a_bad_trusted_proxies_setting() -> None:
    env = {**os.environ, "TRUSTED_PROXIES": "10.0.0.1,everyone"}
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "TRUSTED_PROXIES: 'everyone' is not an IP address or network" in done.stderr
    assert "Traceback" not in done.stderr
