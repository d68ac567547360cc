"""The second factor at the API's token login (issue 35, item 3): ``POST auth/token/``
follows the console's rule (:func:`casino.services.two_factor.two_factor_required`), so a
login whose roles need a second factor gives a ``code`` after its password — a code of
its authenticator app (TOTP) or one of its recovery codes, checked by django-otp's own
devices as the console's code page checks them.

A login of those roles that has not enrolled yet enrols through the API as the console
makes it enrol at its first sign-in (:func:`api_enrol`): its password, a secret its own
authenticator generated and a code from it; ``TwoFactorEnrolled`` is recorded by the same
service the console calls, and the recovery codes are answered once.

What is refused, each with its stable code (the caller answers problem+json):

* ``code_required``: no code given;
* ``wrong_code``: a code no device accepts (a failed login for the throttle, as a wrong
  password is: :mod:`casino.login_throttle`);
* ``code_used``: a code already used — the authenticator's code of a time step already
  accepted (django-otp refuses any step not after the last one it accepted, which stops
  a code seen over a shoulder being replayed), or a recovery code already spent. Also a
  failed login for the throttle;
* ``code_throttled``: django-otp's own throttle (the wait doubles after each wrong code)
  refuses codes for now;
* ``two_factor_enrolment_required``: no authenticator yet.

django-otp deletes a recovery code when it is used, so "already used" could not be told
from "never was"; the token login therefore records the use of a recovery code
(``RecoveryCodeUsed`` in ``login-<username>``, with an HMAC of the code, never the code),
and a code matching one of those HMACs is ``code_used``. (A recovery code spent at the
console's code page is not recorded there; given again to the API it is ``wrong_code``.)
"""

from __future__ import annotations

import base64
import binascii
import math
import time
from typing import Any

from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac

from casino.domain.errors import DomainError
from casino.eventstore.store import NewEvent
from casino.roles import user_roles
from casino.services import logins
from casino.services.two_factor import has_confirmed_device, two_factor_required

RECOVERY_USED = "RecoveryCodeUsed"
#: the bytes of secret the API's enrolment takes (RFC 4226's recommended 160 bits; the
#: console's enrolment makes the same size)
SECRET_BYTES = 20


class CodeRefused(DomainError):
    """A token login's second factor refused. ``status``: the HTTP status it answers;
    ``failed_login``: whether it counts as a failed login for the throttle."""

    def __init__(self, message: str, *, code: str, status: int = 401,
                 failed_login: bool = False, retry_after: int | None = None):
        super().__init__(message, code=code, field="code")
        self.status = status
        self.failed_login = failed_login
        self.headers = {"Retry-After": str(retry_after)} if retry_after else None


def needs_code(user: Any) -> bool:
    """Whether a token for ``user`` needs a second factor (the console's rule)."""
    return two_factor_required(user_roles(user))


def _digest(user: Any, code: str) -> str:
    return salted_hmac("casino.recovery_code", f"{user.pk}:{code}").hexdigest()


def _recovery_code_spent(user: Any, code: str) -> bool:
    from casino.eventstore.models import Event

    digest = _digest(user, code)
    stream = logins.login_stream_id(username=user.get_username())
    return any(constant_time_compare((data or {}).get("digest", ""), digest)
               for data in Event.objects.filter(stream_id=stream, type=RECOVERY_USED)
               .values_list("data", flat=True))


def _totp_step_used(device: Any, code: str) -> bool:
    """Whether ``code`` is the authenticator's code of a time step within the device's
    tolerance of now that it has already accepted (a replay)."""
    from django_otp.oath import TOTP

    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    return totp.verify(int(code), device.tolerance) and totp.t() <= device.last_t


def _seconds_until(when: Any) -> int:
    """Whole seconds from now until django-otp's ``locked_until`` (at least 1)."""
    from django.utils import timezone

    if when is None:
        return 1
    return max(1, math.ceil((when - timezone.now()).total_seconds()))


def check_code(user: Any, code: str | None) -> None:
    """Accept ``code`` as ``user``'s second factor or raise :class:`CodeRefused` (see the
    module). Six digits are the authenticator's; anything else a recovery code."""
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    if not has_confirmed_device(user):
        raise CodeRefused(
            "this login needs a second factor and has none yet: enrol an authenticator "
            "(POST auth/two-factor/enrol/, or sign in to the console)",
            code="two_factor_enrolment_required", status=403)
    code = "".join((code or "").split()).lower()
    if not code:
        raise CodeRefused("this login needs a second factor: give the code your "
                          "authenticator app shows, or a recovery code",
                          code="code_required")
    totp = code.isdigit() and len(code) == 6
    model = TOTPDevice if totp else StaticDevice
    with transaction.atomic():
        device = model.objects.select_for_update().filter(user=user, confirmed=True).first()
        if device is not None:
            allowed, why = device.verify_is_allowed()
            if not allowed:
                raise CodeRefused("too many wrong codes in a row: wait a few seconds, then "
                                  "give the code the app shows then",
                                  code="code_throttled", status=429,
                                  retry_after=_seconds_until((why or {}).get("locked_until")))
            if device.verify_token(code):
                if not totp:
                    _record_recovery_use(user, code, device)
                return
        used = (device is not None and _totp_step_used(device, code)) if totp else (
            _recovery_code_spent(user, code))
    if used:
        raise CodeRefused("this code has already been used: wait for the next code the "
                          "app shows, or give an unused recovery code",
                          code="code_used", failed_login=True)
    raise CodeRefused("that code does not match: give the code the app shows now, or one "
                      "of your recovery codes", code="wrong_code", failed_login=True)


def _record_recovery_use(user: Any, code: str, device: Any) -> None:
    name = user.get_username()
    logins._record(logins.login_stream_id(username=name), NewEvent(RECOVERY_USED, {
        "username": name, "digest": _digest(user, code),
        "codes_left": device.token_set.count()}),
        logins._meta(name, logins._property_of(name)))


def secret_hex(secret: Any) -> str:
    """The client's base32 secret (as an authenticator app shows it: spaces, lower case
    and padding allowed) as the 40 hex digits the enrolment service keeps; refused
    ``invalid_secret`` unless it is exactly :data:`SECRET_BYTES` bytes."""
    text = "".join(str(secret or "").split()).upper().rstrip("=")
    try:
        raw = base64.b32decode(text + "=" * (-len(text) % 8))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != SECRET_BYTES:
        raise DomainError(f"the secret is {SECRET_BYTES} random bytes in base32 (32 "
                          "letters and digits 2-7), generated by your authenticator",
                          code="invalid_secret", field="secret")
    return raw.hex()


def api_enrol(user: Any, *, secret: Any, code: Any) -> list[str]:
    """Enrol ``user``'s authenticator from the API (see the module): the console's
    enrolment service, acting as ``user``. Refused ``two_factor_not_needed`` (409) for a
    login whose roles need none, ``two_factor_already_enrolled`` (409), ``invalid_secret``,
    ``invalid_code``, ``wrong_code``."""
    from casino.actors import actor_of
    from casino.domain.errors import ConflictError
    from casino.services.two_factor import two_factor_enrol

    if not needs_code(user):
        raise ConflictError("this login's roles need no second factor",
                            code="two_factor_not_needed")
    if has_confirmed_device(user):
        raise ConflictError("a second factor is already enrolled; an administrator "
                            "resets it first", code="two_factor_already_enrolled")
    return two_factor_enrol(actor=actor_of(user), secret=secret_hex(secret), code=code)


__all__ = ["CodeRefused", "needs_code", "check_code", "secret_hex", "api_enrol",
           "RECOVERY_USED"]
