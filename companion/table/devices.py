"""The table's hardware: the camera over the tray and the sensor board, real or simulated.

Each device runs in its own thread and hands what it saw to ``route`` (the table's
``Tables.route``: the game in play judges and records it once). Nothing a device does can stop the service: a lost
camera or an unplugged board shows in ``status()`` and the game goes on by hand.
On the simulated table, :meth:`Devices.throw` plays the physical part of a throw:
the simulated board counts the drinks through its beams and the simulated camera
shows them landing, so the drop is read the way a real one would be.

The camera is read in a thread of its own that keeps only the newest frame
(``vision.sources.LatestFrame``); the tray watcher takes the newest each turn, so a busy
machine makes it skip frames, never fall behind. A reading the table would put to a person
(``doubt``: it disagrees with the beams, or names a drink it cannot be) is first read again
from the latest still frame; what is routed then carries the first reading too.
"""
from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from ..drinks import is_drink
from ..observation import Observation
from ..rules.engine import ChanceDrop, IllegalMove
from ..sensors.link import BoardBooks
from .session import TableSession
from .store import EventStore

log = logging.getLogger(__name__)
FPS = 10                     # frames read per second: plenty to see drinks settle
# The simulated throw waits for the camera in frames it has read, not in seconds: on a busy
# machine the camera reads fewer frames a second, and a limit in seconds would let the load (not
# the camera) decide whether the drop is read by the camera or reported directly. Reading a drop
# takes some 15 frames (the drinks land in 6, the tray must then stay still for 4); 300 frames
# (30 s at full speed) means the watcher did not see it.
SETTLE_FRAMES = 300          # a simulated drop the camera has not read within these frames is reported directly
STILL_S = 0.4                # or three still frames over this long: frames come slowly on a busy machine
REREAD_FRAMES = 50           # a reading again that has not come within these frames: the first reading goes on
PUBLISH_S = 0.25             # the picture for the dashboards, at most this often (they ask for ~3 a second)
BEAMS_BACKSTOP_S = 120.0     # the simulated board's passes arrive within milliseconds while it is connected
SIM_PROFILE = Path(__file__).resolve().parents[2] / "calibration" / "sim-profile.json"


class Devices:
    def __init__(self, route: Callable[[Observation], None], camera: str | None = None,
                 serial: str | None = None, profile: str | Path | None = None,
                 store: EventStore | None = None, doubt: Callable[[Observation], str | None] | None = None,
                 looks=None, open_camera: Callable[[str], object] | None = None,
                 wanted: Callable[[], bool] | None = None):
        """``route`` hands an observation to the game in play; ``doubt`` says why the game would
        put a camera reading to a person (None: it would take it), so that the tray is read again
        first; ``looks``: the table's look book (table/looks.py): the camera reads with its
        profile and the looks the host's corrections taught it; ``open_camera(spec)``: the camera
        source of a spec (the composition root's, which knows the simulated camera; None:
        ``vision.sources.open_source``, real cameras only); ``wanted()``: whether a game that
        throws into the tower is in play (None: always): otherwise the camera rests, reading and
        rendering no frame (a simulated camera took a quarter of a core in the lobby), until
        such a game is in play, a throw is being read or a person asks to read the tray."""
        self.route, self.store, self.doubt, self.looks = route, store, doubt, looks
        self.open_camera = open_camera
        self.wanted = wanted
        self._relearn = threading.Event()   # the look book changed: the camera's thread takes it in
        self._profile = None                # the profile as calibrated (without the looks taught)
        if looks is not None:
            looks.listeners.append(self._relearn.set)
        self.frames = None          # the LatestFrame reader of the camera
        self._reread = threading.Event()   # a person asked to read the tray again
        self._published = 0.0
        self.camera_spec, self.serial_spec = camera, serial
        self.profile_path = Path(profile) if profile else (SIM_PROFILE if camera == "sim" else None)
        self.link = None
        self.source = None
        self.watcher = None
        self.camera_error: str | None = None
        self._frame_jpeg: bytes | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._ticks = 0  # turns of the camera loop: frames read (or tried)
        self.throwing: set[str] = set()  # games whose simulated throw is still being read

    # --- life -------------------------------------------------------------------------------

    def start(self) -> None:
        if self.serial_spec:
            from ..sensors.link import SensorLink  # raises PortSpecError for a nonsense port

            committed = (lambda boot_id: board_books(self.store, boot_id)) if self.store is not None else None
            self.link = SensorLink(self.serial_spec, self._deliver, committed=committed)
            self.link.start()
        if self.camera_spec:
            self._thread = threading.Thread(target=self._camera_loop, name="camera", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)
        if self.frames:
            self.frames.close()
        if self.link:
            self.link.stop()
        if self.source:
            self.source.close()

    def status(self) -> dict:
        camera = None
        if self.camera_spec:
            camera = {"spec": self.camera_spec, "error": self.camera_error,
                      "source": self.source.status() if self.source else None,
                      "watcher": self.watcher.status() if self.watcher else None,
                      "frames": self.frames.status() if self.frames else None,
                      "simulated": self.camera_spec.startswith("sim"), "learned": self._learned(),
                      "idle": bool(self.frames and self.frames.idle)}
        sensors = self.link.status() if self.link else None
        if sensors is not None:
            sensors["simulated"] = self.serial_spec == "sim"
        return {"camera": camera, "sensors": sensors, "throwing": sorted(self.throwing)}

    def _learned(self) -> dict | None:
        """What the host's corrections taught the camera, and how many taught looks the profile
        it reads with holds now (``in_use``: the camera's thread takes a change in at its next
        frame)."""
        if self.looks is None:
            return None
        watcher = self.watcher
        return {**self.looks.summary(), "in_use": self.looks.in_use(watcher.profile) if watcher else 0}

    def frame_jpeg(self) -> bytes | None:
        """The latest camera frame with the detections drawn on it."""
        with self._lock:
            return self._frame_jpeg

    # --- the simulated table's hands ----------------------------------------------------------

    def throw(self, session: TableSession) -> dict:
        """Throw the due drinks into the simulated tower: beams count them, the camera sees them."""
        if session.id in self.throwing:
            raise IllegalMove("the last throw is still being read from the tray; wait a moment")
        thrown, outcome = session.sim_drop()  # raises when nothing is due or the table is real
        board = self.link.simboard if self.link else None
        camera = self.source if self.source is not None and hasattr(self.source, "drop") else None
        if not all(is_drink(x) for x in [*thrown, *outcome.appeared]):
            camera = None  # the simulated camera draws drinks alone: an add-on's bottle is reported as it fell
        if board is None and camera is None:
            return session.observe(outcome)
        self.throwing.add(session.id)
        threading.Thread(target=self._play_throw, args=(session, thrown, outcome, board, camera),
                         name="sim-throw", daemon=True).start()
        return {"result": "thrown", "thrown": thrown, "read_by": "camera" if camera else "sensors"}

    def reread(self, session: TableSession) -> dict:
        """Read the tray again (a person asks, after setting a question aside): the latest still
        frame, as the drop that ``session`` awaits. Refused (IllegalMove) without a working
        camera, without a drop awaited, or while a throw is still being read."""
        if self.watcher is None or self.source is None or self.source.status()["state"] != "ok":
            raise IllegalMove("no camera reads the tray now: enter what came out by hand")
        if session.id in self.throwing:
            raise IllegalMove("the throw is still being read from the tray; wait a moment")
        if not isinstance(session.game.chance(session.state), ChanceDrop):
            raise IllegalMove("no drop is awaited: there is nothing to read from the tray now")
        self._reread.set()  # the camera's thread asks the watcher: it alone touches the watcher
        return {"result": "reading"}

    def _play_throw(self, session, thrown, outcome, board, camera) -> None:
        try:
            if camera is not None:
                if camera.in_tray():  # a player clears the tray first: the hand's frames are shown
                    camera.take_out(camera.in_tray())
                    self._wait_frames(lambda: not camera.script, SETTLE_FRAMES)
                # The watcher compares with the tray it last saw still: let it see the tray first.
                self._wait_frames(lambda: self._tray_read_still(), SETTLE_FRAMES)
            if board is not None:
                for _ in thrown:
                    board.drop("in")
                for _ in outcome.appeared:
                    board.drop("out")
                counted = (len(thrown), len(outcome.appeared))
                # Counted before the camera shows the drop; a board that is not connected (or stops
                # talking) sends its passes when it is back, so the throw goes on without them.
                self._wait(lambda: session.folded.beams == counted or self.link.status()["state"] != "connected",
                           BEAMS_BACKSTOP_S)
            if camera is not None:
                seq = len(session.records)
                camera.drop(outcome.appeared)
                if outcome.appeared and self._wait_frames(lambda: _drop_read(session, seq), SETTLE_FRAMES):
                    return
                log.warning("simulated throw: the camera did not read the drop in time; reporting it directly")
            if session.game.chance(session.state) is not None:
                session.observe(outcome)
        except Exception:  # a demo helper must never take the service down
            log.exception("simulated throw failed")
        finally:
            self.throwing.discard(session.id)

    def _frames_wanted(self) -> bool:
        """Whether the camera should read frames now (see ``wanted`` in __init__)."""
        return self.wanted is None or bool(self.throwing) or self._reread.is_set() or self.wanted()

    def _tray_read_still(self) -> bool:
        status = self.watcher.status() if self.watcher else {}
        return status.get("state") == "still" and status.get("last_read") is not None

    def _wait(self, done: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self._stop.is_set():
            if done():
                return True
            time.sleep(0.05)
        return done()

    def _wait_frames(self, done: Callable[[], bool], frames: int) -> bool:
        """Wait until ``done()``, or until the camera loop has turned ``frames`` more times (see
        SETTLE_FRAMES), or stopped."""
        start = self._ticks
        while self._ticks - start < frames and not self._stop.is_set() \
                and self._thread is not None and self._thread.is_alive():
            if done():
                return True
            time.sleep(0.05)
        return done()

    # --- inside -------------------------------------------------------------------------------

    def _deliver(self, obs: Observation) -> None:
        self.route(obs)  # raising keeps the event un-acknowledged: the board sends it again

    def _camera_loop(self) -> None:
        from ..vision.profile import Profile, ProfileError
        from ..vision.sources import LatestFrame, open_source
        from ..vision.tray import TrayWatcher

        try:
            if self.profile_path is None:
                raise ProfileError("a camera needs a drink profile: run `companion calibrate drinks` and "
                                   "start with --profile PROFILE.json")
            self._profile = Profile.load(self.profile_path)
            profile = self.looks.use(self.profile_path, self._profile) if self.looks is not None else self._profile
            self.watcher = TrayWatcher(profile, still_s=STILL_S)
            self.source = (self.open_camera or open_source)(self.camera_spec)
            self.frames = LatestFrame(self.source, fps=FPS, wanted=self._frames_wanted)
        except Exception as exc:  # the game goes on by hand
            self.camera_error = str(exc)
            log.error("camera: %s", exc)
            return
        first: tuple[Observation, str, int] | None = None   # a reading being read again: it, why, when
        while not self._stop.is_set():
            frame = self.frames.take(timeout=0.5)
            if frame is None:
                continue
            self._ticks += 1
            try:
                if self._relearn.is_set():  # a correction taught (or was taken back): the next frame reads with it
                    self._relearn.clear()
                    self.watcher.profile = self.looks.profile_for(self._profile)
                if self._reread.is_set():
                    self._reread.clear()
                    self.watcher.reread()
                    first = None
                obs = self.watcher.feed(frame.image, at=frame.at)
                self._publish(frame.image, fresh=obs is not None)
                self.camera_error = None  # frames flow again
                if obs is not None and first is None and not obs.detail.get("reread") and self.doubt is not None:
                    try:
                        why = self.doubt(obs)
                    except Exception:  # the game could not say: the reading goes to it as it is
                        log.exception("camera: the game's doubt about a reading failed")
                        why = None
                    if why:
                        log.info("camera: read the tray again before asking (%s)", why)
                        first = (obs, why, self._ticks)
                        self.watcher.reread()
                        continue
                if obs is not None:
                    self.route(_with_first(obs, first))
                    first = None
                elif first is not None and self._ticks - first[2] > REREAD_FRAMES:
                    log.warning("camera: the tray could not be read again; the first reading goes on")
                    self.route(_with_first(first[0], first, again=False))
                    first = None
            except Exception as exc:
                self.camera_error = f"camera frame failed: {exc}"
                log.exception("camera frame failed")

    def _publish(self, frame: np.ndarray, fresh: bool = False) -> None:
        """The picture for the dashboards, with the detections drawn; at most every PUBLISH_S
        (encoding every frame would take the time a busy machine needs for the reading), and
        at once after a reading."""
        now = time.monotonic()
        if not fresh and now - self._published < PUBLISH_S:
            return
        self._published = now
        small = cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA)
        for d in self.watcher.last_detections():
            x, y = int(d["x"] / 2), int(d["y"] / 2)
            colour = (0, 165, 255) if d.get("unsure") else (60, 200, 60)
            cv2.circle(small, (x, y), 22, colour, 2)
            cv2.putText(small, d["id"], (x - 40, y - 26), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA)
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._lock:
                self._frame_jpeg = buf.tobytes()


def board_books(store: EventStore, boot_id: str) -> BoardBooks:
    """What the store holds of one power-on of the sensor board, in any game: the ids of its
    events, and the highest of its cumulative dropped-pass counts (a lost-pass report). The
    link opens a boot's books with this, so a restarted companion neither counts an event twice
    nor the passes the board dropped before (they are in every later report's totals). Read from
    the store's index of the board's events (keyed on its boot id and event id), not the records."""
    event_ids, dropped = store.board_books(boot_id)
    return BoardBooks(event_ids, dropped)


def _with_first(obs: Observation, first: tuple[Observation, str, int] | None, again: bool = True) -> Observation:
    """The observation to route: ``obs`` (the reading again, or the first reading when ``again``
    is false), with the first reading and why it was read again in its detail."""
    if first is None:
        return obs
    seen, why, _ = first
    note = {"appeared": list(seen.appeared), "confidence": seen.confidence, "why": why[:300],
            "read_again": again}
    return obs.model_copy(update={"detail": {**obs.detail, "first_reading": note}})


def _drop_read(session: TableSession, seq: int) -> bool:
    """Whether the session took a drop (or asked about one) since record ``seq``."""
    return any(r.get("type") in ("move", "observation") and
               (r.get("type") == "move" or (r.get("observation") or {}).get("kind") == "tray")
               for r in session.records[seq:])
