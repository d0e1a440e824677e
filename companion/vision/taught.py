"""Looks the table taught the camera: a drink the camera read wrong, and the host said what it
really was, is compared from then on with what the camera measured of it, as with one more
calibration pose of that drink (classify.py compares a piece with each pose of each drink).

Vision knows nothing of games or corrections: the tray watcher hands out each piece's
measured ``look`` with its reading (``measured_look``), the table decides which look was which
drink and keeps them, and gives them back here (``with_taught``) to make the profile the
watcher reads with. A look is turned into a pose as calibration stores one: sizes in the
profile's units (a mat profile's mm), a round drink's shading as at no angle to the light.

How many are kept (the table keeps to these): at most ``PER_DRINK`` looks of one drink and
``IN_ALL`` in all, the oldest dropped first; one correction is one more look, so a drink read
wrong in some light is soon known in it, and a look taught by mistake is soon outweighed.

>>> look = {"length": 80.0, "width": 30.0, "neck": 0.9, "shoulder": 0.95, "flat": 0.5, "edge": 0.8,
...         "b": 120.0, "g": 40.0, "r": 90.0, "area": 2000.0, "axis": [1.0, 0.0]}
>>> pose_of(look, "purple-tall_can", {"px_per_mm": 2.0, "min_area": 1500, "max_area": 5000})["length"]
40.0
>>> pose_of({**look, "area": 90000.0}, "purple-tall_can", {"min_area": 1500, "max_area": 5000}) is None
True
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..drinks import DRINK_IDS
from .features import COLOUR_FEATURES, SHAPE_FEATURES
from .profile import Profile
from .view import ROUND_NAMES, as_if_at_no_angle

PER_DRINK = 3         # learned looks kept of one drink (the oldest dropped first)
IN_ALL = 24           # learned looks kept in all
LOOK_KEYS = (*SHAPE_FEATURES, *COLOUR_FEATURES, "area")
# A piece much smaller or larger than any calibrated drink is a part of one or two of them:
# its look would teach the camera a drink that is not there.
AREA_SLACK = (0.7, 1.3)
# Decimals kept of a look (it travels in the observation's detail, whose size is capped): sizes
# to a hundredth of a pixel and colours to a hundredth of a level are below the noise; the
# ratios to 4 decimals.
DIGITS = {"length": 2, "width": 2, "b": 2, "g": 2, "r": 2, "area": 0}


def measured_look(f: dict) -> dict:
    """What a reading carries of its piece for the table (JSON: numbers only): the features
    classify compares, the piece's area and its axis (a round drink's shading turns with it)."""
    look = {k: round(float(f[k]), DIGITS.get(k, 4)) for k in LOOK_KEYS}
    look["axis"] = [round(float(v), 4) for v in f["axis"]]
    return look


def pose_of(look: dict, drink: str, stats: dict) -> dict | None:
    """The look as a calibration pose of ``drink`` (``stats``: the profile's), or None when it
    cannot be one: a key missing, a value not finite, a piece too small or too large for a drink."""
    if drink not in DRINK_IDS or not isinstance(look, dict):
        return None
    try:
        f = {k: float(look[k]) for k in LOOK_KEYS}
        axis = [float(v) for v in look["axis"]][:2]
    except (KeyError, TypeError, ValueError):
        return None
    if len(axis) != 2 or not all(math.isfinite(v) for v in [*f.values(), *axis]) or f["flat"] <= -0.02:
        return None
    lo, hi = stats.get("min_area"), stats.get("max_area")
    if lo and hi and not AREA_SLACK[0] * lo <= f["area"] <= AREA_SLACK[1] * hi:
        return None
    effect = stats.get("angle_effect")
    if effect and drink.split("-", 1)[1] in ROUND_NAMES:
        f = as_if_at_no_angle({**f, "axis": axis}, effect)
    ppm = float(stats.get("px_per_mm", 1.0))     # a mat profile keeps sizes in mm
    pose = {k: round(f[k] / ppm if k in ("length", "width") else f[k], 4) for k in (*SHAPE_FEATURES, *COLOUR_FEATURES)}
    pose["taught"] = True
    return pose


def kept(looks: list) -> list:
    """Of looks given oldest first (each a pair or a record whose first item, or ``drink``,
    names its drink), those within the bounds: the newest ``PER_DRINK`` of each drink, and of
    those the newest ``IN_ALL``; in the order given.

    >>> [d for d, _ in kept([("red-tall_can", n) for n in range(5)])] == ["red-tall_can"] * PER_DRINK
    True
    >>> [n for _, n in kept([("red-tall_can", n) for n in range(5)])]
    [2, 3, 4]
    """
    def drink_of(item):
        return item["drink"] if isinstance(item, dict) else item[0]

    per: dict[str, int] = {}
    newest_first = []
    for item in reversed(looks):
        d = drink_of(item)
        per[d] = per.get(d, 0) + 1
        if per[d] <= PER_DRINK and len(newest_first) < IN_ALL:
            newest_first.append(item)
    return newest_first[::-1]


def with_taught(profile: Profile, looks: list[tuple[str, dict]]) -> Profile:
    """A copy of ``profile`` in which each (drink, look), oldest first, is one more pose of that
    drink (after its calibration poses), within the bounds (``kept``); looks that cannot be
    poses are passed over. The profile given is left as it was, and so is what it computed once
    that no pose changes (the empty tray)."""
    drinks = {k: dict(v) for k, v in profile.drinks.items()}
    for drink, look in kept(list(looks)):
        pose = pose_of(look, drink, profile.stats)
        if pose is not None and drink in drinks:
            drinks[drink]["poses"] = [*drinks[drink].get("poses", ()), pose]
    cache = {k: v for k, v in profile._cache.items() if k != "tables"}   # classify's tables hold the poses
    return replace(profile, drinks=drinks, _cache=cache)


def taught_count(profile: Profile) -> int:
    """How many taught poses the profile holds."""
    return sum(1 for rec in profile.drinks.values() for p in rec.get("poses", ()) if p.get("taught"))
