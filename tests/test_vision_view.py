"""What the view and the light do to a drink's measurements, learnt in calibration from where
and at which angle the 36 drinks happened to lie:

* sizes corrected for a tilted camera (``features.size_factor``, ``view.fit_size_field``):
  a camera that looks at the tray a little from one side sees the drinks on that side larger,
  by several percent across the view, as much as one drink's length differs from the next;
* a round drink's shading turns with its angle to the light (``features.angle_shift``,
  ``view.fit_angle_effect``): lying across the light it looks flatter than lying along it.
"""
from __future__ import annotations

import numpy as np
import pytest

from companion.drinks import COLOURS, DRINK_IDS, SHAPES
from companion.sim.looks import Look, Lighting, Placement
from companion.sim.render import Renderer
from companion.vision.view import fit_angle_effect, fit_size_field
from companion.vision.classify import distances
from companion.vision.drinks import identify
from companion.vision.features import SHAPE_FEATURES, angle_shift, shape_vector

from vision_support import calibrated

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


def test_a_drink_measures_the_same_anywhere_in_a_tilted_view():
    # seed 8003: the camera leans so that drinks at the right look about a tenth longer than
    # at the left when they point across the view, half that when they point along it
    look = Look.from_seed(8003)
    profile = calibrated(8003)
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


def _round_features(rng, effect, noise=0.02):
    """Synthetic calibration features of the 36 drinks, each at a random angle: log flat and
    edge a shape's plus a colour's value, plus ``effect`` for the round ones."""
    out = {}
    for i, d in enumerate(DRINK_IDS):
        a = rng.uniform(0, np.pi)
        axis = (float(np.cos(a)), float(np.sin(a)))
        shift = angle_shift(effect, axis) if not d.endswith("square_bottle") else np.zeros(len(SHAPE_FEATURES))
        k_flat, k_edge = SHAPE_FEATURES.index("flat"), SHAPE_FEATURES.index("edge")
        log_flat = -1.5 - 0.1 * (i % 6) + shift[k_flat] + rng.normal(0, noise)
        out[d] = {"length": 80.0, "width": 30.0, "neck": 0.5, "shoulder": 0.7, "flat": float(np.exp(log_flat) - 0.02),
                  "edge": 0.7 + 0.01 * (i % 6) + shift[k_edge] + rng.normal(0, noise / 5), "axis": axis}
    return out


def test_the_angle_effect_is_recovered_from_drinks_at_random_angles():
    rng = np.random.default_rng(8)
    effect = fit_angle_effect(_round_features(rng, {"flat": [-0.25, 0.5], "edge": [0.03, -0.05]}))
    assert effect["flat"] == pytest.approx([-0.25, 0.5], abs=0.05)
    assert effect["edge"] == pytest.approx([0.03, -0.05], abs=0.01)


def test_no_angle_effect_is_assumed_where_the_photos_show_none():
    rng = np.random.default_rng(9)
    assert fit_angle_effect(_round_features(rng, {})) == {}


def _can_at(renderer, angle):
    rng = np.random.default_rng(12)
    image, _ = renderer.render([Placement("blue-tall_can", 0.0, 0.0, angle)], Lighting.steady(rng), rng=rng)
    return image


def test_a_can_reads_alike_across_and_along_the_light():
    # seed 8003 (the tilted view's table above, whose profile is built once for both tests): a
    # can lying one way looks markedly flatter than lying the other way; the calibrated angle
    # effect makes both fit the can as calibrated
    look = Look.from_seed(8003)
    profile = calibrated(8003)
    effect = profile.stats["angle_effect"]
    c, s = effect["flat"]
    renderer = Renderer(look)
    worst = np.degrees(np.arctan2(s, c)) / 2          # the angle at which the effect is largest
    k = SHAPE_FEATURES.index("flat")
    seen, fits = [], []
    for angle in (worst, worst + 90.0):
        (found,) = identify(_can_at(renderer, angle), profile, debug=True)
        assert (found["color"], found["shape"], found["unsure"]) == ("blue", "tall_can", False)
        f = found["_f"]
        seen.append(shape_vector(f)[k])
        cols, shps, _, ds = distances(f, profile)
        fits.append(float(ds[cols.index("blue"), shps.index("tall_can")]))
    assert abs(seen[0] - seen[1]) > 0.6                       # the light does change the shading
    profile.stats.pop("angle_effect")
    profile._cache.clear()
    plain = []
    for angle in (worst, worst + 90.0):
        (found,) = identify(_can_at(renderer, angle), profile, debug=True)
        cols, shps, _, ds = distances(found["_f"], profile)
        plain.append(float(ds[cols.index("blue"), shps.index("tall_can")]))
    assert max(fits) < 6.0 < max(plain)
