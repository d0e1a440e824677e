"""The live views: one WebSocket per dashboard, each pushed its viewer's view after every change.

A move at a table of twenty devices used to make each socket compute the whole view (legal
moves and their descriptions) on the event loop, one after the other. Here each game has one
publisher. A change wakes it; in one worker thread (off the event loop) it checks every socket's
key once and renders each distinct view once per step: the table's session shares a view per
(viewer, step) (table/live.py), and its JSON text is made once per (viewer, role, fed) and
handed to every device of that viewer. Each socket then has a sender task of its own holding
only the newest text: a slow device is sent the latest view when it is ready again and never
delays the others (nor queues up views it could not take).
"""
from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Callable

from fastapi import WebSocket
from starlette.concurrency import run_in_threadpool

log = logging.getLogger(__name__)

CLOSE = object()   # a socket's key no longer opens the game: it is closed


@dataclass(eq=False)
class Socket:
    """One live view: whose it is, the newest message not sent yet, and what it was sent last."""

    websocket: WebSocket
    caller: object
    newest: object = None                 # a text to send, CLOSE, or None (nothing new)
    sent: tuple | None = None             # the key of the last message taken (step, viewer, role, fed)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None

    def offer(self, key: tuple | None, message) -> None:
        if message is not CLOSE and key == self.sent:
            return  # this device shows that already
        self.sent, self.newest = key, message
        self.ready.set()

    async def send(self, close_reason: str) -> None:
        """Send the newest message whenever there is one, until closed or gone."""
        while True:
            await self.ready.wait()
            self.ready.clear()
            message, self.newest = self.newest, None
            if message is CLOSE:
                await self.websocket.close(code=4403, reason=close_reason)
                return
            if message is not None:
                await self.websocket.send_text(message)


class Publisher:
    """The live views of one game (see the module). ``render(caller)`` answers the caller's view
    (a dict, shared: not changed here) and the key it is shared under, or None when the caller's
    key no longer opens the game; it runs in a worker thread."""

    def __init__(self, session, render: Callable[[object], tuple[tuple, dict] | None], close_reason: str):
        self.session, self.render, self.close_reason = session, render, close_reason
        self.sockets: set[Socket] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running: asyncio.Task | None = None
        self._again = False

    # --- sockets come and go --------------------------------------------------------------------

    def join(self, websocket: WebSocket, caller) -> Socket:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self.session.listeners.append(self._changed)
        socket = Socket(websocket, caller)
        socket.task = asyncio.create_task(socket.send(self.close_reason))
        self.sockets.add(socket)
        self.changed()  # its first view (the others have theirs: they are sent nothing again)
        return socket

    def leave(self, socket: Socket) -> bool:
        """Forget ``socket``; True when no socket is left (the publisher can be dropped)."""
        self.sockets.discard(socket)
        if socket.task is not None:
            socket.task.cancel()
        if not self.sockets:
            if self._changed in self.session.listeners:
                self.session.listeners.remove(self._changed)
            self._loop = None
            return True
        return False

    # --- a change ---------------------------------------------------------------------------------

    def _changed(self) -> None:
        """The session's listener: called from whichever thread committed the change."""
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self.changed)
            except RuntimeError:  # the loop is closed: the server is stopping
                pass

    def changed(self) -> None:
        if self._running is not None and not self._running.done():
            self._again = True  # publish once more when this round is done
            return
        self._running = asyncio.create_task(self._publish())

    async def _publish(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._again = False
            groups: dict[object, list[Socket]] = {}   # the sockets of each caller (key and grant)
            for socket in self.sockets:
                groups.setdefault(socket.caller, []).append(socket)
            try:
                await run_in_threadpool(self._render_all, loop, sorted(groups.items(), key=lambda g: -len(g[1])))
            except Exception:
                log.exception("rendering the live views failed")
                return
            if not self._again:
                return

    def _render_all(self, loop: asyncio.AbstractEventLoop, groups: list[tuple[object, list[Socket]]]) -> None:
        """Every caller's message, each distinct view rendered and encoded once (in a worker thread),
        the callers with the most devices first (the table's tablets); each caller's devices are
        handed theirs as soon as it is ready."""
        texts: dict[tuple, str] = {}
        for caller, sockets in groups:
            rendered = self.render(caller)   # its key checked again; None: it opens the game no more
            if rendered is None:
                key, message = None, CLOSE
            else:
                key, view = rendered
                if key not in texts:
                    texts[key] = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
                message = texts[key]
            loop.call_soon_threadsafe(self._deliver, sockets, key, message)

    def _deliver(self, sockets: list[Socket], key: tuple | None, message) -> None:
        for socket in sockets:
            if socket in self.sockets:
                socket.offer(key, message)
