"""The look of one simulated table: a physical set of drinks (their own colours and sizes
around the nominal catalogue), a tray, a camera and a light; and what a frame shows (drinks
placed on the tray, the light of the moment, a hand). Values only: drawing is ``render.py``.

Looks come in two families (``FAMILIES``), which differ in kind, not only in seed. The
development family ("dev") is the one the drink reader was tuned on, photo by photo. The
evaluation family ("eval") draws from other ranges and adds what dev never has: glossy plastic
with a view-dependent (Fresnel) sheen, coloured lamps and a second lamp, wood, felt and coloured
trays, higher and lower cameras tilted up to 12 degrees, each shape's size off on its own, and
its own shadow band, shake and JPEG. Its seeds are a range of their own, and its photos are only
ever scored (``benchmarks/vision.py``), never looked at one by one. A third family, "train",
is for learning only (``tools/learn_drinks.py``): every range wider than dev's, drawn broadly
rather than as eval's few kinds.

>>> a, b = Look.from_seed(3), Look.from_seed(3)
>>> a.tray == b.tray and a.sizes == b.sizes
True
>>> Look.from_seed(900_003, family="eval").family
'eval'
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

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
    scaled = img * 4095.0
    np.clip(scaled, 0, 4095, out=scaled)     # in place: the same numbers, half the time
    return _SRGB_LUT[scaled.astype(np.uint16)]


_x = np.linspace(0, 1, 4096, dtype=np.float64)
_SRGB_LUT = np.clip(np.where(_x <= 0.0031308, 12.92 * _x, 1.055 * _x ** (1 / 2.4) - 0.055) * 255 + 0.5,
                    0, 255).astype(np.uint8)


# --- the families of looks -------------------------------------------------------------------

@dataclass(frozen=True)
class TrayKind:
    """One kind of tray: its colour in sRGB levels, drawn for each table, and its surface."""

    channels: tuple[tuple[float, float], ...] | None = None   # R, G, B ranges, each drawn on its own
    level: tuple[float, float] | None = None                  # or one grey level for all three ...
    jitter: float = 0.0                                       # ... moved by up to this much per channel
    surface: str = "plastic"                                  # "plastic" (grain, ribs, scratches), "wood", "felt"


TRAY_KINDS = {
    "light": TrayKind(channels=((185, 212), (188, 212), (180, 208))),
    "dark": TrayKind(level=(70, 92), jitter=5),
    "wood": TrayKind(channels=((150, 192), (102, 136), (62, 92)), surface="wood"),
    "felt": TrayKind(level=(55, 150), jitter=12, surface="felt"),
    "green": TrayKind(channels=((55, 80), (105, 135), (70, 95))),
    "red": TrayKind(channels=((125, 155), (40, 60), (40, 58))),
    "bluegrey": TrayKind(channels=((88, 108), (102, 122), (118, 140))),
    # the training family's (learning only): trays of any colour, drawn over wide ranges of
    # their own, so that a learned reader meets many trays rather than a few chosen kinds
    "tinted": TrayKind(channels=((40, 220), (40, 220), (40, 220))),
    "grained": TrayKind(channels=((80, 225), (55, 195), (30, 160)), surface="wood"),
    "woven": TrayKind(level=(35, 195), jitter=30, surface="felt"),
}


@dataclass(frozen=True)
class Family:
    """The ranges one family of tables is drawn from. Dev's values are what the renderer always
    drew; a ``None`` is something the family never has (the renderer then draws as dev does)."""

    name: str
    seeds: range                                  # the family's own seeds
    stream: int                                   # the random stream a look is drawn from
    trays: dict[str, float]                       # tray kind -> share of the tables
    colour_gain: tuple[float, float]              # each plastic colour's brightness against nominal
    colour_jitter: float                          # sd of each channel's offset from it, sRGB levels
    gloss: tuple[float, float]                    # highlight strength, per colour
    set_scale: tuple[float, float]                # the whole set's size against the catalogue
    shape_length: tuple[float, float]             # each shape on its own, on top of the set's scale
    shape_width: tuple[float, float]
    lamp_elevation: tuple[float, float]           # the main lamp, degrees above the tray (any side)
    px_per_mm: tuple[tuple[float, float], ...]    # the camera's height as a scale: one band or several
    tilt: float                                   # camera tilt about each axis, up to (degrees)
    tilt_max: float | None                        # the two axes together at most
    roll: float                                   # camera roll up to (degrees)
    face_tilt: float                              # how far a square bottle's face turns (radians)
    jpeg_quality: tuple[int, int]                 # "hard": JPEG quality, from (inclusive) to (exclusive)
    shake_px: tuple[float, float]                 # "hard": camera shake during the exposure (px)
    shake: str                                    # "line" (a straight streak) or "arc" (bent, stops at one end)
    shade: str                                    # a person's shade in drift: "spot" (round) or "band" (across)
    band_chance: dict[str, float] | None          # difficulty -> chance of a shadow band
    # beyond the dev renderer's shading: drawn into ``Shading``
    fresnel: tuple[float, float] | None           # plastic's reflectance head-on (Schlick F0)
    reflection: tuple[float, float] | None        # the room mirrored at grazing angles
    highlight: tuple[float, float] | None         # the lamps' highlight sharpness (Blinn-Phong exponent)
    lamp_kelvin: tuple[float, float] | None       # colour temperature of each lamp
    white_balance: tuple[float, float] | None     # the camera's fixed white balance against the main lamp's
    ambient: tuple[float, float] | None           # the room's light against the main lamp
    fill_lamp: tuple[float, float] | None         # a second, weaker lamp from another side
    fill_elevation: tuple[float, float] | None
    shadows: tuple[tuple[tuple[float, float], tuple[float, float]], ...] | None
    #  ^ kinds of cast shadow, one drawn per table: (softness against dev's, share of the lamp blocked)
    vignette: tuple[float, float] | None          # light fall-off to the frame's corners (dev: 0.18)
    noise: tuple[float, float] | None             # sensor noise against dev's


FAMILIES = {
    "dev": Family(
        name="dev", seeds=range(0, 900_000), stream=7001,
        trays={"light": 0.5, "dark": 0.5},
        colour_gain=(0.93, 1.05), colour_jitter=6.0, gloss=(0.2, 0.45),
        set_scale=(0.94, 1.06), shape_length=(0.985, 1.015), shape_width=(0.97, 1.03),
        lamp_elevation=(55, 75), px_per_mm=((5.3, 6.0),), tilt=5.0, tilt_max=None, roll=4.0,
        face_tilt=0.12, jpeg_quality=(60, 85), shake_px=(2, 6), shake="line", shade="spot", band_chance=None,
        fresnel=None, reflection=None, highlight=None, lamp_kelvin=None, white_balance=None,
        ambient=None, fill_lamp=None, fill_elevation=None, shadows=None, vignette=None, noise=None),
    "eval": Family(
        name="eval", seeds=range(900_000, 1_000_000), stream=7101,
        trays={"light": 0.1, "dark": 0.1, "wood": 0.2, "felt": 0.2, "green": 0.14, "red": 0.13, "bluegrey": 0.13},
        colour_gain=(0.85, 1.12), colour_jitter=12.0, gloss=(0.45, 0.9),
        set_scale=(1.0, 1.0), shape_length=(0.93, 1.07), shape_width=(0.93, 1.07),
        lamp_elevation=(38, 82), px_per_mm=((4.6, 5.2), (6.1, 6.8)), tilt=12.0, tilt_max=12.0, roll=12.0,
        face_tilt=0.35, jpeg_quality=(40, 66), shake_px=(3, 8), shake="arc", shade="band",
        band_chance={"drift": 0.5, "hard": 0.9},
        fresnel=(0.03, 0.08), reflection=(0.25, 0.6), highlight=(30, 200), lamp_kelvin=(2700, 6500),
        white_balance=(0.75, 1.3), ambient=(0.15, 0.35), fill_lamp=(0.15, 0.4), fill_elevation=(25, 55),
        shadows=(((0.3, 0.6), (0.75, 0.95)), ((1.7, 2.8), (0.45, 0.75))),   # hard, soft
        vignette=(0.08, 0.35), noise=(0.8, 1.8)),
    # The training family: tables to learn from (tools/learn_drinks.py), never to measure with.
    # Every range is wider than dev's and drawn as one broad range (trays of any colour, any
    # camera height between the lowest and highest, lamps from warm to cold, plastic from matte
    # to glossy), not as a copy of eval's choices: a reader that learns from it must meet
    # looks it never saw, and eval stays the judge of that.
    "train": Family(
        name="train", seeds=range(1_000_000, 2_000_000), stream=7201,
        trays={"light": 0.15, "dark": 0.15, "tinted": 0.3, "grained": 0.2, "woven": 0.2},
        colour_gain=(0.8, 1.16), colour_jitter=14.0, gloss=(0.1, 1.0),
        set_scale=(0.92, 1.08), shape_length=(0.92, 1.08), shape_width=(0.92, 1.08),
        lamp_elevation=(30, 86), px_per_mm=((4.2, 7.2),), tilt=14.0, tilt_max=15.0, roll=20.0,
        face_tilt=0.45, jpeg_quality=(30, 90), shake_px=(1, 10), shake="arc", shade="band",
        band_chance={"drift": 0.6, "hard": 0.7},
        fresnel=(0.02, 0.1), reflection=(0.05, 0.7), highlight=(15, 300), lamp_kelvin=(2300, 7500),
        white_balance=(0.65, 1.4), ambient=(0.08, 0.45), fill_lamp=(0.0, 0.5), fill_elevation=(15, 75),
        shadows=(((0.2, 1.2), (0.4, 0.98)), ((0.8, 3.5), (0.3, 0.85))),   # harder, softer
        vignette=(0.0, 0.45), noise=(0.6, 2.2)),
}


def kelvin_bgr(kelvin: float) -> np.ndarray:
    """The colour of a black body at ``kelvin`` as linear BGR, green = 1 (Tanner Helland's fit)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    lin = srgb_to_linear(np.clip([b, g, r], 1, 255)).astype(np.float64)
    return lin / lin[1]


@dataclass(frozen=True)
class Shading:
    """How an eval table is lit and shaded beyond what the dev renderer draws. Colours are
    linear BGR as the camera records them (after its white balance)."""

    key_bgr: tuple[float, float, float]       # the main lamp (towards ``Look.light_dir``)
    ambient: float                            # the room's light
    ambient_bgr: tuple[float, float, float]
    fill_dir: tuple[float, float, float]      # the second lamp: unit vector towards it
    fill: float
    fill_bgr: tuple[float, float, float]
    fresnel: float                            # Schlick F0 of the plastic
    reflection: float                         # the room mirrored in the plastic at grazing angles
    highlight: float                          # Blinn-Phong exponent of the lamps' highlights
    shadow_blur: float                        # cast shadows' softness against dev's
    shadow_depth: float                       # the share of a lamp's light a drink's shadow blocks
    vignette: float
    noise: float

    def tray_light(self, light_dir) -> np.ndarray:
        """The light on the open tray, BGR, from the room, the main lamp and the second lamp."""
        return (self.ambient * np.array(self.ambient_bgr) + 0.85 * light_dir[2] * np.array(self.key_bgr)
                + self.fill * self.fill_dir[2] * np.array(self.fill_bgr))


# --- the look of one table -------------------------------------------------------------------

@dataclass
class Look:
    """One physical set of drinks on one tray under one camera; seeded."""

    seed: int
    tray: str                                   # a kind of TRAY_KINDS: "light" or "dark" in dev
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
    family: str = "dev"
    face_tilt: float = 0.12                     # how far a square bottle's face turns (radians)
    shading: Shading | None = None              # None: the dev renderer's shading

    @classmethod
    def from_seed(cls, seed: int, tray: str | None = None, family: str = "dev") -> "Look":
        """The look of table ``seed`` of ``family`` ("dev" or "eval"; each has its own seeds).
        The dev family's draws are the renderer's original ones, in their original order."""
        fam = FAMILIES.get(family)
        if fam is None:
            raise ValueError(f"no family {family!r}: one of {', '.join(FAMILIES)}")
        if seed not in fam.seeds:
            raise ValueError(f"seed {seed} is not a {family} seed ({fam.seeds.start}..{fam.seeds.stop - 1})")
        if tray is not None and tray not in fam.trays:
            raise ValueError(f"the {family} family has no {tray!r} tray: one of {', '.join(fam.trays)}")
        rng = np.random.default_rng([seed, fam.stream])
        if tray is None:
            u, share = rng.random(), 0.0
            tray = list(fam.trays)[-1]
            for kind, p in fam.trays.items():
                share += p
                if u < share:
                    tray = kind
                    break
        kind = TRAY_KINDS[tray]
        if kind.channels is not None:
            base = np.array([rng.uniform(*r) for r in kind.channels])
        else:
            base = np.array([rng.uniform(*kind.level)] * 3)
        if kind.jitter:
            base = base + rng.uniform(-kind.jitter, kind.jitter, 3)
        tray_lin = tuple(float(v) for v in srgb_to_linear(base))
        colours, gloss = {}, {}
        for c in COLOURS:
            rgb = np.array(NOMINAL_SRGB[c.value], np.float64)
            rgb = np.clip(rgb * rng.uniform(*fam.colour_gain) + rng.normal(0, fam.colour_jitter, 3), 8, 250)
            colours[c.value] = srgb_to_linear(rgb[::-1])  # BGR
            gloss[c.value] = float(rng.uniform(*fam.gloss))
        scale = rng.uniform(*fam.set_scale)  # the whole set is a bit bigger or smaller than nominal
        sizes = {}
        for s in SHAPES:
            length, width = NOMINAL_SIZE_MM[s.value]
            sizes[s.value] = (float(length * scale * rng.uniform(*fam.shape_length)),
                              float(width * scale * rng.uniform(*fam.shape_width)))
        az = rng.uniform(0, 2 * math.pi)
        elev = math.radians(rng.uniform(*fam.lamp_elevation))
        light = (math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev))
        band = fam.px_per_mm[0] if len(fam.px_per_mm) == 1 else fam.px_per_mm[int(rng.integers(len(fam.px_per_mm)))]
        px_per_mm = float(rng.uniform(*band))
        tilt = (float(rng.uniform(-fam.tilt, fam.tilt)), float(rng.uniform(-fam.tilt, fam.tilt)))
        roll = float(rng.uniform(-fam.roll, fam.roll))
        texture = {"grain": float(rng.uniform(0.02, 0.05)), "rib_period": float(rng.uniform(3, 7)),
                   "rib_amp": float(rng.uniform(0.0, 0.04)), "rib_angle": float(rng.uniform(0, 180)),
                   "scratches": int(rng.integers(3, 12))}
        shading = None
        if fam.name != "dev":
            if fam.tilt_max is not None and math.hypot(*tilt) > fam.tilt_max:
                k = fam.tilt_max / math.hypot(*tilt)
                tilt = (tilt[0] * k, tilt[1] * k)
            texture.update(_surface(kind.surface, rng))
            shading = _shading(fam, rng, light, az)
        return cls(seed=seed, tray=tray, tray_rgb=tray_lin, colours=colours, gloss=gloss, sizes=sizes,
                   px_per_mm=px_per_mm, tilt=tilt, roll=roll, light_dir=light, texture=texture,
                   family=fam.name, face_tilt=fam.face_tilt, shading=shading)


def _surface(surface: str, rng: np.random.Generator) -> dict:
    """What a tray's surface adds to its texture beyond moulded plastic's."""
    if surface == "wood":       # grain lines along the board, bent a little, darker late wood
        return {"surface": "wood", "ring_period": float(rng.uniform(1.5, 4.0)),
                "ring_amp": float(rng.uniform(0.08, 0.2)),
                "ring_angle": float(rng.uniform(0, 180)), "warp": float(rng.uniform(2.0, 8.0)),
                "scratches": int(rng.integers(0, 4))}
    if surface == "felt":       # matte fibres and a fine weave, no scratches
        return {"surface": "felt", "fibre": float(rng.uniform(0.04, 0.09)),
                "weave_period": float(rng.uniform(0.6, 1.2)),
                "weave_amp": float(rng.uniform(0.0, 0.03)), "scratches": 0, "rib_amp": 0.0}
    return {}


def _shading(fam: Family, rng: np.random.Generator, light: tuple, az: float) -> Shading:
    """An eval table's lamps (main and second, each of its own colour temperature, seen through
    the camera's white balance), plastic and shadows, drawn from ``fam``'s ranges."""
    key_k, fill_k = rng.uniform(*fam.lamp_kelvin), rng.uniform(*fam.lamp_kelvin)
    white = kelvin_bgr(key_k * rng.uniform(*fam.white_balance))
    key, fill_c = kelvin_bgr(key_k) / white, kelvin_bgr(fill_k) / white
    ambient_c = (key + fill_c) / 2                      # the room, lit by both
    ambient = float(rng.uniform(*fam.ambient))
    fill = float(rng.uniform(*fam.fill_lamp))
    faz = az + rng.uniform(0.5 * math.pi, 1.5 * math.pi)   # from another side
    fel = math.radians(rng.uniform(*fam.fill_elevation))
    fill_dir = (math.cos(fel) * math.cos(faz), math.cos(fel) * math.sin(faz), math.sin(fel))
    blur, depth = fam.shadows[int(rng.integers(len(fam.shadows)))]
    shading = Shading(key_bgr=tuple(key), ambient=ambient, ambient_bgr=tuple(ambient_c), fill_dir=fill_dir, fill=fill,
                      fill_bgr=tuple(fill_c), fresnel=float(rng.uniform(*fam.fresnel)),
                      reflection=float(rng.uniform(*fam.reflection)), highlight=float(rng.uniform(*fam.highlight)),
                      shadow_blur=float(rng.uniform(*blur)), shadow_depth=float(rng.uniform(*depth)),
                      vignette=float(rng.uniform(*fam.vignette)), noise=float(rng.uniform(*fam.noise)))
    # exposure as dev's: the open tray's light is 1 on average over the channels
    k = 1.0 / float(np.mean(shading.tray_light(light)))
    return replace(shading, key_bgr=tuple(float(v) * k for v in key),
                   ambient_bgr=tuple(float(v) * k for v in ambient_c), fill_bgr=tuple(float(v) * k for v in fill_c))


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
    band: tuple[float, float, float, float, float] | None = None
    #  ^ a person's shadow across the tray (eval): direction (degrees), offset from the centre, half
    #    width, softness of its edges (mm), the share of the main lamp it blocks

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
    def drift_across(cls, rng: np.random.Generator, strength: float = 1.0, band_chance: float = 0.5) -> "Lighting":
        """The eval family's drift: exposure, the lamp's colour temperature moving along the black
        body line, a gradient in any direction and, with ``band_chance``, a person's shadow band."""
        s = strength
        gain = float(math.exp(rng.uniform(-0.4, 0.4) * s))
        reference = 4500.0
        kelvin = 1e6 / (1e6 / reference + rng.normal(0, 30 * s))          # a shift in mired
        tint = kelvin_bgr(kelvin) / kelvin_bgr(reference) * np.exp(rng.normal(0, 0.015 * s, 3))
        ang, size = rng.uniform(0, 2 * math.pi), rng.uniform(0, 0.35 * s)
        band = None
        if rng.random() < band_chance:
            band = (float(rng.uniform(0, 180)), float(rng.uniform(-50, 50)), float(rng.uniform(15, 45)),
                    float(rng.uniform(4, 20)), float(rng.uniform(0.3, 0.8)))
        return cls(gain=gain, tint=tuple(float(v) for v in tint),
                   gradient=(float(size * math.cos(ang)), float(size * math.sin(ang))), band=band)

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
