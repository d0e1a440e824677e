"""The lens model the board camera reads with (and the crate grid's benchmark measures): one
coefficient of barrel distortion about the frame's middle, frame px to where a pinhole camera
would put them and back. Measured per camera by :mod:`.board_lens`; :mod:`.board_pose` maps
through it.

>>> import numpy as np
>>> px = np.array([[100.0, 50.0], [640.0, 360.0]])
>>> bool(np.allclose(distort_points(undistort_points(px, 0.1, (1280, 720)), 0.1, (1280, 720)), px))
True
"""
from __future__ import annotations

import numpy as np


def undistort_points(px: np.ndarray, k: float, size: tuple[int, int]) -> np.ndarray:
    """Frame px -> where a distortion-free (pinhole) camera would put them: a lens's barrel
    distortion of one coefficient about the frame's middle, r_u = r_d (1 + k r_d^2 / half^2),
    half the frame's diagonal (k = 0: no lens distortion; a wide-angle lens ~0.05-0.15)."""
    px = np.asarray(px, np.float64).reshape(-1, 2)
    if not k:
        return px
    c, half2 = _middle(size)
    d = px - c
    return c + d * (1.0 + k * (d * d).sum(axis=1) / half2)[:, None]


def distort_points(px: np.ndarray, k: float, size: tuple[int, int]) -> np.ndarray:
    """The inverse of :func:`undistort_points` (solved by fixed-point steps)."""
    px = np.asarray(px, np.float64).reshape(-1, 2)
    if not k:
        return px
    c, half2 = _middle(size)
    u = px - c
    ru = np.hypot(u[:, 0], u[:, 1])
    rd = ru.copy()
    for _ in range(12):
        rd = ru / (1.0 + k * rd * rd / half2)
    return c + u * (rd / np.maximum(ru, 1e-9))[:, None]


def _middle(size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """The frame's middle (px) and the square of half its diagonal: the distortion's centre and scale."""
    c = np.array([size[0] / 2.0, size[1] / 2.0])
    return c, float(c @ c)
