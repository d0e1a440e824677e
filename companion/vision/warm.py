"""Compiles the vision's numba kernels (difference.py, piece_profile.py, pose_votes.py) before
any frame needs them, or loads them from numba's cache beside the code: ``python -m
companion.vision.warm``. make runs it before the tests and the service: compiling takes some
20 s on a slow machine, and a service that met it on its first frames would fall that far
behind the camera (a test watching the tray would give up on the drop). Cached, it takes
about a second."""
from __future__ import annotations

import time

import numpy as np

from .difference import difference_sample, noise_units, shadow_like_at
from .piece_profile import profiles
from .pose_votes import inside_votes, rim_support


def warm() -> float:
    """Runs every kernel once on a made-up piece and frame; the seconds it took."""
    start = time.monotonic()
    rng = np.random.default_rng(0)
    n = 400
    t = rng.normal(0, 20, n).astype(np.float32)
    s = rng.normal(0, 6, n).astype(np.float32)
    col = rng.uniform(20, 220, (n, 3)).astype(np.float32)
    profiles(t, s, col[:, 1].copy(), col)
    frame = rng.integers(0, 256, (12, 16, 3), dtype=np.uint8)
    tray = rng.uniform(20, 220, (12, 16, 3)).astype(np.float32)
    gain = np.ones((12, 16, 3), np.float32)
    difference_sample(frame, tray, gain, 4)
    noise_units(frame, tray, gain, np.ones(3, np.float32))
    shadow_like_at(frame, tray, gain, np.arange(12 * 16), 2.0)
    inside_votes(t, s, 1.0, 0.0, 1, np.full(30, 8.0, np.float32), col[:, 0].copy())
    rim_support(col[:, :2].astype(np.float64), np.ones((n, 2)), 1.0, 0.0, tray[..., 0].copy(),
                tray[..., 1].copy(), 3.0)
    return time.monotonic() - start


if __name__ == "__main__":
    print(f"vision kernels ready ({warm():.1f} s)")
