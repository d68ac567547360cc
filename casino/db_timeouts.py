"""Lifting the session's statement and lock timeouts for work that legitimately runs long
(issue 26 item 5).

Every PostgreSQL session starts with ``statement_timeout`` and ``lock_timeout`` set
(``DB_STATEMENT_TIMEOUT_MS``, ``DB_LOCK_TIMEOUT_MS``; casino.env.session_timeouts), so that
a request never waits past them: it answers 503 instead (casino.outage). A migration or a
projection rebuild is not a request: one statement of it may rightly take minutes, and it
may wait for the requests in flight to let go of a table. Those lift both for their
session, and put them back when done.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

_LIFTED = ("statement_timeout", "lock_timeout")


def lift(using: str = DEFAULT_DB_ALIAS) -> None:
    """Lift the timeouts for the rest of the session (PostgreSQL; nothing on SQLite)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cur:
        for name in _LIFTED:
            cur.execute(f"SET {name} = 0")


def restore(using: str = DEFAULT_DB_ALIAS) -> None:
    """Back to what the session started with (RESET: the connection's own options)."""
    connection = connections[using]
    if connection.vendor != "postgresql" or connection.connection is None:
        return
    with connection.cursor() as cur:
        for name in _LIFTED:
            cur.execute(f"RESET {name}")


@contextmanager
def lifted(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """The timeouts lifted for the ``with`` block (outside a transaction: a SET inside
    one that rolls back is undone with it)."""
    lift(using)
    try:
        yield
    finally:
        try:
            restore(using)
        except DatabaseError:  # the connection broke: the next session starts limited
            pass


def lift_for_migrate(sender: Any = None, using: str = DEFAULT_DB_ALIAS, **_: Any) -> None:
    """``pre_migrate`` receiver: ``migrate`` runs without the timeouts (a data migration
    or an index build may take longer than any request should, and waits for the
    requests still running to let go of a table)."""
    lift(using)


__all__ = ["lift", "lift_for_migrate", "lifted", "restore"]
