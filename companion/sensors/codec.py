"""The sensor board's wire format: COBS frames, CRC-16, and the messages inside.

This is the Python twin of ``firmware/tower_sensors/proto.c``; both are checked
against ``firmware/test_vectors.json``, and PROTOCOL.md is the specification.
Nothing here does I/O, so the link, the simulated board and the tests share it.

A frame on the wire is ``COBS(version, type, seq, payload, crc16) 0x00``. A
receiver never trusts a frame it has not checked: :class:`Decoder` turns any
byte soup into valid frames and counted, named errors, and never raises.
"""
from __future__ import annotations

import binascii
import struct
from dataclasses import asdict, dataclass, field, replace
from typing import ClassVar

PROTOCOL_VERSION = 1
HEADER_LEN = 4
CRC_LEN = 2
MAX_PAYLOAD = 48
MAX_FRAME = HEADER_LEN + MAX_PAYLOAD + CRC_LEN
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1  # COBS bytes between two delimiters

BEAM_IN, BEAM_OUT = 0, 1
BEAM_NAMES = {BEAM_IN: "in", BEAM_OUT: "out"}

F_DOUBLE, F_HELD, F_COLOUR, F_RESENT = 0x01, 0x02, 0x04, 0x08
CAP_COLOUR = 0x01


class FrameError(ValueError):
    """A chunk between delimiters that is not a frame we accept.

    ``code`` is one of cobs, short, long, crc, version, type, length (the same
    names the C code uses); ``frame`` is set for version errors, whose header
    passed the CRC and is worth reporting ("this board speaks version 2").
    """

    def __init__(self, code: str, message: str, frame: "Frame | None" = None):
        super().__init__(message)
        self.code = code
        self.frame = frame


# --- checksums and stuffing ---------------------------------------------------------

def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, init 0xFFFF, no reflection, no final xor.

    ``binascii.crc_hqx`` is exactly this CRC (the non-reflected 0x1021 of XMODEM and
    avr-libc's ``_crc_xmodem_update``) when given the init value, so the firmware's
    ``proto_crc16(PROTO_CRC_INIT, ...)`` and this agree; check value of ``123456789``
    is 0x29B1 (tests/test_firmware_codec.py checks it against the shared vectors).
    """
    return binascii.crc_hqx(data, crc)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no 0x00 byte."""
    out = bytearray()
    block = bytearray()
    for i, byte in enumerate(data):
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
                if i + 1 == len(data):
                    return bytes(out)  # ends on a full block: no empty block after it
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; raises FrameError('cobs') on a malformed block."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        i += 1
        if code == 0 or i + code - 1 > n:
            raise FrameError("cobs", "malformed COBS block")
        block = data[i:i + code - 1]
        if 0 in block:
            raise FrameError("cobs", "a zero byte inside a COBS block")
        out += block
        i += code - 1
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- messages ------------------------------------------------------------------------

_FMT = {"u8": "B", "u16": "H", "u32": "I"}


@dataclass(frozen=True)
class Message:
    """A message body; subclasses name their type code and fields (in wire order)."""

    TYPE: ClassVar[int] = -1
    NAME: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()

    @classmethod
    def struct(cls) -> struct.Struct:
        return struct.Struct("<" + "".join(_FMT[t] for _, t in cls.FIELDS))

    def pack(self) -> bytes:
        return self.struct().pack(*(getattr(self, name) for name, _ in self.FIELDS))

    @classmethod
    def unpack(cls, payload: bytes) -> "Message":
        s = cls.struct()
        if len(payload) != s.size:
            raise FrameError("length", f"{cls.NAME} needs {s.size} payload bytes, got {len(payload)}")
        return cls(*s.unpack(payload))

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Hello(Message):
    TYPE: ClassVar[int] = 0x01
    NAME: ClassVar[str] = "HELLO"
    FIELDS: ClassVar = (("boot_id", "u32"), ("schema", "u32"), ("fw_major", "u8"), ("fw_minor", "u8"),
                        ("fw_patch", "u8"), ("caps", "u8"), ("ring_size", "u8"), ("uptime_ms", "u32"))
    boot_id: int
    schema: int
    fw_major: int
    fw_minor: int
    fw_patch: int
    caps: int
    ring_size: int
    uptime_ms: int

    @property
    def firmware(self) -> str:
        return f"{self.fw_major}.{self.fw_minor}.{self.fw_patch}"


_STATE_FIELDS = (("boot_id", "u32"), ("uptime_ms", "u32"), ("beams", "u8"), ("total_in", "u32"),
                 ("total_out", "u32"), ("next_event_id", "u32"), ("unacked", "u8"),
                 ("dropped_in", "u16"), ("dropped_out", "u16"))


@dataclass(frozen=True)
class State(Message):
    """The board's whole state: answer to STATE_REQ. HEARTBEAT shares the layout."""

    TYPE: ClassVar[int] = 0x04
    NAME: ClassVar[str] = "STATE"
    FIELDS: ClassVar = _STATE_FIELDS
    boot_id: int
    uptime_ms: int
    beams: int
    total_in: int
    total_out: int
    next_event_id: int
    unacked: int
    dropped_in: int
    dropped_out: int

    @property
    def beam_in(self) -> bool:
        return bool(self.beams & 1)

    @property
    def beam_out(self) -> bool:
        return bool(self.beams & 2)


@dataclass(frozen=True)
class Heartbeat(State):
    TYPE: ClassVar[int] = 0x02
    NAME: ClassVar[str] = "HEARTBEAT"


@dataclass(frozen=True)
class Event(Message):
    """One pass through a beam, kept by the board until the host acknowledges it."""

    TYPE: ClassVar[int] = 0x03
    NAME: ClassVar[str] = "EVENT"
    FIELDS: ClassVar = (("boot_id", "u32"), ("event_id", "u32"), ("beam", "u8"), ("flags", "u8"),
                        ("count", "u8"), ("t_ms", "u32"), ("width_us", "u32"), ("median_us", "u32"),
                        ("total_in", "u32"), ("total_out", "u32"),
                        ("r", "u16"), ("g", "u16"), ("b", "u16"), ("c", "u16"))
    boot_id: int
    event_id: int
    beam: int
    flags: int
    count: int
    t_ms: int
    width_us: int
    median_us: int
    total_in: int
    total_out: int
    r: int = 0
    g: int = 0
    b: int = 0
    c: int = 0

    def same_pass(self, other: "Event") -> bool:
        """Equal apart from the RESENT flag (a re-send is the same pass)."""
        return replace(self, flags=self.flags & ~F_RESENT) == replace(other, flags=other.flags & ~F_RESENT)


@dataclass(frozen=True)
class HelloReq(Message):
    TYPE: ClassVar[int] = 0x80
    NAME: ClassVar[str] = "HELLO_REQ"


@dataclass(frozen=True)
class HelloAck(Message):
    TYPE: ClassVar[int] = 0x81
    NAME: ClassVar[str] = "HELLO_ACK"
    FIELDS: ClassVar = (("boot_id", "u32"),)
    boot_id: int


@dataclass(frozen=True)
class Ack(Message):
    TYPE: ClassVar[int] = 0x82
    NAME: ClassVar[str] = "ACK"
    FIELDS: ClassVar = (("boot_id", "u32"), ("event_id", "u32"))
    boot_id: int
    event_id: int


@dataclass(frozen=True)
class StateReq(Message):
    TYPE: ClassVar[int] = 0x83
    NAME: ClassVar[str] = "STATE_REQ"


MESSAGES: dict[int, type[Message]] = {m.TYPE: m for m in
                                      (Hello, Heartbeat, Event, State, HelloReq, HelloAck, Ack, StateReq)}


def schema_text() -> str:
    """The canonical description of every layout; its hash travels in HELLO."""
    parts = [f"tower-sensors/{PROTOCOL_VERSION}"]
    for code in sorted(MESSAGES):
        m = MESSAGES[code]
        parts.append(" ".join([f"{code:02x}", m.NAME] + [f"{n}:{t}" for n, t in m.FIELDS]))
    return ";".join(parts)


def fnv1a32(data: bytes) -> int:
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


SCHEMA = schema_text()
SCHEMA_HASH = fnv1a32(SCHEMA.encode())


# --- frames --------------------------------------------------------------------------

@dataclass(frozen=True)
class Frame:
    version: int
    type: int
    seq: int
    payload: bytes = b""

    def message(self) -> Message:
        """The typed body; raises FrameError for an unknown type or a wrong length."""
        cls = MESSAGES.get(self.type)
        if cls is None:
            raise FrameError("type", f"unknown message type 0x{self.type:02x}")
        return cls.unpack(self.payload)


def frame_bytes(frame: Frame) -> bytes:
    """Header + payload + CRC, before stuffing."""
    if len(frame.payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
    raw = struct.pack("<BBH", frame.version, frame.type, frame.seq & 0xFFFF) + frame.payload
    return raw + struct.pack("<H", crc16(raw))


def encode_frame(frame: Frame) -> bytes:
    """The bytes to write: COBS-stuffed frame and its 0x00 delimiter."""
    return cobs_encode(frame_bytes(frame)) + b"\x00"


def encode(message: Message, seq: int, version: int = PROTOCOL_VERSION) -> bytes:
    return encode_frame(Frame(version, message.TYPE, seq & 0xFFFF, message.pack()))


def parse_frame(chunk: bytes) -> Frame:
    """Check one chunk (the COBS bytes between delimiters); raises FrameError.

    Order matters and matches the C code: size, stuffing, CRC, then version,
    type and exact payload length.
    """
    if len(chunk) > MAX_ENCODED:
        raise FrameError("long", f"{len(chunk)} bytes between delimiters; a frame has at most {MAX_ENCODED}")
    raw = cobs_decode(chunk)
    if len(raw) < HEADER_LEN + CRC_LEN:
        raise FrameError("short", f"{len(raw)} bytes is shorter than a header and a checksum")
    if len(raw) > MAX_FRAME:
        raise FrameError("long", f"{len(raw)} bytes is longer than any frame")
    (want,) = struct.unpack_from("<H", raw, len(raw) - 2)
    if crc16(raw[:-2]) != want:
        raise FrameError("crc", "checksum mismatch")
    version, type_, seq = struct.unpack_from("<BBH", raw)
    frame = Frame(version, type_, seq, bytes(raw[HEADER_LEN:-2]))
    if version != PROTOCOL_VERSION:
        raise FrameError("version", f"protocol version {version}; this host speaks {PROTOCOL_VERSION}", frame)
    cls = MESSAGES.get(type_)
    if cls is None:
        raise FrameError("type", f"unknown message type 0x{type_:02x}")
    if len(frame.payload) != cls.struct().size:
        raise FrameError("length", f"{cls.NAME} needs {cls.struct().size} payload bytes, got {len(frame.payload)}")
    return frame


@dataclass
class Decoder:
    """Splits a byte stream at 0x00 and checks each chunk; never raises.

    ``feed`` returns the valid frames and the FrameErrors in arrival order;
    ``errors`` counts each kind, for the link's status and the tests.
    """

    pending: bytearray = field(default_factory=bytearray)
    overflow: bool = False
    errors: dict[str, int] = field(default_factory=dict)
    frames: int = 0

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        out: list[Frame | FrameError] = []
        *chunks, tail = bytes(data).split(b"\x00")
        for chunk in chunks:
            if self.pending or self.overflow:
                chunk, overflow = bytes(self.pending) + chunk, self.overflow
                self.pending.clear()
                self.overflow = False
                if overflow:
                    out.append(self._error(FrameError("long", "a chunk overran the longest frame")))
                    continue
            if not chunk:
                continue  # delimiters back to back
            try:
                frame = parse_frame(chunk)
            except FrameError as exc:
                out.append(self._error(exc))
                continue
            self.frames += 1
            out.append(frame)
        if not self.overflow:
            self.pending += tail
            if len(self.pending) > MAX_ENCODED:
                self.pending.clear()
                self.overflow = True
        return out

    def _error(self, exc: FrameError) -> FrameError:
        self.errors[exc.code] = self.errors.get(exc.code, 0) + 1
        return exc
