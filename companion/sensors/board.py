"""The firmware's protocol logic in Python, for boards that exist only in software.

``BoardModel`` behaves like ``firmware/tower_sensors/tower_sensors.ino`` above
the pins: a ring of events kept until acknowledged and re-sent until then,
HELLO at boot and until the host answers, a heartbeat with beams and totals,
the double-drink flag from a running median. It does no I/O: it takes bytes
from the host and hands back encoded frames, so ``simboard`` can put it behind
a pty for the demo and ``fakeboard`` can mangle what it says for the tests.
It follows the firmware, never the other way round; the simavr tests check
the real firmware.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from . import codec
from .codec import (BEAM_IN, BEAM_OUT, F_COLOUR, F_DOUBLE, F_HELD, F_RESENT, PROTOCOL_VERSION,
                    SCHEMA_HASH, Ack, Event, Frame, FrameError, Hello, HelloAck, HelloReq, State,
                    Heartbeat, StateReq)

FIRMWARE = (1, 0, 0)
MEDIAN_N, MEDIAN_MIN = 9, 3


@dataclass
class _Slot:
    event: Event
    sent_at: float | None = None
    due: bool = True


class BoardModel:
    """One board's state between power-on and power-off (a reset is a new model)."""

    def __init__(self, *, boot_id: int | None = None, ring_size: int = 16, resend_s: float = 0.5,
                 heartbeat_s: float = 1.0, version: int = PROTOCOL_VERSION, schema: int = SCHEMA_HASH,
                 colour_sensor: bool = False, clock: Callable[[], float] = time.monotonic):
        self.boot_id = boot_id if boot_id is not None else random.getrandbits(32) or 1
        self.ring_size, self.resend_s, self.heartbeat_s = ring_size, resend_s, heartbeat_s
        self.version, self.schema, self.colour_sensor = version, schema, colour_sensor
        self.clock = clock
        self.booted = clock()
        self.ring: dict[int, _Slot] = {}
        self.next_event_id = 1
        self.totals = [0, 0]
        self.dropped = [0, 0]
        self.blocked = [False, False]
        self.widths: list[list[int]] = [[], []]
        self.session_open = False
        self.seq = 0
        self.last_beat = self.booted
        self.decoder = codec.Decoder()

    # --- what the pins would do ---------------------------------------------------------

    def uptime_ms(self) -> int:
        return int((self.clock() - self.booted) * 1000) & 0xFFFFFFFF

    def add_pass(self, beam: int, width_us: int, *, held: bool = False,
                 colour: tuple[int, int, int, int] | None = None, t_ms: int | None = None) -> Event | None:
        """A drink went through a beam; returns the event, or None when the ring was full."""
        flags, count = (F_HELD if held else 0), 1
        widths = self.widths[beam]
        # as the firmware does it: upper middle of the sorted widths, integer ratio 17/10
        median = sorted(widths)[len(widths) // 2] if len(widths) >= MEDIAN_MIN else 0
        if not held:
            if median and width_us > median // 10 * 17:
                flags, count = flags | F_DOUBLE, 2
            else:
                widths.append(width_us)
                del widths[:-MEDIAN_N]
        self.totals[beam] += count
        if len(self.ring) >= self.ring_size:
            self.dropped[beam] += count
            return None
        r = g = b = c = 0
        if colour is not None and beam == BEAM_OUT and self.colour_sensor:
            flags |= F_COLOUR
            r, g, b, c = colour
        event = Event(self.boot_id, self.next_event_id, beam, flags, count,
                      self.uptime_ms() if t_ms is None else t_ms, width_us, median,
                      self.totals[BEAM_IN], self.totals[BEAM_OUT], r, g, b, c)
        self.ring[event.event_id] = _Slot(event)
        self.next_event_id += 1
        return event

    @property
    def ring_free(self) -> int:
        return self.ring_size - len(self.ring)

    # --- the serial side ------------------------------------------------------------------

    def boot_frames(self) -> list[bytes]:
        return [self._frame(self._hello())]

    def heartbeat_frame(self) -> bytes:
        """A heartbeat, as the 1 Hz beat sends it (the beat's own timing is left alone)."""
        return self._frame(self._state(Heartbeat))

    def receive(self, data: bytes) -> list[bytes]:
        """Bytes from the host; returns the frames the board answers with."""
        out: list[bytes] = []
        for item in self.decoder.feed(data):
            if isinstance(item, FrameError):
                continue
            try:
                message = item.message()
            except FrameError:
                continue
            if isinstance(message, HelloReq):
                self.session_open = False
                out.append(self._frame(self._hello()))
            elif isinstance(message, HelloAck):
                if message.boot_id == self.boot_id:
                    self.session_open = True
                    self._all_due()
            elif isinstance(message, Ack):
                if message.boot_id == self.boot_id:
                    self.ring.pop(message.event_id, None)
            elif isinstance(message, StateReq):
                out.append(self._frame(self._state(State)))
                self._all_due()
        return out

    def poll(self, max_events: int = 4) -> list[bytes]:
        """Whatever is due now: HELLO until answered, the heartbeat, events to (re)send."""
        now = self.clock()
        out: list[bytes] = []
        if now - self.last_beat >= self.heartbeat_s:
            self.last_beat += self.heartbeat_s
            if now - self.last_beat >= self.heartbeat_s:
                self.last_beat = now
            if not self.session_open:
                out.append(self._frame(self._hello()))
            out.append(self.heartbeat_frame())
        if self.session_open:
            for event_id in sorted(self.ring)[:self.ring_size]:
                slot = self.ring[event_id]
                if slot.due or slot.sent_at is None or now - slot.sent_at >= self.resend_s:
                    out.append(self._frame(slot.event))
                    slot.sent_at, slot.due = now, False
                    if not slot.event.flags & F_RESENT:
                        slot.event = Event(**{**slot.event.to_dict(), "flags": slot.event.flags | F_RESENT})
                    max_events -= 1
                    if max_events <= 0:
                        break
        return out

    # --- frames -------------------------------------------------------------------------------

    def _hello(self) -> Hello:
        return Hello(self.boot_id, self.schema, *FIRMWARE, codec.CAP_COLOUR if self.colour_sensor else 0,
                     self.ring_size, self.uptime_ms())

    def _state(self, cls: type[State]) -> State:
        beams = (1 if self.blocked[BEAM_IN] else 0) | (2 if self.blocked[BEAM_OUT] else 0)
        return cls(self.boot_id, self.uptime_ms(), beams, self.totals[BEAM_IN], self.totals[BEAM_OUT],
                   self.next_event_id, min(len(self.ring), 255), self.dropped[BEAM_IN] & 0xFFFF,
                   self.dropped[BEAM_OUT] & 0xFFFF)

    def _frame(self, message) -> bytes:
        data = codec.encode_frame(Frame(self.version, message.TYPE, self.seq, message.pack()))
        self.seq = (self.seq + 1) & 0xFFFF
        return data

    def _all_due(self) -> None:
        for slot in self.ring.values():
            slot.due = True
