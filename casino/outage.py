"""503 ``service_unavailable`` while the database (or the broker) is away (issue 26 item 3).

During an outage a request answers at once, and never with a 500 or a hang: problem+json
``service_unavailable`` with ``Retry-After`` (seconds) and a ``reason``; a console page
gets a readable page of its own (no template: the console's pages read the database for
their navigation). What counts as an outage (:func:`outage_of`):

* ``database_unreachable``: no connection (refused, timed out after ``connect_timeout``,
  too many connections, the server starting or shutting down), or the connection lost
  mid-request;
* ``database_read_only``: the server took the transaction for a read-only one (SQLSTATE
  25006: a standby, or a primary being failed over);
* ``lock_timeout`` (55P03) and ``statement_timeout`` (57014): a wait past the session's
  limits (casino.env.session_timeouts);
* ``contention``: a serialization failure or deadlock the command runner did not retry
  away (40001, 40P01);
* ``broker_unreachable``: a message could not be published (kombu's OperationalError);
* ``cache_unreachable``: the Redis cache (``CACHE_URL``) refused or did not answer within
  its socket timeouts (redis's ConnectionError, TimeoutError);
* ``replication_unconfirmed``: the synchronous standby did not confirm a commit of this
  request (casino.replication: the request's success is replaced by this 503), or a
  stored answer would be replayed while no standby is in sync.

On SQLite only "database is locked" (another writer past the busy timeout) is an outage
(``lock_timeout``); its other errors (no such table) are bugs, 500s.

Three places answer it: the API's exception handler (casino.api.problems), the
:class:`OutageMiddleware` for every other view, and :func:`server_error` (``handler500``)
for an error raised in a middleware (a session read, a login check), which Django turns
into a 500 before any middleware's ``process_exception`` sees it.

A retry of a command whose first attempt died mid-commit is safe: the idempotency key's
row is written in the command's own transaction (casino.idempotency), so the retry either
finds it (committed: the stored 2xx again) or runs the command (rolled back); a 503 is
never stored as a key's answer, since only a 2xx is.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)
CODE = "service_unavailable"
PROBLEM_CONTENT_TYPE = "application/problem+json"

#: SQLSTATEs of a healthy connection that only waited too long or lost a race: kept open
_TRANSIENT = {"55P03": "lock_timeout", "57014": "statement_timeout",
              "40001": "contention", "40P01": "contention"}
#: SQLSTATE classes of a server going away or unable to serve: 08 connection exception,
#: 53 insufficient resources (too many connections, disk full), 57 operator intervention
#: (shutting down, starting up), 58 system error
_UNREACHABLE_CLASSES = {"08", "53", "57", "58"}
#: seconds a client is asked to wait, per reason
RETRY_AFTER = {"database_unreachable": 3, "database_read_only": 3, "lock_timeout": 1,
               "statement_timeout": 2, "contention": 1, "broker_unreachable": 3,
               "cache_unreachable": 3, "replication_unconfirmed": 3}
_DETAIL = {
    "database_unreachable": "the database cannot be reached; nothing was recorded by this "
                            "request unless a retry with its Idempotency-Key says so",
    "database_read_only": "the database is not taking writes (a failover is under way); "
                          "nothing was recorded",
    "lock_timeout": "another request held what this one needed for too long; nothing was "
                    "recorded",
    "statement_timeout": "the database took too long to answer; nothing was recorded",
    "contention": "the database asked for this request to be tried again; nothing was "
                  "recorded",
    "broker_unreachable": "the message broker cannot be reached",
    "cache_unreachable": "the cache (Redis) cannot be reached",
    "replication_unconfirmed": "the standby database has not confirmed what this request "
                               "recorded; send it again with the same Idempotency-Key "
                               "once the standby is back or the failover step is done",
}


@dataclass(frozen=True)
class Outage:
    """What made the service unavailable, and how long to wait before trying again."""

    reason: str

    @property
    def retry_after(self) -> int:
        return RETRY_AFTER[self.reason]

    @property
    def detail(self) -> str:
        return _DETAIL[self.reason]

    def problem(self) -> dict:
        return {"type": f"urn:casino:problem:{CODE}", "title": "Service unavailable",
                "status": 503, "code": CODE, "detail": self.detail, "reason": self.reason}

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


def _sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a database error (psycopg's, kept as the cause of Django's)."""
    for e in (exc, exc.__cause__):
        state = getattr(e, "sqlstate", None)
        if state:
            return state
    return None


def _driver_errors() -> tuple[type[BaseException], ...]:
    """psycopg's own connection errors: the event store's append runs on a psycopg cursor
    of its own (casino.eventstore.store.hot_cursor), whose errors are not Django's."""
    try:
        import psycopg
    except ImportError:  # SQLite only
        return ()
    return (psycopg.OperationalError, psycopg.InterfaceError)


def _broker_errors() -> tuple[type[BaseException], ...]:
    try:
        from kombu.exceptions import OperationalError as KombuOperationalError
    except ImportError:  # pragma: no cover - kombu is a dependency
        return ()
    return (KombuOperationalError,)


def _cache_errors() -> tuple[type[BaseException], ...]:
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover - redis is a dependency
        return ()
    return (RedisConnectionError, RedisTimeoutError)


def _sqlite_error(exc: BaseException) -> BaseException | None:
    import sqlite3

    for e in (exc, exc.__cause__):
        if isinstance(e, sqlite3.Error):
            return e
    return None


def outage_of(exc: BaseException) -> Outage | None:
    """The outage an exception means, or None for any other error (a bug stays a 500)."""
    from casino.replication import ReplicationUnconfirmed

    if isinstance(exc, ReplicationUnconfirmed):
        return Outage("replication_unconfirmed")
    if isinstance(exc, _cache_errors()):
        return Outage("cache_unreachable")
    sqlite_error = _sqlite_error(exc)
    if sqlite_error is not None:  # no SQLSTATE: only a lock waited for past the timeout
        locked = "database is locked" in str(sqlite_error) or "table is locked" in str(
            sqlite_error)
        return Outage("lock_timeout") if locked else None
    state = _sqlstate(exc)
    if state in _TRANSIENT:
        return Outage(_TRANSIENT[state])
    if state == "25006":  # read_only_sql_transaction: Django's InternalError
        return Outage("database_read_only")
    if isinstance(exc, (OperationalError, InterfaceError, *_driver_errors())) and (
            state is None or state[:2] in _UNREACHABLE_CLASSES):
        # no SQLSTATE: the client's own failure (refused, timed out, connection lost).
        # An OperationalError of another class (54: a program limit) is a bug, a 500.
        return Outage("database_unreachable")
    if isinstance(exc, DatabaseError) and _pool_timeout(exc):
        return Outage("database_unreachable")
    if isinstance(exc, _broker_errors()):
        return Outage("broker_unreachable")
    return None


def _pool_timeout(exc: BaseException) -> bool:
    """psycopg_pool's PoolTimeout (no connection free in the pool in time), when a pool
    is configured."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:
        return False
    return isinstance(exc, PoolTimeout) or isinstance(exc.__cause__, PoolTimeout)


def after_outage(outage: Outage) -> None:
    """Drop the connections an outage leaves useless, so the next request connects
    afresh (with ``target_session_attrs=read-write``: to the new primary). A timeout or a
    lost race leaves the connection healthy; it is kept. Inside a transaction Django
    closes it at the transaction's end instead."""
    log.warning("service unavailable: %s", outage.reason)
    if outage.reason in {"lock_timeout", "statement_timeout", "contention",
                         "broker_unreachable", "cache_unreachable",
                         "replication_unconfirmed"}:
        return
    for conn in connections.all(initialized_only=True):
        try:
            conn.close()
        except DatabaseError:  # already broken: nothing more to release
            pass


def problem_response(outage: Outage) -> JsonResponse:
    """The API's answer: 503 problem+json with Retry-After."""
    response = JsonResponse(outage.problem(), status=503, content_type=PROBLEM_CONTENT_TYPE)
    for name, value in outage.headers.items():
        response[name] = value
    return response


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Service unavailable</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<main>
<h1>The back office cannot record anything right now</h1>
<p>{detail}.</p>
<p>Wait {seconds} seconds and try again. If this page stays, call the system administrator.</p>
</main>
</body>
</html>
"""


def page_response(outage: Outage) -> HttpResponse:
    """A person's page: readable, self-contained (no template, nothing of the database)."""
    detail = outage.detail[0].upper() + outage.detail[1:]
    body = _PAGE.format(detail=escape(detail), seconds=outage.retry_after)
    response = HttpResponse(body, status=503, content_type="text/html; charset=utf-8")
    for name, value in outage.headers.items():
        response[name] = value
    return response


def wants_page(request: HttpRequest) -> bool:
    """A person's page (the console and the boards' pages), not the API or a machine:
    problem+json for ``/api/`` and for anyone not asking for HTML."""
    if request.path.startswith("/api/"):
        return False
    return "text/html" in request.META.get("HTTP_ACCEPT", "")


def response_for(request: HttpRequest, outage: Outage) -> HttpResponse:
    after_outage(outage)
    return page_response(outage) if wants_page(request) else problem_response(outage)


class OutageMiddleware:
    """A view's outage error (a plain Django view: the console's pages, the admin, the
    boards) answered as 503; the API's views answer through casino.api.problems. A
    request during which the synchronous standby did not confirm a commit answers 503
    ``replication_unconfirmed`` instead of its success (an error answer stays as it is:
    it acknowledges nothing)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from casino.replication import watching

        with watching() as unconfirmed:
            response = self.get_response(request)
        if unconfirmed and response.status_code < 400:
            return response_for(request, Outage("replication_unconfirmed"))
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        outage = outage_of(exc)
        return response_for(request, outage) if outage is not None else None


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an outage raised outside a view (in a middleware: the session,
    the login) is a 503 too; anything else is the API's 500 problem as before."""
    exc = sys.exc_info()[1]
    outage = outage_of(exc) if exc is not None else None
    if outage is not None:
        return response_for(request, outage)
    from casino.api.problems import server_error_view

    return server_error_view(request)


__all__ = ["CODE", "Outage", "OutageMiddleware", "after_outage", "outage_of",
           "page_response", "problem_response", "response_for", "server_error"]
