"""Who should hold which role, from the events alone, against who does (issue 11).

The staff services are the only writers of roles and flags, and the guard refuses other
writers that go through Django; but whoever holds the database owner's credentials can
still run an ``UPDATE``. So the staff streams are replayed and compared with the rows:
a role, an active login, a superuser flag or a whole-group scope that no event explains
is reported by ``manage.py verify_staff`` (exit 1), and the digests (casino.eventstore
.digests) keep the staff streams themselves from being rewritten unseen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casino.eventstore.models import Event

STAFF_EVENTS = ("StaffEnrolled", "RoleGranted", "RoleRevoked", "StaffDeactivated",
                "AdminSiteAccessSet", "StaffScopeChanged")


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


def staff_drift() -> list[str]:
    """Every difference between the rows and the events, one line each (empty: none)."""
    from django.contrib.auth import get_user_model

    expected = expected_staff()
    lines = []
    users = get_user_model().objects.prefetch_related("groups").select_related("staff")
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
        staff = getattr(user, "staff", None)
        if staff is not None and staff.group_wide != want.group_wide:
            lines.append(f"{user.username}: group_wide is {staff.group_wide}, "
                         f"the events say {want.group_wide}")
    return lines
