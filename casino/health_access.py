"""Who may read the health reports' details (issue 35 item 4).

``/health`` and ``/health/ready`` tell the status to anyone (a load balancer needs no
login), but their details — the database vendor, the broker's transport, the workers'
liveness, the log's head and what is unsealed, the replication state — describe the
installation to an attacker. They go only to a client whose address is in
``HEALTH_DETAIL_ADDRESSES`` (addresses or networks; by default the loopback, where the
operators' monitoring and the fault tests run). Behind a reverse proxy the client is
found as for the login limits (:func:`casino.login_addresses.client_ip`: the forwarded
address believed only from ``TRUSTED_PROXIES``), so a header nobody checked never opens
the details. ``/health/live`` says only that the process answers, to everyone.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from casino.login_addresses import client_ip

#: the default: this machine only
LOOPBACK = ["127.0.0.0/8", "::1/128"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_detail_addresses(entries: Iterable[str]) -> tuple[Network, ...]:
    """``HEALTH_DETAIL_ADDRESSES`` as networks (an address is a network of one); start-up
    stops on an entry that is not an address or a network."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=True))
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"HEALTH_DETAIL_ADDRESSES: {entry!r} is not an IP address or network "
                f"({exc}); give the monitoring's addresses, e.g. 127.0.0.1,10.0.2.0/24"
            ) from None
    return tuple(networks)


@lru_cache(maxsize=8)
def _allowed(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_detail_addresses(entries)


def sees_details(request: Any) -> bool:
    """Whether this request's client may read the health details."""
    raw = client_ip(request)
    if raw is None:
        return False
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return False
    return any(address.version == net.version and address in net
               for net in _allowed(tuple(settings.HEALTH_DETAIL_ADDRESSES)))


def for_caller(request: Any, report: dict[str, Any]) -> dict[str, Any]:
    """The report as this caller may read it: whole for an allowed address, the status
    alone for anyone else (the HTTP status code is the same either way)."""
    return report if sees_details(request) else {"status": report["status"]}
