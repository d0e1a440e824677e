"""Medians, quantiles and percentiles of the small arrays of one frame's pieces, by selection,
and the pixels under a piece's mask.

numpy's general np.median and np.percentile check, copy and interpolate, and its boolean
indexing of colour arrays goes element by element; on the few hundred pixels of a piece that
costs several times the work itself, and identifying a frame asks for some hundred of them."""
from __future__ import annotations

import math

import numpy as np


def column_medians(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)``, the same numbers in the same dtype, by selection: np.median's
    checks cost several times the selecting itself on the few hundred pixels of a piece.

    >>> a = np.array([[3., 10.], [1., 30.], [2., 20.], [9., 0.]], np.float32)
    >>> column_medians(a), np.median(a, axis=0)
    (array([ 2.5, 15. ], dtype=float32), array([ 2.5, 15. ], dtype=float32))
    """
    k = len(a) // 2
    if len(a) % 2:
        return np.partition(a, k, axis=0)[k]
    p = np.partition(a, (k - 1, k), axis=0)
    return (p[k - 1] + p[k]) / 2


def quantile(a: np.ndarray, q: float) -> float:
    """The q-quantile by selection (np.percentile's interpolation and checks cost more than the
    measuring itself on these small arrays); the nearest rank, which is all the features need."""
    k = min(len(a) - 1, max(0, int(round(q * (len(a) - 1)))))
    return float(np.partition(a, k)[k])


def between_quantiles(a: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Which values lie between the lo- and the hi-quantile (nearest ranks, as ``quantile``,
    both included): the two quantiles found by one selection.

    >>> v = np.array([5., 1., 9., 3., 7., 2.])
    >>> between_quantiles(v, 0.3, 0.8).tolist() == ((v >= quantile(v, 0.3)) & (v <= quantile(v, 0.8))).tolist()
    True
    """
    n = len(a)
    kl, kh = (min(n - 1, max(0, int(round(q * (n - 1))))) for q in (lo, hi))
    p = np.partition(a, (kl, kh))
    return (a >= p[kl]) & (a <= p[kh])


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
