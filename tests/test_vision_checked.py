"""The rules checked by a second opinion (vision/checked.py, issue 26): the pixel network that
reads the pixels alone loads and takes nothing of the rules' reading; ``scorer="checked-pixels"``
keeps the rules' pieces and names, and a sure reading stays sure only where that network agrees;
an injected rules' mistake is caught."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from companion.sim.looks import FAMILIES
from companion.vision import checked, pixel_scorer
from companion.vision.drinks import SCORERS, identify, identify_analysis
from companion.vision.segment import analyse

from vision_support import benchmark_photo

SEED = 8003            # a development table no training saw (vision_support's cache)


def _rules_pieces(difficulty: str, skip: int = 0):
    profile, image, truth = benchmark_photo(None, SEED, skip, difficulty)
    an = analyse(image, profile)
    kept = {}
    identify_analysis(an, profile, lambda readings, _an, _p: kept.setdefault("pieces", copy.deepcopy(readings)))
    return profile, image, an, kept["pieces"], truth


def test_the_network_alone_loads_is_small_and_sees_no_rules():
    """Its side numbers are the pixel scorer's own three (blur, area, fitted): no feature
    scorer's view, so neither the rules' name nor their sureness; trained and fitted on tables
    of the training and development families other than the ones measured here; its check's
    settings were chosen on held-out training-family tables."""
    assert checked.ALONE_PATH.stat().st_size < 10_000_000
    model = checked.alone_model()
    assert not model.features and len(model.net.w["mean"]) == pixel_scorer.N_SIDE and "res" not in model.net.w
    settings = model.settings
    for family, first, last in settings["trained"]["tables"] + settings["trained"]["temperature_tables"]:
        assert family in FAMILIES and family != "eval" and not first <= SEED <= last
    check = settings["check"]
    assert check["agree"] is None or 0 < check["agree"] < 0.5
    assert all(fam == "train" for fam, _, _ in check["held_out_tables"])
    trained = {(fam, s) for fam, s, _ in settings["trained"]["tables"]}
    assert not any((fam, s) in trained for fam, first, last in check["held_out_tables"] for s in range(first, last + 1))
    assert "checked-pixels" in SCORERS


def test_an_injected_rules_mistake_is_asked_and_the_rest_follow_the_network():
    """A sure rules' reading renamed to the drink the network finds least likely (a mistake
    the rules could make on an unseen look) is made unsure, with the network's name in its
    why; every other reading is unsure exactly where the check's rule says (the network's top
    name, or its probability of the rules' name against ``agree``); names and places are the
    rules'. A check that does nothing fails the first assertion."""
    profile, _image, an, rules, _truth = _rules_pieces("hard")
    model = checked.alone_model()
    agree, fitted, mirror = checked.pixel_check_settings(model)
    judged = [i for i, d in enumerate(rules)
              if not d["unsure"] and "_f" in d and (fitted or not d.get("_fitted"))]
    assert len(judged) >= 4
    wrong = copy.deepcopy(rules)
    victim = wrong[judged[0]]
    p = checked.pixel_opinion([victim], an, profile, model, mirror)[0, :pixel_scorer.N_DRINKS]
    victim["color"], victim["shape"] = checked.drink_name(int(np.argmin(p))).split("-", 1)
    after = checked.check_pixels(copy.deepcopy(wrong), an, profile)
    assert after[judged[0]]["unsure"], "a sure reading the network finds least likely stayed sure"
    assert f"pixels: {checked.drink_name(int(np.argmax(p)))}?" in after[judged[0]]["_why"]
    probs = checked.pixel_opinion([wrong[i] for i in judged], an, profile, model, mirror)
    expected = {i: not (int(np.argmax(row[:36])) == checked.drink_index(wrong[i])
                        or (agree is not None and row[checked.drink_index(wrong[i])] >= agree))
                for i, row in zip(judged, probs)}
    for i, (before, got) in enumerate(zip(wrong, after)):
        assert (got["color"], got["shape"], got["x"], got["y"], got["confidence"]) == \
            (before["color"], before["shape"], before["x"], before["y"], before["confidence"])
        assert got["unsure"] == (expected[i] if i in expected else before["unsure"])


@pytest.mark.parametrize("difficulty,skip", [("separated", 0), ("touching", 1)])
def test_through_identify_no_drink_is_sure_that_the_rules_did_not_read_sure(difficulty, skip):
    """The whole frame: the rules' pieces, names and places; sure only where the rules were
    sure; and on a development table the network agrees with nearly all of them (at most one
    asked more than the rules asked)."""
    profile, image, _an, _rules, _truth = _rules_pieces(difficulty, skip)
    rules = identify(image, profile, scorer="rules")
    got = identify(image, profile, scorer="checked-pixels")
    assert [(d["x"], d["y"], d["color"], d["shape"]) for d in got] == [(d["x"], d["y"], d["color"], d["shape"]) for d in rules]
    assert all(g["unsure"] or not r["unsure"] for r, g in zip(rules, got))
    assert sum(g["unsure"] and not r["unsure"] for r, g in zip(rules, got)) <= 1
