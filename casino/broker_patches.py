"""One defect of the pinned kombu (5.7.0) that the fault harness found, mended where it
happens (issue 26: a Redis that is killed must not take the workers with it).

When Redis goes away under a worker, the worker's consumer closes its connection to
reconnect later. Closing the Redis channel restores the unacknowledged messages, for
which the channel asks its connection for the broker's address (``_connparams``): by then
the connection has let go of its client, and the lookup fails with
``AttributeError: 'NoneType' object has no attribute 'hostname'``. The worker takes that
for an unrecoverable error and exits: every worker of the floor, at the first Redis
restart (seen in ``bench_faults``' ``redis_restart``; the same failure is reported
upstream as celery/kombu#582). Raised as the connection error it is, the close is
ignored as kombu ignores connection errors there, the consumer reconnects when Redis is
back, and the unacknowledged messages stay in Redis for the next restore.
"""

from __future__ import annotations

from typing import Any


def mend_redis_channel_close() -> None:
    """Make a Redis channel whose connection is already closed raise a connection error
    when it needs the broker's address, not an AttributeError. Idempotent."""
    import redis
    from kombu.transport import redis as kombu_redis

    original = kombu_redis.Channel._connparams
    if getattr(original, "_mended", False):
        return

    def _connparams(self: Any, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection.client is None:
            raise redis.exceptions.ConnectionError(
                "the broker connection was closed (Redis went away)")
        return original(self, asynchronous)

    _connparams._mended = True  # type: ignore[attr-defined]
    kombu_redis.Channel._connparams = _connparams
