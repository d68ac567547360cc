"""Lifting a lock-out before its cool-off ends takes two people (issue 35: a lock-out is
lifted by a recorded, two-person step).

One administrator or compliance officer asks (``LoginUnlockRequested``, in the login's
stream ``login-<username>`` or the address's ``login-ip-<address>``); a second person of
those roles, neither the one who asked nor the locked login, approves: the failures are
forgotten and ``LoginUnlocked`` appended (:func:`casino.services.logins.lift_lockout`), or
turns it down (``LoginUnlockRejected``). A lock-out lifted by one person would let one
administrator clear the guesses at a colleague's password and guess on.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.domain.inputs import text_input
from casino.eventstore.store import NewEvent
from casino.models import LoginUnlockRequest
from casino.scoping import property_row
from casino.services.logins import (
    UNLOCKERS,
    _property_of,
    _record,
    lift_lockout,
    login_stream_id,
)
from casino.staff_guard import staff_change

REFUSALS = {
    "unlock_already_decided": "This request to lift a lock-out was already decided.",
    "login_unlock_request_not_found": "That request to lift a lock-out could not be found.",
    "unlock_of_self": "Nobody may approve lifting their own lock-out.",
}


def _stream(req: LoginUnlockRequest) -> str:
    if req.username:
        return login_stream_id(username=req.username)
    return login_stream_id(ip_address=req.ip_address)


def login_unlock_request(*, actor: Actor, username: Any = None, ip_address: Any = None,
                         reason: Any) -> LoginUnlockRequest:
    """Ask for the lock-out of ``username`` and/or the slowing of ``ip_address`` to be
    lifted; a second person decides. Refused: nothing named (``invalid_input``), one's
    own (``self_unlock``), another property's login (404 ``staff_not_found``)."""
    role = actor.require(*UNLOCKERS)
    username = text_input(username or "", "username", limit=150, required=False) or ""
    ip_address = text_input(ip_address or "", "ip_address", limit=64, required=False) or ""
    reason = text_input(reason, "reason", limit=1000, required=True)
    if not username and not ip_address:
        raise DomainError("give a username, an ip_address or both", code="invalid_input",
                          field="username")
    if username == actor.username:
        raise ConflictError("nobody lifts their own lock-out", code="self_unlock")
    licence = _property_of(username or None)
    if licence is not None and licence != actor.property.licence_number:
        raise NotFoundError(f"no staff {username}", code="staff_not_found")
    with transaction.atomic(), staff_change():
        req = LoginUnlockRequest.objects.create(
            id=uuid.uuid4(), property=actor.property, username=username,
            ip_address=ip_address, reason=reason, requested_by=actor.username,
            requested_at=timezone.now())
        _record(_stream(req), NewEvent("LoginUnlockRequested", {
            "request_id": str(req.pk), "username": username, "ip_address": ip_address,
            "reason": reason}), actor.metadata(role=role))
    return req


def _pending(actor: Actor, request_id: Any) -> LoginUnlockRequest:
    req = property_row(LoginUnlockRequest.objects.select_for_update(), actor, request_id,
                       what="login_unlock_request")
    if req.state != LoginUnlockRequest.State.PENDING:
        raise ConflictError(f"this request was already {req.state}",
                            code="unlock_already_decided")
    return req


def login_unlock_approve(*, actor: Actor, request_id: Any) -> dict[str, Any]:
    """The second person lifts the lock-out: not the one who asked (``same_person``), not
    the locked login (``unlock_of_self``)."""
    role = actor.require(*UNLOCKERS)
    with transaction.atomic(), staff_change():
        req = _pending(actor, request_id)
        if req.requested_by == actor.username:
            raise ConflictError("you asked for this; a different person approves it",
                                code="same_person")
        if req.username and req.username == actor.username:
            raise ConflictError("nobody lifts their own lock-out", code="unlock_of_self")
        LoginUnlockRequest.objects.filter(pk=req.pk).update(
            state=LoginUnlockRequest.State.APPROVED, decided_by=actor.username,
            decided_at=timezone.now())
        extra = {"request_id": str(req.pk), "requested_by": req.requested_by}
        account = lift_lockout(actor, role, req.reason, extra, username=req.username)
        address = lift_lockout(actor, role, req.reason, extra, ip_address=req.ip_address)
    return {"username": req.username or None, "ip_address": req.ip_address or None,
            "attempts_reset": account + address}


def login_unlock_reject(*, actor: Actor, request_id: Any, reason: Any) -> LoginUnlockRequest:
    """Turn the request down, with the reason; the lock-out runs its course."""
    role = actor.require(*UNLOCKERS)
    reason = text_input(reason, "reason", limit=1000, required=True)
    with transaction.atomic(), staff_change():
        req = _pending(actor, request_id)
        LoginUnlockRequest.objects.filter(pk=req.pk).update(
            state=LoginUnlockRequest.State.REJECTED, decided_by=actor.username,
            decided_at=timezone.now(), decision_reason=reason)
        _record(_stream(req), NewEvent("LoginUnlockRejected", {
            "request_id": str(req.pk), "username": req.username,
            "ip_address": req.ip_address, "reason": reason}), actor.metadata(role=role))
    return LoginUnlockRequest.objects.get(pk=req.pk)


def open_unlocks(actor: Actor) -> Any:
    return (LoginUnlockRequest.objects.filter(property=actor.property,
                                              state=LoginUnlockRequest.State.PENDING)
            .order_by("requested_at"))


__all__ = ["login_unlock_request", "login_unlock_approve", "login_unlock_reject",
           "open_unlocks", "REFUSALS"]
