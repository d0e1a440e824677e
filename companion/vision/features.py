"""What one drink-sized piece of the frame measures: length and width along its principal
axis, the width profile (a bottle's shoulder and neck), the brightness profile across the body
(round or flat faces), and the body colour."""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .piece_profile import profiles
from .segment import Analysis

SHAPE_FEATURES = ["length", "width", "neck", "shoulder", "flat", "edge"]
COLOUR_FEATURES = ["b", "g", "r"]
LUMA = np.array([0.114, 0.587, 0.299], np.float32)   # BGR weights of brightness
FLAT_FLOOR = 0.02             # added to ``flat`` before its logarithm (a perfectly even face is not infinitely flat)
OUTLINE_POINTS = 24           # samples of a drink's width along its length, kept in the profile


@dataclass
class Region:
    mask: np.ndarray      # uint8 0/255 crop
    x0: int
    y0: int
    shade_like: bool = False   # taken for shade in the splitting: kept for the second look only

    @property
    def area(self) -> int:
        return int(np.count_nonzero(self.mask))


def measure(region: Region, an: Analysis, unit_scale: float = 1.0, axis=None, outline: bool = False) -> dict | None:
    """Geometry and colour features of one drink-sized region (None if degenerate); with
    ``outline``, also the width along the length that calibration keeps (identifying never
    reads it, and it cost a sixth of a measure)."""
    found = cv2.findNonZero(region.mask)      # (x, y) in scan order, as np.nonzero, in a third of its time
    if found is None or len(found) < 30:
        return None
    xy = found.reshape(-1, 2)
    # the pixels' colours, gathered by flat index (np.take: faster than by row and column, or
    # than indexing the rows)
    at = (xy[:, 1] + region.y0) * an.small.shape[1] + (xy[:, 0] + region.x0)
    col = np.take(an.small.reshape(-1, 3), at, axis=0) / np.take(an.gain.reshape(-1, 3), at, axis=0)
    return measure_pixels(xy, col, region.x0, region.y0, an, unit_scale, axis, outline)


def measure_pixels(xy: np.ndarray, col: np.ndarray, x0: int, y0: int, an: Analysis, unit_scale: float = 1.0,
                   axis=None, outline: bool = False) -> dict | None:
    """``measure`` of a piece given as its pixels: ``xy`` their (x, y) in a crop whose corner
    is (x0, y0) in the frame, in scan order (row by row, as ``cv2.findNonZero`` lists them),
    ``col`` their relit colours (frame / gain). A caller that holds a piece's pixels already
    (the splitting's pieces) need not draw it in a mask to be found again."""
    if len(xy) < 30:
        return None
    pts = xy.astype(np.float32)
    # (the coordinates are whole numbers, so below 2**24 their sums are exact in any order:
    # summed along each row of the transposed copy, ten times faster than down the columns)
    mean = np.ascontiguousarray(pts.T).sum(axis=1) / len(pts)
    d = pts - mean
    pixels = (mean, d, col, col @ LUMA)
    if axis is None:
        cov = d.T @ d / len(d)
        (least, most), e1 = spread_axes(cov)
        if most < 1.8 * least:
            # nearly as wide as long (a stubby can): the length is the direction along which the
            # shading does not change (a cylinder's shading runs across it)
            a = _measure_along(x0, y0, an, unit_scale, e1, pixels, outline)
            b = _measure_along(x0, y0, an, unit_scale, np.array([-e1[1], e1[0]], np.float32), pixels, outline)
            if a is None or b is None:
                return a or b
            return a if a["flat"] >= b["flat"] else b
    else:
        e1 = np.asarray(axis, np.float32)
    return _measure_along(x0, y0, an, unit_scale, e1, pixels, outline)


def spread_axes(cov: np.ndarray) -> tuple[tuple[np.float32, np.float32], np.ndarray]:
    """The eigenvalues (least, most) of a 2x2 float32 covariance and the unit direction of the
    most, as ``np.linalg.eigh`` gives them (float32, LAPACK's sign), in closed form: eigh's
    checks and LAPACK call took a tenth of a millisecond, every piece measured.

    >>> cov = np.array([[4.0, -1.5], [-1.5, 2.0]], np.float32)
    >>> (lo, hi), e = spread_axes(cov)
    >>> w, v = np.linalg.eigh(cov)
    >>> bool(lo == w[0] and hi == w[1] and np.array_equal(e, v[:, 1]))
    True
    """
    a, b, c = float(cov[0, 0]), float(cov[0, 1]), float(cov[1, 1])
    half, mid = 0.5 * (a - c), 0.5 * (a + c)
    r = math.hypot(half, b)
    if b == 0.0:
        x, y = (1.0, 0.0) if a > c else (0.0, 1.0)
    else:
        # (the form that subtracts no nearly equal numbers)
        x, y = (half + r, b) if half >= 0 else (b, r - half)
        n = math.hypot(x, y)
        x, y = x / n, y / n
        # LAPACK's sign: x negative, except for a positive b when the second axis spreads more
        # (either sign is the axis; this one, which eigh gave while the pipeline was tuned,
        # keeps every reading as it was: the width profile's soft binning starts at one end)
        if (x > 0) == (b < 0 or a > c):
            x, y = -x, -y
    return (np.float32(mid - r), np.float32(mid + r)), np.array([x, y], np.float32)


def _measure_along(x0: int, y0: int, an: Analysis, unit_scale: float, e1: np.ndarray, pixels: tuple,
                   outline: bool) -> dict | None:
    """``measure`` with the drink's axis ``e1`` given; ``pixels``: the region's pixels (their
    mean position, offsets from it, relit colours and brightness), found once for both axes
    of a near-square piece."""
    mean, d, col, lum = pixels
    t = d @ e1
    s = d @ np.array([-e1[1], e1[0]], np.float32)
    # the slices along the axis (soft-binned: each pixel's unit area is shared by the two
    # nearest, so that the pixel grid seen at a slant does not alias into a comb of thick and
    # thin slices), oriented with the narrow end (a bottle's neck) last; the brightness across
    # the body (the wide end, away from the ends) in 7 slices for its flatness and in 9 for
    # its rims (the outermost left out: blur mixes the tray into it); the colour of the lit
    # body without highlights and shaded edges (piece_profile.py)
    ok, flipped, L, W, neck, shoulder, flat, edge, cb, cg, cr, w = profiles(t, s, lum, col)
    if not ok:
        return None
    if flipped:
        e1 = -e1
    cx = float(mean[0] + x0)
    cy = float(mean[1] + y0)
    # sizes as the drink would look in the middle of the view (a tilted camera sees one side larger)
    along = unit_scale / size_factor(an.size_field, cx, cy, an.mask.shape, e1)
    across = unit_scale / size_factor(an.size_field, cx, cy, an.mask.shape, (-e1[1], e1[0]))
    f = {"length": L * along, "width": W * across, "neck": neck, "shoulder": shoulder,
         "flat": flat, "edge": edge, "b": cb, "g": cg, "r": cr,
         "cx": cx, "cy": cy, "area": float(len(d)), "axis": (float(e1[0]), float(e1[1]))}
    if outline:
        # the outline itself (wide end first), for fitting it later where a drink's edges are hidden
        f["outline"] = [round(v, 2) for v in (np.interp(*_outline_grid(len(w)), w) * across).tolist()]
    return f


_GRIDS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _outline_grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Where the OUTLINE_POINTS samples of a width profile of ``n`` slices lie, and the slices'
    own positions: the same few lengths recur, so they are made once."""
    if n not in _GRIDS:
        _GRIDS[n] = (np.linspace(0, n - 1, OUTLINE_POINTS), np.arange(n))
    return _GRIDS[n]


def size_factor(field: tuple[float, float] | None, cx: float, cy: float, shape: tuple[int, int],
                along=None) -> float:
    """How much larger a drink looks at (cx, cy) than in the middle of the view, by the size
    field (gradients of log size across the view's width and height, taken over all
    directions; None: no gradient). ``along``: a direction in the image (unit vector): the
    factor for lengths along it. A view tilted towards one side stretches lengths pointing
    to that side twice as much as those across it (the drink comes nearer, and it is also seen
    less obliquely); the mean over all directions is one and a half times the latter.

    >>> round(size_factor((0.1, 0.0), 640.0, 180.0, (360, 640)), 4)    # right edge, 10 % per width
    1.0513
    >>> [round(size_factor((0.1, 0.0), 640.0, 180.0, (360, 640), u), 4) for u in ((1, 0), (0, 1))]
    [1.0689, 1.0339]
    >>> size_factor(None, 0.0, 0.0, (360, 640))
    1.0
    """
    if not field:
        return 1.0
    h, w = shape[:2]
    g = field[0] * (cx / w - 0.5) + field[1] * (cy / h - 0.5)
    return math.exp(g * along_tilt(field, along, shape)) if along is not None else math.exp(g)


def along_tilt(field: tuple[float, float], u, shape: tuple[int, int]) -> float:
    """How much more than the mean over all directions lengths along ``u`` grow with the size
    field: 4/3 along the way the view tilts, 2/3 across it."""
    h, w = shape[:2]
    gx, gy = field[0] / w, field[1] / h          # the gradient in pixels: the way the view tilts
    n = math.hypot(gx, gy)
    if n == 0:
        return 1.0
    c = (float(u[0]) * gx + float(u[1]) * gy) / n
    return (1.0 + c * c) / 1.5


def size_units(names: list[str], px_per_mm: float) -> np.ndarray:
    """Per shape feature, the factor that turns a mat profile's mm into working px: the sizes
    (length, width) scale, the ratios do not."""
    return np.array([px_per_mm if n in ("length", "width") else 1.0 for n in names])


def shape_vector(f: dict) -> np.ndarray:
    v = np.array([f[k] for k in SHAPE_FEATURES], np.float64)
    v[SHAPE_FEATURES.index("flat")] = math.log(f["flat"] + FLAT_FLOOR)   # facets: ratios matter, not differences
    return v


ANGLED = ("flat", "edge")     # the shading features of a round drink that change with its angle to the light


def angle_shift(effect: dict | None, axis) -> np.ndarray:
    """What a round drink lying along ``axis`` adds to its shape vector (``shape_vector``) by
    its angle to the light: a cylinder lying across the light is shaded from one side to the
    other, one lying along it on both sides alike. ``effect``: per feature of ANGLED, the
    coefficients of cos 2a and sin 2a (a: the axis angle; the same drink turned end for end
    is lit alike), from calibration (``angle_effect`` in the profile's stats).

    >>> effect = {"flat": [0.3, 0.0]}
    >>> [round(float(angle_shift(effect, u)[SHAPE_FEATURES.index("flat")]), 3) for u in ((1, 0), (0, 1))]
    [0.3, -0.3]
    """
    v = np.zeros(len(SHAPE_FEATURES))
    if effect:
        a = math.atan2(float(axis[1]), float(axis[0]))
        for name, (c, s) in effect.items():
            v[SHAPE_FEATURES.index(name)] = c * math.cos(2 * a) + s * math.sin(2 * a)
    return v


def colour_vector(f: dict) -> np.ndarray:
    return np.array([f[k] for k in COLOUR_FEATURES], np.float64)
