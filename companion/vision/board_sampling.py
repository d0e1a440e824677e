"""Where the board reader looks on the rectified sheet, and the sheet's light (issue 29):
each place's inner disc, base and ring as pixel offsets (:func:`sampling`), how far a tall
piece's body shows from its base (:func:`lean_at`), the sheet brought to the empty board's light
(:func:`relight`), and the per-pixel helpers the reader's numbers are made of
(companion/vision/board_read.py reads with them).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..board_layout import BoardLayout, Spot
from .board_model import KINDS
from .board_net import PAPER_EPS, disc_offsets
from .board_pose import PX_PER_MM, Pose
from .board_viewpoint import camera_above

INNER = 0.55             # the disc read at a place's middle, as a share of its base radius
# the height (mm) a piece of each kind is looked at: the middle of what the camera sees of it (a
# meeple ~20 mm tall, a pyramid ~15 mm narrowing to its tip, a train ~8 mm): a tall piece seen
# from the side leans away from the camera in the rectified sheet, and its base's middle may
# show little of it (a pale grey train on a white stop circle)
LOOK_HEIGHT = {"meeple": 9.0, "rider": 9.0, "pyramid": 5.0, "train": 5.0}
ONES = np.ones(3, np.float32)   # a sum over the colour channels as a product: several times quicker


def edges_of(img: np.ndarray) -> np.ndarray:
    """The strength of the edges of an image (float32 BGR): the gradient of its brightness."""
    luma = img @ ONES if img.dtype == np.float32 else img.astype(np.float32) @ ONES
    gx = cv2.Sobel(luma, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(luma, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy)


def outside(px: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """How far colours lie outside the reference's local range, summed over the channels."""
    return (np.maximum(px - hi, 0) + np.maximum(lo - px, 0)) @ ONES


def median_of(px: np.ndarray) -> np.ndarray:
    """The median over axis 1 of (n, k, 3) (a sort is several times quicker than np.median here)."""
    k = px.shape[1]
    srt = np.sort(px, axis=1)
    return 0.5 * (srt[:, (k - 1) // 2] + srt[:, k // 2])


def lean_at(pose: Pose | None, centres: np.ndarray, heights: np.ndarray) -> np.ndarray:
    """How far (px, x and y) a point ``heights`` mm over each of ``centres`` (px of the rectified
    sheet) appears from it: away from the point under the camera (zero when that is unknown)."""
    if pose is None or pose.H is None or not pose.size[0]:
        return np.zeros_like(centres)
    try:
        cx, cy, height = camera_above(pose)
    except (np.linalg.LinAlgError, ValueError):
        return np.zeros_like(centres)
    if not np.isfinite([cx, cy, height]).all() or height < 100.0:
        return np.zeros_like(centres)
    k = (np.asarray(heights, np.float64) / np.maximum(height - np.asarray(heights, np.float64), 1.0))[:, None]
    return (centres / PX_PER_MM - np.array([cx, cy])) * k * PX_PER_MM


@dataclass(frozen=True)
class Sampling:
    """Each place's inner disc and ring as pixel offsets from its middle (n, k, 2) and (n, m, 2),
    its middle (n, 2) px, the height its piece is looked at (mm), its kind."""

    spots: tuple[Spot, ...]
    centres: np.ndarray
    inner: np.ndarray
    base: np.ndarray
    ring: np.ndarray
    heights: np.ndarray
    kinds: np.ndarray          # (n, len(KINDS)) one-hot


def sampling(layout: BoardLayout) -> Sampling:
    spots = tuple(layout.spots())
    inner, base, ring = [], [], []
    for s in spots:
        r = s.r * PX_PER_MM
        inner.append(disc_offsets(0.0, max(2.0, INNER * r)))
        base.append(disc_offsets(0.0, r))
        ring.append(disc_offsets(r + 2.0, r + 5.0))

    def pad(rows):        # every place of a kind has the same radius; pad to the widest all the same
        m = max(len(r) for r in rows)
        return np.stack([np.concatenate([r, np.repeat(r[-1:], m - len(r), axis=0)]) for r in rows])
    kinds = np.zeros((len(spots), len(KINDS)))
    for i, s in enumerate(spots):
        kinds[i, KINDS.index(s.kind)] = 1.0
    centres = np.array([(s.x, s.y) for s in spots]) * PX_PER_MM
    heights = np.array([LOOK_HEIGHT[s.kind] for s in spots])
    return Sampling(spots, centres, pad(inner), pad(base), pad(ring), heights, kinds)


def indices(centres: np.ndarray, offsets: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Flat pixel indices of ``offsets`` (n, k, 2) around ``centres`` (n, 2), kept on the sheet."""
    h, w = shape
    c = np.round(centres).astype(np.int64)
    x = np.clip(c[:, None, 0] + offsets[..., 0], 0, w - 1)
    y = np.clip(c[:, None, 1] + offsets[..., 1], 0, h - 1)
    return y * w + x


def relight(sheet: np.ndarray, reference: np.ndarray, step: int = 8) -> np.ndarray:
    """``sheet`` (float32 BGR) brought to the reference's light: per channel a smooth gain (a
    quadratic in x, y of log(sheet / reference)), fitted on a coarse grid, twice, the second
    time without the cells the first fit missed by much (pieces, hands, shadows)."""
    h, w = sheet.shape[:2]
    small_s = cv2.resize(sheet, (w // step, h // step), interpolation=cv2.INTER_AREA)
    small_r = cv2.resize(reference, (w // step, h // step), interpolation=cv2.INTER_AREA)
    ys, xs = np.mgrid[0:small_s.shape[0], 0:small_s.shape[1]]
    u, v = (xs.ravel() + 0.5) / small_s.shape[1] - 0.5, (ys.ravel() + 0.5) / small_s.shape[0] - 0.5
    A = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=1)
    lr = (np.log(small_s.reshape(-1, 3) + PAPER_EPS) - np.log(small_r.reshape(-1, 3) + PAPER_EPS))
    keep = np.ones(len(lr), bool)
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(A[keep], lr[keep], rcond=None)
        res = np.abs(lr - A @ coef).sum(axis=1)
        bar = max(3.0 * float(np.median(res[keep])), 0.06)
        keep = res < bar
        if keep.sum() < 50:
            break
    # the gain at full size, cheaply: evaluated on the coarse grid and enlarged (it is smooth)
    gain_small = np.exp(A @ coef).reshape(small_s.shape[0], small_s.shape[1], 3).astype(np.float32)
    gain = cv2.resize(gain_small, (w, h), interpolation=cv2.INTER_LINEAR)
    return (sheet + PAPER_EPS) / gain - PAPER_EPS
