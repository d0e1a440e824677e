"""The numeric core of measuring a piece (features.py), compiled: its width slice by slice
along its axis, the brightness across its body, and the colour of its lit body.

Measuring is most of the splitting's time, and as some sixty numpy calls on a piece's few
thousand pixels it was mostly the calls' own cost; compiled by numba it is one call. Every
step keeps numpy's arithmetic to the last bit, so that the features are those the pipeline
was tuned on: float32 where numpy worked in float32 (a Python number beside a float32 array
is taken as float32, NEP 50), float64 where numpy's bincount and means summed, numpy's
pairwise summation for float32 sums, and Python's rounding (half to even) for ranks.
tests/test_vision_piece_profile.py holds the numpy formulation it replaced and checks the
two against each other.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

F32 = np.float32


@njit(cache=True)
def _block(a, lo, n):
    """numpy's pairwise sum of at most 128 float32 (or float64) values a[lo:lo + n]: one after
    the other below 8, else in 8 running sums combined as a tree, then the rest one after the
    other."""
    if n < 8:
        res = F32(-0.0)
        for i in range(n):
            res += a[lo + i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True)
def _pairwise(a, lo, n):
    """numpy's pairwise sum of the float32 values a[lo:lo + n]: above 128 values, the sum of
    the two halves' (the first a multiple of 8 long), worked without recursion (numba's cache
    does not keep recursive functions safely)."""
    if n <= 128:
        return _block(a, lo, n)
    starts = np.empty(64, np.int64)
    counts = np.empty(64, np.int64)
    stage = np.zeros(64, np.int64)
    sums = np.empty(64, np.float32)
    top, done = 0, 0
    starts[0], counts[0] = lo, n
    while top >= 0:
        at, m = starts[top], counts[top]
        if m <= 128:
            sums[done] = _block(a, at, m)
            done += 1
            top -= 1
            continue
        half = m // 2
        half -= half % 8
        if stage[top] < 2:                   # the first half, then the second, to be summed
            first = stage[top] == 0
            stage[top] += 1
            top += 1
            starts[top] = at if first else at + half
            counts[top] = half if first else m - half
            stage[top] = 0
            continue
        sums[done - 2] = sums[done - 2] + sums[done - 1]
        done -= 1
        top -= 1
    return sums[0]


@njit(cache=True)
def sum32(a, lo, hi):
    """``a[lo:hi].sum()`` of a float32 array, as numpy sums it."""
    return _pairwise(a, lo, hi - lo)


@njit(cache=True)
def _rank(n, q):
    """The nearest rank of the q-quantile of n values (selection.quantile's)."""
    return min(n - 1, max(0, round(q * (n - 1))))


@njit(cache=True)
def _across(at, lum, n):
    """Mean brightness in n equal slices across the body (``at``: 0 to 1 across); an empty
    slice takes the mean of the others."""
    cnt = np.zeros(n, np.int64)
    sums = np.zeros(n, np.float64)
    for i in range(len(at)):
        b = min(max(np.int32(at[i] * F32(n)), 0), n - 1)
        cnt[b] += 1
        sums[b] += np.float64(lum[i])
    prof = np.empty(n, np.float64)
    filled = 0
    for b in range(n):
        prof[b] = sums[b] / np.float64(F32(max(cnt[b], 1)))
        filled += cnt[b] > 0
    if filled == n:
        return prof
    # the filled slices' mean as numpy takes it: eight of nine are summed as a tree (_block)
    filled_prof = np.empty(filled, np.float64)
    j = 0
    for b in range(n):
        if cnt[b] > 0:
            filled_prof[j] = prof[b]
            j += 1
    mean = _block(filled_prof, 0, filled) / filled
    for b in range(n):
        if cnt[b] == 0:
            prof[b] = mean
    return prof


@njit(cache=True)
def _relative_spread(v):
    """Standard deviation over mean (the mean at least 1e-3), summed one after the other."""
    total = 0.0
    for x in v:
        total += x
    mean = total / len(v)
    squares = 0.0
    for x in v:
        squares += (x - mean) * (x - mean)
    return math.sqrt(squares / len(v)) / max(mean, 1e-3)


@njit(cache=True)
def _select(v, k):
    """Puts the k-th smallest of ``v`` (a scratch copy, reordered in place) at v[k], the
    smaller ones before it and the larger after (numba's np.partition does the same, but takes
    seconds longer to compile than the whole measuring)."""
    lo, hi = 0, len(v) - 1
    while lo < hi:
        mid = (lo + hi) // 2                  # the median of three as the pivot
        if v[mid] < v[lo]:
            v[mid], v[lo] = v[lo], v[mid]
        if v[hi] < v[lo]:
            v[hi], v[lo] = v[lo], v[hi]
        if v[hi] < v[mid]:
            v[hi], v[mid] = v[mid], v[hi]
        pivot = v[mid]
        i, j = lo, hi
        while i <= j:
            while v[i] < pivot:
                i += 1
            while v[j] > pivot:
                j -= 1
            if i <= j:
                v[i], v[j] = v[j], v[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return v[k]


@njit(cache=True)
def _median32(v):
    """The median of float32 values, as numpy's (the mean of the middle two, in float32)."""
    s = v.copy()
    k = len(s) // 2
    upper = _select(s, k)
    if len(s) % 2:
        return upper
    return (s[:k].max() + upper) / F32(2)


@njit(cache=True)
def profiles(t, s, lum, col):
    """A piece's profiles, its pixels given by their position along the axis ``t`` and across
    it ``s`` (float32, from the mean), their brightness ``lum`` and relit colours ``col``
    (n x 3, float32). Returns (ok, flipped, length, width, neck, shoulder, flat, edge, b, g,
    r, widths): ok False when the piece is too thin to measure; flipped when the axis was
    turned so that the narrow end (a bottle's neck) is last; widths the slices' widths,
    wide end first."""
    n = len(t)
    least = t[0]
    for i in range(1, n):
        least = min(least, t[i])
    t0 = math.floor(least)
    # soft binning: each pixel's unit area shared by the two nearest slices
    tb = np.empty(n, np.int32)
    frac = np.empty(n, np.float64)
    top = 0
    for i in range(n):
        pos = t[i] - F32(t0)
        tb[i] = np.int32(pos)
        frac[i] = np.float64(pos) - np.float64(tb[i])
        top = max(top, tb[i])
    first = np.zeros(top + 2, np.float64)
    second = np.zeros(top + 2, np.float64)
    for i in range(n):
        first[tb[i]] += 1.0 - frac[i]
        second[tb[i] + 1] += frac[i]
    w_all = np.empty(top + 2, np.float32)
    for k in range(top + 2):
        w_all[k] = F32(first[k] + second[k])
    W = _select(w_all.copy(), _rank(len(w_all), 0.85))
    if W <= 2:
        return False, False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, w_all[:0]
    lo, hi = -1, -1
    for k in range(len(w_all)):
        if w_all[k] >= F32(0.25) * W:
            if lo < 0:
                lo = k
            hi = k
    m = hi - lo + 1
    w = np.empty(m, np.float32)
    L = float(m)
    q = max(1, round(m * 0.22))
    flipped = sum32(w_all, lo, lo + q) / F32(q) < sum32(w_all, hi + 1 - q, hi + 1) / F32(q)
    for k in range(m):
        w[k] = w_all[hi - k] if flipped else w_all[lo + k]
    tlo = -(hi + t0 + 1) if flipped else lo + t0
    neck = sum32(w, m - q, m) / F32(q) / W
    a, b = int(m * 0.55), int(m * 0.75)
    b = max(b, a + 1)
    shoulder = sum32(w, a, b) / F32(b - a) / W
    # brightness across the body (the wide end, away from the ends)
    body = np.zeros(n, np.bool_)
    n_body = 0
    span = F32(max(L, 1.0))
    for i in range(n):
        ti = -t[i] if flipped else t[i]
        tn = (ti - F32(tlo)) / span
        if tn > F32(0.12) and tn < F32(0.5):
            body[i] = True
            n_body += 1
    flat, edge = 0.0, 0.0
    if n_body > 20:
        at = np.empty(n_body, np.float32)
        lum_body = np.empty(n_body, np.float32)
        j = 0
        half = F32(W / 2)
        for i in range(n):
            if body[i]:
                at[j] = (s[i] / half + F32(1)) / F32(2)
                lum_body[j] = lum[i]
                j += 1
        prof = _across(at, lum_body, 7)
        brightest = 1.0
        for k in range(7):
            brightest = max(brightest, prof[k])
        core = np.empty(5, np.float64)
        for k in range(5):
            core[k] = prof[k + 1] / brightest
        flat = _relative_spread(core)
        rim = _across(at, lum_body, 9)
        middle = -0.0
        for k in range(3, 6):
            middle += rim[k]
        edge = (rim[1] + rim[7]) / 2 / max(middle / 3, 1.0)
    # colour of the body: the lit part, without highlights and shaded edges
    inner = np.zeros(n, np.bool_)
    n_inner = 0
    if n_body > 40:
        reach = F32(W * 0.35)
        for i in range(n):
            inner[i] = body[i] and abs(s[i]) < reach
            n_inner += inner[i]
    if n_inner == 0:
        inner[:] = True
        n_inner = n
    li = np.empty(n_inner, np.float32)
    j = 0
    for i in range(n):
        if inner[i]:
            li[j] = lum[i]
            j += 1
    hi_l = _select(li, _rank(n_inner, 0.80))
    lo_l = _select(li, _rank(n_inner, 0.30))
    n_sel = 0
    for i in range(n):
        n_sel += inner[i] and lum[i] >= lo_l and lum[i] <= hi_l
    lit = n_sel >= 5                       # else the whole inner part
    picked = np.empty((3, n_sel if lit else n_inner), np.float32)
    j = 0
    for i in range(n):
        if inner[i] and (not lit or (lum[i] >= lo_l and lum[i] <= hi_l)):
            for c in range(3):
                picked[c, j] = col[i, c]
            j += 1
    colour = np.empty(3, np.float32)
    for c in range(3):
        colour[c] = _median32(picked[c])
    return (True, flipped, L, float(W), float(neck), float(shoulder), flat, edge,
            float(colour[0]), float(colour[1]), float(colour[2]), w)
