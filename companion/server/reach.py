"""The address phones at the table use: the LAN address this machine has (found without sending
anything), or the one the host names with ``--public-url``; and whether phones can open a link
at all (a link to 127.0.0.1 opens the phone itself, not the table).

``choose_address`` is pure (given what was found, testable without a network); ``lan_address``
asks the operating system.
"""
from __future__ import annotations

import ipaddress
import socket
from typing import Iterable
from urllib.parse import urlsplit

# A documentation address (TEST-NET-1, RFC 5737): ``connect()`` of a UDP socket to it sends no
# packet; the kernel only picks the route, and ``getsockname()`` then says from which address.
PROBE = "192.0.2.1"
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def usable(address: str | None) -> bool:
    """An address a phone on the same network could reach: an IP address, not loopback (127.*,
    ::1), not link-local (169.254.*, fe80::), not unspecified (0.0.0.0)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def choose_address(routed: str | None, named: Iterable[str] = ()) -> str | None:
    """The LAN address to hand out: ``routed`` (the address the kernel would send from on an
    outside route) if usable, else the first usable one of ``named`` (the host name's addresses);
    IPv4 before IPv6 among those. None: no usable address (only loopback, or no network)."""
    if usable(routed):
        return routed
    named = [a for a in named if usable(a)]
    named.sort(key=lambda a: ":" in a)  # stable: IPv4 first, in the order found
    return named[0] if named else None


def routed_address() -> str | None:
    """The address the kernel would use for an outside route; None without one (no network)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBE, 9))   # UDP: no packet is sent
            return probe.getsockname()[0]
    except OSError:
        return None


def named_addresses() -> list[str]:
    """The addresses this machine's host name resolves to (often 127.0.1.1 alone on Debian)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def lan_address() -> str | None:
    """This machine's address on the local network, without sending anything; None if none."""
    return choose_address(routed_address(), named_addresses())


def url_host(host: str) -> str:
    """``host`` as it stands in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host


def parse_public_url(text: str) -> str:
    """``--public-url``: the address phones use, as ``scheme://host[:port]`` (no trailing slash);
    ValueError saying what is wrong."""
    text = text.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"not a URL ({exc})") from None
    if parts.scheme not in ("http", "https"):
        raise ValueError("give an http:// or https:// URL, e.g. http://192.168.1.20:8000")
    if not parts.hostname:
        raise ValueError("the URL names no host, e.g. http://192.168.1.20:8000")
    if parts.username or parts.password:
        raise ValueError("the URL may not hold a user name or password")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("the URL may have no path, query or fragment: the links add their own")
    host = url_host(parts.hostname)
    return f"{parts.scheme}://{host}{f':{port}' if port is not None else ''}"


def reachable(url: str) -> bool:
    """Whether a phone could open a link to ``url``: False for loopback (127.*, ::1, localhost)."""
    host = (urlsplit(url).hostname or "").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return True   # a name: the host chose it (--public-url) or the phone asked by it
    return not (ip.is_loopback or ip.is_unspecified)
