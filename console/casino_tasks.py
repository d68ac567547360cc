"""The casino layer's own "waiting for me" (issue 23 item 2) and the shell's navigation:
role grants awaiting a second person's approval (issue 11: nobody approves the grant they
asked for, nor one for themselves), and resets of someone's sign-in and lock-outs to lift,
each waiting for a second person (issue 35). Reads the request rows only."""

from __future__ import annotations

from typing import Any

from casino.models import RoleGrant
from casino.roles import ALL_ROLES
from casino.services.credentials import APPROVERS, open_resets
from casino.services.logins import UNLOCKERS
from casino.services.staff import STAFF_MANAGERS
from casino.services.unlocks import open_unlocks
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


def credential_resets_waiting(actor: Any, limit: int | None = None) -> Listed:
    """Resets of someone's sign-in waiting for a second person, oldest first; the one
    who asked, and the one whose sign-in it is, see it without the button."""
    def item(r: Any) -> WaitingItem:
        who = r.staff.display_name or r.staff.user.username
        mine = r.requested_by == actor.username or r.staff.user_id == actor.user_id
        return WaitingItem(
            title=f"Reset of {r.get_what_display()} for {who}", detail=f"Why: {r.reason}",
            url=command_url("credential_reset_approve", r.pk), action="Approve or refuse",
            first_by=r.requested_by, actionable=not mine)
    return listed(open_resets(actor), limit, item)


def login_unlocks_waiting(actor: Any, limit: int | None = None) -> Listed:
    """Lock-outs someone asked to lift, waiting for a second person."""
    def item(r: Any) -> WaitingItem:
        what = r.username or f"the terminal at {r.ip_address}"
        mine = r.requested_by == actor.username or r.username == actor.username
        return WaitingItem(
            title=f"Lift the lock-out of {what}", detail=f"Why: {r.reason}",
            url=command_url("login_unlock_approve", r.pk), action="Approve or refuse",
            first_by=r.requested_by, actionable=not mine)
    return listed(open_unlocks(actor), limit, item)


task(TaskProvider(key="credential_resets", title="Sign-in resets awaiting approval",
                  roles=APPROVERS, items=credential_resets_waiting, order=78))
task(TaskProvider(key="login_unlocks", title="Lock-outs to lift, awaiting approval",
                  roles=UNLOCKERS, items=login_unlocks_waiting, order=79))
task(TaskProvider(key="role_grants", title="Role grants awaiting approval",
                  roles=STAFF_MANAGERS, items=role_grants_waiting, order=80))

nav(NavItem(group="Home", label="Waiting for me", url="/console/", roles=ALL_ROLES,
            order=0))
nav(NavItem(group="Staff", label="Role grants to approve", url="/console/#role_grants",
            roles=STAFF_MANAGERS, counts=("role_grants",), order=50))
nav(NavItem(group="Staff", label="Sign-in resets to approve",
            url="/console/#credential_resets", roles=APPROVERS,
            counts=("credential_resets", "login_unlocks"), order=55))
nav(NavItem(group="Staff", label="Lift a lock-out", url=command_url("login_unlock_request"),
            roles=UNLOCKERS, order=60))
