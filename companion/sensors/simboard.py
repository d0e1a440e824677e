"""A sensor board in software, on a real pty, for the demo and the tests.

``SimBoard`` puts :class:`~companion.sensors.board.BoardModel` behind a pseudo
terminal, so the host opens it with pyserial exactly as it opens an Arduino:
``SensorLink("sim", ...)`` starts one, and the demo calls :meth:`SimBoard.drop`
when the simulated tower drops a drink. The board is reachable through a
symlink that survives :meth:`unplug`/:meth:`plug` (a new pty each time), the
way ``/dev/serial/by-id`` survives a real unplug.

Subclasses change :meth:`_emit` and :meth:`_ingest` to mangle the wire
(``fakeboard.FakeBoard``).
"""
from __future__ import annotations

import logging
import os
import select
import tempfile
import threading
import time
import tty
from pathlib import Path

from .board import BoardModel
from .codec import BEAM_IN, BEAM_OUT

log = logging.getLogger(__name__)
BEAMS = {"in": BEAM_IN, "out": BEAM_OUT, BEAM_IN: BEAM_IN, BEAM_OUT: BEAM_OUT}


class SimBoard:
    """A board speaking the real protocol over a pty, driven by :meth:`drop`."""

    def __init__(self, model: BoardModel | None = None, link: str | os.PathLike | None = None, **model_args):
        self.model = model or BoardModel(**model_args)
        self._own_dir = None
        if link is None:
            self._own_dir = tempfile.mkdtemp(prefix="tower-simboard-")
            link = Path(self._own_dir) / "tower-sensors"
        self.link = Path(link)
        self.lock = threading.RLock()
        self._master: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.muted = False  # True: the board stays silent (a hung board), reads still happen

    # --- life ------------------------------------------------------------------------------

    @property
    def path(self) -> str:
        """The stable name to open (a symlink to the current pty)."""
        return str(self.link)

    def start(self) -> str:
        self.plug()
        with self.lock:
            self._emit(self.model.boot_frames())
        self._thread = threading.Thread(target=self._run, name="simboard", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self.unplug()
        try:
            self.link.unlink()
        except FileNotFoundError:
            pass
        if self._own_dir:
            try:
                os.rmdir(self._own_dir)
            except OSError:
                pass

    def plug(self) -> None:
        """Attach a fresh pty behind the symlink (a cable plugged in)."""
        master, slave = os.openpty()
        tty.setraw(slave)
        name = os.ttyname(slave)
        os.close(slave)  # until the host opens it, what the board says is lost, as on a real cable
        os.set_blocking(master, False)
        tmp = self.link.with_name(self.link.name + ".new")
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        os.symlink(name, tmp)
        os.replace(tmp, self.link)
        with self.lock:
            self._master = master

    def unplug(self) -> None:
        """Close the pty: the host's next read or write fails, as after a yanked cable."""
        with self.lock:
            master, self._master = self._master, None
        if master is not None:
            os.close(master)

    # --- the tower ------------------------------------------------------------------------

    def drop(self, beam: str | int = "out", width_ms: float = 20.0, *, held: bool = False,
             colour: tuple[int, int, int, int] | None = None):
        """A drink passes a beam ('in' slot or 'out' chute); returns the event or None (ring full)."""
        with self.lock:
            return self.model.add_pass(BEAMS[beam], int(width_ms * 1000), held=held, colour=colour)

    def set_blocked(self, beam: str | int, blocked: bool) -> None:
        with self.lock:
            self.model.blocked[BEAMS[beam]] = blocked

    def heartbeat_now(self) -> int:
        """Send a heartbeat at once, on a clean wire, and return its frame's sequence number.

        For tests: the serial line keeps order, so a host whose last read frame is this one
        (or a later one) has handled everything the board sent before it. With the ring empty
        (every event acknowledged, nothing left to re-send) that is a barrier after which
        nothing more arrives until another drink passes a beam.
        """
        with self.lock:
            self._flush()
            seq = self.model.seq
            self._write(self.model.heartbeat_frame())
            return seq

    # --- the wire ----------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                time.sleep(0.01)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.005)
            except (OSError, ValueError):
                continue  # unplugged under our feet
            data = b""
            if ready:
                try:
                    data = os.read(master, 4096)
                except BlockingIOError:
                    pass
                except OSError:  # EIO: nobody has the port open
                    time.sleep(0.005)
            with self.lock:
                out = self._ingest(data) if data else []
                out += self.model.poll()
                if out:
                    self._emit(out)

    def _ingest(self, data: bytes) -> list[bytes]:
        return self.model.receive(data)

    def _emit(self, frames: list[bytes]) -> None:
        self._write(b"".join(frames))

    def _flush(self) -> None:
        """Send whatever the wire still holds back (nothing, on this one)."""

    def _write(self, data: bytes) -> None:
        if self.muted or not data:
            return
        master = self._master
        if master is None:
            return
        view = memoryview(data)
        deadline = time.monotonic() + 0.5
        while view:
            try:
                n = os.write(master, view)
                view = view[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return  # the host stopped reading: drop the rest, the board re-sends events
                select.select([], [master], [], 0.01)
            except OSError:
                return  # EIO: no host on the other end
