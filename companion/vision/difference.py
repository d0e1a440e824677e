"""The frame's difference from the empty tray as lit now, compiled (segment.py, step 2).

Worked as whole-frame OpenCV and numpy passes (the lit tray, the difference, its channels
apart, each scaled by its noise, their largest) it was seven passes over 2.7 MB float images;
compiled by numba it is one pass that reads the frame's bytes and writes one float per pixel,
with the same float32 arithmetic to the last bit (bg * gain, |frame - that|, times 1 / noise,
the largest of the three). tests/test_vision_difference.py checks it against those passes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

F32 = np.float32


@njit(cache=True)
def difference_sample(frame8, tray, gain, step):
    """|frame - tray * gain| at every ``step``-th pixel of every ``step``-th row, per channel:
    (3, n) float32 (``frame8``: the frame's bytes; ``tray``, ``gain``: float32 BGR images)."""
    h, w = frame8.shape[0], frame8.shape[1]
    out = np.empty((3, ((h + step - 1) // step) * ((w + step - 1) // step)), np.float32)
    k = 0
    for y in range(0, h, step):
        for x in range(0, w, step):
            for c in range(3):
                out[c, k] = abs(F32(frame8[y, x, c]) - tray[y, x, c] * gain[y, x, c])
            k += 1
    return out


@njit(cache=True)
def noise_units(frame8, tray, gain, inv_noise):
    """Per pixel, the largest of its channels' differences from the lit tray, each in units of
    that channel's noise (``inv_noise``: 1 / noise, float32 per channel): (h, w) float32."""
    h, w = frame8.shape[0], frame8.shape[1]
    n = h * w
    f = frame8.reshape(n * 3)     # (flat: the loop is compiled to vector instructions)
    t = tray.reshape(n * 3)
    g = gain.reshape(n * 3)
    z = np.empty(n, np.float32)
    i0, i1, i2 = inv_noise[0], inv_noise[1], inv_noise[2]
    for p in range(n):
        k = 3 * p
        v0 = abs(F32(f[k]) - t[k] * g[k]) * i0
        v1 = abs(F32(f[k + 1]) - t[k + 1] * g[k + 1]) * i1
        v2 = abs(F32(f[k + 2]) - t[k + 2] * g[k + 2]) * i2
        m = v0 if v0 >= v1 else v1
        z[p] = m if m >= v2 else v2
    return z.reshape(h, w)


@njit(cache=True)
def _mean3(frame8, y, x, c):
    """The 3x3 mean of one channel at (y, x) as cv2.boxFilter(frame8, CV_32F, (3, 3)) gives it:
    the whole sum times float32(1/9), the border mirrored without repeating the edge."""
    h, w = frame8.shape[0], frame8.shape[1]
    total = 0
    for dy in (-1, 0, 1):
        yy = y + dy
        yy = 1 if yy < 0 else (h - 2 if yy >= h else yy)
        for dx in (-1, 0, 1):
            xx = x + dx
            xx = 1 if xx < 0 else (w - 2 if xx >= w else xx)
            total += frame8[yy, xx, c]
    return F32(total) * F32(1 / 9)


@njit(cache=True)
def shadow_like_at(frame8, tray3, gain, at, noise):
    """Which of the pixels ``at`` (flat indices) look like the tray in shade: every channel of
    the frame's 3x3 mean darker than the tray's (``tray3``: the empty tray's 3x3 mean, lit by
    ``gain``) by about the same ratio, within the noise of a 3x3 mean (``noise``: the frame's
    largest channel noise), and not too much darker."""
    w = frame8.shape[1]
    out = np.empty(len(at), np.bool_)
    third = F32(noise / 3.0)
    for k in range(len(at)):
        y, x = at[k] // w, at[k] % w
        lit0 = tray3[y, x, 0] * gain[y, x, 0]
        lit1 = tray3[y, x, 1] * gain[y, x, 1]
        lit2 = tray3[y, x, 2] * gain[y, x, 2]
        level = lit0 * F32(0.114) + lit1 * F32(0.587) + lit2 * F32(0.299) + F32(2.0)
        r0 = (_mean3(frame8, y, x, 0) + F32(2.0)) / (lit0 + F32(2.0))
        r1 = (_mean3(frame8, y, x, 1) + F32(2.0)) / (lit1 + F32(2.0))
        r2 = (_mean3(frame8, y, x, 2) + F32(2.0)) / (lit2 + F32(2.0))
        rmax = max(r0, r1, r2)
        rmin = min(r0, r1, r2)
        rel = third / level                  # the noise of a 3x3 mean, as a ratio
        out[k] = rmax < F32(1.0) + F32(4) * rel and rmin > F32(0.58) and rmax - rmin < F32(0.03) + F32(5) * rel
    return out
