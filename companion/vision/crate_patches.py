"""What the crate reader's network sees of one field: a patch of the frame, turned so that the
lean points up and stretched along it so that each patch row is one HEIGHT over the rim, and a
few numbers (issue 31).

A drink stands above the rim plane; seen from the camera, a point ``z`` over the rim (pitches)
shows where the camera's ray through it meets the rim plane: further from the camera's nadir
than the drink's foot by ``d * z / (height - z)`` (d: the field's distance from the nadir;
height: the camera's over the rim). The patch of a field is cut on the rim plane in the field's
own frame: across the lean ``-HALF_WIDTH .. HALF_WIDTH`` pitches at :data:`PX` px a pitch, and
along it row by row at the points where heights ``HIGH`` (the top row) down to ``-LOW`` (the
bottom row) meet the plane. So a drink's top lands on the same row whatever the camera's place
(a tall can's top always ``ROWS_PER_PITCH`` rows above a stubby one's): the heights, most of
the network's mistakes while the patch was cut at a fixed length, are a fixed place in the
patch. Near the nadir (a drink seen nearly from above, its height barely shows) the stretch is
held at ``MIN_LEAN`` pitches along a pitch of height, so the patch still shows the slot round
the drink. Its numbers (:data:`FEATURES`): the lean per pitch of height at the field, the
camera's height, the frame's scale, the field's share of crate plastic.

Colours are read against the calibration's white can, scaled by how bright the crate's plastic
is in this frame against the calibration photo (the exposure of the moment): each channel is
``log((colour + 8) / (white + 8))``, clipped to [-3, 1].

>>> p = sample_points(np.array([[0.5, 0.5]]), np.array([[0.0, 1.0]]), np.array([1.0]), 10.0)
>>> p.shape, bool(p[0, 0, 0, 1] > p[0, -1, 0, 1])
((1, 56, 30, 2), True)
>>> row = lambda z: int(np.argmin(np.abs(heights() - z)))   # a height's row, whatever the lean
>>> row(1.0) < row(0.4) < row(0.0)
True
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .crate_grid import frame_px_per_unit, to_frame
from .crate_plastic import yellow_map

# 20 px a pitch across: a bottle's top (two thirds of a pitch) is 13 px across, enough to tell the
# square bottle's corners from a round one's
PX = 20.0                  # patch px per pitch, across
HALF_WIDTH = 0.75          # pitches either side across the lean (the slot and its walls)
# along: heights over the rim plane, pitches; the tallest bottle stands ~1.6 pitches over the rim
# (2.1 in the varied looks' low crates) and its cap reaches half a pitch further at a small lean;
# below the rim: the slot's floor and near wall
LOW, HIGH = 0.8, 2.6
ROWS = 56
ROWS_PER_PITCH = ROWS / (LOW + HIGH)
MIN_LEAN = 0.5             # pitches along a pitch of height: the least stretch (near the nadir)
SIZE = (int(2 * HALF_WIDTH * PX), ROWS)      # w, h
FEATURES = ("lean", "camera_height", "scale", "plastic")
EPS = 8.0
CLIP = (-3.0, 1.0)


def heights() -> np.ndarray:
    """The height over the rim (pitches) each patch row shows, top row (the highest) first."""
    return HIGH - (np.arange(ROWS) + 0.5) / ROWS_PER_PITCH


def sample_points(centres: np.ndarray, leans: np.ndarray, dists: np.ndarray, height: float) -> np.ndarray:
    """Rim-plane points (grid units) of each field's patch: (n, h, w, 2); row 0 shows the
    highest point (:func:`heights`), ``leans`` unit vectors (n, 2) pointing away from the nadir,
    ``dists`` the fields' distances from it, ``height`` the camera's over the rim (units)."""
    w, _ = SIZE
    a = -HALF_WIDTH + (np.arange(w) + 0.5) / PX           # across
    z = heights()
    # where the ray through a point z over the field's middle meets the rim plane, as a distance
    # along the lean from the middle (the stretch held at MIN_LEAN near the nadir)
    d = np.maximum(dists, MIN_LEAN * height)
    b = d[:, None] * z[None, :] / np.maximum(height - z[None, :], 0.25 * height)       # (n, h)
    across = np.column_stack([-leans[:, 1], leans[:, 0]])
    return (centres[:, None, None, :] + b[:, :, None, None] * leans[:, None, None, :]
            + a[None, None, :, None] * across[:, None, None, :])


def lean_of(centres: np.ndarray, nadir: np.ndarray, height: float) -> tuple[np.ndarray, np.ndarray]:
    """Each field's lean direction (unit, away from the nadir) and the lean per pitch of height
    (for a low drink: distance from the nadir over the camera's height)."""
    d = centres - nadir[None, :]
    dist = np.linalg.norm(d, axis=1)
    unit = np.where(dist[:, None] > 1e-3, d / np.maximum(dist, 1e-3)[:, None], np.array([0.0, 1.0]))
    return unit, dist / max(height, 1e-3)


def exposure_gain(frame: np.ndarray, plastic_bgr, plastic) -> float:
    """How much brighter the crates' lit plastic is in ``frame`` than in the calibration photo
    (green and red: the plastic has next to no blue)."""
    small = cv2.resize(frame, (max(1, frame.shape[1] // 4), max(1, frame.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    y = yellow_map(small, plastic)
    px = small[y >= 0.8].astype(np.float64)
    if len(px) < 10:
        return 1.0
    v = px.max(axis=1)
    lit = px[v >= np.median(v)]
    g = [lit[:, c].mean() / max(1.0, plastic_bgr[c]) for c in (1, 2)]
    return float(np.clip(np.mean(g), 0.25, 4.0))


def field_patches(frame: np.ndarray, H: np.ndarray, cells: list, nadir: np.ndarray, height: float,
                  white: np.ndarray, coverage: dict) -> tuple[np.ndarray, np.ndarray]:
    """The network's input for ``cells`` ((i, j) fields of the grid ``H``: grid units -> frame
    px): patches (n, h, w, 3) float32 and numbers (n, len(FEATURES)) float32."""
    n = len(cells)
    w, h = SIZE
    if n == 0:
        return np.zeros((0, h, w, 3), np.float32), np.zeros((0, len(FEATURES)), np.float32)
    centres = np.array([(i + 0.5, j + 0.5) for i, j in cells], np.float64)
    unit, lean = lean_of(centres, nadir, height)
    pts = sample_points(centres, unit, lean * height, height).reshape(-1, 2)
    # a frame much finer than the patches is averaged down first (no aliasing)
    mid = centres.mean(axis=0)
    ppu = frame_px_per_unit(H, mid)
    k = max(1, int(ppu / (1.5 * PX)))
    src = frame
    Hs = H
    if k > 1:
        src = cv2.resize(frame, (max(1, frame.shape[1] // k), max(1, frame.shape[0] // k)), interpolation=cv2.INTER_AREA)
        Hs = np.diag([src.shape[1] / frame.shape[1], src.shape[0] / frame.shape[0], 1.0]) @ H
    q = to_frame(Hs, pts).astype(np.float32).reshape(n, h, w, 2)
    img = np.empty((n, h, w, 3), np.float32)
    for s in range(0, n, 256):            # a map may not be taller than 32767 rows
        part = q[s:s + 256].reshape(-1, w, 2)
        img[s:s + 256] = cv2.remap(src, part[..., 0], part[..., 1], cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE).reshape(-1, h, w, 3)
    np.log(img + EPS, out=img)
    img -= np.log(np.asarray(white, np.float32) + EPS)
    np.clip(img, *CLIP, out=img)
    feats = np.column_stack([lean, np.full(n, height / 20.0), np.full(n, math.log(max(ppu, 1.0) / 50.0)),
                             [coverage.get(c, 0.0) for c in cells]]).astype(np.float32)
    return img, feats
