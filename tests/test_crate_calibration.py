"""The calibration crate's cans go to their slots (issue 31, vision/crate_calibrate.py): on a
rendered training look whose spot lamp makes the mint can's top brighter than the white one's,
the white can is still found in slot 0 (the handedness of the picture rules out its neighbour),
so the rim plane comes out as the renderer drew it, not stretched."""
from __future__ import annotations

import numpy as np
import pytest

from companion.sim.crate_looks import CrateLook
from companion.sim.crate_render import CrateRenderer
from companion.vision.calibration_crate import can_tops, find_crate
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, CrateCalibrationError, calibrate_crates
from companion.vision.crate_grid import to_frame

LOOK = (9, "varied")      # a point lamp: the mint can (slot 1) is the brightest top


def test_the_white_can_is_found_by_the_crates_handedness_not_by_brightness_alone():
    renderer = CrateRenderer(CrateLook.from_seed(*LOOK))
    photo, truth = renderer.render(CALIBRATION_LAYOUT, np.random.default_rng([LOOK[0], 31]))
    tops_at = {tuple(d["field"]): np.array(d["top_px"]) for d in truth["drinks"]}
    blob, _ = find_crate(photo)
    tops = can_tops(photo, blob)
    brightest = max(tops, key=lambda t: float(t[1].sum()))[0]
    # the trap is there: the brightest top is the mint can's, beside the white one
    assert np.linalg.norm(brightest - tops_at[(1, 0)]) < np.linalg.norm(brightest - tops_at[(0, 0)])
    cal = calibrate_crates(photo)
    pitch = cal.pitch_px
    # every slot's middle lies near its can's top (the tops stand a little over the rim)
    for field, top in tops_at.items():
        assert np.linalg.norm(to_frame(cal.H, [(field[0] + 0.5, field[1] + 0.5)])[0] - top) < 0.5 * pitch


PALE = (0, "varied")      # a pale, greyish crate: the photo's most saturated warm colour is the red can's


def test_a_pale_crate_is_found_by_the_colour_its_cans_stand_in():
    renderer = CrateRenderer(CrateLook.from_seed(*PALE))
    photo, truth = renderer.render(CALIBRATION_LAYOUT, np.random.default_rng([PALE[0], 31]))
    tops_at = {tuple(d["field"]): np.array(d["top_px"]) for d in truth["drinks"]}
    # the trap: the most saturated warm colour finds no crate full of cans
    blob, _ = find_crate(photo)
    assert len(can_tops(photo, blob)) < 5
    with pytest.raises(CrateCalibrationError):          # the first guess alone (the network's marks off)
        calibrate_crates(photo, guesses=False, learned=False)
    cal = calibrate_crates(photo)                       # the later guesses are on by default (GUESS_PLASTIC)
    for field, top in tops_at.items():
        assert np.linalg.norm(to_frame(cal.H, [(field[0] + 0.5, field[1] + 0.5)])[0] - top) < 0.5 * cal.pitch_px


def _hsv_bgr(h, s, v):
    import cv2
    return tuple(int(c) for c in cv2.cvtColor(np.uint8([[[h, s, v]]]), cv2.COLOR_HSV2BGR)[0, 0])


def test_a_later_guess_of_the_plastic_is_measured_again_over_the_placed_crates_walls(monkeypatch):
    """A later guess's colour may be a glossy crate's shine (look 700028's: pale, far from its
    body's colour); once the cans have placed the crate, the plastic is measured over its walls
    (calibration_crate.wall_plastic). A synthetic photo seen from straight above: an orange-yellow
    crate (hue 25, sat 170) with a pale shine over its far rim, the six cans; the guess is the shine."""
    import cv2

    import companion.vision.calibration_crate as cc
    from companion.vision.crate_plastic import Plastic

    pitch, x0, y0 = 60.0, 110.0, 50.0
    H = np.array([[pitch, 0, x0], [0, pitch, y0], [0, 0, 1.0]])
    photo = np.zeros((300, 400, 3), np.uint8)
    photo[:] = (30, 60, 20)                                             # a green cloth
    cv2.rectangle(photo, (110, 50), (230, 230), _hsv_bgr(25, 170, 180), -1)
    cv2.rectangle(photo, (110, 50), (230, 75), _hsv_bgr(40, 50, 230), -1)   # the shine
    cans = [(240, 240, 240), (200, 230, 150), (200, 80, 40), (50, 50, 200), (150, 60, 120), (30, 30, 30)]
    tops = []
    for (fx, fy), colour in zip(cc.CALIBRATION_FIELDS, cans):
        centre = np.array([x0 + (fx + 0.5) * pitch, y0 + (fy + 0.5) * pitch])
        cv2.circle(photo, (int(centre[0]), int(centre[1])), int(0.38 * pitch), colour, -1)
        tops.append((centre, np.array(colour, np.float64)))
    shine = Plastic(40.0, 50.0, 230.0, _hsv_bgr(40, 50, 230))

    def found(image, guess=None):                 # the first guess finds no crate, the later one the shine
        if guess is None:
            raise cc.CrateCalibrationError("no yellow crate in the photo")
        return np.ones(image.shape[:2], bool), shine

    monkeypatch.setattr(cc, "WALL_PLASTIC", True)         # off by default (measured: docs/performance.md)
    monkeypatch.setattr(cc, "find_crate", found)
    monkeypatch.setattr(cc, "plastic_guesses", lambda image, most=cc.GUESSES: [shine])
    monkeypatch.setattr(cc, "can_tops", lambda image, blob, plastic=None: tops)
    placed = cc.place_crate(photo, guesses=True)
    assert placed.guess == 1 and placed.miss < 0.01
    assert np.allclose(to_frame(placed.H, [(0.5, 0.5)])[0], tops[0][0], atol=1.0)
    # the walls' colour, not the shine's
    assert abs(placed.plastic.hue - 25) <= 2 and abs(placed.plastic.sat - 170) <= 15
