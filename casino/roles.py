"""Roles and the one permission helper every API command uses. Deny by default.

A role is a Django group of the same name. Separation of duties: no role implies another,
and being a Django superuser grants nothing in the API (only the admin site).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission


class Role(StrEnum):
    DEALER = "dealer"
    FLOORPERSON = "floorperson"
    POKER_SHIFT_SUPERVISOR = "poker_shift_supervisor"
    CASHIER = "cashier"
    FINANCE = "finance"
    COMPLIANCE = "compliance"
    SECURITY = "security"
    ADMIN = "admin"
    #: counts the drop and jackpot boxes; never a cashier or dealer (casino.domain.segregation)
    COUNT_TEAM = "count_team"


ALL_ROLES = tuple(Role)


def ensure_role_groups(**_: Any) -> None:
    """post_migrate hook: one group per role."""
    from django.contrib.auth.models import Group

    from casino.staff_guard import staff_change

    with staff_change():  # the groups are the role names themselves, not a grant
        for role in Role:
            Group.objects.get_or_create(name=role.value)


def user_roles(user: Any) -> frozenset[str]:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, "_casino_roles", None)
    if cached is None:
        valid = {r.value for r in Role}
        cached = frozenset(n for n in user.groups.values_list("name", flat=True) if n in valid)
        user._casino_roles = cached
    return cached


def has_role(user: Any, *roles: Role | str) -> bool:
    return bool(user_roles(user) & {str(r) for r in roles})


def require_role(user: Any, *roles: Role | str) -> None:
    """Raise 403 ``role_required`` unless the user holds one of ``roles``."""
    if not has_role(user, *roles):
        raise RoleRequired(roles)


class RoleRequired(PermissionDenied):
    default_code = "role_required"

    def __init__(self, roles: tuple[Role | str, ...]):
        names = ", ".join(str(r) for r in roles)
        super().__init__(detail=f"this action needs one of the roles: {names}",
                         code="role_required")


class DenyAll(BasePermission):
    """The default permission: a view that names no roles admits nobody."""

    message = "no role may use this endpoint"
    code = "role_required"

    def has_permission(self, request: Any, view: Any) -> bool:
        return False


def roles_required(*roles: Role) -> type[BasePermission]:
    """A DRF permission class admitting authenticated users who hold one of ``roles``."""
    if not roles:
        raise ValueError("roles_required needs at least one role")

    class HasRole(BasePermission):
        allowed = roles

        def has_permission(self, request: Any, view: Any) -> bool:
            if not (request.user and request.user.is_authenticated):
                return False  # DRF answers 401 when no credentials were given
            require_role(request.user, *roles)
            return True

    HasRole.__name__ = "HasRole_" + "_".join(str(r) for r in roles)
    return HasRole
