"""A login lock-out that cannot be turned against the floor (issue 26 item 7) nor
against a named person (issue 35 item 4).

An account is locked from one address after ``LOGIN_FAILURE_LIMIT`` (5) wrong passwords
from there; across addresses it is never locked but slowed — past
``LOGIN_ACCOUNT_FAILURE_LIMIT`` (10) every answer for it waits, the right password's
included — not counting addresses past their spraying limit, so a sprayer slows nobody
for others; an address is never locked (one person at a terminal behind the floor's
proxy locked out every account there), only slowed once its wrong passwords, whatever
the accounts, pass ``LOGIN_ADDRESS_FAILURE_LIMIT``, one sleeper per host at a time (the
others answered 429 ``login_throttled`` at once); and behind a trusted proxy the client's
own address is the one counted. Real axes, real database, both login paths (the API's
token, the console's form).
"""

from __future__ import annotations

import base64
import fcntl
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.models import Sum
from django.test import Client, override_settings
from rest_framework.test import APIClient

from casino.eventstore.store import read_stream
from casino.login_addresses import client_address, parse_trusted_proxies
from casino.login_throttle import slot_path
from casino.services.logins import login_stream_id

PASSWORD = "test-pass-123"  # make_staff's
ROOT = Path(__file__).resolve().parents[2]


def _api(username: str, password: str, address: str, **headers: str) -> tuple[str, Any]:
    answer = APIClient(REMOTE_ADDR=address).post(
        "/api/v1/auth/token/", {"username": username, "password": password},
        format="json", **headers)
    kind = {200: "in", 401: "wrong", 429: "locked"}[answer.status_code]
    if kind == "locked" and answer.json()["code"] == "login_throttled":
        kind = "throttled"
    return kind, answer


def _console(username: str, password: str, address: str, **headers: str) -> tuple[str, Any]:
    answer = Client(REMOTE_ADDR=address).post(
        "/console/login/", {"username": username, "password": password}, **headers)
    kind = {302: "in", 400: "wrong", 429: "locked"}[answer.status_code]
    if kind == "locked" and b"wrong passwords from this terminal" in answer.content:
        kind = "throttled"
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
    with its own password; the attacked account is locked from that address, right
    password or not, and its owner logs in from another (5 failures < 10: not slowed)."""
    login = LOGINS[path]
    assert (settings.AXES_FAILURE_LIMIT, settings.LOGIN_ACCOUNT_FAILURE_LIMIT,
            settings.LOGIN_ADDRESS_FAILURE_LIMIT) == (5, 10, 50)
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
    kind, answer = login(victim.username, PASSWORD, address)
    assert kind == "locked" and answer.status_code == 429
    assert int(answer["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    if path == "api":
        assert answer["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "login_locked_out"
        assert "from this address" in answer.json()["detail"]
    else:
        assert b"locked for 30 minutes from this address" in answer.content
    # The owner, elsewhere, logs in; that does not lift the lock on the attacking address.
    assert login(victim.username, PASSWORD, "10.26.99.1")[0] == "in"
    assert login(victim.username, PASSWORD, address)[0] == "locked"
    # Staff see it as before: one LoginLockedOut for the account, none for the address.
    lockouts = [e for e in read_stream(login_stream_id(username=victim.username))
                if e.type == "LoginLockedOut"]
    assert len(lockouts) == 1 and lockouts[0].data["failures"] == 5
    assert lockouts[0].data["ip_address"] == address
    assert lockouts[0].data["scope"] == "address"
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
    asked = c.post("/api/v1/logins/unlock/", {"ip_address": "10.26.9.1",
                                              "reason": "training room terminal"},
                   format="json")
    assert asked.status_code == 201, asked.content
    second = APIClient()  # lifting takes a second person (issue 35)
    second.force_authenticate(make_staff("admin"))
    answer = second.post(f"/api/v1/logins/unlock-requests/{asked.json()['id']}/approve/", {},
                         format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["attempts_reset"] == 4  # four accounts' rows from that address
    assert _throttle(_api(make_staff("dealer").username, "wrong", "10.26.9.1")[1]) == 0.0
    assert _types(login_stream_id(ip_address="10.26.9.1")) == [
        "LoginThrottled", "LoginUnlockRequested", "LoginUnlocked"]


@pytest.mark.django_db
def test_a_locked_unknown_login_looks_like_a_locked_account(make_staff: Callable) -> None:
    """Failures do not tell which usernames exist: wrong password and unknown login get
    one answer, and so do their lock-outs (of the pair: since issue 35 the account is
    slowed across addresses, an unknown username alike, not locked)."""
    real = make_staff("dealer")
    # 5 failures each from one address: the 5th locks the pair.
    wrong = [_api(name, "nope", "10.26.10.1")[1] for name in [real.username, "ghost"] * 5]
    assert {a.status_code for a in wrong[:8]} == {401}
    assert len({a.content for a in wrong[:8]}) == 1
    assert [a.status_code for a in wrong[8:]] == [429, 429]
    assert wrong[8].content == wrong[9].content
    locked = [_api(name, "nope", "10.26.10.1")[1] for name in (real.username, "ghost")]
    assert [a.status_code for a in locked] == [429, 429]
    assert locked[0].content == locked[1].content


# --- the account slowed, never locked from everywhere; a sprayer that cannot use it ---

FLOOR_PROXY = "10.26.1.1"


def test_the_account_delay_grows_with_the_failures() -> None:
    """The defaults (10, 250 ms, 5 s), worked by hand: nothing up to ten failures, then
    a quarter of a second more per failure, at most five seconds."""
    from casino.login_throttle import account_delay_seconds

    assert (settings.LOGIN_ACCOUNT_FAILURE_LIMIT, settings.LOGIN_ACCOUNT_DELAY_MS,
            settings.LOGIN_ACCOUNT_MAX_DELAY_MS) == (10, 250, 5000)
    assert [account_delay_seconds(n) for n in (0, 10, 11, 12, 20, 29, 30, 31, 500)] == [
        0.0, 0.0, 0.25, 0.5, 2.5, 4.75, 5.0, 5.0, 5.0]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["api", "console"])
@pytest.mark.parametrize("role", ["compliance", "cashier"])
@override_settings(TRUSTED_PROXIES=[FLOOR_PROXY], LOGIN_ACCOUNT_DELAY_MS=60,
                   LOGIN_ACCOUNT_MAX_DELAY_MS=3000)
def test_twenty_addresses_slow_an_account_but_never_lock_it_out(
        make_staff: Callable, path: str, role: str) -> None:
    """THE "done when" of issue 35 item 4: twenty wrong passwords on one login (a
    compliance officer, and a cashier) from twenty addresses forwarded by the trusted
    proxy leave the right password working — slowed, not refused. Past the account's
    limit (10) each answer waits 60 ms more per failure (lowered from 250 ms to keep the
    test short; the defaults are checked above): the 11th wrong password 0.06 s, ... the
    20th 0.6 s; the right password after them 20 x ... (20 - 10) x 0.06 = 0.6 s, measured
    and as the throttle reports it. Before issue 35 the 20th locked the login from every
    address for 30 minutes (429)."""
    login = LOGINS[path]
    victim, colleague = make_staff(role), make_staff("cashier")
    if role == "compliance":  # the console and the token ask this role for a code too
        from tests.casino.test_token_second_factor import rfc6238, steady
        from tests.console.conftest import enrol_second_factor
        device, _codes = enrol_second_factor(victim)
        secret = base64.b32encode(bytes.fromhex(device.key)).decode()
    clients = [f"198.51.100.{n}" for n in range(1, 21)]
    kinds, waits = [], []
    for n, client in enumerate(clients):
        kind, answer = login(victim.username, f"guess-{n}", FLOOR_PROXY,
                             HTTP_X_FORWARDED_FOR=client)
        kinds.append(kind)
        waits.append(getattr(answer.wsgi_request, "login_account_delay_seconds", 0.0))
    assert kinds == ["wrong"] * 20
    assert [_failures_from(c) for c in clients] == [1] * 20
    assert waits == [0.0] * 10 + [round(0.06 * k, 2) for k in range(1, 11)]
    # The right password, from a twenty-first client behind the proxy: in, after 0.6 s.
    extra: dict[str, str] = {}
    if role == "compliance" and path == "api":
        steady()
        extra["code"] = rfc6238(secret)
    started = time.monotonic()
    if extra:
        answer = APIClient(REMOTE_ADDR=FLOOR_PROXY).post(
            "/api/v1/auth/token/", {"username": victim.username, "password": PASSWORD,
                                    **extra}, format="json",
            HTTP_X_FORWARDED_FOR="198.51.100.77")
        kind = {200: "in"}.get(answer.status_code, answer.status_code)
    else:
        kind, answer = login(victim.username, PASSWORD, FLOOR_PROXY,
                             HTTP_X_FORWARDED_FOR="198.51.100.77")
    took = time.monotonic() - started
    assert kind == "in", getattr(answer, "content", b"")[:300]
    assert answer.wsgi_request.login_account_delay_seconds == 0.6
    assert took >= 0.6
    # Nobody else is touched: a colleague logs in from one of those clients at once.
    kind, answer = login(colleague.username, PASSWORD, FLOOR_PROXY,
                         HTTP_X_FORWARDED_FOR=clients[0])
    assert kind == "in" and _throttle(answer) == 0.0
    # No lock-out recorded; the slowing once, for the account.
    events = read_stream(login_stream_id(username=victim.username))
    assert "LoginLockedOut" not in [e.type for e in events]
    slowed = [e for e in events if e.type == "LoginSlowed"]
    assert [(e.data["failures"], e.data["limit"]) for e in slowed] == [(11, 10)]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["api", "console"])
@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=3, LOGIN_ACCOUNT_FAILURE_LIMIT=5,
                   LOGIN_ADDRESS_DELAY_MS=10, LOGIN_ADDRESS_MAX_DELAY_MS=20)
def test_a_sprayer_locks_no_account_for_anyone_else(make_staff: Callable, path: str) -> None:
    """One address, 5 wrong passwords on each of 12 accounts. The account's limit is
    lowered to 5 here, so that each of those accounts *would* be slowed everywhere if
    the sprayer's failures counted — they do not: past its own limit (3) the address is
    spraying. Each account is locked from the sprayer's address only; each owner logs in
    from a second address at once. The sprayer is slowed past its limit. A control
    account with 6 failures from 6 ordinary addresses is slowed (not locked): its right
    password waits 0.25 s (one failure past 5, LOGIN_ACCOUNT_DELAY_MS 250)."""
    login = LOGINS[path]
    accounts = [make_staff("dealer") for _ in range(12)]
    sprayer, desk = "10.26.12.1", "10.26.12.2"
    kinds, slowed = [], []
    for account in accounts:
        for n in range(5):
            kind, answer = login(account.username, f"spring{n}", sprayer)
            kinds.append(kind)
            slowed.append(_throttle(answer) > 0)
    assert kinds == (["wrong"] * 4 + ["locked"]) * 12  # each pair locks at its 5th
    assert slowed == [False] * 3 + [True] * 57  # everything past the address's 3rd
    assert _failures_from(sprayer) == 60
    for account in accounts:
        kind, answer = login(account.username, PASSWORD, desk)
        assert kind == "in" and _throttle(answer) == 0.0, account.username
        assert login(account.username, PASSWORD, sprayer)[0] == "locked"
    assert all(e.data["scope"] == "address" for a in accounts
               for e in read_stream(login_stream_id(username=a.username))
               if e.type == "LoginLockedOut")
    assert _types(login_stream_id(ip_address=sprayer)) == ["LoginThrottled"]

    control = make_staff("dealer")
    for n in range(6):
        login(control.username, "wrong", f"10.26.13.{n}")
    kind, answer = login(control.username, PASSWORD, desk)
    assert kind == "in" and answer.wsgi_request.login_account_delay_seconds == 0.25


def test_the_account_limit_is_checked_at_start_up() -> None:
    env = {**os.environ, "LOGIN_ACCOUNT_FAILURE_LIMIT": "3"}  # below LOGIN_FAILURE_LIMIT 5
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "LOGIN_ACCOUNT_FAILURE_LIMIT=3 is below LOGIN_FAILURE_LIMIT=5" in done.stderr
    assert "Traceback" not in done.stderr


# --- the sleeper slot: the throttle never stalls the floor ---------------------------

def _wait_for(condition: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _spray(address: str, count: int) -> None:
    """``count`` wrong passwords from ``address`` on as many accounts (none locked)."""
    for n in range(count):
        _api(f"sprayed-{address}-{n}", "wrong", address)


@pytest.mark.usefixtures("committed_db")  # the sleeping thread has its own connection
@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=2, LOGIN_ADDRESS_DELAY_MS=3000,
                   LOGIN_ADDRESS_MAX_DELAY_MS=3000)
def test_with_the_slot_taken_a_throttled_wrong_password_is_refused_at_once() -> None:
    """Issue 26 item 7, review S1: a thread sleeps in a slowed login (3 s) holding the
    sleeper slot; meanwhile a second slowed wrong password from that address is answered
    at once 429 login_throttled with Retry-After 3 (the delay it would have had), on the
    API, the console and the admin's form alike; a right password from there is 200 at
    once; and the sleeper still gets its delayed 401."""
    from casino.services import property_register, staff_bootstrap

    sprayer = "10.26.14.1"
    casino = property_register(licence_number="PA-TEST-1", name="Test Casino", system="test")
    colleague = staff_bootstrap(property=casino, username="colleague", password=PASSWORD,
                                credential_number="T-26141", roles=("dealer",),
                                system="test").user
    _spray(sprayer, 2)  # at the limit: the next wrong one waits 3 s
    sleeper: dict[str, Any] = {}

    def delayed() -> None:
        try:
            started = time.monotonic()
            sleeper["kind"], answer = _api("sleeper", "wrong", sprayer)
            sleeper["took"] = time.monotonic() - started
            sleeper["slept"] = _throttle(answer)
        finally:
            connection.close()  # this thread's own; left open it would outlive the test

    thread = threading.Thread(target=delayed)
    thread.start()
    try:
        # The LoginThrottled event is written just before the sleeper takes the slot.
        _wait_for(lambda: _types(login_stream_id(ip_address=sprayer)) == ["LoginThrottled"])
        time.sleep(0.3)
        started = time.monotonic()
        kind, answer = _api("second", "wrong", sprayer)
        # at once: well under the 3 s the slot's holder sleeps (2 s leaves room for a
        # loaded 2-core CI machine, where three answers once took 1.03 s)
        assert time.monotonic() - started < 2
        assert kind == "throttled" and answer.status_code == 429
        assert answer["Content-Type"] == "application/problem+json"
        assert int(answer["Retry-After"]) == 3
        assert _throttle(answer) == 0.0
        started = time.monotonic()
        kind, answer = _console("third", "wrong", sprayer)
        assert kind == "throttled" and int(answer["Retry-After"]) == 3
        page = Client(REMOTE_ADDR=sprayer).post(
            "/admin/login/", {"username": "fourth", "password": "wrong"})
        assert page.status_code == 429 and int(page["Retry-After"]) == 3
        assert b"Slow down" in page.content
        kind, answer = _api(colleague.username, PASSWORD, sprayer)
        assert kind == "in"
        assert time.monotonic() - started < 2  # three answers, none waited for the slot
        assert thread.is_alive()  # all of it while the sleeper slept
    finally:
        thread.join(timeout=10)
    assert sleeper["kind"] == "wrong" and sleeper["slept"] == 3.0
    assert sleeper["took"] >= 3.0
    # The refused ones were checked and counted as failures all the same.
    assert _failures_from(sprayer) == 2 + 1 + 3


@pytest.mark.django_db
@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=1, LOGIN_ADDRESS_DELAY_MS=2000,
                   LOGIN_ADDRESS_MAX_DELAY_MS=2000)
def test_the_slot_is_one_per_host_not_per_process(make_staff: Callable) -> None:
    """bin/run's gunicorn has sync workers: one request per process, so a per-process
    slot would always be free there. Another process holding the host's slot (the file
    lock in CASINO_VAR_DIR) makes this process refuse its slowed wrong password at once;
    once it lets go, the next one here is slowed again."""
    _spray("10.26.15.1", 1)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
         slot_path()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        kind, answer = _api("guess-1", "wrong", "10.26.15.1")
        assert time.monotonic() - started < 1
        assert kind == "throttled" and int(answer["Retry-After"]) == 2
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    fd = os.open(slot_path(), os.O_RDWR)
    try:  # the holder is gone, so is its lock
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
    with override_settings(LOGIN_ADDRESS_DELAY_MS=100, LOGIN_ADDRESS_MAX_DELAY_MS=100):
        kind, answer = _api("guess-2", "wrong", "10.26.15.1")
    assert kind == "wrong" and _throttle(answer) == 0.1


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
