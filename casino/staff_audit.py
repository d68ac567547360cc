"""Who should hold which role, from the events alone, against who does (issue 11).

The staff services are the only writers of roles and flags, and the guard refuses other
writers that go through Django; but whoever holds the database owner's credentials can
still run an ``UPDATE``. So the staff streams are replayed and compared with the rows:
a role, an active login, a superuser flag or a whole-group scope that no event explains
is reported by ``manage.py verify_staff`` (exit 1), and the digests (casino.eventstore
.digests) keep the staff streams themselves from being rewritten unseen.

The second factor (issue 23) too: ``TwoFactorEnrolled`` / ``TwoFactorReset`` are replayed
per person, and django-otp's rows compared with them. An authenticator (TOTP device) must
be the one the person's last ``TwoFactorEnrolled`` after their last ``TwoFactorReset``
recorded; recovery codes (static device) exist only under such an enrolment and are no more
than it gave. A device added behind the events' back — which would let someone give the
"second factor" with a key or codes they chose — is reported, as is an enrolled
authenticator removed without a ``TwoFactorReset``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casino.eventstore.models import Event

STAFF_EVENTS = ("StaffEnrolled", "RoleGranted", "RoleRevoked", "StaffDeactivated",
                "AdminSiteAccessSet", "StaffScopeChanged")
TWO_FACTOR_EVENTS = ("TwoFactorEnrolled", "TwoFactorReset", "CredentialResetApproved")
#: events that record a login's password as it then stood (``password_fingerprint``)
PASSWORD_EVENTS = ("StaffEnrolled", "CredentialChanged", "CredentialResetApproved",
                   "CredentialEnrolmentCompleted", "PasswordRehashed")


@dataclass
class Expected:
    """One login as its events describe it."""

    roles: set[str] = field(default_factory=set)
    is_active: bool = True
    is_superuser: bool = False
    is_staff: bool = False
    group_wide: bool = False


def expected_staff() -> dict[str, Expected]:
    """Replay every staff event in order, keyed by username."""
    people: dict[str, Expected] = {}
    rows = (Event.objects.filter(stream_type="staff", type__in=STAFF_EVENTS)
            .order_by("position").values_list("type", "data"))
    for kind, data in rows.iterator():
        person = people.setdefault(data.get("username", ""), Expected())
        _apply(person, kind, data)
    return people


def _apply(person: Expected, kind: str, data: dict[str, Any]) -> None:
    if kind == "StaffEnrolled":
        person.roles |= set(data.get("roles", []))  # enrolments before role grants
    elif kind == "RoleGranted":
        person.roles.add(data["role"])
    elif kind == "RoleRevoked":
        person.roles.discard(data["role"])
        if data["role"] == "compliance":
            person.group_wide = False
    elif kind == "StaffDeactivated":
        person.is_active = False
    elif kind == "AdminSiteAccessSet":
        person.is_staff, person.is_superuser = data["is_staff"], data["is_superuser"]
    elif kind == "StaffScopeChanged":
        person.group_wide = data["group_wide"]


@dataclass(frozen=True)
class Enrolment:
    """A person's second factor as their last ``TwoFactorEnrolled`` (after their last
    ``TwoFactorReset``) records it."""

    device: str  # the TOTP device's persistent id, "otp_totp.totpdevice/<pk>"
    recovery_codes: int


def expected_second_factors() -> dict[int, Enrolment]:
    """Replay the second-factor events in order: user id → the enrolment in force (a
    person reset, or never enrolled, is absent). The stream is ``staff-<user id>``."""
    people: dict[int, Enrolment | None] = {}
    rows = (Event.objects.filter(stream_type="staff", type__in=TWO_FACTOR_EVENTS)
            .order_by("position").values_list("stream_id", "type", "data"))
    for stream_id, kind, data in rows.iterator():
        user_id = int(stream_id.removeprefix("staff-"))
        if kind == "CredentialResetApproved" and "devices_removed" not in data:
            continue  # a reset of the password only: the second factor stands
        people[user_id] = (Enrolment(device=data["device"],
                                     recovery_codes=int(data.get("recovery_codes", 0)))
                           if kind == "TwoFactorEnrolled" else None)
    return {k: v for k, v in people.items() if v is not None}


def second_factor_drift(usernames: dict[int, str]) -> list[str]:
    """Every difference between django-otp's devices and the second-factor events."""
    from django.db.models import Count
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    expected = expected_second_factors()
    lines = []
    held: set[int] = set()
    for device in TOTPDevice.objects.order_by("user_id", "pk"):
        who = usernames.get(device.user_id, f"user {device.user_id}")
        want = expected.get(device.user_id)
        if want is not None and want.device == device.persistent_id:
            held.add(device.user_id)
            continue
        lines.append(f"{who}: holds an authenticator ({device.persistent_id}) that no "
                     "TwoFactorEnrolled event records")
    for user_id, want in sorted(expected.items()):
        if user_id not in held:
            lines.append(f"{usernames.get(user_id, f'user {user_id}')}: lost the "
                         f"authenticator TwoFactorEnrolled recorded ({want.device}) "
                         "without a TwoFactorReset event")
    statics = StaticDevice.objects.annotate(tokens=Count("token_set")).order_by("user_id",
                                                                                "pk")
    for device in statics:
        who = usernames.get(device.user_id, f"user {device.user_id}")
        want = expected.get(device.user_id)
        if want is None:
            lines.append(f"{who}: holds recovery codes that no TwoFactorEnrolled event "
                         "records")
        elif device.tokens > want.recovery_codes:
            lines.append(f"{who}: holds {device.tokens} recovery codes, the "
                         f"TwoFactorEnrolled event gave {want.recovery_codes}")
    return lines


def expected_passwords() -> dict[str, str]:
    """Username → the password fingerprint its last password event recorded."""
    prints: dict[str, str] = {}
    rows = (Event.objects.filter(stream_type="staff", type__in=PASSWORD_EVENTS)
            .order_by("position").values_list("data", flat=True))
    for data in rows.iterator():
        if data.get("password_fingerprint"):
            prints[data.get("username", "")] = data["password_fingerprint"]
    return prints


def staff_drift() -> list[str]:
    """Every difference between the rows and the events, one line each (empty: none)."""
    from django.contrib.auth import get_user_model

    from casino.services.staff import password_fingerprint

    expected = expected_staff()
    passwords = expected_passwords()
    lines = []
    users = list(get_user_model().objects.prefetch_related("groups").select_related("staff"))
    for user in users:
        want = expected.get(user.username)
        if want is None:
            lines.append(f"{user.username}: a login no StaffEnrolled event records")
            continue
        held = {g.name for g in user.groups.all()}
        for role in sorted(held - want.roles):
            lines.append(f"{user.username}: holds {role}, which no RoleGranted event gave")
        for role in sorted(want.roles - held):
            lines.append(f"{user.username}: lost {role} without a RoleRevoked event")
        for flag in ("is_active", "is_superuser", "is_staff"):
            if getattr(user, flag) != getattr(want, flag):
                lines.append(f"{user.username}: {flag} is {getattr(user, flag)}, "
                             f"the events say {getattr(want, flag)}")
        recorded = passwords.get(user.username)
        if recorded is not None and recorded != password_fingerprint(user):
            lines.append(f"{user.username}: the password was changed without a credential "
                         "event (no CredentialChanged, reset or enrolment records it)")
        staff = getattr(user, "staff", None)
        if staff is not None and staff.group_wide != want.group_wide:
            lines.append(f"{user.username}: group_wide is {staff.group_wide}, "
                         f"the events say {want.group_wide}")
    return lines + second_factor_drift({u.pk: u.username for u in users})
