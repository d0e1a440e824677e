"""Fitting calibrated outlines (vision/fit.py) where a drink's measured outline fits no drink:
rendered scenes in which plain measuring fails, the profile's outlines, and the fallback for a
profile without them. Real OpenCV on rendered photos."""
from __future__ import annotations

import copy
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.drinks import DRINK_IDS
from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import render_sample

from companion.vision.features import OUTLINE_POINTS
from companion.vision import classify, fit, placing
from companion.vision.outline import Outline, outlines

from vision_support import benchmark_photo, calibrated, reading_at, rules_reading as identify  # the rules' own steps are tested here

SEED = 8003                   # a light tray, calibrated and photographed: a table other vision
                              # tests use too, so that its profile is built once (vision_support)
WHITE_CAN = "white-short_can"
WHITE_BOTTLE = "white-square_bottle"


@pytest.fixture(scope="module")
def table():
    look = Look.from_seed(SEED)
    profile = calibrated(SEED)
    renderer = Renderer(look)
    rng = np.random.default_rng([SEED, 31337])          # the benchmark's photo sequence
    render_sample(renderer, rng, "touching")
    photos = [render_sample(renderer, rng, "touching")]
    return profile, photos


def read_by_its_outline(tmp_path, seed: int, skip: int, drink: str, difficulty: str = "touching"):
    """A benchmark photo (see ``benchmark_photo``) in which ``drink`` must be read right, and
    by its fitted outline: profile, image, truth, that drink's truth, all readings."""
    profile, image, truth = benchmark_photo(tmp_path, seed, skip, difficulty)
    target = next(t for t in truth if t["id"] == drink)
    found = identify(image, profile, debug=True)
    got = reading_at(found, target)
    assert (f"{got['color']}-{got['shape']}", got["unsure"], got["_why"]) == (drink, False, "outline fitted")
    return profile, image, truth, target, found


def without_outlines(profile):
    p = copy.copy(profile)
    p.drinks = {k: {f: v for f, v in rec.items() if f != "outline"} for k, rec in profile.drinks.items()}
    p._cache = {}
    return p


def test_calibration_keeps_each_drinks_outline_wide_end_first(table):
    profile, _ = table
    for drink in DRINK_IDS:
        rec = profile.drinks[drink]
        assert len(rec["outline"]) == OUTLINE_POINTS
        assert max(rec["outline"]) <= rec["width"] * 1.3
        ends = np.mean(rec["outline"][:4]), np.mean(rec["outline"][-4:])
        if drink.endswith("_bottle"):
            assert ends[1] < 0.75 * ends[0], drink      # narrows to the neck, which comes last
        else:
            assert ends[1] > 0.8 * ends[0], drink       # a can is as wide at both ends


def test_a_can_whose_piece_fits_no_drink_is_named_by_its_fitted_outline(tmp_path, monkeypatch):
    # seed 9002 (a light tray), 2nd touching photo: a white short can lies against other
    # drinks, its shaded side close to the tray; the piece cut for it, measured, fits no drink
    profile, image, truth = benchmark_photo(tmp_path, 9002, 1)
    can = next(t for t in truth if t["id"] == WHITE_CAN)
    # (the splitting now keeps the can's piece from a join that spoils it, and the piece is
    # read as it stands; joined as before, it is the second look's to name)
    assert read_right(identify(image, profile), [can])
    monkeypatch.setattr("companion.vision.splitting.FITS_CLEARLY", 0.0)
    # measured alone, the piece fits no drink: unsure (never a wrong name)
    plain = reading_at(identify(image, without_outlines(profile), debug=True), can)
    assert plain["unsure"] and "outline fits no drink" in plain["_why"]
    # with the calibrated outlines, the can is found and named
    found = identify(image, profile, debug=True)
    got = reading_at(found, can)
    assert (f"{got['color']}-{got['shape']}", got["unsure"]) == (WHITE_CAN, False)
    assert got["_why"] == "outline fitted" and got["confidence"] >= 0.6
    assert np.hypot(got["x"] - can["x"], got["y"] - can["y"]) < 12     # its centre, not its piece's
    # ... and no other drink is reported in its place
    assert len(found) == len(truth)


def test_a_profile_without_outlines_still_identifies(table):
    profile, photos = table
    bare = without_outlines(profile)
    assert outlines(bare) is None
    found = identify(photos[0][0], bare)
    assert found and all({"color", "shape", "x", "y", "confidence", "unsure"} <= set(f) for f in found)


def test_outlines_of_a_mat_profile_are_scaled_to_the_camera(table):
    profile, _ = table
    mm = copy.copy(profile)
    mm.stats = dict(profile.stats, px_per_mm=2.0)
    mm._cache = {}
    px, scaled = outlines(profile), outlines(mm)
    for key, o in px.items():
        assert abs(scaled[key].length - 2 * o.length) <= 1
        assert scaled[key].widths.max() == pytest.approx(2 * o.widths.max(), rel=0.05)


def test_a_white_bottle_barely_brighter_than_the_tray_is_judged_by_its_loose_cut(tmp_path, monkeypatch):
    # seed 20002 (a light tray), 13th touching photo: a white square bottle between a white tall
    # and a white short can, on a tray almost as pale: the strict cut of its outline (the
    # segmented pixels alone) cannot confirm it; the loose cut (with the faint pixels) names
    # it, and every other drink in the photo is read as before. (Found on seed 8001's 7th
    # photo; this table is shared with other tests, so its profile is built once.)
    profile, image, truth, bottle, found = read_by_its_outline(tmp_path, 20002, 12, WHITE_BOTTLE)
    assert sorted(f"{f['color']}-{f['shape']}" for f in found) == sorted(t["id"] for t in truth)
    # without the loose judgement both cuts must agree, and the bottle stays unsure (the
    # pixels of its neck that the splitting dropped voting as shadow, as they did then:
    # voting for the outline, they let its strict cut confirm it too)
    monkeypatch.setattr(fit, "FAINT_SHARE", 0.0)
    monkeypatch.setattr(fit, "UNOWNED", fit.AMBIGUOUS)
    assert reading_at(identify(image, profile, debug=True), bottle)["unsure"]


def test_an_outline_lying_on_a_drinks_rim_collects_the_edge_votes():
    # a light bar with a dark rim on a textured tray: the outline laid exactly on it gathers
    # more edge votes than the same outline shifted across or along by a few pixels
    rng = np.random.default_rng(3)
    tray = (150 + rng.normal(0, 3, (120, 200))).astype(np.float32)
    img = tray.copy()
    cv2.rectangle(img, (60, 45), (139, 74), 200.0, -1)
    cv2.rectangle(img, (60, 45), (139, 74), 110.0, 1)
    small = cv2.merge([img, img, img])
    an = SimpleNamespace(small=small, gain=np.ones_like(small))
    clear = np.ones(img.shape, bool)
    clear[35:85, 50:150] = False
    gx, gy = fit._gradient(an, 0, 0, 200, 120, clear)
    o = Outline("white", "short_can", np.full(80, 30.0, np.float32))
    win = placing.Window(np.zeros(img.shape, np.float32), np.zeros(img.shape, bool), 0, 0, (100.0, 60.0), (1.0, 0.0),
                     np.ones(img.shape, bool), np.ones(img.shape, bool), (gx, gy))
    on_rim = win.edge_votes(o, (0.0, 1, -40.0, 0.0))
    for pose in [(0.0, 1, -40.0, 5.0), (0.0, 1, -34.0, 0.0), (0.0, 1, -46.0, -4.0), (0.1, 1, -40.0, 0.0)]:
        assert win.edge_votes(o, pose) < on_rim - 5, pose
    assert on_rim > 0


def test_the_rim_is_computed_once_per_angle_and_shifted_to_each_pose():
    # placing an outline tries hundreds of poses: the window keeps the rim of an outline at
    # each angle and direction and only shifts it. The votes must be those of the rim laid
    # at the pose directly
    rng = np.random.default_rng(5)
    gx, gy = (rng.normal(0, 2, (120, 200)).astype(np.float32) for _ in range(2))
    o = Outline("white", "square_bottle", np.linspace(30.0, 12.0, 70).astype(np.float32))
    shape = gx.shape
    win = placing.Window(np.zeros(shape, np.float32), np.zeros(shape, bool), 10, 20, (104.0, 77.0), (0.8, 0.6),
                         np.ones(shape, bool), np.ones(shape, bool), (gx, gy))
    for dangle, direction in [(0.0, 1), (0.1, -1), (-0.5, 1)]:
        for t0, v0 in [(-30.0, 0.0), (-26.0, 4.0), (12.5, -6.0)]:
            pts, normals = o.rim((dangle, direction, t0, v0), win.angle0, (win.cx - win.x0, win.cy - win.y0))
            xi = np.clip(np.rint(pts[:, 0]).astype(np.int32), 0, shape[1] - 1)
            yi = np.clip(np.rint(pts[:, 1]).astype(np.int32), 0, shape[0] - 1)
            s = np.abs(gx[yi, xi] * normals[:, 0] + gy[yi, xi] * normals[:, 1])
            direct = placing.EDGE_WEIGHT * float(np.sum(s / (s + placing.EDGE_HALF) - 0.5))
            assert win.edge_votes(o, (dangle, direction, t0, v0)) == pytest.approx(direct, abs=0.5)


def test_a_drink_read_longer_than_itself_is_fitted(tmp_path, monkeypatch):
    # seed 12000 (a dark tray), 1st touching photo: a red stubby can lies against a white short
    # can and the black square bottle's cap. (Found on seed 12002, where it lay end to end with
    # a red bottle: before sizes were corrected for the camera's tilt its piece read as longer
    # than a stubby can.) Pieces now read plainly, so "too long" is made to start at 80 % of a
    # drink's length: every reading is then too long, and each must be fitted
    profile, image, truth = benchmark_photo(tmp_path, 12000, 0)
    monkeypatch.setattr(classify, "TOO_LONG", 0.8)
    can = next(t for t in truth if t["id"] == "red-stubby_can")
    plain = reading_at(identify(image, without_outlines(profile), debug=True), can)
    assert plain["unsure"] and "longer than a red stubby can" in plain["_why"]
    found = identify(image, profile, debug=True)
    got = reading_at(found, can)
    assert (f"{got['color']}-{got['shape']}", got["unsure"], got["_why"]) == ("red-stubby_can", False, "outline fitted")
    assert sorted(f"{f['color']}-{f['shape']}" for f in found) == sorted(t["id"] for t in truth)


def test_the_shade_a_piece_carries_need_not_be_covered_by_its_outline(tmp_path):
    # seed 16001 (a light tray), 14th touching photo: a white square bottle lies in the angle
    # between a red can and a blue bottle, and its piece carries the shade of that angle. The
    # square bottle's outline covers the bottle but not the shade; counted as part of the
    # piece, the shade left it too little covered, and the cut of a tall can was taken instead
    _, _, truth, _, found = read_by_its_outline(tmp_path, 16001, 13, WHITE_BOTTLE)
    assert sorted(f"{f['color']}-{f['shape']}" for f in found) == sorted(t["id"] for t in truth)


def test_the_shade_left_over_by_a_fitted_outline_is_no_drink(tmp_path, monkeypatch):
    # seed 21006 (a light tray), 11th hard photo: a white tallest bottle lies against a purple
    # and a white can, and its piece runs on into the shade between them. Its outline wins the
    # vote by far; what it leaves of the piece is faint, shade, not one more (unsure) drink.
    # (The splitting now cuts the bottle's piece without the shade, as joining it would spoil
    # the bottle; joined as before, the piece is the second look's.)
    monkeypatch.setattr("companion.vision.splitting.FITS_CLEARLY", 0.0)
    _, _, truth, _, found = read_by_its_outline(tmp_path, 21006, 10, "white-tallest_bottle", "hard")
    assert len(found) == len(truth) and not any(f["unsure"] for f in found)


def test_a_neck_left_over_by_one_outline_counts_for_the_next_drink_of_its_colour(tmp_path):
    # seed 24005 (a light tray), 12th touching photo: a white square bottle's neck and cap lie
    # against a white not-tallest bottle and were cut into that bottle's piece; its own piece
    # is the body alone, which fits no drink. The neighbour's outline is placed first and
    # leaves the neck over; those pixels then vote for the square bottle's outline (as a
    # fragment's would), where before they voted against it as another drink's, and it is
    # read, not left unsure.
    *_, truth, _, found = read_by_its_outline(tmp_path, 24005, 11, "white-square_bottle")
    got = reading_at(found, next(t for t in truth if t["id"] == "white-not_tallest_bottle"))
    assert (got["color"], got["shape"], got["unsure"]) == ("white", "not_tallest_bottle", False)


def test_an_outline_is_judged_though_the_piece_carries_a_neighbours_part(tmp_path, monkeypatch):
    # seed 20000 (a light tray), 11th touching photo: a blue not-tallest bottle's piece also
    # holds part of the blue tallest bottle beside it, so that its own outline, placed
    # right, covers only three quarters of the piece. Judged, its cuts are the bottle's
    # plainly (squared distance about 2, the next shape's about 50), and it is read right.
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 20000, 10, "blue-not_tallest_bottle")
    monkeypatch.setattr(fit, "COVERED_MIN", 0.8)        # as before: not judged, left unsure
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def test_a_cut_that_fits_its_outline_plainly_is_taken_though_its_outline_trails_a_little(tmp_path, monkeypatch):
    # seed 24006 (a light tray), 5th touching photo: a black square bottle whose piece also
    # holds the shade beside its neck. The square bottle's outline, placed right, cuts a
    # square bottle almost exactly (squared distance about 2), but trails a longer outline
    # that also covers the shade in the votes, which adds about 30: a judged distance up
    # to 40 (was 30) is convincing, and every other shape is far worse.
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 24006, 4, "black-square_bottle")
    monkeypatch.setattr(fit, "JUDGE_MAX", 30.0)         # as before: left unsure
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def read_right(found: list[dict], targets: list[dict]) -> bool:
    """Is each target read as itself, for sure, by the reading nearest to it?"""
    got = [reading_at(found, t) for t in targets]
    return all(f"{g['color']}-{g['shape']}" == t["id"] and not g["unsure"] for g, t in zip(got, targets))


def read_pair(tmp_path, seed: int, skip: int, drinks: tuple[str, str], difficulty: str):
    """A benchmark photo in which two drinks of one colour touch and their piece fits no one
    drink: both must be read right, by their fitted outlines; profile, image and targets."""
    profile, image, truth = benchmark_photo(tmp_path, seed, skip, difficulty)
    targets = [next(t for t in truth if t["id"] == d) for d in drinks]
    found = identify(image, profile, debug=True)
    for drink, target in zip(drinks, targets):
        got = reading_at(found, target)
        assert (f"{got['color']}-{got['shape']}", got["unsure"], got["_why"]) == (drink, False, "outline fitted")
        assert np.hypot(got["x"] - target["x"], got["y"] - target["y"]) < 15
    return profile, image, targets


def test_two_drinks_of_one_colour_end_to_end_are_fitted_as_a_pair(tmp_path, monkeypatch):
    # seed 25005 (a dark tray), 23rd blurred photo: a blue stubby can lies end to end with a
    # blue short can, and their piece is as long as a tallest bottle. That bottle's outline
    # won the vote and was judged plausible, leaving part of the short can over, unsure: one
    # drink read wrong and one missed. Laid from one end, the stubby can's outline leaves the
    # short can, which then fits; together they explain the piece far better than the bottle.
    # (The splitting now keeps the two apart, as no join that spoils a plain drink is made;
    # joined as before, they are the second look's to tell apart.)
    monkeypatch.setattr("companion.vision.splitting.FITS_CLEARLY", 0.0)
    profile, image, targets = read_pair(tmp_path, 25005, 22, ("blue-stubby_can", "blue-short_can"), "hard")
    monkeypatch.setattr(fit, "PAIR_GAIN", 1e9)          # no pairs: as before
    assert not read_right(identify(image, profile, debug=True), targets)


def test_a_pair_need_not_lie_in_line(tmp_path, monkeypatch):
    # seed 25005, 18th blurred photo: a red stubby can lies along the piece's axis and a red
    # short can across it, touching its end; no outline fits the piece (unsure, and one
    # drink missed). The second drink is fitted in what the first leaves, along that rest's
    # own axis
    profile, image, targets = read_pair(tmp_path, 25005, 17, ("red-stubby_can", "red-short_can"), "hard")
    monkeypatch.setattr(fit, "PAIR_GAIN", 1e9)
    assert not read_right(identify(image, profile, debug=True), targets)


def test_a_white_bottle_whose_cuts_agree_less_clearly_is_still_judged(tmp_path, monkeypatch):
    # seed 26002 (a light tray), 9th blurred photo: a white tallest bottle, its shaded half
    # lost to the tray. Its outline wins the vote narrowly; its loose cut (which alone decides
    # for a white drink on a light tray) is the bottle's by 5 in squared distance, the vote
    # deficit of the next outlines included: a margin of 5 (was 6) is convincing
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 26002, 8, "white-tallest_bottle", "hard")
    # as before: left unsure (a small piece of the bottle, now given a second look, along
    # its edges too, settles it as well)
    monkeypatch.setattr(fit, "JUDGE_MARGIN", 6.0)
    monkeypatch.setattr(fit, "REFIT_MIN", 0.5)
    monkeypatch.setattr(fit, "PARTIAL", 0.0)
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def test_a_white_stubby_can_half_in_its_own_shade_is_judged(tmp_path, monkeypatch):
    # seed 26002, 17th blurred photo: a white stubby can on a light tray, half of it no
    # different from the tray in shade. Its outline wins the vote by far but explains its
    # pixels with a mean vote of only 0.28, below the 0.3 that an outline needed to be
    # judged at all (now 0.25); judged, its cut is a stubby can's
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 26002, 16, "white-stubby_can", "hard")
    monkeypatch.setattr(fit, "EXPLAINED_MIN", 0.3)      # as before: left unsure (now the can's
    monkeypatch.setattr(fit, "UNOWNED", fit.AMBIGUOUS)  # rim and its dropped pixels each
    monkeypatch.setattr(placing, "RIM_EXPLAINS", 0.0)   # explain it past 0.3 as well)
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def test_a_black_square_bottle_whose_face_is_lost_to_a_dark_tray_is_fitted(tmp_path, monkeypatch):
    # seed 27001 (a dark tray), 17th touching photo: of a black square bottle only the neck
    # and cap, a line of its rim and the ring round the light on its face are segmented; the
    # face itself is the tray's colour. The neck's piece (under half the smallest drink) gets
    # a second look: the outline is tried along the piece's straight edges as well as its
    # axis, the ring (dropped in the splitting) votes for it, and its rim, on the face's
    # edges, explains the face
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 27001, 17, "black-square_bottle")
    monkeypatch.setattr(fit, "REFIT_MIN", 0.5)          # as before: no second look, left unsure
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def test_a_dark_drinks_loose_cut_stands_alone_when_it_is_the_drink_almost_exactly(tmp_path, monkeypatch):
    # seed 27001, 6th blurred photo: a black square bottle on the dark tray, its face not
    # segmented. The loose cut is the square bottle's almost exactly (squared distance about
    # 1, the next shape about 50); the strict one, of the segmented pixels only, lacks the
    # face and looks like nothing
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 27001, 6, "black-square_bottle", "hard")
    monkeypatch.setattr(fit, "LOOSE_ALONE", -1.0)       # as before: both cuts must agree, unsure
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def test_drink_pixels_that_no_reading_owns_vote_for_an_outline(tmp_path, monkeypatch):
    # seed 20000 (a light tray), 7th blurred photo: a white not-tallest bottle whose neck
    # was dropped in the splitting (too small, of no plain colour); those pixels now vote
    # for the outline that covers them rather than against it, as shadow did
    profile, image, _, target, _ = read_by_its_outline(tmp_path, 20000, 7, "white-not_tallest_bottle", "hard")
    monkeypatch.setattr(fit, "UNOWNED", fit.AMBIGUOUS)  # as before: left unsure
    assert reading_at(identify(image, profile, debug=True), target)["unsure"]


def test_an_outline_lying_over_its_neighbours_is_no_drink(tmp_path, monkeypatch):
    # seed 12000 (a dark tray), 20th blurred photo: the shade enclosed by three purple drinks
    # reads as a black piece, and a square bottle's outline laid over it has its rim on the
    # neighbours' edges; but a third of it lies on those drinks, so it is not judged
    profile, image, truth = benchmark_photo(tmp_path, 12000, 20, "hard")
    assert len(identify(image, profile)) == len(truth)
    monkeypatch.setattr(fit, "OVERLAP_MAX", 1.0)        # no limit: an extra black square bottle
    assert len(identify(image, profile)) == len(truth) + 1
