"""Who is acting: the staff member behind a command, under which role, at which property.

Every service takes an :class:`Actor`; its :meth:`Actor.metadata` is what each event
records about the person (DESIGN §3: actor, role, credential number, table, gaming day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from casino.domain.errors import DomainError
from casino.domain.gaming_day import gaming_day_of
from casino.models import Property
from casino.roles import Role, RoleRequired, user_roles


class NoStaffProfile(DomainError):
    code = "no_staff_profile"
    status = 403


@dataclass(frozen=True)
class Actor:
    username: str
    user_id: int | None
    roles: frozenset[str]
    property: Property
    credential_number: str = ""
    system: bool = False
    #: a compliance officer granted every property's event log (StaffProfile.group_wide)
    group_wide: bool = False

    def has(self, *roles: Role | str) -> bool:
        return bool(self.roles & {str(r) for r in roles})

    def require(self, *roles: Role | str) -> str:
        """The first of ``roles`` the actor holds (recorded as the role acted under), or
        403 ``role_required``."""
        for r in roles:
            if str(r) in self.roles:
                return str(r)
        raise RoleRequired(tuple(roles))

    def gaming_day(self, at: datetime | None = None) -> date:
        return gaming_day_of(at or timezone.now(), time_zone=self.property.time_zone,
                             start_hour=self.property.gaming_day_start_hour)

    def metadata(self, *, role: str | None = None, **extra: Any) -> dict[str, Any]:
        # ``property`` scopes every read of the log to the caller's property (issue 11).
        meta: dict[str, Any] = {"actor": self.username,
                                "property": self.property.licence_number,
                                "gaming_day": self.gaming_day().isoformat()}
        if role:
            meta["role"] = role
        if self.credential_number:
            meta["credential_number"] = self.credential_number
        meta.update({k: str(v) for k, v in extra.items() if v is not None})
        return meta


def actor_of(user: Any) -> Actor:
    """The actor for a logged-in staff member; 403 ``no_staff_profile`` for a login that
    is not enrolled staff of a property."""
    staff = getattr(user, "staff", None) if user is not None else None
    if staff is None:
        raise NoStaffProfile("this login is not enrolled as staff of a property")
    roles = user_roles(user)
    return Actor(username=user.get_username(), user_id=user.pk, roles=roles,
                 property=staff.property, credential_number=staff.credential_number,
                 group_wide=staff.group_wide and Role.COMPLIANCE.value in roles)


def system_actor(property: Property, name: str) -> Actor:
    """A scheduled task acting on its own (``system:<name>``): holds no role."""
    return Actor(username=f"system:{name}", user_id=None, roles=frozenset(), property=property,
                 system=True)
