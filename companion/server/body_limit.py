"""Request bodies have a size limit, enforced before a body is read whole.

A 200 MB body used to be read into memory whole before anything looked at it. Here a request
that declares more than ``MAX_BODY_BYTES`` (Content-Length) is answered 413 without reading a
byte of its body, and one that sends more than it may (a chunked upload, or more than it
declared) is answered 413 as soon as the count passes the limit; the rest is never read and the
connection is closed. A body within the limit is handed to the app as it came. A body that
stops arriving (a slow or stalled client) is answered 408 after ``BODY_SECONDS`` without a byte.

The largest body the API takes is a new game with a board file of its own in its options
(``MAX_OPTIONS_BYTES`` in server/requests.py, 128 KB); everything else is well under 4 KB,
but for the few paths given a larger limit of their own (``larger``: the board calibration's
photo upload).
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

MAX_BODY_BYTES = 262_144
BODY_SECONDS = 30.0  # the longest wait for the next part of a body

Message = dict[str, Any]


class BodyLimit:
    """ASGI middleware: 413 for a body over ``limit`` bytes, declared or counted."""

    def __init__(self, app: Callable, limit: int = MAX_BODY_BYTES, patience: float = BODY_SECONDS,
                 larger: dict[str, int] | None = None):
        self.app, self.default, self.patience = app, limit, patience
        self.larger = dict(larger or {})   # exact path -> its own limit

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.default)
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, 413, f"the request body is too large: it declares {int(declared)} bytes; "
                                          f"at most {limit} bytes are taken")
            return
        chunks, size, first = [], 0, None
        while True:
            try:
                message = await asyncio.wait_for(receive(), self.patience)
            except asyncio.TimeoutError:
                await self._refuse(send, 408, f"the request body stopped arriving for {self.patience:.0f} s; "
                                              f"send it again")
                return
            if message["type"] != "http.request":  # the client left: the app hears it as it would
                first = message
                break
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                await self._refuse(send, 413, f"the request body is too large: it sent more than {limit} "
                                              f"bytes; at most {limit} bytes are taken")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                first = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return first
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Callable[[Message], Awaitable[None]], status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


RESPONSE_413 = {413: {"description": f"the request body is larger than {MAX_BODY_BYTES} bytes",
                      "content": {"application/json": {"schema": {
                          "type": "object", "required": ["detail"], "properties": {"detail": {"type": "string"}}}}}}}
