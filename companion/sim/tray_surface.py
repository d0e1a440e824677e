"""The eval family's tray surfaces other than ribbed plastic: a wooden board and a cloth, as a
brightness factor per canvas pixel (``xx``, ``yy``: canvas mm; ``grain``, ``coarse``: the
tray's own fine and coarse noise; ``tex``: the look's texture numbers). Drawn into the empty
tray by the tray renderer (``render.py``)."""
from __future__ import annotations

import math

import cv2
import numpy as np


def wood(rng, xx, yy, grain, coarse, tex: dict, cppm: float) -> np.ndarray:
    """Wood grain: darker late-wood lines along the board, bent by a slow warp, with fine
    streaks along them."""
    ch, cw = xx.shape
    a = math.radians(tex["ring_angle"])
    along, across = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
    cells = max(2, int(60 * cppm))             # the grain bends over about 6 cm
    warp = cv2.resize(rng.normal(0, 1, (ch // cells + 3, cw // cells + 3)).astype(np.float32), (cw, ch),
                      interpolation=cv2.INTER_CUBIC)
    phase = (across + tex["warp"] * warp + 0.02 * along) * 2 * math.pi / tex["ring_period"]
    late = (0.5 + 0.5 * np.sin(phase)) ** 3
    k = max(3, int(6 * cppm) | 1)
    streak = cv2.GaussianBlur(rng.normal(0, 1, (ch, cw)).astype(np.float32), (0, 0), 0.6)
    line = cv2.getRotationMatrix2D((k / 2, k / 2), -tex["ring_angle"], 1.0)
    kernel = cv2.warpAffine(np.pad(np.ones((1, k), np.float32), ((k // 2, k // 2), (0, 0))), line, (k, k))
    streak = cv2.filter2D(streak, -1, kernel / max(kernel.sum(), 1e-6)) * 2.5
    return (1 - tex["ring_amp"] * (late - 0.3) + 0.04 * streak + 0.05 * coarse + 0.5 * tex["grain"] * grain
            ).astype(np.float32)

def felt(rng, xx, yy, coarse, tex: dict) -> np.ndarray:
    """Cloth: matte fibres (fine noise, a little clumped) and a faint weave."""
    ch, cw = xx.shape
    fibres = cv2.GaussianBlur(rng.normal(0, 1, (ch, cw)).astype(np.float32), (0, 0), 0.5) * 1.8
    clumps = cv2.GaussianBlur(rng.normal(0, 1, (ch, cw)).astype(np.float32), (0, 0), 2.5) * 4.0
    p = tex["weave_period"]
    weave = np.sin(xx * 2 * math.pi / p) * np.sin(yy * 2 * math.pi / p)
    return (1 + tex["fibre"] * fibres + 0.5 * tex["fibre"] * clumps + tex["weave_amp"] * weave
            + 0.04 * coarse).astype(np.float32)
