"""Requests that name another site are refused before any route sees them.

DNS rebinding: a web page on the internet can have its own name resolve to the table's LAN
address, and then script the companion from a player's browser as if it were that site. Such
requests carry the attacker's name in ``Host``; the companion answers only to its own names: an
IP address, ``localhost``, this machine's name (with or without ``.local``), the host of
``--public-url``, and any names the app is given. A browser's request that changes something
(any method but GET, HEAD, OPTIONS) or opens a WebSocket must come from a page of the same
origin (``Origin``), so another site's page cannot act with the cookies of the table; scripts
send no ``Origin`` and are judged by their key alone.
"""
from __future__ import annotations

import ipaddress
import json
import socket
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import urlsplit

Message = dict[str, Any]
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def own_names(extra: Iterable[str] = ()) -> set[str]:
    """The host names this machine answers to, lower case (IP addresses are always taken)."""
    names = {"localhost"}
    try:
        host = socket.gethostname().lower()
        names |= {host, f"{host}.local", socket.getfqdn().lower()}
    except OSError:
        pass
    return names | {n.lower() for n in extra if n}


def _hostname(host: str) -> str:
    """``host[:port]`` or ``[v6]:port`` -> the name alone, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class Guard:
    """ASGI middleware: 400 for a Host that is not ours, 403 for a cross-site change."""

    def __init__(self, app: Callable, names: set[str]):
        self.app, self.names = app, names

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers") or ()}
        host = headers.get("host", "")
        name = _hostname(host)
        if not (_is_ip(name) or name in self.names):
            await _refuse(scope, send, 400, f"this service does not answer to the name {name[:80]!r}; open it by "
                                            f"its address (the link `companion serve` printed)")
            return
        origin = headers.get("origin")
        changes = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if changes and origin is not None:
            parts = urlsplit(origin)
            if origin == "null" or parts.netloc.lower() != host.strip().lower():
                await _refuse(scope, send, 403, f"a page of another site ({origin[:80]}) may not act here; "
                                                f"use the companion's own pages")
                return
        await self.app(scope, receive, send)


async def _refuse(scope: dict, send: Callable[[Message], Awaitable[None]], status: int, detail: str) -> None:
    if scope["type"] == "websocket":  # closing before accepting: the client sees an HTTP 403
        await send({"type": "websocket.close", "code": 4400 if status == 400 else 4403, "reason": detail[:120]})
        return
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
