"""The look of the table in front of the tower as the landing camera sees it: the table, the
lamps, the crates' plastic, the drinks and the sensor of a crate look (``crate_looks.py``, its
three families), with the landing camera's own place and lens, and how much of the table it
must show. Values only: drawing is ``landing_render.py``.

The camera stands behind the tower (on it, or a phone on a stand beside it) and looks forwards
and down over the tower's foot at the table where the drinks land: the tower's foot near the
frame's bottom edge, the far end ``far_mm`` away at the top, ``half_width_mm`` to each side.

- "dev": a 1280x720 camera 45-60 degrees from the vertical, straight ahead (within 6 degrees),
  no lens distortion, the dev family's tables, lamp, yellow and sensor.
- "eval" (only ever scored): cameras steeper or flatter (35-68 degrees), turned up to 20
  degrees, rolled, other resolutions, wide-angle with barrel distortion or a phone zoomed in,
  JPEG; the crate eval family's tables, lamps, yellows and drink sizes.
- "varied": for training only, each property over a range passing both.

>>> LandingLook.from_seed(3) == LandingLook.from_seed(3)
True
>>> dev, ev = LandingLook.from_seed(3), LandingLook.from_seed(3, "eval")
>>> dev.distortion == 0 and 45 <= dev.tilt <= 60 and ev.family == "eval"
True
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from .board_looks import family_rng
from .crate_looks import CrateLook

LANDING_STREAMS = {"dev": 9321, "eval": 9421, "varied": 9521}
EVAL_SIZES = ((960, 540), (1920, 1080), (1024, 768), (1280, 720))


@dataclass(frozen=True)
class LandingLook(CrateLook):
    """A crate look (table, lamps, crates, drinks, sensor) with the landing camera's view: the
    camera fields (fov, tilt, tilt_towards, roll, distortion, image_size) mean what
    ``lit_scene.py`` reads; ``tilt_towards`` 90 is straight ahead from behind the tower."""

    far_mm: float = 340.0           # the table shown from the tower's foot forwards
    half_width_mm: float = 280.0    # and to each side

    @classmethod
    def from_seed(cls, seed: int, family: str = "dev") -> "LandingLook":
        base = CrateLook.from_seed(seed, family)
        rng = family_rng(seed, family, LANDING_STREAMS)
        values = {f.name: getattr(base, f.name) for f in fields(CrateLook)}
        values.update(_camera(rng, family))
        return cls(**values)


def _camera(rng, family: str) -> dict:
    if family == "dev":
        return {"image_size": (1280, 720), "fov": float(rng.uniform(55, 65)), "tilt": float(rng.uniform(45, 60)),
                "tilt_towards": float(90 + rng.uniform(-6, 6)), "roll": float(rng.uniform(-3, 3)),
                "distortion": 0.0, "margin": float(rng.uniform(0.01, 0.04)),
                "far_mm": float(rng.uniform(330, 360)), "half_width_mm": float(rng.uniform(270, 290))}
    if family == "eval":
        zoomed = rng.random() < 0.35          # a phone farther off, zoomed in: less perspective
        return {"image_size": EVAL_SIZES[int(rng.integers(0, len(EVAL_SIZES)))],
                "fov": float(rng.uniform(36, 46) if zoomed else rng.uniform(62, 80)),
                "tilt": float(rng.uniform(35, 45) if rng.random() < 0.5 else rng.uniform(60, 68)),
                "tilt_towards": float(90 + rng.uniform(-20, 20)), "roll": float(rng.uniform(-8, 8)),
                "distortion": 0.0 if zoomed else float(rng.uniform(0.02, 0.08)),
                "margin": float(rng.uniform(0.0, 0.06)),
                "far_mm": float(rng.uniform(330, 380)), "half_width_mm": float(rng.uniform(265, 300))}
    w, h = [(960, 540), (1280, 720), (1920, 1080), (1024, 768), (800, 600)][int(rng.integers(0, 5))]
    return {"image_size": (w, h), "fov": float(rng.uniform(34, 84)), "tilt": float(rng.uniform(32, 70)),
            "tilt_towards": float(90 + rng.uniform(-25, 25)), "roll": float(rng.uniform(-10, 10)),
            "distortion": float(rng.uniform(0.0, 0.1)) if rng.random() < 0.6 else 0.0,
            "margin": float(rng.uniform(0.0, 0.08)),
            "far_mm": float(rng.uniform(320, 400)), "half_width_mm": float(rng.uniform(260, 310))}
