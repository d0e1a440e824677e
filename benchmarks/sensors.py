"""How fast the sensor link decodes and commits, to show the margin over a real tower.

Run: .venv/bin/python benchmarks/sensors.py
A real tower produces a few passes a second at most; the link's ceiling is
thousands a second, so a burst after a reconnect (a full ring of 16) clears
in milliseconds.
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.sensors import codec  # noqa: E402
from companion.sensors.codec import Event  # noqa: E402
from companion.sensors.link import SensorLink  # noqa: E402
from companion.sensors.simboard import SimBoard  # noqa: E402


def decode_rate(n: int = 50_000) -> None:
    stream = b"".join(codec.encode(Event(1, i, i % 2, 0, 1, i, 20_000, 20_000, i, i), seq=i) for i in range(n))
    started = time.perf_counter()
    frames = codec.Decoder().feed(stream)
    for f in frames:
        f.message()
    took = time.perf_counter() - started
    print(f"decode+unpack: {n / took:,.0f} event frames/s ({len(stream) / took / 1e6:.1f} MB/s)")


def noise_rate(n: int = 5_000_000) -> None:
    noise = random.Random(1).randbytes(n)
    started = time.perf_counter()
    decoder = codec.Decoder()
    for at in range(0, n, 4096):
        decoder.feed(noise[at:at + 4096])
    took = time.perf_counter() - started
    print(f"random noise:  {n / took / 1e6:.1f} MB/s through the decoder, {decoder.frames} frames accepted")


def link_rate(n: int = 5_000) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        board = SimBoard(link=Path(tmp) / "board", resend_s=0.2)
        board.start()
        got = []
        link = SensorLink(board.path, got.append, backoff=(0.05, 0.2))
        link.start()
        while link.status()["state"] != "connected":
            time.sleep(0.01)
        started = time.perf_counter()
        made = 0
        while made < n:
            with board.lock:
                if board.model.ring_free:
                    board.model.add_pass(made % 2, 20_000)
                    made += 1
                    continue
            time.sleep(0.0002)
        while len(got) < n:
            time.sleep(0.001)
        took = time.perf_counter() - started
        link.stop()
        board.stop()
    print(f"end to end:    {n / took:,.0f} events/s committed and acked over a pty (ring of 16)")


if __name__ == "__main__":
    decode_rate()
    noise_rate()
    link_rate()
