"""Training patches cut on the renderer's true grid (tools/crate_truth_patches.py): the grid
through the fields' true middles puts each field where the renderer drew it, even through a
bending lens; every field of the layout is named with its own drink, the ring round the crates
"none", the half-pitch cuts "off"; and the render step writes them in the network's shape."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.crate_fields import EMPTY
from companion.sim.crate_layouts import random_layout
from companion.sim.crate_looks import CrateLook
from companion.sim.crate_render import CrateRenderer
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT
from companion.vision.crate_grid import to_frame
from companion.vision.crate_net import CLASSES
from companion.vision.crate_patches import FEATURES, SIZE

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load(name: str):
    sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cut():
    return load("crate_truth_patches")


def scene(family: str, seed: int):
    """A frame, its truth, and the look's calibration from the truth (as training takes a
    refused look's; quicker than reading the photo)."""
    renderer = CrateRenderer(CrateLook.from_seed(seed, family))
    rng = np.random.default_rng(seed)
    photo, photo_truth = renderer.render(CALIBRATION_LAYOUT, rng)
    frame, truth = renderer.render(random_layout(rng), rng)
    cal = load("learn_crates").truth_calibration(photo, photo_truth, renderer.f)
    return cal, frame, truth, rng


@pytest.mark.parametrize("family, seed", [("dev", 4), ("varied", 17)])
def test_the_true_grid_puts_each_field_where_it_was_drawn(cut, family, seed):
    _, _, truth, _ = scene(family, seed)
    H = cut.true_grid(truth)
    keys = sorted(truth["centres"])
    got = to_frame(H, [(i + 0.5, j + 0.5) for i, j in keys])
    want = np.array([truth["centres"][k] for k in keys])
    pitch_px = np.linalg.norm(to_frame(H, [(0.5, 0.5)]) - to_frame(H, [(1.5, 0.5)]))
    assert np.abs(got - want).max() < 0.1 * pitch_px


def test_a_still_jitter_moves_nothing_and_a_drawn_one_moves_a_little(cut):
    mid = np.array([3.0, 3.0])
    old = cut.SHIFT, cut.TURN, cut.SCALE
    try:
        cut.SHIFT = cut.TURN = cut.SCALE = 0.0
        assert np.allclose(cut.jitter(np.random.default_rng(0), mid), np.eye(3))
    finally:
        cut.SHIFT, cut.TURN, cut.SCALE = old
    moved = [to_frame(cut.jitter(np.random.default_rng(s), mid), [mid])[0] - mid for s in range(50)]
    assert 0.0 < np.abs(moved).max() < 0.4


def test_every_field_is_named_with_its_own_drink(cut):
    cal, frame, truth, rng = scene("dev", 4)
    P, F, Y = cut.truth_patches(frame, truth, cal, rng)
    fields = {tuple(k): v for k, v in truth["fields"].items()}
    w, h = SIZE
    assert P.shape == (len(Y), h, w, 3) and F.shape == (len(Y), len(FEATURES))
    named = [CLASSES[k] for k in Y[:len(fields)]]
    assert named == [fields[c] for c in sorted(fields)]
    rest = [CLASSES[k] for k in Y[len(fields):]]
    assert rest.count("off") == cut.OFF_PER_FRAME
    assert set(rest) == {"none", "off"} and rest.count("none") >= 10
    drinks = [n for n in named if n != EMPTY]
    assert len(drinks) == len(set(drinks))           # each drink once, as it stood


def test_the_render_step_cuts_on_the_truth_when_asked(tmp_path):
    tool = load("learn_crates")
    out = tmp_path / "truth.npz"
    tool.main(["render", "--truth-grid", "--family", "dev", "--seeds", "3:4", "--frames", "2", "--out", str(out)])
    with np.load(out) as d:
        assert d["patches"].shape[1:] == (SIZE[1], SIZE[0], 3)
        assert set(d["frames"].tolist()) == {300, 301}
        labels = [CLASSES[k] for k in d["labels"]]
        assert labels.count("off") == 2 * 4 and "none" in labels and EMPTY in labels
        assert tool.cut_on_truth(d)           # never held out: the bars are set on the reader's own cuts
