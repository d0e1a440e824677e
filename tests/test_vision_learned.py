"""The learned drink scorer (vision/learned.py, issue 26): the committed model loads, scores a
piece the same way every time with numpy alone, knows each drink by its own calibration, and
reads rendered photos of tables it never saw (the tests' and benchmark's seeds are not among
its training tables) no worse than it measured on held-out tables. The rules stay the default."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from companion.sim.looks import FAMILIES
from companion.vision import learned
from companion.vision.drinks import DEFAULT_SCORER, identify
from companion.vision.tray import TrayWatcher

ROOT = Path(__file__).resolve().parents[1]

from vision_support import benchmark_photo, calibrated

SEED = 8003            # a table whose profile other vision tests share (vision_support's cache)


def _tool():
    """tools/learn_drinks.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("learn_drinks", ROOT / "tools" / "learn_drinks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_model_is_small_and_was_trained_on_other_tables():
    assert learned.MODEL_PATH.stat().st_size < 10_000_000
    model = json.loads(learned.MODEL_PATH.read_text(encoding="utf-8"))
    assert model["inputs"] == learned.input_names()
    for family, (first, last) in model["trained"]["tables"].items():
        assert family in FAMILIES and family != "eval"            # never the evaluation family
        assert first > 31_000 and not first <= SEED <= last      # the tests' and benchmark's seeds are below
        assert first in FAMILIES[family].seeds and last in FAMILIES[family].seeds


def test_the_model_is_the_one_make_model_writes():
    """The committed file says it was made by tools/learn_drinks.py as it stands: the same
    tables, photos, jitter, network and bar of a sure reading (change the tool, run `make model`)."""
    tool = _tool()
    model = json.loads(learned.MODEL_PATH.read_text(encoding="utf-8"))
    trained = model["trained"]
    assert model["kind"] == "tokyo-table-companion/drink-scorer" and model["hidden"] == tool.HIDDEN
    assert trained["tables"] == {fam: [seeds.start, seeds[-1]] for fam, seeds in tool.TRAIN}
    assert trained["temperature_tables"] == {fam: [seeds.start, seeds[-1]] for fam, seeds in tool.TEMPER}
    assert trained["photos_per_difficulty"] == tool.TRAIN_PHOTOS and trained["harsh_photos"] == tool.HARSH
    assert trained["jitter"] == tool.JITTER and trained["seed"] == tool.SEED
    assert trained["sure_right"] == tool.SURE_RIGHT
    # the bar was chosen where the held-out temperature tables' sure readings were right often enough
    held = trained["temperature_tables_at_sure"]
    assert 0.9 <= model["sure"] < 1.0 and held["sure_right"] >= tool.SURE_RIGHT
    assert learned.scorer().sure == model["sure"]


def test_training_is_reproducible_and_the_bar_of_sure_is_chosen_by_how_often_it_is_right():
    """Small synthetic pieces: two trainings give the same weights; the temperature fitted on
    held-out pieces makes an overconfident model less sure, and the chosen bar gives sure
    readings right as often as asked (on the pieces it was chosen on), above 0.9."""
    tool = _tool()
    rng = np.random.default_rng(3)
    n = 400
    x = rng.normal(0, 1, (n, learned.N_DRINKS + 1, learned.N_INPUTS))
    y = rng.integers(0, learned.N_DRINKS, n)
    # the right row stands out in one input, a little: some pieces are ambiguous
    x[np.arange(n), y, 9] -= 2.5
    a, b = tool.train(x, y, hidden=4, epochs=3, seed=7), tool.train(x, y, hidden=4, epochs=3, seed=7)
    assert a == b
    model = tool.train(x, y, hidden=4, epochs=20, seed=7)
    xt = rng.normal(0, 1, (n, learned.N_DRINKS + 1, learned.N_INPUTS))
    yt = rng.integers(0, learned.N_DRINKS, n)
    xt[np.arange(n), yt, 9] -= 2.5
    model["temperature"] = tool.fit_temperature(model, xt, yt)
    bar, held = tool.choose_sure(model, xt, yt, right=0.98)
    assert 0.9 <= bar <= 0.999
    p = learned.Scorer(model).probabilities(xt)[:, :learned.N_DRINKS]
    sure = p.max(axis=1) >= bar
    if held["sure"]:
        assert (p[sure].argmax(axis=1) == yt[sure]).mean() >= 0.98 or bar == 0.999


def test_scoring_is_deterministic_and_knows_each_drink_by_its_calibration():
    profile = calibrated(SEED)
    for drink, record in profile.drinks.items():
        f = {k: v for k, v in record.items() if k != "outline"}
        first = learned.name(f, profile, 1.0)
        again = learned.name(dict(f), profile, 1.0, learned.Scorer(json.loads(learned.MODEL_PATH.read_text())))
        assert first == again
        assert f"{first['color']}-{first['shape']}" == drink and not first["unsure"], (drink, first)


def test_the_scorer_is_an_option_and_the_default_checks_the_rules():
    profile, image, _ = benchmark_photo(None, SEED, 0, "separated")
    with pytest.raises(ValueError):
        identify(image, profile, scorer="guess")
    with pytest.raises(ValueError):
        TrayWatcher(profile, scorer="guess")
    # the default: the rules checked by the pixel network alone (vision/checked.py), which on a
    # development table reads as the rules do
    assert DEFAULT_SCORER == "checked-pixels"
    rules, default = identify(image, profile, scorer="rules"), identify(image, profile)
    assert rules == default
    # on a development table the rules checked by the learned scorer are the rules' readings
    assert identify(image, profile, scorer="checked") == rules


@pytest.mark.parametrize("difficulty,skip", [("touching", 0), ("touching", 1), ("hard", 0)])
def test_reads_a_table_it_never_saw(difficulty, skip):
    """On held-out development tables the learned scorer read 99.83 % right and none wrong, at
    the four difficulties (docs/performance.md); here: no drink missed or read wrong, and at
    most one asked."""
    profile, image, truth = benchmark_photo(None, SEED, skip, difficulty)
    found = identify(image, profile, scorer="learned")
    right = wrong = 0
    for t in truth:
        near = [d for d in found if (d["x"] - t["x"]) ** 2 + (d["y"] - t["y"]) ** 2 < 15 ** 2]
        assert near, f"{t['id']} missed"
        d = min(near, key=lambda d: (d["x"] - t["x"]) ** 2 + (d["y"] - t["y"]) ** 2)
        if not d["unsure"]:
            right += f"{d['color']}-{d['shape']}" == t["id"]
            wrong += f"{d['color']}-{d['shape']}" != t["id"]
    assert wrong == 0
    assert right >= len(truth) - 1


def test_sure_readings_on_a_training_family_table_it_never_saw_are_right():
    """A table of the training family (wider looks than dev's) that neither the training nor
    the choice of the bar saw, calibrated from its own photos: what the learned scorer reads
    sure is right; what it doubts is asked, not guessed (docs/performance.md: on four such
    tables its sure readings were right 394 times in 394)."""
    from companion.sim.looks import Look
    from companion.sim.render import Renderer
    from companion.sim.scenes import calibration_photos, render_sample
    from companion.vision.calibrate import calibrate_photos

    seed = 1_300_000
    look = Look.from_seed(seed, family="train")
    photos = calibration_photos(look, seed)
    _, background = next(photos)
    profile = calibrate_photos(background, ((d, f"{d}.png", img) for d, img in photos), "training-family table")
    renderer, rng = Renderer(look), np.random.default_rng([seed, 31337])
    sure = 0
    for difficulty in ("separated", "touching", "hard"):
        image, truth = render_sample(renderer, rng, difficulty)
        found = identify(image, profile, scorer="learned")
        for t in truth:
            near = [d for d in found if (d["x"] - t["x"]) ** 2 + (d["y"] - t["y"]) ** 2 < 15 ** 2]
            if near and not (d := min(near, key=lambda d: (d["x"] - t["x"]) ** 2 + (d["y"] - t["y"]) ** 2))["unsure"]:
                assert f"{d['color']}-{d['shape']}" == t["id"] and d["confidence"] >= learned.scorer().sure
                sure += 1
    assert sure >= 6           # and it is not merely unsure of everything


def test_the_checked_scorer_keeps_the_rules_sure_only_where_the_learned_scorer_names_alike():
    """scorer="checked": the rules' pieces and names, each sure reading asked of the learned
    scorer; where it names the piece otherwise the reading is kept but unsure (and its why says
    the other name). A rules' mistake (a sure reading given another drink's name) is caught."""
    import copy

    from companion.vision.drinks import identify_analysis
    from companion.vision.segment import analyse

    profile, image, truth = benchmark_photo(None, SEED, 0, "hard")
    an = analyse(image, profile)
    kept = {}
    identify_analysis(an, profile, lambda readings, _an, _p: kept.setdefault("rules", copy.deepcopy(readings)))
    rules = kept["rules"]
    sure = [i for i, d in enumerate(rules) if not d["unsure"] and "_f" in d and not d.get("_fitted")]
    assert len(sure) >= 4
    wrong = copy.deepcopy(rules)
    d = wrong[sure[0]]
    d["color"], d["shape"] = ("white", "tallest_bottle") if d["color"] != "white" else ("black", "stubby_can")
    checked = learned.check(copy.deepcopy(wrong), an, profile)
    for before, after in zip(wrong, checked):
        assert (after["color"], after["shape"], after["x"], after["y"]) == (before["color"], before["shape"], before["x"], before["y"])
        if before["unsure"] or "_f" not in before or before.get("_fitted"):   # not the scorer's to judge
            assert after["unsure"] == before["unsure"]
            continue
        other = learned.name(before["_f"], profile, an.sharpness, rules=before)
        agrees = (other["color"], other["shape"]) == (before["color"], before["shape"])
        assert after["unsure"] == (not agrees)
        if not agrees:
            assert f"learned: {other['color']}-{other['shape']}?" in after["_why"]
    assert checked[sure[0]]["unsure"], "a sure reading the learned scorer names otherwise stays sure"
    # the whole frame through identify: no drink read sure that the rules did not read sure
    rules_read = identify(image, profile, scorer="rules")
    for d in identify(image, profile, scorer="checked"):
        if not d["unsure"]:
            assert any((r["x"], r["y"], r["color"], r["shape"]) == (d["x"], d["y"], d["color"], d["shape"])
                       and not r["unsure"] for r in rules_read)
