"""The live view: a WebSocket per dashboard page, pushed that viewer's view after every change
(server/live.py), a bounded number of them per device and in all."""
from __future__ import annotations

import asyncio
import logging

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect

from ..context import Api, Viewing
from ..live import Publisher
from ..messages.middleware import close_reason
from ..trust import ASK_LINK

log = logging.getLogger(__name__)

# Live views (WebSockets) a table holds open.
MAX_SOCKETS_PER_DEVICE = 8    # live WebSockets of one key from one address (a page each: tabs, reloads)
MAX_SOCKETS = 256             # live WebSockets in all (a table has a dozen devices)


def add_live_routes(app: FastAPI, ctx: Api) -> None:
    sockets: dict[tuple[str, str], int] = {}  # live WebSockets by (address, key)
    publishers: dict[str, Publisher] = {}     # the live views of each game with a socket open

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str, viewing: Viewing = None) -> None:
        try:
            caller = ctx.caller_of(websocket, game_id, viewing)
            session = ctx.session_of(game_id)
        except HTTPException as exc:
            reason = close_reason(websocket.scope.get("headers"), str(exc.detail))  # the page's language
            await websocket.close(code=4403 if exc.status_code == 403 else 4404, reason=reason)
            return
        device = (websocket.client.host if websocket.client else "?", caller.key or "")
        if sockets.get(device, 0) >= MAX_SOCKETS_PER_DEVICE or sum(sockets.values()) >= MAX_SOCKETS:
            await websocket.close(code=4429, reason="too many live views open on this device: close some tabs")
            return
        sockets[device] = sockets.get(device, 0) + 1
        await websocket.accept()
        publisher = publishers.get(session.id)
        if publisher is None or publisher.session is not session:
            publisher = publishers[session.id] = Publisher(
                session, lambda who: ctx.live_view(session, who), f"this device's key was replaced: {ASK_LINK}")
        socket = publisher.join(websocket, caller)
        receiver = asyncio.create_task(_drain(websocket))
        try:
            # Until the device goes (its receiver ends) or its sender ends (closed, or a send failed).
            await asyncio.wait({receiver, socket.task}, return_when=asyncio.FIRST_COMPLETED)
            if socket.task.done() and not socket.task.cancelled() and socket.task.exception() is not None:
                exc = socket.task.exception()
                if not isinstance(exc, (WebSocketDisconnect, RuntimeError, OSError)):
                    log.error("a live view failed: %r", exc)
        finally:
            receiver.cancel()
            if publisher.leave(socket) and publishers.get(session.id) is publisher:
                del publishers[session.id]
            sockets[device] -= 1
            if not sockets[device]:
                del sockets[device]


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so that a disconnect is noticed."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
