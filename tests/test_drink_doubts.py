"""benchmarks/drink_doubts.py: where the drink reader's doubt comes from, read on the development
and training families only; and benchmarks/vision.py's matching of readings to drinks, which
both share."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _module(name: str):
    sys.path.insert(0, str(BENCHMARKS))          # drink_doubts imports its sibling, vision.py
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_evaluation_family_is_refused(capsys):
    doubts = _module("drink_doubts")
    with pytest.raises(SystemExit) as exit_:
        doubts.main(["--family", "eval"])
    assert exit_.value.code == 2 and "invalid choice: 'eval'" in capsys.readouterr().err


def test_a_name_is_right_or_wrong_in_its_shape_its_colour_or_both():
    kind = _module("drink_doubts").kind_of_mistake
    assert kind("mint-short_can", "mint-short_can") == "right"
    assert kind("mint-short_can", "mint-stubby_can") == "shape"
    assert kind("mint-short_can", "white-short_can") == "colour"
    assert kind("mint-short_can", "white-tallest_bottle") == "both"


def test_each_drink_takes_the_nearest_reading_on_it_once():
    match = _module("vision").match
    box = [[0, 0], [40, 0], [40, 20], [0, 20]]
    truth = [{"id": "a", "x": 10.0, "y": 10.0, "box": box}, {"id": "b", "x": 30.0, "y": 10.0, "box": box},
             {"id": "c", "x": 300.0, "y": 300.0, "box": [[290, 290], [310, 290], [310, 310], [290, 310]]}]
    readings = [{"x": 29.0, "y": 10.0}, {"x": 12.0, "y": 11.0}, {"x": 500.0, "y": 500.0}]
    pairs, used = match(readings, truth)
    assert [(t["id"], j) for t, j in pairs] == [("a", 1), ("b", 0), ("c", None)]
    assert used == {0, 1}                         # the reading at (500, 500) lies on no drink: an extra
