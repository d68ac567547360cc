"""The health reports' details only to allowed addresses (issue 35 item 4,
casino.health_access): ``/health`` and ``/health/ready`` give anyone else the status
alone, with the same HTTP status; ``/health/live`` stays public. Behind
``TRUSTED_PROXIES`` the client is the forwarded address, believed only from a proxy."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from rest_framework.test import APIClient

from casino.health_access import parse_detail_addresses

pytestmark = pytest.mark.django_db

OUTSIDER = "203.0.113.9"
#: words of the details an outsider must never read
DETAILS = ("vendor", "transport", "components", "database", "broker", "worker", "head",
           "replication", "unsealed", "alive")


def _get(path: str, remote: str, **headers: str) -> Any:
    return APIClient().get(path, REMOTE_ADDR=remote, **headers)


@pytest.mark.parametrize("path", ["/health", "/health/ready"])
def test_an_outsider_gets_the_status_alone_with_the_same_code(path: str) -> None:
    inside, outside = _get(path, "127.0.0.1"), _get(path, OUTSIDER)
    assert outside.status_code == inside.status_code == 200
    assert outside.json() == {"status": inside.json()["status"]}
    assert not [w for w in DETAILS if w in outside.content.decode()]


def test_the_loopback_reads_every_component() -> None:
    """The operators' monitoring and the fault tests read from this machine."""
    ready = _get("/health/ready", "127.0.0.1").json()
    assert {"database", "broker", "worker", "beat", "digests"} <= set(ready["components"])
    assert ready["components"]["database"]["vendor"] == connection.vendor
    assert _get("/health", "::1").json()["database"]["ok"] is True


def test_liveness_stays_public() -> None:
    answer = _get("/health/live", OUTSIDER)
    assert (answer.status_code, answer.json()) == (200, {"status": "ok"})


@pytest.mark.postgres
def test_not_ready_is_503_for_the_outsider_too() -> None:
    """A database that takes no writes (``default_transaction_read_only`` on, as on a
    standby): 503 with Retry-After, ``unavailable``, to both; the details to the loopback
    alone. The setting is the test's transaction's and goes with it."""
    with connection.cursor() as cur:
        cur.execute("SET default_transaction_read_only = on")
    inside, outside = _get("/health/ready", "127.0.0.1"), _get("/health/ready", OUTSIDER)
    assert (outside.status_code, inside.status_code) == (503, 503)
    assert outside["Retry-After"] == inside["Retry-After"] == "3"
    assert outside.json() == {"status": "unavailable"}
    assert inside.json()["components"]["database"]["status"] == "read_only"


@pytest.mark.parametrize(("remote", "forwarded", "details"), [
    ("10.0.0.5", "192.0.2.7", True),          # the monitoring, through the proxy
    ("10.0.0.5", "198.51.100.1", False),      # anyone else, through the proxy
    ("10.0.0.5", "192.0.2.7, 198.51.100.1", False),  # the client's own entry is left
    ("198.51.100.1", "192.0.2.7", False),     # the header from a non-proxy: not believed
    ("10.0.0.5", "", False),                  # the proxy itself is not the monitoring
])
def test_behind_the_proxy_the_forwarded_client_is_asked(settings, remote: str,  # noqa: ANN001
                                                        forwarded: str, details: bool) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    settings.HEALTH_DETAIL_ADDRESSES = ["192.0.2.0/24"]
    body = _get("/health/ready", remote, HTTP_X_FORWARDED_FOR=forwarded).json()
    assert ("components" in body) is details


def test_no_loopback_when_the_setting_leaves_it_out(settings) -> None:  # noqa: ANN001
    settings.HEALTH_DETAIL_ADDRESSES = ["10.9.0.0/16"]
    assert _get("/health/ready", "127.0.0.1").json().keys() == {"status"}
    assert "components" in _get("/health/ready", "10.9.3.4").json()


@pytest.mark.parametrize("entry", ["monitoring", "10.0.0.1/33", "10.0.0.1/24"])
def test_a_bad_entry_stops_start_up_with_the_settings_name(entry: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="HEALTH_DETAIL_ADDRESSES"):
        parse_detail_addresses([entry])
