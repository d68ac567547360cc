"""The casino layer's own "waiting for me" (issue 23 item 2) and the shell's navigation:
role grants awaiting a second person's approval (issue 11: nobody approves the grant they
asked for, nor one for themselves). Reads the ``RoleGrant`` rows only."""

from __future__ import annotations

from typing import Any

from casino.models import RoleGrant
from casino.roles import ALL_ROLES, Role
from casino.services.staff import STAFF_MANAGERS
from console.registry import (
    Listed,
    NavItem,
    TaskProvider,
    WaitingItem,
    command_url,
    listed,
    nav,
    task,
)


def role_grants_waiting(actor: Any, limit: int | None = None) -> Listed:
    """Open role requests of the actor's property, oldest first; the one who asked, and
    the one who would receive the role, see it without the button."""
    rows = (RoleGrant.objects.filter(property=actor.property, state=RoleGrant.State.PENDING)
            .select_related("staff__user").order_by("requested_at"))
    def item(g: RoleGrant) -> WaitingItem:
        who = g.staff.display_name or g.staff.user.username
        mine = g.requested_by == actor.username or g.staff.user_id == actor.user_id
        return WaitingItem(
            title=f"{g.role.replace('_', ' ').capitalize()} for {who}",
            detail=f"Asked for: {g.reason}" + (" (every property)" if g.group_wide else ""),
            url=command_url("role_grant_approve", g.pk), action="Approve or refuse",
            first_by=g.requested_by, actionable=not mine)
    return listed(rows, limit, item)


task(TaskProvider(key="role_grants", title="Role grants awaiting approval",
                  roles=STAFF_MANAGERS, items=role_grants_waiting, order=80))

nav(NavItem(group="Home", label="Waiting for me", url="/console/", roles=ALL_ROLES,
            order=0))
nav(NavItem(group="Staff", label="Role grants to approve", url="/console/#role_grants",
            roles=STAFF_MANAGERS, counts=("role_grants",), order=50))
nav(NavItem(group="Staff", label="Reset a second factor", url="/console/two-factor/reset/",
            roles=(Role.ADMIN,), order=60))
