"""Where the camera stands over the TOKYO METRO board, from a pose's homography: the point of
the board straight below it and its height. Tall pieces lean away from that point in the
rectified sheet (``board_sampling``, the value lanes)."""
from __future__ import annotations

import numpy as np

from .board_pose import Pose


def camera_above(pose: Pose) -> tuple[float, float, float]:
    """Where the camera stands over the board: (x, y) board mm of the point straight below it
    and its height in mm, from the pose's homography (a pinhole camera with its principal point
    at the frame's middle; the focal length from the homography where it says it clearly, else
    that of a 60 degree lens). Tall pieces lean away from that point in the rectified sheet."""
    w, h = pose.size
    H = np.asarray(pose.H, np.float64)
    c = np.array([w / 2.0, h / 2.0])
    A = H.copy()
    A[:2] -= np.outer(c, A[2])                # principal point to the origin
    (a1, a2, _), (b1, b2, _), (c1, c2, _) = A
    guesses = []
    if abs(c1 * c2) > 1e-12:
        guesses.append(-(a1 * a2 + b1 * b2) / (c1 * c2))
    if abs(c2 * c2 - c1 * c1) > 1e-12:
        guesses.append((a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2) / (c2 * c2 - c1 * c1))
    default = (w / 2.0) / np.tan(np.radians(30.0))
    f = default
    # a camera looking nearly straight down says little of its focal length: only when both
    # ways of reading it agree
    ok = [float(np.sqrt(g)) for g in guesses if g > 0 and 0.4 * w <= np.sqrt(g) <= 2.5 * w]
    if len(ok) == 2 and abs(ok[0] - ok[1]) <= 0.2 * max(ok):
        f = 0.5 * (ok[0] + ok[1])
    Kinv = np.diag([1.0 / f, 1.0 / f, 1.0])
    M = Kinv @ A
    lam = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    r1, r2, t = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
    if t[2] < 0:                               # the board in front of the camera
        r1, r2, t = -r1, -r2, -t
    R = np.column_stack([r1, r2, np.cross(r1, r2)])
    C = -R.T @ t
    return float(C[0]), float(C[1]), float(abs(C[2]))
