"""The look of one simulated TOKYO METRO board under one board camera: the printed sheet, the
table it lies on, the lamp, the pieces' material and colours, the camera. Values only: drawing
is ``board_render.py``.

Looks come in two families that differ in kind, as the tray camera's do (``looks.py``). The
development family ("dev") is what the board reader is tuned on: a matte printed board on white
or cream paper, diffuse light from overhead, matte wooden pieces, a 1280x720 camera nearly
straight above (tilted up to 15 degrees), mild sensor noise, no compression. The evaluation
family ("eval") is only ever scored (``benchmarks/board.py``), never looked at photo by photo:
a glossy board with the lamp's highlight on it, a warm point lamp close by (strong fall-off,
hard shadows) or a cool fluorescent tube, plastic pieces with highlights and shifted hues,
table tops of other kinds, wide-angle cameras with barrel distortion, 1920x1080 or 1280x720,
tilted up to 30 degrees, JPEG compression and stronger, coloured noise.

A third family, "varied", is for training only (``tools/learn_board.py``): each look draws every
property a real table varies from a range wider than either family's (matte or glossy paper and
pieces, wood or plastic, overhead/point/tube lamps from 2400 K to 7500 K under any white
balance, piece hues shifted further, cameras straight above to tilted 32 degrees, with or
without a wide-angle lens, from 960x540 to 1920x1080, raw or JPEG, little or much noise), so
that a model learned from it does not take one camera or lamp for the world. It is never scored.

>>> a, b = BoardLook.from_seed(3), BoardLook.from_seed(3)
>>> a == b
True
>>> BoardLook.from_seed(3, family="eval").distortion > 0
True
"""
from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..board_pieces import PLAYER_COLOURS
from .looks import NOMINAL_SRGB, kelvin_bgr, srgb_to_linear

# What real pieces of the five player colours look like (sRGB), before a look's own variation.
PLAYER_SRGB = {
    "red": (196, 36, 40), "blue": (34, 84, 176), "yellow": (236, 196, 40),
    "green": (42, 140, 70), "purple": (118, 56, 150),
}
FAMILY_STREAMS = {"dev": 8101, "eval": 8201, "varied": 8301}
DRINK_STREAM = 8777     # the drinks' colours and size come from a stream of their own (older looks unchanged)
# per family: how far a set's drink hues, brightness and size stray from the catalogue's
DRINK_SPREAD = {"dev": (0.012, (0.93, 1.05), 5.0, 0.03), "eval": (0.03, (0.82, 1.12), 10.0, 0.1),
                "varied": (0.04, (0.78, 1.15), 12.0, 0.12)}


@dataclass(frozen=True)
class Lamp:
    """The main light. ``kind``: "overhead" (far and broad: light from above, soft shadows),
    "point" (a lamp close over the table: falls off with distance, hard shadows) or "tube" (a
    fluorescent tube: a line of light, cool, fairly soft shadows). ``at``: where it is, table mm
    (x, y, height) for point and tube (the tube's middle; ``span`` its length along x), for
    overhead the direction towards it scaled to any length."""

    kind: str
    at: tuple[float, float, float]
    kelvin: float
    strength: float                 # the direct light's share at the board's middle
    ambient: float                  # the room's light
    shadow_blur: float              # mm: softness of cast shadows
    shadow_depth: float             # the share of the direct light a piece's shadow takes
    span: float = 0.0


@dataclass(frozen=True)
class BoardLook:
    """One printed board on one table under one camera; seeded."""

    seed: int
    family: str
    image_size: tuple[int, int]
    # camera
    fov: float                      # horizontal field of view, degrees
    tilt: float                     # optical axis against the vertical, degrees
    tilt_towards: float             # the side the camera stands on (degrees, 90 = the players' edge, below)
    roll: float                     # degrees
    margin: float                   # table shown round the markers, share of the frame
    distortion: float               # barrel distortion (0: none), k of x_u = x_d (1 + k r_d^2)
    # the sheet
    paper_srgb: tuple[int, int, int]
    ink: float                      # how strong the print is (1: as the board file's colours)
    gloss: float                    # specular strength of the sheet (0: matte)
    shininess: float                # how sharp the sheet's highlight is
    # the table
    table: str                      # "wood", "cloth", "laminate", "stone"
    table_srgb: tuple[int, int, int]
    # light
    lamp: Lamp
    # pieces
    material: str                   # "wood" (matte) or "plastic" (highlights)
    piece_gloss: float
    players: dict[str, tuple[int, int, int]] = field(default_factory=dict)   # colour -> sRGB
    # the sensor
    noise: float = 1.5              # sd of the sensor's noise, 8-bit levels
    chroma_noise: float = 0.0       # share of the noise that differs between channels
    jpeg: int | None = None         # JPEG quality, None: uncompressed
    vignette: float = 0.12
    white_balance: float = 4500.0   # the camera's fixed white balance (kelvin)
    exposure_drift: float = 0.02    # sd of a frame's log exposure against the look's
    blur: float = 0.0               # the lens's softness, px (sd of a Gaussian)
    sizes: dict[str, float] = field(default_factory=dict)   # piece kind -> size against nominal (1.0)
    drinks: dict[str, tuple[int, int, int]] = field(default_factory=dict)   # drink colour -> sRGB (METRO DRINKS)
    drink_size: float = 1.0         # the set's drinks against their nominal sizes

    @classmethod
    def from_seed(cls, seed: int, family: str = "dev") -> "BoardLook":
        rng = family_rng(seed, family, FAMILY_STREAMS)
        look = {"dev": _dev, "eval": _eval, "varied": _varied}[family](int(seed), rng)
        hue, gain, jitter, size = DRINK_SPREAD[family]
        drng = np.random.default_rng([int(seed), FAMILY_STREAMS[family], DRINK_STREAM])
        return replace(look, drinks=_shifted(NOMINAL_SRGB, drng, hue, gain, jitter, least_saturation=0.0),
                       drink_size=float(drng.uniform(1 - size, 1 + size)))

    # derived values the renderer uses
    def lamp_bgr(self) -> np.ndarray:
        """The lamp's colour as the camera records it (through its fixed white balance)."""
        return kelvin_bgr(self.lamp.kelvin) / kelvin_bgr(self.white_balance)

    def player_linear(self) -> dict[str, np.ndarray]:
        """Each player colour as linear BGR albedo."""
        return {c: srgb_to_linear(np.array(rgb[::-1], np.float32)) for c, rgb in self.players.items()}

    def describe(self) -> dict:
        """What a dataset's truth records of the look."""
        return {"seed": self.seed, "family": self.family, "size": list(self.image_size), "tilt": round(self.tilt, 1),
                "distortion": round(self.distortion, 4), "gloss": round(self.gloss, 3), "table": self.table,
                "lamp": self.lamp.kind, "material": self.material, "jpeg": self.jpeg}


def family_rng(seed: int, family: str, streams: dict[str, int]) -> np.random.Generator:
    """The generator a look of ``family`` (one of ``streams``: family -> its stream) draws its
    values from; a family or seed out of range raises ValueError."""
    if family not in streams:
        raise ValueError(f"no family {family!r}: one of {', '.join(streams)}")
    if not 0 <= int(seed) < 2 ** 31:
        raise ValueError(f"a look's seed is 0 to 2^31-1, not {seed}")
    return np.random.default_rng([int(seed), streams[family]])


def eval_table(rng: np.random.Generator) -> tuple[str, tuple[int, int, int]]:
    """An evaluation look's table: green or blue cloth, pale stone, dark wood or pale laminate,
    and its colour (sRGB)."""
    table = ["cloth", "stone", "wood", "laminate"][int(rng.integers(0, 4))]
    table_srgb = {
        "cloth": (int(rng.uniform(30, 80)), int(rng.uniform(60, 120)), int(rng.uniform(50, 110))),
        "stone": tuple(int(v) for v in np.clip(rng.uniform(150, 215) + rng.normal(0, 6, 3), 0, 255)),
        "wood": (int(rng.uniform(70, 110)), int(rng.uniform(45, 70)), int(rng.uniform(28, 45))),
        "laminate": tuple(int(v) for v in np.clip(rng.uniform(180, 230) + rng.normal(0, 4, 3), 0, 255)),
    }[table]
    return table, table_srgb


def _player_colours(rng, hue_shift: float, gain: tuple[float, float], jitter: float) -> dict:
    return _shifted({c: PLAYER_SRGB[c] for c in PLAYER_COLOURS}, rng, hue_shift, gain, jitter)


def _shifted(colours: dict, rng, hue_shift: float, gain: tuple[float, float], jitter: float,
             least_saturation: float = 0.3) -> dict:
    """One set's colours: each of ``colours`` (sRGB) with its hue, saturation and brightness
    moved a little, as dyes and plastics differ (``least_saturation``: 0 lets white stay white)."""
    out = {}
    for c, rgb0 in colours.items():
        r, g, b = (v / 255.0 for v in rgb0)
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        h = (h + rng.uniform(-hue_shift, hue_shift)) % 1.0
        s = float(np.clip(s * rng.uniform(0.85, 1.08), least_saturation, 1.0))
        v = float(np.clip(v * rng.uniform(*gain), 0.15, 1.0))
        rgb = np.array(colorsys.hsv_to_rgb(h, s, v)) * 255 + rng.normal(0, jitter, 3)
        out[c] = tuple(int(x) for x in np.clip(rgb, 0, 255))
    return out


def _dev(seed: int, rng: np.random.Generator) -> BoardLook:
    paper = (int(rng.uniform(238, 250)), int(rng.uniform(234, 247)), int(rng.uniform(222, 245)))
    table = ("wood", (int(rng.uniform(120, 170)), int(rng.uniform(85, 120)), int(rng.uniform(50, 80)))) \
        if rng.random() < 0.6 else ("laminate", tuple(int(v) for v in [rng.uniform(60, 110)] * 3))
    lamp = Lamp("overhead", at=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)), 1.0),
                kelvin=float(rng.uniform(4200, 5200)), strength=float(rng.uniform(0.55, 0.7)),
                ambient=float(rng.uniform(0.35, 0.5)), shadow_blur=float(rng.uniform(2.0, 4.0)),
                shadow_depth=float(rng.uniform(0.35, 0.55)))
    return BoardLook(
        seed=seed, family="dev", image_size=(1280, 720), fov=float(rng.uniform(55, 65)),
        tilt=float(rng.uniform(0, 15)), tilt_towards=float(rng.uniform(60, 120)), roll=float(rng.uniform(-3, 3)),
        margin=float(rng.uniform(0.03, 0.08)), distortion=0.0,
        paper_srgb=paper, ink=float(rng.uniform(0.9, 1.0)), gloss=0.0, shininess=1.0,
        table=table[0], table_srgb=table[1], lamp=lamp, material="wood", piece_gloss=0.0,
        players=_player_colours(rng, 0.012, (0.92, 1.05), 5.0),
        noise=float(rng.uniform(1.0, 2.2)), chroma_noise=0.2, jpeg=None, vignette=float(rng.uniform(0.08, 0.16)),
        blur=float(rng.uniform(0.0, 0.4)))


def _eval(seed: int, rng: np.random.Generator) -> BoardLook:
    paper = (int(rng.uniform(225, 252)), int(rng.uniform(222, 250)), int(rng.uniform(205, 250)))
    table, table_srgb = eval_table(rng)
    if rng.random() < 0.55:     # a warm lamp close over one side of the table
        ang = rng.uniform(0, 2 * math.pi)
        lamp = Lamp("point", at=(483 + float(rng.uniform(250, 600) * math.cos(ang)),
                                 270 + float(rng.uniform(150, 400) * math.sin(ang)), float(rng.uniform(450, 800))),
                    kelvin=float(rng.uniform(2600, 3300)), strength=float(rng.uniform(0.8, 1.0)),
                    ambient=float(rng.uniform(0.12, 0.25)), shadow_blur=float(rng.uniform(0.3, 1.0)),
                    shadow_depth=float(rng.uniform(0.6, 0.85)))
    else:                       # a cool fluorescent tube over the table
        lamp = Lamp("tube", at=(483 + float(rng.uniform(-200, 200)), 270 + float(rng.uniform(-250, 250)),
                                float(rng.uniform(900, 1400))),
                    kelvin=float(rng.uniform(5500, 6800)), strength=float(rng.uniform(0.7, 0.9)),
                    ambient=float(rng.uniform(0.2, 0.3)), shadow_blur=float(rng.uniform(3.0, 7.0)),
                    shadow_depth=float(rng.uniform(0.35, 0.6)), span=float(rng.uniform(600, 1200)))
    size = (1920, 1080) if rng.random() < 0.5 else (1280, 720)
    return BoardLook(
        seed=seed, family="eval", image_size=size, fov=float(rng.uniform(68, 85)),
        tilt=float(rng.uniform(15, 30)), tilt_towards=float(rng.uniform(0, 360)), roll=float(rng.uniform(-8, 8)),
        margin=float(rng.uniform(0.02, 0.1)), distortion=float(rng.uniform(0.04, 0.12)),
        paper_srgb=paper, ink=float(rng.uniform(0.8, 1.1)), gloss=float(rng.uniform(0.25, 0.6)),
        shininess=float(rng.uniform(40, 200)),
        table=table, table_srgb=table_srgb, lamp=lamp, material="plastic", piece_gloss=float(rng.uniform(0.3, 0.8)),
        players=_player_colours(rng, 0.035, (0.82, 1.12), 10.0),
        noise=float(rng.uniform(2.0, 4.5)), chroma_noise=float(rng.uniform(0.4, 0.8)),
        jpeg=int(rng.integers(45, 86)), vignette=float(rng.uniform(0.15, 0.35)),
        sizes={k: float(rng.uniform(0.88, 1.12)) for k in ("meeple", "pyramid", "train", "value")},
        white_balance=float(rng.uniform(3300, 5200)), exposure_drift=float(rng.uniform(0.03, 0.07)),
        blur=float(rng.uniform(0.4, 0.9)))


def _varied(seed: int, rng: np.random.Generator) -> BoardLook:
    """Training looks: every property drawn on its own from a range spanning (and passing) what
    the development family and real tables show; roughly half the looks take each side of a
    choice (matte/glossy, wood/plastic, lens or none, raw or JPEG)."""
    paper = tuple(int(v) for v in np.clip(rng.uniform(225, 252) + rng.normal(0, 5, 3), 200, 255))
    table = ["cloth", "stone", "wood", "laminate"][int(rng.integers(0, 4))]
    table_srgb = tuple(int(v) for v in np.clip(rng.uniform(25, 230) + rng.normal(0, 25, 3), 0, 255))
    kind = ["overhead", "point", "tube"][int(rng.integers(0, 3))]
    if kind == "overhead":
        lamp = Lamp("overhead", at=(float(rng.uniform(-0.7, 0.7)), float(rng.uniform(-0.7, 0.7)), 1.0),
                    kelvin=float(rng.uniform(2400, 7500)), strength=float(rng.uniform(0.5, 0.9)),
                    ambient=float(rng.uniform(0.12, 0.5)), shadow_blur=float(rng.uniform(0.3, 5.0)),
                    shadow_depth=float(rng.uniform(0.3, 0.85)))
    elif kind == "point":
        ang = rng.uniform(0, 2 * math.pi)
        lamp = Lamp("point", at=(483 + float(rng.uniform(150, 700) * math.cos(ang)),
                                 270 + float(rng.uniform(100, 450) * math.sin(ang)), float(rng.uniform(400, 900))),
                    kelvin=float(rng.uniform(2400, 7500)), strength=float(rng.uniform(0.7, 1.0)),
                    ambient=float(rng.uniform(0.1, 0.35)), shadow_blur=float(rng.uniform(0.3, 3.0)),
                    shadow_depth=float(rng.uniform(0.4, 0.9)))
    else:
        lamp = Lamp("tube", at=(483 + float(rng.uniform(-250, 250)), 270 + float(rng.uniform(-300, 300)),
                                float(rng.uniform(800, 1500))),
                    kelvin=float(rng.uniform(2400, 7500)), strength=float(rng.uniform(0.6, 0.95)),
                    ambient=float(rng.uniform(0.15, 0.35)), shadow_blur=float(rng.uniform(2.0, 8.0)),
                    shadow_depth=float(rng.uniform(0.3, 0.65)), span=float(rng.uniform(500, 1300)))
    size = [(960, 540), (1280, 720), (1920, 1080)][int(rng.integers(0, 3))]
    glossy = rng.random() < 0.5
    plastic = rng.random() < 0.5
    return BoardLook(
        seed=seed, family="varied", image_size=size, fov=float(rng.uniform(52, 90)),
        tilt=float(rng.uniform(0, 32)), tilt_towards=float(rng.uniform(0, 360)), roll=float(rng.uniform(-10, 10)),
        margin=float(rng.uniform(0.02, 0.1)),
        distortion=float(rng.uniform(0.02, 0.14)) if rng.random() < 0.6 else 0.0,
        paper_srgb=paper, ink=float(rng.uniform(0.75, 1.12)),
        gloss=float(rng.uniform(0.1, 0.7)) if glossy else 0.0, shininess=float(rng.uniform(30, 250)) if glossy else 1.0,
        table=table, table_srgb=table_srgb, lamp=lamp, material="plastic" if plastic else "wood",
        piece_gloss=float(rng.uniform(0.2, 0.9)) if plastic else 0.0,
        players=_player_colours(rng, 0.045, (0.78, 1.15), 12.0),
        noise=float(rng.uniform(1.0, 5.0)), chroma_noise=float(rng.uniform(0.1, 0.9)),
        jpeg=int(rng.integers(40, 92)) if rng.random() < 0.6 else None, vignette=float(rng.uniform(0.05, 0.4)),
        sizes={k: float(rng.uniform(0.86, 1.14)) for k in ("meeple", "pyramid", "train", "value")},
        white_balance=float(rng.uniform(3000, 6500)), exposure_drift=float(rng.uniform(0.02, 0.08)),
        blur=float(rng.uniform(0.0, 1.1)))


@dataclass(frozen=True)
class Bump:
    """The board knocked on the table: turned by ``angle`` degrees about its middle and moved
    by (dx, dy) mm."""

    angle: float = 0.0
    dx: float = 0.0
    dy: float = 0.0

    @classmethod
    def random(cls, rng: np.random.Generator, angle: float = 3.0, shift: float = 20.0) -> "Bump":
        a = rng.uniform(0, 2 * math.pi)
        r = rng.uniform(0.3, 1.0) * shift
        return cls(float(rng.uniform(-angle, angle)), float(r * math.cos(a)), float(r * math.sin(a)))


@dataclass(frozen=True)
class BoardHand:
    """A hand and arm reaching over the board from one ``edge`` (top, bottom, left, right) to
    the fingertips at (x, y) board mm, ``height`` mm over the table; skin and sleeve as sRGB."""

    edge: str
    x: float
    y: float
    height: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    sleeve_share: float             # how much of the arm the sleeve covers
    spread: float                   # fingers apart (degrees)

    @classmethod
    def random(cls, rng: np.random.Generator, sheet: tuple[float, float]) -> "BoardHand":
        edge = ["bottom", "bottom", "top", "left", "right"][int(rng.integers(0, 5))]
        tones = [(241, 194, 160), (224, 172, 130), (198, 134, 96), (141, 85, 56), (92, 58, 40), (250, 214, 190)]
        base = np.array(tones[int(rng.integers(0, len(tones)))], float) + rng.normal(0, 6, 3)
        sleeve = rng.uniform(20, 230, 3) if rng.random() < 0.7 else np.array([rng.uniform(20, 60)] * 3)
        return cls(edge, float(rng.uniform(0.15, 0.85) * sheet[0]), float(rng.uniform(0.15, 0.85) * sheet[1]),
                   float(rng.uniform(25, 70)), tuple(int(v) for v in np.clip(base, 0, 255)),
                   tuple(int(v) for v in np.clip(sleeve, 0, 255)), float(rng.uniform(0.3, 0.75)),
                   float(rng.uniform(4, 12)))
