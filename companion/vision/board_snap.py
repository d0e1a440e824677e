"""Refining a tapped board fit by the printed station circles themselves.

After the taps (board_calibrate.py) every station circle is predicted to within a few mm.
Here each is looked for near its prediction in the empty board's photo, seen from above at
:data:`SNAP_PX_PER_MM`: a circle of a station's size (Hough) whose centre is the only one
within :data:`SNAP_MM`. The circles found, with the taps, give a fit over the whole board
instead of a handful of points. It is careful on purpose, since the real board's look is not
known here: circles that disagree with the fit of the others are dropped, too few found
leaves the tapped fit alone, and a refined fit that moves a tapped station more than
:data:`TAP_AGREE_MM` from where the host tapped it is not taken.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..board_layout import BoardLayout
from .board_pose import rectify
from .warp import fit_warp

SNAP_PX_PER_MM = 4.0
SNAP_MM = 5.0               # a circle further than this from its prediction is not taken
CIRCLE_MM = (3.0, 9.0)      # radii of a printed station circle that are looked for
MIN_SNAPPED = 12            # fewer circles found: the tapped fit stays
OUTLIER_MM = 1.5            # a circle this far from the fit of all the others is dropped
TAP_AGREE_MM = 3.0


@dataclass(frozen=True)
class Snapped:
    src: np.ndarray         # (n, 2) data mm of the circles found
    dst: np.ndarray         # (n, 2) their printed mm


def station_circles(layout: BoardLayout) -> np.ndarray:
    """Every station circle's centre in data mm (the same point once, however many lines stop there)."""
    pts = np.array([c for s in layout.stations for c in s.circles], np.float64)
    return np.unique(np.round(pts, 2), axis=0)


def find_circles(image: np.ndarray, H, layout: BoardLayout, predicted: np.ndarray) -> np.ndarray:
    """For each predicted centre (printed mm), the circle found there (mm), or NaN. ``H``: board mm
    -> photo px, or a tracker's Pose (its lens undone too)."""
    k = min(SNAP_PX_PER_MM, 4000.0 / max(layout.sheet))   # a bounded view, whatever the sheet
    view = cv2.cvtColor(rectify(image, H, layout, k), cv2.COLOR_BGR2GRAY)
    view = cv2.GaussianBlur(view, (5, 5), 1.2)
    half = int(np.ceil((SNAP_MM + CIRCLE_MM[1] + 2) * k))
    out = np.full_like(predicted, np.nan)
    h, w = view.shape
    for i, (x, y) in enumerate(predicted * k):
        cx, cy = int(round(x)), int(round(y))
        x0, y0, x1, y1 = cx - half, cy - half, cx + half + 1, cy + half + 1
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        circles = cv2.HoughCircles(view[y0:y1, x0:x1], cv2.HOUGH_GRADIENT, dp=1, minDist=2 * CIRCLE_MM[0] * k,
                                   param1=80, param2=18, minRadius=int(CIRCLE_MM[0] * k),
                                   maxRadius=int(CIRCLE_MM[1] * k))
        if circles is None:
            continue
        centres = circles[0, :, :2] + (x0, y0)
        near = centres[np.linalg.norm(centres - (x, y), axis=1) <= SNAP_MM * k]
        if len(near) == 1:                     # none, or two to choose between: not taken
            out[i] = near[0] / k
    return out


def snap(image: np.ndarray, H, layout: BoardLayout, warp) -> Snapped | None:
    """The circles found near where ``warp`` (data mm -> printed mm) puts them, kept when they
    agree with one another; None when too few are found."""
    src = station_circles(layout)
    found = find_circles(image, H, layout, warp(src))
    ok = ~np.isnan(found[:, 0])
    src, dst = src[ok], found[ok]
    for _ in range(2):                       # drop what the fit of the others does not predict
        if len(src) < MIN_SNAPPED:
            return None
        err = np.linalg.norm(fit_warp(src, dst, smooth=True)(src) - dst, axis=1)
        keep = err <= max(OUTLIER_MM, 2.5 * float(np.median(err)))
        src, dst = src[keep], dst[keep]
    return Snapped(src, dst) if len(src) >= MIN_SNAPPED else None
