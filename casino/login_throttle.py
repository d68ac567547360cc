"""How wrong passwords are limited without the limits being turned against the floor
(issue 26 item 7): the lock-outs (axes' handler, extended here) and the slowing of an
address that sprays passwords.

**Three counts**, all from axes' own ``AccessAttempt`` rows (one per account, address and
user agent, with ``failures_since_start``) within the cool-off:

* the *pair* (account, address): at ``LOGIN_FAILURE_LIMIT`` (5) that account is locked
  from that address only — axes' own rule (``AXES_LOCKOUT_PARAMETERS``);
* the *account* across addresses: at ``LOGIN_ACCOUNT_FAILURE_LIMIT`` (20) the account is
  locked from every address (:func:`account_failures`, checked by
  :class:`LoginLimitsHandler`). Failures from an address that is past its own spraying
  limit do not count: otherwise one sprayer trying five passwords on every account would
  lock every account for everyone (the floor locked out from one terminal, moved);
* the *address* across accounts (:func:`address_failures`): an address is never locked
  (one person behind the floor's proxy would lock out the whole floor); past
  ``LOGIN_ADDRESS_FAILURE_LIMIT`` each further wrong password from it is slowed.

Counted in the database rather than a cache: every web process and host shares it, while
the default cache is each process's own memory, so a cache count would let an attacker
spread its guesses over the workers. Attempts refused because a lock is on check no
password and are not recorded (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` off).

**The slowing** is a sleep on the request's worker, so it is rationed: one sleeper at a
time per host (:func:`sleeper_slot`: a ``threading.BoundedSemaphore`` for the threads of
a process, a non-blocking ``flock`` on a file in ``CASINO_VAR_DIR`` for the processes of
the host — ``bin/run``'s gunicorn has two *sync* workers of one thread each, where a
per-process slot alone is always free and two parallel wrong passwords kept both asleep).
A slowed wrong password that finds the slot taken is answered at once 429
``login_throttled`` with ``Retry-After`` the delay it would have had. A right password is
never slowed nor refused by this (it is never a failure): a colleague whose account is
not locked logs in from that address at once.
"""

from __future__ import annotations

import fcntl
import logging
import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.signals import user_locked_out
from django.conf import settings
from django.db.models import Sum

log = logging.getLogger(__name__)

#: Which lock an account is under (``request.login_lock_scope``): from one address, or
#: from every address.
FROM_ADDRESS, EVERYWHERE = "address", "account"


def _recent(request: Any = None) -> Any:
    from axes.attempts import get_cool_off_threshold
    from axes.models import AccessAttempt

    return AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))


def address_failures(ip_address: str, request: Any = None) -> int:
    """Wrong passwords from ``ip_address`` within the cool-off, every account together."""
    rows = _recent(request).filter(ip_address=ip_address)
    return rows.aggregate(n=Sum("failures_since_start"))["n"] or 0


def spraying_addresses(request: Any = None) -> Any:
    """The addresses past ``LOGIN_ADDRESS_FAILURE_LIMIT`` within the cool-off (a
    subquery): the ones being slowed."""
    return (_recent(request).filter(ip_address__isnull=False).values("ip_address")
            .annotate(n=Sum("failures_since_start"))
            .filter(n__gt=settings.LOGIN_ADDRESS_FAILURE_LIMIT).values("ip_address"))


def account_failures(username: str, request: Any = None) -> int:
    """Wrong passwords for ``username`` within the cool-off from every address, except
    the addresses past their own spraying limit (see the module)."""
    rows = _recent(request).filter(username=username).exclude(
        ip_address__in=spraying_addresses(request))
    return rows.aggregate(n=Sum("failures_since_start"))["n"] or 0


def pair_failures(username: str, ip_address: str | None, request: Any = None) -> int:
    rows = _recent(request).filter(username=username, ip_address=ip_address)
    return rows.aggregate(n=Sum("failures_since_start"))["n"] or 0


def lock_scope(username: str | None, ip_address: str | None,
               request: Any = None) -> str | None:
    """``EVERYWHERE`` when the account is locked from every address, ``FROM_ADDRESS``
    when only from ``ip_address``, else ``None``."""
    if not username:
        return None
    if account_failures(username, request) >= settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
        return EVERYWHERE
    if pair_failures(username, ip_address, request) >= settings.AXES_FAILURE_LIMIT:
        return FROM_ADDRESS
    return None


class LoginLimitsHandler(AxesDatabaseHandler):
    """axes' database handler (``AXES_HANDLER``) with the account-wide lock added: axes
    locks the pair (``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``) at
    ``AXES_FAILURE_LIMIT``; this also locks the account from every address at
    ``LOGIN_ACCOUNT_FAILURE_LIMIT`` failures not from spraying addresses. axes' single
    failure limit cannot say "5 for the pair, 20 for the account", so the second check is
    ours, before the password is checked and after a failure is recorded, as axes' own."""

    def is_locked(self, request: Any, credentials: dict | None = None) -> bool:
        username = get_client_username(request, credentials)
        if super().is_locked(request, credentials):
            request.login_lock_scope = lock_scope(
                username, request.axes_ip_address, request) or FROM_ADDRESS
            return True
        if username and (account_failures(username, request)
                         >= settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
            request.login_lock_scope = EVERYWHERE
            return True
        return False

    def user_login_failed(self, sender: Any, credentials: dict, request: Any = None,
                          **kwargs: Any) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or getattr(request, "axes_failures_since_start", None) is None:
            return  # refused unchecked (already locked), or not recorded
        username = get_client_username(request, credentials)
        scope = lock_scope(username, request.axes_ip_address, request)
        if scope:
            request.login_lock_scope = scope
        if scope == EVERYWHERE and not request.axes_locked_out:
            # The failure that reaches the account's limit is answered with the lock-out,
            # as axes answers the one that reaches the pair's.
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send("axes", request=request, username=username,
                                 ip_address=request.axes_ip_address)


def delay_seconds(failures: int) -> float:
    """How long the answer to a wrong password waits when ``failures`` (this one
    included) have come from its address: nothing up to the limit, then
    ``LOGIN_ADDRESS_DELAY_MS`` more per failure past it, at most
    ``LOGIN_ADDRESS_MAX_DELAY_MS``. With the defaults (50, 1000, 5000): the 51st waits
    1 s, the 52nd 2 s, … the 55th and every later one 5 s."""
    past = failures - settings.LOGIN_ADDRESS_FAILURE_LIMIT
    if past <= 0:
        return 0.0
    return min(settings.LOGIN_ADDRESS_DELAY_MS * past,
               settings.LOGIN_ADDRESS_MAX_DELAY_MS) / 1000


# One sleeper per process (its threads) and per host (its processes). Not a setting: more
# sleepers would only let a sprayer hold more of the workers that serve the floor.
_SLEEPERS = threading.BoundedSemaphore(1)
SLOT_FILE = "login-throttle.lock"


def slot_path() -> str:
    return os.path.join(str(settings.VAR_DIR), SLOT_FILE)


@contextmanager
def sleeper_slot() -> Iterator[bool]:
    """Yield whether this request may sleep: the process's slot and the host's, both
    taken without waiting. The host's is an ``flock`` (released by the kernel if the
    process dies mid-sleep); if its file cannot be opened, the process's slot alone
    rules (logged)."""
    if not _SLEEPERS.acquire(blocking=False):
        yield False
        return
    fd = None
    try:
        try:
            os.makedirs(os.path.dirname(slot_path()), exist_ok=True)
            fd = os.open(slot_path(), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            log.warning("login throttle: cannot open %s; one sleeper per process only",
                        slot_path(), exc_info=True)
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
        yield True
    finally:
        if fd is not None:
            os.close(fd)  # closing releases the flock
        _SLEEPERS.release()


def on_login_failed(sender: Any, credentials: Any = None, request: Any = None,
                    **_: Any) -> None:
    """Django's ``user_login_failed``, after axes' own receiver has recorded the failure
    (axes is before casino in ``INSTALLED_APPS``, so its receiver is connected first).
    Every login path sends it: the API's token, the console's form, the admin's.

    ``request.axes_failures_since_start`` is set only when axes recorded a checked
    password; an attempt axes refused unchecked (a locked account) is not slowed. A
    slowed one that finds the sleeper slot taken is marked for 429 ``login_throttled``
    (``request.login_throttled_retry_after``); it is answered through axes' middleware
    and ``AXES_LOCKOUT_CALLABLE`` (``request.axes_locked_out``), so every login path,
    the admin's form included, refuses it rather than answering it at once."""
    if request is None or getattr(request, "axes_failures_since_start", None) is None:
        return
    ip_address = getattr(request, "axes_ip_address", None)
    if not ip_address:
        return
    failures = address_failures(ip_address, request)
    wait = delay_seconds(failures)
    if not wait:
        return
    try:
        from casino.services.logins import login_throttled

        login_throttled(ip_address=ip_address, failures=failures)
    except Exception:  # the slowing stands whether or not it could be recorded
        log.exception("could not record the throttling of %s", ip_address)
    with sleeper_slot() as mine:
        if mine:
            request.login_throttle_seconds = wait
            time.sleep(wait)
            return
    if getattr(request, "axes_locked_out", False):
        return  # this failure locked the account: that is the answer
    request.login_throttled_retry_after = max(1, math.ceil(wait))
    request.axes_locked_out = True


__all__ = ["address_failures", "account_failures", "lock_scope", "delay_seconds",
           "on_login_failed", "sleeper_slot", "LoginLimitsHandler", "EVERYWHERE",
           "FROM_ADDRESS"]
