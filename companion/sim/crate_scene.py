"""What the crate camera's scene holds, as numbers: where each drink stands in its slot, how far
each crate is off its place in the grid, and the loose things lying on the table round the
crates (coins, cards, drinks standing or knocked over: what a real table has, and what the
reader must not take for the crates' contents). Drawing is ``crate_render.py``.

>>> from companion.sim.crate_looks import CrateLook
>>> layout = CrateLayout(crates=((0, 0, 0),), drinks={(1, 2): "mint-short_can"})
>>> scene = arrange(CrateLook.from_seed(1), layout, np.random.default_rng(0), (0.0, 0.0, 0.0))
>>> [(s.field, s.drink, s.slot) for s in scene.standing], len(scene.nudges)
([((1, 2), 'mint-short_can', (0, 5))], 1)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..crate_fields import EMPTY, MAX_CRATES, MAX_SPAN, CrateLayout, crate_fields
from ..drinks import DRINK_IDS
from . import board_solids as solids
from .crate_looks import CrateLook
from .crate_solids import nudged, slot_room
from .looks import NOMINAL_SIZE_MM

Pose = tuple[float, float, float]
COIN_SRGB = ((196, 196, 190), (206, 170, 80), (176, 108, 64))      # silver, brass, copper


@dataclass(frozen=True)
class Standing:
    """One drink in a slot: its field, drink id, where it stands (grid mm, its middle), its yaw,
    its colour (sRGB, this drink's own), its slot (crate index, slot index), how far it
    stands off the slot's middle (mm) and how it leans (degrees from upright, and the direction
    its top leans to in the grid, degrees)."""

    field: tuple[int, int]
    drink: str
    x: float
    y: float
    yaw: float
    colour: tuple[int, int, int]
    slot: tuple[int, int] = (0, 0)
    dx: float = 0.0
    dy: float = 0.0
    lean: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class CrateScene:
    """What one still view shows: the layout, the grid's pose, each drink as it stands and how
    far each crate is off its place in the grid (dx mm, dy mm, turn degrees: crates pushed
    together by hand never line up exactly; the truth's grid is the ideal one)."""

    layout: CrateLayout
    pose: Pose
    standing: tuple[Standing, ...]
    nudges: tuple[tuple[float, float, float], ...] = ()
    loose: tuple["Loose", ...] = ()


@dataclass(frozen=True)
class Loose:
    """A thing on the table beside the crates: ``kind`` "coin", "card", "drink" (standing) or
    "lying" (a drink on its side); (x, y) table mm; yaw degrees; its colour (sRGB); ``drink``
    its id for a drink; ``size`` mm (a coin's radius, a card's width)."""

    kind: str
    x: float
    y: float
    yaw: float
    colour: tuple[int, int, int]
    drink: str = ""
    size: float = 0.0

    def radius(self, look: CrateLook) -> float:
        """How far from (x, y) it reaches on the table, mm."""
        if self.kind == "coin":
            return self.size
        if self.kind == "card":
            return self.size * 0.9
        shape = self.drink.partition("-")[2]
        length, width = NOMINAL_SIZE_MM[shape]
        return (length / 2 if self.kind == "lying" else width / 2) * look.drink_mm(shape)


def leaned(solid: solids.Solid, foot: np.ndarray, lean: tuple[float, float], turn: float = 0.0) -> solids.Solid:
    """``solid`` (standing on its foot point ``foot``, table mm) leaning ``lean`` = (degrees from
    upright, direction its top goes, degrees in the grid; the grid turned ``turn`` degrees on
    the table).

    >>> s = leaned(solids.drink(0.0, 0.0, 0.0, "tall_can", 26.0, 11.0), np.zeros(3), (90.0, 0.0))
    >>> bool(np.isclose(s.verts[:, 0].max(), 26.0)), bool(np.isclose(s.verts[:, 2].min(), -5.5))
    (True, True)
    """
    t, a = math.radians(lean[0]), math.radians(lean[1] + turn)
    if t == 0:
        return solid
    axis = np.array([math.sin(a), -math.cos(a), 0.0])     # turning "up" (0, 0, -1) towards (cos a, sin a, 0)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    R = np.eye(3) + math.sin(t) * K + (1 - math.cos(t)) * K @ K
    move = lambda p: (np.asarray(p) - foot) @ R.T + foot  # noqa: E731
    return solids.Solid(move(solid.verts), solid.faces, solid.caps, [(f, move(p), k) for f, p, k in solid.decals],
                        solid.base, None if solid.normals is None else solid.normals @ R.T)


def check_layout(layout: CrateLayout) -> None:
    """Raise ValueError, saying what is wrong, for a layout the simulated crates cannot show:
    more crates than a table has, a crate's place not (x, y, quarter turns 0-3) within the
    grid's span, two crates on one field, or a drink id that is no drink.

    >>> check_layout(CrateLayout(crates=((0, 0, 0), (1, 0, 0)), drinks={}))
    Traceback (most recent call last):
    ValueError: crates 0 and 1 both stand on field 1,0
    """
    if len(layout.crates) > MAX_CRATES:
        raise ValueError(f"at most {MAX_CRATES} crates, not {len(layout.crates)}")
    seen: dict = {}
    for i, place in enumerate(layout.crates):
        if len(place) != 3 or not all(isinstance(v, (int, np.integer)) for v in place):
            raise ValueError(f"crate {i}: a place is three whole numbers (x, y, quarter turns), not {place!r}")
        x, y, turn = place
        if not (abs(x) <= MAX_SPAN and abs(y) <= MAX_SPAN and 0 <= turn <= 3):
            raise ValueError(f"crate {i}: x and y are -{MAX_SPAN} to {MAX_SPAN} and the turn 0 to 3, not {place!r}")
        for f in crate_fields(place):
            if f in seen:
                raise ValueError(f"crates {seen[f]} and {i} both stand on field {f[0]},{f[1]}")
            seen[f] = i
    bad = [d for d in layout.drinks.values() if d != EMPTY and d not in DRINK_IDS]
    if bad:
        raise ValueError(f"{bad[0]!r} is no drink: a drink id is colour-shape, e.g. 'red-tall_can'")


def arrange(look: CrateLook, layout: CrateLayout, rng: np.random.Generator, pose: Pose,
            keep: CrateScene | None = None) -> CrateScene:
    """Each crate's nudge and each drink in its slot, a little off the slot's middle and turned
    at random. A crate of ``keep`` at the same index and place keeps its nudge; a drink of
    ``keep`` in the same slot of the same crate stays as it stood there, also when its crate
    moved. ``keep``'s loose things stay on the table (but those the crates now cover). A layout
    :func:`check_layout` refuses raises ValueError."""
    check_layout(layout)
    kept = {(s.slot, s.drink): s for s in (keep.standing if keep else ())}
    fields = layout.fields()
    ox, oy = grid_origin(layout)
    p = look.pitch_mm
    nudges = []
    for ci, place in enumerate(layout.crates):
        if keep is not None and ci < len(keep.layout.crates) and keep.layout.crates[ci] == place \
                and ci < len(keep.nudges):
            nudges.append(keep.nudges[ci])
        else:
            mm, deg = look.nudge
            dx, dy = (float(v) for v in np.clip(rng.normal(0, mm, 2), -2.5 * mm, 2.5 * mm))
            nudges.append((dx, dy, float(np.clip(rng.normal(0, deg), -2.5 * deg, 2.5 * deg))))
    out = []
    for ci, (place, foot) in enumerate(zip(layout.crates, layout.footprints())):
        middle = ((foot[0] + foot[2]) * p / 2, (foot[1] + foot[3]) * p / 2)
        for si, (fx, fy) in enumerate(crate_fields(place)):
            f = (fx - ox, fy - oy)
            drink = fields.get(f, EMPTY)
            if drink == EMPTY:
                continue
            x0, y0, x1, y1 = slot_room(f, foot, look)
            shape = drink.partition("-")[2]
            room = max(0.0, (min(x1 - x0, y1 - y0) - NOMINAL_SIZE_MM[shape][1] * look.drink_mm(shape)) / 2 - 0.2)
            old = kept.get(((ci, si), drink))
            if old is not None:
                dx, dy, yaw, rgb = min(max(old.dx, -room), room), min(max(old.dy, -room), room), \
                    old.yaw - keep.nudges[old.slot[0]][2], old.colour
                lean = (old.lean[0], old.lean[1] - keep.nudges[old.slot[0]][2])
            else:
                dx, dy = (float(v) for v in np.clip(rng.normal(0, room / 2, 2), -room, room))
                yaw = float(rng.uniform(0, 360))
                base = np.array(look.drinks.get(drink.partition("-")[0], (128, 128, 128)), float)
                rgb = tuple(int(v) for v in np.clip(base * rng.uniform(0.97, 1.03) + rng.normal(0, 2.0, 3), 0, 255))
                # leaning no further than the slot's walls let it at the rim
                most = math.degrees(math.atan2(2 * room + 0.4, max(look.rim_mm - look.floor_mm, 1.0)))
                lean = (float(min(rng.uniform(0, look.lean_deg), most)), float(rng.uniform(0, 360)))
            (x, y), = nudged([((x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy)], nudges[ci], middle)
            out.append(Standing(f, drink, float(x), float(y), yaw + nudges[ci][2], rgb, (ci, si), dx, dy,
                                (lean[0], lean[1] + nudges[ci][2])))
    scene = CrateScene(layout, tuple(pose), tuple(sorted(out, key=lambda s: s.field)), tuple(nudges))
    if keep is not None and keep.loose:
        scene = CrateScene(scene.layout, scene.pose, scene.standing, scene.nudges, keep.loose)
    return scene


def scatter(look: CrateLook, rng: np.random.Generator, count: int, free) -> tuple[Loose, ...]:
    """Up to ``count`` loose things of the look's kinds, each where ``free(x, y, r)`` (table mm,
    its reach) says the table is free and in view, none on another."""
    out: list[Loose] = []
    for _ in range(int(count)):
        kind = look.clutter_kinds[int(rng.integers(0, len(look.clutter_kinds)))]
        if kind == "coin":
            rgb = np.array(COIN_SRGB[int(rng.integers(0, len(COIN_SRGB)))], float)
            item = Loose("coin", 0.0, 0.0, 0.0, _jitter(rgb, rng), size=float(rng.uniform(9.0, 13.5)))
        elif kind == "card":
            rgb = rng.uniform(60, 250, 3)
            item = Loose("card", 0.0, 0.0, float(rng.uniform(0, 360)), _jitter(rgb, rng), size=float(rng.uniform(38, 60)))
        else:
            drink = DRINK_IDS[int(rng.integers(0, len(DRINK_IDS)))]
            rgb = np.array(look.drinks.get(drink.partition("-")[0], (128, 128, 128)), float)
            item = Loose(kind, 0.0, 0.0, float(rng.uniform(0, 360)), _jitter(rgb, rng), drink=drink)
        r = item.radius(look)
        for _ in range(30):
            a, d = rng.uniform(0, 2 * math.pi), look.reach_mm * 1.4 * math.sqrt(rng.random())
            x, y = d * math.cos(a), d * math.sin(a)
            if free(x, y, r) and all(math.hypot(x - o.x, y - o.y) > r + o.radius(look) + 2 for o in out):
                out.append(Loose(item.kind, float(x), float(y), item.yaw, item.colour, item.drink, item.size))
                break
    return tuple(out)


def loose_solid(o: Loose, look: CrateLook) -> tuple[solids.Solid, tuple[int, int, int], float]:
    """A loose thing's solid, colour and gloss."""
    if o.kind == "coin":
        return solids.disc(o.x, o.y, o.size, 1.8, 20), o.colour, 0.8
    if o.kind == "card":
        w, h = o.size, o.size * 1.45
        card = solids.card(o.x, o.y, o.yaw, w, h)
        # the printed picture inside the card's border, another tone of its colour
        a = np.radians(o.yaw)
        R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        inner = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) * 0.42 @ R.T + (o.x, o.y)
        card.decals = [(len(card.faces) - 1, np.column_stack([inner, np.full(4, -0.45)]), 0.6)]
        return card, o.colour, 0.1
    shape = o.drink.partition("-")[2]
    length, width = NOMINAL_SIZE_MM[shape]
    k = look.drink_mm(shape)
    make = solids.lying_drink if o.kind == "lying" else solids.drink
    return make(o.x, o.y, o.yaw, shape, length * k, width * k), o.colour, look.drink_gloss


def _jitter(rgb: np.ndarray, rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(v) for v in np.clip(rgb * rng.uniform(0.95, 1.05) + rng.normal(0, 3.0, 3), 0, 255))


def grid_origin(layout: CrateLayout) -> tuple[int, int]:
    """The smallest x and y of the layout's fields in the game's coordinates."""
    cells = [f for place in layout.crates for f in crate_fields(place)]
    return (min(x for x, _ in cells), min(y for _, y in cells)) if cells else (0, 0)
