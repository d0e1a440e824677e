"""The simulated crate camera: the crates and the drinks in them seen from above, frame by frame.

``set(layout)`` has a hand pass over the crates for a few frames (reaching to the first field
that changed) and then shows the new layout; crates that did not move stay where they stood on
the table, and so do the drinks that stayed in their slot (a drink moves with its crate).
``rest_hand()`` leaves a hand over the crates until ``lift_hand()``. ``read()`` gives the next
frame: while nothing changes the still scene is not drawn again (a few noisy copies of it are
shown in turn). ``calibration_photo(layout)`` is one still frame of other crates (the reader's
calibration crate, filled with known drinks) standing where the grid stands, in the same look.
Seeded: the same calls give the same frames.

The start layout is GRAPE SODA's: six crates as a 6x6 square, empty.

>>> cam = SimCrateCamera(seed=1)
>>> cam.set(CrateLayout(crates=START.crates, drinks={(0, 0): "red-tall_can"}), hand_frames=2)
>>> cam.status()["hand"], [cam.read().shape for _ in range(2)], cam.status()["hand"]
(True, [(720, 1280, 3), (720, 1280, 3)], False)
>>> cam.truth()["fields"][(0, 0)], cam.status()["fields"]["1,0"]
('red-tall_can', 'empty')
"""
from __future__ import annotations

import functools
import math
import threading
from dataclasses import replace

import numpy as np

from ..crate_fields import CrateLayout
from ..vision.sources import FrameSource, open_source
from .board_looks import BoardHand
from .crate_looks import CrateLook
from .crate_render import CrateRenderer
from .crate_scene import CrateScene, check_layout, grid_origin

SIM_CRATE_SEED = 3101          # the look of the simulated crates
STILL_COPIES = 3               # noisy copies of a still scene shown in turn
START = CrateLayout(crates=tuple((2 * (i % 3), 3 * (i // 3), 0) for i in range(6)), drinks={})


def _locked(method):
    """The camera is read by its device thread while the table or a test changes the crates:
    one at a time."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)
    return run


class SimCrateCamera(FrameSource):
    def __init__(self, seed: int = SIM_CRATE_SEED, family: str = "dev", layout: CrateLayout | None = None):
        super().__init__(f"sim-crates:{seed}")
        self._lock = threading.RLock()
        self.look = CrateLook.from_seed(seed, family)
        self.renderer = CrateRenderer(self.look)
        self.rng = np.random.default_rng([seed, 9601])
        self.layout = layout or START
        # where the game's field (0, 0) corner stands on the table and the grid's yaw: kept while
        # the crates are moved about, so that the crates not moved stay put
        pose = self.renderer.random_pose(self.layout, self.rng)
        self._yaw = pose[2]
        self._anchor = np.array(pose[:2]) - self._turn(self._middle(self.layout))
        self.scene: CrateScene = self.renderer.place(self.layout, self.rng, self._pose(self.layout))
        self.resting_hand: BoardHand | None = None
        self.script: list[tuple[CrateScene, BoardHand]] = []    # hand frames still to show
        self._still: list[np.ndarray] = []
        self._clean: np.ndarray | None = None
        self.calibration_truth: dict | None = None
        w, h = self.look.image_size
        self._granted = {"width": w, "height": h, "simulated": True}
        self._set("ok")

    # --- where the grid stands --------------------------------------------------------------

    def _turn(self, v) -> np.ndarray:
        a = math.radians(self._yaw)
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) @ np.asarray(v, float)

    def _middle(self, layout: CrateLayout) -> np.ndarray:
        """The middle of the layout's outline in the game's own field coordinates, as mm."""
        w, h = self.renderer.grid_size(layout)
        ox, oy = grid_origin(layout)
        return np.array([ox * self.look.pitch_mm + w / 2, oy * self.look.pitch_mm + h / 2])

    def _pose(self, layout: CrateLayout) -> tuple[float, float, float]:
        x, y = self._anchor + self._turn(self._middle(layout))
        return float(x), float(y), float(self._yaw)

    def _follow(self, old: CrateLayout, new: CrateLayout) -> None:
        """If the game's coordinates of the crates that stayed changed by a shift (a game may
        count its grid from its new corner), move the anchor so that those crates stay put."""
        best, count = (0, 0), sum(1 for c in new.crates if c in set(old.crates))
        olds = set(old.crates)
        for a in old.crates:
            for b in new.crates:
                if a[2] != b[2]:
                    continue
                s = (b[0] - a[0], b[1] - a[1])
                n = sum(1 for c in new.crates if (c[0] - s[0], c[1] - s[1], c[2]) in olds)
                if n > count or (n == count and abs(s[0]) + abs(s[1]) < abs(best[0]) + abs(best[1])):
                    best, count = s, n
        self._anchor = self._anchor - self._turn(np.array(best, float) * self.look.pitch_mm)

    # --- what stands in the crates ----------------------------------------------------------

    @_locked
    def set(self, layout: CrateLayout, hand_frames: int = 4) -> None:
        """The crates now are ``layout``: a hand passes over them for ``hand_frames`` frames
        (reaching to the first field that changed), then the new layout shows. A layout the
        crates cannot show raises ValueError (``crate_scene.check_layout``) and changes nothing."""
        check_layout(layout)
        before, old = self.scene, self.layout
        self._follow(old, layout)
        self.layout = layout
        self.scene = self.renderer.place(layout, self.rng, self._pose(layout), keep=before)
        self._changed()
        n = max(0, min(int(hand_frames), 60))
        target = self._first_change(before, self.scene)
        if not n or target is None:
            return
        hand = self.renderer.random_hand(self.scene, self.rng)
        ex, ey = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}[hand.edge]
        for i in range(n):
            away = abs(2 * (i / max(1, n - 1)) - 1) * 60.0      # reaching in, then drawing back
            frame_hand = replace(hand, x=target[0] + ex * (away + 8), y=target[1] + ey * (away + 8))
            self.script.append((before if i < n / 2 else self.scene, frame_hand))

    def _first_change(self, before: CrateScene, after: CrateScene) -> tuple[float, float] | None:
        """Where (grid mm of ``after``) the first change is, or None if nothing changed."""
        if before.pose == after.pose and before.layout.footprints() == after.layout.footprints() \
                and before.layout.fields() == after.layout.fields():
            return None
        p = self.look.pitch_mm
        old, new = before.layout.fields(), after.layout.fields()
        changed = sorted(f for f in new if old.get(f) != new[f])
        f = changed[0] if changed else (0, 0)
        return (f[0] + 0.5) * p, (f[1] + 0.5) * p

    @_locked
    def rest_hand(self, at: tuple[float, float] | None = None) -> None:
        """A hand stays over the crates (reaching to ``at``, grid mm; None: somewhere over them)
        until :meth:`lift_hand`."""
        self.resting_hand = self.renderer.random_hand(self.scene, self.rng, at)
        self._changed()

    @_locked
    def lift_hand(self) -> None:
        self.resting_hand = None
        self._changed()

    def _changed(self) -> None:
        self._clean, self._still = None, []

    # --- frames -----------------------------------------------------------------------------

    @_locked
    def read(self) -> np.ndarray:
        self.frames += 1
        if self.script:
            scene, hand = self.script.pop(0)
            img, _ = self.renderer.clean(scene, hand, gain=self.renderer.exposure(self.rng) * 0.97)
            return self.renderer.sensor(img, self.rng)
        if len(self._still) < STILL_COPIES:
            if self._clean is None:
                self._clean, _ = self.renderer.clean(self.scene, self.resting_hand, gain=self.renderer.exposure(self.rng))
            self._still.append(self.renderer.sensor(self._clean, self.rng))
            if len(self._still) == STILL_COPIES:
                self._clean = None                     # the copies are all that is needed now
            return self._still[-1].copy()
        return self._still[self.frames % STILL_COPIES].copy()

    @_locked
    def calibration_photo(self, layout: CrateLayout | None = None) -> np.ndarray:
        """One still frame of ``layout`` (default: :data:`START` with nothing in it) standing in
        the middle of the view at the grid's yaw, no hand, in this camera's look: what the host
        photographs to calibrate the reader. Its truth is kept in ``calibration_truth``."""
        layout = layout or START
        rng = np.random.default_rng([self.look.seed, 9602])
        scene = self.renderer.place(layout, rng, (0.0, 0.0, self._yaw))
        img, hand_mask = self.renderer.clean(scene, None)
        self.calibration_truth = self.renderer.truth(scene, hand_mask)
        return self.renderer.sensor(img, rng)

    @_locked
    def truth(self) -> dict:
        """The still scene's truth (as :meth:`CrateRenderer.render` gives it)."""
        hand_mask = None
        if self.resting_hand is not None:
            _, hand_mask = self.renderer.clean(self.scene, self.resting_hand)
        return self.renderer.truth(self.scene, hand_mask)

    @_locked
    def status(self) -> dict:
        s = super().status()
        s["crates"] = [list(c) for c in self.layout.crates]
        s["fields"] = {f"{x},{y}": v for (x, y), v in sorted(self.layout.fields().items())}
        s["hand"] = bool(self.script) or self.resting_hand is not None
        s["look"] = self.look.describe()
        return s


def open_crate_camera(spec: str, **options) -> FrameSource:
    """A crate camera as ``companion serve --crate-camera SPEC`` names it: ``sim`` or
    ``sim:SEED`` (this simulated camera; SEED picks the look), else what
    ``vision.sources.open_source`` opens (a USB index, a video or image file, a URL)."""
    spec = str(spec).strip()
    if spec == "sim" or spec.startswith("sim:"):
        seed = int(spec.split(":", 1)[1]) if ":" in spec else options.pop("seed", SIM_CRATE_SEED)
        return SimCrateCamera(seed=seed, **options)
    return open_source(spec, **options)
