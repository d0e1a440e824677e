"""Fitting a drink's pose to its patch in the top view: each pose (standing or lying, where, how
turned, on what) is a solid whose outline the camera would lay onto the table plane; the pose
whose outline covers the patch best (overlap over union, what something else hides left out)
is the drink's.

A point ``X`` (landing mm, z up) seen by a camera at ``C`` lies in the top view where the ray
from ``C`` through ``X`` meets the table: ``C + (X - C) * C_z / (C_z - X_z)``. A solid's
outline there is the convex hull of its corners' (a drink is convex enough: a bottle's neck
changes its outline by less than a pixel or two).

>>> cam = np.array([0.0, -300.0, 400.0])
>>> on_table(np.array([[0.0, 100.0, 0.0], [0.0, 100.0, 100.0]]), cam).round(1).tolist()
[[0.0, 100.0], [0.0, 233.3]]
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

BOTTLES = ("square_bottle", "not_tallest_bottle", "tallest_bottle")
RING = 12                    # points round a drink's section
TURNS_KEPT = 3               # a lying drink's likeliest turns searched further


def on_table(pts: np.ndarray, camera: np.ndarray) -> np.ndarray:
    """Points (n, 3) -> where the camera sees them on the table plane (n, 2)."""
    pts = np.asarray(pts, np.float64)
    k = camera[2] / np.maximum(camera[2] - pts[..., 2], 1.0)
    return camera[:2] + (pts[..., :2] - camera[:2]) * k[..., None]


@lru_cache(maxsize=64)
def _section(shape: str, length: float, width: float) -> np.ndarray:
    """The drink's outline along its axis: (position along 0..length, radius) pairs."""
    r = width / 2
    if shape in BOTTLES:
        prof = ((0.0, 1.0), (0.58, 1.0), (0.72, 0.62), (1.0, 0.45))
    else:
        prof = ((0.0, 1.0), (1.0, 1.0))
    return np.array([(a * length, b * r) for a, b in prof])


@lru_cache(maxsize=128)
def template(shape: str, length: float, width: float, standing: bool) -> np.ndarray:
    """The drink's corners (m, 3) about its pose's point: a standing drink's foot middle, a
    lying one's middle on the table (its axis along x, its side on the table)."""
    sec = _section(shape, round(length, 1), round(width, 1))
    ang = np.linspace(0, 2 * math.pi, RING, endpoint=False)
    out = []
    r0 = width / 2
    for along, r in sec:
        c, s = np.cos(ang) * r, np.sin(ang) * r
        if standing:
            out.append(np.column_stack([c, s, np.full(RING, along)]))
        else:
            out.append(np.column_stack([np.full(RING, along - length / 2), c, s + r0]))
    return np.concatenate(out)


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    yaw: float
    standing: bool
    lift: float
    score: float


class Patch:
    """A drink's patch in a crop of the top view: what is its colour (``seen``), what something
    else covers (``hidden``: a wall, another drink), and the crop's place (landing mm of its
    top-left pixel's corner, px per mm; rows run towards smaller y)."""

    def __init__(self, seen: np.ndarray, hidden: np.ndarray, x0: float, y1: float, px_per_mm: float):
        self.seen = seen.astype(bool)
        self.hidden = hidden.astype(bool) & ~self.seen
        self.x0, self.y1, self.s = x0, y1, px_per_mm
        self.area = int(self.seen.sum())
        self._canvas = np.zeros(seen.shape, np.uint8)

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        return np.column_stack([(xy[:, 0] - self.x0) * self.s, (self.y1 - xy[:, 1]) * self.s])

    def score(self, outline_mm: np.ndarray) -> float:
        """Overlap over union of the outline with the patch, what is hidden left out."""
        canvas = self._canvas
        canvas[:] = 0
        hull = cv2.convexHull(np.round(self.to_px(outline_mm) * 4).astype(np.int32))
        cv2.fillConvexPoly(canvas, hull, 1, cv2.LINE_8, 2)
        pred = canvas.astype(bool)
        inter = int(np.count_nonzero(pred & self.seen))
        union = int(np.count_nonzero(pred | self.seen)) - int(np.count_nonzero(pred & self.hidden))
        return inter / max(union, 1)


def outline(shape, length, width, standing, x, y, yaw, lift, camera) -> np.ndarray:
    t = template(shape, round(length, 1), round(width, 1), standing)
    a = math.radians(yaw)
    c, s = math.cos(a), math.sin(a)
    pts = np.column_stack([x + t[:, 0] * c - t[:, 1] * s, y + t[:, 0] * s + t[:, 1] * c, t[:, 2] + lift])
    return on_table(pts, camera)


def best_pose(patch: Patch, camera, shape, length, width, standing: bool, start: tuple[float, float],
              yaws: list[float], lift: float, reach: float = 12.0) -> Pose:
    """The best pose of one kind near ``start`` (x, y mm): the likeliest few turns at the start,
    then a coarse search of places for each, then a fine one round the best."""
    def pose(x, y, yaw):
        return Pose(float(x), float(y), float(yaw), standing, lift,
                    patch.score(outline(shape, length, width, standing, x, y, yaw, lift, camera)))

    turns = sorted(yaws, key=lambda a: -pose(start[0], start[1], a).score)[:TURNS_KEPT]
    coarse = np.arange(-reach, reach + 1e-6, 3.0)
    best = max((pose(start[0] + dx, start[1] + dy, a) for a in turns for dx in coarse for dy in coarse),
               key=lambda p: p.score)
    fine = np.arange(-2.0, 2.0 + 1e-6, 1.0)
    turns = [best.yaw] if standing else [best.yaw + d for d in (-10, -5, 0, 5, 10)]
    return max([best] + [pose(best.x + dx, best.y + dy, a) for a in turns for dx in fine for dy in fine],
               key=lambda p: p.score)
