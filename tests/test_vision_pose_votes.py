"""The compiled votes of a pose (vision/pose_votes.py) against the numpy passes they replaced
in vision/placing.py: the same pixels inside, the same rim pixels, the sums as close as the
numpy's own float32 rounding."""
from __future__ import annotations

import numpy as np
import pytest

from companion.vision.pose_votes import inside_votes, rim_support

VOTES = np.array([1.0, 0.5, -0.35, -1.0, -1.5], np.float32)    # fit.py's votes, target 0 or 1 added


def numpy_inside(u, v, t0, v0, direction, widths, weights):
    """placing.Window._place as it was written in numpy."""
    tt = (u - t0) * direction
    idx = np.minimum(np.maximum(tt, 0), len(widths) - 1).astype(np.int32)
    inside = (tt >= 0) & (tt < len(widths)) & (np.abs(v - v0) < widths[idx] * 0.5)
    return inside, float(weights @ inside)


def numpy_rim(pts, normals, dx, dy, gx, gy, half):
    """placing.Window.edge_votes as it was written in numpy (without its weight)."""
    h, w = gx.shape
    xi = np.minimum(np.maximum(np.rint(pts[:, 0] + dx).astype(np.int32), 0), w - 1)
    yi = np.minimum(np.maximum(np.rint(pts[:, 1] + dy).astype(np.int32), 0), h - 1)
    s = np.abs(gx[yi, xi] * normals[:, 0] + gy[yi, xi] * normals[:, 1])
    return float(np.sum(s / (s + half) - 0.5))


@pytest.mark.parametrize("seed", range(6))
def test_the_pixels_inside_and_their_votes_are_numpys(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 3000))
    u = rng.uniform(-60, 60, n).astype(np.float32)
    v = rng.uniform(-20, 20, n).astype(np.float32)
    widths = rng.uniform(4, 24, int(rng.integers(20, 90))).astype(np.float32)
    weights = (rng.choice(VOTES, n) + rng.integers(0, 2, n)).astype(np.float32)
    for _ in range(20):
        t0, v0, direction = float(rng.uniform(-70, 30)), float(rng.uniform(-8, 8)), int(rng.choice([-1, 1]))
        inside, total = inside_votes(u, v, t0, v0, direction, widths, weights)
        want_inside, want_total = numpy_inside(u, v, t0, v0, direction, widths, weights)
        assert np.array_equal(inside, want_inside)
        # exact here (float64 over float32 votes); numpy's float32 dot rounds as it goes
        assert total == float(np.sum(weights[want_inside], dtype=np.float64))
        assert total == pytest.approx(want_total, rel=1e-5, abs=1e-3)


def test_a_pose_off_the_pixels_holds_none():
    u = np.linspace(0, 10, 40, dtype=np.float32)
    v = np.zeros(40, np.float32)
    inside, total = inside_votes(u, v, 100.0, 0.0, 1, np.full(8, 6.0, np.float32), np.ones(40, np.float32))
    assert not inside.any() and total == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_the_rim_support_is_numpys(seed):
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(20, 80)), int(rng.integers(20, 80))
    gx = rng.normal(0, 3, (h, w)).astype(np.float32)
    gy = rng.normal(0, 3, (h, w)).astype(np.float32)
    m = int(rng.integers(10, 200))
    pts = rng.uniform(-10, max(h, w) + 10, (m, 2))          # some beyond the window: held at its edge
    angle = rng.uniform(0, np.pi, m)
    normals = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    pts[:5] = np.round(pts[:5]) + 0.5                       # halves: rounded to even, as np.rint does
    for dx, dy in ((0.0, 0.0), (2.5, -1.5), (-30.0, 40.0)):
        got = rim_support(pts, normals, dx, dy, gx, gy, 3.0)
        assert got == pytest.approx(numpy_rim(pts, normals, dx, dy, gx, gy, 3.0), rel=1e-12, abs=1e-12)
