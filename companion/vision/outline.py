"""The calibrated outlines of the 36 drinks, and an outline laid on the working image.

An outline is a drink's width at each pixel of its length, wide end first, from the profile
(``outline`` in each drink's record: 24 points, scaled to working pixels here). A pose lays it
on the image relative to a piece: ``(angle offset, direction, start along, offset across)``
in the frame of the piece's axis (``angle0``) and centre. ``vision/placing.py`` places outlines;
this module only says where a placed outline's pixels, polygon and rim are.
"""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from ..drinks import COLOURS, SHAPES

STEP = 2                   # pixels are sampled every STEP px (the outlines are far larger)


@dataclass(frozen=True, eq=False)     # told apart by identity: its template is cached per object
class Outline:
    colour: str
    shape: str
    widths: np.ndarray     # width at each px of length, working px, wide end first

    @property
    def length(self) -> int:
        return len(self.widths)

    def sides(self, pose: tuple, angle0: float, centre: tuple[float, float], step: int = 1):
        """The two sides of the placed outline every ``step`` px along it (left, right), the
        directions along and across it (e, n), and the half widths sampled."""
        dangle, direction, t0, v0 = pose
        a = angle0 + dangle
        e = np.array([math.cos(a), math.sin(a)])
        n = np.array([-math.sin(a), math.cos(a)])
        t = np.arange(0, self.length, step)
        half = self.widths[t].astype(np.float64) * 0.5
        # (products by broadcasting: np.outer's, without its wrapper's cost, hundreds of poses a piece)
        middle = np.asarray(centre, np.float64) + (t0 + direction * t)[:, None] * e
        return middle + (v0 + half)[:, None] * n, middle + (v0 - half)[:, None] * n, e, n, half

    def polygon(self, pose: tuple, angle0: float, centre: tuple[float, float]) -> np.ndarray:
        """The placed outline as a polygon in working pixels (to claim its pixels)."""
        left, right, *_ = self.sides(pose, angle0, centre)
        return np.round(np.vstack([left, right[::-1]])).astype(np.int32)

    def rim(self, pose: tuple, angle0: float, centre: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
        """Points every STEP px along the placed outline's rim (its two sides and two ends),
        and the rim's direction across at each (for the edge that should run along it)."""
        left, right, e, n, half = self.sides(pose, angle0, centre, STEP)
        ends = []
        for side, k in ((left, 0), (left, len(half) - 1)):
            across = np.arange(-half[k] + STEP, half[k] - STEP + 1e-3, STEP)
            ends.append(side[k] - half[k] * n + across[:, None] * n)
        pts = np.vstack([left, right] + ends)
        normals = np.vstack([np.repeat(n[None], len(left) + len(right), 0),
                             np.repeat(e[None], len(ends[0]) + len(ends[1]), 0)])
        return pts, normals


def outlines(profile, size: float = 1.0) -> dict[tuple[str, str], Outline] | None:
    """The 36 calibrated outlines in working pixels, or None for a profile without them;
    ``size``: as much larger as drinks look where they are to be laid than in the middle of
    the view (``features.size_factor``, kept to whole percents)."""
    c = profile._cache
    size = round(size, 2)
    key = "outlines" if size == 1.0 else ("outlines", size)
    if key not in c:
        scale = float(profile.stats.get("px_per_mm", 1.0)) * size    # a mat profile bound to a tray: mm -> px
        out = {}
        for col in COLOURS:
            for shp in SHAPES:
                rec = profile.drinks.get(f"{col.value}-{shp.value}", {})
                pts = rec.get("outline")
                if not pts:
                    out = None
                    break
                pts = np.asarray(pts, np.float64) * scale
                n = max(2, int(round(rec["length"] * scale)))
                widths = np.interp(np.linspace(0, len(pts) - 1, n), np.arange(len(pts)), pts)
                out[(col.value, shp.value)] = Outline(col.value, shp.value, widths.astype(np.float32))
            if out is None:
                break
        c[key] = out
    return c[key]


# kept as long as its outline: keyed by id() instead, a new outline that happened to get a
# freed one's id (profiles come and go; outlines are made for each size across the view)
# would be given a stale template
_TEMPLATES: "weakref.WeakKeyDictionary[Outline, tuple[np.ndarray, int]]" = weakref.WeakKeyDictionary()


def template(o: Outline) -> tuple[np.ndarray, int]:
    """The outline lying along the rows, wide end at column 0, sampled every STEP px; and the
    row of its axis."""
    if o not in _TEMPLATES:
        n = (o.length + STEP - 1) // STEP
        half = int(math.ceil(float(o.widths.max()) / 2 / STEP)) + 1
        rows = (np.arange(2 * half + 1) - half)[:, None] * STEP
        w = o.widths[np.minimum(np.arange(n) * STEP, o.length - 1)][None, :]
        _TEMPLATES[o] = ((np.abs(rows) < w * 0.5).astype(np.float32), half)
    return _TEMPLATES[o]
