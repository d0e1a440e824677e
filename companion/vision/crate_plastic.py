"""The crates' plastic as a colour (issue 31): what the calibration photo showed it as, and how
much each pixel of a frame looks like it (:func:`yellow_map`), and what a patch of it shows it as
(:func:`plastic_of`). The grid search (:mod:`.crate_grid`), the calibration
(:mod:`.calibration_crate`, :mod:`.crate_outline`) and the patches' exposure
(:mod:`.crate_patches`) all ask it.

>>> import numpy as np
>>> yellow = np.full((2, 2, 3), (22, 196, 246), np.uint8)      # BGR: the crates' yellow
>>> float(yellow_map(yellow).min()) > 0.9, float(yellow_map(np.zeros((2, 2, 3), np.uint8)).max())
(True, 0.0)
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Plastic:
    """The crates' plastic as the calibration photo showed it: hue (OpenCV 0-180), saturation
    and value (0-255) of its lit parts, and its mean BGR."""

    hue: float
    sat: float
    val: float
    bgr: tuple[float, float, float]


def yellow_map(bgr: np.ndarray, plastic: Plastic | None = None) -> np.ndarray:
    """How much each pixel looks like the crates' plastic, 0..1 (float32): near its hue and about
    as saturated (a shaded face keeps both; a wooden table is of a near hue, but far paler).
    Without ``plastic``: the most saturated yellow of the picture (what calibration looks for)."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).astype(np.float32)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    if plastic is None:
        # under a coloured lamp the plastic's hue and saturation move: the most saturated warm
        # colour of the picture is taken as the plastic's
        warm = (h >= 10) & (h <= 48) & (v > 60) & (s > 45)
        cand_h, cand_s = h[warm], s[warm]
        if len(cand_s) > 20:
            top = cand_s >= np.percentile(cand_s, 99.7)
            centre = float(np.median(cand_h[top]))
            s_lo = max(45.0, 0.72 * float(np.median(cand_s[top])))
        else:
            centre, s_lo = 26.0, 90.0
        half = 12.0
        v_lo = 60.0
    else:
        centre, half, s_lo = plastic.hue, 7.0, 0.68 * plastic.sat
        v_lo = max(30.0, 0.22 * plastic.val)     # dark noise is of any hue, and often saturated
    dh = np.abs(h - centre)
    dh = np.minimum(dh, 180.0 - dh)
    wh = np.clip((half - dh) / (0.4 * half), 0, 1)
    ws = np.clip((s - s_lo) / max(12.0, 0.12 * s_lo), 0, 1)
    wv = np.clip((v - v_lo) / 25.0, 0, 1)
    return (wh * ws * wv).astype(np.float32)


def mean_hue(hue: np.ndarray) -> float:
    """The mean of OpenCV hues (0-180) taken round the circle (a red's 178 and 2 average to 0)."""
    return float(np.degrees(np.angle(np.exp(1j * np.radians(np.asarray(hue, np.float64) * 2)).mean())) / 2) % 180


def plastic_of(image: np.ndarray, mask: np.ndarray) -> Plastic:
    """The plastic as the pixels of ``mask`` (bool, at least one) show it: the hue (round the
    circle), saturation and value of their lit half (value at least their median), and its mean BGR."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[mask]
    lit = hsv[:, 2] >= np.median(hsv[:, 2])
    return Plastic(mean_hue(hsv[lit, 0]), float(np.median(hsv[lit, 1])), float(np.median(hsv[lit, 2])),
                   tuple(float(v) for v in image[mask][lit].mean(axis=0)))
