"""The look of one simulated table: a physical set of drinks (their own colours and sizes
around the nominal catalogue), a tray, a camera and a light; and what a frame shows (drinks
placed on the tray, the light of the moment, a hand). Values only: drawing is ``render.py``.

>>> a, b = Look.from_seed(3), Look.from_seed(3)
>>> a.tray == b.tray and a.sizes == b.sizes
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..drinks import COLOURS, SHAPES

# Nominal catalogue (drinks.md): length x width in mm. Rendering only.
NOMINAL_SIZE_MM = {
    "stubby_can": (14.0, 12.0), "short_can": (20.0, 11.0), "tall_can": (26.0, 11.0),
    "square_bottle": (27.0, 10.0), "not_tallest_bottle": (29.0, 10.0), "tallest_bottle": (35.0, 11.0),
}
# Nominal plastic colours, sRGB (r, g, b).
NOMINAL_SRGB = {
    "black": (38, 38, 42), "white": (236, 236, 232), "mint": (160, 226, 204),
    "blue": (34, 92, 196), "red": (206, 34, 44), "purple": (142, 76, 178),
}
# Bottle outline along the length, as fractions of the length: body end, shoulder end,
# neck end (then the cap); neck and cap radii as fractions of the body radius.
BOTTLE_PROFILE = {
    "square_bottle": (0.60, 0.72, 0.86, 0.44, 0.56),
    "not_tallest_bottle": (0.58, 0.72, 0.87, 0.42, 0.54),
    "tallest_bottle": (0.56, 0.70, 0.87, 0.40, 0.52),
}
IMAGE_SIZE = (1280, 720)


def srgb_to_linear(c):
    c = np.asarray(c, np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb_u8(img: np.ndarray) -> np.ndarray:
    """Linear float image -> 8-bit sRGB via a lookup table (fast)."""
    lut = _SRGB_LUT
    idx = np.clip(img * 4095.0, 0, 4095).astype(np.uint16)
    return lut[idx]


_x = np.linspace(0, 1, 4096, dtype=np.float64)
_SRGB_LUT = np.clip(np.where(_x <= 0.0031308, 12.92 * _x, 1.055 * _x ** (1 / 2.4) - 0.055) * 255 + 0.5,
                    0, 255).astype(np.uint8)


# --- the look of one table -------------------------------------------------------------------

@dataclass
class Look:
    """One physical set of drinks on one tray under one camera; seeded."""

    seed: int
    tray: str                                   # "light" or "dark"
    tray_rgb: tuple[float, float, float]        # linear albedo
    colours: dict[str, np.ndarray]              # colour id -> linear BGR albedo
    gloss: dict[str, float]                     # colour id -> specular strength
    sizes: dict[str, tuple[float, float]]       # shape id -> (length, width) mm
    px_per_mm: float
    tilt: tuple[float, float]                   # camera tilt about x and y, degrees
    roll: float                                 # camera rotation about its axis, degrees
    light_dir: tuple[float, float, float]       # unit vector towards the main light
    image_size: tuple[int, int] = IMAGE_SIZE
    texture: dict = field(default_factory=dict)

    @classmethod
    def from_seed(cls, seed: int, tray: str | None = None) -> "Look":
        rng = np.random.default_rng([seed, 7001])
        tray = tray or ("light" if rng.random() < 0.5 else "dark")
        if tray == "light":
            base = np.array([rng.uniform(185, 212), rng.uniform(188, 212), rng.uniform(180, 208)])
        else:
            base = np.array([rng.uniform(70, 92)] * 3) + rng.uniform(-5, 5, 3)
        tray_lin = tuple(float(v) for v in srgb_to_linear(base))
        colours, gloss = {}, {}
        for c in COLOURS:
            rgb = np.array(NOMINAL_SRGB[c.value], np.float64)
            rgb = np.clip(rgb * rng.uniform(0.93, 1.05) + rng.normal(0, 6, 3), 8, 250)
            colours[c.value] = srgb_to_linear(rgb[::-1])  # BGR
            gloss[c.value] = float(rng.uniform(0.2, 0.45))
        scale = rng.uniform(0.94, 1.06)  # the whole set is a bit bigger or smaller than nominal
        sizes = {}
        for s in SHAPES:
            length, width = NOMINAL_SIZE_MM[s.value]
            sizes[s.value] = (float(length * scale * rng.uniform(0.985, 1.015)),
                              float(width * scale * rng.uniform(0.97, 1.03)))
        az = rng.uniform(0, 2 * math.pi)
        elev = math.radians(rng.uniform(55, 75))
        light = (math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev))
        return cls(seed=seed, tray=tray, tray_rgb=tray_lin, colours=colours, gloss=gloss, sizes=sizes,
                   px_per_mm=float(rng.uniform(5.3, 6.0)),
                   tilt=(float(rng.uniform(-5, 5)), float(rng.uniform(-5, 5))), roll=float(rng.uniform(-4, 4)),
                   light_dir=light,
                   texture={"grain": float(rng.uniform(0.02, 0.05)), "rib_period": float(rng.uniform(3, 7)),
                            "rib_amp": float(rng.uniform(0.0, 0.04)), "rib_angle": float(rng.uniform(0, 180)),
                            "scratches": int(rng.integers(3, 12))})


@dataclass
class Placement:
    """One drink on (or just above) the tray, in tray millimetres from the image centre."""

    drink: str
    x: float
    y: float
    angle: float            # degrees; the direction from the base to the top of the drink
    z: float = 0.0          # height above the tray (mm): falling drinks cast a farther shadow
    spin: float = 0.0       # rotation about its own axis (degrees): moves the highlight, tilts facets
    blur: tuple[float, float] = (0.0, 0.0)  # motion during the exposure, mm (dx, dy)


@dataclass
class Lighting:
    """The light of one frame relative to the calibration photos (1.0 = the same)."""

    gain: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)   # B, G, R multipliers
    gradient: tuple[float, float] = (0.0, 0.0)          # relative change per image width/height
    shade: tuple[float, float, float, float] | None = None  # x, y (mm), radius (mm), depth: a person leaning over

    @classmethod
    def drift(cls, rng: np.random.Generator, strength: float = 1.0) -> "Lighting":
        s = strength
        shade = None
        if s > 0.5 and rng.random() < 0.4:
            shade = (float(rng.uniform(-100, 100)), float(rng.uniform(-60, 60)), float(rng.uniform(40, 90)),
                     float(rng.uniform(0.1, 0.3)))
        return cls(gain=float(math.exp(rng.uniform(-0.3, 0.3) * s)),
                   tint=tuple(float(math.exp(v)) for v in rng.normal(0, 0.05 * s, 3)),
                   gradient=(float(rng.uniform(-0.25, 0.25) * s), float(rng.uniform(-0.2, 0.2) * s)),
                   shade=shade)

    @classmethod
    def steady(cls, rng: np.random.Generator) -> "Lighting":
        """Fixed exposure and white balance still flicker a little."""
        return cls(gain=float(rng.uniform(0.97, 1.03)), tint=tuple(float(v) for v in rng.uniform(0.99, 1.01, 3)))


@dataclass
class Hand:
    """A hand reaching into the tray from one edge (x, y: fingertip position, mm)."""

    x: float
    y: float
    angle: float   # direction the arm comes from (degrees)
    skin: tuple[float, float, float] = (0.32, 0.42, 0.62)  # linear BGR
