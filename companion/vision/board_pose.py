"""Where the TOKYO METRO board lies in a camera frame: its four printed ArUco markers.

The markers (``companion calibrate print-board-markers``; ids and places in the board file's
layout) give a homography from board millimetres to frame pixels; :func:`rectify` then gives
the sheet seen straight from above at :data:`PX_PER_MM`, the one picture every board reading
works on (and the empty board's reference is kept as).
"""
from __future__ import annotations

import cv2
import numpy as np

from ..board_layout import BoardLayout
from .mat import detect_markers

PX_PER_MM = 1.0          # the rectified sheet: one pixel per millimetre (a piece's base is ~13 px)


def board_markers(image: np.ndarray, layout: BoardLayout) -> dict[int, np.ndarray]:
    """The board's markers found in ``image``: id -> its 4 corners in pixels (TL, TR, BR, BL)."""
    return {i: c for i, c in detect_markers(image).items() if i in layout.marker_ids}


def fit_homography(found: dict[int, np.ndarray], layout: BoardLayout) -> np.ndarray | None:
    """Board mm -> frame px from the markers found (at least two: eight corners), or None."""
    ids = [i for i in layout.marker_ids if i in found]
    if len(ids) < 2:
        return None
    corners = layout.marker_corners()
    src = np.concatenate([corners[i] for i in ids]).astype(np.float32)
    dst = np.concatenate([found[i] for i in ids]).astype(np.float32)
    H, _ = cv2.findHomography(src, dst, 0)
    return H


def rectify(frame: np.ndarray, H: np.ndarray, layout: BoardLayout, scale: float = PX_PER_MM) -> np.ndarray:
    """The sheet seen from above: (sheet height x width) * ``scale`` pixels, board mm * scale."""
    S = np.diag([scale, scale, 1.0])
    w, h = int(round(layout.sheet[0] * scale)), int(round(layout.sheet[1] * scale))
    return cv2.warpPerspective(frame, S @ np.linalg.inv(H), (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
