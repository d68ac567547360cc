"""The API's token login follows the console's second-factor rule (issue 35, item 3):
an administrator or compliance officer gives a ``code`` after the password — the
authenticator's or a recovery code, checked by django-otp — or is refused with a code of
its own, nothing appended but the failed login the throttle keeps; one who has not
enrolled enrols through the API with a secret of its own making.

The authenticator's codes here are computed from RFC 6238 and 4226 with the standard
library (HMAC-SHA1, 30-second steps, six digits), not by the code under test.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import struct
import time
from collections.abc import Callable
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.db.models import Sum
from django.test import override_settings
from knox.models import AuthToken
from rest_framework.test import APIClient

from casino.eventstore.store import read_stream
from casino.services.logins import login_stream_id

PASSWORD = "test-pass-123"  # make_staff's
pytestmark = pytest.mark.django_db


def rfc6238(secret_b32: str, at: float | None = None) -> str:
    """The six digits an authenticator shows for ``secret_b32`` at ``at`` (RFC 6238)."""
    key = base64.b32decode(secret_b32 + "=" * (-len(secret_b32) % 8))
    counter = int((time.time() if at is None else at) // 30)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{number % 1_000_000:06d}"


def steady(margin: float = 4.0) -> None:
    """Wait for the next 30-second step when this one ends within ``margin`` seconds, so
    a code computed now is still the step's when the server checks it."""
    left = 30 - time.time() % 30
    if left < margin:
        time.sleep(left + 0.05)


def new_secret() -> str:
    return base64.b32encode(secrets.token_bytes(20)).decode()


def _token(username: str, code: str | None = None, address: str = "10.35.3.1") -> Any:
    body = {"username": username, "password": PASSWORD}
    if code is not None:
        body["code"] = code
    return APIClient(REMOTE_ADDR=address).post("/api/v1/auth/token/", body, format="json")


def _enrol(username: str, secret: str, code: str, password: str = PASSWORD) -> Any:
    return APIClient(REMOTE_ADDR="10.35.3.1").post(
        "/api/v1/auth/two-factor/enrol/",
        {"username": username, "password": password, "secret": secret, "code": code},
        format="json")


def _failures(username: str) -> int:
    return AccessAttempt.objects.filter(username=username).aggregate(
        n=Sum("failures_since_start"))["n"] or 0


def _record(user: Any) -> list[str]:
    """Every event about this login: its login stream and its staff stream."""
    return ([e.type for e in read_stream(login_stream_id(username=user.username))]
            + [e.type for e in read_stream(f"staff-{user.pk}")])


@pytest.fixture
def enrolled(make_staff: Callable) -> Callable:
    """``enrolled("compliance")`` → (user, base32 secret, recovery codes), enrolled
    through the API with the previous step's code (the current one is left unused)."""
    def make(role: str) -> tuple[Any, str, list[str]]:
        user = make_staff(role)
        secret = new_secret()
        steady(8)  # the enrolment and the test's first code in one step
        answer = _enrol(user.username, secret, rfc6238(secret, time.time() - 30))
        assert answer.status_code == 200, answer.json()
        return user, secret, answer.json()["recovery_codes"]
    return make


@pytest.mark.parametrize("role", ["admin", "compliance"])
def test_an_officer_without_a_code_is_asked_for_one(enrolled: Callable, role: str) -> None:
    user, _secret, _codes = enrolled(role)
    before, tokens = _record(user), AuthToken.objects.filter(user=user).count()
    answer = _token(user.username)
    assert answer.status_code == 401
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "code_required"
    blank = _token(user.username, code=" ")
    assert blank.status_code == 401 and blank.json()["code"] == "code_required"
    # Nothing appended, no token, and no failure counted (the password was right).
    assert _record(user) == before
    assert AuthToken.objects.filter(user=user).count() == tokens
    assert _failures(user.username) == 0


def test_a_wrong_code_is_refused_and_counted_as_a_failed_login(enrolled: Callable) -> None:
    user, secret, _codes = enrolled("compliance")
    before, tokens = _record(user), AuthToken.objects.filter(user=user).count()
    right = rfc6238(secret)
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    answer = _token(user.username, code=wrong)
    assert answer.status_code == 401 and answer.json()["code"] == "wrong_code"
    bad_recovery = _token(user.username, code="notacode")
    assert bad_recovery.status_code == 401 and bad_recovery.json()["code"] == "wrong_code"
    assert _record(user) == before  # nothing appended ...
    assert _failures(user.username) == 2  # ... but the failed logins the throttle keeps
    assert AuthToken.objects.filter(user=user).count() == tokens


@override_settings(OTP_TOTP_THROTTLE_FACTOR=0)
def test_wrong_codes_lock_the_pair_as_wrong_passwords_do(enrolled: Callable) -> None:
    """LOGIN_FAILURE_LIMIT (5) wrong codes from one address lock the account from there:
    a password alone is not a foothold for guessing codes. (django-otp's own throttle,
    which refuses codes for a second after a wrong one, doubling, is off here so that
    each code is checked: :func:`test_django_otps_throttle_holds`.)"""
    user, secret, _codes = enrolled("admin")
    kinds = []
    for n in range(5):
        answer = _token(user.username, code=f"{n:06d}" if f"{n:06d}" != rfc6238(secret)
                        else "999999")
        kinds.append(answer.json()["code"])
    assert kinds == ["wrong_code"] * 4 + ["login_locked_out"]
    locked = _token(user.username, code=rfc6238(secret))
    assert locked.status_code == 429 and locked.json()["code"] == "login_locked_out"
    other = _token(user.username, code=rfc6238(secret), address="10.35.3.2")
    assert other.status_code == 200  # from another address, the owner gets in


def test_the_right_code_gives_a_token_once(enrolled: Callable) -> None:
    user, secret, _codes = enrolled("compliance")
    code = rfc6238(secret)
    answer = _token(user.username, code=code)
    assert answer.status_code == 200 and answer.json()["token"]
    assert _record(user).count("TokenIssued") == 2  # the enrolment's and this one
    me = APIClient().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert me.status_code == 200 and me.json()["username"] == user.username
    # The same code again (a replay of the same time step) is refused, and counted.
    before = _record(user)
    again = _token(user.username, code=code)
    assert again.status_code == 401 and again.json()["code"] == "code_used"
    assert _record(user) == before and _failures(user.username) == 1


def test_a_recovery_code_works_once(enrolled: Callable) -> None:
    user, _secret, codes = enrolled("admin")
    assert len(codes) == 10
    answer = _token(user.username, code=codes[3].upper())
    assert answer.status_code == 200 and answer.json()["token"]
    before = _record(user)
    again = _token(user.username, code=codes[3])
    assert again.status_code == 401 and again.json()["code"] == "code_used"
    assert _record(user) == before
    time.sleep(1.1)  # django-otp's throttle after the refused code: one second
    assert _token(user.username, code=codes[4]).status_code == 200  # another still works
    # The record says a recovery code was used, never which.
    used = [e for e in read_stream(login_stream_id(username=user.username))
            if e.type == "RecoveryCodeUsed"]
    assert len(used) == 2 and all(codes[3] not in str(e.data) for e in used)


def test_a_dealer_needs_no_code(make_staff: Callable) -> None:
    dealer = make_staff("dealer")
    assert _token(dealer.username).status_code == 200


@pytest.mark.parametrize("role", ["admin", "compliance"])
def test_an_officer_enrols_through_the_api(make_staff: Callable, role: str) -> None:
    user = make_staff(role)
    steady(10)
    refused = _token(user.username)
    assert refused.status_code == 403
    assert refused.json()["code"] == "two_factor_enrolment_required"
    assert "TwoFactorEnrolled" not in _record(user)
    secret = new_secret()
    # Refusals first: each appends nothing.
    before = _record(user)
    assert _enrol(user.username, "not-base32!", rfc6238(secret)).json()["code"] == (
        "invalid_secret")
    short = base64.b32encode(secrets.token_bytes(10)).decode()
    assert _enrol(user.username, short, rfc6238(short)).json()["code"] == "invalid_secret"
    wrong = f"{(int(rfc6238(secret)) + 5) % 1_000_000:06d}"
    assert _enrol(user.username, secret, wrong).json()["code"] == "wrong_code"
    bad_password = _enrol(user.username, secret, rfc6238(secret), password="nope")
    assert bad_password.status_code == 401
    assert bad_password.json()["code"] == "authentication_failed"
    assert _record(user) == before
    # Then the enrolment: a token and the ten recovery codes, this once.
    spaced = " ".join(secret[i:i + 4] for i in range(0, 32, 4)).lower()
    answer = _enrol(user.username, spaced, rfc6238(secret))
    assert answer.status_code == 200, answer.json()
    assert answer.json()["token"] and len(answer.json()["recovery_codes"]) == 10
    staff_events = [e for e in read_stream(f"staff-{user.pk}")
                    if e.type == "TwoFactorEnrolled"]
    assert len(staff_events) == 1 and staff_events[0].data["recovery_codes"] == 10
    assert secret not in str(staff_events[0].data)
    again = _enrol(user.username, new_secret(), rfc6238(secret))
    assert again.status_code == 409
    assert again.json()["code"] == "two_factor_already_enrolled"
    # The next token needs a code (the enrolment's step is used: the next step's).
    assert _token(user.username).json()["code"] == "code_required"
    later = _token(user.username, code=rfc6238(secret, time.time() + 30))
    assert later.status_code == 200


def test_a_login_that_needs_no_second_factor_cannot_enrol_one(make_staff: Callable) -> None:
    dealer = make_staff("dealer")
    secret = new_secret()
    answer = _enrol(dealer.username, secret, rfc6238(secret))
    assert answer.status_code == 409 and answer.json()["code"] == "two_factor_not_needed"
    assert "TwoFactorEnrolled" not in _record(dealer)


def test_django_otps_throttle_holds(enrolled: Callable) -> None:
    """After a wrong code django-otp refuses the authenticator's codes for a while (one
    second, doubling): the right code at once is 429 ``code_throttled``, as the console's
    code page says "wait"."""
    user, secret, _codes = enrolled("compliance")
    right = rfc6238(secret)
    assert _token(user.username, code=f"{(int(right) + 1) % 1_000_000:06d}").json()[
        "code"] == "wrong_code"
    answer = _token(user.username, code=right)
    assert answer.status_code == 429 and answer.json()["code"] == "code_throttled"
    assert int(answer["Retry-After"]) >= 1
