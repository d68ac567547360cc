"""Heartbeats of the Celery worker and beat, for readiness (``/health/ready``; issue 26
item 5).

``celery inspect ping`` asks every worker over the broker and waits a second for the
answers; a load balancer asks every few seconds. Instead each worker and the beat stamp
the time now and then (every :data:`EVERY_SECONDS`, from a thread their process starts
when ready), and readiness reads the stamps. The stamps live beside the messages: in the
broker's Redis (keys ``casino:heartbeat:<kind>:<host>`` that expire on their own), or, on
the embedded default's file broker (one machine), in files under ``VAR_DIR/heartbeats``.
A worker SIGKILLed stops stamping; a worker stopped cleanly removes its stamp.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)
EVERY_SECONDS = 10
#: a stamp older than this says the process is gone (three stamps missed)
STALE_SECONDS = 3 * EVERY_SECONDS
PREFIX = "casino:heartbeat"
_started: set[str] = set()


def _redis() -> Any | None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    import redis

    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)


def _dir() -> Path:
    return Path(settings.VAR_DIR) / "heartbeats"


def stamp(kind: str, host: str, now: float | None = None) -> None:
    """Record that ``kind`` (``worker`` or ``beat``) on ``host`` is alive now."""
    now = time.time() if now is None else now
    client = _redis()
    if client is not None:
        client.set(f"{PREFIX}:{kind}:{host}", repr(now), ex=10 * STALE_SECONDS)
        return
    folder = _dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}@{host}"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(repr(now))
    tmp.replace(path)


def forget(kind: str, host: str) -> None:
    """A process stopping cleanly takes its stamp with it."""
    client = _redis()
    if client is not None:
        client.delete(f"{PREFIX}:{kind}:{host}")
    else:
        (_dir() / f"{kind}@{host}").unlink(missing_ok=True)


def stamps(kind: str) -> dict[str, float]:
    """Every host's newest stamp of ``kind`` (epoch seconds)."""
    client = _redis()
    if client is not None:
        keys = sorted(client.scan_iter(match=f"{PREFIX}:{kind}:*", count=100))
        values = client.mget(keys) if keys else []
        return {k.decode().rsplit(":", 1)[1]: float(v) for k, v in zip(keys, values) if v}
    folder = _dir()
    if not folder.is_dir():
        return {}
    out = {}
    for path in folder.glob(f"{kind}@*"):
        try:
            out[path.name.split("@", 1)[1]] = float(path.read_text())
        except (OSError, ValueError):
            continue
    return out


def _beat(kind: str, host: str) -> None:
    while True:
        try:
            stamp(kind, host)
        except Exception as exc:  # noqa: BLE001 - the broker away: try again next time
            log.debug("heartbeat not stamped: %s", exc)
        time.sleep(EVERY_SECONDS)


def start(kind: str, host: str | None = None) -> None:
    """Stamp ``kind`` from a daemon thread of this process, once per process."""
    host = host or socket.gethostname()
    if kind in _started:
        return
    _started.add(kind)
    threading.Thread(target=_beat, args=(kind, host), name=f"heartbeat-{kind}",
                     daemon=True).start()


def connect_signals() -> None:
    """Wire the worker's and the beat's stamps (the Celery app calls this)."""
    from celery import signals

    @signals.worker_ready.connect(weak=False)
    def _worker_ready(sender: Any = None, **_: Any) -> None:
        start("worker", getattr(sender, "hostname", None))

    @signals.worker_shutdown.connect(weak=False)
    def _worker_shutdown(sender: Any = None, **_: Any) -> None:
        try:
            forget("worker", getattr(sender, "hostname", None) or socket.gethostname())
        except Exception:  # noqa: BLE001 - the broker away: the stamp expires by itself
            pass

    @signals.beat_init.connect(weak=False)
    def _beat_init(sender: Any = None, **_: Any) -> None:
        start("beat")


__all__ = ["EVERY_SECONDS", "STALE_SECONDS", "connect_signals", "forget", "stamp", "stamps",
           "start"]
