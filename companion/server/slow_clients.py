"""A client that opens a connection and then sends its request very slowly is cut off.

uvicorn closes a connection left idle after a response (keep-alive), but one that has just been
opened, or that trickles the headers of its next request a byte at a time, is kept as long as
the client likes; enough of them take every file descriptor the service has. Here the headers
of each request must arrive whole within ``HEADER_SECONDS`` of the connection opening or of the
previous response; the body has its own bound (server/body_limit.py). uvicorn offers no such
setting, so the protocol is extended where it starts and ends a request.
"""
from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 20.0  # far above what a phone on a weak Wi-Fi needs to send a few hundred bytes


class PatientH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers."""

    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def handle_websocket_upgrade(self, event) -> None:
        # The connection becomes a live view (another protocol takes it over): no request follows.
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _too_slow(self) -> None:
        waiting = self.cycle is None or self.cycle.response_complete  # no request's headers came whole
        if waiting and not self.transport.is_closing():
            self.transport.close()
