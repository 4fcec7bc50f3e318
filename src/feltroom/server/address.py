"""Who a client is on the network: its address, and which proxies may speak for it.

A direct peer's address is the truth unless that peer is a configured trusted proxy; only then is
``X-Forwarded-For`` read, from the right (the hop nearest to us) leftwards, skipping hops that
are themselves trusted proxies. The first untrusted hop is the client. A hop that is not an IP
address ends the walk: everything left of it may be forged, so the last trusted hop is used.
With no trusted proxy configured (the default) the header is ignored.

>>> trusted = TrustedProxies(["10.0.0.0/8"])
>>> client_address("10.1.2.3", [b"203.0.113.9, 10.0.0.7"], trusted)
'203.0.113.9'
>>> client_address("198.51.100.4", [b"203.0.113.9"], trusted)
'198.51.100.4'
>>> client_address("10.1.2.3", [b"junk, 203.0.113.9"], trusted)
'203.0.113.9'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """A set of addresses or networks (``"127.0.0.1"``, ``"10.0.0.0/8"``, ``"::1"``)."""

    def __init__(self, specs: Iterable[str] = ()) -> None:
        self.networks: list[Network] = []
        for spec in specs:
            try:
                self.networks.append(ipaddress.ip_network(spec.strip(), strict=False))
            except ValueError:
                raise ValueError(f"not an IP address or network: {spec!r}") from None

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, address: str) -> bool:
        if not self.networks:
            return False
        ip = _ip(address)
        return ip is not None and any(ip in net for net in self.networks)


def client_address(peer: str, forwarded_for: Iterable[bytes], trusted: TrustedProxies) -> str:
    """The client's address: ``peer``, or what the trusted proxies in front of us say it is."""
    if peer not in trusted:
        return peer
    hops = [h.strip() for value in forwarded_for for h in value.decode("latin-1").split(",")]
    address = peer
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            break
        address = str(ip)
        if address not in trusted:
            break
    return address


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None
