"""The second factor of administrators and compliance officers (issue 23): an
authenticator app's time-based codes (TOTP, RFC 6238, through django-otp) and ten
recovery codes to use once each.

Its enrolment and its reset are staff events like any other, in the person's stream
``staff-<user id>`` (:mod:`casino.services.staff`): ``TwoFactorEnrolled`` when a person
confirms their authenticator with a code it shows, ``TwoFactorReset`` when an
administrator removes another person's (nobody resets their own: four eyes). The device
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
from casino.models import StaffProfile
from casino.roles import Role
from casino.services.staff import _record, _staff, _staff_of_user
from casino.staff_guard import staff_change

#: The roles that must give a second factor after their password (issue 23).
TWO_FACTOR_ROLES = (Role.ADMIN, Role.COMPLIANCE)
#: Who resets another person's second factor.
RESETTERS = (Role.ADMIN,)
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


def two_factor_enrol(*, actor: Actor, secret: Any, code: Any) -> list[str]:
    """Confirm the authenticator holding ``secret`` with a ``code`` it shows now:
    the TOTP device and ten recovery codes are saved and ``TwoFactorEnrolled`` appended.
    Returns the recovery codes (shown once). Refused: a wrong code (``wrong_code``), a
    person already enrolled (``two_factor_already_enrolled``: an administrator resets it
    first)."""
    from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
    from django_otp.plugins.otp_totp.models import TOTPDevice

    if not isinstance(secret, str) or len(secret) != 40:
        raise DomainError("open the enrolment page again", code="invalid_input", field="code")
    code = _code(code)
    step = totp_matched_step(secret, code)
    if step is None:
        raise DomainError("that code does not match: type the code the app shows now",
                          code="wrong_code", field="code")
    with transaction.atomic(), staff_change():
        profile = _staff_of_user(actor.user_id)  # locks the person's row: one enrolment
        user = profile.user
        if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
            raise ConflictError("a second factor is already enrolled; an administrator "
                                "resets it first", code="two_factor_already_enrolled")
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, key=secret, name=DEVICE_NAME,
                                           confirmed=True, last_t=step, drift=0)
        recovery = StaticDevice.objects.create(user=user, name="recovery codes",
                                               confirmed=True)
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        StaticToken.objects.bulk_create(StaticToken(device=recovery, token=c) for c in codes)
        _record(profile, [NewEvent("TwoFactorEnrolled", {
            "username": user.username, "kind": "totp", "device": device.persistent_id,
            "recovery_codes": len(codes)})], actor.metadata())
    return codes


def two_factor_reset(*, actor: Actor, staff_id: Any, reason: Any) -> StaffProfile:
    """An administrator removes another person's second factor (a lost phone); that
    person enrols again at their next login. Nobody resets their own
    (``self_two_factor_reset``); one with none is refused (``two_factor_not_enrolled``)."""
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    role = actor.require(*RESETTERS)
    reason = text_input(reason, "reason", limit=1000, required=True)
    with transaction.atomic(), staff_change():
        profile = _staff(actor, staff_id)
        if profile.user_id == actor.user_id:
            raise ConflictError("nobody resets their own second factor: another "
                                "administrator does", code="self_two_factor_reset")
        user = profile.user
        removed = TOTPDevice.objects.filter(user=user).delete()[0]
        removed += StaticDevice.objects.filter(user=user).delete()[0]
        if not removed:
            raise ConflictError(f"{user.username} has no second factor to reset",
                                code="two_factor_not_enrolled")
        _record(profile, [NewEvent("TwoFactorReset", {
            "username": user.username, "reason": reason})], actor.metadata(role=role))
    return profile


__all__ = ["TWO_FACTOR_ROLES", "two_factor_required", "has_confirmed_device", "new_secret",
           "provisioning", "totp_matched_step", "two_factor_enrol", "two_factor_reset"]
