"""Where things stand on the table, from their pixels in the top view (landing mm): a point seen
at a height over the table lies in the top view farther from the camera's foot than it stands,
by the camera's height against its own (:func:`lowered`). The crates' walls (from the table to
the rim) and the drinks (a standing one to its top, a lying one its width high) are put back on
the table by that.

>>> lowered(np.array([[0.0, 200.0]]), np.array([0.0, -300.0, 400.0]), 100.0).round(1).tolist()
[[0.0, 75.0]]
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..landing import SLOTS_ACROSS, SLOTS_ALONG, PlacedCrate

RIM_MM = 12.0            # a crate's walls' tops over the table (10-14 on the sets we know)
FLOOR_MM = 2.0           # its slots' floor
WALL_MM = 1.5
PITCH_RANGE = (12.5, 19.0)
SQUARE_SLOTS = 0.18     # a crate whose slots come out less square than this (share of the pitch) is doubtful


def lowered(pts: np.ndarray, camera: np.ndarray, height: float) -> np.ndarray:
    """Top-view points (n, 2) of things ``height`` mm over the table -> where they stand."""
    c = camera[:2]
    return c + (np.asarray(pts, np.float64) - c) * (camera[2] - height) / camera[2]


@dataclass(frozen=True)
class FoundCrate:
    crate: PlacedCrate
    sure: bool


def crate_from_pixels(pts: np.ndarray, camera: np.ndarray) -> FoundCrate | None:
    """A crate from its yellow pixels' top-view points (n, 2 mm): its walls reach from the
    table to the rim, so each pixel's true place lies between it and it lowered by the rim;
    the crate's outline is the tightest that every pixel's span reaches into."""
    if len(pts) < 30:
        return None
    mid = lowered(pts, camera, RIM_MM / 2).astype(np.float32)
    (_, _), (w, h), angle = cv2.minAreaRect(mid)
    top = lowered(pts, camera, RIM_MM)
    a = math.radians(angle)
    axes = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    lo_hi = []
    for n in axes:
        p0, p1 = pts @ n, top @ n
        near, far = np.minimum(p0, p1), np.maximum(p0, p1)
        lo_hi.append((float(np.percentile(far, 0.5)), float(np.percentile(near, 99.5))))
    sizes = [hi - lo for lo, hi in lo_hi]
    centre = sum(axes[i] * (lo_hi[i][0] + lo_hi[i][1]) / 2 for i in range(2))
    long_i = int(np.argmax(sizes))
    across, along = sizes[1 - long_i], sizes[long_i]
    pitch = (across / SLOTS_ACROSS + along / SLOTS_ALONG) / 2
    if not PITCH_RANGE[0] <= pitch <= PITCH_RANGE[1]:
        return None
    # the crate's yaw: 0 when its three slots run along y
    v = axes[long_i]
    yaw = math.degrees(math.atan2(-v[0], v[1]))
    yaw = (yaw + 90) % 180 - 90
    sure = abs(across / SLOTS_ACROSS - along / SLOTS_ALONG) < SQUARE_SLOTS * pitch
    return FoundCrate(PlacedCrate(x=float(centre[0]), y=float(centre[1]), yaw=yaw, pitch_mm=float(pitch),
                                  wall_mm=WALL_MM), sure)


@dataclass(frozen=True)
class DrinkPose:
    x: float
    y: float
    yaw: float              # degrees, a lying drink's length along it
    standing: bool
    fit: float              # how well the chosen pose explains the pixels' extent (0 best)
    other_fit: float        # and the other (standing or lying)


def drink_pose(pts: np.ndarray, camera: np.ndarray, length: float, width: float, lift: float = 0.0,
               bias: float = 0.0) -> DrinkPose:
    """A drink's place from its pixels' top-view points (n, 2 mm), given its nominal size and
    what it lies on (``lift`` mm over the table). Standing: its top (``length`` high, fully
    seen) is the far end of its pixels; lying: its pixels are about its axis's height. The pose
    whose extent fits the pixels' better is taken, standing favoured by ``bias`` (in a crate's
    slot a drink mostly stands; one that fell on the table mostly lies: the caller knows)."""
    c = camera[:2]
    mean = pts.mean(0)
    ray = mean - c
    dist = float(np.linalg.norm(ray))
    u = ray / max(dist, 1e-6)
    n = np.array([-u[1], u[0]])
    t, s = pts @ u, pts @ n
    t_lo, t_hi = np.percentile(t, [2, 98])
    s_lo, s_hi = np.percentile(s, [2, 98])
    along, across = float(t_hi - t_lo), float(s_hi - s_lo)
    H = float(camera[2])
    # standing: the top's far edge -> the top's middle -> lowered onto the foot
    top_far = u * t_hi + n * float(np.median(s))
    h_top = lift + length
    foot = lowered(top_far[None], camera, h_top)[0] - u * width / 2
    smear_top = dist * h_top / max(H - h_top, 1.0)
    st_along, st_across = width + smear_top - dist * lift / max(H - lift, 1.0), width * H / max(H - h_top, 1.0)
    # lying: every pixel about half its width up; its axis along the pixels' longest spread
    low = lowered(pts, camera, lift + width / 2)
    mid = low.mean(0)
    cov = np.cov((low - mid).T) if len(low) > 2 else np.eye(2)
    evals, evecs = np.linalg.eigh(cov)
    axis = evecs[:, int(np.argmax(evals))]
    phi = abs(float(axis @ u))
    ly_along = length * phi + width * math.sqrt(max(0.0, 1 - phi * phi)) + dist * (lift + width) / max(H - lift - width, 1.0)
    ly_across = (length * math.sqrt(max(0.0, 1 - phi * phi)) + width * phi) * H / max(H - lift - width, 1.0)
    ly_across = max(ly_across, width)

    def misfit(a, b):
        return math.hypot(math.log(max(along, 1) / max(a, 1)), math.log(max(across, 1) / max(b, 1)))
    f_st, f_ly = misfit(st_along, st_across), misfit(ly_along, ly_across)
    yaw = math.degrees(math.atan2(axis[1], axis[0]))
    if f_st < f_ly + bias:
        return DrinkPose(float(foot[0]), float(foot[1]), yaw, True, f_st, f_ly)
    return DrinkPose(float(mid[0]), float(mid[1]), yaw, False, f_ly, f_st)
