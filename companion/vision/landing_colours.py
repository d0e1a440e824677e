"""What colour each part of the table in front of the tower is, for the landing reader: the
frame seen from above (the table plane rectified in landing millimetres), its colours balanced
against the calibration mat's paper, and each pixel's likeliest class among the six drinks'
plastics, the crates' yellow and the table itself (lit or in a shadow).

Colours are compared as chromaticity (each channel's share, linear light) and brightness
(log of the sum), against the paper's white: the lamp's colour and the exposure cancel out. The
table's colour is not known beforehand: each pixel's table is the median of the view around it
(drinks are small against that window), and a pixel near that colour, or that colour darkened
(a shadow), is table.

>>> [round(float(v), 3) for v in chroma_of(np.array([[0.2, 0.2, 0.2]]))[0]]
[0.333, 0.333]
"""
from __future__ import annotations

import cv2
import numpy as np

from ..drinks import COLOURS

# the drinks' plastics and the crates' yellow as sRGB (r, g, b) under white light: the makers'
# nominal colours, measured from the pieces (docs/drinks.md)
PLASTIC_SRGB = {
    "black": (38, 38, 42), "white": (236, 236, 232), "mint": (160, 226, 204),
    "blue": (34, 92, 196), "red": (206, 34, 44), "purple": (142, 76, 178),
}
YELLOW_SRGB = (246, 196, 22)
PAPER_ALBEDO = 0.85          # the mat's paper reflects about this much of the light
CLASSES = tuple(c.value for c in COLOURS) + ("yellow", "table")
SIGMA_CHROMA = 0.045         # how far a plastic's chromaticity wanders with shading and lamp
SIGMA_LOG = 0.9              # and its brightness (faces turned from the lamp, a top in the light)
TABLE_CHROMA = 0.03
YELLOW_SPREAD = 1.0          # crates' yellows differ more than the drinks' plastics (pale, glossy, sunbleached)
BACKGROUND_MM = 41           # the window the table's own colour is the median of


def srgb_to_linear(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).astype(np.float32)


_LUT = srgb_to_linear(np.arange(256))


def chroma_of(lin: np.ndarray) -> np.ndarray:
    """(…, 3) linear BGR -> (…, 2) the shares of red and green."""
    s = np.maximum(lin.sum(-1, keepdims=True), 1e-4)
    return np.stack([lin[..., 2] / s[..., 0], lin[..., 1] / s[..., 0]], -1)


def _reference(srgb) -> tuple[np.ndarray, float]:
    lin = srgb_to_linear(np.array(srgb[::-1], np.float32))
    return chroma_of(lin[None])[0], float(np.log(lin.sum() + 1e-4))


REFERENCES = {name: _reference(rgb) for name, rgb in {**PLASTIC_SRGB, "yellow": YELLOW_SRGB}.items()}


def balanced(frame_bgr: np.ndarray, white_bgr) -> np.ndarray:
    """The frame in linear light as albedo against the paper (paper = PAPER_ALBEDO)."""
    lin = _LUT[frame_bgr]
    white = _LUT[np.clip(np.round(np.array(white_bgr)), 0, 255).astype(np.int64)]
    return lin * (PAPER_ALBEDO / np.maximum(white, 1e-3)).astype(np.float32)


def class_costs(lin: np.ndarray, px_per_mm: float) -> dict[str, np.ndarray]:
    """Each class's cost at each pixel (lower: likelier) of a balanced top view ``lin``, against
    the makers' nominal plastics (``REFERENCES``)."""
    return costs_of(features(lin, px_per_mm), REFERENCES)


def features(lin: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, ...]:
    """What a pixel's class costs are made of: its chromaticity and brightness, and the table's
    own there (a wide median of the view)."""
    chroma = chroma_of(lin)
    bright = np.log(lin.sum(-1) + 1e-4)
    k = int(BACKGROUND_MM * px_per_mm) | 1
    small = max(1, k // 15)
    # the table's own colour: a wide median, taken on a smaller picture (the same, far cheaper)
    h, w = lin.shape[:2]
    lo = cv2.resize(lin, (max(1, w // small), max(1, h // small)), interpolation=cv2.INTER_AREA)
    enc = np.clip(np.sqrt(lo / 1.2) * 255 + 0.5, 0, 255).astype(np.uint8)       # a wide median wants 8 bits
    med = cv2.medianBlur(enc, min(255, (k // small) | 1)).astype(np.float32) / 255
    table = cv2.resize(med * med * 1.2, (w, h), interpolation=cv2.INTER_LINEAR)
    return chroma, bright, chroma_of(table), np.log(table.sum(-1) + 1e-4)


def costs_of(feats: tuple[np.ndarray, ...], references: dict) -> dict[str, np.ndarray]:
    """Each class's cost from ``features`` against ``references`` (name -> (chroma, log brightness))."""
    out = {name: reference_cost(feats, name, ref) for name, ref in references.items()}
    out["table"] = table_cost(feats)
    return out


def reference_cost(feats: tuple[np.ndarray, ...], name: str, ref) -> np.ndarray:
    """One plastic's (or the yellow's) cost against its reference (chroma, log brightness)."""
    chroma, bright = feats[:2]
    ref_c, ref_b = ref
    dc = _square_distance(chroma, ref_c)
    # black and white are told by their brightness, their chromaticity is what noise makes it
    sc = SIGMA_CHROMA * {"black": 2.5, "yellow": YELLOW_SPREAD}.get(name, 1.0)
    db = (bright - ref_b) / SIGMA_LOG
    if name == "white":
        db = np.minimum(db, 0) * 1.6                # brighter than white is still white
    if name == "black":
        db = np.maximum(db, 0) * 1.3                # darker than black is still black
    return dc / sc ** 2 + db ** 2


def _square_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared distance of two chromaticities (…, 2): written out, as numpy sums a last axis of
    two slowly."""
    d0, d1 = a[..., 0] - b[..., 0], a[..., 1] - b[..., 1]
    return d0 * d0 + d1 * d1


def table_cost(feats: tuple[np.ndarray, ...]) -> np.ndarray:
    """The table and its shadows: its chromaticity, as bright or darker (a shadow takes up to 85 %)."""
    chroma, bright, t_chroma, t_bright = feats
    dc = _square_distance(chroma, t_chroma) / TABLE_CHROMA ** 2
    above = np.clip(bright - t_bright - 0.15, 0, None) / 0.25
    below = np.clip(t_bright - bright - 1.9, 0, None) / 0.25
    return dc * np.clip(1 - (t_bright - bright) / 4, 0.4, 1) + above ** 2 + below ** 2


def labels(costs) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's class index (into ``CLASSES``) and its margin to the next likeliest class
    (``costs``: ``class_costs``' or its ``cost_stack``)."""
    stack = cost_stack(costs) if isinstance(costs, dict) else costs
    best = np.argmin(stack, axis=0)
    two = np.partition(stack, 1, axis=0)        # the two lowest, without sorting the rest
    return best.astype(np.uint8), (two[1] - two[0]).astype(np.float32)


def cost_stack(costs: dict[str, np.ndarray]) -> np.ndarray:
    """The classes' costs stacked in ``CLASSES``' order."""
    return np.stack([costs[c] for c in CLASSES], 0)


def runner_up(stack: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Each pixel's next likeliest class after ``best`` (a plastic whose make or lamp shifts it
    towards a neighbour's reference is often its neighbour first and itself second)."""
    stack = stack.copy()
    np.put_along_axis(stack, best[None].astype(np.int64), np.inf, axis=0)
    return np.argmin(stack, axis=0).astype(np.uint8)
