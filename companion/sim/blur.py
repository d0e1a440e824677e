"""Motion in a simulated exposure: a drink moving while the shutter is open (its sprite smeared
along its motion) and the camera shaking (the whole frame convolved with the path it took).
Drawn by the tray renderer (``render.py``).

>>> img = np.zeros((9, 9), np.float32); img[4, 4] = 1.0
>>> round(float(camera_shake(img, 5.0, 0.0).sum()), 4)      # the light is moved, not lost
1.0
"""
from __future__ import annotations

import math

import cv2
import numpy as np


def sprite_motion(col: np.ndarray, alpha: np.ndarray, dx: float, dy: float):
    """Blur a premultiplied sprite along its motion (dx, dy canvas px)."""
    steps = max(2, int(math.hypot(dx, dy)))
    pad = int(abs(dx) + abs(dy)) // 2 + 2
    c = cv2.copyMakeBorder(col, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    a = cv2.copyMakeBorder(alpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    acc_c, acc_a = np.zeros_like(c), np.zeros_like(a)
    for i in range(steps):
        t = i / (steps - 1) - 0.5
        M = np.float32([[1, 0, dx * t], [0, 1, dy * t]])
        acc_c += cv2.warpAffine(c, M, (c.shape[1], c.shape[0]))
        acc_a += cv2.warpAffine(a, M, (a.shape[1], a.shape[0]))
    c, a = acc_c / steps, acc_a / steps
    return c[pad:-pad, pad:-pad], a[pad:-pad, pad:-pad]


def camera_shake(img: np.ndarray, length: float, ang: float) -> np.ndarray:
    """The dev family's camera shake: an even straight streak ``length`` px long at ``ang``."""
    n = max(3, int(round(length)) | 1)
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2
    for t in np.linspace(-c, c, 4 * n):
        k[int(round(c + t * math.sin(ang))), int(round(c + t * math.cos(ang)))] += 1
    k /= k.sum()
    return cv2.filter2D(img, -1, k)


def camera_arc(img: np.ndarray, length: float, ang: float, bend: float, stop: float) -> np.ndarray:
    """The eval family's camera shake: the path bends (``bend``, -1..1) and the camera slows to
    a stop at one end (``stop``: how much of the exposure it dwells there), unlike dev's even streak."""
    n = max(3, int(math.ceil(length + 2)) | 1)
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2
    ca, sa = math.cos(ang), math.sin(ang)
    for t in np.linspace(-0.5, 0.5, 8 * n):
        along, side = t * length, bend * 0.25 * length * (1 - 4 * t * t)
        x, y = c + along * ca - side * sa, c + along * sa + side * ca
        k[int(round(min(max(y, 0), n - 1))), int(round(min(max(x, 0), n - 1)))] += 1 + 6 * stop * (t + 0.5) ** 4
    k /= k.sum()
    return cv2.filter2D(img, -1, k)
