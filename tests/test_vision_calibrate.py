"""Calibration from a rendered calibration set (the DIR contract), its clear errors, and the
profile file. Real OpenCV on rendered photos."""
from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.drinks import DRINK_IDS
from companion.sim.camera import SIM_SEED
from companion.sim.looks import Lighting, Look
from companion.sim.render import Renderer
from companion.sim.scenes import Layout
from companion.vision.calibrate import CalibrationError, calibrate_dir
from companion.vision.profile import Profile, ProfileError

from vision_support import calibration_set, run_cli

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def calset() -> Path:
    """The simulated table's calibration photos (the look the checked-in profile was made from);
    shared by every test and worker: copy_set it before changing it."""
    return calibration_set(SIM_SEED)


class _Said(logging.Handler):
    """What the vision code logs while it is attached."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def calibrated_set(calset) -> tuple[Profile, list[str]]:
    """The profile calibrated from ``calset`` and the warnings calibration logged on the way
    (one calibration serves the tests of both: it takes a second)."""
    said, log = _Said(), logging.getLogger("companion.vision")
    log.addHandler(said)
    try:
        return calibrate_dir(calset), said.messages
    finally:
        log.removeHandler(said)


@pytest.fixture(scope="module")
def profile(calibrated_set) -> Profile:
    return calibrated_set[0]


def copy_set(calset: Path, tmp_path: Path) -> Path:
    d = tmp_path / "set"
    shutil.copytree(calset, d)
    return d


def test_calibration_learns_every_drink(profile):
    assert set(profile.drinks) == set(DRINK_IDS)
    assert profile.image_size == (1280, 720)
    lengths = {s: m[0] for s, m in profile.shape_model.means.items()}
    order = ["stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle"]
    # the learnt lengths follow the height order (square vs not-tallest are close; both above the cans)
    assert lengths["stubby_can"] < lengths["short_can"] < lengths["tall_can"] < lengths["not_tallest_bottle"]
    assert lengths["not_tallest_bottle"] < lengths["tallest_bottle"]
    assert lengths["square_bottle"] > lengths["short_can"]
    assert set(order) == set(lengths)
    # a bottle narrows to a neck, a can does not
    neck = profile.shape_model.names.index("neck")
    assert profile.shape_model.means["tall_can"][neck] > profile.shape_model.means["tallest_bottle"][neck] + 0.2
    white, black = profile.colour_model.means["white"], profile.colour_model.means["black"]
    assert white.mean() > black.mean() + 100


def test_profile_round_trips_and_matches_the_checked_in_one(profile, tmp_path):
    path = tmp_path / "p.json"
    profile.save(path)
    again = Profile.load(path)
    assert again.image_size == profile.image_size
    assert again.background.shape == profile.background.shape
    for s in profile.shape_model.means:
        assert np.allclose(again.shape_model.means[s], profile.shape_model.means[s], atol=1e-3)
    shipped = Profile.load(REPO / "calibration" / "sim-profile.json")
    for s, m in shipped.shape_model.means.items():
        assert np.allclose(m, profile.shape_model.means[s], rtol=0.03, atol=0.05), \
            "calibration/sim-profile.json is stale: run python -m companion.sim.render calibration"


def test_cli_calibrate_writes_a_profile(calset, tmp_path, capsys):
    out = tmp_path / "profile.json"
    assert run_cli("calibrate", "drinks", str(calset), "--out", str(out)) == 0
    data = json.loads(out.read_text())
    assert data["kind"] == "tokyo-table-companion/drink-profile"
    said = capsys.readouterr()
    assert said.out == ""   # messages go to stderr
    # the simulated table's camera is tilted (see calibration/sim-profile.json): the user is told
    assert data["stats"]["size_field"] != [0.0, 0.0] and "the camera sees the tray at a slant" in said.err


def test_missing_drink_is_named(calset, tmp_path):
    d = copy_set(calset, tmp_path)
    (d / "red-short_can.png").unlink()
    (d / "mint-tallest_bottle.png").unlink()
    with pytest.raises(CalibrationError, match=r"2 drink photo\(s\) missing: mint-tallest_bottle.png, red-short_can.png"):
        calibrate_dir(d)


def test_missing_background_is_named(calset, tmp_path):
    d = copy_set(calset, tmp_path)
    (d / "background.png").unlink()
    with pytest.raises(CalibrationError, match="background.png"):
        calibrate_dir(d)


def test_two_drinks_in_one_photo(calset, tmp_path):
    d = copy_set(calset, tmp_path)
    look = Look.from_seed(SIM_SEED)
    r = Renderer(look)
    rng = np.random.default_rng(5)
    lay = Layout(look, r, rng)
    scene = [lay.place_apart("blue-tall_can"), lay.place_apart("red-stubby_can")]
    img, _ = r.render(scene, Lighting(), rng=rng)
    cv2.imwrite(str(d / "blue-tall_can.png"), img)
    with pytest.raises(CalibrationError, match=r"blue-tall_can.png: 2 drinks"):
        calibrate_dir(d)


def test_photo_of_another_size(calset, tmp_path):
    d = copy_set(calset, tmp_path)
    img = cv2.imread(str(d / "white-tall_can.png"))
    cv2.imwrite(str(d / "white-tall_can.png"), cv2.resize(img, (640, 360)))
    with pytest.raises(CalibrationError, match=r"white-tall_can.png: the photo is 640x360 but background.png is 1280x720"):
        calibrate_dir(d)


def test_unreadable_photo(calset, tmp_path):
    d = copy_set(calset, tmp_path)
    (d / "purple-square_bottle.png").write_bytes(b"this is not a png")
    with pytest.raises(CalibrationError, match=r"purple-square_bottle.png: cannot read it as an image"):
        calibrate_dir(d)


def test_empty_photo(calset, tmp_path):
    d = copy_set(calset, tmp_path)
    shutil.copy(d / "background.png", d / "black-stubby_can.png")
    with pytest.raises(CalibrationError, match=r"black-stubby_can.png: no drink found"):
        calibrate_dir(d)


def test_cli_reports_errors_with_exit_code(calset, tmp_path, capsys):
    d = copy_set(calset, tmp_path)
    (d / "red-short_can.png").unlink()
    assert run_cli("calibrate", "drinks", str(d), "--out", str(tmp_path / "p.json")) == 1
    err = capsys.readouterr().err
    assert "red-short_can.png" in err and not (tmp_path / "p.json").exists()
    assert run_cli("calibrate", "drinks", "--out", str(tmp_path / "p.json")) == 2


def test_not_a_profile(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    with pytest.raises(ProfileError, match="not a drink profile"):
        Profile.load(bad)
    bad.write_text("garbage")
    with pytest.raises(ProfileError, match="not JSON"):
        Profile.load(bad)
    with pytest.raises(ProfileError, match="no such profile"):
        Profile.load(tmp_path / "missing.json")


def test_a_drink_hard_to_see_against_the_tray_is_named(calset, tmp_path, caplog):
    # half of one drink's photo shows the empty tray (as when half a drink matches the tray):
    # the drink measures far shorter than its shape and colour predict, and calibration names it
    d = copy_set(calset, tmp_path)
    bg = cv2.imread(str(d / "background.png"))
    photo = cv2.imread(str(d / "red-tall_can.png"))
    ys, xs = np.nonzero(np.abs(photo.astype(int) - bg.astype(int)).max(axis=2) > 40)
    if np.ptp(xs) > np.ptp(ys):
        cut = np.s_[:, int(np.median(xs)):]
    else:
        cut = np.s_[int(np.median(ys)):, :]
    photo[cut] = bg[cut]
    cv2.imwrite(str(d / "red-tall_can.png"), photo)
    with caplog.at_level("WARNING", logger="companion.vision"):
        calibrate_dir(d)
    odd = [r.getMessage() for r in caplog.records if "than its shape and colour predict" in r.getMessage()]
    assert len(odd) == 1 and odd[0].startswith("calibration: red-tall_can measured")
    assert "shorter" in odd[0] and "hard to see against this tray" in odd[0] and "take that photo again" in odd[0]


def test_a_good_calibration_names_no_drink(calibrated_set):
    _, said = calibrated_set
    assert not [m for m in said if "than its shape and colour predict" in m]


def test_calibration_keeps_each_drinks_piece_for_the_set_network(profile, tmp_path):
    """Each drink's calibration photo, read again with the finished profile, gives its piece as
    the set network sees one (calibration_pieces.py): the crop of the largest piece, centred on
    the drink (its own mask fills the crop's middle), and its side numbers; the profile file
    keeps them, and a damaged or foreign entry is refused with a reason."""
    from companion.vision.drink_crops import H, RAW, W
    assert set(profile.pieces) == set(DRINK_IDS)
    for crops, side in profile.pieces.values():
        assert crops.shape == (1, H, W, RAW) and side.shape == (1, 3)
        assert crops[0, H // 2 - 2:H // 2 + 2, W // 2 - 4:W // 2 + 4, 3].mean() > 0.9
    path = tmp_path / "p.json"
    profile.save(path)
    again = Profile.load(path)
    assert set(again.pieces) == set(DRINK_IDS)
    for d, (crops, side) in profile.pieces.items():
        assert np.array_equal(again.pieces[d][0], crops) and np.allclose(again.pieces[d][1], side)
    data = json.loads(path.read_text())
    data["pieces_npz"] = data["pieces_npz"][:200]
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="calibration pieces are damaged"):
        Profile.load(path)
    data.pop("pieces_npz")
    path.write_text(json.dumps(data))
    assert Profile.load(path).pieces == {}          # a profile made before them still loads
    # another empty tray's photo: the pieces were cut against the old one, so they go
    assert profile.with_background(np.zeros((720, 1280, 3), np.uint8)).pieces == {}
