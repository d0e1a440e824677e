"""A pinhole camera over a plane, told by the plane's homography (issue 31): the crate camera's
calibration (crate_calibrate.py, calibration_crate.py) and its running estimate from the frames'
grids (crate_focal.py) both see the crates' rim plane through one.

The camera has square pixels and its optical axis through the picture's middle; a homography
(plane units -> px) then tells its focal length (:func:`focal_from`), where it stands over the
plane (:func:`camera_over`), and the nearest homography such a camera can have
(:func:`as_camera`).

>>> camera_over(np.array([[100.0, 0, 640], [0, 100, 360], [0, 0, 1]]), 800.0, (1280, 720))[1] > 0
True
"""
from __future__ import annotations

import math

import numpy as np


def focal_from(H: np.ndarray, size: tuple[int, int]) -> float | None:
    """The focal length (px) that makes the plane of ``H`` (plane units -> px) a plane seen by a
    pinhole camera with square pixels and its axis through the picture's middle; None when the
    view is too square-on to tell."""
    T = np.array([[1, 0, -size[0] / 2], [0, 1, -size[1] / 2], [0, 0, 1.0]])
    h = T @ H
    h = h / np.linalg.norm(h[:, :2])
    (h11, h12), (h21, h22), (h31, h32) = h[0, :2], h[1, :2], h[2, :2]
    a = np.array([h11 * h12 + h21 * h22, h11 ** 2 + h21 ** 2 - h12 ** 2 - h22 ** 2])
    b = np.array([-h31 * h32, h32 ** 2 - h31 ** 2])
    den = float(a @ a)
    if den <= 0:
        return None
    x = float(a @ b) / den            # 1 / f^2
    # how well the perspective tells f: the plane's tilt must show
    if x <= 0 or float(np.hypot(h31, h32)) * size[0] < 0.02 * float(np.linalg.norm(h[:2, :2])):
        return None
    f = 1 / math.sqrt(x)
    return f if 0.3 * size[0] <= f <= 6 * size[0] else None


def _pose(H: np.ndarray, f: float, size: tuple[int, int]):
    K = np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1.0]])
    M = np.linalg.inv(K) @ H
    lam = 2 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    r1, r2, t = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, r3]))
    R = u @ vt
    if np.linalg.det(R) < 0:
        R = u @ np.diag([1, 1, -1]) @ vt
    return K, R, t


def camera_over(H: np.ndarray, f: float, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """Where the camera stands over the plane of ``H`` (plane units -> px): the point of the
    plane under it (its nadir, plane units) and its height over the plane (units)."""
    _, R, t = _pose(H, f, size)
    C = -R.T @ t
    return C[:2].copy(), float(abs(C[2]))


def as_camera(H: np.ndarray, f: float, size: tuple[int, int]) -> np.ndarray:
    """The homography a pinhole camera of focal length ``f`` (square pixels, axis through the
    middle) nearest to ``H`` would have: a few noisy points give a plane a perspective no
    camera has; this keeps the points' scale and place and takes the turn a camera can have."""
    K, R, t = _pose(H, f, size)
    out = K @ np.column_stack([R[:, 0], R[:, 1], t])
    return out / out[2, 2]
