"""Where a drink that came out of the tower ended up: the landing camera's words and their truth.

Several games score a drink by where it lands after the tower (rule book 002): the upside-down
tower's bets (in a crate's slot, in the crate but not in a slot, outside the crate) and LEMON
SQUASH's start order (whose short can lands farthest from the tower). A camera that sees the
table around the tower reports, for each drink it was told to look for, a :class:`Landing`: the
*spot* and the *distance* from the tower.

Everything is on the table plane in millimetres, with the tower's foot as the origin: the middle
of the tower's front edge where it meets the table, ``y`` pointing away from the tower, ``x`` to
the right seen from the tower. A *scene* (:class:`LandingScene`) is the truth of one moment: the
crates (each a 2x3 grid of slots) and the drinks on the table; :func:`truth` says what a perfect
camera would report for it, and so defines the words:

- ``slot``: the drink lies or stands wholly inside one slot of a crate (a wall's half-thickness of
  lean allowed);
- ``crate``: not in a slot, but its middle is over a crate;
- ``outside``: its middle is over no crate.

``distance_mm`` is from the origin to the drink's middle on the table (a lying drink's middle is
the middle of its length). Shared by vision, sim and table (like ``crate_fields.py``), so it
imports none of them.

>>> crate = PlacedCrate(x=0.0, y=60.0, yaw=0.0, pitch_mm=15.0, wall_mm=1.5)
>>> standing = PlacedDrink(drink="red-short_can", x=-7.5, y=45.0, standing=True, length_mm=20, width_mm=11)
>>> lying = PlacedDrink(drink="blue-tall_can", x=0.0, y=60.0, yaw=90.0, length_mm=26, width_mm=11)
>>> far = PlacedDrink(drink="mint-stubby_can", x=40.0, y=300.0, length_mm=14, width_mm=12)
>>> [(l.drink, l.spot, l.distance_mm) for l in truth(LandingScene(crates=(crate,), drinks=(standing, lying, far))).landings]
[('red-short_can', 'slot', 46), ('blue-tall_can', 'crate', 60), ('mint-stubby_can', 'outside', 303)]
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .drinks import DRINK_IDS

Spot = Literal["slot", "crate", "outside"]
SPOTS: tuple[str, ...] = ("slot", "crate", "outside")
MAX_DISTANCE_MM = 3000          # a drink rolls a metre at most; three leave room for a long table
MAX_CRATES = 12                 # crates on the table at most (the game has six; a second box, twelve)
SLOTS_ACROSS, SLOTS_ALONG = 2, 3
CODES = ("hand", "not_calibrated", "camera_error", "no_view", "tower_moved")


class Landing(BaseModel):
    """One drink's landing as the camera reports it. ``spot`` and ``distance_mm`` are None when
    the drink was not found (``seen`` false); ``sure`` false means the values are the likeliest
    guess and a person is asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    drink: str
    seen: bool = True
    spot: Spot | None = None
    distance_mm: int | None = Field(None, ge=0, le=MAX_DISTANCE_MM)
    sure: bool = True

    @field_validator("drink")
    @classmethod
    def _drink(cls, value: str) -> str:
        if value not in DRINK_IDS:
            raise ValueError(f"a drink id (colour-shape, e.g. 'red-tall_can'), not {value!r}")
        return value

    @model_validator(mode="after")
    def _seen_has_values(self) -> "Landing":
        if self.seen and (self.spot is None or self.distance_mm is None):
            raise ValueError(f"{self.drink}: a drink seen has a spot and a distance")
        if not self.seen and self.sure:
            raise ValueError(f"{self.drink}: a drink not seen cannot be sure")
        return self


class LandingReading(BaseModel):
    """One frame of the landing camera: a :class:`Landing` for each drink it was asked about (in
    the order asked), and ``codes`` for what kept the frame from being read (a hand over the
    table, no calibration, the camera failing, nothing of the table in view, the tower moved since
    calibration). A reading with codes is not *usable*: nothing in it is proposed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    landings: list[Landing] = Field(default_factory=list, max_length=len(DRINK_IDS))
    codes: list[str] = Field(default_factory=list, max_length=len(CODES))

    @field_validator("landings")
    @classmethod
    def _once(cls, value: list) -> list:
        names = [x.drink for x in value]
        if len(set(names)) != len(names):
            raise ValueError("a drink is listed twice")
        return value

    @field_validator("codes")
    @classmethod
    def _codes(cls, value: list) -> list:
        bad = [c for c in value if c not in CODES]
        if bad:
            raise ValueError(f"unknown code {bad[0]!r}; one of {', '.join(CODES)}")
        return value

    @property
    def usable(self) -> bool:
        return not self.codes

    def of(self, drink: str) -> Landing | None:
        return next((x for x in self.landings if x.drink == drink), None)


class PlacedCrate(BaseModel):
    """A crate on the table: its middle (x, y), its yaw (degrees; 0 = its three slots run along
    y), its slot pitch (slot middle to slot middle) and wall thickness."""

    model_config = ConfigDict(frozen=True)

    x: float
    y: float
    yaw: float = 0.0
    pitch_mm: float = Field(15.0, gt=0, le=100)
    wall_mm: float = Field(1.5, ge=0, le=10)

    def local(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) on the table in the crate's own frame: u across (2 slots), v along (3 slots)."""
        a = math.radians(self.yaw)
        dx, dy = x - self.x, y - self.y
        return dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)

    def half_size(self) -> tuple[float, float]:
        return SLOTS_ACROSS * self.pitch_mm / 2, SLOTS_ALONG * self.pitch_mm / 2


class PlacedDrink(BaseModel):
    """A drink on the table: its middle (x, y), yaw (degrees; a lying drink's length along the
    yaw's direction, 0 = along x), standing or lying, and its size (length = height, width =
    diameter)."""

    model_config = ConfigDict(frozen=True)

    drink: str
    x: float
    y: float
    yaw: float = 0.0
    standing: bool = False
    length_mm: float = Field(gt=0, le=100)
    width_mm: float = Field(gt=0, le=100)

    def footprint(self) -> list[tuple[float, float]]:
        """Points on the table the drink covers: a standing drink's round foot (8 points of its
        rim), a lying drink's four corners."""
        if self.standing:
            r = self.width_mm / 2
            return [(self.x + r * math.cos(k * math.pi / 4), self.y + r * math.sin(k * math.pi / 4)) for k in range(8)]
        a = math.radians(self.yaw)
        ux, uy = math.cos(a) * self.length_mm / 2, math.sin(a) * self.length_mm / 2
        vx, vy = -math.sin(a) * self.width_mm / 2, math.cos(a) * self.width_mm / 2
        return [(self.x + sx * ux + sy * vx, self.y + sx * uy + sy * vy) for sx in (-1, 1) for sy in (-1, 1)]


class LandingScene(BaseModel):
    """The truth of one moment on the table around the tower (see the module's words)."""

    model_config = ConfigDict(frozen=True)

    crates: tuple[PlacedCrate, ...] = Field((), max_length=MAX_CRATES)
    drinks: tuple[PlacedDrink, ...] = Field((), max_length=len(DRINK_IDS))


def spot_of(scene: LandingScene, drink: PlacedDrink) -> str:
    """``slot``, ``crate`` or ``outside`` for ``drink`` in ``scene`` (the module's definitions)."""
    for crate in scene.crates:
        hu, hv = crate.half_size()
        u, v = crate.local(drink.x, drink.y)
        if not (-hu <= u <= hu and -hv <= v <= hv):
            continue
        col = min(SLOTS_ACROSS - 1, int((u + hu) // crate.pitch_mm))
        row = min(SLOTS_ALONG - 1, int((v + hv) // crate.pitch_mm))
        u0, v0 = -hu + col * crate.pitch_mm, -hv + row * crate.pitch_mm
        slack = crate.wall_mm / 2     # a drink leaning on a wall is still in its slot
        inside = all(u0 - slack <= pu <= u0 + crate.pitch_mm + slack and v0 - slack <= pv <= v0 + crate.pitch_mm + slack
                     for pu, pv in (crate.local(px, py) for px, py in drink.footprint()))
        return "slot" if inside else "crate"
    return "outside"


def distance_of(drink: PlacedDrink) -> int:
    """Millimetres from the tower's foot to the drink's middle, rounded (at most MAX_DISTANCE_MM)."""
    return min(MAX_DISTANCE_MM, round(math.hypot(drink.x, drink.y)))


def truth(scene: LandingScene, asked: tuple[str, ...] | None = None) -> LandingReading:
    """What a perfect camera reports for ``scene``: the drinks ``asked`` (all of the scene's,
    in its order, by default); one asked but not on the table is not seen."""
    placed = {d.drink: d for d in scene.drinks}
    names = tuple(placed) if asked is None else asked
    out = []
    for name in names:
        d = placed.get(name)
        if d is None:
            out.append(Landing(drink=name, seen=False, sure=False))
        else:
            out.append(Landing(drink=name, spot=spot_of(scene, d), distance_mm=distance_of(d)))
    return LandingReading(landings=out)


def edge_mm(scene: LandingScene, drink: PlacedDrink, limit: float = 3.0, step: float = 0.5) -> float:
    """How far ``drink`` lies from another spot: the least shift (in ``step`` mm, eight
    directions) that changes :func:`spot_of`, or ``limit`` when none up to it does. A lying drink
    whose middle is a millimetre inside a crate's rim, or that a millimetre's turn of luck puts
    wholly in a slot, is a knife's edge no camera tells for sure (the landing benchmark counts
    them apart). A standing drink in a slot cannot be shifted through its walls: not asked.

    >>> crate = PlacedCrate(x=0.0, y=60.0, pitch_mm=15.0, wall_mm=1.5)
    >>> rim = PlacedDrink(drink="blue-tall_can", x=14.0, y=60.0, yaw=90.0, length_mm=26, width_mm=11)
    >>> scene = LandingScene(crates=(crate,), drinks=(rim,))
    >>> spot_of(scene, rim), edge_mm(scene, rim)
    ('crate', 1.5)
    >>> edge_mm(scene, rim.model_copy(update={"x": 0.0}))
    3.0
    """
    here = spot_of(scene, drink)
    diagonal = math.sqrt(0.5)
    ways = ((1, 0), (-1, 0), (0, 1), (0, -1), (diagonal, diagonal), (-diagonal, diagonal), (diagonal, -diagonal),
            (-diagonal, -diagonal))
    shift = step
    while shift <= limit + 1e-9:
        for dx, dy in ways:
            moved = drink.model_copy(update={"x": drink.x + dx * shift, "y": drink.y + dy * shift})
            if spot_of(scene, moved) != here:
                return shift
        shift += step
    return limit
