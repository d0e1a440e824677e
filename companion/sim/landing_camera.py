"""The simulated landing camera: the table in front of the tower, with the drinks where the table's
chance (or a test) laid them, frame by frame.

``show(wants)`` composes a scene (sim/landing_layouts.py's ``compose``: each ``(drink, spot,
distance)`` placed so that its truth is what was asked) and has a hand pass over the table for a
few frames first (the hand that lifts the tower); ``rest_hand()`` leaves a hand over the table
until ``lift_hand()``. ``read()`` gives the next frame: a still scene is drawn once and shown as a
few noisy copies in turn (``still_camera.py``). Every frame given out is remembered with its truth
for a little while, so that :meth:`SimLandingCamera.truth_reader` reads a frame as a perfect camera
would (``landing.truth``; a frame with a hand over the table: code ``hand``) -- the table's
stand-in for the vision reader. Seeded: the same calls give the same frames.

Until the vision side's renderer is at hand the picture is a plain top view drawn here
(:class:`PlainLandingPicture`): the table, the tower's foot, the crates with their slots, each
drink in its colour.

>>> cam = SimLandingCamera(seed=1)
>>> truth = cam.show([("red-short_can", "outside", 300)], hand_frames=1)
>>> [(x.drink, x.spot, x.distance_mm) for x in truth.landings]
[('red-short_can', 'outside', 300)]
>>> frame = cam.read(); cam.truth_reader().read(frame, ("red-short_can",)).codes
['hand']
>>> [(x.spot, x.distance_mm) for x in cam.truth_reader().read(cam.read(), ("red-short_can", "blue-tall_can")).landings]
[('outside', 300), (None, None)]
"""
from __future__ import annotations

import hashlib
import math
from collections import OrderedDict

import cv2
import numpy as np

from ..drinks import Drink
from ..landing import LandingReading, LandingScene, truth
from ..vision.sources import FrameSource, open_source
from .landing_layouts import compose
from .looks import NOMINAL_SRGB
from .still_camera import StillSceneCamera, locked

SIM_LANDING_SEED = 4101       # the look of the simulated landing camera
REMEMBERED = 16               # frames whose truth is kept for the truth reader
MAX_WANTS = 36


class PlainLandingPicture:
    """A plain top view of a landing scene: 1 px a millimetre, the tower's foot at the top middle."""

    size = (960, 660)         # px across, down
    origin = (480, 40)        # where the tower's foot is drawn
    table_bgr = (96, 128, 150)
    crate_bgr = (40, 200, 240)

    def px(self, x: float, y: float) -> tuple[int, int]:
        return int(round(self.origin[0] + x)), int(round(self.origin[1] + y))

    def clean(self, scene: LandingScene, hand: tuple[float, float] | None = None) -> np.ndarray:
        w, h = self.size
        img = np.full((h, w, 3), self.table_bgr, np.uint8)
        cv2.rectangle(img, self.px(-40, -40), self.px(40, 0), (60, 60, 60), -1)   # the tower's foot
        for crate in scene.crates:
            hu, hv = crate.half_size()
            box = cv2.boxPoints(((crate.x + self.origin[0], crate.y + self.origin[1]), (2 * hu, 2 * hv), crate.yaw))
            cv2.polylines(img, [np.intp(box)], True, self.crate_bgr, 2)
            a = math.radians(crate.yaw)

            def at(u, v, c=crate, a=a):   # a point of the crate's own frame on the table
                return self.px(c.x + u * math.cos(a) - v * math.sin(a), c.y + u * math.sin(a) + v * math.cos(a))

            cv2.line(img, at(0, -hv), at(0, hv), self.crate_bgr, 1)            # the wall between the two columns
            for v in (-hv / 3, hv / 3):                                          # the walls between the rows
                cv2.line(img, at(-hu, v), at(hu, v), self.crate_bgr, 1)
        for d in scene.drinks:
            r, g, b = NOMINAL_SRGB[Drink.parse(d.drink).colour.value]
            if d.standing:
                cv2.circle(img, self.px(d.x, d.y), int(d.width_mm / 2), (b, g, r), -1)
            else:
                box = cv2.boxPoints(((d.x + self.origin[0], d.y + self.origin[1]), (d.length_mm, d.width_mm), d.yaw))
                cv2.fillPoly(img, [np.intp(box)], (b, g, r))
        if hand is not None:
            cv2.ellipse(img, self.px(*hand), (70, 45), 30, 0, 360, (140, 170, 220), -1)
        return img

    @staticmethod
    def sensor(clean: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        noise = rng.normal(0, 3.0, clean.shape)
        return np.clip(clean.astype(np.float32) + noise, 0, 255).astype(np.uint8)


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
    def __init__(self, seed: int = SIM_LANDING_SEED):
        super().__init__(f"sim-landings:{seed}")
        self.seed = seed
        self.rng = np.random.default_rng([seed, 9701])
        self.renderer = PlainLandingPicture()
        self.scene = LandingScene()
        self._frames: OrderedDict[bytes, tuple[LandingScene, bool]] = OrderedDict()
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
        scene = compose([tuple(w) for w in wants], self.rng)
        self.scene = scene
        self._changed()
        n = max(0, min(int(hand_frames), 60))
        self.script = [(float(self.rng.uniform(-150, 150)), float(self.rng.uniform(40, 250))) for _ in range(n)]
        return truth(scene)

    @locked
    def rest_hand(self) -> None:
        self.resting_hand = (float(self.rng.uniform(-150, 150)), float(self.rng.uniform(40, 250)))
        self._changed()

    def _script_frame(self, entry) -> np.ndarray:
        return self.renderer.clean(self.scene, entry)

    def _still_frame(self) -> np.ndarray:
        return self.renderer.clean(self.scene, self.resting_hand)

    @locked
    def read(self) -> np.ndarray:
        hand = bool(self.script) or self.resting_hand is not None
        frame = super().read()
        self._frames[_digest(frame)] = (self.scene, hand)
        while len(self._frames) > REMEMBERED:
            self._frames.popitem(last=False)
        return frame

    @locked
    def frame_truth(self, frame: np.ndarray) -> tuple[LandingScene, bool] | None:
        """The scene a frame given out lately shows, and whether a hand is over it (None: not one of ours)."""
        return self._frames.get(_digest(frame))

    def truth_reader(self) -> TruthReader:
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
