"""Is the product able to work: the database answers and the broker takes messages."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection


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
