"""A piece's pixels as the pixel scorer sees them (issue 26): a small crop of the frame relit
against the calibrated empty tray, turned along the piece's axis and scaled by the table's own
calibration, with the piece's mask beside it.

Two steps, so that the training tool can store the cheap raw crop and make the channels after
its augmentation (turned a little, relit, blurred, scaled), exactly as the reader makes them:

* ``raw_crops(readings, an, profile)``: per reading (n, H, W, 5) float32: the relit colour (BGR,
  the frame divided by its gain field: as lit like the calibration photos), the piece's own
  mask and the mask of every segmented pixel. The crop is centred on the piece's centroid and
  turned so that its axis runs along the crop's width, the narrow end (a bottle's neck) to the
  right, as ``features.measure`` orients it. Its scale: the set's longest calibrated drink
  (``stats["max_length"]``, at the piece's place in a tilted view: ``features.size_factor``)
  spans LONGEST of the crop's width, so a drink's size is relative to that set's drinks, never
  absolute. The warp is made at twice the size and halved by area (a plain bilinear warp at
  half scale aliases a grained tray into the crop).
* ``channels(raw, refs)``: (n, H, W, CHANNELS): the colour as logs against the tray's own
  colour (its median: a lamp's colour and brightness cancel out), the colour's distance to each
  of the set's six calibrated plastics (under another lamp they move together), the piece's
  mask and the other drinks' pixels. ``references(profile)`` gives what they are relative to.

Numpy and OpenCV only; the vision side knows nothing of the network that reads the crops
(``pixel_scorer.py``).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..drinks import COLOURS
from .features import size_factor
from .profile import Profile

H, W = 28, 56                 # the crop: across x along the piece's axis
LONGEST = 0.8                 # of the crop's width, the set's longest drink
EPS = 4.0                     # added to colours before their logarithm (dark noise)
CLIP_RATIO = (-3.0, 2.0)      # log colour against the tray (a black drink on a white tray ~ -2.5)
CLIP_DISTANCE = 2.5           # a colour this far (in logs) from a plastic is simply "not that plastic"
RAW = 5                       # relit B, G, R; the piece's mask; every segmented pixel
CHANNELS = 3 + len(COLOURS) + 2


def references(profile: Profile) -> np.ndarray:
    """What a crop's colours are relative to (7 x 3, logs): the tray's median colour, then the
    calibrated colour of each of the six plastics (as ``classify`` compares them, relit)."""
    c = profile._cache
    if "crop_refs" not in c:
        bg = profile.background
        tray = np.median(bg.reshape(-1, 3), axis=0).astype(np.float64) if bg is not None else np.full(3, 128.0)
        plastics = [np.asarray(profile.colour_model.means[col.value], np.float64) for col in COLOURS]
        c["crop_refs"] = np.log(np.maximum(np.array([tray, *plastics]), 0.0) + EPS).astype(np.float32)
    return c["crop_refs"]


def _warp(cx: float, cy: float, axis, scale: float) -> np.ndarray:
    """The inverse map (output at twice the crop's size -> frame) of a crop centred on (cx, cy),
    its width along ``axis``; ``scale``: crop pixels per frame pixel."""
    e1x, e1y = float(axis[0]), float(axis[1])
    e2x, e2y = -e1y, e1x
    s = 2.0 * scale
    u0, v0 = (2 * W - 1) / 2.0, (2 * H - 1) / 2.0
    return np.array([[e1x / s, e2x / s, cx - (u0 * e1x + v0 * e2x) / s],
                     [e1y / s, e2y / s, cy - (u0 * e1y + v0 * e2y) / s]], np.float64)


def _sample(img: np.ndarray, m: np.ndarray, border=cv2.BORDER_REPLICATE) -> np.ndarray:
    big = cv2.warpAffine(img, m, (2 * W, 2 * H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=border, borderValue=0)
    return cv2.resize(big, (W, H), interpolation=cv2.INTER_AREA)


def crop_scale(profile: Profile, an, cx: float, cy: float) -> float:
    """Crop pixels per working pixel at (cx, cy): the set's longest drink spans LONGEST of the
    crop's width there."""
    longest = float(profile.stats.get("max_length") or 0.0)
    if longest <= 0:
        longest = 0.15 * an.mask.shape[1]
    return LONGEST * W / (longest * size_factor(an.size_field, cx, cy, an.mask.shape))


def raw_crop(an, profile: Profile, cx: float, cy: float, axis, piece=None) -> np.ndarray:
    """One piece's raw crop (H, W, RAW) float32; ``piece``: its Region (None: the segmented
    pixels stand for it, as for a reading that has no piece of its own)."""
    axis = axis if axis is not None else (1.0, 0.0)
    m = _warp(cx, cy, axis, crop_scale(profile, an, cx, cy))
    out = np.empty((H, W, RAW), np.float32)
    # relit: the frame over its gain, sampled where the crop needs it only
    out[..., :3] = _sample(an.small, m) / np.maximum(_sample(an.gain, m), 1e-3)
    segmented = _sample(an.mask, m, cv2.BORDER_CONSTANT).astype(np.float32) / 255.0
    if piece is not None:
        shifted = m.copy()
        shifted[:, 2] -= (piece.x0, piece.y0)
        own = _sample(piece.mask, shifted, cv2.BORDER_CONSTANT).astype(np.float32) / 255.0
    else:
        own = segmented
    out[..., 3] = own
    out[..., 4] = segmented
    return out


def raw_crops(readings: list[dict], an, profile: Profile) -> np.ndarray:
    """The raw crops of readings (dicts with ``_f``: cx, cy, axis in working pixels, and
    ``_piece``: their Region, when they have one); (n, H, W, RAW)."""
    out = np.zeros((len(readings), H, W, RAW), np.float32)
    for k, d in enumerate(readings):
        f = d["_f"]
        out[k] = raw_crop(an, profile, float(f["cx"]), float(f["cy"]), f.get("axis"), d.get("_piece"))
    return out


def channels(raw: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """The network's input (n, H, W, CHANNELS) float32 from raw crops (n, H, W, RAW) and the
    table's ``references`` (7 x 3, or n x 7 x 3: each crop's own table's): log colour against the tray (3), distance of the log colour to each
    plastic's (6), the piece's mask, the other drinks' pixels."""
    n = raw.shape[0]
    out = np.empty((n, raw.shape[1], raw.shape[2], CHANNELS), np.float32)
    logc = np.log(np.maximum(raw[..., :3], 0.0) + EPS)
    refs = np.asarray(refs, np.float32)
    if refs.ndim == 3:               # one table's references per crop (the training tool's batches)
        refs = refs[:, None, None]
    np.clip(logc - refs[..., 0, :], *CLIP_RATIO, out=out[..., :3])
    # |c - p|^2 = |c|^2 - 2 c.p + |p|^2 for the six plastics at once (one product, not six passes)
    plastics = refs[..., 1:, :]                                   # (6, 3) or (n, 1, 1, 6, 3)
    if plastics.ndim == 2:
        sq = (logc * logc).sum(axis=-1, keepdims=True) - 2.0 * (logc @ plastics.T) + (plastics * plastics).sum(axis=-1)
    else:
        sq = ((logc[..., None, :] - plastics) ** 2).sum(axis=-1)
    np.minimum(np.sqrt(np.maximum(sq, 0.0)), CLIP_DISTANCE, out=out[..., 3:3 + plastics.shape[-2]])
    own = raw[..., 3]
    out[..., -2] = own
    out[..., -1] = np.clip(raw[..., 4] - own, 0.0, 1.0)
    return out


def set_sizes(profile: Profile) -> np.ndarray:
    """The set's own drinks as the table calibrated them (2 x 6: each shape's length, then each
    shape's width, against the set's longest shape). The crop is scaled by the longest drink, so
    a piece's length there is already relative to it; these tell what the set's other shapes
    measure against it: a set whose not-tallest bottle is 7 % longer than another set's looks
    like the other's tallest one, and only the set's own sizes tell the two apart."""
    c = profile._cache
    if "set_sizes" not in c:
        from ..drinks import SHAPES
        means = profile.shape_model.means
        lengths = np.array([float(means[s.value][0]) for s in SHAPES])
        widths = np.array([float(means[s.value][1]) for s in SHAPES])
        longest = max(float(lengths.max()), 1e-6)
        c["set_sizes"] = np.concatenate([lengths, widths]).astype(np.float32) / longest
    return c["set_sizes"]


SET_SIZES = 12                  # set_sizes' numbers


def side_inputs(readings: list[dict], sharpness: float, profile: Profile) -> np.ndarray:
    """Numbers beside the pixels, per reading: the frame's blur against the calibration, the
    piece's area against the set's smallest drink (log), and whether the second look placed an
    outline for it (then its pixels are the outline's, its features the piece's it replaced)."""
    min_area = float(profile.stats.get("min_area", 0) or 0)
    out = np.zeros((len(readings), 3), np.float32)
    for k, d in enumerate(readings):
        area = float(d["_f"].get("area", 1.0))
        out[k] = (max(0.0, 1.0 - sharpness),
                  math.log(max(area, 1.0) / min_area) if min_area > 0 else 0.0,
                  1.0 if d.get("_fitted") else 0.0)
    return out
