"""Medians, quantiles and percentiles of the small arrays of one frame's pieces, by selection,
and the pixels under a piece's mask.

numpy's general np.median and np.percentile check, copy and interpolate, and its boolean
indexing of colour arrays goes element by element; on the few hundred pixels of a piece that
costs several times the work itself, and identifying a frame asks for some hundred of them."""
from __future__ import annotations

import math

import numpy as np


ROWS_AS_LANES = 200   # from this many rows a column's values are selected among as one contiguous row


def column_medians(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)``, the same numbers in the same dtype, by selection: np.median's
    checks cost several times the selecting itself on the few hundred pixels of a piece.
    Of an even count the lower middle value is the largest below the upper one, which one
    selection has put there (selecting both middle values at once costs two to four times
    as much); and a longer column is selected in as a contiguous row.

    >>> a = np.array([[3., 10.], [1., 30.], [2., 20.], [9., 0.]], np.float32)
    >>> column_medians(a), np.median(a, axis=0)
    (array([ 2.5, 15. ], dtype=float32), array([ 2.5, 15. ], dtype=float32))
    >>> b = np.random.default_rng(3).random((2 * ROWS_AS_LANES, 3)).astype(np.float32)
    >>> bool(np.array_equal(column_medians(b), np.median(b, axis=0)))
    True
    >>> bool(column_medians(b[:, 0]) == np.median(b[:, 0])), bool(column_medians(b[1:, 0]) == np.median(b[1:, 0]))
    (True, True)
    """
    k = len(a) // 2
    if a.ndim == 1:
        p = np.partition(a, k)
        return p[k] if len(a) % 2 else (p[:k].max() + p[k]) / 2
    if len(a) >= ROWS_AS_LANES:
        p = np.partition(np.ascontiguousarray(a.T), k, axis=1)
        return p[:, k] if len(a) % 2 else (p[:, :k].max(axis=1) + p[:, k]) / 2
    if len(a) % 2:
        return np.partition(a, k, axis=0)[k]
    p = np.partition(a, (k - 1, k), axis=0)
    return (p[k - 1] + p[k]) / 2


def quantiles(a: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """Several q-quantiles found by one selection: the nearest rank, which is all the
    features need (np.percentile's interpolation and checks cost more than the measuring
    itself on these small arrays).

    >>> quantiles(np.array([5., 1., 9., 3., 7., 2.]), (0.3, 0.8))
    [3.0, 7.0]
    """
    ks = [min(len(a) - 1, max(0, int(round(q * (len(a) - 1))))) for q in qs]
    p = np.partition(a, ks)
    return [float(p[k]) for k in ks]


def byte_percentile(v: np.ndarray, q: float) -> float:
    """``np.percentile(v, q)`` (linear interpolation), the same number, for uint8 values: the
    two ranks it interpolates between are read off the values' histogram instead of sorting.

    >>> v = np.array([3, 200, 17, 17, 90, 4, 250], np.uint8)
    >>> byte_percentile(v, 75), float(np.percentile(v, 75))
    (145.0, 145.0)
    """
    n = len(v)
    below = np.cumsum(np.bincount(v, minlength=256))     # how many values are <= each level

    def ranked(k: int) -> float:                          # the k-th smallest value (from 0)
        return float(np.searchsorted(below, k, side="right"))

    at = (n - 1) * (q / 100)
    if at >= n - 1:
        return ranked(n - 1)
    k = math.floor(at)
    lo, hi = ranked(k), ranked(k + 1)
    t, step = at - k, hi - lo
    return hi - step * (1 - t) if t >= 0.5 else lo + step * t      # as numpy interpolates


def pixels_where(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``image[mask]``: the values (or colours) of an (h, w) or (h, w, channels) image where
    the (h, w) mask is set, or the rows of an (n, ...) array where the (n,) mask is, gathered
    by index (numpy's boolean indexing of an image takes three to five times as long).

    >>> img = np.arange(12.0).reshape(2, 2, 3)
    >>> pixels_where(img, np.array([[True, False], [False, True]])).tolist()
    [[0.0, 1.0, 2.0], [9.0, 10.0, 11.0]]
    >>> pixels_where(img.reshape(-1, 3), np.array([False, True, True, False])).tolist()
    [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]
    >>> pixels_where(img[..., 0], np.array([[False, True], [True, True]])).tolist()
    [3.0, 6.0, 9.0]
    """
    if mask.ndim == 1:
        return np.compress(mask, image, axis=0)
    return np.take(image.reshape((mask.size,) + image.shape[mask.ndim:]), np.flatnonzero(mask), axis=0)


def pixels_by_label(lab: np.ndarray) -> dict[int, np.ndarray]:
    """For each label (other than 0) of a label image, the flat indices of its pixels in scan
    order, as ``np.flatnonzero(lab == label)`` gives them, found in one pass over the image
    instead of one a label.

    >>> lab = np.array([[0, 5, 5], [2, 0, 5], [2, 2, 0]])
    >>> {k: v.tolist() for k, v in pixels_by_label(lab).items()}
    {2: [3, 6, 7], 5: [1, 2, 5]}
    """
    flat = lab.ravel()
    at = np.flatnonzero(flat)
    labels = flat[at]
    order = np.argsort(labels, kind="stable")     # (stable: each label's pixels stay in scan order)
    ranked = labels[order]
    starts = np.flatnonzero(np.diff(ranked)) + 1
    return dict(zip(ranked[np.r_[0, starts]].tolist(), np.split(at[order], starts)))
