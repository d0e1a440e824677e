"""The landing camera's thread: frames of the table in front of the tower, read for the drinks the
game in play waits for, handed to that game's LandingWatch.

Like the crate camera (table/camera_device.py's shared thread): the source (``open_camera(spec)``,
the composition root's, which knows ``sim``: the simulated landing camera) is read at most
``fps`` frames a second while a game waits for landings (``Tables.landings_in_play``: the newest
open game scored by landings, created or moved in); each frame is read by the landing reader with
the drinks asked (``reader.read(frame, asked)``: the game's ``landing_moves.wanted``) and the
:class:`~companion.landing.LandingReading` handed to the game (``Tables.landing_route``). While no
game waits for a landing (and nobody looks at the picture) the camera rests. A failing camera or
reader never stops the service: it shows as a problem in the game's view and the game goes on by taps.

The reader: vision.landings.LandingReader from the host's calibration
(``<data>/landing-calibration.json``, from `companion calibrate landing PHOTO`) or, on a simulated
camera without one, from the simulated camera's own photo of the calibration mat; or
``make_reader(calibration, source)`` when the composition root gives one (the tests' truth
reader: ``source.truth_reader()`` of the simulated camera).

On a simulated table the table's chance decides where the thrown drinks land (the automation's
``chance_move``, seeded as the table's own draws are) and the simulated players put them there
(:meth:`LandingDevice.stage`: the simulated camera's ``show``), once for each position of the game
that waits for landings; a test sets any scene with :meth:`LandingDevice.sim_landings`.
"""
from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..landing import MAX_DISTANCE_MM
from ..rules.engine import IllegalMove
from .camera_device import CameraDevice
from .landing_moves import Wanted, chance_outcomes, wanted

log = logging.getLogger(__name__)

READ_FPS = 4.0           # readings a second at most: landings settle on three over 0.6 s
CALIBRATION_FILE = "landing-calibration.json"
HAND_FRAMES = 4          # frames a simulated hand (lifting the tower) is seen in, unless told
MAX_HAND_FRAMES = 20
FARTHEST_MM = 310        # the simulated short cans: the farthest this far from the tower (in view) ...
STEP_MM = 45             # ... each next one this much nearer (well apart: no tie), give or take
JITTER_MM = 6


class SimLandingsError(ValueError):
    """The simulated players cannot set that scene (``busy``: not now, else the scene is wrong)."""

    def __init__(self, message: str, busy: bool = False):
        super().__init__(message)
        self.busy = busy


class LandingDevice(CameraDevice):
    """The landing camera (see the module)."""

    NAME = "landing camera"
    CALIBRATION_FILE = CALIBRATION_FILE
    SIM_METHOD = "show"

    def __init__(self, tables: Any, spec: str, open_camera: Callable[[str], Any] | None = None,
                 data_dir: str | Path | None = None, make_reader: Callable[[Any, Any], Any] | None = None,
                 fps: float = READ_FPS):
        super().__init__(tables, spec, open_camera, data_dir, follow_s=None, fps=fps)
        self.make_reader = make_reader
        self._staged: tuple | None = None     # the position (game, step) the simulated players set out last
        self.calibration: Any = None

    # --- what the device reads for -------------------------------------------------------------

    def in_play(self) -> Any:
        """The game the camera reads for now: only while it waits for landings (else it rests)."""
        session = self.tables.landings_in_play()
        return session if session is not None and wanted(session.game, session.state) is not None else None

    def route(self, reading: Any, at: float) -> None:
        self.tables.landing_route(reading, at=at)

    def watch_of(self, session: Any) -> Any:
        return session.landing_watch

    def follow(self, session: Any) -> None:   # nothing of a landing is copied onto the table
        return None

    def asked_now(self) -> tuple[str, ...]:
        """The drinks the game in play waits for (the same frame asked about others is read again)."""
        session = self.in_play()
        want = wanted(session.game, session.state) if session is not None else None
        return want.drinks if want is not None else ()

    def build_reader(self, frame: np.ndarray) -> None:
        """The reader (see the module); a calibration refused says what to do (``calibrate``)."""
        try:
            if self.make_reader is not None:
                self.reader = self.make_reader(self._calibrated(), self.source)
                return
            calibration = self._calibrated() or self._simulated_calibration()
        except ValueError as exc:   # LandingCalibrationError: a photo without the mat, a broken file
            self.uncalibrated = f"the landing camera's calibration is refused: {exc}"
            log.warning("landing camera: %s", self.uncalibrated)
            return
        if calibration is None:
            self.uncalibrated = ("the landing camera is not calibrated: lay the mat at the tower's foot, photograph "
                                 f"it and run `companion calibrate landing PHOTO --out <data>/{CALIBRATION_FILE}`")
            return
        from ..vision.landings import LandingReader

        self.calibration = calibration
        self.reader = LandingReader(calibration)

    def _calibrated(self) -> Any:
        """The host's calibration (``<data>/landing-calibration.json``), or None."""
        path = self.calibration_path
        if path is None or not path.is_file():
            return None
        from ..vision.landing_calibrate import LandingCalibration

        return LandingCalibration.load(path)

    def _simulated_calibration(self) -> Any:
        """A simulated camera calibrates from its own photo of the mat, as the host would."""
        camera = self.simulated_camera()
        if camera is None or not hasattr(camera, "calibration_photo"):
            return None
        from ..vision.landing_calibrate import calibrate_landing

        return calibrate_landing(camera.calibration_photo())

    # --- the simulated table ---------------------------------------------------------------------

    def _follow_when_due(self) -> None:
        """On a simulated table, set out the landings the game's chance decides, once a position."""
        session = self.in_play()
        if session is None or not session.simulated or self.simulated_camera() is None:
            return
        position = (session.id, session.step)
        if position == self._staged:
            return
        self._staged = position
        try:
            self.stage(session)
        except (ValueError, IllegalMove) as exc:   # no room on the simulated table: the table taps
            log.warning("landing camera: the simulated landings could not be set out: %s", exc)

    def stage(self, session: Any) -> list[tuple[str, str | None, int | None]]:
        """Decide where the drinks the game waits for land (the table's seeded chance) and have the
        simulated camera show them; what was set out (``(drink, spot, distance)``, a drink stuck in
        the tower left out)."""
        automation = session.automation
        if automation is None:
            return []
        with session.lock:
            game, state, want = session.game, session.state, wanted(session.game, session.state)
            seed = f"{session.config['seed']}:{len(session.records)}:landing"
        if want is None:
            return []
        wants = tower_throw(game, state, want, automation, seed) if want.kind == "land" \
            else short_can_throw(game, state, want, automation, seed)
        self.simulated_camera().show(wants)
        return wants

    def sim_landings(self, wants: list[tuple[str, str | None, int | None]], hand: bool = False,
                     hand_frames: int = HAND_FRAMES) -> dict:
        """The simulated players lay ``wants`` out in front of the tower (see routes/landings.py's
        /api/sim/landings); a ``hand`` stays over the table until the next call without one."""
        camera = self.simulated_camera()
        if camera is None:
            raise SimLandingsError("no simulated landing camera runs here", busy=True)
        drinks = [d for d, _, _ in wants]
        if len(set(drinks)) != len(drinks):
            raise SimLandingsError("a drink is named twice: each drink lands in one place")
        try:
            truth = camera.show(wants, hand_frames=hand_frames)
        except ValueError as exc:
            raise SimLandingsError(f"the simulated table cannot lay these out: {exc}") from None
        if hand:
            camera.rest_hand()
        elif getattr(camera, "resting_hand", None) is not None:
            camera.lift_hand()
        return {"result": "shown", "landings": [x.model_dump() for x in truth.landings]}


def tower_throw(game: Any, state: Any, want: Wanted, automation: Any, seed: str) -> list:
    """Each thrown drink's spot as the table's chance draws it (a stuck one stays in the tower)."""
    outcomes = chance_outcomes(game, state, "land")
    wants = []
    for i, drink in enumerate(want.drinks):
        spot = automation.chance_move([m for m in outcomes if m.args["drink"] == drink], f"{seed}:{i}").args["spot"]
        if spot != "stuck":
            wants.append((drink, spot, None))
    return wants


def short_can_throw(game: Any, state: Any, want: Wanted, automation: Any, seed: str) -> list:
    """The units' order as the table's chance draws it, each short can well apart, farthest first."""
    order: list[int] = []
    while True:
        outcomes = chance_outcomes(game, state, "farthest")
        if not outcomes:
            break
        move = automation.chance_move(outcomes, f"{seed}:{len(order)}")
        order.append(move.args["unit"])
        state, _ = game.apply(state, move)
    order += [u for u in want.units if u not in order]
    can = dict(zip(want.units, want.drinks))
    jitter = random.Random(seed)
    return [(can[u], None, min(MAX_DISTANCE_MM, FARTHEST_MM - STEP_MM * k + jitter.randint(-JITTER_MM, JITTER_MM)))
            for k, u in enumerate(order)]
