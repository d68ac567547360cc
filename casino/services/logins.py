"""Logins: lock-outs and their unlocking, API tokens issued and revoked — each an event.

Lifting a lock-out takes two people (issue 35): :mod:`casino.services.unlocks` asks and
approves; :func:`lift_lockout` is what the approval does.

Issue 11, finding 5: wrong passwords were checked without limit and tokens never
expired. django-axes now locks an account from one address after ``LOGIN_FAILURE_LIMIT``
failures from there; past ``LOGIN_ACCOUNT_FAILURE_LIMIT`` across addresses the account is
slowed, never locked from everywhere (issue 35 item 4); an address is never locked (issue
26 item 7: that locked the whole floor behind its proxy) but slowed once its failures
pass ``LOGIN_ADDRESS_FAILURE_LIMIT`` (:mod:`casino.login_throttle`); django-rest-knox tokens expire after
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
from casino.domain.errors import ConflictError
from casino.domain.inputs import text_input
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

LOCKED_OUT, UNLOCKED = "LoginLockedOut", "LoginUnlocked"
THROTTLED = "LoginThrottled"  # an address slowed (casino.login_throttle)
SLOWED = "LoginSlowed"  # an account slowed (casino.login_throttle)


def _lockout_on_record(stream_id: str, kind: str = LOCKED_OUT,
                       same: dict[str, Any] | None = None) -> bool:
    """Whether the stream already records this lock-out (or throttling, ``kind``): one
    of them whose data has the values of ``same`` (the lock's scope and address), less
    than a cool-off old and after the stream's last unlock. Every refused attempt while
    locked re-sends axes' signal, every slowed one comes here too; the record says it
    once (again after a cool-off, if attempts go on)."""
    from casino.eventstore.models import Event

    since = timezone.now() - settings.AXES_COOLOFF_TIME
    recent = (Event.objects.filter(stream_id=stream_id, type__in=(kind, UNLOCKED),
                                   recorded_at__gt=since)
              .order_by("-version").values("type", "data"))
    for event in recent:
        if event["type"] == UNLOCKED:
            return False
        if all((event["data"] or {}).get(k) == v for k, v in (same or {}).items()):
            return True
    return False


def _record_lockout(stream_id: str, data: dict[str, Any], meta: dict[str, Any],
                    kind: str = LOCKED_OUT, same: dict[str, Any] | None = None) -> None:
    """Append ``kind`` (``LoginLockedOut``) unless already on record; a concurrent
    refusal that appended first is seen on the retry, so it is recorded once."""
    for attempt in range(5):
        if _lockout_on_record(stream_id, kind, same):
            return
        try:
            append(Stream(LOGIN_STREAM, stream_id), stream_version(stream_id),
                   [NewEvent(kind, data)], meta)
            return
        except ConcurrencyError:
            if attempt == 4:
                raise


def login_locked_out(*, username: str | None, ip_address: str | None, scope: str | None,
                     failures: int) -> list[str]:
    """Record the lock-out just imposed (``LoginLockedOut``) in ``login-<username>`` under
    the staff member's property: ``scope`` ``"address"``, the account from
    ``ip_address`` only, ``failures`` from there (the only lock: an account is slowed
    across addresses, :func:`login_slowed`, and an address too, :func:`login_throttled`).
    Once per address per cool-off. Returns the streams written to. (Events of scope
    ``"account"``, the lock from every address before issue 35, stay in the record.)"""
    until = (timezone.now() + settings.AXES_COOLOFF_TIME).isoformat()
    if not username or scope != "address":
        return []
    stream = login_stream_id(username=username)
    same = {"scope": scope, **({"ip_address": ip_address or ""} if scope == "address"
                               else {})}
    _record_lockout(stream, {"username": username, "ip_address": ip_address or "",
                             "scope": scope, "failures": failures, "until": until},
                    _meta("system:login-lockout", _property_of(username)), same=same)
    return [stream]


def login_throttled(*, ip_address: str, failures: int) -> str:
    """Record that wrong passwords from ``ip_address`` passed
    ``LOGIN_ADDRESS_FAILURE_LIMIT`` and its further failures are now slowed
    (``LoginThrottled``, once per cool-off) in ``login-ip-<address>`` with no property
    (an address is no one property's: only a group-wide compliance officer reads it).
    Which accounts were tried is not written: the axes rows (admin) keep that."""
    stream = login_stream_id(ip_address=ip_address)
    until = (timezone.now() + settings.AXES_COOLOFF_TIME).isoformat()
    _record_lockout(stream, {"ip_address": ip_address, "failures": failures,
                             "limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
                             "until": until},
                    _meta("system:login-throttle", None), kind=THROTTLED)
    return stream


def login_slowed(*, username: str, failures: int) -> str:
    """Record that wrong passwords for ``username`` across addresses passed
    ``LOGIN_ACCOUNT_FAILURE_LIMIT`` and every answer for the account now waits
    (``LoginSlowed``, once per cool-off) in ``login-<username>`` under its property."""
    stream = login_stream_id(username=username)
    until = (timezone.now() + settings.AXES_COOLOFF_TIME).isoformat()
    _record_lockout(stream, {"username": username, "failures": failures,
                             "limit": settings.LOGIN_ACCOUNT_FAILURE_LIMIT,
                             "until": until},
                    _meta("system:login-throttle", _property_of(username)), kind=SLOWED)
    return stream


def lift_lockout(actor: Actor, role: str, reason: str, extra: dict[str, Any],
                 **target: str | None) -> int:
    """Reset axes' failures of one account or one address and append ``LoginUnlocked``
    to its own stream (the stream its lock-out was recorded in); nothing when the
    target was not named. Called only by the second person's approval
    (:func:`casino.services.unlocks.login_unlock_approve`: issue 35, two people)."""
    from axes.utils import reset

    (field, value), = target.items()
    if not value:
        return 0
    count = reset(**{"username" if field == "username" else "ip": value})
    data = {field: value, "by": actor.username, "reason": reason, "attempts_reset": count,
            **extra}
    _record(login_stream_id(**target), NewEvent(UNLOCKED, data), actor.metadata(role=role))
    return count


def reset_own_failures(user: Any, ip_address: str | None) -> int:
    """After a successful login from ``ip_address``, forget that account's failures from
    that address — and only those. axes' ``AXES_RESET_ON_SUCCESS`` would also forget
    every failure *from the address*, so anyone with a login could wipe the count of
    their guesses at a colleague's password by logging in as themself between guesses
    (settings: it is off). The account's failures from *other* addresses stay: the
    owner logging in at the cage does not lift the lock on the terminal where someone
    guessed at their password, nor give a distributed guesser a fresh count."""
    from axes.models import AccessAttempt

    return AccessAttempt.objects.filter(username=user.get_username(),
                                        ip_address=ip_address).delete()[0]


# --- tokens (django-rest-knox) ----------------------------------------------------------

def token_issue(user: Any) -> tuple[str, datetime | None]:
    """A new API token for ``user`` (``TokenIssued``, with the first characters of its
    key, never the token): the token and when it expires."""
    from knox.models import get_token_model

    instance, token = get_token_model().objects.create(user=user)
    _record(login_stream_id(username=user.get_username()), NewEvent("TokenIssued", {
        "username": user.get_username(), "token_key_prefix": instance.token_key[:8],
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
    reason = text_input(reason, "reason", limit=1000, required=True)
    profile = property_row(StaffProfile.objects.select_related("user"), actor, staff_id,
                           what="staff", field="user_id", parse=whole_number)
    with transaction.atomic():
        count = get_token_model().objects.filter(user=profile.user).delete()[0]
        _revoked(profile.user, count, actor.username, reason,
                 actor.metadata(role=role))
    return {"username": profile.user.get_username(), "revoked": count}


def on_user_locked_out(sender: Any, request: Any = None, username: str | None = None,
                       ip_address: str | None = None, **_: Any) -> None:
    """axes' ``user_locked_out`` signal: record the lock-out it imposed. A failure to
    record is logged, not raised: the lock-out itself stands either way."""
    from casino.login_throttle import lock_scope, pair_failures

    try:
        scope = getattr(request, "login_lock_scope", None) or lock_scope(
            username, ip_address, request)
        failures = pair_failures(username, ip_address, request) if username else 0
        login_locked_out(username=username, ip_address=ip_address, scope=scope,
                         failures=failures)
    except Exception:
        log.exception("could not record the lock-out of %s / %s", username, ip_address)


def on_user_logged_in(sender: Any, request: Any = None, user: Any = None, **_: Any) -> None:
    """Django's ``user_logged_in`` (admin, /api-auth/login/, and the token view, which
    sends it): the answer waits the account's slowing, if any
    (:func:`casino.login_throttle.on_logged_in`), then the account's failures from that
    address start again from nothing."""
    if user is not None:
        from casino.login_addresses import client_ip
        from casino.login_throttle import on_logged_in

        on_logged_in(request, user)
        address = getattr(request, "axes_ip_address", None)
        if address is None and request is not None:
            address = client_ip(request)
        reset_own_failures(user, address)


def connect_signals() -> None:
    from axes.signals import user_locked_out
    from django.contrib.auth.signals import user_logged_in, user_login_failed

    from casino.login_throttle import on_login_failed

    user_locked_out.connect(on_user_locked_out, dispatch_uid="casino_login_locked_out")
    user_logged_in.connect(on_user_logged_in, dispatch_uid="casino_login_reset_own")
    # After axes' own receiver (connected when the axes app, listed first, was ready):
    # it reads the failure axes has just recorded.
    user_login_failed.connect(on_login_failed, dispatch_uid="casino_login_throttle")


__all__ = ["login_locked_out", "login_throttled", "login_slowed", "lift_lockout", "token_issue",
           "token_logout", "staff_tokens_revoke", "login_stream_id", "reset_own_failures",
           "connect_signals"]
