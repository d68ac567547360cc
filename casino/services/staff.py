"""Core services: the only writers of staff and property records.

Staff enrolment is an event as well as a row, so the audit trail says who gave whom
which roles and when.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from casino.eventstore.store import NewEvent, Stream, append, stream_version
from casino.models import Property, StaffProfile
from casino.roles import Role

STAFF_STREAM = "staff"


def actor_metadata(*, actor: str, role: str | None = None,
                   credential_number: str | None = None, **extra: str) -> dict:
    """The metadata every event carries about who caused it (DESIGN §3)."""
    meta = {"actor": actor}
    if role:
        meta["role"] = role
    if credential_number:
        meta["credential_number"] = credential_number
    meta.update({k: v for k, v in extra.items() if v is not None})
    return meta


def staff_enrol(*, property: Property, username: str, password: str,
                credential_number: str, roles: list[Role], display_name: str = "",
                actor: str) -> StaffProfile:
    """Create a login with its Board credential and roles, and record it as an event."""
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password)
        user.groups.set([Group.objects.get_or_create(name=str(r))[0] for r in roles])
        profile = StaffProfile.objects.create(user=user, property=property,
                                              credential_number=credential_number,
                                              display_name=display_name)
        stream_id = f"staff-{credential_number}"
        append(Stream(STAFF_STREAM, stream_id), stream_version(stream_id),
               [NewEvent("StaffEnrolled", {"username": username,
                                           "credential_number": credential_number,
                                           "roles": sorted(str(r) for r in roles),
                                           "property": property.licence_number})],
               actor_metadata(actor=actor))
    return profile
