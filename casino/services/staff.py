"""Staff, roles, credentials and the property: the only writers, each change an event.

Issue 11: nobody gives themselves a role, a role needs a second person of the admin or
compliance role to approve it, and some pairs of roles one person may not hold
(:mod:`casino.domain.segregation`). Each staff member's history is the stream
``staff-<user id>``; the property's is ``property-<licence number>``. The rows (Django's
user and groups, :class:`StaffProfile`, :class:`RoleGrant`) are written in the same
transaction as the event, under :func:`casino.staff_guard.staff_change`, which refuses
any other writer — the Django admin included.

Two doors in: people act through an :class:`Actor` (the API); the bootstrap of a new
installation or the demo acts as ``system:<name>`` (``staff_bootstrap``,
``property_register``), which only code run on the server can call.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError, DomainError
from casino.domain.inputs import text_input
from casino.domain.segregation import check_role_compatible
from casino.eventstore.store import NewEvent, Stream, append, stream_version
from casino.models import Property, RoleGrant, StaffProfile
from casino.roles import Role
from casino.scoping import property_row, whole_number
from casino.staff_guard import staff_change

STAFF_STREAM = "staff"
PROPERTY_STREAM = "property"
#: Who manages staff and decides role grants (two different people of these roles).
STAFF_MANAGERS = (Role.ADMIN, Role.COMPLIANCE)


# --- small helpers ----------------------------------------------------------------------

def _record(profile: StaffProfile, events: Sequence[NewEvent], meta: dict) -> None:
    """Append to the staff member's stream. Callers hold the profile's row lock, so the
    version read here cannot move before the append."""
    stream_id = f"staff-{profile.user_id}"
    append(Stream(STAFF_STREAM, stream_id), stream_version(stream_id), list(events), meta)


def _text(value: Any, field: str, *, limit: int = 1000, required: bool = True) -> str:
    return text_input(value, field, limit=limit, required=required)


def _role(value: Any) -> Role:
    try:
        return Role(value)
    except ValueError:
        raise DomainError(f"unknown role {value!r}; roles: {', '.join(r.value for r in Role)}",
                          code="unknown_role", field="role") from None


def _password(value: Any, user: Any = None, field: str = "password") -> str:
    if not isinstance(value, str) or not value:
        raise DomainError(f"{field} is required", code="invalid_input", field=field)
    try:
        validate_password(value, user)
    except ValidationError as exc:
        raise DomainError("; ".join(exc.messages), code="weak_password", field=field) from None
    return value


def _credential(value: Any) -> str:
    value = _text(value, "credential_number", limit=50)
    if StaffProfile.objects.filter(credential_number=value).exists():
        raise ConflictError(f"credential number {value} is already enrolled",
                            code="credential_number_taken")
    return value


def roles_of(profile: StaffProfile) -> set[str]:
    return set(profile.user.groups.values_list("name", flat=True))


def _staff(actor: Actor, staff_id: Any) -> StaffProfile:
    """The staff member ``staff_id`` (their login's id) of the actor's property, locked;
    404 ``staff_not_found`` otherwise."""
    rows = StaffProfile.objects.select_for_update().select_related("user", "property")
    return property_row(rows, actor, staff_id, what="staff", field="user_id",
                        parse=whole_number)


def _staff_of_user(user_id: int) -> StaffProfile:
    return StaffProfile.objects.select_for_update().select_related("user").get(user_id=user_id)


# --- bootstrap: the property and the first staff (code on the server only) ---------------

def property_register(*, licence_number: str, name: str, system: str,
                      time_zone: str | None = None,
                      gaming_day_start_hour: int | None = None) -> Property:
    """Record the certificate holder (``PropertyRegistered``); returns it if already
    registered with that licence number."""
    existing = Property.objects.filter(licence_number=licence_number).first()
    if existing is not None:
        return existing
    fields: dict[str, Any] = {"licence_number": licence_number, "name": name}
    if time_zone is not None:
        fields["time_zone"] = time_zone
    if gaming_day_start_hour is not None:
        fields["gaming_day_start_hour"] = gaming_day_start_hour
    with transaction.atomic(), staff_change():
        prop = Property.objects.create(**fields)
        append(Stream(PROPERTY_STREAM, f"property-{licence_number}"), 0,
               [NewEvent("PropertyRegistered", {
                   "licence_number": licence_number, "name": name, "time_zone": prop.time_zone,
                   "gaming_day_start_hour": prop.gaming_day_start_hour})],
               system_actor(prop, system).metadata())
    return prop


def staff_bootstrap(*, property: Property, username: str, password: str,
                    credential_number: str, roles: Iterable[Role | str] = (),
                    display_name: str = "", system: str, admin_site: bool = False,
                    group_wide: bool = False) -> StaffProfile:
    """Enrol a member of staff with roles as ``system:<system>``: the installation's first
    administrators and compliance officers, the demo logins and test fixtures. Roles are
    still checked for segregation of duties; every grant is recorded (``basis``
    ``bootstrap``). ``admin_site`` sets Django's staff and superuser flags (the read-only
    admin site), recorded as ``AdminSiteAccessSet``."""
    meta = system_actor(property, system).metadata()
    granted = [_role(r).value for r in roles]
    for i, role in enumerate(granted):
        check_role_compatible(granted[:i], role)
    with transaction.atomic(), staff_change():
        profile = _enrol(property, username, password, _credential(credential_number),
                         display_name, meta)
        if granted:
            profile.user.groups.add(*[_group(r) for r in granted])
            _record(profile, [NewEvent("RoleGranted", {
                "username": username, "role": r, "basis": "bootstrap",
                "requested_by": meta["actor"], "approved_by": meta["actor"]})
                for r in granted], meta)
        if group_wide:
            _group_wide_set(profile, True, meta)
        if admin_site:
            profile.user.is_staff = profile.user.is_superuser = True
            profile.user.save(update_fields=["is_staff", "is_superuser"])
            _record(profile, [NewEvent("AdminSiteAccessSet", {
                "username": username, "is_staff": True, "is_superuser": True})], meta)
    return profile


def _group(role: str) -> Group:
    return Group.objects.get_or_create(name=role)[0]


def _enrol(prop: Property, username: Any, password: Any, credential_number: str,
           display_name: Any, meta: dict) -> StaffProfile:
    User = get_user_model()
    username = _text(username, "username", limit=150)
    display_name = _text(display_name or "", "display_name", limit=200, required=False)
    if User.objects.filter(username=username).exists():
        raise ConflictError(f"username {username} is taken", code="username_taken")
    user = User(username=username)
    user.set_password(_password(password, user))
    try:
        with transaction.atomic():
            user.save()
            profile = StaffProfile.objects.create(user=user, property=prop,
                                                  credential_number=credential_number,
                                                  display_name=display_name)
    except IntegrityError:  # a concurrent enrolment took the name or the number
        raise ConflictError("username or credential number already enrolled",
                            code="username_taken") from None
    _record(profile, [NewEvent("StaffEnrolled", {
        "username": username, "credential_number": credential_number,
        "display_name": display_name, "property": prop.licence_number,
        "password_fingerprint": password_fingerprint(user)})], meta)
    return profile


# --- people acting through the API -------------------------------------------------------

def staff_enrol(*, actor: Actor, username: Any, password: Any, credential_number: Any,
                display_name: Any = "") -> StaffProfile:
    """An administrator enrols a member of staff of their property, with no role: roles
    come only through :func:`role_grant_request` and a second person's approval."""
    role = actor.require(Role.ADMIN)
    with transaction.atomic(), staff_change():
        return _enrol(actor.property, username, password, _credential(credential_number),
                      display_name, actor.metadata(role=role))


def role_grant_request(*, actor: Actor, staff_id: Any, role: Any, reason: Any,
                       group_wide: bool = False) -> RoleGrant:
    """Ask for ``role`` to be given to a member of staff; a second person decides.

    Refused: a request for oneself (``self_grant``), a role already held
    (``role_already_held``), a role that may not join the roles held
    (``segregation_of_duties``), a second open request (``grant_already_requested``),
    ``group_wide`` with any role but compliance (``invalid_input``)."""
    acting = actor.require(*STAFF_MANAGERS)
    wanted = _role(role)
    reason = _text(reason, "reason")
    if group_wide is not True and group_wide is not False:
        raise DomainError("group_wide must be true or false", code="invalid_input",
                          field="group_wide")
    if group_wide and wanted != Role.COMPLIANCE:
        raise DomainError("only the compliance role may be granted for the whole group",
                          code="invalid_input", field="group_wide")
    with transaction.atomic(), staff_change():
        profile = _staff(actor, staff_id)
        _check_grantable(actor, profile, wanted.value)
        if RoleGrant.objects.filter(staff=profile, role=wanted.value,
                                    state=RoleGrant.State.PENDING).exists():
            raise ConflictError(f"a request for {wanted.value} is already open",
                                code="grant_already_requested")
        grant = RoleGrant.objects.create(
            id=uuid.uuid4(), property=profile.property, staff=profile, role=wanted.value,
            group_wide=group_wide, reason=reason, requested_by=actor.username,
            requested_at=timezone.now())
        _record(profile, [NewEvent("RoleGrantRequested", {
            "grant_id": str(grant.pk), "username": profile.user.username,
            "role": wanted.value, "group_wide": group_wide, "reason": reason})],
            actor.metadata(role=acting))
    return grant


def _check_grantable(actor: Actor, profile: StaffProfile, role: str) -> None:
    if profile.user_id == actor.user_id:
        raise ConflictError("nobody grants a role to themselves", code="self_grant")
    if not profile.user.is_active:
        raise ConflictError(f"{profile.user.username} is deactivated", code="staff_inactive")
    held = roles_of(profile)
    if role in held:
        raise ConflictError(f"{profile.user.username} already holds {role}",
                            code="role_already_held")
    check_role_compatible(held, role)


def _grant(actor: Actor, grant_id: Any) -> RoleGrant:
    rows = RoleGrant.objects.select_for_update().select_related("staff__user")
    grant = property_row(rows, actor, grant_id, what="role_grant")
    if grant.state != RoleGrant.State.PENDING:
        raise ConflictError(f"this request was already {grant.state}",
                            code="grant_already_decided")
    return grant


def role_grant_approve(*, actor: Actor, grant_id: Any) -> RoleGrant:
    """A second person of the admin or compliance role gives the role: not the one who
    asked (``approver_is_requester``), not the one who receives it (``self_grant``)."""
    acting = actor.require(*STAFF_MANAGERS)
    with transaction.atomic(), staff_change():
        grant = _grant(actor, grant_id)
        profile = _staff_of_user(grant.staff.user_id)
        if grant.requested_by == actor.username:
            raise ConflictError("the person who asked for a role may not approve it",
                                code="approver_is_requester")
        _check_grantable(actor, profile, grant.role)
        profile.user.groups.add(_group(grant.role))
        now = timezone.now()
        RoleGrant.objects.filter(pk=grant.pk).update(
            state=RoleGrant.State.APPROVED, decided_by=actor.username, decided_at=now)
        meta = actor.metadata(role=acting)
        _record(profile, [NewEvent("RoleGranted", {
            "grant_id": str(grant.pk), "username": profile.user.username,
            "role": grant.role, "basis": "request", "requested_by": grant.requested_by,
            "approved_by": actor.username})], meta)
        if grant.group_wide:
            _group_wide_set(profile, True, meta)
    return RoleGrant.objects.get(pk=grant.pk)


def role_grant_reject(*, actor: Actor, grant_id: Any, reason: Any) -> RoleGrant:
    """Turn a request down (the requester may withdraw their own this way)."""
    acting = actor.require(*STAFF_MANAGERS)
    reason = _text(reason, "reason")
    with transaction.atomic(), staff_change():
        grant = _grant(actor, grant_id)
        profile = _staff_of_user(grant.staff.user_id)
        RoleGrant.objects.filter(pk=grant.pk).update(
            state=RoleGrant.State.REJECTED, decided_by=actor.username,
            decided_at=timezone.now(), decision_reason=reason)
        _record(profile, [NewEvent("RoleGrantRejected", {
            "grant_id": str(grant.pk), "username": profile.user.username, "role": grant.role,
            "reason": reason})], actor.metadata(role=acting))
    return RoleGrant.objects.get(pk=grant.pk)


def _group_wide_set(profile: StaffProfile, value: bool, meta: dict) -> None:
    if profile.group_wide == value:
        return
    StaffProfile.objects.filter(pk=profile.pk).update(group_wide=value)
    profile.group_wide = value
    _record(profile, [NewEvent("StaffScopeChanged", {
        "username": profile.user.username, "group_wide": value})], meta)


def role_revoke(*, actor: Actor, staff_id: Any, role: Any, reason: Any) -> StaffProfile:
    """Take a role away (one person suffices: it narrows what someone may do). Taking
    compliance away also ends a whole-group scope."""
    acting = actor.require(*STAFF_MANAGERS)
    wanted = _role(role).value
    reason = _text(reason, "reason")
    with transaction.atomic(), staff_change():
        profile = _staff(actor, staff_id)
        if wanted not in roles_of(profile):
            raise ConflictError(f"{profile.user.username} does not hold {wanted}",
                                code="role_not_held")
        profile.user.groups.remove(_group(wanted))
        meta = actor.metadata(role=acting)
        _record(profile, [NewEvent("RoleRevoked", {
            "username": profile.user.username, "role": wanted, "reason": reason})], meta)
        if wanted == Role.COMPLIANCE.value:
            _group_wide_set(profile, False, meta)
    return profile


def staff_deactivate(*, actor: Actor, staff_id: Any, reason: Any) -> StaffProfile:
    """The login stops working at once: inactive, and every API token revoked."""
    acting = actor.require(*STAFF_MANAGERS)
    reason = _text(reason, "reason")
    with transaction.atomic(), staff_change():
        profile = _staff(actor, staff_id)
        if profile.user_id == actor.user_id:
            raise ConflictError("nobody deactivates their own login", code="self_deactivate")
        if not profile.user.is_active:
            raise ConflictError(f"{profile.user.username} is already deactivated",
                                code="staff_inactive")
        profile.user.is_active = False
        profile.user.save(update_fields=["is_active"])
        tokens = _revoke_tokens(profile.user)
        _record(profile, [NewEvent("StaffDeactivated", {
            "username": profile.user.username, "reason": reason, "tokens_revoked": tokens})],
            actor.metadata(role=acting))
    return profile


def _revoke_tokens(user: Any) -> int:
    """Every API token of ``user`` (django-rest-knox when installed)."""
    from django.apps import apps

    if not apps.is_installed("knox"):
        return 0
    from knox.models import get_token_model

    return get_token_model().objects.filter(user=user).delete()[0]


def staff_credential_number_change(*, actor: Actor, staff_id: Any, credential_number: Any,
                                   reason: Any) -> StaffProfile:
    """A new Board credential number (``CredentialChanged``, both numbers recorded)."""
    acting = actor.require(Role.ADMIN)
    reason = _text(reason, "reason")
    with transaction.atomic(), staff_change():
        profile = _staff(actor, staff_id)
        new = _credential(credential_number)
        old = profile.credential_number
        StaffProfile.objects.filter(pk=profile.pk).update(credential_number=new)
        profile.credential_number = new
        _record(profile, [NewEvent("CredentialChanged", {
            "username": profile.user.username, "credential": "credential_number",
            "old_credential_number": old, "credential_number": new, "reason": reason})],
            actor.metadata(role=acting))
    return profile


def password_change(*, actor: Actor, old_password: Any, new_password: Any) -> None:
    """A member of staff changes their own password, proving the old one. Another
    person's is never set by anyone: a two-person reset ends in the subject's own
    enrolment (:mod:`casino.services.credentials`)."""
    with transaction.atomic(), staff_change():
        profile = _staff_of_user(actor.user_id)
        if not isinstance(old_password, str) or not profile.user.check_password(old_password):
            raise DomainError("the old password is wrong", code="wrong_password",
                              field="old_password")
        _set_password(profile, new_password, actor.metadata(), reason="own change",
                      field="new_password")


def _set_password(profile: StaffProfile, password: Any, meta: dict, *, reason: str,
                  field: str = "password") -> None:
    user = profile.user
    user.set_password(_password(password, user, field))
    user.save(update_fields=["password"])
    tokens = _revoke_tokens(user)
    _record(profile, [NewEvent("CredentialChanged", {
        "username": user.username, "credential": "password", "reason": reason,
        "tokens_revoked": tokens, "password_fingerprint": password_fingerprint(user)})],
        meta)


def password_fingerprint(user: Any) -> str:
    """What the events keep of a login's password (issue 35): the SHA-256 of its stored
    hash, so ``verify_staff`` sees a password changed behind the services' back. The
    hash's own random salt is not in the event, so the fingerprint tells nothing about
    the password itself."""
    import hashlib

    return hashlib.sha256(user.password.encode()).hexdigest()[:32]


def password_rehashed(user: Any) -> None:
    """Record that Django re-hashed ``user``'s password on login (the same secret under a
    new hasher or work factor): ``PasswordRehashed`` with the new fingerprint."""
    profile = StaffProfile.objects.filter(user_id=user.pk).select_related("property").first()
    if profile is None:
        return
    meta = system_actor(profile.property, "password-rehash").metadata()
    with transaction.atomic():
        profile = _staff_of_user(user.pk)
        _record(profile, [NewEvent("PasswordRehashed", {
            "username": user.get_username(),
            "password_fingerprint": password_fingerprint(user)})], meta)
