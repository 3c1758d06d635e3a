"""Who the client is, behind the reverse proxies the operator names (``TRUSTED_PROXIES``).

A request's ``REMOTE_ADDR`` is whoever opened the connection. Behind a reverse proxy that
is the proxy, for every client alike, and the client's own address is in the
``X-Forwarded-For`` header the proxy sets; but anyone can send that header. So a hop is
believed only when the address that handed it on is one the operator named: start at
``REMOTE_ADDR``, and while the address in hand is a trusted proxy, step one hop back
along ``X-Forwarded-For`` (right to left). The first address that is not a trusted proxy is
the client's. A proxy that replaces the header (nginx's ``$remote_addr``) and one that
appends to it (``$proxy_add_x_forwarded_for``) both give the client's address; a
client's made-up entries are to the left of what a trusted proxy added, and never read.

There is no yes/no flag: with no proxy named, ``X-Forwarded-For`` is never read, and
``ProxyHeadersMiddleware`` drops the forwarded headers from every request that does not
come from a named proxy (so ``X-Forwarded-Proto`` cannot make a plain request "secure").
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: the forwarded headers a request may carry only when a trusted proxy sent it
FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")


@lru_cache(maxsize=8)
def _networks(named: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(n.strip(), strict=False) for n in named if n.strip())


def networks() -> tuple[Network, ...]:
    """The trusted proxies, as networks (an address is a network of one)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def _ip(text: str):
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # 192.0.2.1:5555
        text = text.split(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        return ip.ipv4_mapped
    return ip


def is_trusted(address: str) -> bool:
    """Whether ``address`` is one of the reverse proxies the operator named."""
    ip = _ip(address)
    return ip is not None and any(ip.version == n.version and ip in n for n in networks())


def from_trusted_proxy(request: HttpRequest) -> bool:
    return is_trusted(request.META.get("REMOTE_ADDR", ""))


def client_ip(request: HttpRequest) -> str:
    """The client's address as the named proxies tell it, else ``REMOTE_ADDR`` ("" when
    there is none)."""
    address = request.META.get("REMOTE_ADDR", "") or ""
    if not is_trusted(address):
        return address
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for hop in reversed([h for h in hops if h]):
        address = hop
        if not is_trusted(hop):
            break
    return address


def too_wide(network: Network) -> bool:
    """A "proxy" so wide it is most of the internet: trusting it trusts every client."""
    return network.prefixlen < (8 if network.version == 4 else 16)


class ProxyHeadersMiddleware:
    """Drop ``X-Forwarded-For``, ``-Proto`` and ``-Host`` from any request that does not come
    from a trusted proxy: Django's ``SECURE_PROXY_SSL_HEADER`` (and anything else) then
    believes them only from the hop the operator named."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if not from_trusted_proxy(request):
            for name in FORWARDED:
                request.META.pop(name, None)
        return self.get_response(request)
