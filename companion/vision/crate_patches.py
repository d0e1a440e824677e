"""What the crate reader's network sees of one field: a patch of the frame, turned so that the
lean points up, and a few numbers (issue 31).

A drink stands above the rim plane; seen from the camera its top lies further from the camera's
nadir than its foot, by ``z / (height - z)`` of its distance from the nadir (z: how high over
the rim; height: the camera's). So the patch of a field is cut on the rim plane in the field's
own frame: across (``-HALF_WIDTH .. HALF_WIDTH`` pitches) and along the lean (``-BEHIND ..
AHEAD`` pitches, away from the nadir upwards in the patch), at :data:`PX` px per pitch: a tall
drink's body and top run up the patch whichever way the crates stand and wherever the camera
is, and how far they run tells a tall can from a short one. Its numbers (:data:`FEATURES`): the
lean per pitch of height at the field, the camera's height, the frame's scale, the field's share
of crate plastic.

Colours are read against the calibration's white can, scaled by how bright the crate's plastic
is in this frame against the calibration photo (the exposure of the moment): each channel is
``log((colour + 8) / (white + 8))``, clipped to [-3, 1].

>>> p = sample_points(np.array([[0.5, 0.5]]), np.array([[0.0, 1.0]]))
>>> p.shape, bool(p[0, 0, 0, 1] > p[0, -1, 0, 1])
((1, 56, 30, 2), True)
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .crate_grid import frame_px_per_unit, to_frame, yellow_map

# 20 px a pitch: a bottle's top (two thirds of a pitch) is 13 px across, enough to tell the square
# bottle's corners from a round one's and a tall can's top from a short one's by a pixel or two
# of lean (at 12 px a pitch, the heights were most of the network's mistakes)
PX = 20.0                  # patch px per pitch
HALF_WIDTH = 0.75          # pitches either side across the lean (the slot and its walls)
BEHIND, AHEAD = 0.6, 2.2   # pitches towards the nadir and away from it (where tall drinks lean)
SIZE = (int(2 * HALF_WIDTH * PX), int((BEHIND + AHEAD) * PX))      # w, h
FEATURES = ("lean", "camera_height", "scale", "plastic")
EPS = 8.0
CLIP = (-3.0, 1.0)


def sample_points(centres: np.ndarray, leans: np.ndarray) -> np.ndarray:
    """Rim-plane points (grid units) of each field's patch: (n, h, w, 2); row 0 is the far end
    (AHEAD along the lean), ``leans`` unit vectors (n, 2) pointing away from the nadir."""
    w, h = SIZE
    a = -HALF_WIDTH + (np.arange(w) + 0.5) / PX           # across
    b = AHEAD - (np.arange(h) + 0.5) / PX                 # along, far end first
    across = np.column_stack([-leans[:, 1], leans[:, 0]])
    return (centres[:, None, None, :] + b[None, :, None, None] * leans[:, None, None, :]
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
    pts = sample_points(centres, unit).reshape(-1, 2)
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
