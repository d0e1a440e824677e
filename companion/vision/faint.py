"""A piece's faint pixels: those no further from the tray than a shadow or the noise
(``Analysis.faint``). The blob a drink is found in closes over the shade and tray between
touching drinks, and a black drink on a dark tray, a white one on a light tray, is partly
faint itself. Here a piece is read again without them (trimmed), read as two drinks when its
distinct pixels fall apart in drink-sized parts, or found to be shade, not a drink at all.
"""
from __future__ import annotations

import cv2
import numpy as np

from .classify import OUTLIER_COLOUR, classify
from .features import Region, measure
from .profile import Profile
from .segment import Analysis
from .selection import pixels_where

TRIM_MAX = 0.4           # a piece with more faint pixels than this share is not trimmed ...
TRIM_PART = 0.05         # ... nor one whose distinct pixels make two parts of this share or more
TRIM_FITS = 8.0          # ... nor one read for sure within this distance (colour + shape) of a drink


def _faint_in(r: Region, an: Analysis) -> np.ndarray:
    """Over the piece's crop: its pixels that are faint (``Analysis.faint``)."""
    h, w = r.mask.shape
    return an.faint[r.y0:r.y0 + h, r.x0:r.x0 + w] & (r.mask > 0)


def _distinct_parts(r: Region, faint: np.ndarray):
    """The piece's pixels that are not faint, in connected parts: (n, labels, areas)."""
    # (areas by bincount: OpenCV's statistics take longer than the labelling on a piece)
    n, lab = cv2.connectedComponents(((r.mask > 0) & ~faint).astype(np.uint8), connectivity=8)
    return n, lab, np.bincount(lab.ravel(), minlength=n)[1:]


SPLIT_PART = 0.5          # share of the smallest drink from which a distinct part may be a drink of its own


def split_at_faint(piece: Region, f: dict, c: dict, an: Analysis, profile: Profile, price: float):
    """A piece whose distinct pixels fall apart in drink-sized parts, with only faint pixels
    between them (two drinks of one colour touching, shade or tray closed in between), as
    those drinks when together they fit better, ``price`` (the joining's price of a drink)
    included, and at least one reads as a drink for sure or each is plainly of its colour
    (the faint pixels shared out to it may keep its outline from fitting any drink: it is
    trimmed or its outline fitted later): [(piece, features, classification)]."""
    whole = [(piece, f, c)]
    if an.faint is None:
        return whole
    min_area = profile.stats.get("min_area", 0)
    faint = _faint_in(piece, an)
    if piece.area - np.count_nonzero(faint) < 2 * SPLIT_PART * min_area:
        return whole            # too few distinct pixels for two parts of a drink's size
    n, lab, areas = _distinct_parts(piece, faint)
    big = [k + 1 for k in range(n - 1) if areas[k] >= SPLIT_PART * min_area]
    if len(big) < 2:
        return whole
    parts = np.zeros(lab.shape, np.int32)
    for k in big:
        parts[lab == k] = k
    fill_from_nearest(parts, piece.mask > 0)
    out = []
    total = price * (len(big) - 1)
    for k in big:
        r = Region((parts == k).astype(np.uint8) * 255, piece.x0, piece.y0)
        f2 = measure(r, an)
        if f2 is None:
            return whole
        c2 = classify(f2, profile, an.sharpness)
        total += c2["d_shape"] + c2["d_colour"]
        out.append((r, f2, c2))
    if all(c2["unsure"] for _, _, c2 in out) and any(c2["d_colour"] > OUTLIER_COLOUR for _, _, c2 in out):
        return whole
    return out if total < c["d_shape"] + c["d_colour"] else whole


def _trim_faint(r: Region, an: Analysis) -> Region | None:
    """The piece without its faint pixels (no further from the tray than a shadow: tray or
    shade that the blob closed over between drinks), or None when there is nothing to trim.
    Not trimmed: a piece mostly faint (a white drink on a light tray looks like the tray in
    shadow), or one whose distinct pixels fall apart in two (a pale bottle whose shoulder is
    faint: its neck and body)."""
    if an.faint is None:
        return None
    n_in = r.area
    faint = _faint_in(r, an)
    if not 0.03 * n_in <= faint.sum() <= TRIM_MAX * n_in:
        return None
    n, lab, areas = _distinct_parts(r, faint)
    if n < 2:
        return None
    main = 1 + int(np.argmax(areas))
    if n > 2:
        others = [k for k in range(1, n) if k != main and areas[k - 1] >= TRIM_PART * n_in]
        if any(_solid(lab == k) for k in others):
            return None
    return Region((lab == main).astype(np.uint8) * 255, r.x0, r.y0)


NECK_HALF_WIDTH = 3.0    # px: a part at least twice this wide somewhere may be a neck; thinner is a line


def _solid(part: np.ndarray) -> bool:
    """Whether a part is wide enough somewhere to be a bottle's neck or cap, not just one of the
    thin dark lines of a neighbour's silhouette that the shade between them leaves distinct."""
    inner = cv2.distanceTransform(np.pad(part, 1).astype(np.uint8), cv2.DIST_L2, 3)
    return float(inner.max()) >= NECK_HALF_WIDTH


def trimmed_if_better(piece: Region, f: dict, c: dict, an: Analysis, profile: Profile):
    """The piece trimmed of its faint pixels when that makes it a drink for sure and fits
    better (a black drink on a dark tray with the shade beside it is longer and wider than
    itself), else the piece as it was: (piece, features, classification)."""
    if not c["unsure"] and c["d_shape"] + c["d_colour"] < TRIM_FITS:
        return piece, f, c       # it plainly is a drink as it is (and the second measuring costs time)
    trimmed = _trim_faint(piece, an)
    f2 = None if trimmed is None else measure(trimmed, an)
    if f2 is None:
        return piece, f, c
    c2 = classify(f2, profile, an.sharpness)
    if not c2["unsure"] and c2["d_shape"] + c2["d_colour"] < c["d_shape"] + c["d_colour"]:
        return trimmed, f2, c2
    return piece, f, c


FAINT_PIECE = 0.45       # share of faint pixels (no further from the tray than a shadow) ...
FAINT_SMALL = 0.9        # ... in a piece smaller than this share of the smallest drink: shade


def is_shade(r: Region, an: Analysis, min_area: float) -> bool:
    """A piece that no drink explains, smaller than a drink and largely no different from the
    tray in shadow: shade caught between drinks (filled in with the blob), not a drink."""
    if an.faint is None or r.area >= FAINT_SMALL * min_area:
        return False
    return np.count_nonzero(_faint_in(r, an)) >= FAINT_PIECE * r.area


def fill_from_nearest(lab: np.ndarray, inside: np.ndarray, reach: float = 12.0) -> None:
    """Give the unlabelled pixels (0) of ``inside`` the label of the nearest labelled pixel, up
    to ``reach`` px away (in place): each goes to the piece it lies against, not to whichever
    neighbour happens to have the larger label.

    >>> lab = np.zeros((3, 4), np.int32); lab[0, 0] = 2; lab[2, 3] = 9
    >>> fill_from_nearest(lab, np.ones((3, 4), bool)); lab.tolist()
    [[2, 2, 2, 9], [2, 2, 9, 9], [2, 9, 9, 9]]
    """
    lost = (lab == 0) & inside
    if not lost.any() or not (lab != 0).any():
        return
    free = (lab == 0).astype(np.uint8)
    dist, idx = cv2.distanceTransformWithLabels(free, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    labelled = pixels_where(lab, free == 0)      # the labels of the labelled pixels, in scan order
    at = np.flatnonzero(lost & (dist <= reach))
    np.put(lab, at, labelled[np.take(idx, at) - 1])     # (only where it fills: not a whole crop's copy)
