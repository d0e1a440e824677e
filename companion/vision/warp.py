"""A smooth map of the plane fitted to point pairs: least-squares affine, plus a thin-plate
spline for what the affine map leaves (numpy: the few dozen points of a calibration need no
more). The board calibration fits our data's millimetres onto the printed board's with it.

>>> src = np.array([[0, 0], [100, 0], [0, 100], [100, 100], [50, 50.0]])
>>> warp = fit_warp(src, src * 1.1 + 3)
>>> warp.kind, np.round(warp([[10, 20]]), 3).tolist()
('smooth', [[14.0, 25.0]])
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SMOOTH_FROM = 5              # with this many points the smooth remainder is fitted too
SMOOTHING = 0.02             # thin-plate spline regularisation (in (100 mm)^2): taps are ~1 mm off


def _tps_kernel(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d2 = np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        k = 0.5 * d2 * np.log(d2)
    return np.nan_to_num(k)


@dataclass(frozen=True)
class Warp:
    """Data mm -> printed mm: an affine map plus, when fitted, a thin-plate spline remainder."""

    affine: np.ndarray                       # 2x3
    centres: np.ndarray | None = None        # (k, 2) data mm / 100
    weights: np.ndarray | None = None        # (k, 2)
    poly: np.ndarray | None = None           # 3x2: the spline's own affine part (on the remainder)

    @property
    def kind(self) -> str:
        return "affine" if self.centres is None else "smooth"

    def __call__(self, points: np.ndarray) -> np.ndarray:
        p = np.asarray(points, np.float64).reshape(-1, 2)
        out = p @ self.affine[:, :2].T + self.affine[:, 2]
        if self.centres is not None:
            q = p / 100.0
            out = out + 100.0 * (_tps_kernel(q, self.centres) @ self.weights
                                 + np.c_[np.ones(len(q)), q] @ self.poly)
        return out


def fit_affine(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The least-squares affine map src -> dst (2x3)."""
    X = np.c_[src, np.ones(len(src))]
    sol, *_ = np.linalg.lstsq(X, dst, rcond=None)
    return sol.T


def fit_warp(src: np.ndarray, dst: np.ndarray, smooth: bool | None = None) -> Warp:
    """Data mm ``src`` -> printed mm ``dst`` (n >= 3 pairs): affine, and the smooth remainder when
    ``smooth`` (default: n >= :data:`SMOOTH_FROM`)."""
    src, dst = np.asarray(src, np.float64), np.asarray(dst, np.float64)
    affine = fit_affine(src, dst)
    if smooth is None:
        smooth = len(src) >= SMOOTH_FROM
    if not smooth:
        return Warp(affine)
    rest = (dst - (src @ affine[:, :2].T + affine[:, 2])) / 100.0
    q = src / 100.0
    n = len(q)
    K = _tps_kernel(q, q) + SMOOTHING * np.eye(n)
    P = np.c_[np.ones(n), q]
    A = np.block([[K, P], [P.T, np.zeros((3, 3))]])
    b = np.r_[rest, np.zeros((3, 2))]
    try:
        sol = np.linalg.solve(A, b)              # square and regular but for points on one line
    except np.linalg.LinAlgError:
        sol = np.linalg.lstsq(A, b, rcond=None)[0]
    return Warp(affine, q, sol[:n], sol[n:])


def leave_one_out_rms(src: np.ndarray, dst: np.ndarray, least: int = 3) -> float:
    """RMS error at each point of the fit made without it (0 with ``least`` points or fewer, where
    nothing is left over to check): how far an untapped station may be off."""
    n = len(src)
    if n <= least:
        return 0.0
    errs = []
    for k in range(n):
        keep = np.arange(n) != k
        warp = fit_warp(src[keep], dst[keep])
        errs.append(np.linalg.norm(warp(src[k:k + 1])[0] - dst[k]))
    return float(np.sqrt(np.mean(np.square(errs))))


def k_fold_rms(src: np.ndarray, dst: np.ndarray, folds: int = 5) -> float:
    """RMS error of each point predicted by the fit of the other folds."""
    order = np.random.default_rng(0).permutation(len(src))
    errs = []
    for f in range(folds):
        out = order[f::folds]
        keep = np.setdiff1d(order, out)
        warp = fit_warp(src[keep], dst[keep], smooth=True)
        errs.extend(np.linalg.norm(warp(src[out]) - dst[out], axis=1))
    return float(np.sqrt(np.mean(np.square(errs))))
