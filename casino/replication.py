"""Recovery point zero with a synchronous standby (issue 26 item 3; review finding F2).

With ``synchronous_standby_names`` set, PostgreSQL's COMMIT waits for the standby. When
the standby is gone that wait never ends by itself: ``statement_timeout`` does not cover
it (PostgreSQL 15 turns the statement's timer off before it commits; measured: a COMMIT
waited 634 s with ``statement_timeout=2000``). A cancel ends it, but only *after* the
transaction committed locally: the client gets a successful COMMIT and a WARNING notice,
"canceling wait for synchronous replication due to user request", detail "The transaction
has already committed locally, but might not have been replicated to the standby.". An
answer of 2xx then would acknowledge a command the primary's death could lose. So:

* :func:`install` (``connection_created``): every PostgreSQL connection gets a notice
  handler watching for that warning, and its commits (Django's ``commit()``, a psycopg
  pipeline's sync or end: the command runner's pipelined COMMIT) a client-side limit of
  ``DB_STATEMENT_TIMEOUT_MS``: a commit still waiting then is cancelled, so a request is
  never left hanging on an absent standby;
* :func:`watching` (casino.outage.OutageMiddleware, around every request): a request
  during which the warning arrived answers 503 ``replication_unconfirmed`` instead of its
  success (the idempotency key's row, committed with the answer, stays);
* :func:`confirm_replicating` (casino.idempotency, only before replaying a stored
  answer): 503 ``replication_unconfirmed`` while the primary is configured to replicate
  synchronously and fewer standbys than it needs are in sync;
* :func:`status`: the ``replication`` component of ``/health/ready``.

The warning is matched on PostgreSQL's English text: the server's ``lc_messages`` must be
English (``C``, ``en_*``), as initdb's default locales give.
"""

from __future__ import annotations

import contextvars
import logging
import re
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: the warning's text (PostgreSQL's src/backend/replication/syncrep.c): the cancelled
#: wait ("... due to user request") and the terminated session's ("canceling the wait
#: ... and terminating connection ...")
_WAIT_CANCELLED = ("wait for synchronous replication",
                   "has already committed locally, but might not have been replicated")
#: psycopg's generators that end a transaction: a commit, a pipeline's sync or end
_COMMIT_GENERATORS = frozenset({"_commit_gen", "_sync_gen", "_exit_gen"})

#: the current request's record of unconfirmed commits (None outside a request)
_request: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "casino_replication_unconfirmed", default=None)
_installed: weakref.WeakSet[Any] = weakref.WeakSet()


class ReplicationUnconfirmed(Exception):
    """The standby may not hold what a stored answer acknowledges: 503
    ``replication_unconfirmed`` (casino.outage)."""


def is_unconfirmed_warning(diag: Any) -> bool:
    """Whether a notice is PostgreSQL's cancelled wait for the synchronous standby."""
    text = f"{diag.message_primary or ''} {diag.message_detail or ''}"
    return any(phrase in text for phrase in _WAIT_CANCELLED)


def _notice_received(diag: Any) -> None:
    if not is_unconfirmed_warning(diag):
        return
    seen = _request.get()
    if seen is not None:
        seen.append(diag.message_primary or "")
    log.warning("a commit was not confirmed by the synchronous standby: %s",
                diag.message_primary)


@contextmanager
def watching() -> Iterator[list[str]]:
    """Record the unconfirmed commits of the ``with`` block (a request); the list is
    non-empty when one was seen."""
    seen: list[str] = []
    token = _request.set(seen)
    try:
        yield seen
    finally:
        _request.reset(token)


def _commit_limit() -> float:
    """Seconds a commit may wait for the standby before it is cancelled: the session's
    ``statement_timeout`` (0: no limit)."""
    from casino.env import session_timeouts

    return session_timeouts()["statement_timeout"] / 1000


def _limited_wait(conn: Any, limit: float) -> Any:
    """``conn.wait`` with a commit's wait cut at ``limit`` seconds: the cancel makes the
    server answer (the warning, and the COMMIT's success), and the rest of the answer is
    read as usual. Other statements are the server's ``statement_timeout``'s to end."""
    from psycopg import errors

    original = conn.wait

    def wait(gen: Any, *args: Any, **kwargs: Any) -> Any:
        name = getattr(getattr(gen, "gi_code", None), "co_name", "")
        if name not in _COMMIT_GENERATORS or kwargs.get("timeout") is not None:
            return original(gen, *args, **kwargs)
        try:
            return original(gen, *args, timeout=limit, **kwargs)
        except errors._WaitTimeout:  # psycopg's own: the generator may be resumed
            log.warning("a commit waited %.1f s (the synchronous standby?): cancelled",
                        limit)
            conn.cancel_safe(timeout=2.0)
            return original(gen, *args, **kwargs)

    return wait


def install(sender: Any = None, connection: Any = None, **_: Any) -> None:
    """``connection_created`` receiver: the notice handler and the commits' limit on a new
    PostgreSQL connection (once per psycopg connection: a pool hands the same one out
    again)."""
    if connection is None or connection.vendor != "postgresql":
        return
    conn = connection.connection
    if conn is None or conn in _installed:
        return
    _installed.add(conn)
    conn.add_notice_handler(_notice_received)
    limit = _commit_limit()
    if limit > 0:
        conn.wait = _limited_wait(conn, limit)


# --- is the primary replicating synchronously -------------------------------------------

_STATUS_SQL = (
    "SELECT current_setting('synchronous_standby_names'), "
    "count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')), count(*), "
    "count(*) FILTER (WHERE sync_state IS NULL) FROM pg_stat_replication")
_NUM_SYNC = re.compile(r"^\s*(?:(?:FIRST|ANY)\s+)?(\d+)\s*\(", re.IGNORECASE)


@dataclass(frozen=True)
class SyncStatus:
    """``synchronous_standby_names`` and the standbys seen: ``required`` must be in sync
    for a commit to be confirmed; ``hidden``: rows whose state this role may not read
    (it needs ``pg_monitor`` or ``pg_read_all_stats``)."""

    names: str
    required: int
    in_sync: int
    attached: int
    hidden: int

    @property
    def configured(self) -> bool:
        return bool(self.names.strip())

    @property
    def confirmed(self) -> bool:
        return not self.configured or self.in_sync >= self.required


def required_of(names: str) -> int:
    """How many standbys ``synchronous_standby_names`` waits for: ``FIRST n (...)``,
    ``ANY n (...)`` and ``n (...)`` say n; a plain list waits for one."""
    if not names.strip():
        return 0
    found = _NUM_SYNC.match(names)
    return int(found.group(1)) if found else 1


def sync_status() -> SyncStatus | None:
    """The primary's synchronous replication (one query), or None on SQLite."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cur:
        cur.execute(_STATUS_SQL)
        names, in_sync, attached, hidden = cur.fetchone()
    return SyncStatus(names, required_of(names), in_sync, attached, hidden)


def confirm_replicating() -> None:
    """Raise :class:`ReplicationUnconfirmed` while the primary is configured to replicate
    synchronously and fewer standbys than it waits for are in sync."""
    found = sync_status()
    if found is not None and not found.confirmed:
        raise ReplicationUnconfirmed(
            f"{found.in_sync} of {found.required} synchronous standbys in sync")


def status() -> dict[str, Any]:
    """The ``replication`` component of ``/health/ready``: ``down`` when standbys are
    configured and fewer than needed are in sync (a degraded product, not an unready
    one: commands then answer 503 ``replication_unconfirmed`` by themselves)."""
    found = sync_status()
    if found is None:
        return {"status": "ok", "synchronous_standby_names": None}
    out: dict[str, Any] = {
        "status": "ok" if found.confirmed else "down",
        "synchronous_standby_names": found.names, "required": found.required,
        "in_sync": found.in_sync, "attached": found.attached}
    if found.hidden:
        out["error"] = "the database role needs pg_monitor to read pg_stat_replication"
    return out


__all__ = ["ReplicationUnconfirmed", "SyncStatus", "confirm_replicating", "install",
           "is_unconfirmed_warning", "required_of", "status", "sync_status", "watching"]
