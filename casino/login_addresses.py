"""The address a login comes from, for the lock-outs and the per-address throttle
(issue 26 item 7): axes' ``AXES_CLIENT_IP_CALLABLE``.

``REMOTE_ADDR`` is the address that opened the connection. Behind a reverse proxy that is
the proxy, for every client, so the proxy's ``X-Forwarded-For`` has to be read — but only
when the connection really comes from a proxy named in ``TRUSTED_PROXIES``: a header any
client can send would let an attacker name a fresh address for each guess and never reach
the per-address limit. The header is read from its right end (the hop the trusted proxy
itself added) leftwards, past every further trusted proxy; the first address that is not
one is the client. Entries left of it were written by the client and are never believed.

A list of proxies rather than a count of them: a count believes the header of whoever
connects, so a client that reaches the application directly (past the proxy) names its
own address; a list checks who sent it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_trusted_proxies(entries: Iterable[str], name: str = "TRUSTED_PROXIES"
                          ) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` as networks (an address is a network of one). Start-up stops
    on an entry that is not an address or a network, or on one that trusts every address
    (then any client could name its own address)."""
    networks = []
    for entry in entries:
        try:
            network = ipaddress.ip_network(entry.strip(), strict=True)
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"{name}: {entry!r} is not an IP address or network ({exc}); give the "
                "reverse proxies' addresses, e.g. 10.0.0.5,10.0.1.0/24") from None
        if network.prefixlen == 0:
            raise ImproperlyConfigured(
                f"{name}: {entry!r} trusts every address, so any client could name its own "
                "address in X-Forwarded-For; give only the reverse proxies' addresses")
        networks.append(network)
    return tuple(networks)


@lru_cache(maxsize=8)
def _trusted(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_trusted_proxies(entries)


def _address(raw: str | None) -> Address | None:
    if not raw:
        return None
    try:
        address = ipaddress.ip_address(raw.strip())
    except ValueError:
        return None
    # An IPv4 client seen through an IPv6 socket (::ffff:10.0.0.7) is that IPv4 client.
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _is_trusted(address: Address, proxies: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def client_address(remote_addr: str | None, forwarded_for: str | None,
                   proxies: tuple[Network, ...]) -> str | None:
    """The client's address: ``remote_addr`` unless it is a trusted proxy, then the
    right-most entry of ``forwarded_for`` that is not one. An entry that is not an
    address stops the walk at the nearest trusted hop (that proxy's address is used: the
    login is still counted, against the proxy rather than an invented address)."""
    hop = _address(remote_addr)
    if hop is None:
        return None
    if not proxies or not _is_trusted(hop, proxies):
        return str(hop)
    for entry in reversed((forwarded_for or "").split(",")):
        if not entry.strip():
            continue
        earlier = _address(entry)
        if earlier is None:
            break
        hop = earlier
        if not _is_trusted(hop, proxies):
            break
    return str(hop)


def client_ip(request: Any) -> str | None:
    """axes' ``AXES_CLIENT_IP_CALLABLE``: the login's address (see the module)."""
    meta = request.META
    return client_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"),
                          _trusted(tuple(settings.TRUSTED_PROXIES)))
