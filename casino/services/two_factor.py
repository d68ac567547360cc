"""The second factor of administrators and compliance officers (issue 23): an
authenticator app's time-based codes (TOTP, RFC 6238, through django-otp) and ten
recovery codes to use once each.

Its enrolment and its reset are staff events like any other, in the person's stream
``staff-<user id>`` (:mod:`casino.services.staff`): ``TwoFactorEnrolled`` when a person
confirms their authenticator with a code it shows; it is removed only by a reset two
people decide (``CredentialResetApproved``, :mod:`casino.services.credentials`; issue 35),
after which the person enrols on the enrolment page with the reset's two codes.
``TwoFactorReset`` is the older one-person removal, still read in the history. The device
rows are written in the same transaction as the event, under
:func:`casino.staff_guard.staff_change`, which refuses any other writer. The secret is never
in an event; only what kind of factor and who.

Until it is confirmed the secret lives in the person's session only: opening the
enrolment page records nothing (a read never writes).
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError
from casino.domain.inputs import text_input
from casino.eventstore.store import NewEvent
from casino.roles import Role
from casino.services.staff import _record, _staff_of_user
from casino.staff_guard import staff_change

#: The roles that must give a second factor after their password (issue 23).
TWO_FACTOR_ROLES = (Role.ADMIN, Role.COMPLIANCE)
RECOVERY_CODES = 10
DEVICE_NAME = "authenticator"


def two_factor_required(roles: frozenset[str] | set[str]) -> bool:
    """Whether a person holding ``roles`` must give a second factor."""
    return bool(set(roles) & {r.value for r in TWO_FACTOR_ROLES})


def has_confirmed_device(user: Any) -> bool:
    from django_otp import user_has_device

    return user_has_device(user, confirmed=True)


def new_secret() -> str:
    """A new TOTP secret (40 hex digits, 160 bits): kept in the session until confirmed."""
    from django_otp.util import random_hex

    return random_hex(20)


def provisioning(user: Any, secret_hex: str) -> tuple[str, str]:
    """The ``otpauth://`` URL an authenticator app reads from the QR code, and the secret
    as the app asks for it when typed (base32, in groups of four)."""
    from base64 import b32encode

    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice(user=user, key=secret_hex, name=DEVICE_NAME)
    b32 = b32encode(bytes.fromhex(secret_hex)).decode().rstrip("=")
    return device.config_url, " ".join(b32[i:i + 4] for i in range(0, len(b32), 4))


def _code(value: Any, field: str = "code") -> str:
    code = text_input(value, field, limit=20, required=True).replace(" ", "")
    if not code.isdigit() or len(code) != 6:
        raise DomainError("the code is the six digits the authenticator app shows",
                          code="invalid_code", field=field)
    return code


def totp_matched_step(secret_hex: str, code: str, *, at: float | None = None) -> int | None:
    """The time step the six-digit ``code`` belongs to, one step either way of now (a
    phone's clock a little off), or None."""
    from django_otp.oath import TOTP

    totp = TOTP(bytes.fromhex(secret_hex), step=30, t0=0, digits=6, drift=0)
    totp.time = at if at is not None else time.time()
    if not totp.verify(int(code), tolerance=1):
        return None
    return totp.t()


def totp_step(secret: Any, code: Any) -> int:
    """The time step ``code`` confirms for the new authenticator holding ``secret``;
    refused: a secret not from the enrolment page (``invalid_input``), a wrong code
    (``wrong_code``)."""
    if not isinstance(secret, str) or len(secret) != 40:
        raise DomainError("open the enrolment page again", code="invalid_input", field="code")
    step = totp_matched_step(secret, _code(code))
    if step is None:
        raise DomainError("that code does not match: type the code the app shows now",
                          code="wrong_code", field="code")
    return step


def save_devices(user: Any, secret: str, step: int) -> tuple[Any, list[str]]:
    """Replace ``user``'s devices by the confirmed authenticator and ten new recovery
    codes (the caller records ``TwoFactorEnrolled`` in the same transaction)."""
    from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
    from django_otp.plugins.otp_totp.models import TOTPDevice

    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    device = TOTPDevice.objects.create(user=user, key=secret, name=DEVICE_NAME,
                                       confirmed=True, last_t=step, drift=0)
    recovery = StaticDevice.objects.create(user=user, name="recovery codes", confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=recovery, token=c) for c in codes)
    return device, codes


def two_factor_enrol(*, actor: Actor, secret: Any, code: Any) -> list[str]:
    """Confirm the authenticator holding ``secret`` with a ``code`` it shows now:
    the TOTP device and ten recovery codes are saved and ``TwoFactorEnrolled`` appended.
    Returns the recovery codes (shown once). Refused: a wrong code (``wrong_code``), a
    person already enrolled (``two_factor_already_enrolled``: a two-person reset removes
    it), a person whose second factor a reset removed (``enrolment_pending``: they enrol
    on the enrolment page with its two codes, never with the password alone)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino.services.credentials import enrolment_awaited

    step = totp_step(secret, code)
    with transaction.atomic(), staff_change():
        profile = _staff_of_user(actor.user_id)  # locks the person's row: one enrolment
        user = profile.user
        if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
            raise ConflictError("a second factor is already enrolled; a reset by two "
                                "people removes it", code="two_factor_already_enrolled")
        if enrolment_awaited(user):
            raise ConflictError("your second factor was reset: enrol on the enrolment page "
                                "with the two codes", code="enrolment_pending")
        device, codes = save_devices(user, secret, step)
        _record(profile, [NewEvent("TwoFactorEnrolled", {
            "username": user.username, "kind": "totp", "device": device.persistent_id,
            "recovery_codes": len(codes)})], actor.metadata())
    return codes


__all__ = ["TWO_FACTOR_ROLES", "two_factor_required", "has_confirmed_device", "new_secret",
           "provisioning", "totp_matched_step", "totp_step", "save_devices",
           "two_factor_enrol"]
