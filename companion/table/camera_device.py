"""A camera over the table's pieces, read in a thread of its own: what the board camera
(table/board_device.py) and the crate camera (table/crate_device.py) share.

The source (``open_camera(spec)``, the composition root's, which knows ``sim``) is read through
``vision.sources.LatestFrame`` (only the newest frame, at most ``fps`` a second, resting while
nothing is wanted); each frame is read by the device's reader and the reading handed to the game
the camera feeds. The reader is made on the first frame (and again when the calibration is saved
anew); a frame given again bit for bit (a simulated still scene's copies) has the reading it had
(for the gate's REREAD_S: the reader may read it better later),
and so has a frame that shows nothing new since the last one read (``frame_gate.FrameGate``: a
real camera's noise never repeats, while the pieces stand still most of a game).
A failing camera or reader never stops the service: it shows as a problem code in the views
(``camera_error``, ``calibrate``) and the game goes on by taps. The picture for the dashboards is
published at most every PUBLISH_S. A subclass says how its reader is made, whom the readings go
to, what its picture shows, and what the simulated players' hands copy onto a simulated camera.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from .frame_gate import FrameGate

log = logging.getLogger(__name__)

PUBLISH_S = 0.5          # the picture with the pieces drawn, at most this often
LOOKED_AT_S = 10.0       # the picture (or a calibration) asked for keeps the camera awake this long
WAKE_WAIT_S = 2.0        # how long the calibration page's request waits for a resting camera's frame
SAME_FRAMES = 4          # readings kept by their frame's digest: a frame given again is not read again
PICTURE_WIDTH = 1000     # px across the published picture at most


class CameraDevice:
    """A camera's thread (see the module). ``tables``: whom the readings go to (Tables);
    ``open_camera(spec)``: the source; ``data_dir``: where the calibration is kept (CALIBRATION_FILE);
    ``follow_s``: on a simulated table, a move made elsewhere is copied onto the simulated camera's
    pieces this long after it (None: never); ``fps``: the readings a second at most."""

    NAME = "camera"                 # in the log and the problems' words
    CALIBRATION_FILE = "calibration.json"
    SIM_METHOD = "set"              # what a simulated source has that a real one has not

    def __init__(self, tables: Any, spec: str, open_camera: Callable[[str], Any] | None = None,
                 data_dir: str | Path | None = None, follow_s: float | None = None, fps: float = 4.0):
        self.tables, self.spec, self.follow_s = tables, spec, follow_s
        self.fps = float(fps)
        self._followed: tuple | None = None   # the position (game, step) copied onto the pieces last
        self.open_camera = open_camera
        self.calibration_path = Path(data_dir) / self.CALIBRATION_FILE if data_dir is not None else None
        self.simulated = spec.startswith("sim")
        self.source = None
        self._opened = threading.Event()   # set once the camera is open (or failed to open)
        self.frames = None
        self.reader = None
        self.error: str | None = None          # the camera or the reader failed: camera_error
        self.uncalibrated: str | None = None   # no calibration to read with: calibrate
        self.last: Any = None
        self.read_frames = 0
        self.repeated_frames = 0               # frames given again (a simulated still scene's copies)
        self.unchanged_frames = 0              # frames that showed nothing new since the last one read
        self.gate = FrameGate()
        self.failed_frames = 0
        self._readings: OrderedDict[tuple, Any] = OrderedDict()   # (frame digest, what was asked) -> (reading, when read)
        self._latest: np.ndarray | None = None
        self._latest_at = float("-inf")       # when it was taken (monotonic)
        self._jpeg: bytes | None = None
        self._published = 0.0
        self._looked_at = 0.0
        self._reload = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    # --- what a subclass says ------------------------------------------------------------------

    def in_play(self) -> Any:
        """The session the camera reads for now (None: it rests)."""
        raise NotImplementedError

    def route(self, reading: Any, at: float) -> None:
        """Hand a reading to the game the camera reads for."""
        raise NotImplementedError

    def build_reader(self, frame: np.ndarray) -> None:
        """Make ``self.reader`` (or set ``self.uncalibrated``, saying what to do)."""
        raise NotImplementedError

    def asked_now(self) -> Any:
        """What the reader is asked to look for in the next frame (the landing camera: the drinks
        the game waits for), or None: the reader reads whatever it sees (``reader.read(image)``)."""
        return None

    def picture(self, image: np.ndarray, reading: Any) -> np.ndarray:
        """The picture for the dashboards (the frame as it is, by default)."""
        return image

    def watch_of(self, session: Any) -> Any:
        """The session's watch this camera feeds (for following the game)."""
        raise NotImplementedError

    def follow(self, session: Any) -> None:
        """Copy the game onto the simulated camera's pieces."""
        raise NotImplementedError

    # --- life ---------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=self.NAME, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.frames is not None:
            self.frames.close()
        if self.source is not None:
            try:
                self.source.close()
            except Exception:
                log.exception("%s: closing the source failed", self.NAME)

    # --- what others ask -----------------------------------------------------------------------

    def status_for_view(self) -> dict:
        """The camera as the games' views show it (table/watch.py's to_json)."""
        problem = None
        if self.error:
            problem = {"code": "camera_error", "params": {"detail": self.error[:200]}}
        elif self.uncalibrated:
            problem = {"code": "calibrate", "params": {"detail": self.uncalibrated[:200]}}
        return {"present": True, "simulated": self.simulated, "problem": problem}

    def status(self) -> dict:
        """For the devices' status: the source, how many frames were read (``read``: by the
        reader; ``repeated``, ``unchanged``: given the reading of the same or a like frame) and how
        it rests."""
        return {"spec": self.spec, "simulated": self.simulated, "error": self.error, "fps": self.fps,
                "calibrated": self.uncalibrated is None and self.reader is not None,
                "source": self.source.status() if self.source is not None else None,
                "frames": self.frames.status() if self.frames is not None else None,
                "read": self.read_frames, "repeated": self.repeated_frames, "unchanged": self.unchanged_frames,
                "failed": self.failed_frames,
                "idle": bool(self.frames is not None and self.frames.idle)}

    def latest_frame(self, wait_s: float = WAKE_WAIT_S) -> np.ndarray | None:
        """The newest frame as the camera gave it (for a calibration page). Asking wakes a resting
        camera for a while; a frame older than that is waited for (``wait_s`` at most)."""
        asked = self._looked_at = time.monotonic()
        deadline = asked + wait_s
        while self._latest_at < asked - LOOKED_AT_S and time.monotonic() < deadline and not self._stop.is_set():
            time.sleep(0.05)
        with self._lock:
            return None if self._latest is None else self._latest.copy()

    def frame_jpeg(self) -> bytes | None:
        """The latest picture with the pieces read drawn on it (None: none yet)."""
        self._looked_at = time.monotonic()
        with self._lock:
            return self._jpeg

    def reload_calibration(self) -> None:
        """The calibration was saved anew: the camera's thread makes its reader again."""
        self._looked_at = time.monotonic()
        self._reload.set()

    def simulated_camera(self, wait: float = 0.0) -> Any | None:
        """The simulated camera, or None for a real one. ``wait``: seconds to give a simulated
        camera still being opened (it draws its scene first), so that a call right after the start
        finds it."""
        if wait > 0 and self.simulated:
            self._opened.wait(wait)
        source = self.source
        return source if self.simulated and source is not None and hasattr(source, self.SIM_METHOD) else None

    def _follow_when_due(self) -> None:
        """Copy a move made on the dashboard onto the simulated pieces, ``follow_s`` after it."""
        if self.follow_s is None or self.simulated_camera() is None:
            return
        session = self.in_play()
        watch = self.watch_of(session) if session is not None and session.simulated else None
        if watch is None or watch.cause != "dashboard" or watch.todo_since is None:
            return
        # A second or two after the latest move made elsewhere (computer players may make several).
        if time.monotonic() - max(watch.todo_since, watch.moved_at or 0.0) < self.follow_s:
            return
        position = (session.id, session.step)
        if position == self._followed:
            return
        self._followed = position
        self.follow(session)

    # --- inside --------------------------------------------------------------------------------

    def _wanted(self) -> bool:
        return self.in_play() is not None or time.monotonic() - self._looked_at < LOOKED_AT_S

    def _loop(self) -> None:
        from ..vision.sources import LatestFrame, open_source

        try:
            self.source = (self.open_camera or open_source)(self.spec)
            self.frames = LatestFrame(self.source, fps=self.fps, wanted=self._wanted, name=f"{self.NAME} reader")
        except Exception as exc:  # the game goes on by taps
            self.error = f"the {self.NAME} cannot be opened: {exc}"
            log.error("%s: %s", self.NAME, exc)
            return
        finally:
            self._opened.set()
        while not self._stop.is_set():
            frame = self.frames.take(timeout=0.5)
            if frame is None:
                self._source_state()
                continue
            with self._lock:
                self._latest, self._latest_at = frame.image, frame.at
            try:
                if self.reader is None or self._reload.is_set():
                    self._reload.clear()
                    self.reader, self.uncalibrated = None, None
                    self._readings.clear()
                    self.gate.forget()
                    self.build_reader(frame.image)
                if self.reader is None:
                    self._publish(frame.image, None)
                    continue
                reading = self._read(frame.image, frame.at)
                self.last = reading
                self.error = None
                self.route(reading, frame.at)
                self._publish(frame.image, reading)
                self._follow_when_due()
            except Exception as exc:   # a bad frame or a reader's fault: shown, never fatal
                self.failed_frames += 1
                self.error = f"reading the frame failed: {type(exc).__name__}: {exc}"
                log.exception("%s: reading a frame failed", self.NAME)

    def _read(self, image: np.ndarray, at: float) -> Any:
        """The reader's reading of ``image`` (taken at ``at``, monotonic); a frame the camera gives
        again bit for bit (the simulated camera shows a still scene as a few noisy copies in
        turn) has the reading it had: the same pixels read the same, for nothing. So has a frame
        in which nothing moved since the last one read (``self.gate``)."""
        asked = self.asked_now()
        key = (hashlib.blake2b(np.ascontiguousarray(image).data, digest_size=16).digest(), asked)
        known = self._readings.get(key)
        # a copy seen before has its reading while the frame gate would keep one (REREAD_S): a
        # reader that learns from the frames it reads (the crate reader's camera, from its frames'
        # grids) reads the same pixels better later; kept for ever, a still scene's few copies kept
        # the readings of the reader's first frames, which may never settle (58th session)
        if known is not None and at - known[1] < self.gate.reread_s:
            self._readings.move_to_end(key)
            self.repeated_frames += 1
            return known[0]
        known = self.gate.known(image, asked, at)
        if known is not None:
            self.unchanged_frames += 1
            return known
        reading = self.reader.read(image) if asked is None else self.reader.read(image, asked)
        self.read_frames += 1
        self.gate.remember(image, asked, at, reading)
        self._readings[key] = (reading, at)
        self._readings.move_to_end(key)
        while len(self._readings) > SAME_FRAMES:
            self._readings.popitem(last=False)
        return reading

    def _source_state(self) -> None:
        status = self.source.status() if self.source is not None else {}
        if status.get("state") not in (None, "ok", "opening") and not (self.frames and self.frames.idle):
            self.error = status.get("error") or f"the {self.NAME} is {status.get('state')}"

    def _publish(self, image: np.ndarray, reading: Any) -> None:
        """The picture for the dashboards, at most every PUBLISH_S."""
        now = time.monotonic()
        if now - self._published < PUBLISH_S:
            return
        self._published = now
        try:
            picture = self.picture(image, reading)
        except Exception:
            log.exception("%s: drawing the picture failed", self.NAME)
            picture = image
        if picture.shape[1] > PICTURE_WIDTH:
            scale = PICTURE_WIDTH / picture.shape[1]
            picture = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._lock:
                self._jpeg = buf.tobytes()
