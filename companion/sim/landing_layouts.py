"""Random landing scenes: drinks put on the table around the tower where a game's chance says.

The simulated table decides where each drink that came out lands (a spot, and for LEMON SQUASH a
distance); :func:`compose` turns that into a :class:`~companion.landing.LandingScene` whose
:func:`~companion.landing.truth` says the same, for the landing camera to draw.

>>> import numpy as np
>>> from companion.landing import truth
>>> scene = compose([("red-short_can", "slot", None), ("blue-tall_can", "outside", 240)], np.random.default_rng(3))
>>> [(x.spot, x.distance_mm) for x in truth(scene).landings][1]
('outside', 240)
>>> truth(scene).landings[0].spot
'slot'
"""
from __future__ import annotations

import math

import numpy as np

from ..drinks import COLOURS, SHAPES, Drink
from ..landing import LandingScene, PlacedCrate, PlacedDrink, distance_of, spot_of
from .looks import NOMINAL_SIZE_MM

TRIES = 400


def random_wants(rng: np.random.Generator, distances: tuple[float, float] = (60, 320)) -> list[tuple[str, str | None, int | None]]:
    """What a random throw asks of :func:`compose`: 2-6 drinks of different colours, each in a
    slot, in the crate, outside (half of those at a LEMON SQUASH distance within ``distances``
    mm) or anywhere (the landing benchmark's and the landing network's training scenes)."""
    colours = [str(c) for c in rng.permutation([c.value for c in COLOURS])][:int(rng.integers(2, 7))]
    out = []
    for c in colours:
        spot = ["slot", "crate", "outside", None][int(rng.integers(0, 4))]
        distance = int(rng.uniform(*distances)) if spot == "outside" and rng.random() < 0.5 else None
        out.append((f"{c}-{SHAPES[int(rng.integers(0, len(SHAPES)))].value}", spot, distance))
    return out


def default_crate(rng: np.random.Generator, pitch_mm: float = 15.0, wall_mm: float = 1.5) -> PlacedCrate:
    """The crate the upside-down tower is lifted off: in front of the tower, a little askew."""
    return PlacedCrate(x=float(rng.uniform(-15, 15)), y=float(rng.uniform(55, 75)), yaw=float(rng.uniform(-20, 20)),
                       pitch_mm=pitch_mm, wall_mm=wall_mm)


def compose(wants: list[tuple[str, str | None, int | None]], rng: np.random.Generator,
            crates: tuple[PlacedCrate, ...] | None = None, scale: float = 1.0) -> LandingScene:
    """A scene with each ``(drink, spot, distance_mm)`` of ``wants`` placed so that its truth is
    that spot (any, when None) and about that distance (within a millimetre; any, when None).
    ``crates``: the crates on the table (one in front of the tower by default, none when a
    distance is asked for without a spot in a crate). Drinks do not overlap."""
    if crates is None:
        crates = (default_crate(rng),) if any(s in ("slot", "crate") for _, s, _ in wants) else ()
    placed: list[PlacedDrink] = []
    for drink, spot, distance in wants:
        shape = Drink.parse(drink).shape.value
        length, width = (v * scale for v in NOMINAL_SIZE_MM[shape])
        for _ in range(TRIES):
            d = _candidate(drink, spot, distance, crates, rng, length, width)
            scene = LandingScene(crates=crates, drinks=(d,))
            if (spot is None or spot_of(scene, d) == spot) and \
                    (distance is None or abs(distance_of(d) - distance) <= 1) and not any(_overlap(d, p) for p in placed):
                placed.append(d)
                break
        else:
            raise ValueError(f"no room for {drink} at {spot or 'any spot'}"
                             f"{'' if distance is None else f', {distance} mm'} in {TRIES} tries")
    return LandingScene(crates=crates, drinks=tuple(placed))


def _candidate(drink, spot, distance, crates, rng, length, width) -> PlacedDrink:
    standing = spot == "slot" and rng.random() < 0.85
    yaw = float(rng.uniform(0, 360))
    if spot in ("slot", "crate") and crates:
        c = crates[int(rng.integers(len(crates)))]
        hu, hv = c.half_size()
        if spot == "slot":
            u = -hu + c.pitch_mm * (int(rng.integers(2)) + 0.5) + rng.uniform(-0.8, 0.8)
            v = -hv + c.pitch_mm * (int(rng.integers(3)) + 0.5) + rng.uniform(-0.8, 0.8)
        else:
            u, v = rng.uniform(-hu, hu), rng.uniform(-hv, hv)
        a = math.radians(c.yaw)
        x, y = c.x + u * math.cos(a) - v * math.sin(a), c.y + u * math.sin(a) + v * math.cos(a)
    else:
        r = float(distance) if distance is not None else float(rng.uniform(40, 320))
        # the tower throws forwards, not behind itself; the landing camera sees 55 degrees to each side
        t = math.radians(rng.uniform(-55, 55))
        x, y = r * math.sin(t), r * math.cos(t)
    return PlacedDrink(drink=drink, x=float(x), y=float(y), yaw=yaw, standing=standing, length_mm=length, width_mm=width)


def _overlap(a: PlacedDrink, b: PlacedDrink) -> bool:
    """Too close to lie side by side: a standing drink reaches its radius, a lying one half its
    length (two drinks in neighbouring slots do not touch)."""
    reach = sum((d.width_mm if d.standing else max(d.length_mm, d.width_mm)) / 2 for d in (a, b))
    return math.hypot(a.x - b.x, a.y - b.y) < reach + 1.0
