"""The guard that keeps staff, roles, credentials and the property changing only through
:mod:`casino.services` (issue 11: every such change is an event).

The services open :func:`staff_change` around their writes; anything else that tries to
add or remove a role (group membership), change a login's password, active, superuser or
staff flags or username, or create, change or delete a staff profile, a role grant, a
group or the property — the Django admin's forms, a shell, a management command — is
refused with :class:`StaffChangeOutsideService`. Logging in (``last_login``) and
re-hashing a password on login with the same password are not changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_save, pre_delete, pre_save

_in_service: ContextVar[bool] = ContextVar("casino_staff_change", default=False)

#: Fields of a login whose change is a change of credentials or privileges.
GUARDED_USER_FIELDS = ("username", "password", "is_active", "is_superuser", "is_staff")


class StaffChangeOutsideService(PermissionError):
    """Raised for a write that bypasses the staff services (and so the event log)."""


@contextmanager
def staff_change() -> Iterator[None]:
    """Let the enclosed writes through: only the staff services open it."""
    token = _in_service.set(True)
    try:
        yield
    finally:
        _in_service.reset(token)


def _refuse(what: str) -> None:
    if not _in_service.get():
        raise StaffChangeOutsideService(
            f"{what} changes only through the staff services, which record it as an event "
            "(API: /api/v1/staff/; README, Security)")


def _user_pre_save(sender: Any, instance: Any, update_fields: Any = None, **_: Any) -> None:
    if _in_service.get():
        return
    if instance.pk is None:
        _refuse("a login")
        return
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    old = sender.objects.filter(pk=instance.pk).values(*GUARDED_USER_FIELDS).first()
    if old is None:
        _refuse("a login")
        return
    changed = [f for f in GUARDED_USER_FIELDS if old[f] != getattr(instance, f)]
    if changed == ["password"] and (_same_secret(instance, old["password"])
                                    or _upgraded(instance, old["password"], update_fields)):
        instance._casino_rehashed = True  # recorded after the save (_user_post_save)
        return
    if changed:
        _refuse(f"a login's {', '.join(changed)}")


def _user_post_save(sender: Any, instance: Any, **_: Any) -> None:
    """A password re-hashed on login (same secret, new hash) is recorded
    (``PasswordRehashed`` with the new hash's fingerprint), so ``verify_staff``, which
    compares the stored hash with the events, does not take it for a change."""
    if not getattr(instance, "_casino_rehashed", False):
        return
    instance._casino_rehashed = False
    from casino.services.staff import password_rehashed

    password_rehashed(instance)


def _same_secret(instance: Any, old_hash: str) -> bool:
    """Django re-hashes a correct password on login when the hasher or its work factor
    changes: the secret is the same, so that is not a change of credentials."""
    from django.contrib.auth.hashers import check_password

    raw = getattr(instance, "_password", None)
    return raw is not None and check_password(raw, old_hash)


def _upgraded(instance: Any, old_hash: str, update_fields: Any) -> bool:
    """Django's own re-hash on a right password (``AbstractBaseUser.check_password``'s
    setter, which forgets the raw password before saving only ``password``): allowed only
    where the old hash is one the current hasher settings would upgrade, so it happens
    once per hasher change, and it is recorded (``PasswordRehashed``)."""
    from django.contrib.auth.hashers import get_hasher, identify_hasher

    if getattr(instance, "_password", None) is not None or update_fields is None:
        return False
    if set(update_fields) != {"password"}:
        return False
    try:
        old = identify_hasher(old_hash)
        new = identify_hasher(instance.password)
    except ValueError:
        return False
    preferred = get_hasher()
    return new.algorithm == preferred.algorithm and (
        old.algorithm != preferred.algorithm or preferred.must_update(old_hash))


def _groups_changed(sender: Any, action: str, **_: Any) -> None:
    if action in ("pre_add", "pre_remove", "pre_clear"):
        _refuse("a role (group membership)")


def _guarded_row(what: str) -> Any:
    def receiver(sender: Any, **_: Any) -> None:
        _refuse(what)
    return receiver


# Kept at module level so the weak references the signals hold stay alive.
_RECEIVERS: list[Any] = []


def install() -> None:
    """Connect the guard (from ``CasinoConfig.ready``)."""
    from casino.models import (
        CredentialReset,
        LoginUnlockRequest,
        Property,
        RoleGrant,
        StaffProfile,
    )

    User = get_user_model()
    pre_save.connect(_user_pre_save, sender=User, dispatch_uid="casino_guard_user_save")
    post_save.connect(_user_post_save, sender=User, dispatch_uid="casino_guard_rehash")
    pre_delete.connect(_guarded_row("a login"), sender=User, weak=False,
                       dispatch_uid="casino_guard_user_delete")
    m2m_changed.connect(_groups_changed, sender=User.groups.through,
                        dispatch_uid="casino_guard_groups")
    for model, what in ((StaffProfile, "a staff profile"), (RoleGrant, "a role grant"),
                        (CredentialReset, "a credential reset"),
                        (LoginUnlockRequest, "a request to lift a lock-out"),
                        (Group, "a role group"), (Property, "the property")):
        for signal, verb in ((pre_save, "save"), (pre_delete, "delete")):
            signal.connect(_guarded_row(what), sender=model, weak=False,
                           dispatch_uid=f"casino_guard_{model.__name__}_{verb}")
