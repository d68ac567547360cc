"""Is the product able to work (issue 26 item 5).

* :func:`check` (``GET /health``, as before): the database answers and the broker takes
  messages; 200 when both do, 503 otherwise.
* :func:`live` (``GET /health/live``): the process answers; nothing else is asked (a
  load balancer or supervisor restarts a process that fails it, and a database outage
  must not make it restart every process).
* :func:`ready` (``GET /health/ready``): each component with its own status. 200 when
  the product can take commands (the database answers and takes writes: the primary),
  503 with ``Retry-After`` otherwise. The broker, the workers, the beat and what they
  keep up (the async projections, seals, digests, the outbox) are not needed by a
  command: their trouble makes the status ``degraded``, still 200. So does the synchronous
  standby's (``replication``: configured, and fewer in sync than it needs): commands then
  answer 503 ``replication_unconfirmed`` by themselves (casino.replication).

Nothing here names a property or shows a row: counts, ages and positions only. Even so
the details describe the installation: the views give them only to the addresses of
``HEALTH_DETAIL_ADDRESSES`` and the status alone to anyone else (casino.health_access).
"""

from __future__ import annotations

import importlib
import time
from datetime import datetime, timezone
from typing import Any

from django.conf import settings
from django.db import connection

from casino import replication

#: seconds a client is asked to wait when not ready
RETRY_AFTER_SECONDS = 3
#: async projection events behind the log's head past which it is "behind"
PROJECTION_LAG_EVENTS = 1000


def _database() -> dict[str, Any]:
    start = time.perf_counter()
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
            cur.fetchone()
    except Exception as exc:  # noqa: BLE001  any failure means "down"
        return {"ok": False, "vendor": connection.vendor, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor,
            "ms": round((time.perf_counter() - start) * 1000, 1)}


def _broker() -> dict[str, Any]:
    from casino.celery import app

    url = settings.CELERY_BROKER_URL
    kind = url.split("://", 1)[0]
    start = time.perf_counter()
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "transport": kind, "error": type(exc).__name__}
    return {"ok": True, "transport": kind, "ms": round((time.perf_counter() - start) * 1000, 1)}


def check() -> dict[str, Any]:
    db, broker = _database(), _broker()
    return {"status": "ok" if db["ok"] and broker["ok"] else "degraded",
            "database": db, "broker": broker}


# --- liveness and readiness ----------------------------------------------------------

def live() -> dict[str, Any]:
    """The process answers: no database, no broker."""
    return {"status": "ok"}


def _database_ready() -> dict[str, Any]:
    """Answers, and takes writes: not a standby (``pg_is_in_recovery``) and not read-only
    by default (``default_transaction_read_only``)."""
    start = time.perf_counter()
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cur:
                cur.execute("SELECT pg_is_in_recovery(), "
                            "current_setting('default_transaction_read_only') = 'on'")
                in_recovery, read_only = cur.fetchone()
        else:
            in_recovery, read_only = False, False
    except Exception as exc:  # noqa: BLE001  any failure means "down"
        return {"status": "down", "vendor": connection.vendor, "error": type(exc).__name__}
    ms = round((time.perf_counter() - start) * 1000, 1)
    writable = not in_recovery and not read_only
    return {"status": "ok" if writable else "read_only", "vendor": connection.vendor,
            "primary": not in_recovery, "read_write": writable, "ms": ms}


def _heartbeat(kind: str, now: float) -> dict[str, Any]:
    from casino import heartbeats

    try:
        seen = heartbeats.stamps(kind)
    except Exception as exc:  # noqa: BLE001  where stamps live is away (the broker)
        return {"status": "unknown", "error": type(exc).__name__}
    ages = {host: round(now - at, 1) for host, at in sorted(seen.items())}
    alive = [a for a in ages.values() if a <= heartbeats.STALE_SECONDS]
    return {"status": "ok" if alive else "down", "alive": len(alive),
            "newest_age_seconds": min(ages.values()) if ages else None}


def _projections() -> dict[str, Any]:
    from casino.eventstore import projections
    from casino.eventstore.reading import head

    head_position = head()[0]
    behind = {name: max(0, head_position - projections.checkpoint(name))
              for name, p in sorted(projections.registered().items()) if p.mode == "async"}
    worst = max(behind.values(), default=0)
    return {"status": "ok" if worst <= PROJECTION_LAG_EVENTS else "behind",
            "head": head_position, "events_behind": behind}


def _age(at: datetime | None, now: datetime) -> float | None:
    return None if at is None else round((now - at).total_seconds(), 1)


def _seals(now: datetime, head_position: int) -> dict[str, Any]:
    from casino.eventstore.models import EventSeal

    newest = EventSeal.objects.order_by("-seq").values_list("sealed_at", "last_position").first()
    sealed_to = newest[1] if newest else 0
    age = _age(newest[0] if newest else None, now)
    # late only when something waits to be sealed and no seal came for three intervals
    late = head_position > sealed_to and (age is None or age > 3 * settings.SEAL_INTERVAL_SECONDS)
    return {"status": "late" if late else "ok", "newest_age_seconds": age,
            "events_unsealed": max(0, head_position - sealed_to)}


def _digests(now: datetime) -> dict[str, Any]:
    from casino.eventstore.digest_store import digest_store

    try:
        names = digest_store().names()
    except OSError as exc:
        return {"status": "unknown", "error": type(exc).__name__}
    made = None
    if names:  # <made_at>-<position>-...json, oldest first
        made = datetime.strptime(names[-1].split("-", 1)[0], "%Y%m%dT%H%M%S%fZ").replace(
            tzinfo=timezone.utc)
    age = _age(made, now)
    late = age is not None and age > 3 * settings.DIGEST_INTERVAL_SECONDS
    return {"status": "late" if late else "ok", "newest_age_seconds": age}


def _outbox() -> dict[str, Any] | None:
    """The outbox's backlog, when the outbox exists (casino.outbox.outbox_backlog)."""
    try:
        module = importlib.import_module("casino.outbox")
    except ImportError:
        return None
    backlog = getattr(module, "outbox_backlog", None)
    if backlog is None:
        return None
    try:
        value = backlog()
    except Exception as exc:  # noqa: BLE001
        return {"status": "unknown", "error": type(exc).__name__}
    if isinstance(value, dict):
        return {"status": "ok", **value}
    return {"status": "ok", "backlog": value}


def _guarded(component: Any, *args: Any) -> dict[str, Any]:
    try:
        return component(*args)
    except Exception as exc:  # noqa: BLE001  one component's failure is its own status
        return {"status": "unknown", "error": type(exc).__name__}


def ready() -> tuple[dict[str, Any], bool]:
    """Every component's status, and whether the product can take commands."""
    database = _database_ready()
    can_write = database["status"] == "ok"
    now_ts = time.time()
    now = datetime.fromtimestamp(now_ts, tz=timezone.utc)
    broker = _broker()
    components: dict[str, Any] = {
        "database": database,
        "broker": {"status": "ok" if broker.pop("ok") else "down", **broker},
        "worker": _heartbeat("worker", now_ts),
        "beat": _heartbeat("beat", now_ts),
    }
    if database["status"] != "down":
        projections = _guarded(_projections)
        components["projections"] = projections
        components["seals"] = _guarded(_seals, now, projections.get("head", 0))
        # the synchronous standby (casino.replication): down is degraded, not 503
        components["replication"] = _guarded(replication.status)
    components["digests"] = _digests(now)
    outbox = _guarded(_outbox) if can_write else None
    if outbox is not None:
        components["outbox"] = outbox
    if not can_write:
        status = "unavailable"
    elif all(c.get("status") == "ok" for c in components.values()):
        status = "ok"
    else:
        status = "degraded"
    return {"status": status, "components": components}, can_write


__all__ = ["check", "live", "ready"]
