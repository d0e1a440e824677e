"""The crate camera's thread: frames over the crates, read, handed to the crate game in play.

Like the board camera (table/camera_device.py's shared thread): the source
(``open_camera(spec)``, the composition root's, which knows ``sim``: the simulated crate camera)
is read at most ``fps`` frames a second; each frame is read by the crate reader
(``vision.crates.CrateReader``) and the :class:`~companion.crate_fields.CrateReading` handed to
the game the crate camera reads for (``Tables.crate_route``: the newest open crate game created
or moved in), whose CrateWatch settles it and compares it with the game. While no crate game is
in play (and nobody looks at the picture), the camera rests. A failing camera or reader never
stops the service: it shows as a problem in the crate games' views and the game goes on by taps.

The reader is made from the host's calibration (``<data>/crate-calibration.json``, from
`companion calibrate crates PHOTO`); a simulated crate camera without one calibrates itself from
its own photo of the calibration crate (``calibration_photo``: one crate holding the reader's
calibration drinks), as the host would with a real camera.

On a simulated table, the simulated players' hands change the simulated crates
(:meth:`CrateDevice.sim_hands`: a drink put into a field or taken out, a crate moved or turned
with its drinks, a whole layout, or the game's crates copied over), and a move made on the
dashboard is copied onto them ``follow_s`` after it, as the board camera's simulated board is.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..crate_fields import EMPTY, MAX_CRATES, CrateLayout, crate_fields, normalized, parse_key
from .camera_device import CameraDevice

log = logging.getLogger(__name__)

READ_FPS = 4.0           # crate readings a second at most: settled crates need three over 0.6 s
CALIBRATION_FILE = "crate-calibration.json"
HAND_FRAMES = 4          # frames a simulated hand passing over the crates is seen in, unless told
MAX_HAND_FRAMES = 20
MAX_COORD = 40           # a crate's place on the simulated table, fields from the grid's corner at most


class SimCratesError(ValueError):
    """The simulated players' hands cannot do that (``busy``: not now, else the change is wrong)."""

    def __init__(self, message: str, busy: bool = False):
        super().__init__(message)
        self.busy = busy


def changed_layout(layout: CrateLayout, changes: list[dict]) -> CrateLayout:
    """``layout`` after the simulated players' ``changes``, in order (ValueError saying which is
    wrong): ``{"kind": "put", "field": "x,y", "drink": id}`` (into an empty field of a crate),
    ``{"kind": "take", "field": "x,y"}``, ``{"kind": "move", "crate": i, "x", "y", "turn"}`` (crate
    i of ``layout.crates`` set down elsewhere, its drinks in their slots). The result is shifted so
    that its smallest x and y are 0, as the games keep their grids."""
    crates = [tuple(p) for p in layout.crates]
    drinks = {f: d for f, d in layout.drinks.items() if d != EMPTY}
    for n, change in enumerate(changes, 1):
        kind = change.get("kind")
        if kind in ("put", "take"):
            f = parse_key(str(change.get("field")))
            if not any(f in crate_fields(p) for p in crates):
                raise ValueError(f"change {n}: field {f[0]},{f[1]} is in no crate (a gap between crates is no field)")
            if kind == "put":
                if f in drinks:
                    raise ValueError(f"change {n}: field {f[0]},{f[1]} holds {drinks[f]} already: take it out first")
                drinks[f] = change["drink"]
            elif drinks.pop(f, None) is None:
                raise ValueError(f"change {n}: field {f[0]},{f[1]} is empty: there is nothing to take out")
        elif kind == "move":
            i = change.get("crate")
            if not isinstance(i, int) or not 0 <= i < len(crates):
                raise ValueError(f"change {n}: there is no crate {i} (the crates are 0 to {len(crates) - 1})")
            to = (int(change.get("x", 0)), int(change.get("y", 0)), int(change.get("turn", 0)) % 4)
            old, new = crate_fields(crates[i]), crate_fields(to)
            taken = {s: drinks.pop(f) for s, f in enumerate(old) if f in drinks}
            others = {f for j, p in enumerate(crates) if j != i for f in crate_fields(p)}
            if others & set(new):
                raise ValueError(f"change {n}: crate {i} at {to[0]},{to[1]} would stand on another crate")
            crates[i] = to
            drinks.update({new[s]: d for s, d in taken.items()})
        else:
            raise ValueError(f"change {n}: a change is put, take or move, not {kind!r}")
    cells = [f for p in crates for f in crate_fields(p)]
    if len(set(cells)) < len(cells):
        raise ValueError("two crates would stand on one another")
    astray = sorted(set(drinks) - set(cells))
    if astray:
        raise ValueError(f"field {astray[0][0]},{astray[0][1]} holds a drink but is in no crate")
    ox, oy = min(x for x, _ in cells), min(y for _, y in cells)
    return CrateLayout(tuple((x - ox, y - oy, t) for x, y, t in crates),
                       {(x - ox, y - oy): d for (x, y), d in drinks.items()})


def game_layout(session: Any) -> CrateLayout:
    """The game's crates as a layout (its ``crates`` hook), its own coordinates kept."""
    places, drinks = session.game.crates(session.state)
    return CrateLayout(tuple(tuple(p) for p in places), dict(drinks))


class CrateDevice(CameraDevice):
    """The crate camera (see the module). ``make_reader(calibration)``: the reader (None:
    vision.crates.CrateReader); ``calibrate(photo)``: a calibration from a photo of the
    calibration crate (None: vision.crate_calibrate.calibrate_crates)."""

    NAME = "crate camera"
    CALIBRATION_FILE = CALIBRATION_FILE
    SIM_METHOD = "calibration_photo"

    def __init__(self, tables: Any, spec: str, open_camera: Callable[[str], Any] | None = None,
                 data_dir: str | Path | None = None, make_reader: Callable[[Any], Any] | None = None,
                 calibrate: Callable[[np.ndarray], Any] | None = None, follow_s: float | None = None,
                 fps: float = READ_FPS):
        super().__init__(tables, spec, open_camera, data_dir, follow_s, fps)
        self.make_reader, self.calibrate = make_reader, calibrate
        self.calibration: Any = None
        # why the calibration was refused, and the calibration file's time then: not tried again
        # until it is reloaded or the file is written anew
        self._refused: str | None = None
        self._refused_file: float | None = None

    # --- the simulated players' hands -----------------------------------------------------------

    def sim_hands(self, changes: list[dict] = (), layout: CrateLayout | None = None, follow_game: bool = False,
                  hand: bool = False, hand_frames: int = HAND_FRAMES) -> dict:
        """Change the simulated crates (see routes/crates.py's /api/sim/crates): the game's crates
        (``follow_game``), or a whole ``layout``, then the ``changes``; a ``hand`` left over them
        until the next call without one. SimCratesError when a change cannot be made."""
        camera = self.simulated_camera()
        if camera is None:
            raise SimCratesError("no simulated crate camera runs here", busy=True)
        start = camera.layout
        if follow_game:
            session = self.tables.crates_in_play()
            if session is None:
                raise SimCratesError("no crate game is in play for the crate camera to follow", busy=True)
            start = game_layout(session)
        elif layout is not None:
            start = layout
        try:
            new = changed_layout(start, list(changes))
        except (ValueError, TypeError, KeyError) as exc:
            raise SimCratesError(f"the simulated crates cannot take these changes: {exc}") from None
        if len(new.crates) > MAX_CRATES or any(abs(v) > MAX_COORD for p in new.crates for v in p[:2]):
            raise SimCratesError(f"the simulated table holds at most {MAX_CRATES} crates within {MAX_COORD} fields")
        if new != camera.layout:
            camera.set(new, hand_frames=hand_frames)
        if hand:
            camera.rest_hand()
        elif getattr(camera, "resting_hand", None) is not None:
            camera.lift_hand()
        return {"result": "changed", "crates": [list(p) for p in new.crates], "fields": fields_of(new)}

    def watch_of(self, session: Any) -> Any:
        return session.crate_watch

    def follow(self, session: Any) -> None:
        self.sim_hands(follow_game=True)

    # --- inside --------------------------------------------------------------------------------

    def in_play(self) -> Any:
        return self.tables.crates_in_play()

    def route(self, reading: Any, at: float) -> None:
        self.tables.crate_route(reading, at=at)

    def asked_now(self) -> int | None:
        """How many crates the game in play stands on the table (the reader reads no more slots
        than they hold: ``CrateReader.read(frame, crates)``); None when no crate game is in play."""
        session = self.in_play()
        if session is None:
            return None
        places, _ = session.game.crates(session.state)
        return len(places) or None

    def reload_calibration(self) -> None:
        self._refused = None
        super().reload_calibration()

    def build_reader(self, frame: np.ndarray) -> None:
        """The reader, from the host's calibration or (simulated) the simulated calibration crate.
        A calibration refused (its words say what to do) is not tried again until it is saved anew."""
        if self._refused is not None and self._refused_file == self._file_time():
            self.uncalibrated = self._refused
            return
        try:
            calibration = self._calibrated() or self._simulated_calibration()
        except ValueError as exc:   # CrateCalibrationError: a photo without the crate, a broken file
            self.uncalibrated = self._refused = f"the crate camera's calibration is refused: {exc}"
            self._refused_file = self._file_time()
            log.warning("crate camera: %s", self._refused)
            return
        if calibration is None:
            self.uncalibrated = ("the crate camera is not calibrated: photograph the calibration crate and run "
                                 f"`companion calibrate crates PHOTO --out <data>/{CALIBRATION_FILE}`")
            return
        make = self.make_reader
        if make is None:
            from ..vision.crates import CrateReader as make
        self.calibration = calibration
        self.reader = make(calibration)
        # A new calibration may find the crates' grid another way round: each game learns it again.
        for session in list(self.tables.sessions.values()):
            if session.crate_watch is not None:
                session.crate_watch.quarters = None

    def _file_time(self) -> float | None:
        try:
            return self.calibration_path.stat().st_mtime if self.calibration_path is not None else None
        except OSError:
            return None

    def _calibrated(self) -> Any:
        path = self.calibration_path
        if path is None or not path.is_file():
            return None
        from ..vision.crate_calibrate import CrateCalibration

        return CrateCalibration.load(path)

    def _simulated_calibration(self) -> Any:
        camera = self.simulated_camera()
        if camera is None:
            return None
        from ..vision.crate_calibrate import CALIBRATION_LAYOUT, calibrate_crates

        return (self.calibrate or calibrate_crates)(camera.calibration_photo(CALIBRATION_LAYOUT))


def fields_of(layout: CrateLayout) -> dict:
    """A layout's fields as the API names them ("x,y" -> drink id or empty)."""
    return {f"{x},{y}": v for (x, y), v in sorted(normalized(layout.fields()).items())}
