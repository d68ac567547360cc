"""Logins: lock-outs and their unlocking, API tokens issued and revoked — each an event.

Issue 11, finding 5: wrong passwords were checked without limit and tokens never
expired. django-axes now locks an account, and separately an address, after
``LOGIN_FAILURE_LIMIT`` failures (settings); django-rest-knox tokens expire after
``API_TOKEN_TTL_HOURS``. What they do to a login is recorded here, in the stream
``login-<username>`` (or ``login-ip-<address>`` for an address), under the property of
the staff member concerned: an address or an unknown username has no property, so only a
whole-group compliance officer reads those.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.errors import ConcurrencyError
from casino.eventstore.store import NewEvent, Stream, append, stream_version
from casino.models import StaffProfile
from casino.roles import Role
from casino.scoping import property_row, whole_number

log = logging.getLogger(__name__)
LOGIN_STREAM = "login"
UNLOCKERS = (Role.ADMIN, Role.COMPLIANCE)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.:@+-]")


def login_stream_id(*, username: str | None = None, ip_address: str | None = None) -> str:
    """``login-<username>`` or ``login-ip-<address>``, in the store's stream-id alphabet."""
    if username:
        return ("login-" + _UNSAFE.sub("_", username))[:200]
    return ("login-ip-" + _UNSAFE.sub("_", ip_address or "unknown"))[:200]


def _property_of(username: str | None) -> str | None:
    if not username:
        return None
    return (StaffProfile.objects.filter(user__username=username)
            .values_list("property__licence_number", flat=True).first())


def _record(stream_id: str, event: NewEvent, meta: dict[str, Any]) -> None:
    """Append at the stream's head; two logins of one person at the same moment race for
    the version, so a conflict is read again and retried."""
    for attempt in range(5):
        try:
            append(Stream(LOGIN_STREAM, stream_id), stream_version(stream_id), [event], meta)
            return
        except ConcurrencyError:
            if attempt == 4:
                raise


def _meta(actor: str, licence: str | None, **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"actor": actor, **{k: v for k, v in extra.items() if v}}
    if licence:
        meta["property"] = licence
    return meta


# --- lock-outs (django-axes) ------------------------------------------------------------

def login_locked_out(*, username: str | None, ip_address: str | None, failures: int) -> None:
    """Record a lock-out as axes declares it (``LoginLockedOut``), once: when the failures
    reach the limit, not again for every refused attempt while it lasts."""
    if failures != settings.AXES_FAILURE_LIMIT:
        return
    until = timezone.now() + settings.AXES_COOLOFF_TIME
    licence = _property_of(username)
    data = {"username": username or "", "ip_address": ip_address or "", "failures": failures,
            "until": until.isoformat()}
    meta = _meta("system:login-lockout", licence)
    _record(login_stream_id(username=username), NewEvent("LoginLockedOut", data), meta)
    if ip_address:
        _record(login_stream_id(ip_address=ip_address), NewEvent("LoginLockedOut", data),
                meta)


def login_unlock(*, actor: Actor, username: Any = None, ip_address: Any = None,
                 reason: Any) -> dict[str, Any]:
    """Lift a lock-out of an account and/or an address before its cool-off ends
    (``LoginUnlocked``). Nobody unlocks themselves (``self_unlock``); an account of
    another property is 404 ``staff_not_found``."""
    from axes.utils import reset

    role = actor.require(*UNLOCKERS)
    username = username or None
    ip_address = ip_address or None
    if not isinstance(reason, str) or not reason.strip():
        raise DomainError("reason is required", code="invalid_input", field="reason")
    if username is None and ip_address is None:
        raise DomainError("give a username, an ip_address or both", code="invalid_input",
                          field="username")
    if username == actor.username:
        raise ConflictError("nobody lifts their own lock-out", code="self_unlock")
    licence = _property_of(username)
    if licence is not None and licence != actor.property.licence_number:
        raise NotFoundError(f"no staff {username}", code="staff_not_found")
    reset_count = 0
    with transaction.atomic():
        if username:
            reset_count += reset(username=username)
        if ip_address:
            reset_count += reset(ip=ip_address)
        data = {"username": username or "", "ip_address": ip_address or "",
                "by": actor.username, "reason": reason.strip(), "attempts_reset": reset_count}
        meta = actor.metadata(role=role)
        stream = (login_stream_id(username=username) if username
                  else login_stream_id(ip_address=ip_address))
        _record(stream, NewEvent("LoginUnlocked", data), meta)
    return {"username": username, "ip_address": ip_address, "attempts_reset": reset_count}


# --- tokens (django-rest-knox) ----------------------------------------------------------

def token_issue(user: Any) -> tuple[str, datetime | None]:
    """A new API token for ``user`` (``TokenIssued``, with the first characters of its
    key, never the token): the token and when it expires."""
    from knox.models import get_token_model

    instance, token = get_token_model().objects.create(user=user)
    _record(login_stream_id(username=user.get_username()), NewEvent("TokenIssued", {
        "username": user.get_username(), "token_key": instance.token_key[:8],
        "expiry": instance.expiry.isoformat() if instance.expiry else None}),
        _meta(user.get_username(), _property_of(user.get_username())))
    return token, instance.expiry


def _revoked(user: Any, count: int, by: str, reason: str, meta: dict[str, Any]) -> int:
    _record(login_stream_id(username=user.get_username()), NewEvent("TokenRevoked", {
        "username": user.get_username(), "count": count, "by": by, "reason": reason}), meta)
    return count


def token_logout(*, user: Any, token: Any, everywhere: bool) -> int:
    """The owner revokes the token they called with, or every token of theirs."""
    from knox.models import get_token_model

    tokens = get_token_model().objects.filter(user=user)
    if not everywhere:
        if not isinstance(token, get_token_model()):
            raise ConflictError("this request was not made with an API token",
                                code="no_token")
        tokens = tokens.filter(pk=token.pk)
    with transaction.atomic():
        count = tokens.delete()[0]
        name = user.get_username()
        return _revoked(user, count, name, "logout everywhere" if everywhere else "logout",
                        _meta(name, _property_of(name)))


def staff_tokens_revoke(*, actor: Actor, staff_id: Any, reason: Any) -> dict[str, Any]:
    """An administrator revokes every API token of a member of staff of their property."""
    from knox.models import get_token_model

    role = actor.require(Role.ADMIN)
    if not isinstance(reason, str) or not reason.strip():
        raise DomainError("reason is required", code="invalid_input", field="reason")
    profile = property_row(StaffProfile.objects.select_related("user"), actor, staff_id,
                           what="staff", field="user_id", parse=whole_number)
    with transaction.atomic():
        count = get_token_model().objects.filter(user=profile.user).delete()[0]
        _revoked(profile.user, count, actor.username, reason.strip(),
                 actor.metadata(role=role))
    return {"username": profile.user.get_username(), "revoked": count}


def on_user_locked_out(sender: Any, request: Any = None, username: str | None = None,
                       ip_address: str | None = None, **_: Any) -> None:
    """axes' ``user_locked_out`` signal: record it. A failure to record is logged, not
    raised: the lock-out itself stands either way."""
    failures = getattr(request, "axes_failures_since_start", settings.AXES_FAILURE_LIMIT)
    try:
        login_locked_out(username=username, ip_address=ip_address, failures=failures)
    except Exception:
        log.exception("could not record the lock-out of %s / %s", username, ip_address)


def connect_signals() -> None:
    from axes.signals import user_locked_out

    user_locked_out.connect(on_user_locked_out, dispatch_uid="casino_login_locked_out")


__all__ = ["login_locked_out", "login_unlock", "token_issue", "token_logout",
           "staff_tokens_revoke", "login_stream_id", "connect_signals"]
