"""The votes one pose of an outline collects, compiled (placing.py's inner loop).

Placing an outline tries some 120 poses a frame, each a handful of numpy passes over a few
hundred sampled pixels (the outline's inside, its masked sum, its rim's gradient): on arrays
that small, numpy's per-call cost was most of the time, about half of a touching frame's
fit (docs/performance.md, "The outline's poses compiled"). Here each pose is one loop.

Both kernels keep placing.py's arithmetic: the inside test in float32 as numpy did it, the rim's
points rounded half to even. The sums are in float64, in order: the inside's (votes of 1, 0.5,
-0.35, -1, -1.5 as float32, a few thousand of them) is then exact, where numpy's float32 dot
rounded; the rim's differs from numpy's pairwise sum in the last bits only.
"""
from __future__ import annotations

import numpy as np
from numba import njit

F32 = np.float32


@njit(cache=True)
def inside_votes(u, v, t0, v0, direction, widths, weights):
    """The sampled pixels inside an outline of half widths ``widths / 2`` laid from ``t0``
    along (``direction`` +1 or -1) and ``v0`` across, in the piece's frame (``u``, ``v``:
    float32 coordinates of each pixel); returns (inside as bool, the sum of ``weights``
    inside)."""
    n = u.shape[0]
    length = widths.shape[0]
    last = F32(length - 1)
    t0f, v0f, d = F32(t0), F32(v0), F32(direction)
    inside = np.zeros(n, np.bool_)
    total = 0.0
    for i in range(n):
        tt = (u[i] - t0f) * d
        if tt >= 0 and tt < length:
            k = int(min(tt, last))
            if abs(v[i] - v0f) < widths[k] * F32(0.5):
                inside[i] = True
                total += float(weights[i])
    return inside, total


@njit(cache=True)
def rim_support(pts, normals, dx, dy, gx, gy, half):
    """The sum over an outline's rim points (``pts`` shifted by ``dx``, ``dy``, each rounded
    to its pixel and held inside the window) of how much the gradient across the rim (along
    ``normals``) looks like an edge, s / (s + half) - 0.5."""
    h, w = gx.shape
    total = 0.0
    for i in range(pts.shape[0]):
        x = int(np.rint(pts[i, 0] + dx))
        y = int(np.rint(pts[i, 1] + dy))
        x = min(max(x, 0), w - 1)
        y = min(max(y, 0), h - 1)
        s = abs(float(gx[y, x]) * normals[i, 0] + float(gy[y, x]) * normals[i, 1])
        total += s / (s + half) - 0.5
    return total
