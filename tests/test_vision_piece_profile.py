"""The compiled core of measuring a piece (vision/piece_profile.py) against the numpy
formulation it replaced, kept here as the reference: the same numbers to the last bit, on
pieces of every size, shape, angle and shading, and numpy's own float32 sums."""
from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.vision.features import LUMA
from companion.vision import piece_profile
from companion.vision.piece_profile import profiles, sum32


# --- the numpy formulation (features.py before the kernel) -------------------------------------

def _rank_value(a, q):
    k = min(len(a) - 1, max(0, int(round(q * (len(a) - 1)))))
    return float(np.partition(a, k)[k])


def _across(at, lum, n):
    bins = np.minimum(np.maximum((at * n).astype(np.int32), 0), n - 1)
    cnt = np.bincount(bins, minlength=n).astype(np.float32)
    prof = np.bincount(bins, weights=lum, minlength=n) / np.maximum(cnt, 1)
    return prof if cnt.all() else np.where(cnt > 0, prof, prof[cnt > 0].mean())


def _relative_spread(values):
    # (worked in plain Python floats before, as now: the kernel's own function, run as Python)
    return piece_profile._relative_spread.py_func(values)


def numpy_profiles(t, s, lum, col):
    t0 = math.floor(t.min())
    pos = t - t0
    tb = pos.astype(np.int32)
    frac = pos - tb
    w = (np.bincount(tb, 1.0 - frac, minlength=tb.max() + 2) + np.bincount(tb + 1, frac, minlength=tb.max() + 2))
    w = w.astype(np.float32)
    W = _rank_value(w, 0.85)
    if W <= 2:
        return None
    ends = np.nonzero(w >= 0.25 * W)[0]
    lo, hi = int(ends[0]), int(ends[-1])
    w = w[lo:hi + 1]
    L = float(len(w))
    q = max(1, int(round(len(w) * 0.22)))
    flipped = bool(w[:q].sum() / q < w[-q:].sum() / q)
    if flipped:
        w = w[::-1]
        t = -t
        tlo = -(hi + t0 + 1)
    else:
        tlo = lo + t0
    neck = float(w[-q:].sum() / q / W)
    a, b = int(len(w) * 0.55), int(len(w) * 0.75)
    shoulder = float(w[a:max(b, a + 1)].sum() / (max(b, a + 1) - a) / W)
    tn = (t - tlo) / max(L, 1.0)
    body = (tn > 0.12) & (tn < 0.5)
    flat, edge = 0.0, 0.0
    n_body = int(np.count_nonzero(body))
    if n_body > 20:
        across_at = (s[body] / (W / 2) + 1) / 2
        prof = _across(across_at, lum[body], 7)
        flat = _relative_spread(prof[1:6] / max(float(prof.max()), 1.0))
        rim = _across(across_at, lum[body], 9)
        edge = float((rim[1] + rim[7]) / 2 / max(rim[3:6].sum() / 3, 1.0))
    inner = body & (np.abs(s) < W * 0.35) if n_body > 40 else np.ones_like(lum, bool)
    if not inner.any():
        inner = np.ones_like(lum, bool)
    lo_l, hi_l = _rank_value(lum[inner], 0.30), _rank_value(lum[inner], 0.80)
    sel = inner & (lum >= lo_l) & (lum <= hi_l)
    if sel.sum() < 5:
        sel = inner
    colour = np.median(col[sel], axis=0)
    return (flipped, L, W, neck, shoulder, flat, edge, *(float(c) for c in colour)), np.ascontiguousarray(w)


# --- pieces as measure_pixels sees them --------------------------------------------------------

def _piece(length, width, angle, taper, shade, colour, seed):
    """A drink-like blob (a body, and a narrower neck when ``taper`` < 1) lying at ``angle``,
    shaded across like a cylinder (``shade``), in ``colour`` with noise: the pixels' offsets
    along and across its principal axis, brightness and colours, as measure_pixels makes them."""
    rng = np.random.default_rng(seed)
    size = int(length + width) + 8
    m = np.zeros((size, size), np.uint8)
    c = (size / 2, size / 2)
    cv2.ellipse(m, (c, (length * 0.7, width), angle), 255, -1)
    u = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    neck = (c[0] + u[0] * length * 0.35, c[1] + u[1] * length * 0.35)
    cv2.ellipse(m, (neck, (length * 0.4, max(3.0, width * taper)), angle), 255, -1)
    ys, xs = np.nonzero(m)
    xy = np.column_stack((xs, ys)).astype(np.float32)
    d = xy - xy.mean(axis=0)
    cov = d.T @ d / len(d)
    _, vecs = np.linalg.eigh(cov)
    e1 = vecs[:, 1].astype(np.float32)
    t = d @ e1
    s = d @ np.array([-e1[1], e1[0]], np.float32)
    across = np.clip(np.abs(s) / (width / 2 + 1e-3), 0, 1)
    light = 1.0 - shade * across ** 2
    col = (np.asarray(colour, np.float32)[None, :] * light[:, None]
           + rng.normal(0, 4, (len(d), 3))).astype(np.float32)
    return t.astype(np.float32), s.astype(np.float32), col @ LUMA, col


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(length=st.floats(12, 160), width=st.floats(4, 60), angle=st.floats(0, 180), taper=st.floats(0.3, 1.0),
       shade=st.floats(0, 0.8), colour=st.tuples(*[st.floats(5, 250)] * 3), seed=st.integers(0, 2**16))
# a piece so thin that one of the nine slices across it stays empty: it takes the mean of the
# eight others, which numpy sums as a tree (a sum one after the other differed in the last bit)
@example(length=70.0, width=4.0, angle=0.75, taper=1.0, shade=0.0, colour=(5.0, 6.0, 6.0), seed=0)
def test_the_compiled_profiles_are_numpys_to_the_last_bit(length, width, angle, taper, shade, colour, seed):
    t, s, lum, col = _piece(length, width, angle, taper, shade, colour, seed)
    expected = numpy_profiles(t, s, lum, col)
    ok, *got, widths = profiles(t, s, lum, col)
    if expected is None:
        assert not ok
        return
    assert ok
    assert tuple(got) == expected[0]
    assert np.array_equal(widths, expected[1])


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.floats(0, 1e4, width=32), min_size=1, max_size=700), cut=st.tuples(st.floats(0, 1), st.floats(0, 1)))
def test_float32_sums_are_numpys(values, cut):
    a = np.array(values, np.float32)
    lo, hi = sorted(int(c * len(a)) for c in cut)
    hi = max(hi, lo + 1) if lo < len(a) else len(a)
    if lo >= hi:
        return
    assert sum32(a, lo, hi) == a[lo:hi].sum()
