"""The calibration crate found by its outline when its cans do not come apart (issue 31,
vision/crate_outline.py): on a rendered look whose cans the cans-first calibration cannot
separate, the crate is found, its white can is the colour reference, and the reader finds the
grid of a six-crate frame with that calibration; without the outline step the photo is refused.
(The step is off by default, crate_calibrate.OUTLINE: see why there.)"""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from companion.sim.crate_layouts import random_layout
from companion.sim.crate_looks import CrateLook
from companion.sim.crate_render import CrateRenderer
from companion.vision import calibration_crate, crate_calibrate
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, CrateCalibrationError, calibrate_crates
from companion.vision.crates import CrateReader

# a training-family look (a pale crate under a coloured lamp) whose cans' tops merge: the
# cans-first calibration refuses it (main's calibration did; the network's marks, which would
# place it, are off here: this is the outline step's test)
LOOK = (13, "varied")


@pytest.fixture(scope="module")
def look():
    renderer = CrateRenderer(CrateLook.from_seed(*LOOK))
    rng = np.random.default_rng([LOOK[0], 31])
    photo, truth = renderer.render(CALIBRATION_LAYOUT, rng)
    return renderer, rng, photo, truth


@pytest.fixture(scope="module", autouse=True)
def cans_placed_once():
    """The cans-first placement (``place_crate``, 4-5 s on this photo) worked out once per photo
    and its outcome, the placement or the refusal, given again when the same photo comes back:
    all three calibrations here start from the one photo, and the placement is a function of the
    image alone (no randomness, no state). What each test asks of the calibration is unchanged:
    the real placement's outcome, then the real outline step (or its stand-in)."""
    real, outcomes = crate_calibrate.place_crate, {}

    def once(image, guesses=None, learned=None):
        more = calibration_crate.GUESS_PLASTIC if guesses is None else guesses
        marks = calibration_crate.LEARNED_TOPS if learned is None else learned
        key = (hashlib.sha1(np.ascontiguousarray(image)).hexdigest(), image.shape, image.dtype.str, more, marks)
        if key not in outcomes:
            try:
                outcomes[key] = (real(image, guesses, learned), None)
            except CrateCalibrationError as refusal:
                outcomes[key] = (None, refusal)
        placed, refusal = outcomes[key]
        if refusal is not None:
            raise CrateCalibrationError(*refusal.args)
        return placed

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(crate_calibrate, "place_crate", once)
        yield


def test_the_crate_is_found_by_its_outline(look):
    renderer, rng, photo, truth = look
    cal = calibrate_crates(photo, outline=True, learned=False)
    assert cal.notes == "found by its outline"
    # the white reference is the white can's top as the photo shows it (under this lamp)
    can = next(d for d in truth["drinks"] if d["drink"] == "white-stubby_can")
    x, y = (int(round(v)) for v in can["top_px"])
    seen = np.median(photo[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3), axis=0)
    assert np.abs(np.array(cal.white_bgr) - seen).max() < 0.15 * seen.max(), (cal.white_bgr, seen)
    # the crate's slots are where the outline says: each slot's middle within a pitch of its
    # drink's top in the photo
    tops = {tuple(d["field"]): d["top_px"] for d in truth["drinks"]}
    mids = crate_calibrate.to_frame(cal.H, [(x + 0.5, y + 0.5) for x, y in sorted(tops)])
    near = [min(np.linalg.norm(np.array(tops[k]) - m) for k in tops) for m in mids]
    assert max(near) < cal.pitch_px
    # and the reader finds the crates' grid on a frame of six crates with it
    frame, ftruth = renderer.render(random_layout(rng), rng)
    found = CrateReader(cal, model=None).locate(frame)
    assert found is not None and len(found.cells) >= len(ftruth["fields"])


def test_without_the_outline_the_photo_is_refused(look, monkeypatch):
    """The test above depends on the outline step: the cans alone do not calibrate this look."""
    monkeypatch.setattr(crate_calibrate, "crate_by_outline", lambda image, blob, plastic: None)
    with pytest.raises(CrateCalibrationError, match="stand ONE yellow crate"):
        calibrate_crates(look[2], outline=True, learned=False)
    with pytest.raises(CrateCalibrationError, match="stand ONE yellow crate"):
        monkeypatch.undo()
        calibrate_crates(look[2], learned=False)  # the outline's default: off
