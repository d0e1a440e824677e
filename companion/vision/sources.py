"""Camera sources: a USB camera, a video or image file, a network stream. (The simulated table's
camera is a FrameSource of companion/sim/camera.py, which ``companion serve`` wires in.)

``open_source(spec)`` never raises for a camera that is missing or goes away: ``read()``
returns None and ``status()`` says what is wrong (and a USB camera or a stream is tried
again every few seconds).

>>> src = open_source("/no/such/file.png")
>>> src.read() is None, src.status()["state"]
(True, 'lost')
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

log = logging.getLogger("companion.vision")

IMAGE_EXTS = {".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"}
RETRY_S = 2.0
IDLE_CHECK_S = 0.25   # how soon a resting reader notices that frames are wanted again


class FrameSource:
    """A stream of BGR frames. ``read()`` gives the next frame, or None when there is none now."""

    spec: str = ""

    def __init__(self, spec: str):
        self.spec = spec
        self._state = "opening"
        self._error: str | None = None
        self._granted: dict = {}
        self.frames = 0

    def read(self) -> np.ndarray | None:
        raise NotImplementedError

    def status(self) -> dict:
        return {"state": self._state, "spec": self.spec, "granted": dict(self._granted), "error": self._error,
                "frames": self.frames}

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _set(self, state: str, error: str | None = None) -> None:
        if (state, error) != (self._state, self._error):
            if error:
                log.warning("camera %s: %s", self.spec, error)
            elif state == "ok" and self._state != "ok":
                log.info("camera %s: ok", self.spec)
        self._state, self._error = state, error


class ImageSource(FrameSource):
    """A still photo as a camera that always shows the same frame."""

    def __init__(self, path: str):
        super().__init__(path)
        self.image = None
        p = Path(path)
        data = np.fromfile(str(p), np.uint8) if p.is_file() else None
        img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
        if img is None:
            self._set("lost", f"cannot read {path} as an image" if p.exists() else f"{path}: no such file")
        else:
            self.image = img
            self._granted = {"width": img.shape[1], "height": img.shape[0]}
            self._set("ok")

    def read(self):
        if self.image is None:
            return None
        self.frames += 1
        return self.image.copy()


class VideoFileSource(FrameSource):
    """A video file read frame by frame (as fast as the caller reads); at its end the camera is lost."""

    def __init__(self, path: str, loop: bool = False):
        super().__init__(path)
        self.loop = loop
        self.cap = cv2.VideoCapture(path)
        if not self.cap.isOpened():
            self._set("lost", f"cannot open {path} as a video")
            self.cap = None
        else:
            self._granted = {"width": int(self.cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                             "height": int(self.cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
                             "fps": float(self.cap.get(cv2.CAP_PROP_FPS))}
            self._set("ok")

    def read(self):
        if self.cap is None:
            return None
        try:
            ok, frame = self.cap.read()
        except cv2.error as exc:  # a damaged file
            ok, frame = False, None
            self._set("lost", f"reading {self.spec} failed: {exc}")
        if not ok or frame is None:
            if self.loop and self.frames:
                self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self.cap.read()
            if not ok or frame is None:
                self._set("lost", f"the video {Path(self.spec).name} ended after {self.frames} frames")
                self.cap.release()
                self.cap = None
                return None
        self.frames += 1
        return frame

    def close(self):
        if self.cap is not None:
            self.cap.release()
            self.cap = None


class CaptureSource(FrameSource):
    """A USB camera (index) or a network stream (http(s)/rtsp URL) read by a background thread,
    which keeps only the newest frame and reopens the device when it disappears."""

    def __init__(self, spec: str, width: int = 1280, height: int = 720, fps: int = 30,
                 exposure: float | None = None, white_balance: float | None = 4500.0):
        super().__init__(spec)
        self.want = {"width": width, "height": height, "fps": fps, "exposure": exposure,
                     "white_balance": white_balance}
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._fresh = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"camera {spec}", daemon=True)
        self._thread.start()

    def _open(self) -> cv2.VideoCapture | None:
        spec = self.spec
        if spec.isdigit():
            cap = cv2.VideoCapture(int(spec), cv2.CAP_V4L2) if hasattr(cv2, "CAP_V4L2") else cv2.VideoCapture(int(spec))
            if not cap.isOpened():
                cap.release()
                cap = cv2.VideoCapture(int(spec))
        else:
            cap = cv2.VideoCapture(spec)
        if not cap.isOpened():
            cap.release()
            return None
        if spec.isdigit():
            self._granted = self._configure(cap)
        else:
            self._granted = {"width": int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                             "height": int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))}
        return cap

    def _configure(self, cap: cv2.VideoCapture) -> dict:
        """Ask for MJPG at the wanted size, fixed exposure and white balance; report what stuck."""
        w = self.want
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, w["width"])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, w["height"])
        cap.set(cv2.CAP_PROP_FPS, w["fps"])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        # V4L2: auto exposure 1 = manual, 3 = aperture priority (auto)
        exp_manual = cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
        if exp_manual and w["exposure"] is not None:
            cap.set(cv2.CAP_PROP_EXPOSURE, w["exposure"])
        wb_manual = cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        if wb_manual and w["white_balance"] is not None:
            cap.set(cv2.CAP_PROP_WB_TEMPERATURE, w["white_balance"])
        fourcc = int(cap.get(cv2.CAP_PROP_FOURCC))
        granted = {
            "fourcc": "".join(chr((fourcc >> (8 * i)) & 0xFF) for i in range(4)) if fourcc > 0 else None,
            "width": int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), "height": int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
            "fps": float(cap.get(cv2.CAP_PROP_FPS)),
            "fixed_exposure": bool(exp_manual), "exposure": float(cap.get(cv2.CAP_PROP_EXPOSURE)),
            "fixed_white_balance": bool(wb_manual), "white_balance": float(cap.get(cv2.CAP_PROP_WB_TEMPERATURE)),
        }
        log.info("camera %s granted %s", self.spec, granted)
        return granted

    def _run(self) -> None:
        cap = None
        failures = 0
        while not self._stop.is_set():
            if cap is None:
                self._set("opening" if self.frames == 0 else "lost", self._error)
                try:
                    cap = self._open()
                except cv2.error as exc:
                    cap = None
                    self._set("lost", f"cannot open camera {self.spec}: {exc}")
                if cap is None:
                    self._set("lost", f"camera {self.spec} is not available (unplugged, in use, or the stream is "
                                      f"down); trying again every {RETRY_S:.0f} s")
                    self._stop.wait(RETRY_S)
                    continue
            try:
                ok, frame = cap.read()
            except cv2.error:
                ok, frame = False, None
            if not ok or frame is None:
                failures += 1
                if failures >= 5:
                    cap.release()
                    cap = None
                    failures = 0
                    self._set("lost", f"camera {self.spec} stopped delivering frames; reconnecting")
                    self._stop.wait(RETRY_S)
                else:
                    self._stop.wait(0.05)
                continue
            failures = 0
            with self._lock:
                self._frame, self._fresh = frame, True
            self._set("ok")
        if cap is not None:
            cap.release()

    def read(self):
        with self._lock:
            if not self._fresh:
                return None
            self._fresh = False
            self.frames += 1
            return self._frame

    def close(self):
        self._stop.set()
        self._thread.join(timeout=3)


@dataclass(frozen=True)
class Frame:
    """A frame as the camera gave it: the image, when it was read (``time.monotonic()``), and
    its number among the frames the source gave (1, 2, ...)."""

    image: np.ndarray
    at: float
    seq: int


class LatestFrame:
    """Reads a source in a thread of its own, at most ``fps`` frames a second, and keeps only the
    newest frame: whoever takes frames gets the newest one each time, never a queue of old ones.
    A reader slower than the camera (a busy machine) skips frames instead of falling behind;
    ``skipped`` counts the frames it never took. Each frame is handed out once, so a reader that
    is faster than the camera waits for the next frame rather than seeing one frame twice (which
    would look like a still tray)."""

    def __init__(self, source: FrameSource, fps: float | None = None, name: str = "camera reader",
                 wanted: Callable[[], bool] | None = None):
        """``wanted()``: whether frames are wanted now (None: always); while it says no, the source
        is not read at all (a simulated camera renders nothing, a real one is not asked), and
        it is asked again every IDLE_CHECK_S."""
        self.source = source
        self.wanted = wanted
        self.idle = False      # resting now: frames are not wanted
        self.rested = 0        # the times it found frames unwanted and waited
        self.period = 1.0 / fps if fps else 0.0
        self.read = 0          # frames the source gave
        self.taken = 0         # frames handed out
        self.skipped = 0       # frames replaced by a newer one before anyone took them
        self.error: str | None = None
        self._latest: Frame | None = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.wanted is not None and not self.wanted():
                self.idle = True
                self.rested += 1
                self._stop.wait(IDLE_CHECK_S)
                continue
            self.idle = False
            started = time.monotonic()
            try:
                image = self.source.read()
            except Exception as exc:  # a source must never take the reader down (sources never raise)
                image = None
                self.error = f"reading the camera failed: {exc}"
                log.exception("camera %s: reading failed", self.source.spec)
            if image is not None:
                with self._cond:
                    if self._latest is not None:
                        self.skipped += 1  # the one it replaces was never taken
                    self.read += 1
                    self._latest = Frame(image, time.monotonic(), self.read)
                    self._cond.notify_all()
            wait = self.period - (time.monotonic() - started)
            self._stop.wait(wait if wait > 0 else (0.005 if image is None else 0.0))

    def take(self, timeout: float | None = None) -> Frame | None:
        """The newest frame not taken yet, waiting at most ``timeout`` seconds for one (None: as
        long as it takes); None when none came, or the reader is closed."""
        with self._cond:
            if self._latest is None and not self._stop.is_set():
                self._cond.wait_for(lambda: self._latest is not None or self._stop.is_set(), timeout)
            frame, self._latest = self._latest, None
            if frame is not None:
                self.taken += 1
            return frame

    def status(self) -> dict:
        return {"read": self.read, "taken": self.taken, "skipped": self.skipped, "error": self.error, "idle": self.idle,
                "rested": self.rested}

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout=5)


def open_source(spec: str, **options) -> FrameSource:
    """``"0"`` (a USB camera index), a video or image file, or an http(s)/rtsp URL. (``"sim"``, the
    simulated camera, is opened by ``companion.sim.camera.open_camera``, which the caller wires in.)"""
    spec = str(spec).strip()
    if spec == "sim" or spec.startswith("sim:"):
        src = FrameSource(spec)
        src._set("lost", f"{spec}: the simulated camera is not wired in here (companion serve --camera sim)")
        src.read = lambda: None  # type: ignore[method-assign]
        return src
    if spec.isdigit():
        return CaptureSource(spec, **options)
    if "://" in spec:
        return CaptureSource(spec, **options)
    if Path(spec).suffix.lower() in IMAGE_EXTS:
        return ImageSource(spec)
    if not Path(spec).exists():
        src = FrameSource(spec)
        src._set("lost", f"{spec}: no such file, and not a camera index, URL or 'sim'")
        src.read = lambda: None  # type: ignore[method-assign]
        return src
    return VideoFileSource(spec, **options)
