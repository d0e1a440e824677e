"""The compiled difference from the tray (vision/difference.py) against the OpenCV and numpy
passes it replaced, kept here as the reference: the same numbers to the last bit."""
from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.difference import difference_sample, noise_units, shadow_like_at


def _scene(seed, h, w, shade=0.7):
    """A frame's bytes, an empty tray (float32, as the profile keeps it) and a smooth gain,
    with a darker patch (a shadow) and a coloured one (a drink) on the tray."""
    rng = np.random.default_rng(seed)
    tray = rng.integers(20, 230, (h, w, 3)).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = np.stack([0.8 + 0.4 * xx / w, 0.9 + 0.2 * yy / h, 1.1 - 0.3 * xx / w], axis=2).astype(np.float32)
    frame = tray * gain + rng.normal(0, 3, (h, w, 3))
    frame[h // 4:h // 2, w // 4:w // 2] *= shade
    frame[h // 2:, w // 2:] = (40, 200, 90)
    return np.clip(frame, 0, 255).astype(np.uint8), tray, gain


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), h=st.integers(3, 40), w=st.integers(3, 40))
def test_the_noise_units_are_the_opencv_passes(seed, h, w):
    frame8, tray, gain = _scene(seed, h, w)
    ad = cv2.absdiff(frame8.astype(np.float32), cv2.multiply(tray, gain))
    planes = cv2.split(ad)
    sample = difference_sample(frame8, tray, gain, 4)
    for c in range(3):
        assert np.array_equal(sample[c], planes[c][::4, ::4].ravel())
    sigma = np.array([1.7, 2.3, 4.1], np.float32)
    scaled = [p * (1 / s) for p, s in zip(planes, sigma)]
    assert np.array_equal(noise_units(frame8, tray, gain, 1 / sigma),
                          cv2.max(cv2.max(scaled[0], scaled[1]), scaled[2]))


def _shadow_like_in_numpy(frame8, tray3, gain, at, noise):
    mean3 = cv2.boxFilter(frame8, cv2.CV_32F, (3, 3)).reshape(-1, 3)[at]
    lit = tray3.reshape(-1, 3)[at] * gain.reshape(-1, 3)[at]
    level = lit[:, 0] * np.float32(0.114) + lit[:, 1] * np.float32(0.587) + lit[:, 2] * np.float32(0.299) + 2.0
    ratio = (mean3 + 2.0) / (lit + 2.0)
    rmax, rmin = ratio.max(axis=1), ratio.min(axis=1)
    rel = noise / 3.0 / level
    return (rmax < 1.0 + 4 * rel) & (rmin > 0.58) & ((rmax - rmin) < 0.03 + 5 * rel)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), h=st.integers(3, 40), w=st.integers(3, 40), shade=st.floats(0.5, 0.95))
def test_the_shadow_test_is_the_numpy_one_at_every_pixel_edges_too(seed, h, w, shade):
    frame8, tray, gain = _scene(seed, h, w, shade)
    tray3 = cv2.blur(tray, (3, 3))
    at = np.arange(h * w)
    got = shadow_like_at(frame8, tray3, gain, at, 3.4)
    assert np.array_equal(got, _shadow_like_in_numpy(frame8, tray3, gain, at, 3.4))


def test_the_shadowed_patch_is_shadow_like_and_the_drink_is_not():
    frame8, tray, gain = _scene(7, 48, 64)
    tray = cv2.blur(cv2.blur(tray, (5, 5)), (5, 5))          # a smooth tray: shade is plain on it
    frame8 = np.clip(tray * gain, 0, 255).astype(np.uint8)
    frame8[12:24, 16:32] = (frame8[12:24, 16:32] * 0.7).astype(np.uint8)
    frame8[24:, 32:] = (40, 200, 90)
    shade = shadow_like_at(frame8, cv2.blur(tray, (3, 3)), gain, np.arange(48 * 64), 2.0).reshape(48, 64)
    assert shade[14:22, 18:30].mean() > 0.9
    assert not shade[26:, 34:].any()
