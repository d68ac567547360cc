"""The worker survives Redis going away (issue 26 item 2, "Redis killed and restarted"):
kombu 5.7's Redis channel, closed after its connection let go of its client, raised
AttributeError ('NoneType' object has no attribute 'hostname') and the worker exited as
on an unrecoverable error. Mended, it raises the connection error kombu ignores there.
(The whole of it, a worker living through a Redis SIGKILL and running the work due, is
the fault harness's ``redis_restart``: tests/faultlab/test_faults_ci.py.)"""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from kombu import Connection

import casino.celery  # noqa: F401  the app's import mends the channel

pytestmark = pytest.mark.celery


@pytest.fixture
def channel():
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs the Redis broker")
    conn = Connection(settings.CELERY_BROKER_URL)
    try:
        yield conn.default_channel
    finally:
        conn.release()


def test_a_closed_channel_asking_for_the_broker_raises_a_connection_error(channel):
    transport = channel.connection
    client, transport.client = transport.client, None  # what the consumer's close leaves
    try:
        with pytest.raises(redis.exceptions.ConnectionError):
            channel._connparams()
        # ... which is one of the errors kombu's close ignores (Connection.maybe_close_channel)
        assert redis.exceptions.ConnectionError in transport.connection_errors
    finally:
        transport.client = client


def test_an_open_channel_still_gets_its_address(channel):
    params = channel._connparams()
    url = redis.connection.parse_url(settings.CELERY_BROKER_URL)
    assert (params["host"], params["port"]) == (url["host"], url.get("port", 6379))
