"""The Python codec on its own: round trips, stream splitting, and a decoder that
cannot be broken by what arrives on the wire."""
from __future__ import annotations

import os
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.sensors import codec
from companion.sensors.codec import Ack, Decoder, Event, Frame, FrameError, Hello


@given(st.binary(max_size=600))
def test_cobs_round_trip_and_no_zero_inside(data):
    encoded = codec.cobs_encode(data)
    assert 0 not in encoded
    assert codec.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + len(data) // 254 + 1


@settings(max_examples=200)
@given(st.sampled_from(sorted(codec.MESSAGES)), st.integers(0, 0xFFFF), st.randoms(use_true_random=False))
def test_every_message_round_trips_through_the_wire(type_, seq, rng):
    cls = codec.MESSAGES[type_]
    payload = bytes(rng.getrandbits(8) for _ in range(cls.struct().size))
    frame = Frame(codec.PROTOCOL_VERSION, type_, seq, payload)
    wire = codec.encode_frame(frame)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert len(wire) <= codec.MAX_ENCODED + 1
    (got,) = Decoder().feed(wire)
    assert got == frame
    assert got.message().pack() == payload


def test_frames_split_anywhere_across_reads_are_reassembled():
    frames = [codec.encode(Event(7, i, i % 2, 0, 1, i, 20000, 0, i, 0), seq=i) for i in range(1, 40)]
    data = b"".join(frames)
    rng = random.Random(1)
    decoder, got = Decoder(), []
    at = 0
    while at < len(data):
        step = rng.randint(1, 30)
        got += decoder.feed(data[at:at + step])
        at += step
    assert [f.message().event_id for f in got] == list(range(1, 40))


def test_errors_are_named_and_counted_and_the_next_frame_still_decodes():
    good = codec.encode(Ack(1, 2), seq=3)
    broken = bytearray(good)
    broken[3] ^= 0x10
    decoder = Decoder()
    items = decoder.feed(bytes(broken) + b"\x03\x01\x02\x00" + b"\x07" * 300 + b"\x00" + good)
    assert [i.code if isinstance(i, FrameError) else "ok" for i in items] == ["crc", "short", "long", "ok"]
    assert decoder.errors == {"crc": 1, "short": 1, "long": 1} and decoder.frames == 1


def test_unknown_version_is_refused_with_the_header_kept():
    hello = Hello(1, codec.SCHEMA_HASH, 1, 0, 0, 0, 16, 0)
    (item,) = Decoder().feed(codec.encode(hello, seq=0, version=2))
    assert isinstance(item, FrameError) and item.code == "version"
    assert item.frame.version == 2 and "version 2" in str(item)


def test_a_payload_longer_than_the_format_allows_cannot_be_built():
    with pytest.raises(ValueError, match="exceeds"):
        codec.encode_frame(Frame(1, 3, 0, bytes(codec.MAX_PAYLOAD + 1)))


def test_decoder_survives_a_million_random_bytes():
    """Noise never raises, never grows memory, and a good frame right after it decodes."""
    noise = random.Random(1_000_000).randbytes(1_000_000)
    decoder = Decoder()
    started = time.process_time()  # CPU time: what the decoder costs, not how busy the machine is
    accepted = []
    for at in range(0, len(noise), 4096):
        for item in decoder.feed(noise[at:at + 4096]):
            if isinstance(item, Frame):
                accepted.append(item)
            assert len(decoder.pending) <= codec.MAX_ENCODED
    elapsed = time.process_time() - started
    chunks = sum(1 for c in noise.split(b"\x00")[:-1] if c)  # empty ones are just two delimiters
    assert sum(decoder.errors.values()) + decoder.frames == chunks
    # A 16-bit CRC lets about 1 in 65536 well-formed chunks through; the exact-length rule
    # for each message type stops nearly all of those.
    assert len(accepted) <= 2, accepted
    assert elapsed < 10, f"{elapsed:.1f} s of CPU for a million bytes"
    tail = codec.encode(Ack(5, 6), seq=1)
    items = decoder.feed(b"\x00" + tail)
    assert items[-1] == Frame(1, Ack.TYPE, 1, Ack(5, 6).pack())


def test_decoder_survives_os_random_bytes_in_odd_chunks():
    decoder = Decoder()
    for size in (1, 2, 3, 7, 64, 255, 1000):
        for _ in range(20):
            decoder.feed(os.urandom(size))
    decoder.feed(b"\x00")
    assert decoder.feed(codec.encode(Ack(1, 1), seq=0))[0].message() == Ack(1, 1)
