"""Rate limits counted in the cache every process shares (issue 35, item 4): the live
feed's requests a minute and the kiosk's requests an hour, per client address.

A count kept in one process's memory let each gunicorn worker allow the whole limit (a
probe met no 429 in 1,300 feed requests a minute against a limit of 600). The counts are
in Django's cache: Redis (``CACHE_URL``) in production, shared by every process of every
host; on the embedded default a file-based cache under ``CASINO_VAR_DIR``, shared by the
processes of the host (``bin/run``'s gunicorn workers).

Redis counts atomically (``INCR``). Django's file-based cache adds one by reading and
rewriting the file, so two processes counting at once would lose a count; there the
count is taken under an exclusive ``flock`` on a file beside the cache's, so none is lost
(:func:`counted`).

The address counted is the client's behind a trusted reverse proxy
(:func:`casino.login_addresses.client_ip`, ``TRUSTED_PROXIES``), as the login limits
count it: without it every player behind the proxy shared one bucket.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache

from casino.login_addresses import client_ip

LOCK_FILE = ".counts.lock"


def client_address(request: Any) -> str:
    """The address a limit counts by: the client's, behind a trusted proxy (the one the
    login limits count by)."""
    return client_ip(request) or "unknown"


@contextmanager
def _exclusive(store: Any) -> Iterator[None]:
    """An exclusive lock across the host's processes while a count is read and
    rewritten, for a cache that cannot add one atomically (the file-based one)."""
    if not isinstance(store, FileBasedCache):
        yield  # Redis INCR, and locmem (one process, its own lock), are atomic
        return
    os.makedirs(store._dir, exist_ok=True)
    fd = os.open(os.path.join(store._dir, LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def counted(key: str, window_seconds: int, *, cache_alias: str = "default") -> int:
    """Count one more request in the fixed window of ``window_seconds`` that ``key`` is in
    now; the count so far, this one included, across every process sharing the cache."""
    store = caches[cache_alias]
    window = int(time.time() // window_seconds)
    key = f"{key}:{window}"
    with _exclusive(store):
        try:
            return store.incr(key)
        except ValueError:  # the window's first request (or its count expired)
            if store.add(key, 1, timeout=window_seconds + 1):
                return 1
            return store.incr(key)  # another process added it meanwhile


def seconds_left(window_seconds: int) -> int:
    """Seconds until the current fixed window of ``window_seconds`` ends (at least 1)."""
    return max(1, window_seconds - int(time.time() % window_seconds))


__all__ = ["client_address", "counted", "seconds_left"]
