"""The simulated crate camera: the crates and the drinks in them seen from above, frame by frame.

``set(layout)`` has a hand pass over the crates for a few frames (reaching to the first field
that changed) and then shows the new layout; crates that did not move stay where they stood on
the table, and so do the drinks that stayed in their slot (a drink moves with its crate).
The hand brings the drink put in (and carries off one taken out). ``rest_hand()`` leaves a
hand over the crates until ``lift_hand()``; ``bump()`` knocks the whole grid a little across
the table. ``read()`` gives the next frame: while nothing changes the still scene is not drawn
again (a few noisy copies of it are shown in turn, ``still_camera.py``).
``calibration_photo(layout)`` is one still frame of other crates (the reader's calibration
crate, filled with known drinks) standing alone in the middle of the view, in the same look.
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

import math
from dataclasses import replace

import numpy as np

from ..crate_fields import EMPTY, CrateLayout
from ..vision.sources import FrameSource, open_source
from .board_looks import BoardHand
from .crate_looks import CrateLook
from .crate_render import CrateRenderer
from .crate_scene import CrateScene, check_layout, grid_origin
from .still_camera import StillSceneCamera, locked

SIM_CRATE_SEED = 3101          # the look of the simulated crates
START = CrateLayout(crates=tuple((2 * (i % 3), 3 * (i // 3), 0) for i in range(6)), drinks={})


class SimCrateCamera(StillSceneCamera):
    def __init__(self, seed: int = SIM_CRATE_SEED, family: str = "dev", layout: CrateLayout | None = None):
        super().__init__(f"sim-crates:{seed}")
        self.look = CrateLook.from_seed(seed, family)
        self.renderer = CrateRenderer(self.look)
        self.rng = np.random.default_rng([seed, 9601])
        # each frame's exposure from a stream of its own: where crates and cans stand depends on
        # the seed and the changes alone, not on how many frames were read meanwhile
        self.frame_rng = np.random.default_rng([seed, 9601, 1])
        self.layout = layout or START
        check_layout(self.layout)
        # where the game's field (0, 0) corner stands on the table and the grid's yaw: kept while
        # the crates are moved about, so that the crates not moved stay put
        pose = self.renderer.random_pose(self.layout, self.rng)
        self._yaw = pose[2]
        self._anchor = np.array(pose[:2]) - self._turn(self._middle(self.layout))
        self.scene: CrateScene = self.renderer.place(self.layout, self.rng, self._pose(self.layout))
        self.script: list[tuple[CrateScene, BoardHand, str | None]] = []    # hand frames still to show
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

    @locked
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
        change = self._first_change(before, self.scene)
        if not n or change is None:
            return
        target, put, taken = change
        hand = self.renderer.random_hand(self.scene, self.rng)
        ex, ey = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}[hand.edge]
        for i in range(n):
            away = abs(2 * (i / max(1, n - 1)) - 1) * 60.0      # reaching in, then drawing back
            frame_hand = replace(hand, x=target[0] + ex * (away + 8), y=target[1] + ey * (away + 8))
            # the hand brings the drink put in, and carries off the one taken out
            first = i < n / 2
            self.script.append((before if first else self.scene, frame_hand, put if first else taken))

    def _first_change(self, before: CrateScene, after: CrateScene):
        """The first change: where (grid mm of ``after``), the drink put there and the drink
        taken from there (either None); None if nothing changed."""
        if before.pose == after.pose and before.layout.footprints() == after.layout.footprints() \
                and before.layout.fields() == after.layout.fields():
            return None
        p = self.look.pitch_mm
        old, new = before.layout.fields(), after.layout.fields()
        changed = sorted(f for f in new if old.get(f) != new[f])
        f = changed[0] if changed else (0, 0)
        put, taken = new.get(f, EMPTY), old.get(f, EMPTY)
        return ((f[0] + 0.5) * p, (f[1] + 0.5) * p), None if put == EMPTY else put, None if taken == EMPTY else taken

    @locked
    def bump(self, shift_mm: float = 6.0, turn_deg: float = 4.0, seed: int | None = None) -> tuple[float, float, float]:
        """Someone knocks the crates: the whole grid slides up to ``shift_mm`` and turns up to
        ``turn_deg`` about its middle on the table, every crate and drink with it (what the
        game has does not change). Returns the grid's new pose."""
        rng = np.random.default_rng(seed) if seed is not None else self.rng
        middle = np.array(self._pose(self.layout)[:2])
        self._yaw += float(rng.uniform(-turn_deg, turn_deg))
        a = rng.uniform(0, 2 * math.pi)
        slide = rng.uniform(0.3, 1.0) * shift_mm * np.array([math.cos(a), math.sin(a)])
        self._anchor = middle + slide - self._turn(self._middle(self.layout))
        pose = self._pose(self.layout)
        free = self.renderer.free_of_crates(self.layout, pose)       # a thing the crates now cover is pushed off
        loose = tuple(o for o in self.scene.loose if free(o.x, o.y, o.radius(self.look)))
        self.scene = replace(self.scene, pose=pose, loose=loose)
        self._changed()
        return pose

    @locked
    def rest_hand(self, at: tuple[float, float] | None = None) -> None:
        """A hand stays over the crates (reaching to ``at``, grid mm; None: somewhere over them)
        until :meth:`lift_hand`."""
        self.resting_hand = self.renderer.random_hand(self.scene, self.rng, at)
        self._changed()

    # --- frames -----------------------------------------------------------------------------

    def _script_frame(self, entry) -> np.ndarray:
        scene, hand, held = entry
        img, _ = self.renderer.clean(scene, hand, gain=self.renderer.exposure(self.frame_rng) * 0.97, held=held)
        return img                                     # (the hand darkens the view)

    def _still_frame(self) -> np.ndarray:
        img, _ = self.renderer.clean(self.scene, self.resting_hand, gain=self.renderer.exposure(self.frame_rng))
        return img

    @locked
    def calibration_photo(self, layout: CrateLayout | None = None) -> np.ndarray:
        """One still frame of ``layout`` (default: :data:`START` with nothing in it) standing in
        the middle of the view at the grid's yaw on a cleared table, no hand, in this camera's
        look: what the host photographs to calibrate the reader. Its truth is kept in
        ``calibration_truth``."""
        layout = layout or START
        rng = np.random.default_rng([self.look.seed, 9602])
        scene = replace(self.renderer.place(layout, rng, (0.0, 0.0, self._yaw)), loose=())   # the table cleared for it
        img, hand_mask = self.renderer.clean(scene, None)
        self.calibration_truth = self.renderer.truth(scene, hand_mask)
        return self.renderer.sensor(img, rng)

    @locked
    def truth(self) -> dict:
        """The still scene's truth (as :meth:`CrateRenderer.render` gives it)."""
        hand_mask = None
        if self.resting_hand is not None:
            _, hand_mask = self.renderer.clean(self.scene, self.resting_hand)
        return self.renderer.truth(self.scene, hand_mask)

    @locked
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
