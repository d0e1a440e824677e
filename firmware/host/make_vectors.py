"""Write ../test_vectors.json: the answers both codecs (C and Python) must give.

Run from the repository root: `.venv/bin/python firmware/host/make_vectors.py`.
The frame vectors come from the Python codec and are then frozen: a change to
the wire format shows up as a diff of this file and a failing test on both
sides, never as a silent drift. The CRC check value and the COBS examples are
the published ones, not ours, so neither codec can agree with itself by accident.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.sensors import codec  # noqa: E402
from companion.sensors.codec import (Ack, Event, Frame, Heartbeat, Hello, HelloAck, HelloReq,  # noqa: E402
                                     State, StateReq)

OUT = Path(__file__).resolve().parents[1] / "test_vectors.json"

MESSAGES = [
    Hello(0x1234ABCD, codec.SCHEMA_HASH, 1, 0, 0, 1, 16, 67),
    Heartbeat(0x1234ABCD, 1067, 2, 6, 1, 8, 1, 0, 0),
    State(0xFFFFFFFF, 0xFFFFFFFF, 3, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 255, 0xFFFF, 0xFFFF),
    Event(0x1234ABCD, 1, 0, 0, 1, 201, 20000, 0, 1, 0),
    Event(0x1234ABCD, 5, 0, codec.F_DOUBLE | codec.F_RESENT, 2, 702, 50000, 20000, 6, 0),
    Event(0x1234ABCD, 6, 1, codec.F_HELD | codec.F_COLOUR, 1, 801, 500012, 0, 6, 1, 100, 200, 300, 400),
    Event(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),  # all zeros: every byte is stuffed
    HelloReq(),
    HelloAck(0x1234ABCD),
    Ack(0x1234ABCD, 0x00010000),
    StateReq(),
]

COBS = [  # the examples of the COBS paper / common reference tables
    ("", "01"),
    ("00", "0101"),
    ("0000", "010101"),
    ("001100", "01021101"),
    ("11220033", "0311220233"),
    ("11223344", "0511223344"),
    ("11000000", "0211010101"),
    (bytes(range(1, 255)).hex(), "ff" + bytes(range(1, 255)).hex()),
    (bytes(range(0, 255)).hex(), "01ff" + bytes(range(1, 255)).hex()),
    (bytes(range(1, 256)).hex(), "ff" + bytes(range(1, 255)).hex() + "02ff"),
]


def main() -> None:
    frames = []
    for seq, m in enumerate(MESSAGES):
        seq = seq * 4097 & 0xFFFF
        frame = Frame(codec.PROTOCOL_VERSION, m.TYPE, seq, m.pack())
        frames.append({"message": m.NAME, "fields": [getattr(m, n) for n, _ in m.FIELDS],
                       "version": frame.version, "type": frame.type, "seq": seq, "payload": frame.payload.hex(),
                       "raw": codec.frame_bytes(frame).hex(), "wire": codec.encode_frame(frame).hex()})
    raw = bytearray(codec.frame_bytes(Frame(1, Event.TYPE, 9, MESSAGES[3].pack())))
    raw[10] ^= 0x01
    bad_crc = codec.cobs_encode(bytes(raw))
    v2 = codec.cobs_encode(codec.frame_bytes(Frame(2, Hello.TYPE, 0, MESSAGES[0].pack())))
    unknown = codec.cobs_encode(codec.frame_bytes(Frame(1, 0x7F, 0, b"")))
    short_event = codec.cobs_encode(codec.frame_bytes(Frame(1, Event.TYPE, 0, MESSAGES[3].pack()[:-1])))
    bad = [
        {"chunk": bad_crc.hex(), "error": "crc", "why": "one bit of the payload flipped"},
        {"chunk": "05112233", "error": "cobs", "why": "the block promises four bytes, three follow"},
        {"chunk": "0311000233", "error": "cobs", "why": "a zero byte inside a block"},
        {"chunk": "0201", "error": "short", "why": "two bytes: no room for header and checksum"},
        {"chunk": "01" * 56, "error": "long", "why": "more bytes than the longest frame"},
        {"chunk": v2.hex(), "error": "version", "why": "a HELLO of protocol version 2"},
        {"chunk": unknown.hex(), "error": "type", "why": "message type 0x7f does not exist"},
        {"chunk": short_event.hex(), "error": "length", "why": "an EVENT one byte short"},
    ]
    doc = {
        "about": "Shared by companion/sensors/codec.py and firmware/tower_sensors/proto.c; "
                 "regenerate with firmware/host/make_vectors.py. See firmware/PROTOCOL.md.",
        "protocol_version": codec.PROTOCOL_VERSION,
        "schema": codec.SCHEMA,
        "schema_hash": f"{codec.SCHEMA_HASH:08x}",
        "crc": [{"data": b"123456789".hex(), "crc": "29b1", "why": "the catalogue check value of CRC-16/CCITT-FALSE"},
                {"data": "", "crc": "ffff", "why": "nothing: the initial value"},
                {"data": "00", "crc": format(codec.crc16(bytes(1)), '04x'), "why": "a zero byte changes the CRC"},
                {"data": "0000", "crc": format(codec.crc16(bytes(2)), '04x'), "why": "so does a second one"}],
        "cobs": [{"data": d, "encoded": e} for d, e in COBS],
        "frames": frames,
        "bad_chunks": bad,
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
