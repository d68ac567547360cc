"""Password spraying from one address is slowed, not turned into a lock-out of everyone
behind it (issue 26 item 7).

axes locks an *account* after ``LOGIN_FAILURE_LIMIT`` failures (settings). An address is
never locked: one person at a terminal behind the floor's proxy would lock out the whole
floor. Instead, once the wrong passwords from one address within the cool-off pass
``LOGIN_ADDRESS_FAILURE_LIMIT``, each further wrong password from it is answered only
after a delay that grows by ``LOGIN_ADDRESS_DELAY_MS`` per failure up to
``LOGIN_ADDRESS_MAX_DELAY_MS``. A right password is never delayed: a colleague whose own
account is not locked logs in from that address at once.

Counted from axes' own ``AccessAttempt`` rows (one per account, address and user agent,
with ``failures_since_start``) in the database rather than in a cache: every web process
and host shares the database, while the default cache is each process's own memory
(``CACHE_URL`` is optional), so a cache count would let a sprayer spread its guesses over
the workers. The rows are already written on each failure, purged by axes after the
cool-off and reset by ``POST logins/unlock/`` with the address; nothing new to keep.

Only failures that checked a password count: attempts refused because the account is
already locked are not recorded (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` off),
so hammering one locked account is not "spraying" and does not slow the address.

A delay rather than a 429: a 429 in place of the 401 would not slow a sprayer at all
(the right password still has to be answered 200, so it learns just as much, as fast).
The delay does slow one that waits for its answers; one that sends in parallel is
bounded by the proxy's per-client connection limit, not by this.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db.models import Sum

log = logging.getLogger(__name__)


def address_failures(ip_address: str, request: Any = None) -> int:
    """Wrong passwords from ``ip_address`` within the cool-off, every account together."""
    from axes.attempts import get_cool_off_threshold
    from axes.models import AccessAttempt

    rows = AccessAttempt.objects.filter(ip_address=ip_address,
                                        attempt_time__gte=get_cool_off_threshold(request))
    return rows.aggregate(n=Sum("failures_since_start"))["n"] or 0


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


def on_login_failed(sender: Any, credentials: Any = None, request: Any = None,
                    **_: Any) -> None:
    """Django's ``user_login_failed``, after axes' own receiver has recorded the failure
    (axes is before casino in ``INSTALLED_APPS``, so its receiver is connected first).
    Every login path sends it: the API's token, the console's form, the admin's.

    ``request.axes_failures_since_start`` is set only when axes recorded a checked
    password; an attempt axes refused unchecked (a locked account) is not delayed."""
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
    except Exception:  # the delay stands whether or not it could be recorded
        log.exception("could not record the throttling of %s", ip_address)
    request.login_throttle_seconds = wait
    time.sleep(wait)


__all__ = ["address_failures", "delay_seconds", "on_login_failed"]
