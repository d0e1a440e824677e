"""The look of the simulated crates under one crate camera: the crates' plastic and size, the
drinks standing in them, the table, the lamps, the camera. Values only: drawing is
``crate_render.py``.

Three families, as for the board camera (``board_looks.py``):

- "dev", what the crate reader is tuned on: a saturated matte yellow crate, one soft light from
  overhead (4200-5200 K), a wooden or grey laminate table (a coin or a card on it at most two),
  a 1280x720 camera tilted 25-40 degrees from the vertical with no lens distortion, mild
  noise, no compression.
- "eval", only ever scored (``benchmarks/crates.py``), never looked at frame by frame; it
  differs in kind: a warm point lamp close by with hard shadows, or a cool tube, or two lamps
  of different colour; cloth, stone, dark wood or pale laminate tables with coins, cards and
  loose drinks beside the crates; glossy or pale crate plastic, crates with handle holes and
  pushed together less neatly, each a little more its own tint; glossy drinks with their own
  sizes per shape, leaning more; cameras of other resolutions (960x540, 1920x1080, 1024x768),
  steeper (15-25 degrees) or flatter (40-50) than dev's, wide-angle and close or (a phone
  farther off) zoomed in, with barrel distortion, JPEG, softness, stronger and coloured noise,
  exposed up to half a stop off.
- "varied", for training only: every property drawn on its own from a range covering and passing
  both (it is never scored).

One look keeps one set of crates (pitch, wall, rim height; the pitch leaves room round the
set's widest drink) and one set of drinks (colours around ``looks.NOMINAL_SRGB``, sizes around
``looks.NOMINAL_SIZE_MM`` with the set's scale).

>>> CrateLook.from_seed(3) == CrateLook.from_seed(3)
True
>>> dev, ev = CrateLook.from_seed(3), CrateLook.from_seed(3, "eval")
>>> 14 <= dev.pitch_mm <= 16 and dev.distortion == 0 and ev.distortion > 0
True
"""
from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..drinks import SHAPES
from .board_looks import Lamp, _shifted, eval_table, family_rng
from .looks import NOMINAL_SIZE_MM, NOMINAL_SRGB, kelvin_bgr

FAMILY_STREAMS = {"dev": 9301, "eval": 9401, "varied": 9501}
CRATE_YELLOW = (246, 196, 22)       # the crates' plastic, sRGB, before a look's own variation
SIZES = ((1280, 720),)
EVAL_SIZES = ((960, 540), (1920, 1080), (1024, 768), (1280, 720))


@dataclass(frozen=True)
class CrateLook:
    """One set of crates and drinks on one table under one camera; seeded. The camera, lamp
    and sensor fields mean what :class:`board_looks.BoardLook`'s do (``lit_scene.py`` reads them)."""

    seed: int
    family: str
    image_size: tuple[int, int]
    # camera
    fov: float                      # horizontal field of view, degrees
    tilt: float                     # optical axis against the vertical, degrees
    tilt_towards: float             # the side the camera stands on (azimuth, degrees)
    roll: float                     # degrees
    reach_mm: float                 # the table round the aim point the frame shows at least (radius)
    margin: float                   # frame kept round that circle, share of the frame
    distortion: float               # barrel distortion (0: none), k of x_u = x_d (1 + k r_d^2)
    # the table
    table: str                      # "wood", "cloth", "laminate", "stone"
    table_srgb: tuple[int, int, int]
    gloss: float                    # the table's sheen (0: matte)
    shininess: float
    # light
    lamp: Lamp
    second: Lamp | None             # a second lamp (eval, varied) or None
    # the crates
    crate_srgb: tuple[int, int, int]
    crate_gloss: float
    pitch_mm: float                 # field centre to field centre
    wall_mm: float                  # a wall's thickness
    rim_mm: float                   # the walls' tops over the table
    floor_mm: float                 # the slots' floor over the table
    seam_mm: float                  # the gap between two crates side by side
    nudge: tuple[float, float] = (0.3, 0.5)   # sd of a crate's misplacement: mm, degrees
    clutter: int = 0                # loose things on the table round the crates, at most
    handles: bool = False           # a handle hole through each short side of a crate
    crate_spread: float = 0.02      # sd of a crate's own tint against the set's colour (per channel)
    lean_deg: float = 0.0           # a drink leans in its slot up to this much (degrees; less where the slot stops it)
    exposure_ev: float = 0.0        # the camera's exposure against a white at the middle at 82 %, in stops
    clutter_kinds: tuple[str, ...] = ("coin", "card")   # of "coin", "card", "drink", "lying"
    # the drinks
    drinks: dict[str, tuple[int, int, int]] = field(default_factory=dict)   # colour -> sRGB
    drink_size: float = 1.0         # the set's drinks against their nominal sizes
    shape_size: dict[str, float] = field(default_factory=dict)   # shape -> its own factor on top
    drink_gloss: float = 0.0
    # the sensor
    noise: float = 1.5              # sd of the sensor's noise, 8-bit levels
    chroma_noise: float = 0.2
    jpeg: int | None = None
    vignette: float = 0.12
    white_balance: float = 4700.0
    exposure_drift: float = 0.02
    blur: float = 0.0

    @classmethod
    def from_seed(cls, seed: int, family: str = "dev") -> "CrateLook":
        rng = family_rng(seed, family, FAMILY_STREAMS)
        look = {"dev": _dev, "eval": _eval, "varied": _varied}[family](int(seed), rng)
        # a set's crates hold its drinks: a slot at a crate's edge (a wall and a half and half a
        # seam taken from its field) still has room round the widest drink
        widest = max(NOMINAL_SIZE_MM[s][1] * look.drink_mm(s) for s in SHAPES)
        need = widest + 1.5 * look.wall_mm + look.seam_mm / 2 + 0.4
        return replace(look, pitch_mm=need) if look.pitch_mm < need else look

    def lamps(self) -> list[Lamp]:
        return [self.lamp] + ([self.second] if self.second is not None else [])

    def lamp_bgr(self, lamp: Lamp) -> np.ndarray:
        """A lamp's colour as the camera records it (through its fixed white balance)."""
        return kelvin_bgr(lamp.kelvin) / kelvin_bgr(self.white_balance)

    def crate_tint(self, i: int) -> np.ndarray:
        """Crate ``i``'s own tint (BGR factors about 1): crates of one set differ a little, as
        plastic from two batches or one left in the sun does."""
        rng = np.random.default_rng([self.seed, FAMILY_STREAMS[self.family], 9901, int(i)])
        return np.clip(1 + rng.normal(0, self.crate_spread, 3) + rng.normal(0, self.crate_spread), 0.7, 1.3).astype(np.float32)

    def drink_mm(self, shape: str) -> float:
        """How much this set's drinks of ``shape`` differ from the nominal size (a factor)."""
        return self.drink_size * self.shape_size.get(shape, 1.0)

    def describe(self) -> dict:
        """What a dataset's truth records of the look."""
        return {"seed": self.seed, "family": self.family, "size": list(self.image_size), "tilt": round(self.tilt, 1),
                "distortion": round(self.distortion, 4), "table": self.table, "lamp": self.lamp.kind,
                "lamps": 1 + (self.second is not None), "pitch_mm": round(self.pitch_mm, 2), "jpeg": self.jpeg}


def _yellow(rng, hue: float, sat: tuple[float, float], val: tuple[float, float]) -> tuple[int, int, int]:
    r, g, b = (v / 255.0 for v in CRATE_YELLOW)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    rgb = colorsys.hsv_to_rgb((h + rng.uniform(-hue, hue)) % 1.0, float(np.clip(s * rng.uniform(*sat), 0, 1)),
                              float(np.clip(v * rng.uniform(*val), 0, 1)))
    return tuple(int(np.clip(c * 255, 0, 255)) for c in rgb)


def _geometry(rng, wide: bool = False) -> dict:
    """One set of crates: slot pitch, walls, rim, floor, the seam between two crates."""
    k = 0.6 if wide else 0.0
    return {"pitch_mm": float(rng.uniform(14 - k, 16 + k)), "wall_mm": float(rng.uniform(1.2 - k / 3, 2.0 + k / 2)),
            "rim_mm": float(rng.uniform(10 - k * 2, 14 + k * 2)), "floor_mm": float(rng.uniform(1.2, 2.5)),
            "seam_mm": float(rng.uniform(0.2, 1.0 + k))}


def _drinks(rng, hue: float, gain: tuple[float, float], jitter: float, size: float, per_shape: float) -> dict:
    return {"drinks": _shifted(NOMINAL_SRGB, rng, hue, gain, jitter, least_saturation=0.0),
            "drink_size": float(rng.uniform(1 - size, 1 + size)),
            "shape_size": {s: float(rng.uniform(1 - per_shape, 1 + per_shape)) for s in SHAPES}}


def _overhead(rng, kelvin, strength, ambient, blur, depth) -> Lamp:
    return Lamp("overhead", at=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)), 1.0),
                kelvin=float(rng.uniform(*kelvin)), strength=float(rng.uniform(*strength)),
                ambient=float(rng.uniform(*ambient)), shadow_blur=float(rng.uniform(*blur)),
                shadow_depth=float(rng.uniform(*depth)))


def _point(rng, kelvin, strength, ambient, blur, depth, far=(250, 600), high=(350, 800)) -> Lamp:
    a = rng.uniform(0, 2 * math.pi)
    r = rng.uniform(*far)
    return Lamp("point", at=(float(r * math.cos(a)), float(r * math.sin(a)), float(rng.uniform(*high))),
                kelvin=float(rng.uniform(*kelvin)), strength=float(rng.uniform(*strength)),
                ambient=float(rng.uniform(*ambient)), shadow_blur=float(rng.uniform(*blur)),
                shadow_depth=float(rng.uniform(*depth)))


def _tube(rng, kelvin, strength, ambient, blur, depth) -> Lamp:
    return Lamp("tube", at=(float(rng.uniform(-200, 200)), float(rng.uniform(-250, 250)), float(rng.uniform(900, 1400))),
                kelvin=float(rng.uniform(*kelvin)), strength=float(rng.uniform(*strength)),
                ambient=float(rng.uniform(*ambient)), shadow_blur=float(rng.uniform(*blur)),
                shadow_depth=float(rng.uniform(*depth)), span=float(rng.uniform(600, 1200)))


def _dev(seed: int, rng: np.random.Generator) -> CrateLook:
    table = ("wood", (int(rng.uniform(120, 170)), int(rng.uniform(85, 120)), int(rng.uniform(50, 80)))) \
        if rng.random() < 0.6 else ("laminate", tuple(int(v) for v in [rng.uniform(60, 110)] * 3))
    lamp = _overhead(rng, (4200, 5200), (0.55, 0.7), (0.35, 0.5), (2.0, 4.0), (0.35, 0.55))
    return CrateLook(
        seed=seed, family="dev", image_size=SIZES[0], fov=float(rng.uniform(50, 62)),
        tilt=float(rng.uniform(25, 40)), tilt_towards=float(rng.uniform(0, 360)), roll=float(rng.uniform(-3, 3)),
        reach_mm=float(rng.uniform(68, 80)), margin=float(rng.uniform(0.02, 0.06)), distortion=0.0,
        table=table[0], table_srgb=table[1], gloss=0.0, shininess=1.0, lamp=lamp, second=None,
        crate_srgb=_yellow(rng, 0.008, (0.95, 1.05), (0.95, 1.02)), crate_gloss=0.0, **_geometry(rng),
        nudge=(float(rng.uniform(0.2, 0.4)), float(rng.uniform(0.3, 0.7))), clutter=int(rng.integers(0, 3)),
        exposure_ev=float(rng.uniform(-0.1, 0.1)), crate_spread=0.015, lean_deg=2.5,
        **_drinks(rng, 0.012, (0.93, 1.05), 5.0, 0.03, 0.0), drink_gloss=0.0,
        noise=float(rng.uniform(1.0, 2.2)), chroma_noise=0.2, jpeg=None, vignette=float(rng.uniform(0.08, 0.16)),
        blur=float(rng.uniform(0.0, 0.4)))


def _eval(seed: int, rng: np.random.Generator) -> CrateLook:
    table, table_srgb = eval_table(rng)
    kind = int(rng.integers(0, 3))
    if kind == 0:               # a warm lamp close over one side: hard shadows
        lamp, second = _point(rng, (2600, 3300), (0.8, 1.0), (0.12, 0.25), (0.3, 1.0), (0.6, 0.85)), None
    elif kind == 1:             # a cool fluorescent tube
        lamp, second = _tube(rng, (5500, 6800), (0.7, 0.9), (0.2, 0.3), (3.0, 7.0), (0.35, 0.6)), None
    else:                       # two lamps of different colours: two shadows
        lamp = _point(rng, (2700, 3200), (0.55, 0.75), (0.12, 0.22), (0.4, 1.5), (0.5, 0.75))
        second = _point(rng, (5200, 6500), (0.35, 0.55), (0.0, 0.01), (0.5, 2.0), (0.4, 0.65))
    glossy = rng.random() < 0.5
    crate = _yellow(rng, 0.03, (0.8, 1.0), (0.95, 1.04)) if glossy else _yellow(rng, 0.025, (0.45, 0.7), (1.0, 1.06))
    steep = rng.random() < 0.5
    look = CrateLook(
        seed=seed, family="eval", image_size=EVAL_SIZES[int(rng.integers(0, len(EVAL_SIZES)))],
        fov=float(rng.uniform(62, 82)), tilt=float(rng.uniform(15, 25) if steep else rng.uniform(40, 50)),
        tilt_towards=float(rng.uniform(0, 360)), roll=float(rng.uniform(-8, 8)),
        reach_mm=float(rng.uniform(66, 95)), margin=float(rng.uniform(0.0, 0.08)),
        distortion=float(rng.uniform(0.04, 0.12)),
        table=table, table_srgb=table_srgb, gloss=float(rng.uniform(0.0, 0.4)), shininess=float(rng.uniform(30, 150)),
        lamp=lamp, second=second, crate_srgb=crate, crate_gloss=float(rng.uniform(0.4, 0.9)) if glossy else 0.05,
        **_geometry(rng), nudge=(float(rng.uniform(0.5, 0.9)), float(rng.uniform(0.8, 1.6))),
        clutter=int(rng.integers(2, 7)), clutter_kinds=("coin", "card", "drink", "lying"),
        handles=bool(rng.random() < 0.5), exposure_ev=float(rng.uniform(-0.45, 0.35)), crate_spread=0.04,
        lean_deg=5.0,
        **_drinks(rng, 0.03, (0.82, 1.12), 10.0, 0.1, 0.05), drink_gloss=float(rng.uniform(0.3, 0.8)),
        noise=float(rng.uniform(2.0, 4.5)), chroma_noise=float(rng.uniform(0.4, 0.8)),
        jpeg=int(rng.integers(45, 86)), vignette=float(rng.uniform(0.15, 0.35)),
        white_balance=float(rng.uniform(3300, 5200)), exposure_drift=float(rng.uniform(0.03, 0.07)),
        blur=float(rng.uniform(0.4, 0.9)))
    if rng.random() < 0.4:      # a phone farther off, zoomed in: less perspective, smaller crates
        look = replace(look, fov=float(rng.uniform(34, 44)), reach_mm=float(rng.uniform(80, 110)))
    return look


def _varied(seed: int, rng: np.random.Generator) -> CrateLook:
    """Training looks: each property on its own from a range passing dev's and eval's."""
    table = ["cloth", "stone", "wood", "laminate"][int(rng.integers(0, 4))]
    table_srgb = tuple(int(v) for v in np.clip(rng.uniform(25, 235) + rng.normal(0, 25, 3), 0, 255))
    warm_cool = (2400, 7500)
    kind = int(rng.integers(0, 4))
    if kind == 0:
        lamp = _overhead(rng, warm_cool, (0.5, 0.9), (0.12, 0.5), (0.3, 5.0), (0.3, 0.85))
    elif kind == 1:
        lamp = _point(rng, warm_cool, (0.7, 1.0), (0.1, 0.35), (0.3, 3.0), (0.4, 0.9), far=(150, 700), high=(300, 900))
    elif kind == 2:
        lamp = _tube(rng, warm_cool, (0.6, 0.95), (0.15, 0.35), (2.0, 8.0), (0.3, 0.65))
    else:
        lamp = _point(rng, warm_cool, (0.5, 0.8), (0.1, 0.3), (0.3, 2.0), (0.4, 0.8), far=(150, 700), high=(300, 900))
    second = _point(rng, warm_cool, (0.25, 0.6), (0.0, 0.02), (0.3, 3.0), (0.3, 0.7), far=(150, 700), high=(300, 900)) \
        if kind == 3 or rng.random() < 0.15 else None
    glossy = rng.random() < 0.5
    w, h = [(960, 540), (1280, 720), (1920, 1080), (1024, 768), (800, 600)][int(rng.integers(0, 5))]
    return CrateLook(
        seed=seed, family="varied", image_size=(w, h), fov=float(rng.uniform(30, 88)),
        tilt=float(rng.uniform(10, 55)), tilt_towards=float(rng.uniform(0, 360)), roll=float(rng.uniform(-12, 12)),
        reach_mm=float(rng.uniform(62, 125)), margin=float(rng.uniform(0.0, 0.1)),
        distortion=float(rng.uniform(0.02, 0.14)) if rng.random() < 0.6 else 0.0,
        table=table, table_srgb=table_srgb, gloss=float(rng.uniform(0.0, 0.5)) if rng.random() < 0.4 else 0.0,
        shininess=float(rng.uniform(20, 200)), lamp=lamp, second=second,
        crate_srgb=_yellow(rng, 0.045, (0.4, 1.05), (0.8, 1.06)),
        crate_gloss=float(rng.uniform(0.2, 1.0)) if glossy else float(rng.uniform(0.0, 0.1)),
        **_geometry(rng, wide=True), nudge=(float(rng.uniform(0.0, 1.0)), float(rng.uniform(0.0, 2.0))),
        clutter=int(rng.integers(0, 9)), clutter_kinds=("coin", "card", "drink", "lying"),
        handles=bool(rng.random() < 0.5), exposure_ev=float(rng.uniform(-0.6, 0.5)),
        crate_spread=float(rng.uniform(0.0, 0.06)), lean_deg=float(rng.uniform(0.0, 7.0)),
        **_drinks(rng, 0.045, (0.78, 1.15), 12.0, 0.12, 0.07),
        drink_gloss=float(rng.uniform(0.0, 0.9)),
        noise=float(rng.uniform(1.0, 5.5)), chroma_noise=float(rng.uniform(0.1, 0.9)),
        jpeg=int(rng.integers(40, 92)) if rng.random() < 0.6 else None, vignette=float(rng.uniform(0.05, 0.4)),
        white_balance=float(rng.uniform(3000, 6500)), exposure_drift=float(rng.uniform(0.02, 0.08)),
        blur=float(rng.uniform(0.0, 1.2)))
