"""The crate network's training tool (tools/learn_crates.py), its data step on a tiny set: the
fields the reader cuts from a rendered frame are named from the renderer's truth (each drink of
the layout once, where it stands), the saved patches have the network's input shape, and the
evaluation family is refused."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from companion.crate_fields import EMPTY
from companion.sim.crate_layouts import random_layout
from companion.sim.crate_looks import CrateLook
from companion.sim.crate_render import CrateRenderer
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, calibrate_crates
from companion.vision.crate_grid import to_frame
from companion.vision.crate_net import CLASSES
from companion.vision.crate_patches import FEATURES, SIZE
from companion.vision.crates import CrateReader

TOOL = Path(__file__).resolve().parents[1] / "tools" / "learn_crates.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("learn_crates", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cut_fields_are_named_from_the_truth(tool):
    renderer = CrateRenderer(CrateLook.from_seed(5, "dev"))
    rng = np.random.default_rng(1)
    photo, _ = renderer.render(CALIBRATION_LAYOUT, rng)
    reader = CrateReader(calibrate_crates(photo), model=None)
    frame, truth = renderer.render(random_layout(rng), rng)
    found = reader.locate(frame)
    labels = tool.label_cells(found, truth)
    assert len(labels) == len(found.cells)
    names = [CLASSES[k] for k in labels if k >= 0]
    drinks = [n for n in names if n not in ("none", "off", EMPTY)]
    layout = {tuple(k): v for k, v in truth["fields"].items()}
    # each of the layout's drinks is named once (nearly all found), never a drink it lacks
    assert len(drinks) == len(set(drinks))
    assert set(drinks) <= set(layout.values())
    assert len(drinks) >= 0.9 * sum(v != EMPTY for v in layout.values())
    # and where it stands: the named cell's middle lies within 0.3 pitch of that drink's field
    centres = {tuple(k): np.array(v, np.float64) for k, v in truth["centres"].items()}
    where = {v: k for k, v in layout.items() if v != EMPTY}
    for (i, j), k in zip(found.cells, labels):
        if k >= 0 and CLASSES[k] in where:
            mid, right = to_frame(found.grid.H, [(i + 0.5, j + 0.5), (i + 1.5, j + 0.5)])
            assert np.linalg.norm(centres[where[CLASSES[k]]] - mid) <= 0.3 * np.linalg.norm(right - mid)

def test_the_render_step_writes_patches_of_the_network_shape(tool, tmp_path):
    out = tmp_path / "tiny.npz"
    tool.main(["render", "--family", "dev", "--seeds", "3:4", "--frames", "1", "--out", str(out)])
    with np.load(out) as d:
        w, h = SIZE
        assert d["patches"].shape[1:] == (h, w, 3)
        assert d["feats"].shape == (len(d["patches"]), len(FEATURES))
        assert len(d["labels"]) == len(d["patches"]) > 36
        assert set(np.unique(d["labels"])) <= set(range(len(CLASSES)))
        assert str(d["family"]) == "dev" and set(d["seeds"]) == {3}
        assert set(d["frames"].tolist()) == {300}        # each patch's frame (seed * 100 + its number)
        assert not tool.cut_on_truth(d)                  # cut on the reader's own grid: the bars may be set on it


def test_the_evaluation_family_is_refused(tool, tmp_path):
    with pytest.raises(SystemExit):
        tool.main(["render", "--family", "eval", "--seeds", "910000:910001", "--out", str(tmp_path / "x.npz")])


def test_a_label_smoothing_out_of_bounds_is_refused_in_words(tool, tmp_path):
    for bad in ("-0.1", "1.0"):
        with pytest.raises(SystemExit, match="label-smoothing"):
            tool.main(["train", str(tmp_path / "x.npz"), "--label-smoothing", bad])


def test_a_network_shape_out_of_bounds_is_refused_in_words(tool, tmp_path, capsys):
    for args, said in ((["--channels", "24,48"], "--channels: '24,48': give 3 whole numbers"),
                       (["--channels", "24,0,64"], "--channels: '24,0,64': give 3 whole numbers"),
                       (["--hidden", "0"], "--hidden: '0': give a whole number")):
        with pytest.raises(SystemExit):
            tool.main(["train", str(tmp_path / "x.npz"), *args])
        assert said in capsys.readouterr().err


def test_a_wider_network_is_read_by_the_run_time_layers():
    """A network trained wider (``--channels --hidden``) needs no change at run time: the numpy
    layers take the weights' shapes."""
    from companion.vision.crate_net import FieldNet

    net = FieldNet.random(seed=1, channels=(24, 48, 64), hidden=192)
    out = net.logits(np.zeros((2, SIZE[1], SIZE[0], 3), np.float32), np.zeros((2, len(FEATURES)), np.float32))
    assert out.shape == (2, len(CLASSES)) and np.isfinite(out).all()


def test_a_refused_look_is_calibrated_from_the_truth_for_training(tool):
    """A training look whose calibration photo the calibration refuses still gives patches: its
    calibration from the renderer's truth finds the frame's grid, and the fields are named."""
    from companion.vision.crate_calibrate import CrateCalibrationError
    renderer = CrateRenderer(CrateLook.from_seed(REFUSED_LOOK, "varied"))
    rng = np.random.default_rng([REFUSED_LOOK, 31])
    photo, truth = renderer.render(CALIBRATION_LAYOUT, rng)
    with pytest.raises(CrateCalibrationError):         # (the network's marks would place it: off here)
        calibrate_crates(photo, learned=False)
    cal = tool.truth_calibration(photo, truth, renderer.f)
    assert cal is not None and cal.notes == "truth (training)"
    frame, ftruth = renderer.render(random_layout(rng), rng)
    found = CrateReader(cal, model=None).locate(frame)
    labels = tool.label_cells(found, ftruth)
    named = [CLASSES[k] for k in labels if k >= 0 and CLASSES[k] not in ("none", "off")]
    assert len(named) >= 0.8 * len(ftruth["fields"])


REFUSED_LOOK = 12      # a varied look whose cans do not come apart, nor its outline (a pale crate)


def test_the_bars_allow_one_sure_mistake_a_kind_per_so_many_held_out_fields(tool):
    # 10,000 held-out fields, all truly empty, read as empty; the ten read as a drink are wrong
    # with growing confidence: one in 5,000 allows two of them sure, so the bar sits just above
    # the third likeliest mistake; one in 10,000 (or fewer fields) allows one
    n = 10_000
    prob = np.full((n, len(CLASSES)), 1e-6)
    prob[:, 1] = 0.999
    drink = CLASSES.index("red-tall_can")
    wrong_scores = np.linspace(0.91, 0.99, 10)
    prob[:10, 1] = 1e-6
    prob[:10, drink] = wrong_scores
    Y = np.full(n, 1)
    two = tool.bars_from(prob, Y, CLASSES, per=5000)["sure"]
    one = tool.bars_from(prob, Y, CLASSES, per=10_000)["sure"]
    assert wrong_scores[-3] < two < wrong_scores[-2]
    assert wrong_scores[-2] < one < wrong_scores[-1]
    sure_wrong = (wrong_scores >= two).sum()
    assert sure_wrong == 2
