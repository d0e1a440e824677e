"""The simulated table's camera: the output tray seen from above, rendered frame by frame.

``drop(ids)`` makes drinks tumble into the tray (they arrive over a few frames, blurred by
their motion, and settle); ``take_out(ids)`` has a hand reach in and take them. Every
``read()`` renders the next frame. Seeded: the same calls give the same frames.

>>> cam = SimCamera(seed=1)
>>> cam.drop(["red-tall_can"])
>>> frames = [cam.read() for _ in range(8)]
>>> frames[-1].shape, cam.in_tray()
((720, 1280, 3), ['red-tall_can'])
>>> cam.status()["settled_at"] is not None   # when it first showed the can at rest
True
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..vision.sources import FrameSource, open_source
from .looks import Hand, Lighting, Look, Placement
from .render import Renderer
from .scenes import Layout

SIM_SEED = 2026          # the look of the simulated table (calibration/sim-profile.json matches it)
SHIFT = 64               # the still frame's noise moves by up to this many pixels from frame to frame
ARRIVE_FRAMES = 5


class SimCamera(FrameSource):
    def __init__(self, seed: int = 0, look_seed: int = SIM_SEED, tray: str | None = None, drift: float = 0.0,
                 jpeg_quality: int | None = None, touching: float = 0.3):
        super().__init__(f"sim:{seed}")
        self.look = Look.from_seed(look_seed, tray)
        self.renderer = Renderer(self.look)
        self.rng = np.random.default_rng([seed, 9001])
        # the frames' own chance (noise, lamps drifting) from a stream of its own: where drinks
        # fall depends on the seed and the drops alone, never on how many frames a busy or an
        # idle machine happened to read in between
        self.frame_rng = np.random.default_rng([seed, 9001, 1])
        self.drift, self.jpeg_quality, self.touching = drift, jpeg_quality, touching
        self.resting: list[Placement] = []
        self.script: list[tuple[list[Placement], Hand | None]] = []   # frames still to show
        self._clean: np.ndarray | None = None
        self._lighting = Lighting()
        self._granted = {"width": self.look.image_size[0], "height": self.look.image_size[1], "simulated": True}
        self.settled_at: float | None = None   # when the last drop's drinks were first shown at rest
        self._set("ok")

    # --- what is in the tray ------------------------------------------------------------------

    def in_tray(self) -> list[str]:
        return sorted(p.drink for p in self.resting)

    def truth(self) -> list[dict]:
        """Where each resting drink's centroid is in the frame (for tests and the demo)."""
        _, t = self.renderer.render(self.resting, rng=np.random.default_rng(0), noise=0)
        return t

    def _layout(self) -> Layout:
        lay = Layout(self.look, self.renderer, self.rng)
        for p in self.resting:
            lay._mark(lay._poly(p.drink, p.x, p.y, p.angle))
            lay.placed.append(p)
        return lay

    def drop(self, drink_ids: list[str]) -> None:
        """These drinks fall out of the chute and land in the tray."""
        lay = self._layout()
        new = []
        for d in drink_ids:
            if any(p.drink == d for p in self.resting + new):
                continue
            p = lay.place_touching(d) if (lay.placed and self.rng.random() < self.touching) else None
            p = p or lay.place_apart(d, gap=3.0) or lay.place_apart(d, gap=0.5, tries=2000)
            if p is None:
                continue  # the tray is full
            new.append(p)
        if not new:
            return
        hx, hy = self.renderer.mm_half
        start = [(float(self.rng.uniform(-hx * 0.3, hx * 0.3)), -hy - 30.0, float(self.rng.uniform(0, 360)))
                 for _ in new]
        for k in range(1, ARRIVE_FRAMES + 1):
            t = k / ARRIVE_FRAMES
            ease = 1 - (1 - t) ** 2
            moving = []
            for p, (sx, sy, sa) in zip(new, start):
                x = sx + (p.x - sx) * ease
                y = sy + (p.y - sy) * ease
                vx, vy = (p.x - sx) * 2 * (1 - t) / ARRIVE_FRAMES, (p.y - sy) * 2 * (1 - t) / ARRIVE_FRAMES
                a = sa + (p.angle - sa) * ease
                moving.append(replace(p, x=x, y=y, angle=a, z=12.0 * (1 - t), blur=(vx * 0.5, vy * 0.5),
                                      spin=p.spin + 90 * (1 - t)))
            self.script.append((self.resting + moving if k < ARRIVE_FRAMES else self.resting + new, None))
        self._after = self.resting + new
        self.script.append((self._after, None))
        self.resting = self._after

    def take_out(self, drink_ids: list[str]) -> None:
        """A hand reaches in and takes these drinks out of the tray."""
        taking = [p for p in self.resting if p.drink in set(drink_ids)]
        if not taking:
            return
        cx = float(np.mean([p.x for p in taking]))
        cy = float(np.mean([p.y for p in taking]))
        hx, hy = self.renderer.mm_half
        ang = 90.0  # the arm comes from the bottom edge (towards the players)
        before = list(self.resting)
        after = [p for p in self.resting if p not in taking]
        path = [(cx, hy + 120.0), (cx, cy + 60), (cx, cy + 10), (cx, cy), (cx, cy + 40), (cx, hy + 120.0)]
        for i, (x, y) in enumerate(path):
            self.script.append((before if i < 3 else after, Hand(x, y, ang)))
        self.script.append((after, None))
        self.resting = after

    def set_lighting(self, lighting: Lighting) -> None:
        self._lighting = lighting
        self._clean = None

    # --- frames -------------------------------------------------------------------------------

    def read(self) -> np.ndarray:
        self.frames += 1
        if self.drift and self.frames % 10 == 0:
            self._lighting = Lighting.drift(self.frame_rng, self.drift)
            self._clean = None
        if self.script:
            scene, hand = self.script.pop(0)
            img, _ = self.renderer.render(scene, self._lighting, rng=self.frame_rng, hand=hand,
                                          jpeg_quality=self.jpeg_quality)
            if not self.script:
                self._clean = None
                # (time.monotonic is shared by the processes of a machine: benchmarks/drop_latency.py
                # measures from it to the reading on each tablet; it changes no frame)
                self.settled_at = time.monotonic()
            return img
        if self._clean is None:
            self._clean, _ = self.renderer.render(self.resting, self._lighting, rng=self.frame_rng, noise=0)
        return self._noisy(self._clean)

    def _noisy(self, clean: np.ndarray) -> np.ndarray:
        """Fresh sensor noise on a still scene (cheaper than rendering it again)."""
        if not hasattr(self, "_noise"):
            # each noise frame wrapped round by the largest shift at its start: a window of it is
            # the frame rolled by (dy, dx), the same numbers as np.roll without a copy a frame
            # (the simulated camera at rest is most of an idle table's CPU)
            self._noise = [np.pad(self.frame_rng.normal(0, 1, clean.shape).astype(np.float32),
                                  ((SHIFT, 0), (SHIFT, 0), (0, 0)), mode="wrap") for _ in range(3)]
        if getattr(self, "_sigma_of", None) is not clean:     # a still scene's noise level, once
            self._sigma, self._sigma_of = 1.6 + 0.012 * clean.astype(np.float32), clean
        dy, dx = (int(v) for v in self.frame_rng.integers(0, SHIFT, 2))
        h, w = clean.shape[:2]
        noisy = self._noise[self.frames % 3][SHIFT - dy:SHIFT - dy + h, SHIFT - dx:SHIFT - dx + w] * self._sigma
        noisy += clean
        np.clip(noisy, 0, 255, out=noisy)
        out = noisy.astype(np.uint8)
        if self.jpeg_quality:
            import cv2
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(self.jpeg_quality)])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out

    def status(self) -> dict:
        s = super().status()
        s["in_tray"] = self.in_tray()
        s["settled_at"] = self.settled_at
        return s


def open_camera(spec: str, **options) -> FrameSource:
    """A camera source as ``companion serve --camera SPEC`` names it: ``sim`` or ``sim:SEED`` (the
    simulated table's camera), else what ``vision.sources.open_source`` opens."""
    spec = str(spec).strip()
    if spec == "sim" or spec.startswith("sim:"):
        seed = int(spec.split(":", 1)[1]) if ":" in spec else options.pop("seed", 0)
        return SimCamera(seed=seed, **options)
    return open_source(spec, **options)
