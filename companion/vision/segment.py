"""The frame against the empty tray: is it readable, how is it lit, which pixels are drinks.

1. Lighting of the moment: the empty tray is the reference. The ratio of this frame to the
   empty tray, on a coarse grid and with the drinks' own pixels rejected as outliers, gives
   a smooth gain field per channel, which follows a person's shadow band of any one colour
   (light_field.py); dividing by it shows the frame as if lit like the calibration photos
   (colours are measured on that corrected view).
2. Segmentation: pixels that differ from the (relit) empty tray by more than the frame's
   own noise, and are not merely darker in every channel alike (a shadow), belong to drinks;
   so do the thin dark lines of a drink's silhouette where its body looks like the tray, and
   a shadow-like blob far deeper than the drinks' shadows were in calibration (a black
   drink's face on a dark tray). Outlines are filled, but not a patch of the tray that
   drinks lying in a ring enclose.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .difference import difference_sample, noise_units, shadow_like_at
from .heap import keep_freed_buffers
from .light_field import TINY, TRAY_SHARE, lighting_field
from .profile import Profile, ProfileError
from .selection import column_medians, pixels_where

class FrameError(ValueError):
    """The frame cannot be analysed (wrong size, too dark, overexposed)."""


@dataclass
class Analysis:
    """A frame prepared against the profile: corrected view, drink mask, noise level."""

    small: np.ndarray          # frame at working scale, float32 BGR
    gain: np.ndarray           # lighting of this frame relative to the empty tray (work scale)
    corrected: np.ndarray | None   # unused (measured per region)
    mask: np.ndarray           # uint8 0/255: drink pixels
    sigma: np.ndarray          # per-channel noise of the difference
    light: float               # mean gain (1 = as bright as the calibration)
    sharpness: float = 1.0     # fine detail of the tray now / in the calibration (motion blur < 1)
    clear_tray: np.ndarray | None = None   # bool: pixels that are plainly the empty tray (not even a shadow)
    faint: np.ndarray | None = None        # bool: pixels no further from the tray than a shadow or noise
    size_field: tuple[float, float] | None = None   # the camera's tilt as a size gradient (profile stats)


def check_frame(image, profile: Profile) -> None:
    if image is None or not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise FrameError("not a colour image")
    w, h = profile.image_size
    if image.shape[1] != w or image.shape[0] != h:
        raise FrameError(f"the frame is {image.shape[1]}x{image.shape[0]} but the profile was calibrated at "
                         f"{w}x{h}; set the camera to {w}x{h} or calibrate again")


def exposure_problem(small: np.ndarray, light: float) -> str | None:
    """A short reason when the frame is too dark or overexposed to read, else None."""
    lum = sum(cv2.mean(small)[:3]) / 3.0      # (cv2.mean: a tenth of numpy's time on uint8)
    if lum < 18 or light < 0.3:
        return f"the frame is too dark to read (mean level {lum:.0f} of 255, {light:.0%} of the calibration light)"
    below = cv2.inRange(small, (0, 0, 0), (249, 249, 249))     # 255 where no channel is saturated
    sat = 1.0 - float(np.count_nonzero(below)) / below.size
    if sat > 0.35 or light > 3.0:
        return f"the frame is overexposed ({sat:.0%} of it saturated, {light:.0%} of the calibration light)"
    return None


def reference(profile: Profile):
    """What every frame is compared with, computed once per profile: the empty tray (float),
    its fine texture and dark lines, the lighting grid's design, the morphology kernels."""
    c = profile._cache
    if "bg" not in c:
        if profile.background is None:
            raise ProfileError("this profile has no photo of the empty tray; calibrate with one "
                               "(calibrate drinks DIR, or --mat PHOTO --background EMPTY.png)")
        bg = profile.background.astype(np.float32)
        c["bg"] = bg
        gray = cv2.cvtColor(profile.background, cv2.COLOR_BGR2GRAY)
        c["k5"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        c["bg_lap_energy"] = float(np.mean(_band(gray) ** 2))
        c["bg_blackhat"] = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, c["k5"])
        c["bg_tiny_log"] = np.log(cv2.resize(bg, TINY, interpolation=cv2.INTER_AREA) + 1.0)
        yy, xx = np.mgrid[0:TINY[1], 0:TINY[0]].astype(np.float32)
        c["design"] = np.column_stack([np.ones(xx.size), (xx.ravel() - TINY[0] / 2) / TINY[0],
                                       (yy.ravel() - TINY[1] / 2) / TINY[1]]).astype(np.float32)
        c["design64"] = c["design"].astype(np.float64)
        c["bg3"] = cv2.blur(bg, (3, 3))
        c["k3"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        c["k7"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    return c


def analyse(image: np.ndarray, profile: Profile) -> Analysis:
    keep_freed_buffers()     # the frame's large temporaries are reused, not faulted in afresh (heap.py)
    check_frame(image, profile)
    c = reference(profile)
    wsz = profile.work_size
    small8 = cv2.resize(image, wsz, interpolation=cv2.INTER_AREA)
    small = small8.astype(np.float32)
    gain, light, tray_share = lighting_field(small, profile, c)
    problem = exposure_problem(small8, light)
    if problem:
        raise FrameError(problem)
    if tray_share < TRAY_SHARE:
        raise FrameError("the frame does not show the calibrated tray (was the camera or the tray moved? "
                         "calibrate again)")
    # the noise: the median difference from the lit tray over every 4th pixel of every 4th
    # row, per channel; then each pixel's largest difference in noise units (difference.py)
    sample = difference_sample(small8, c["bg"], gain, 4)
    med = np.array([column_medians(channel) for channel in sample], np.float32)
    sigma = np.maximum(med * 1.4826, 1.5).astype(np.float32)
    z = noise_units(small8, c["bg"], gain, 1 / sigma)
    # a shadow darkens every channel alike and keeps the tray's colour; compared on a 3x3 mean
    # (a shadow is smooth) the colour test can be tight
    # (tested only where the frame differs from the tray at all, a twentieth of it: the
    # test's full-frame passes cost more than gathering those pixels)
    differs = z > 3.5
    at = np.flatnonzero(differs)
    # (the frame's 3x3 mean from its bytes, the tray's as lit now as the empty tray's times
    # the gain, which is smooth, so nearly the mean of the product; both only where asked for,
    # difference.py)
    shadow = np.zeros(differs.shape, bool)
    shadow.ravel()[at] = shadow_like_at(small8, c["bg3"], gain, at, float(sigma.max()))
    shadow &= ~_deep_shade(shadow, small8, c, gain, profile)
    # dark valleys: a lying drink's silhouette is a thin dark line (its side turns away from the
    # light, and it touches the tray there) even where its body matches the tray or looks like
    # a shadow (white in its own shade); a cast shadow fades out without one
    gray = cv2.cvtColor(small8, cv2.COLOR_BGR2GRAY)
    bh = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, c["k5"])
    valley = deeper_than_tray(bh, c["bg_blackhat"], float(light), 5.0 * float(sigma.mean()))
    weak = cv2.compare(differs.view(np.uint8), shadow.view(np.uint8), cv2.CMP_GT)    # differs, not a shadow: 255
    weak = cv2.morphologyEx(weak, cv2.MORPH_OPEN, c["k3"])     # noise specks; thin valleys join after
    cv2.max(weak, valley, dst=weak)
    strong = (z > 7.0) & (weak > 0)
    n, lab = cv2.connectedComponentsWithAlgorithm(weak, 8, cv2.CV_32S, cv2.CCL_BBDT)   # faster than the default here
    keep = np.zeros(n, np.uint8)
    keep[pixels_where(lab, strong)] = 255     # (repeated labels are harmless, and np.unique's hashing costs more)
    keep[0] = 0
    fg = _lookup(keep, lab)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, c["k7"])
    contours, tree = cv2.findContours(fg, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(fg)
    min_area = min(profile.stats.get("min_area", 150) * 0.05, 30)
    parents = [t[3] for t in tree[0]] if tree is not None else []     # -1: an outline, else a hole in one
    keep = [cnt for cnt, up in zip(contours, parents) if up < 0 and cv2.contourArea(cnt) >= min_area]
    cv2.drawContours(mask, keep, -1, 255, -1)
    plain_tray = z < 2.5
    _reopen_tray_holes(mask, fg, [cnt for cnt, up in zip(contours, parents) if up >= 0], plain_tray, profile)
    # how sharp is this frame? the tray's fine detail against the empty tray's (where no drink is)
    lap = _band(gray)
    free = mask[::2, ::2] == 0
    e_now = float(np.mean(pixels_where(lap, free) ** 2)) if free.any() else 0.0
    e_bg = c["bg_lap_energy"] * light * light
    sharp = min(1.0, math.sqrt(e_now / e_bg)) if e_bg > 0 else 1.0
    field_ = profile.stats.get("size_field")
    return Analysis(small, gain, None, mask, sigma, light, sharp, plain_tray & (mask == 0), ~differs | shadow,
                    tuple(field_) if field_ else None)


def _lookup(table: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """``table[labels]`` for a uint8 table: through OpenCV's byte lookup when the labels fit in
    a byte (a third of the time: numpy's take first widens every label to 64 bits), else by
    np.take (the same as indexing, in half its time).

    >>> lab = np.array([[0, 2], [1, 2]], np.int32)
    >>> _lookup(np.array([0, 255, 7], np.uint8), lab).tolist()
    [[0, 7], [255, 7]]
    """
    if len(table) > 256:
        return np.take(table, labels)
    full = np.zeros(256, np.uint8)
    full[:len(table)] = table
    return cv2.LUT(labels.astype(np.uint8), full)


def deeper_than_tray(dark: np.ndarray, tray_dark: np.ndarray, light: float, margin: float) -> np.ndarray:
    """255 where a byte image of dark lines (``dark``, the frame's black-hat) is deeper than
    the empty tray's (``tray_dark``, bytes) lit by ``light``, by more than ``margin``: where
    ``float32(dark) - tray_dark * light > margin`` in float32, as bytes. The least depth that
    passes is found once for each of the tray's 256 levels, and the frame is compared with
    it byte by byte (the float images cost three times as much). ``margin`` is positive, so a
    depth of 0 never passes and every level has a depth that fails.

    >>> d = np.array([[0, 8, 9, 40]], np.uint8); t = np.array([[0, 3, 3, 32]], np.uint8)
    >>> deeper_than_tray(d, t, 1.1, 5.5).tolist()
    [[0, 0, 255, 0]]
    >>> d, t = np.random.default_rng(5).integers(0, 256, (2, 50, 60), dtype=np.uint8)
    >>> in_floats = (d.astype(np.float32) - t.astype(np.float32) * 0.83) > 2.7
    >>> bool(np.array_equal(deeper_than_tray(d, t, 0.83, 2.7) > 0, in_floats))
    True
    """
    levels = np.arange(256, dtype=np.float32)
    passes = (levels[None, :] - levels[:, None] * light) > margin      # [tray level, depth]
    # the deepest depth that fails, per tray level (depth is monotone: all above it pass)
    fails_to = (256 - passes.sum(axis=1) - 1).astype(np.uint8)
    return cv2.compare(dark, cv2.LUT(tray_dark, fails_to), cv2.CMP_GT)


TRAY_HOLE = (0.6, 0.5)   # a hole of this share of the smallest drink, this much of it plainly tray


def _reopen_tray_holes(mask: np.ndarray, fg: np.ndarray, holes: list, plain_tray: np.ndarray, profile: Profile) -> None:
    """Drinks lying in a ring enclose a patch of the tray; filling the drinks' outlines must
    not make it a drink. A hole inside one drink (a glare spot, a pale body that matches the
    tray) is smaller, and little of it is plainly the empty tray (``plain_tray``: no channel
    differs from it by more than 2.5 times its noise). ``holes``: the contours of the holes
    in ``fg``."""
    least = TRAY_HOLE[0] * profile.stats.get("min_area", 1e9)
    for box, hole in _enclosed(holes, fg == 0, least):
        n = np.count_nonzero(hole)
        if n >= least and np.count_nonzero(hole & plain_tray[box]) >= TRAY_HOLE[1] * n:
            mask[box][hole] = 0


def _enclosed(contours: list, within: np.ndarray, least: float):
    """For each contour whose bounding box could hold ``least`` pixels: that box (a slice)
    and, in it, the pixels of ``within`` that the contour encloses."""
    for cnt in contours:
        x, y, w, h = cv2.boundingRect(cnt)
        if w * h < least:
            continue
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [cnt - np.array([x, y], np.int32)], -1, 1, -1)
        box = np.s_[y:y + h, x:x + w]
        yield box, (inside > 0) & within[box]


DEEP_SHADE = 0.24   # darker than this (share of the tray's light) is a drink, not a drink's shadow ..
DEEP_SHARE = 0.35   # .. over at least this share of a blob
DEEP_MARGIN = 0.03  # .. where calibration measured the shadows: this much deeper than they were


def deep_shade_level(profile: Profile) -> float:
    """How much darker than the tray a shadow-like blob must be to be a drink: a little deeper
    than the shadows beside the drinks in the calibration photos (``shadow_depth``: the 95th
    percentile beside each drink, the median over the 36), so that a harsher lamp's deeper
    shadows are not taken for drinks; DEEP_SHADE for a profile made without them."""
    learnt = profile.stats.get("shadow_depth")
    return float(learnt) + DEEP_MARGIN if learnt else DEEP_SHADE


def shadow_depths(an: Analysis, profile: Profile) -> np.ndarray:
    """How much darker than the tray (share of its light) each shadow-like pixel beside the
    drinks is: the drinks' own shadows, as calibration measures them."""
    c = reference(profile)
    level = cv2.cvtColor(cv2.blur(an.small, (3, 3)), cv2.COLOR_BGR2GRAY) + 2.0
    tray = cv2.cvtColor(cv2.blur(cv2.multiply(c["bg"], an.gain), (3, 3)), cv2.COLOR_BGR2GRAY) + 2.0
    depth = 1.0 - level / tray
    beside = cv2.dilate(an.mask, np.ones((15, 15), np.uint8)) > 0
    shade = an.faint & (an.mask == 0) & beside & (depth > 3.5 * float(an.sigma.mean()) / tray)
    return depth[shade]


def _deep_shade(shade: np.ndarray, frame8: np.ndarray, ref: dict, gain: np.ndarray, profile: Profile) -> np.ndarray:
    """Shadow-like blobs that are drinks: a black drink's flat face on a dark tray keeps the
    tray's colour and is evenly darker, as a shadow is, but a drink's cast shadow is seen
    only as its soft fringe beside the drink, never this deep over a drink-sized blob.
    ``frame8``: the frame's bytes; ``ref``: ``reference(profile)``; ``gain``: the lighting of
    the frame."""
    cand = cv2.morphologyEx(shade.astype(np.uint8), cv2.MORPH_OPEN, reference(profile)["k3"])
    out = np.zeros(shade.shape, bool)
    # a fifth of the smallest drink, at most 150 px (which also serves calibration, before
    # the drinks' sizes are known)
    least = min(profile.stats.get("min_area", 1e9) * 0.2, 150)
    darker = 1.0 - deep_shade_level(profile)
    contours, _ = cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for box, blob in _enclosed(contours, cand > 0, least):
        n = np.count_nonzero(blob)
        if n < least:
            continue
        level = cv2.cvtColor(_mean3_in(frame8, box), cv2.COLOR_BGR2GRAY) + 2.0
        tray_level = cv2.cvtColor(cv2.multiply(ref["bg3"][box], gain[box]), cv2.COLOR_BGR2GRAY) + 2.0
        deep = blob & (level < darker * tray_level)
        if np.count_nonzero(deep) >= DEEP_SHARE * n:
            out[box] |= deep     # the shallower fringe is that drink's own shadow
    return out


def _mean3_in(frame8: np.ndarray, box: tuple) -> np.ndarray:
    """``cv2.boxFilter(frame8, cv2.CV_32F, (3, 3))[box]``, filtering only the box and the pixel
    around it (where the frame has one; at its edges the box's are the frame's).

    >>> f = np.random.default_rng(2).integers(0, 256, (9, 12, 3), dtype=np.uint8)
    >>> whole = cv2.boxFilter(f, cv2.CV_32F, (3, 3))
    >>> all(np.array_equal(_mean3_in(f, b), whole[b]) for b in (np.s_[0:4, 3:12], np.s_[2:9, 0:5], np.s_[4:5, 6:7]))
    True
    """
    rows, cols = box
    h, w = frame8.shape[:2]
    y0, x0 = max(rows.start - 1, 0), max(cols.start - 1, 0)
    y1, x1 = min(rows.stop + 1, h), min(cols.stop + 1, w)
    around = cv2.boxFilter(frame8[y0:y1, x0:x1], cv2.CV_32F, (3, 3))
    return around[rows.start - y0:rows.stop - y0, cols.start - x0:cols.stop - x0]


def _band(gray: np.ndarray) -> np.ndarray:
    """Fine detail, which motion blur removes: the Laplacian (cv2.Laplacian's, borders
    reflected alike) at every second pixel of every second row, computed there only.

    >>> g = np.random.default_rng(1).integers(0, 256, (7, 10), dtype=np.uint8)
    >>> bool(np.array_equal(_band(g), cv2.Laplacian(g, cv2.CV_32F)[::2, ::2]))
    True
    """
    h, w = gray.shape
    p = cv2.copyMakeBorder(gray, 1, 1, 1, 1, cv2.BORDER_REFLECT_101).astype(np.int16)
    centre = p[1:h + 1:2, 1:w + 1:2]
    around = p[0:h:2, 1:w + 1:2] + p[2:h + 2:2, 1:w + 1:2] + p[1:h + 1:2, 0:w:2] + p[1:h + 1:2, 2:w + 2:2]
    return (around - 4 * centre).astype(np.float32)
