"""A reset of someone's password or second factor takes two people and ends in the
subject's own hands (issue 35, Build 1).

One administrator asks (``CredentialResetRequested``); a second person — an administrator
or a compliance officer, neither the one who asked nor the subject — approves
(``CredentialResetApproved``): the subject's password is made unusable and/or their
authenticator and recovery codes removed, every session of theirs ended and every API token
revoked, and a one-time enrolment opened. Its code is in two halves (dual custody): one
shown once to the one who asked, one shown once to the one who approved; only their salted
hashes are kept. The subject, in person, types both on the enrolment page (no login),
chooses a new password and, where their roles need one, enrols a new authenticator
(``CredentialEnrolmentCompleted`` with ``TwoFactorEnrolled``): nobody but the subject ever
sees a password, a TOTP secret or a recovery code, and neither approver alone holds the
whole code.

Every login is reset this way, not only the privileged ones: a dealer's or a cashier's
signature is also one half of a two-person step (a deck count, a fill).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor, system_actor
from casino.domain.errors import ConflictError, DomainError
from casino.domain.inputs import text_input
from casino.eventstore.store import NewEvent
from casino.models import CredentialReset
from casino.roles import Role
from casino.scoping import property_row
from casino.services.sessions import end_sessions
from casino.services.staff import (
    STAFF_MANAGERS,
    _password,
    _record,
    _revoke_tokens,
    _staff,
    _staff_of_user,
    password_fingerprint,
    roles_of,
)
from casino.staff_guard import staff_change

#: who asks for a reset
REQUESTERS = (Role.ADMIN,)
#: who approves one: a second administrator or a compliance officer (compliance is
#: independent of the administration, so a property with one administrator still has a
#: second person)
APPROVERS = STAFF_MANAGERS
#: letters of a half: no 0/O, 1/I/L, so it reads aloud and types without doubt
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
HALF_LENGTH = 8

REFUSALS = {
    "reset_already_requested": "A reset of this person's sign-in is already waiting for a "
                               "second person.",
    "reset_already_decided": "This reset was already approved or turned down.",
    "subject_approves_own_reset": "Nobody may approve the reset of their own sign-in; "
                                  "another administrator or compliance officer does it.",
    "credential_reset_not_found": "That reset request could not be found.",
    "enrolment_code_wrong": "The username or one of the two codes is wrong.",
    "enrolment_used": "These codes were already used; ask for a new reset.",
    "enrolment_expired": "These codes have expired; ask for a new reset.",
    "enrolment_pending": "Your sign-in was reset: enrol with the two codes you were "
                         "given, on the enrolment page.",
}


def enrolment_hours() -> int:
    return int(getattr(settings, "CREDENTIAL_ENROLMENT_HOURS", 24))


def new_half() -> str:
    """Eight letters in two groups of four (``K7QM-3XRP``): about 40 bits each."""
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(HALF_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def _normal(half: Any) -> str:
    """A half as typed: case, spaces and dashes do not matter."""
    if not isinstance(half, str):
        return ""
    return "".join(c for c in half.upper() if c.isalnum())


def _what(value: Any) -> str:
    if value not in CredentialReset.What.values:
        raise DomainError("what is password, second_factor or both", code="invalid_input",
                          field="what")
    return value


def _has_second_factor(user: Any) -> bool:
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return (TOTPDevice.objects.filter(user=user).exists()
            or StaticDevice.objects.filter(user=user).exists())


def credential_reset_request(*, actor: Actor, staff_id: Any, what: Any,
                             reason: Any) -> CredentialReset:
    """An administrator asks for a reset of another person's password, second factor or
    both; a second person decides. Returns the request with ``half_code``: the first half
    of the enrolment code, shown to the one who asked this once and never kept.

    Refused: oneself (``self_reset``), a deactivated login (``staff_inactive``), a second
    open request (``reset_already_requested``), a second factor that is not there
    (``two_factor_not_enrolled``)."""
    acting = actor.require(*REQUESTERS)
    what = _what(what)
    reason = text_input(reason, "reason", limit=1000, required=True)
    with transaction.atomic(), staff_change():
        profile = _staff(actor, staff_id)
        if profile.user_id == actor.user_id:
            raise ConflictError("nobody resets their own sign-in: change your password "
                                "with your old one", code="self_reset")
        if not profile.user.is_active:
            raise ConflictError(f"{profile.user.username} is deactivated",
                                code="staff_inactive")
        if CredentialReset.objects.filter(staff=profile,
                                          state=CredentialReset.State.PENDING).exists():
            raise ConflictError("a reset of this login is already waiting for a second "
                                "person", code="reset_already_requested")
        if what == CredentialReset.What.SECOND_FACTOR and not _has_second_factor(
                profile.user):
            raise ConflictError(f"{profile.user.username} has no second factor to reset",
                                code="two_factor_not_enrolled")
        half = new_half()
        reset = CredentialReset.objects.create(
            id=uuid.uuid4(), property=profile.property, staff=profile, what=what,
            reason=reason, requested_by=actor.username, requested_at=timezone.now(),
            requester_half=make_password(_normal(half)))
        _record(profile, [NewEvent("CredentialResetRequested", {
            "reset_id": str(reset.pk), "username": profile.user.username, "what": what,
            "reason": reason})], actor.metadata(role=acting))
    reset.half_code = half
    return reset


def _reset(actor: Actor, reset_id: Any) -> CredentialReset:
    rows = CredentialReset.objects.select_for_update().select_related("staff__user")
    reset = property_row(rows, actor, reset_id, what="credential_reset")
    if reset.state != CredentialReset.State.PENDING:
        raise ConflictError(f"this reset was already {reset.state}",
                            code="reset_already_decided")
    return reset


def credential_reset_approve(*, actor: Actor, reset_id: Any) -> CredentialReset:
    """The second person approves: the password made unusable and/or the second factor
    removed, every session ended, every token revoked, the enrolment opened for
    ``CREDENTIAL_ENROLMENT_HOURS``. Returns the request with ``half_code``: the second
    half, shown to the approver this once.

    Refused: the one who asked (``same_person``), the subject
    (``subject_approves_own_reset``), a request decided already
    (``reset_already_decided``), another property's or an unknown one (404
    ``credential_reset_not_found``)."""
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    acting = actor.require(*APPROVERS)
    with transaction.atomic(), staff_change():
        reset = _reset(actor, reset_id)
        if reset.requested_by == actor.username:
            raise ConflictError("you asked for this reset; a different person approves it",
                                code="same_person")
        if reset.staff.user_id == actor.user_id:
            raise ConflictError("nobody approves the reset of their own sign-in",
                                code="subject_approves_own_reset")
        profile = _staff_of_user(reset.staff.user_id)
        user = profile.user
        data: dict[str, Any] = {"reset_id": str(reset.pk), "username": user.username,
                                "what": reset.what, "requested_by": reset.requested_by,
                                "approved_by": actor.username}
        if reset.resets_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
            data["password_fingerprint"] = password_fingerprint(user)
        if reset.resets_second_factor():
            devices = [TOTPDevice.objects.filter(user=user),
                       StaticDevice.objects.filter(user=user)]
            data["devices_removed"] = sum(d.count() for d in devices)  # not their codes
            for rows in devices:
                rows.delete()
        data["sessions_ended"] = end_sessions(user)
        data["tokens_revoked"] = _revoke_tokens(user)
        half = new_half()
        now = timezone.now()
        expires = now + timedelta(hours=enrolment_hours())
        data["expires_at"] = expires.isoformat()
        CredentialReset.objects.filter(pk=reset.pk).update(
            state=CredentialReset.State.APPROVED, decided_by=actor.username, decided_at=now,
            approver_half=make_password(_normal(half)), expires_at=expires)
        _record(profile, [NewEvent("CredentialResetApproved", data)],
                actor.metadata(role=acting))
    reset = CredentialReset.objects.select_related("staff__user").get(pk=reset.pk)
    reset.half_code = half
    return reset


def credential_reset_reject(*, actor: Actor, reset_id: Any, reason: Any) -> CredentialReset:
    """Turn a reset down, with the reason (the one who asked may withdraw it this way);
    nothing about the login changes."""
    acting = actor.require(*APPROVERS)
    reason = text_input(reason, "reason", limit=1000, required=True)
    with transaction.atomic(), staff_change():
        reset = _reset(actor, reset_id)
        profile = _staff_of_user(reset.staff.user_id)
        CredentialReset.objects.filter(pk=reset.pk).update(
            state=CredentialReset.State.REJECTED, decided_by=actor.username,
            decided_at=timezone.now(), decision_reason=reason)
        _record(profile, [NewEvent("CredentialResetRejected", {
            "reset_id": str(reset.pk), "username": profile.user.username,
            "what": reset.what, "reason": reason})], actor.metadata(role=acting))
    return CredentialReset.objects.select_related("staff__user").get(pk=reset.pk)


# --- the subject's enrolment (no login: the username and the two halves) ---------------

def enrolment_open(*, username: Any, requester_code: Any, approver_code: Any,
                   now: Any = None) -> CredentialReset:
    """The approved reset whose two halves these are, for ``username``; nothing is
    written. Refused: a wrong username or half (``enrolment_code_wrong``, the same either
    way, so the page tells nobody which logins exist), codes already used
    (``enrolment_used``), expired ones (``enrolment_expired``)."""
    now = now or timezone.now()
    first, second = _normal(requester_code), _normal(approver_code)
    wrong = DomainError("the username or one of the codes is wrong",
                        code="enrolment_code_wrong", field="requester_code")
    if not isinstance(username, str) or not first or not second:
        raise wrong
    candidates = (CredentialReset.objects.select_related("staff__user")
                  .filter(staff__user__username=username,
                          state__in=[CredentialReset.State.APPROVED,
                                     CredentialReset.State.COMPLETED])
                  .order_by("-decided_at")[:5])
    candidates = list(candidates)
    if not candidates:  # the hashing work of one reset's check: no login told by timing
        make_password(first)
        make_password(second)
    for reset in candidates:
        if (check_password(first, reset.requester_half)
                and check_password(second, reset.approver_half)):
            if reset.state == CredentialReset.State.COMPLETED:
                raise ConflictError("these codes were already used", code="enrolment_used")
            if reset.expires_at is None or reset.expires_at <= now:
                raise ConflictError("these codes have expired", code="enrolment_expired")
            return reset
    raise wrong


def enrolment_needs_second_factor(reset: CredentialReset) -> bool:
    """Whether the subject enrols an authenticator on the page: their second factor was
    reset and their roles need one."""
    from casino.services.two_factor import two_factor_required

    return reset.resets_second_factor() and two_factor_required(roles_of(reset.staff))


def credential_enrolment_complete(*, username: Any, requester_code: Any,
                                  approver_code: Any, password: Any = None,
                                  current_password: Any = None, secret: Any = None,
                                  code: Any = None) -> list[str]:
    """The subject completes the enrolment: a new ``password`` (the validators) where the
    password was reset, their ``current_password`` where only the second factor was; a
    new authenticator (``secret`` confirmed by its ``code``) where their roles need one.
    Appends ``CredentialEnrolmentCompleted`` (and ``TwoFactorEnrolled``) in one
    transaction; returns the new recovery codes (empty without an authenticator)."""
    from casino.services.two_factor import save_devices, totp_step

    with transaction.atomic(), staff_change():
        reset = enrolment_open(username=username, requester_code=requester_code,
                               approver_code=approver_code)
        reset = CredentialReset.objects.select_for_update().get(pk=reset.pk)
        if reset.state != CredentialReset.State.APPROVED:  # completed by a racing request
            raise ConflictError("these codes were already used", code="enrolment_used")
        profile = _staff_of_user(reset.staff.user_id)
        user = profile.user
        step = None
        if enrolment_needs_second_factor(reset):
            step = totp_step(secret, code)
        data: dict[str, Any] = {"reset_id": str(reset.pk), "username": user.username,
                                "what": reset.what}
        if reset.resets_password():
            user.set_password(_password(password, user))
            user.save(update_fields=["password"])
            data["password_fingerprint"] = password_fingerprint(user)
        elif not isinstance(current_password, str) or not user.check_password(
                current_password):
            raise DomainError("your password is wrong", code="wrong_password",
                              field="current_password")
        codes: list[str] = []
        events = []
        if step is not None:
            device, codes = save_devices(user, secret, step)
            events.append(NewEvent("TwoFactorEnrolled", {
                "username": user.username, "kind": "totp", "device": device.persistent_id,
                "recovery_codes": len(codes)}))
        data["second_factor_enrolled"] = step is not None
        CredentialReset.objects.filter(pk=reset.pk).update(
            state=CredentialReset.State.COMPLETED, completed_at=timezone.now())
        meta = system_actor(profile.property, "credential-enrolment").metadata()
        meta["actor"] = user.username  # the subject, in person, proven by the two halves
        _record(profile, [*events, NewEvent("CredentialEnrolmentCompleted", data)], meta)
    return codes


def enrolment_awaited(user: Any) -> bool:
    """Whether ``user``'s second factor was reset by an approved reset they have not
    completed: they enrol on the enrolment page, never at the login with the password
    alone (an expired one needs a new reset)."""
    return CredentialReset.objects.filter(
        staff__user=user, state=CredentialReset.State.APPROVED,
        what__in=[CredentialReset.What.SECOND_FACTOR, CredentialReset.What.BOTH]).exists()


def open_resets(actor: Actor) -> Any:
    """The property's resets waiting for a second person, oldest first."""
    return (CredentialReset.objects.filter(property=actor.property,
                                           state=CredentialReset.State.PENDING)
            .select_related("staff__user").order_by("requested_at"))


def reset_of(actor: Actor, reset_id: Any) -> CredentialReset:
    """One reset of the actor's property (404 ``credential_reset_not_found``)."""
    return property_row(CredentialReset.objects.select_related("staff__user"), actor,
                        reset_id, what="credential_reset")


__all__ = ["credential_reset_request", "credential_reset_approve", "credential_reset_reject",
           "enrolment_open", "credential_enrolment_complete", "enrolment_awaited",
           "enrolment_needs_second_factor", "open_resets", "reset_of", "REFUSALS"]
