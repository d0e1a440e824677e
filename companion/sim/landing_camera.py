"""The simulated landing camera: the table in front of the tower, with the drinks where the table's
chance (or a test) laid them, frame by frame.

``show(wants)`` composes a scene (sim/landing_layouts.py's ``compose``: each ``(drink, spot,
distance)`` placed so that its truth is what was asked) and has a hand pass over the table for a
few frames first (the hand that lifts the tower); ``rest_hand()`` leaves a hand over the table
until ``lift_hand()``. ``read()`` gives the next frame: a still scene is drawn once and shown as a
few noisy copies in turn (``still_camera.py``). Once a truth reader is asked for, every frame
given out is remembered with its truth for a little while, so that
:meth:`SimLandingCamera.truth_reader` reads a frame as a perfect camera would (``landing.truth``;
a frame with a hand over the table: code ``hand``) -- the table's stand-in for the vision reader. Seeded: the same calls give the same frames.

The picture is sim/landing_render.py's (the vision side's renderer, in its ``dev`` look of
``seed``), with a few coins and cards about now and then; the hand is a plain skin-coloured
shape drawn over it (the renderer draws no hands).

>>> cam = SimLandingCamera(seed=1)
>>> reader = cam.truth_reader()
>>> truth = cam.show([("red-short_can", "outside", 300)], hand_frames=1)
>>> [(x.drink, x.spot, x.distance_mm) for x in truth.landings]
[('red-short_can', 'outside', 300)]
>>> reader.read(cam.read(), ("red-short_can",)).codes
['hand']
>>> [(x.spot, x.distance_mm) for x in reader.read(cam.read(), ("red-short_can", "blue-tall_can")).landings]
[('outside', 300), (None, None)]
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

import cv2
import numpy as np

from ..landing import LandingReading, LandingScene, truth
from ..vision.sources import FrameSource, open_source
from .landing_layouts import compose
from .landing_render import LandingLook, LandingRenderer
from .still_camera import StillSceneCamera, locked

SIM_LANDING_SEED = 4101       # the look of the simulated landing camera
REMEMBERED = 16               # frames whose truth is kept for the truth reader
MAX_WANTS = 36
MAX_LOOSE = 3                 # coins and cards lying about, at most
IN_VIEW_TRIES = 30            # scenes composed at most to find one whose drinks all lie in view
EDGE_MM = 25                  # a drink this far inside the view's edges is in view
HAND_SRGB = (222, 178, 150)


class TruthReader:
    """Reads a frame of the simulated landing camera as a perfect camera would (see the module)."""

    def __init__(self, camera: "SimLandingCamera"):
        self.camera = camera

    def read(self, frame: np.ndarray, asked: tuple[str, ...]) -> LandingReading:
        known = self.camera.frame_truth(frame)
        if known is None:
            return LandingReading(codes=["no_view"])
        scene, hand = known
        return LandingReading(codes=["hand"]) if hand else truth(scene, tuple(asked))


class SimLandingCamera(StillSceneCamera):
    def __init__(self, seed: int = SIM_LANDING_SEED, family: str = "dev"):
        super().__init__(f"sim-landings:{seed}")
        self.seed = seed
        self.rng = np.random.default_rng([seed, 9701])
        self.frame_rng = np.random.default_rng([seed, 9701, 1])   # each frame's own chance (still_camera.py)
        self.look = LandingLook.from_seed(seed, family)
        self.renderer = LandingRenderer(self.look)
        self.scene = LandingScene()
        self.loose: tuple = ()
        self._frames: OrderedDict[bytes, tuple[LandingScene, bool]] = OrderedDict()
        self._remember = False        # frames' truths are kept once a truth reader reads them (a digest a frame)
        w, h = self.renderer.size
        self._granted = {"width": w, "height": h, "simulated": True}
        self._set("ok")

    @locked
    def show(self, wants: list, hand_frames: int = 4) -> LandingReading:
        """The drinks now lie as ``wants`` says (``(drink, spot or None, distance_mm or None)``
        each; ValueError when there is no room and nothing changes); a hand passes over the table
        for ``hand_frames`` frames first. Answers the new scene's truth."""
        if len(wants) > MAX_WANTS:
            raise ValueError(f"at most {MAX_WANTS} drinks lie on the table")
        for _ in range(IN_VIEW_TRIES):   # compose throws anywhere ahead: keep a scene the camera sees whole
            scene = compose([tuple(w) for w in wants], self.rng)
            if all(self.in_view(d.x, d.y) for d in scene.drinks):
                break
        self.scene = scene
        self.loose = self.renderer.random_loose(scene, self.rng, int(self.rng.integers(0, MAX_LOOSE + 1)))
        self._changed()
        n = max(0, min(int(hand_frames), 60))
        self.script = [self._hand() for _ in range(n)]
        return truth(scene)

    @locked
    def rest_hand(self) -> None:
        self.resting_hand = self._hand()
        self._changed()

    def in_view(self, x: float, y: float) -> bool:
        """Whether a point of the table (landing mm) lies well inside what the camera shows."""
        return abs(x) <= self.look.half_width_mm - EDGE_MM and 0 <= y <= self.look.far_mm - EDGE_MM

    def _hand(self) -> tuple[int, int, int]:
        """Where a hand is drawn: its middle (px) and its turn (degrees)."""
        w, h = self.look.image_size
        x, y = int(self.rng.uniform(0.25, 0.75) * w), int(self.rng.uniform(0.35, 0.9) * h)
        return x, y, int(self.rng.uniform(0, 180))

    def _picture(self, hand: tuple[int, int, int] | None) -> np.ndarray:
        # the renderer's frame before the sensor's noise (the still scene's noisy copies need the
        # clean picture: StillSceneCamera)
        img = self.renderer.clean_picture(self.scene, self.frame_rng, self.loose)
        if hand is not None:
            x, y, turn = hand
            size = max(20, self.look.image_size[0] // 9)
            cv2.ellipse(img, (x, y), (size, int(size * 0.6)), turn, 0, 360, HAND_SRGB[::-1], -1)
            cv2.ellipse(img, (x, y + size), (int(size * 0.45), size), turn, 0, 360, HAND_SRGB[::-1], -1)
        return img

    def _script_frame(self, entry) -> np.ndarray:
        return self._picture(entry)

    def _still_frame(self) -> np.ndarray:
        return self._picture(self.resting_hand)

    @locked
    def read(self) -> np.ndarray:
        hand = bool(self.script) or self.resting_hand is not None
        frame = super().read()
        if not self._remember:
            return frame
        self._frames[_digest(frame)] = (self.scene, hand)
        while len(self._frames) > REMEMBERED:
            self._frames.popitem(last=False)
        return frame

    @locked
    def frame_truth(self, frame: np.ndarray) -> tuple[LandingScene, bool] | None:
        """The scene a frame given out lately shows, and whether a hand is over it (None: not one of ours)."""
        return self._frames.get(_digest(frame))

    @locked
    def calibration_photo(self) -> np.ndarray:
        """The photo the host takes to calibrate: the mat at the tower's foot, nothing else on the
        table, in this camera's look (sim/landing_render.py)."""
        return self.renderer.calibration_picture(np.random.default_rng([self.seed, 9702]))

    @locked
    def truth_now(self) -> LandingReading:
        """What a perfect camera reads of the scene now (every drink on the table)."""
        return truth(self.scene)

    def truth_reader(self) -> TruthReader:
        self._remember = True
        return TruthReader(self)

    @locked
    def status(self) -> dict:
        s = super().status()
        s["drinks"] = [d.drink for d in self.scene.drinks]
        s["hand"] = bool(self.script) or self.resting_hand is not None
        return s


def _digest(frame: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(frame).data, digest_size=16).digest()


def open_landing_camera(spec: str, **options) -> FrameSource:
    """A landing camera as ``companion serve --landing-camera SPEC`` names it: ``sim`` or
    ``sim:SEED`` (this simulated camera), else what ``vision.sources.open_source`` opens (a USB
    index, a video or image file, a URL)."""
    spec = str(spec).strip()
    if spec == "sim" or spec.startswith("sim:"):
        seed = int(spec.split(":", 1)[1]) if ":" in spec else options.pop("seed", SIM_LANDING_SEED)
        return SimLandingCamera(seed=seed, **options)
    return open_source(spec, **options)
