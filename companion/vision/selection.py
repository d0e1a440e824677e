"""Medians and quantiles of the small arrays of one frame's pieces, by selection.

numpy's general np.median and np.percentile check, copy and interpolate; on the few hundred
pixels of a piece that costs several times the selecting itself, and identifying a frame asks
for some hundred of them."""
from __future__ import annotations

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
