"""A simulated board with a bad cable: for proving the link loses nothing.

``FakeBoard`` is a :class:`~companion.sensors.simboard.SimBoard` whose wire
corrupts, drops, duplicates and reorders frames in both directions, and that
can be unplugged, muted (a hung board) or speak another protocol version. The
faults are drawn from a seeded generator so a failure can be replayed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .simboard import SimBoard


@dataclass
class Faults:
    """Chances per frame. ``corrupt`` flips 1-3 bits somewhere in the frame's bytes
    (delimiter included, so frames also merge and split)."""

    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0   # hold a frame back and send it after the next one
    corrupt_rx: float = 0.0  # host to board
    drop_rx: float = 0.0
    seed: int = 1


class FakeBoard(SimBoard):
    def __init__(self, faults: Faults | None = None, **kwargs):
        super().__init__(**kwargs)
        self.faults = faults or Faults()
        self.rng = random.Random(self.faults.seed)
        self._held_back: bytes | None = None
        self.counts = {"corrupted": 0, "dropped": 0, "duplicated": 0, "reordered": 0,
                       "corrupted_rx": 0, "dropped_rx": 0}

    def _mangle(self, frame: bytes) -> bytes:
        data = bytearray(frame)
        for _ in range(self.rng.randint(1, 3)):
            data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
        return bytes(data)

    def _emit(self, frames: list[bytes]) -> None:
        f, out = self.faults, []
        for frame in frames:
            roll = self.rng.random()
            if roll < f.drop:
                self.counts["dropped"] += 1
                continue
            if roll < f.drop + f.corrupt:
                self.counts["corrupted"] += 1
                frame = self._mangle(frame)
            if self.rng.random() < f.duplicate:
                self.counts["duplicated"] += 1
                out.append(frame)
            if self._held_back is None and self.rng.random() < f.reorder:
                self.counts["reordered"] += 1
                self._held_back = frame
                continue
            out.append(frame)
            if self._held_back is not None:
                out.append(self._held_back)
                self._held_back = None
        self._write(b"".join(out))

    def _ingest(self, data: bytes) -> list[bytes]:
        # The host's bytes arrive in whatever chunks the pty gives; treat each chunk as a frame.
        roll = self.rng.random()
        if roll < self.faults.drop_rx:
            self.counts["dropped_rx"] += 1
            return []
        if roll < self.faults.drop_rx + self.faults.corrupt_rx:
            self.counts["corrupted_rx"] += 1
            data = self._mangle(data)
        return self.model.receive(data)

    def _flush(self) -> None:
        held, self._held_back = self._held_back, None
        if held is not None:
            self._write(held)

    def unplug(self) -> None:
        self._held_back = None
        super().unplug()
