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
    with pytest.raises(CrateCalibrationError):          # the guesses are off by default (GUESS_PLASTIC)
        calibrate_crates(photo)
    cal = calibrate_crates(photo, guesses=True)
    for field, top in tops_at.items():
        assert np.linalg.norm(to_frame(cal.H, [(field[0] + 0.5, field[1] + 0.5)])[0] - top) < 0.5 * cal.pitch_px
