"""Identification on rendered tray photos with the simulated table's profile, and the
`identify` command's JSON contract and errors."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.sim.camera import SIM_SEED
from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import render_mat_photo, render_sample
from companion.vision.drinks import identify
from companion.vision.segment import FrameError
from companion.vision.profile import Profile

from vision_support import benchmark_photo, reading_at, run_cli, shadow_band

PROFILE = Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json"


@pytest.fixture(scope="module")
def profile() -> Profile:
    return Profile.load(PROFILE)


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer(Look.from_seed(SIM_SEED))


def score(found, truth):
    tally = {"correct": 0, "wrong": 0, "unsure": 0, "missed": 0}
    used = set()
    for t in truth:
        box = np.array(t["box"], np.float32)
        hits = [i for i, f in enumerate(found) if i not in used and
                cv2.pointPolygonTest(box, (float(f["x"]), float(f["y"])), True) > -3]
        if not hits:
            tally["missed"] += 1
            continue
        i = min(hits, key=lambda i: (found[i]["x"] - t["x"]) ** 2 + (found[i]["y"] - t["y"]) ** 2)
        used.add(i)
        f = found[i]
        key = "unsure" if f["unsure"] else ("correct" if f"{f['color']}-{f['shape']}" == t["id"] else "wrong")
        tally[key] += 1
    tally["extra"] = len(found) - len(used)
    return tally


@pytest.mark.parametrize("difficulty,min_correct,max_wrong", [("separated", 0.9, 0.05), ("touching", 0.8, 0.08),
                                                              ("drift", 0.9, 0.05)])
def test_identification_accuracy_on_rendered_photos(profile, renderer, difficulty, min_correct, max_wrong):
    # Two photos a difficulty guard that the reader works at all on this table; how well it reads
    # is measured over hundreds of photos on many tables by benchmarks/vision.py, not here.
    rng = np.random.default_rng([77, len(difficulty)])
    total = {"correct": 0, "wrong": 0, "unsure": 0, "missed": 0, "extra": 0}
    n = 0
    for _ in range(2):
        img, truth = render_sample(renderer, rng, difficulty)
        for k, v in score(identify(img, profile), truth).items():
            total[k] += v
        n += len(truth)
    assert total["correct"] >= min_correct * n, total
    assert total["wrong"] <= max_wrong * n, total
    assert total["extra"] <= 0.05 * n, total


def test_each_detection_has_the_contract_fields(profile, renderer):
    img, truth = render_sample(renderer, np.random.default_rng(4), "separated")
    found = identify(img, profile)
    assert found
    for d in found:
        assert set(d) == {"color", "shape", "x", "y", "confidence", "unsure"}
        assert 0 <= d["x"] < 1280 and 0 <= d["y"] < 720 and 0 <= d["confidence"] <= 1
    # centroids land on the drinks
    for t in truth:
        assert min(np.hypot(d["x"] - t["x"], d["y"] - t["y"]) for d in found) < 12


def test_empty_tray_has_no_drinks(profile, renderer):
    img, _ = renderer.render([], rng=np.random.default_rng(2))
    assert identify(img, profile) == []


def test_bad_frames_raise_clear_errors(profile, renderer):
    img, _ = render_sample(renderer, np.random.default_rng(5), "separated")
    with pytest.raises(FrameError, match="640x360 but the profile was calibrated at 1280x720"):
        identify(cv2.resize(img, (640, 360)), profile)
    with pytest.raises(FrameError, match="too dark"):
        identify((img * 0.05).astype(np.uint8), profile)
    with pytest.raises(FrameError, match="overexposed"):
        identify(np.full_like(img, 255), profile)
    # the camera now looks at something else (here: the calibration mat on a table)
    elsewhere = render_mat_photo(Look.from_seed(SIM_SEED), 1, drinks=[])
    with pytest.raises(FrameError, match="does not show the calibrated tray"):
        identify(elsewhere, profile)


@pytest.fixture(scope="module")
def photos(tmp_path_factory, renderer):
    d = tmp_path_factory.mktemp("photos")
    rng = np.random.default_rng(11)
    for name in ("a.png", "b.png"):
        img, _ = render_sample(renderer, rng, "separated")
        cv2.imwrite(str(d / name), img)
    return d


def test_cli_identify_one_image_json(photos, capsys):
    assert run_cli("identify", str(photos / "a.png"), "--profile", str(PROFILE), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["drinks"] and out["drinks"]
    assert set(out["drinks"][0]) == {"color", "shape", "x", "y", "confidence", "unsure"}


def test_cli_identify_several_images_keyed_by_file(photos, capsys):
    a, b = str(photos / "a.png"), str(photos / "b.png")
    assert run_cli("identify", a, b, "--profile", str(PROFILE), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {a, b} and all("drinks" in v for v in out.values())


def test_cli_identify_errors(photos, tmp_path, capsys):
    not_profile = tmp_path / "not.json"
    not_profile.write_text('{"a": 1}')
    assert run_cli("identify", str(photos / "a.png"), "--profile", str(not_profile), "--json") == 1
    cap = capsys.readouterr()
    assert "not a drink profile" in json.loads(cap.out)["error"] and "not a drink profile" in cap.err
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(photos / "a.png")), (320, 180)))
    assert run_cli("identify", str(small), "--profile", str(PROFILE), "--json") == 1
    assert "320x180" in json.loads(capsys.readouterr().out)["error"]
    # in a batch, the bad file gets its error and the good one its drinks
    assert run_cli("identify", str(photos / "a.png"), str(tmp_path / "nope.png"), "--profile", str(PROFILE),
                   "--json") == 1
    out = json.loads(capsys.readouterr().out)
    assert out[str(photos / "a.png")]["drinks"] and "no such file" in out[str(tmp_path / "nope.png")]["error"]


def test_cli_identify_gives_each_unreadable_photo_its_own_error(photos, renderer, tmp_path, capsys, monkeypatch):
    shade = tmp_path / "shade.png"          # a soft shadow band over half the tray: read, not refused
    img, truth = render_sample(renderer, np.random.default_rng(5), "separated")
    cv2.imwrite(str(shade), shadow_band(img))
    elsewhere = tmp_path / "elsewhere.png"  # the camera looks at something else: a FrameError
    cv2.imwrite(str(elsewhere), render_mat_photo(Look.from_seed(SIM_SEED), 1, drinks=[]))
    broken = tmp_path / "broken.png"        # one whose reading fails for any other reason
    cv2.imwrite(str(broken), img)
    from companion.vision import drinks as reader
    identify_one = reader.identify

    def faulty(image, profile, **options):
        if image.shape == img.shape and np.array_equal(image, img):
            raise IndexError("a fault in the reader")
        return identify_one(image, profile, **options)

    monkeypatch.setattr(reader, "identify", faulty)
    a = str(photos / "a.png")
    code = run_cli("identify", a, str(elsewhere), str(shade), str(broken), "--profile", str(PROFILE), "--json")
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert code == 1 and list(out) == [a, str(elsewhere), str(shade), str(broken)]
    assert out[a]["drinks"] and out[str(shade)]["drinks"]
    assert out[str(elsewhere)] == {"error": f"{elsewhere}: the frame does not show the calibrated tray (was the "
                                            f"camera or the tray moved? calibrate again)"}
    assert set(out[str(broken)]) == {"error"} and "IndexError: a fault in the reader" in out[str(broken)]["error"]
    assert "does not show the calibrated tray" in cap.err


@pytest.mark.parametrize("stretch,unsure", [(1.0, False), (1.05, False), (1.15, True)])
def test_a_piece_longer_than_the_drink_it_looks_like_is_unsure(profile, stretch, unsure):
    # a stubby can's calibrated features with its length stretched: what runs on past the can
    # (a neighbour's end) still looks like a stubby can in every other feature
    from companion.vision.classify import classify

    f = dict(profile.drinks["red-stubby_can"])
    f["length"] *= stretch
    got = classify(f, profile)
    assert (got["color"], got["shape"], got["unsure"]) == ("red", "stubby_can", unsure)
    assert ("longer than a red stubby can" in got["why"]) is unsure


def _lighter(profile, drink: str, step: float) -> dict:
    f = dict(profile.drinks[drink])
    for ch in ("b", "g", "r"):
        f[ch] += step
    return f


def test_a_dark_drink_read_lighter_than_calibrated_keeps_its_colour_when_no_other_is_near(profile):
    # a black square bottle's lit face on a dark tray reads lighter than in calibration: far
    # from black, yet far further from every other colour, and its outline fits
    from companion.vision.classify import OUTLIER_COLOUR, classify

    step = next(s for s in range(2, 80, 2)
                if classify(_lighter(profile, "black-square_bottle", s), profile)["d_colour"] > OUTLIER_COLOUR)
    got = classify(_lighter(profile, "black-square_bottle", step), profile)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "square_bottle", False)
    assert "colour fits no drink" not in got["why"]
    # a grey thing as far from black as from the next colour is no drink, whatever its outline
    grey = _lighter(profile, "black-square_bottle", 75)
    got = classify(grey, profile)
    assert got["unsure"] and "colour fits no drink" in got["why"]
    # ... nor is a piece off in colour whose outline does not plainly fit
    odd = _lighter(profile, "black-square_bottle", step)
    odd["width"] *= 1.25
    assert classify(odd, profile)["unsure"]


def test_a_drink_is_measured_against_its_own_calibrated_colour_too(tmp_path):
    # seed 25000 (a dark tray, shared with test_vision_split), 14th separated photo (found on
    # seed 12006): a black square bottle's flat faces catch more light than the black cans'
    # curves, which set black's mean colour. Against the mean alone its colour fits no drink;
    # against its own calibration photo it plainly does.
    import copy

    profile, image, truth = benchmark_photo(tmp_path, 25000, 13, "separated")
    bottle = next(t for t in truth if t["id"] == "black-square_bottle")

    def reading(p):   # the rules' own reading (the default's network may name what they doubt)
        return reading_at(identify(image, p, debug=True, scorer="rules"), bottle)

    mean_only = copy.copy(profile)
    mean_only.drinks = {k: {f: v for f, v in rec.items() if f not in ("b", "g", "r")}
                        for k, rec in profile.drinks.items()}
    mean_only._cache = {}
    got = reading(mean_only)
    assert got["unsure"] and "colour fits no drink" in got["_why"]
    got = reading(profile)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "square_bottle", False)


def test_a_drink_that_is_more_than_its_colour_plus_its_shape_is_known_by_its_own_photo(profile):
    # the models add a colour's effect to a shape's, but a drink may be more than the sum (a
    # square bottle's flat faces catch the light otherwise than a colour's cans suggest): here
    # one drink's photo, and the drink in the frame, have edges far brighter than predicted.
    # Its own calibration photo still knows it; the models alone would not.
    import copy

    from companion.vision.classify import OUTLIER_SHAPE, classify
    from companion.vision.features import SHAPE_FEATURES

    i = SHAPE_FEATURES.index("edge")
    drink = "white-square_bottle"
    seen = dict(profile.drinks[drink])
    seen["edge"] += 8 * float(profile.shape_model.spread[i])
    odd = copy.copy(profile)
    odd.drinks = {**profile.drinks, drink: seen}
    odd._cache = {}
    got = classify(dict(seen), odd)
    assert (got["color"], got["shape"], got["unsure"]) == ("white", "square_bottle", False)
    models_only = copy.copy(odd)
    models_only.drinks = {k: {f: v for f, v in rec.items() if f != "edge"} for k, rec in odd.drinks.items()}
    models_only._cache = {}
    got = classify(dict(seen), models_only)
    assert got["d_shape"] > OUTLIER_SHAPE and got["unsure"]


def test_a_drink_whose_calibration_photo_measured_it_short_is_not_too_long(profile):
    # one calibration photo may measure a drink a little short; a piece of the drink's usual
    # length is then still that drink (the models' length, from all 36 photos, vouches for it)
    import copy

    from companion.vision.classify import classify

    seen = dict(profile.drinks["red-stubby_can"])
    short = copy.copy(profile)
    short.drinks = {**profile.drinks, "red-stubby_can": {**seen, "length": seen["length"] * 0.85}}
    short._cache = {}
    got = classify(dict(seen), short)
    assert (got["color"], got["shape"], got["unsure"]) == ("red", "stubby_can", False)
    assert "longer than" not in got["why"]


def test_motion_blur_may_lengthen_a_drink_a_little(profile):
    # blur smears a drink's ends outwards by a few pixels: a stubby can a little past its
    # length is two drinks? in a sharp frame, and itself in a blurred one
    from companion.vision.classify import classify

    f = dict(profile.drinks["red-stubby_can"])
    f["length"] *= 1.13
    sharp = classify(dict(f), profile, sharpness=1.0)
    assert sharp["unsure"] and "longer than a red stubby can" in sharp["why"]
    blurred = classify(dict(f), profile, sharpness=0.6)
    assert (blurred["color"], blurred["shape"], blurred["unsure"]) == ("red", "stubby_can", False)
    # ... but not by half a drink
    f["length"] *= 1.5
    got = classify(dict(f), profile, sharpness=0.6)
    assert got["unsure"] or got["shape"] != "stubby_can"


def test_a_blurred_round_bottle_on_a_light_tray_still_reads_round(tmp_path):
    # seed 8003 (a light tray), 12th blurred photo (touching + drift + JPEG + motion blur): blur
    # mixes the light tray into a red bottle's rim, which then looks as bright as its middle,
    # like a square bottle's flat face. The rim is measured one slice in from the outline.
    profile, image, truth = benchmark_photo(tmp_path, 8003, 11, "hard")
    bottle = next(t for t in truth if t["id"] == "red-not_tallest_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"]) == ("red", "not_tallest_bottle", False)
    round_, square = profile.drinks["red-not_tallest_bottle"]["edge"], profile.drinks["red-square_bottle"]["edge"]
    assert abs(got["_f"]["edge"] - round_) < abs(got["_f"]["edge"] - square)


def test_blur_excuses_an_outline_only_so_far(profile):
    # blur widens the shape spread for weighing drinks against each other, but whether an
    # outline fits any drink at all is judged with half that widening: a bottle measured 40 %
    # too wide is no drink even in a blurred frame, where the full widening would pass it
    from companion.vision.classify import OUTLIER_SHAPE, blur_inflation, classify

    f = dict(profile.drinks["red-square_bottle"])
    f["width"] *= 1.4
    got = classify(dict(f), profile, sharpness=0.6)
    assert got["d_shape"] <= OUTLIER_SHAPE < got["d_shape"] * blur_inflation(0.6)   # passed before
    assert got["unsure"] and "outline fits no drink" in got["why"]
    f["width"] /= 1.4 / 1.1         # 10 % too wide: blur excuses that
    got = classify(dict(f), profile, sharpness=0.6)
    assert (got["color"], got["shape"], got["unsure"]) == ("red", "square_bottle", False)


def test_a_square_bottle_reading_flatter_than_calibrated_still_fits(profile):
    # a black square bottle's face caught square to the light reads far more even than in its
    # calibration photo: that is no evidence against a faceted bottle, so it stays itself, and
    # sure. A can reading that flat is no can.
    import math

    from companion.vision.classify import OUTLIER_SHAPE, classify
    from companion.vision.features import FLAT_FLOOR, SHAPE_FEATURES

    # flat is compared as a logarithm: 8 spreads flatter is the unevenness times e^-8spread
    factor = math.exp(-8 * float(profile.shape_model.spread[SHAPE_FEATURES.index("flat")]))

    def flatter(drink):
        f = dict(profile.drinks[drink])
        f["flat"] = (f["flat"] + FLAT_FLOOR) * factor - FLAT_FLOOR
        return f

    got = classify(flatter("black-square_bottle"), profile)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "square_bottle", False)
    can = flatter("black-short_can")
    got = classify(can, profile)
    assert got["shape"] != "short_can" or (got["unsure"] and got["d_shape"] > OUTLIER_SHAPE)


def test_a_black_square_bottle_caught_flat_on_a_light_tray_is_read_sure(tmp_path):
    # seed 21004 (a light tray), 19th touching photo: the bottle's outline fits, its faces
    # read flatter than its calibration photo; it is read as itself, and sure
    profile, image, truth = benchmark_photo(tmp_path, 21004, 18)
    bottle = next(t for t in truth if t["id"] == "black-square_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "square_bottle", False)


def test_a_square_bottle_rocked_on_its_face_on_a_dark_tray_is_no_round_bottle(tmp_path):
    # seed 20007 (a dark tray), 15th blurred photo: a black square bottle rocked on its face
    # reads less even than in its calibration photo; its outline fits a square bottle, and it
    # is read as one, not as the round bottle whose length is a few px more
    profile, image, truth = benchmark_photo(tmp_path, 20007, 15, "hard")
    bottle = next(t for t in truth if t["id"] == "black-square_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"]) == ("black", "square_bottle")


def test_a_drink_read_twice_in_one_photo_is_unsure_the_less_sure_time(tmp_path, monkeypatch):
    # seed 29105 (a light tray), 8th scored blurred photo: a blue stubby can pressed against the
    # blue square bottle is fitted as a second square bottle. Each drink is in the tower
    # once, so the less sure of the two readings is marked unsure; the bottle stays sure
    profile, image, truth = benchmark_photo(tmp_path, 29105, 8, "hard")   # (after the warm-up)
    # (the splitting now keeps the can's piece from a join that spoils it, and reads it right;
    # joined as before, it is fitted as the second square bottle)
    assert reading_at(identify(image, profile), next(t for t in truth if t["id"] == "blue-stubby_can"))["shape"] \
        == "stubby_can"
    monkeypatch.setattr("companion.vision.splitting.FITS_CLEARLY", 0.0)
    # (read by the rules: this is their one-drink-one-reading step; the default's check asks
    # about the wrongly fitted can before it, as no drink of that outline)
    found = identify(image, profile, debug=True, scorer="rules")
    can = reading_at(found, next(t for t in truth if t["id"] == "blue-stubby_can"))
    bottle = reading_at(found, next(t for t in truth if t["id"] == "blue-square_bottle"))
    assert can["unsure"] and "read twice" in can["_why"]
    assert (bottle["color"], bottle["shape"], bottle["unsure"]) == ("blue", "square_bottle", False)
    sure = [(d["color"], d["shape"]) for d in found if not d["unsure"]]
    assert len(sure) == len(set(sure))
