"""The WebSocket protocol of the live views: uvicorn's, with a lighter compression.

Every view a table device is pushed is some 55-80 KB of JSON, and a table holds some 20 of them
open: with the default deflate level (6) compressing them took 1.8-2.9 ms per device per move on
the event loop (40-60 ms for a move at a table of 20). Level 1 takes ~0.3 ms for 12 KB instead of
9 KB on the wire (a table's Wi-Fi does not notice). Browsers offer permessage-deflate; so is it
still used, with the same window and memory bounds as uvicorn's own."""
from __future__ import annotations

import logging

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

DEFLATE_LEVEL = 1


class LightDeflate(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets, sans-I/O) compressing at ``DEFLATE_LEVEL``."""

    def __init__(self, config, *args, **kwargs) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                                           compress_settings={"memLevel": 5, "level": DEFLATE_LEVEL})],
                max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error"))
