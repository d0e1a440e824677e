"""The learned drink scorer (vision/learned.py, issue 26): the committed model loads, scores a
piece the same way every time with numpy alone, knows each drink by its own calibration, and
reads rendered photos of tables it never saw (the tests' and benchmark's seeds are not among
its training tables) no worse than it measured on held-out tables. The rules stay the default."""
from __future__ import annotations

import json

import pytest

from companion.vision import learned
from companion.vision.drinks import identify

from vision_support import benchmark_photo, calibrated

SEED = 8003            # a table whose profile other vision tests share (vision_support's cache)


def test_the_model_is_small_and_was_trained_on_other_tables():
    assert learned.MODEL_PATH.stat().st_size < 1_000_000
    model = json.loads(learned.MODEL_PATH.read_text(encoding="utf-8"))
    assert model["inputs"] == learned.input_names()
    first, last = model["trained"]["tables"]
    assert first > 31_000 and not first <= SEED <= last      # the tests' and benchmark's seeds are below


def test_scoring_is_deterministic_and_knows_each_drink_by_its_calibration():
    profile = calibrated(SEED)
    for drink, record in profile.drinks.items():
        f = {k: v for k, v in record.items() if k != "outline"}
        first = learned.name(f, profile, 1.0)
        again = learned.name(dict(f), profile, 1.0, learned.Scorer(json.loads(learned.MODEL_PATH.read_text())))
        assert first == again
        assert f"{first['color']}-{first['shape']}" == drink and not first["unsure"], (drink, first)


def test_the_scorer_is_an_option_and_the_rules_stay_the_default():
    profile, image, _ = benchmark_photo(None, SEED, 0, "separated")
    with pytest.raises(ValueError):
        identify(image, profile, scorer="guess")
    rules, default = identify(image, profile, scorer="rules"), identify(image, profile)
    assert rules == default


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
