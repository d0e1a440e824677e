"""The landing camera's pixel classes learned (issue 32, item 9): the renderer's truth a pixel
classifier learns from (``LandingRenderer.label_picture``), the numpy network that reads it
(``landing_pixels.PixelClassNet``) and the top view made with it."""
from __future__ import annotations

import numpy as np
import pytest

from companion.landing import spot_of
from companion.sim.landing_render import LABELS, benchmark_scenes, LandingRenderer, landing_to_table
from companion.vision import landing_pixels as lp
from companion.vision.landing_colours import CLASSES
from companion.vision.landing_crops import TOP_PX_PER_MM, frame_projector, patches, top_view
from companion.vision.landing_calibrate import calibrate_landing
from companion.vision.landings import LandingReader


@pytest.fixture(scope="module")
def dev_scene():
    seed, look, frame, scene, loose, photo = next(iter(benchmark_scenes("dev", 0, 1)))
    return look, frame, scene, loose, photo


def test_the_labels_are_the_classes_the_reader_names():
    assert LABELS[:6] == CLASSES[:6] and LABELS[6] == "crate" and CLASSES[6] == "yellow"
    assert LABELS[7] == CLASSES[7] == "table"


def test_each_drink_is_labelled_its_colour_where_the_camera_sees_its_middle(dev_scene):
    look, frame, scene, loose, _ = dev_scene
    renderer = LandingRenderer(look)
    label = renderer.label_picture(scene, loose)
    assert label.shape == frame.shape[:2]
    for d in scene.drinks:
        x, y = landing_to_table(d.x, d.y)
        # the middle of the drink's body seen from the camera: its top face's middle for a
        # standing drink, lifted as the drink lies (a slot's floor, a crate's rim)
        solid = renderer.drink_solid(scene, d)
        top = solid.verts[:, 2].min()
        middle = np.array([[x, y, (top + solid.verts[:, 2].max()) / 2]])
        u, v = np.round(renderer.pin_to_frame(renderer.project(middle))[0]).astype(int)
        around = label[v - 1:v + 2, u - 1:u + 2]
        assert (around == LABELS.index(d.drink.partition("-")[0])).any(), (d.drink, spot_of(scene, d))
    # most of the frame is the table, and the crates are there where the scene has them
    assert (label == LABELS.index("table")).mean() > 0.8
    assert ((label == LABELS.index("crate")).sum() > 500) == bool(scene.crates)


def test_the_numpy_network_gives_each_pixel_a_probability_over_the_classes():
    net = lp.PixelClassNet.random(seed=1)
    lin = np.random.default_rng(0).uniform(0, 1, (6, 7, 3)).astype(np.float32)
    costs = net.costs(lin, TOP_PX_PER_MM)
    assert costs.shape == (len(CLASSES), 6, 7)
    assert np.allclose(np.exp(-costs).sum(0), 1, atol=1e-5)
    # a table bias above one makes the table likelier wherever the network is asked, never less
    # likely; a pixel of the table's own colour is the table without asking
    biased = lp.PixelClassNet(net.w, table_bias=20.0).costs(lin, TOP_PX_PER_MM)
    table = CLASSES.index("table")
    asked = costs[table] > 0
    assert asked.sum() > 30 and (biased[table][asked] < costs[table][asked]).all()
    flat = np.full((9, 9, 3), 0.2, np.float32)
    assert (net.costs(flat, TOP_PX_PER_MM)[table] == 0).all()


def test_the_committed_network_finds_each_drink_of_a_dev_scene(dev_scene):
    net = lp.pixel_net()
    if net is None:
        pytest.skip("no landing pixel network committed")
    look, frame, scene, loose, photo = dev_scene
    cal = calibrate_landing(photo)
    size = (frame.shape[1], frame.shape[0])
    maps = LandingReader(cal, learned=False)._top_maps(size)
    view = top_view(frame, maps, cal.white_bgr, cal.camera_position, frame_projector(cal, size), pixels=net)
    for d in scene.drinks:
        found, _ = patches(view, d.drink.partition("-")[0])
        assert any(np.hypot(*(centre - (d.x, d.y))) < 30 for centre, _, _ in found), d.drink


def test_a_landing_model_says_which_pixel_classes_its_crops_were_cut_with():
    from companion.vision.landing_net import pixels_of
    assert pixels_of({}) is None and pixels_of({"pixels": "rules"}) is None
    if lp.pixel_net() is not None:
        assert pixels_of({"pixels": "learned"}) is lp.pixel_net()
    with pytest.raises(ValueError, match="'rules' or 'learned'"):
        pixels_of({"pixels": "guessed"})


def test_the_training_step_keeps_each_kind_of_pixel_weighed_back(tmp_path):
    import importlib.util
    import types
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("learn_landing_pixels", root / "tools" / "learn_landing_pixels.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / "pixels.npz"
    tool.render(types.SimpleNamespace(family="dev", seeds="0:1", scenes=1, out=str(out)))
    data = np.load(out)
    assert data["x"].shape == (len(data["y"]), len(lp.INPUTS)) and len(data["w"]) == len(data["y"])
    drinks, table = data["y"] < 6, data["y"] == CLASSES.index("table")
    assert drinks.sum() > 100 and table.sum() > 100
    # a drink pixel is kept far more often than a table pixel, so it weighs far less
    assert data["w"][drinks].max() < data["w"][table].max() / 10
    with pytest.raises(SystemExit):
        tool.render(types.SimpleNamespace(family="eval", seeds="940000:940001", scenes=1, out=str(out)))
