"""Two defects of the pinned kombu (5.7.0), mended where they happen.

**The filesystem transport's half-written message** (the embedded default's broker, found
by the walk-through test in CI, issue 27). A producer creates the message file and only
then writes it; a worker polling the folder in between moves the still empty file away,
reads nothing and fails on the JSON (``JSONDecodeError: Expecting value``): its consumer
dies and the message is lost. Written under a name the worker does not pick up and renamed
into place when whole (a rename within one folder is atomic), a message is seen entire or
not at all.

**The Redis channel closed under a worker** (issue 26: a Redis that is killed must not
take the workers with it).

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


def mend_filesystem_put() -> None:
    """Make the filesystem transport write each message whole before a worker can see it:
    into ``<name>.part`` (not a ``<queue>.msg`` name the worker reads), then renamed to
    ``<name>``. Idempotent."""
    import os
    import uuid

    from kombu.exceptions import ChannelError
    from kombu.transport import filesystem
    from kombu.utils.encoding import str_to_bytes
    from kombu.utils.json import dumps

    original = filesystem.Channel._put
    if getattr(original, "_mended", False):
        return

    def _put(self: Any, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{int(round(filesystem.monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    _put._mended = True  # type: ignore[attr-defined]
    filesystem.Channel._put = _put
