"""The WebSocket protocol of the live views: uvicorn's, its compression made once per message.

Every view a table device is pushed is some 50-80 KB of JSON, and a table holds some 20 of them
open. With uvicorn's permessage-deflate (level 6, each connection compressing against its own
history) compressing them took 2-3.5 ms per device per move on the event loop: 40-70 ms for a
move at a table of 20, during which no device was sent anything. Here the server compresses each
message on its own (``server_no_context_takeover``, which every browser accepts) at level 1, so
the same text compresses to the same bytes for every device: it is compressed once (~0.2 ms) and
the bytes are shared by every device of that viewer (the table's tablets get one text). 12 KB
instead of 10 KB on the wire; a table's Wi-Fi does not notice. Browsers offer permessage-deflate,
so it is used as before, with uvicorn's window and memory bounds."""
from __future__ import annotations

import logging
import zlib
from collections import OrderedDict

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol

DEFLATE_LEVEL = 1
WINDOW_BITS = 12        # uvicorn's bounds: a 4 KB window, memLevel 5
MEM_LEVEL = 5
SHARED = 32             # compressed messages kept (a step has a few distinct views)
SHARE_FROM = 1024       # messages shorter than this are compressed as usual
_TAIL = b"\x00\x00\xff\xff"


class _Shared:
    """Compressed messages by their bytes (the event loop's only: no lock)."""

    def __init__(self):
        self.kept: OrderedDict[bytes, bytes] = OrderedDict()

    def compressed(self, data: bytes, window_bits: int) -> bytes:
        key = data
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            return found
        encoder = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -window_bits, MEM_LEVEL)
        out = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
        assert out[-4:] == _TAIL
        out = out[:-4]
        self.kept[key] = out
        if len(self.kept) > SHARED:
            self.kept.popitem(last=False)
        return out


SHARED_MESSAGES = _Shared()


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate without the server's context takeover: a whole text message compressed
    once for every connection that sends it."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode is not Opcode.TEXT or not frame.fin or not self.local_no_context_takeover \
                or len(frame.data) < SHARE_FROM:
            return super().encode(frame)
        data = SHARED_MESSAGES.compressed(bytes(frame.data), self.local_max_window_bits)
        return Frame(frame.opcode, data, frame.fin, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(self, params, accepted_extensions):
        response, extension = super().process_request_params(params, accepted_extensions)
        extension.__class__ = SharedDeflate
        return response, extension


class LightDeflate(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets, sans-I/O) with the shared compression above."""

    def __init__(self, config, *args, **kwargs) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[SharedDeflateFactory(server_no_context_takeover=True, server_max_window_bits=WINDOW_BITS,
                                                 client_max_window_bits=WINDOW_BITS,
                                                 compress_settings={"memLevel": MEM_LEVEL, "level": DEFLATE_LEVEL})],
                max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error"))
