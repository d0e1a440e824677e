"""Sizes corrected for a tilted camera (``features.size_factor``, ``calibrate.fit_size_field``):
a camera that looks at the tray a little from one side sees the drinks on that side larger,
by several percent across the view, which is as much as the length of one drink differs from
the next. Calibration learns the gradient from where the 36 drinks happened to lie."""
from __future__ import annotations

import numpy as np
import pytest

from companion.drinks import COLOURS, DRINK_IDS, SHAPES
from companion.sim.looks import Look, Lighting, Placement
from companion.sim.render import Renderer
from companion.sim.scenes import write_calibration_set
from companion.vision.calibrate import calibrate_dir, fit_size_field
from companion.vision.drinks import identify

SHAPE = (360, 640)       # working image, rows x columns


def _features(rng, positions, field, noise=0.01):
    """Synthetic calibration features: each shape a length and width, each colour a little
    larger or smaller, seen through ``field`` at the given places."""
    length = dict(zip([s.value for s in SHAPES], [40.0, 52.0, 66.0, 70.0, 82.0, 97.0]))
    size = dict(zip([c.value for c in COLOURS], rng.uniform(0.97, 1.03, len(COLOURS))))
    out = {}
    for d, (cx, cy) in zip(DRINK_IDS, positions):
        colour, shape = d.split("-", 1)
        k = np.exp(field[0] * (cx / SHAPE[1] - 0.5) + field[1] * (cy / SHAPE[0] - 0.5)) * size[colour]
        out[d] = {"length": length[shape] * k * np.exp(rng.normal(0, noise)),
                  "width": 30.0 * k * np.exp(rng.normal(0, noise)), "cx": cx, "cy": cy}
    return out


def test_the_gradient_is_recovered_from_drinks_lying_anywhere():
    rng = np.random.default_rng(5)
    places = np.column_stack([rng.uniform(60, 580, 36), rng.uniform(40, 320, 36)])
    a, b = fit_size_field(_features(rng, places, (0.12, -0.07)), SHAPE)
    assert a == pytest.approx(0.12, abs=0.02) and b == pytest.approx(-0.07, abs=0.02)


def test_one_bad_photo_does_not_tilt_the_gradient():
    rng = np.random.default_rng(6)
    places = np.column_stack([rng.uniform(60, 580, 36), rng.uniform(40, 320, 36)])
    features = _features(rng, places, (0.0, 0.0))
    worst = max(features, key=lambda d: features[d]["cx"])
    features[worst] = {**features[worst], "length": features[worst]["length"] * 1.3}   # two drinks in one piece
    a, b = fit_size_field(features, SHAPE)
    assert abs(a) < 0.02 and abs(b) < 0.02


def test_drinks_photographed_in_one_place_give_no_gradient():
    # all 36 in the middle of the tray: the places cannot tell a gradient from the drinks'
    # own sizes, and none is assumed
    rng = np.random.default_rng(7)
    places = np.column_stack([rng.uniform(310, 330, 36), rng.uniform(170, 190, 36)])
    a, b = fit_size_field(_features(rng, places, (0.0, 0.0), noise=0.02), SHAPE)
    assert abs(a) < 0.03 and abs(b) < 0.03


def _lengths(renderer, profile, hx):
    """The measured length of one red tall can laid at the left and the right of the view,
    pointing across the view and along it (0 and 90 degrees)."""
    out = {}
    for angle in (0.0, 90.0):
        for side in (-1, 1):
            rng = np.random.default_rng(11)
            image, _ = renderer.render([Placement("red-tall_can", side * hx, 0.0, angle)], Lighting.steady(rng), rng=rng)
            (found,) = identify(image, profile, debug=True)
            assert (found["color"], found["shape"], found["unsure"]) == ("red", "tall_can", False)
            out[angle, side] = found["_f"]["length"]
    return out


def test_a_drink_measures_the_same_anywhere_in_a_tilted_view(tmp_path):
    # seed 8003: the camera leans so that drinks at the right look about a tenth longer than
    # at the left when they point across the view, half that when they point along it
    look = Look.from_seed(8003)
    write_calibration_set(tmp_path, look, 8003)
    profile = calibrate_dir(tmp_path)
    a, b = profile.stats["size_field"]
    assert a > 0.08 and abs(b) < 0.03
    renderer = Renderer(look)
    hx = renderer.mm_half[0] * 0.75
    lengths = _lengths(renderer, profile, hx)
    assert max(lengths.values()) / min(lengths.values()) < 1.01
    # without the correction the one at the right measures longer, the more so across the view
    profile.stats.pop("size_field")
    profile._cache.clear()
    raw = _lengths(renderer, profile, hx)
    assert raw[0.0, 1] / raw[0.0, -1] > 1.08 and 1.03 < raw[90.0, 1] / raw[90.0, -1] < 1.07
