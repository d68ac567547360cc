"""How wrong passwords are limited without the limits being turned against the floor
(issue 26 item 7) or against a named person (issue 35 item 4): the lock of one account
at one address (axes' handler), and the slowing of an account and of an address.

**Three counts**, all from axes' own ``AccessAttempt`` rows (one per account, address and
user agent, with ``failures_since_start``) within the cool-off:

* the *pair* (account, address): at ``LOGIN_FAILURE_LIMIT`` (5) that account is locked
  from that address only — axes' own rule (``AXES_LOCKOUT_PARAMETERS``);
* the *account* across addresses (:func:`account_failures`): never locked — twenty
  wrong passwords from twenty addresses behind a trusted proxy locked an officer out from
  everywhere for 30 minutes, a denial of service anyone with several addresses could
  aim at a named person. Past ``LOGIN_ACCOUNT_FAILURE_LIMIT`` every answer for that
  account waits (:func:`account_delay_seconds`), the right password's included: guessing
  is slowed, the owner still logs in. Failures from an address that is past its own
  spraying limit do not count (that address is slowed already; otherwise one sprayer
  would slow every account for everyone);
* the *address* across accounts (:func:`address_failures`): an address is never locked
  (one person behind the floor's proxy would lock out the whole floor); past
  ``LOGIN_ADDRESS_FAILURE_LIMIT`` each further wrong password from it is slowed.

Counted in the database rather than a cache: every web process and host shares it.
Attempts refused because a lock is on check no password and are not recorded
(``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` off).

**The slowing** is a sleep on the request's worker. A wrong password's is rationed: one
sleeper at a time per host (:func:`sleeper_slot`: a ``threading.BoundedSemaphore`` for the
threads of a process, a non-blocking ``flock`` on a file in ``CASINO_VAR_DIR`` for the
processes of the host — ``bin/run``'s gunicorn has two *sync* workers of one thread each,
where a per-process slot alone is always free and two parallel wrong passwords kept both
asleep). A slowed wrong password that finds the slot taken is answered at once 429
``login_throttled`` with ``Retry-After`` the delay it would have had. A right password is
never refused by this: it waits its account's delay (if any) whether or not the slot is
free — only someone who knows the password can make a worker wait that way
(:func:`on_logged_in`). Its address's spraying never slows it.
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
from django.conf import settings
from django.db.models import Sum

log = logging.getLogger(__name__)

#: The only lock there is (``request.login_lock_scope``): an account from one address.
FROM_ADDRESS = "address"


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
    """``FROM_ADDRESS`` when the account is locked from ``ip_address``, else ``None``
    (an account is never locked from every address: it is slowed)."""
    if not username:
        return None
    if pair_failures(username, ip_address, request) >= settings.AXES_FAILURE_LIMIT:
        return FROM_ADDRESS
    return None


class LoginLimitsHandler(AxesDatabaseHandler):
    """axes' database handler (``AXES_HANDLER``), which locks the pair
    (``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``) at ``AXES_FAILURE_LIMIT``,
    naming the lock's scope on the request for the answer and the record."""

    def is_locked(self, request: Any, credentials: dict | None = None) -> bool:
        if super().is_locked(request, credentials):
            request.login_lock_scope = FROM_ADDRESS
            return True
        return False

    def user_login_failed(self, sender: Any, credentials: dict, request: Any = None,
                          **kwargs: Any) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and getattr(request, "axes_locked_out", False):
            request.login_lock_scope = FROM_ADDRESS


def account_delay_seconds(failures: int) -> float:
    """How long an answer for an account waits when ``failures`` wrong passwords for it
    (not from spraying addresses) are within the cool-off: nothing up to
    ``LOGIN_ACCOUNT_FAILURE_LIMIT``, then ``LOGIN_ACCOUNT_DELAY_MS`` more per failure past
    it, at most ``LOGIN_ACCOUNT_MAX_DELAY_MS``. With the defaults (10, 250, 5000): after
    the 11th failure 0.25 s, after the 20th 2.5 s, after the 30th and later 5 s."""
    past = failures - settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    if past <= 0:
        return 0.0
    return min(settings.LOGIN_ACCOUNT_DELAY_MS * past,
               settings.LOGIN_ACCOUNT_MAX_DELAY_MS) / 1000


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


def _address_wait(request: Any) -> float:
    """The delay a wrong password from this request's address has earned (spraying),
    recorded once per cool-off when it starts (a failure to record is logged; the
    slowing stands either way)."""
    from casino.services.logins import login_throttled

    ip_address = getattr(request, "axes_ip_address", None)
    if not ip_address:
        return 0.0
    failures = address_failures(ip_address, request)
    return _recorded(delay_seconds(failures), lambda: login_throttled(
        ip_address=ip_address, failures=failures), f"the throttling of {ip_address}")


def _account_wait(username: str | None, request: Any) -> float:
    """The delay every answer for ``username`` has earned (failures across addresses),
    recorded once per cool-off when it starts, as :func:`_address_wait`."""
    from casino.services.logins import login_slowed

    if not username:
        return 0.0
    failures = account_failures(username, request)
    return _recorded(account_delay_seconds(failures), lambda: login_slowed(
        username=username, failures=failures), f"the slowing of {username}")


def _recorded(wait: float, record: Any, what: str) -> float:
    """``wait``, having recorded a wait that started (``record()``, once per cool-off); a
    failure to record is logged and the wait stands either way."""
    if wait:
        try:
            record()
        except Exception:
            log.exception("could not record %s", what)
    return wait


def on_login_failed(sender: Any, credentials: Any = None, request: Any = None,
                    **_: Any) -> None:
    """Django's ``user_login_failed``, after axes' own receiver has recorded the failure
    (axes is before casino in ``INSTALLED_APPS``, so its receiver is connected first).
    Every login path sends it: the API's token (a wrong second-factor code too), the
    console's form, the admin's.

    ``request.axes_failures_since_start`` is set only when axes recorded a checked
    password; an attempt axes refused unchecked (a locked account) is not slowed. The
    wait is the longer of the address's and the account's. A slowed one that finds the
    sleeper slot taken is marked for 429 ``login_throttled``
    (``request.login_throttled_retry_after``); it is answered through axes' middleware
    and ``AXES_LOCKOUT_CALLABLE`` (``request.axes_locked_out``), so every login path,
    the admin's form included, refuses it rather than answering it at once."""
    if request is None or getattr(request, "axes_failures_since_start", None) is None:
        return
    account_wait = _account_wait(get_client_username(request, credentials), request)
    wait = max(_address_wait(request), account_wait)
    if not wait:
        return
    with sleeper_slot() as mine:
        if mine:
            request.login_throttle_seconds = wait
            request.login_account_delay_seconds = account_wait
            time.sleep(wait)
            return
    if getattr(request, "axes_locked_out", False):
        return  # this failure locked the account: that is the answer
    request.login_throttled_retry_after = max(1, math.ceil(wait))
    request.axes_locked_out = True


def on_logged_in(request: Any, user: Any) -> float:
    """A right password (Django's ``user_logged_in``: the console's form, the admin's,
    the API's token once its second factor is given) waits its account's delay, without
    the sleeper slot — it is never refused — and never its address's. Returns the wait
    (also ``request.login_throttle_seconds`` and ``request.login_account_delay_seconds``,
    which the tests read)."""
    if request is None:
        return 0.0
    wait = _account_wait(user.get_username(), request)
    if wait:
        request.login_throttle_seconds = request.login_account_delay_seconds = wait
        time.sleep(wait)
    return wait


__all__ = ["address_failures", "account_failures", "lock_scope", "delay_seconds",
           "account_delay_seconds", "on_login_failed", "on_logged_in", "sleeper_slot",
           "LoginLimitsHandler", "FROM_ADDRESS"]
