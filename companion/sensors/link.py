"""The host end of the serial link: every drop the board saw, once, and nothing else.

``SensorLink`` owns one background thread that opens the port, waits for the
board's HELLO (opening an Uno resets it), checks the protocol version and
schema, and then turns each new EVENT into an ``Observation``. The promise:

- An event is acknowledged only after ``on_observation`` has returned, i.e.
  after the caller has committed it. If the callback raises, no ACK goes out
  and the board sends the event again later.
- A duplicate (same boot id and event id: a re-send after a lost ACK, a frame
  doubled on the wire) is acknowledged again but never delivered twice. Across a
  restart of the host, the store says what it holds of a boot (``committed``).
- A frame that fails its CRC, its stuffing or its length is counted and
  dropped; nothing a board or a cable sends can raise out of the thread.
- When an event's running totals, or a heartbeat's, say passes are missing,
  the host asks for the full state, which makes the board re-send at once.
  Passes the board could not keep (its ring was full) arrive as one
  low-confidence observation with the count but no details.
- I/O errors close the port and the thread reconnects with backoff forever,
  re-running discovery for ``auto``. Silence is not an I/O error: after three
  missed heartbeats the link shows "disconnected" but keeps the port open
  (reopening would reset an Uno and lose what its RAM still holds); after a
  longer silence it reopens the port, which also revives a hung board.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from ..observation import Observation
from . import codec
from .codec import (BEAM_IN, BEAM_NAMES, BEAM_OUT, F_COLOUR, F_DOUBLE, F_HELD, F_RESENT,
                    PROTOCOL_VERSION, SCHEMA_HASH, Ack, Event, Frame, FrameError, Hello, HelloAck,
                    HelloReq, State, StateReq)
from .ports import describe_search, discover, parse_spec

log = logging.getLogger(__name__)

HEARTBEAT_S = 1.0
DOUBLE_CONFIDENCE = 0.6   # a person confirms a pass that looked like two drinks
LOST_CONFIDENCE = 0.5     # passes counted by the board whose details it could not keep


class _Seen:
    """Event ids delivered for one boot: a floor below which all are done, plus the stragglers."""

    def __init__(self):
        self.floor = 1
        self.above: set[int] = set()

    def __contains__(self, event_id: int) -> bool:
        return event_id < self.floor or event_id in self.above

    def add(self, event_id: int) -> None:
        self.above.add(event_id)
        while self.floor in self.above:
            self.above.discard(self.floor)
            self.floor += 1


@dataclass
class _Boot:
    """What the host has delivered for one power-on of the board."""

    boot_id: int
    seen: _Seen = field(default_factory=_Seen)
    delivered: list[int] = field(default_factory=lambda: [0, 0])  # passes, by beam
    lost: list[int] = field(default_factory=lambda: [0, 0])       # passes delivered without details
    before: list[int] = field(default_factory=lambda: [0, 0])     # passes another host took (see rebase)
    uptime_ms: int = 0

    def accounted(self, beam: int) -> int:
        return self.delivered[beam] + self.lost[beam] + self.before[beam]

    def missing(self, total_in: int, total_out: int) -> bool:
        return self.accounted(BEAM_IN) < total_in or self.accounted(BEAM_OUT) < total_out

    def rebase(self, total_in: int, total_out: int) -> None:
        """The board holds nothing unacknowledged, so every pass in its totals was committed,
        if not by us then by a host before us (a restarted companion): count those as done."""
        for beam, total in ((BEAM_IN, total_in), (BEAM_OUT, total_out)):
            self.before[beam] += max(0, total - self.accounted(beam))


@dataclass(frozen=True)
class BoardBooks:
    """What a store already holds of one power-on of a board, by what only the board knows:
    the ids of the events committed, and the board's cumulative count of dropped passes
    (in, out) in the latest lost-pass report committed."""

    event_ids: frozenset[int] = frozenset()
    dropped: tuple[int, int] = (0, 0)


class _Closed(Exception):
    """Raised inside the session to reopen the port."""


class SensorLink:
    """Reads one sensor board and reports what it saw; see the module docstring.

    ``port`` is a device path, ``auto``, ``usb:VID:PID[:SERIAL]`` or ``sim``
    (a simulated board on a pty, reachable as ``self.simboard`` for the demo).
    ``on_observation(obs)`` is called from the link's thread for every new
    event; the event is acknowledged after it returns. ``commit(record)``, if
    given, receives a dict each time the link's status changes in a way worth
    logging or pushing to dashboards (connected, refused, disconnected, beams
    or totals changed); exceptions from either callback are logged and never
    stop the link. ``committed(boot_id)``, if given, is asked once for each boot
    this link meets (``boot_id`` is the 8-digit hex string found in
    ``obs.detail``) and answers a :class:`BoardBooks`: what a companion before this
    one committed. Its events are acknowledged without a second delivery (one
    committed just before a crash comes again, its ACK never sent), and only the
    passes dropped since its lost-pass report are reported: the host's books
    equal the board's after any number of restarts.

    ``status()`` also says what the board last reported of its ring (``unacked``:
    events it holds until they are acknowledged, from its latest heartbeat or
    state) and counts what the link has read (``link``: frames, the sequence
    number of the last intact one, heartbeats, duplicates, ...). A test can
    wait on these for proof that everything before a point was handled.
    """

    def __init__(self, port: str, on_observation: Callable[[Observation], None],
                 commit: Callable[[dict], None] | None = None, baud: int = 115200, *,
                 heartbeat_timeout: float = 3 * HEARTBEAT_S + 0.25, reopen_after: float = 10.0,
                 backoff: tuple[float, float] = (0.2, 5.0), hello_wait: float = 0.5,
                 committed: Callable[[str], BoardBooks] | None = None):
        self.spec = parse_spec(port)  # raises PortSpecError for nonsense, before any thread starts
        self.port = port
        self.on_observation, self.commit, self.baud = on_observation, commit, baud
        self.heartbeat_timeout, self.reopen_after = heartbeat_timeout, reopen_after
        self.backoff, self.hello_wait = backoff, hello_wait
        self.committed = committed
        self.simboard = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial = None
        self._seq = 0
        self._boots: dict[int, _Boot] = {}
        self._boot: _Boot | None = None  # the boot whose HELLO we accepted on this connection
        self._status = {"state": "disconnected", "port": None, "firmware": None, "protocol": None,
                        "boot_id": None, "beams": {"in": False, "out": False},
                        "totals": {"in": 0, "out": 0}, "unacked": None, "error": None}
        self._last_heartbeat: float | None = None
        self._rx_seq: int | None = None
        # last_seq: the sequence number of the last intact frame read and handled (refused ones too);
        # heartbeats: HEARTBEAT and STATE frames handled from the accepted board
        self.stats = {"frames": 0, "frames_missed": 0, "bad_frames": {}, "delivered": 0, "duplicates": 0,
                      "state_requests": 0, "reconnects": 0, "callback_errors": 0, "last_seq": None,
                      "heartbeats": 0}
        self._last_state_req = 0.0
        self._last_hello_req = 0.0

    # --- public -------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread and self._thread.is_alive():
            return
        self._stop.clear()
        if self.spec.kind == "sim" and self.simboard is None:
            from .simboard import SimBoard

            try:
                self.simboard = SimBoard()
                self.simboard.start()
            except OSError as exc:  # no ptys here: the link stays disconnected, the game goes on
                self.simboard = None
                self._set(state="disconnected", error=f"cannot start the simulated board: {exc}")
        self._thread = threading.Thread(target=self._run, name=f"sensor-link {self.port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=3)
        self._close()
        if self.simboard is not None:
            self.simboard.stop()
            self.simboard = None
        self._set(state="disconnected")

    def status(self) -> dict:
        with self._lock:
            s = {**self._status, "beams": dict(self._status["beams"]), "totals": dict(self._status["totals"])}
            last = self._last_heartbeat
            s["link"] = {**self.stats, "bad_frames": dict(self.stats["bad_frames"])}
        s["last_heartbeat"] = None if last is None else round(time.monotonic() - last, 3)
        return s

    # --- the thread ------------------------------------------------------------------------------

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                path = self._resolve()
            except Exception as exc:  # discovery must never kill the thread
                path, why = None, f"cannot list serial ports: {exc}"
            else:
                why = describe_search(self.spec) if path is None else None
            if path is None:
                self._set(state="disconnected", error=why)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            self._set(state="connecting", port=path)
            try:
                self._serial = self._open(path)
            except Exception as exc:
                self._set(state="disconnected", error=f"cannot open {path}: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay = self.backoff[0]
            try:
                self._session()
            except _Closed as exc:
                self._set(state="disconnected", error=str(exc))
            except Exception as exc:  # SerialException, OSError, anything a dying port raises
                log.info("sensor link %s: %s", path, exc)
                self._set(state="disconnected", error=f"lost the board on {path}: {exc}")
            finally:
                self._close()
                self._boot = None
            if not self._stop.is_set():
                self.stats["reconnects"] += 1
                self._notify("disconnected")
                self._stop.wait(delay)

    def _resolve(self) -> str | None:
        kind = self.spec.kind
        if kind == "path":
            return self.spec.path
        if kind == "sim":
            return self.simboard.path if self.simboard else None
        found = discover(self.spec)
        return found[0] if found else None

    def _open(self, path: str):
        import serial

        return serial.Serial(path, self.baud, timeout=0.05, write_timeout=1.0)

    def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass

    def _session(self) -> None:
        """One open port: handshake, then frames until an error or stop()."""
        ser = self._serial
        decoder = codec.Decoder()
        self._rx_seq = None
        opened = time.monotonic()
        self._last_rx = opened
        self._last_hello_req = 0.0
        while not self._stop.is_set():
            data = ser.read(ser.in_waiting or 1)
            for item in decoder.feed(data):
                self._handle(item)
            now = time.monotonic()
            state = self._status["state"]
            if self._boot is None and state != "refused" and now - opened >= self.hello_wait:
                self._ask_hello(now)
            silent = now - self._last_rx
            if state == "connected" and silent > self.heartbeat_timeout:
                self._set(state="disconnected",
                          error=f"the board stopped talking: no heartbeat for {silent:.1f} s")
                self._notify("disconnected")
            if silent > self.reopen_after:
                port = self._status["port"]
                if self._boot is None and state == "connecting":
                    raise _Closed(f"nothing on {port} answers like a tower sensor board; trying again")
                raise _Closed(f"no word from the board for {silent:.0f} s; reopening {port}")

    # --- frames ------------------------------------------------------------------------------------

    def _handle(self, item: Frame | FrameError) -> None:
        if isinstance(item, FrameError):
            bad = self.stats["bad_frames"]
            bad[item.code] = bad.get(item.code, 0) + 1
            if item.code == "version":
                self._last_rx = time.monotonic()  # a board is talking, just not our language
            if item.code == "version" and item.frame is not None and item.frame.type == Hello.TYPE:
                self._refuse(f"the board speaks protocol version {item.frame.version}; this companion "
                             f"speaks version {PROTOCOL_VERSION}. Update the companion or flash the "
                             f"firmware that comes with it (firmware/).")
            if item.code == "version" and item.frame is not None:
                self.stats["last_seq"] = item.frame.seq  # read intact, just not in our language
            return
        self.stats["frames"] += 1
        # Sequence numbers only measure the cable (lost frames); no decision rests on them.
        if self._rx_seq is not None:
            gap = (item.seq - self._rx_seq - 1) & 0xFFFF
            if 0 < gap < 1024:
                self.stats["frames_missed"] += gap
        self._rx_seq = item.seq
        message = item.message()
        if isinstance(message, Hello):
            self._on_hello(message)
        elif isinstance(message, State):  # HEARTBEAT or STATE
            self._on_state(message)
        elif isinstance(message, Event):
            self._on_event(message)
        # host-to-board types echoed back (a loopback cable) are ignored
        self.stats["last_seq"] = item.seq  # after handling: whatever came before it is done

    def _refuse(self, why: str) -> None:
        self._last_rx = time.monotonic()
        if self._status["state"] != "refused" or self._status["error"] != why:
            log.warning("sensor link: %s", why)
            self._boot = None
            self._set(state="refused", error=why)
            self._notify("refused")

    def _on_hello(self, hello: Hello) -> None:
        self._last_rx = time.monotonic()
        if hello.schema != SCHEMA_HASH:
            self._refuse(f"the board speaks protocol version {PROTOCOL_VERSION} but with a different message "
                         f"layout (schema {hello.schema:08x}, expected {SCHEMA_HASH:08x}); flash the firmware "
                         f"that comes with this companion (firmware/)")
            return
        book = self._boots.get(hello.boot_id)
        reset = book is not None and hello.uptime_ms + 2000 < book.uptime_ms
        if reset:
            log.warning("sensor link: boot id %08x came back after a reset; starting its books again", hello.boot_id)
            book = None
        if book is None:
            try:  # what the store holds of this boot (not of a reset board's earlier power-on)
                book = _Boot(hello.boot_id) if reset else self._new_book(hello.boot_id)
            except Exception as exc:  # no HELLO_ACK: the board says HELLO again and we ask again
                self.stats["callback_errors"] += 1
                log.exception("sensor link: could not read what the store holds of boot %08x", hello.boot_id)
                self._set(error=f"could not read what the store holds of this board ({exc}); trying again")
                return
            self._boots[hello.boot_id] = book
            while len(self._boots) > 8:
                self._boots.pop(next(iter(self._boots)))
            self._set(totals={"in": 0, "out": 0})
        book.uptime_ms = max(book.uptime_ms, hello.uptime_ms)
        self._boot = book
        self._send(HelloAck(hello.boot_id))
        self._set(state="connected", firmware=hello.firmware, protocol=PROTOCOL_VERSION,
                  boot_id=f"{hello.boot_id:08x}", error=None,
                  colour_sensor=bool(hello.caps & codec.CAP_COLOUR))
        self._notify("connected")

    def _on_state(self, state: State) -> None:
        book = self._boot
        if book is None or state.boot_id != book.boot_id:
            self._ask_hello(time.monotonic())
            return
        now = time.monotonic()
        self._last_rx = now
        book.uptime_ms = max(book.uptime_ms, state.uptime_ms)
        back = self._status["state"] != "connected"
        changed = self._set(state="connected", error=None,
                            beams={"in": state.beam_in, "out": state.beam_out},
                            totals={"in": state.total_in, "out": state.total_out})
        lost = [state.dropped_in - book.lost[BEAM_IN], state.dropped_out - book.lost[BEAM_OUT]]
        if lost[0] > 0 or lost[1] > 0:
            self._deliver_lost(book, state, [max(0, n) for n in lost])
        if book.missing(state.total_in, state.total_out):
            if state.unacked:
                self._ask_state(now)
            else:
                book.rebase(state.total_in, state.total_out)
        with self._lock:  # together, once the heartbeat is handled: its time, its word on the ring
            self._last_heartbeat = now
            self._status["unacked"] = state.unacked
            self.stats["heartbeats"] += 1
        if changed:
            self._notify("connected" if back else "heartbeat")

    def _deliver_lost(self, book: _Boot, state: State, lost: list[int]) -> None:
        obs = Observation(source="sensors", kind="beams", passes_in=lost[BEAM_IN], passes_out=lost[BEAM_OUT],
                          confidence=LOST_CONFIDENCE,
                          detail={"boot_id": f"{book.boot_id:08x}", "event_id": None, "lost_details": True,
                                  # cumulative: a store can tell a repeat after a companion restart
                                  "dropped": {"in": state.dropped_in, "out": state.dropped_out},
                                  "why": "the board's event buffer was full: it counted these passes "
                                         "but could not keep their details",
                                  "totals": {"in": state.total_in, "out": state.total_out}})
        if self._call(obs):
            book.lost[BEAM_IN] += lost[BEAM_IN]
            book.lost[BEAM_OUT] += lost[BEAM_OUT]

    def _on_event(self, event: Event) -> None:
        book = self._boot
        if book is None or event.boot_id != book.boot_id:
            self._ask_hello(time.monotonic())  # the board kept our session but we lost its HELLO
            return
        self._last_rx = time.monotonic()
        if event.beam not in (BEAM_IN, BEAM_OUT) or event.count not in (1, 2):
            self.stats["bad_frames"]["value"] = self.stats["bad_frames"].get("value", 0) + 1
            return
        if event.event_id in book.seen:
            self.stats["duplicates"] += 1
            self._send(Ack(event.boot_id, event.event_id))  # our earlier ACK was lost
            return
        if not self._call(self._observation(event)):
            return  # not committed: no ACK, the board sends it again
        book.seen.add(event.event_id)
        book.delivered[event.beam] += event.count
        self.stats["delivered"] += 1
        self._send(Ack(event.boot_id, event.event_id))
        self._set(totals={"in": max(event.total_in, self._status["totals"]["in"]),
                          "out": max(event.total_out, self._status["totals"]["out"])})
        if book.missing(event.total_in, event.total_out):
            self._ask_state(time.monotonic())

    def _observation(self, event: Event) -> Observation:
        beam = BEAM_NAMES[event.beam]
        double = bool(event.flags & F_DOUBLE)
        colour = ({"r": event.r, "g": event.g, "b": event.b, "c": event.c}
                  if event.flags & F_COLOUR else None)
        return Observation(
            source="sensors", kind="beams",
            passes_in=event.count if event.beam == BEAM_IN else 0,
            passes_out=event.count if event.beam == BEAM_OUT else 0,
            confidence=DOUBLE_CONFIDENCE if double else 1.0,
            detail={"boot_id": f"{event.boot_id:08x}", "event_id": event.event_id, "beam": beam,
                    "t_ms": event.t_ms, "width_us": event.width_us, "median_us": event.median_us or None,
                    "double": double, "held": bool(event.flags & F_HELD), "colour": colour,
                    "resent": bool(event.flags & F_RESENT),
                    "totals": {"in": event.total_in, "out": event.total_out}})

    # --- helpers -------------------------------------------------------------------------------------

    def _new_book(self, boot_id: int) -> _Boot:
        """The books of a boot met for the first time, opened where the store left them."""
        book = _Boot(boot_id)
        if self.committed is None:
            return book
        known = self.committed(f"{boot_id:08x}")
        for event_id in sorted(known.event_ids):
            book.seen.add(event_id)
        book.lost = list(known.dropped)
        return book

    def _call(self, obs: Observation) -> bool:
        try:
            self.on_observation(obs)
            return True
        except Exception as exc:
            self.stats["callback_errors"] += 1
            log.exception("sensor link: on_observation failed; the board will send the event again")
            self._set(error=f"could not record a sensor event ({exc}); it will be retried")
            return False

    def _notify(self, what: str) -> None:
        if self.commit is None:
            return
        try:
            self.commit({"type": "sensor_link", "what": what, "status": self.status()})
        except Exception:
            log.exception("sensor link: the commit callback failed")

    def _ask_hello(self, now: float) -> None:
        if now - self._last_hello_req >= 1.0:
            self._last_hello_req = now
            self._send(HelloReq())

    def _ask_state(self, now: float) -> None:
        if now - self._last_state_req >= 0.25:
            self._last_state_req = now
            self.stats["state_requests"] += 1
            self._send(StateReq())

    def _send(self, message) -> None:
        ser = self._serial
        if ser is None:
            return
        data = codec.encode(message, self._seq)
        self._seq = (self._seq + 1) & 0xFFFF
        ser.write(data)  # an error here ends the session; the board re-sends what was not acked

    def _set(self, **changes) -> bool:
        with self._lock:
            changed = any(self._status.get(k) != v for k, v in changes.items())
            self._status.update(changes)  # firmware and boot id stay shown after a disconnect
        return changed
