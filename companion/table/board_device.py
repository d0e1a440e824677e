"""The board camera's thread: frames over the TOKYO METRO board, read, handed to the game.

Like the tray camera (table/devices.py): the source (``open_camera(spec)``, the composition
root's, which knows ``sim``: the simulated board camera) is read in a thread of its own that
keeps only the newest frame (``vision.sources.LatestFrame``), at most READ_FPS frames a second
(or the table's ``fps``: `companion serve --board-fps`);
each is read by the board reader (``vision.board_read.BoardReader``) and the reading handed to
the game the board camera reads for (``Tables.board_route``: the newest open METRO game created
or moved in), whose BoardWatch settles it and compares it with the game. While no such game is
in play (and nobody looks at the picture or calibrates), the camera rests: no frame is read or
rendered. A failing camera or reader never stops the service: it shows as a problem code in
every METRO view (``camera_error``, ``calibrate``) and the game goes on by taps.

The reader is made from the host's calibration (``<data>/board-calibration.json``, written by
the calibration page or `companion calibrate board`); a simulated board camera without one is
read against its own empty board (its ``empty_frame()`` rectified) on the default layout.
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

from ..board_layout import BoardLayout
from ..board_pieces import BoardReading, Pieces
from .board_moves import expected

log = logging.getLogger(__name__)

READ_FPS = 4.0           # board readings a second at most: a settled board needs three over 0.6 s
FPS_RANGE = (1.0, 15.0)  # the rates `companion serve --board-fps` takes
PUBLISH_S = 0.5          # the picture with the pieces drawn, at most this often
LOOKED_AT_S = 10.0       # the picture (or a calibration) asked for keeps the camera awake this long
WAKE_WAIT_S = 2.0        # how long the calibration page's request waits for a resting camera's frame
CALIBRATION_FILE = "board-calibration.json"
HAND_FRAMES = 4          # frames a simulated hand passing over the board is seen in, unless told
MAX_HAND_FRAMES = 20
SAME_FRAMES = 4          # readings kept by their frame's digest: a frame given again is not read again
_BGR = {"red": (40, 40, 220), "blue": (220, 110, 30), "yellow": (30, 210, 230), "green": (60, 170, 60),
        "purple": (170, 60, 150)}


class SimBoardError(ValueError):
    """The simulated players' hands cannot do that (``busy``: not now, else the change is wrong)."""

    def __init__(self, message: str, busy: bool = False):
        super().__init__(message)
        self.busy = busy


class BoardDevice:
    """The board camera (see the module). ``tables``: whom the readings go to (Tables);
    ``open_camera(spec)``: the source; ``data_dir``: where the calibration is kept;
    ``make_reader(layout, reference, colours)``: the reader (None: vision.board_read's)."""

    def __init__(self, tables: Any, spec: str, open_camera: Callable[[str], Any] | None = None,
                 data_dir: str | Path | None = None, make_reader: Callable[..., Any] | None = None,
                 follow_s: float | None = None, fps: float = READ_FPS):
        """``follow_s``: on a simulated table with a simulated board camera, a move made on the
        dashboard (or by a computer player) is copied onto the simulated board this long after
        it (a hand passes over), as the players at a real table would (None: never); ``fps``: the
        readings a second at most (`companion serve --board-fps`)."""
        self.tables, self.spec, self.follow_s = tables, spec, follow_s
        self.fps = float(fps)
        self._followed: tuple | None = None   # the position (game, step) copied onto the board last
        self.open_camera = open_camera
        self.make_reader = make_reader
        self.calibration_path = Path(data_dir) / CALIBRATION_FILE if data_dir is not None else None
        self.simulated = spec.startswith("sim")
        self.source = None
        self._opened = threading.Event()   # set once the camera is open (or failed to open)
        self.frames = None
        self.reader = None
        self.layout: BoardLayout | None = None
        self._picture_tracker = None
        self.error: str | None = None          # the camera or the reader failed: camera_error
        self.uncalibrated: str | None = None   # no calibration to read with: calibrate
        self.last: BoardReading | None = None
        self.read_frames = 0
        self.repeated_frames = 0               # frames given again (a simulated still scene's copies)
        self.failed_frames = 0
        self._readings: OrderedDict[bytes, BoardReading] = OrderedDict()
        self._latest: np.ndarray | None = None
        self._latest_at = float("-inf")       # when it was taken (monotonic)
        self._jpeg: bytes | None = None
        self._published = 0.0
        self._looked_at = 0.0
        self._reload = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    # --- life ---------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="board camera", daemon=True)
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
                log.exception("board camera: closing the source failed")

    # --- what others ask -----------------------------------------------------------------------

    def status_for_view(self) -> dict:
        """The board camera as the METRO views show it (table/board_watch.py's to_json)."""
        problem = None
        if self.error:
            problem = {"code": "camera_error", "params": {"detail": self.error[:200]}}
        elif self.uncalibrated:
            problem = {"code": "calibrate", "params": {"detail": self.uncalibrated[:200]}}
        return {"present": True, "simulated": self.simulated, "problem": problem}

    def status(self) -> dict:
        """For the devices' status: the source, how many frames were read and how it rests."""
        return {"spec": self.spec, "simulated": self.simulated, "error": self.error, "fps": self.fps,
                "calibrated": self.uncalibrated is None and self.reader is not None,
                "source": self.source.status() if self.source is not None else None,
                "frames": self.frames.status() if self.frames is not None else None,
                "read": self.read_frames, "repeated": self.repeated_frames, "failed": self.failed_frames,
                "idle": bool(self.frames is not None and self.frames.idle)}

    def latest_frame(self, wait_s: float = WAKE_WAIT_S) -> np.ndarray | None:
        """The newest frame as the camera gave it (for the calibration page). Asking wakes a
        resting camera for a while; a frame older than that is waited for (``wait_s`` at most)."""
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
        """The simulated board camera (``set``, ``change``, ``knock``, ...), or None for a real one.
        ``wait``: seconds to give a simulated camera still being opened (it draws its board first:
        a second or two on a busy machine), so that a call right after the start finds it."""
        if wait > 0 and self.simulated:
            self._opened.wait(wait)
        source = self.source
        return source if self.simulated and source is not None and hasattr(source, "change") else None

    # --- the simulated players' hands -----------------------------------------------------------

    def sim_hands(self, changes: list[dict], knock: bool = False, hand: bool = False,
                  follow_game: bool = False, hand_frames: int = HAND_FRAMES) -> dict:
        """Change the simulated board (see routes/board.py's /api/sim/board); SimBoardError when a
        change names no piece of this board, or there is no game to follow."""
        camera = self.simulated_camera()
        if camera is None:
            raise SimBoardError("no simulated board camera runs here", busy=True)
        if follow_game:
            session = self.tables.board_in_play()
            if session is None:
                raise SimBoardError("no TOKYO METRO game is in play for the board camera to follow", busy=True)
            self.sim_set(expected(session.state), hand_frames)
        if changes:
            try:   # a hand passes over the board as the pieces are changed
                camera.change(changes, hand_frames=hand_frames)
            except (ValueError, TypeError) as exc:
                raise SimBoardError(f"the simulated board cannot take these changes: {exc}") from None
        knocked = camera.knock() if knock else []
        # A hand left over the board (a player thinking; one that never leaves becomes the problem
        # "hands"), until the next change without one.
        if hand and callable(getattr(camera, "rest_hand", None)):
            camera.rest_hand()
        elif getattr(camera, "resting_hand", None) is not None:
            camera.lift_hand()
        return {"result": "changed", "pieces": camera.pieces.model_dump(mode="json"), "knocked": knocked}

    def sim_set(self, pieces: Pieces, hand_frames: int = HAND_FRAMES) -> None:
        """The simulated players make the simulated board hold ``pieces`` (a hand passes over it,
        seen in ``hand_frames`` frames)."""
        camera = self.simulated_camera()
        if camera is None:
            raise SimBoardError("no simulated board camera runs here", busy=True)
        camera.set(pieces, hand_frames=hand_frames)

    def _follow_when_due(self) -> None:
        """Copy a move made on the dashboard onto the simulated board, ``follow_s`` after it."""
        if self.follow_s is None or self.simulated_camera() is None:
            return
        session = self.tables.board_in_play()
        watch = session.board_watch if session is not None and session.simulated else None
        if watch is None or watch.cause != "dashboard" or watch.todo_since is None:
            return
        # A second or two after the latest move made elsewhere (computer players may make several).
        if time.monotonic() - max(watch.todo_since, watch.moved_at or 0.0) < self.follow_s:
            return
        position = (session.id, session.step)
        if position == self._followed:
            return
        self._followed = position
        self.sim_hands([], follow_game=True)

    # --- inside --------------------------------------------------------------------------------

    def _wanted(self) -> bool:
        return self.tables.board_in_play() is not None or time.monotonic() - self._looked_at < LOOKED_AT_S

    def _loop(self) -> None:
        from ..vision.sources import LatestFrame, open_source

        try:
            self.source = (self.open_camera or open_source)(self.spec)
            self.frames = LatestFrame(self.source, fps=self.fps, wanted=self._wanted, name="board camera reader")
        except Exception as exc:  # the game goes on by taps
            self.error = f"the board camera cannot be opened: {exc}"
            log.error("board camera: %s", exc)
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
                    self._make_reader(frame.image)
                if self.reader is None:
                    self._publish(frame.image, None)
                    continue
                reading = self._read(frame.image)
                self.last = reading
                self.error = None
                self.tables.board_route(reading, at=frame.at)
                self._publish(frame.image, reading)
                self._follow_when_due()
            except Exception as exc:   # a bad frame or a reader's fault: shown, never fatal
                self.failed_frames += 1
                self.error = f"reading the board failed: {type(exc).__name__}: {exc}"
                log.exception("board camera: reading a frame failed")

    def _read(self, image: np.ndarray) -> BoardReading:
        """The reader's reading of ``image``; a frame the camera gives again bit for bit (the
        simulated camera shows a still scene as a few noisy copies in turn; a real camera's noise
        never repeats) has the reading it had: the same pixels read the same, for nothing."""
        key = hashlib.blake2b(np.ascontiguousarray(image).data, digest_size=16).digest()
        known = self._readings.get(key)
        if known is not None:
            self._readings.move_to_end(key)
            self.repeated_frames += 1
            return known
        reading = self.reader.read(image)
        self.read_frames += 1
        self._readings[key] = reading
        while len(self._readings) > SAME_FRAMES:
            self._readings.popitem(last=False)
        return reading

    def _source_state(self) -> None:
        status = self.source.status() if self.source is not None else {}
        if status.get("state") not in (None, "ok", "opening") and not (self.frames and self.frames.idle):
            self.error = status.get("error") or f"the board camera is {status.get('state')}"

    def _make_reader(self, frame: np.ndarray) -> None:
        """The reader, from the host's calibration or (simulated) the simulated empty board."""
        self.reader, self.uncalibrated = None, None
        self._readings.clear()
        made = self._calibrated() or self._simulated_reference(frame)
        if made is None:
            self.uncalibrated = ("the board camera is not calibrated: open the board calibration page "
                                 "(or run `companion calibrate board`)")
            return
        layout, reference, colours, tracker = made
        make = self.make_reader
        if make is None:
            from ..vision.board_read import BoardReader as make
        from ..vision.board_pose import BoardTracker

        self.layout = layout
        # The reader follows the board with the tracker that found the empty board (it measured
        # the lens there); the picture for the dashboards has a tracker of its own.
        self.reader = make(layout, reference, colours, tracker=tracker or BoardTracker(layout))
        self._picture_tracker = BoardTracker(layout, distortion=getattr(self.reader.tracker, "k", None))

    def _calibrated(self) -> tuple | None:
        """(layout, reference, colours, tracker) of the host's calibration, or None without one."""
        path = self.calibration_path
        if path is None or not path.is_file():
            return None
        from ..vision.board_calibrate import load_calibration

        cal = load_calibration(path, BoardLayout.default().data)
        return cal.layout, cal.reference, getattr(cal, "colours", None), None

    def _simulated_reference(self, frame: np.ndarray) -> tuple | None:
        camera = self.simulated_camera() or (self.source if self.simulated else None)
        if camera is None or not hasattr(camera, "empty_frame"):
            return None
        from ..vision.board_pose import BoardTracker, rectify

        layout = BoardLayout.default()
        empty = camera.empty_frame()
        tracker = BoardTracker(layout)
        pose = tracker.locate(empty)
        if pose.H is None:
            raise RuntimeError("the simulated board's empty frame shows no markers")
        return layout, rectify(empty, pose, layout), None, tracker

    def _publish(self, image: np.ndarray, reading: BoardReading | None) -> None:
        """The picture for the dashboards: the sheet seen from above with the pieces read drawn
        (the frame as it is when the markers are not found), at most every PUBLISH_S."""
        now = time.monotonic()
        if now - self._published < PUBLISH_S:
            return
        self._published = now
        picture = image
        layout = self.layout or BoardLayout.default()
        try:
            from ..vision.board_pose import BoardTracker, rectify

            # the pose the reader found in this very frame; a tracker of the picture's own only
            # while there is no reader (the markers are not looked for twice)
            pose = getattr(self.reader, "last_pose", None) if reading is not None else None
            if pose is None:
                if self._picture_tracker is None:
                    self._picture_tracker = BoardTracker(layout)
                pose = self._picture_tracker.locate(image)
            if pose.H is not None:
                picture = rectify(image, pose, layout)
                if reading is not None:
                    draw_pieces(picture, reading.pieces, layout, set(reading.unsure))
        except Exception:
            log.exception("board camera: drawing the picture failed")
        if picture.shape[1] > 1000:
            scale = 1000 / picture.shape[1]
            picture = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._lock:
                self._jpeg = buf.tobytes()


def draw_pieces(sheet: np.ndarray, pieces: Pieces, layout: BoardLayout, unsure: set[str] = frozenset()) -> None:
    """Circle each piece read on the rectified sheet (1 px per mm) in its colour; the spots read
    with doubt in grey."""
    def ring(x: float, y: float, r: float, colour, label: str | None = None) -> None:
        c = (int(round(x)), int(round(y)))
        cv2.circle(sheet, c, int(r) + 3, colour, 2, cv2.LINE_AA)
        if label:
            cv2.putText(sheet, label, (c[0] + int(r) + 2, c[1] + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1,
                        cv2.LINE_AA)

    r = layout.radius
    for sid, colour in pieces.pyramids.items():
        if sid in layout.pyramids:
            ring(*layout.pyramids[sid], r.get("pyramid", 6.5), _BGR.get(colour, (255, 255, 255)))
    for colour, place in pieces.meeples.items():
        kind, _, where = place.partition(":")
        if kind == "field" and int(where) < len(layout.meeples):
            ring(*layout.meeples[int(where)], r.get("meeple", 7.0), _BGR.get(colour, (255, 255, 255)))
        elif kind == "ride" and where in layout.lanes and layout.riders:
            ring(layout.lanes[where], layout.riders[0], r.get("meeple", 7.0), _BGR.get(colour, (255, 255, 255)))
    for letter, k in pieces.trains.items():
        stops = layout.stops.get(letter, ())
        if 0 <= k < len(stops):
            ring(*stops[k], r.get("train", 6.0), (255, 255, 255), f"{letter}{k + 1}")
    for letter, value in pieces.values.items():
        if letter in layout.lanes:
            ring(layout.lanes[letter], layout.lane_y(value), 5, (0, 0, 0))
    spots = {s.id: s for s in layout.spots()} if unsure else {}
    for spot_id in sorted(unsure)[:200]:
        s = spots.get(spot_id)
        if s is not None:
            ring(s.x, s.y, s.r, (160, 160, 160))
