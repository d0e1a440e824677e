"""A player's hand over the output tray, as the tray camera would see it between drops: palm,
four fingers and the arm out of the frame, skin lit from above, a soft shadow on the tray.
Drawn by the tray renderer (``render.py``)."""
from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from .looks import Hand


def draw_hand(canvas: np.ndarray, hand: Hand, to_canvas: Callable[[float, float], tuple[float, float]],
              cppm: float) -> None:
    """A hand reaching over the tray, drawn in place on the linear canvas with its soft shadow
    (``to_canvas``: tray mm -> canvas px, ``cppm``: canvas px per mm)."""
    c = cppm
    th = math.radians(hand.angle)
    d = np.array([math.cos(th), math.sin(th)])          # from the fingertips towards the arm
    n = np.array([-d[1], d[0]])
    tip = np.array([hand.x, hand.y])
    mask = np.zeros(canvas.shape[:2], np.float32)

    def pt(mm):
        x, y = to_canvas(*mm)
        return (int(round(x * 4)), int(round(y * 4)))

    palm = tip + d * 45
    cv2.ellipse(mask, pt(palm), (int(38 * c * 4), int(30 * c * 4)), math.degrees(th), 0, 360, 1.0, -1,
                cv2.LINE_AA, 2)
    for k, (off, ln) in enumerate(((-18, 30), (-6, 38), (6, 36), (17, 28))):
        base = palm + n * off - d * 20
        end = base - d * ln
        cv2.line(mask, pt(base), pt(end), 1.0, int(10 * c), cv2.LINE_AA, 2)
        cv2.circle(mask, pt(end), int(5 * c * 4), 1.0, -1, cv2.LINE_AA, 2)
    arm0, arm1 = palm + d * 20, palm + d * 400
    cv2.line(mask, pt(arm0), pt(arm1), 1.0, int(60 * c), cv2.LINE_AA, 2)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.7)
    shadeg = cv2.GaussianBlur(mask, (0, 0), 6 * c)
    canvas *= (1 - 0.45 * shadeg)[..., None]
    skin = np.array(hand.skin, np.float32)
    yy = np.linspace(0.85, 1.1, canvas.shape[0], dtype=np.float32)[:, None, None]
    canvas *= (1 - mask)[..., None]
    canvas += mask[..., None] * skin * yy
