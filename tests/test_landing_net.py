"""The landing reader's learned part (issue 32, item 9): the turned crops, the committed network
reading rendered frames, doubt reported as unsure, and the training script's data step."""
from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import numpy as np
import pytest

from companion.landing import LandingScene, PlacedCrate, PlacedDrink, truth
from companion.sim.landing_render import LandingLook, LandingRenderer, calibration_photo
from companion.vision.landing_calibrate import calibrate_landing
from companion.vision.landing_crops import (ALL_FEATURES, ALSO_FEATURES, CHANNELS, CROP, CROP_MM, FEATURES, crop_basis, cut,
                                          to_crop)
from companion.vision.landing_net import LandingEnsemble, LandingModel, LandingNet, landing_model
from companion.vision.landing_reading import choose
from companion.vision.landings import LandingReader

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def setup():
    look = LandingLook.from_seed(5)
    cal = calibrate_landing(calibration_photo(look, np.random.default_rng(0)))
    return LandingRenderer(look), cal


def right(true, got) -> bool:
    return got.seen and got.spot == true.spot and abs(got.distance_mm - true.distance_mm) <= max(10, 0.05 * true.distance_mm)


def test_a_crop_is_turned_so_that_the_ray_from_the_camera_points_up():
    # a top view (1.5 px a mm) with one bright pixel 12 mm beyond the centre as the camera sees it
    from companion.vision.landing_crops import TOP_PX_PER_MM, VIEW_MM
    x0, x1, y0, y1 = VIEW_MM
    image = np.zeros((int((y1 - y0) * TOP_PX_PER_MM), int((x1 - x0) * TOP_PX_PER_MM), 3), np.uint8)
    camera, centre = np.array([-200.0, -300.0]), np.array([60.0, 150.0])
    basis = crop_basis(camera, centre)
    far = centre + basis[1] * 12.0
    image[int((y1 - far[1]) * TOP_PX_PER_MM), int((far[0] - x0) * TOP_PX_PER_MM)] = 255
    crop = cut(image, centre, basis)[..., 0]
    row, col = np.unravel_index(int(np.argmax(crop)), crop.shape)
    assert abs(col - CROP / 2) <= 1.5 and abs((CROP / 2 - row) * CROP_MM - 12.0) <= 2.5
    assert to_crop(far, centre, basis).round(3).tolist() == [0.0, 12.0]


def test_the_frame_crop_shows_the_camera_s_look_with_the_table_s_vertical_up(setup):
    # a bright pixel where the camera sees a point 20 mm over the crop's middle lift, straight
    # above the candidate: in the frame crop it is straight above the middle, 20 mm up
    from companion.vision.landing_crops import FRAME_LIFT_MM, FRAME_MM, TopView, frame_crop, frame_projector
    _, cal = setup
    size = tuple(cal.image_size)
    frame = np.zeros((size[1], size[0], 3), np.uint8)
    centre = np.array([70.0, 180.0])
    u, v = np.round(cal.project(np.array([[*centre, FRAME_LIFT_MM + 20.0]]))[0]).astype(int)
    frame[v, u] = 255
    camera = cal.camera_position
    view = TopView(np.zeros((1, 1, 6), np.uint8), None, None, None, None, camera, frame, cal.white_bgr,
                   frame_projector(cal, size))
    for mirror in (False, True):
        crop = frame_crop(view, centre, crop_basis(camera[:2], centre), mirror)[..., 0]
        row, col = np.unravel_index(int(np.argmax(crop)), crop.shape)
        assert crop.max() > 0 and abs(col - (CROP - 1) / 2) <= 1.5 and abs(((CROP - 1) / 2 - row) * FRAME_MM - 20.0) <= 2.5
    # no frame (a view made without the camera): blank, the network's input keeps its shape
    blank = TopView(np.zeros((1, 1, 6), np.uint8), None, None, None, None, camera)
    assert frame_crop(blank, centre, crop_basis(camera[:2], centre)).shape == (CROP, CROP, 3)


def test_a_fine_crop_is_the_top_view_again_at_twice_the_detail(setup):
    # a look's top view cut for one candidate in each layout: the same first six channels, the
    # fine six the top view cut at FINE_MM around the same centre; a model reads only its own layout
    from companion.vision.landing_crops import FINE_CHANNELS, FINE_MM, candidates, frame_projector, top_view
    renderer, cal = setup
    scene = LandingScene(crates=(PlacedCrate(x=0.0, y=70.0),),
                         drinks=(PlacedDrink(drink="red-short_can", x=-40.0, y=160.0, length_mm=20, width_mm=11),))
    frame = renderer.render(scene, np.random.default_rng(3))
    size = (frame.shape[1], frame.shape[0])
    view = top_view(frame, LandingReader(cal)._top_maps(size), cal.white_bgr, cal.camera_position,
                    frame_projector(cal, size))
    top, fine = candidates(view, "red-short_can")[0], candidates(view, "red-short_can", channels=FINE_CHANNELS)[0]
    assert fine.crop.shape == (CROP, CROP, 12) and (fine.crop[..., :6] == top.crop).all()
    assert (fine.crop[..., 6:] == cut(view.image, fine.centre, fine.basis, mm=FINE_MM)).all()
    # the drink fills more of the fine crop (twice the detail, half the width)
    assert (fine.crop[..., 9] > 0).sum() > 3 * (fine.crop[..., 3] > 0).sum()
    with pytest.raises(ValueError, match="other inputs"):
        LandingModel(LandingNet.random(seed=1), {"channels": list(FINE_CHANNELS)})
    with pytest.raises(ValueError, match="channels"):
        candidates(view, "red-short_can", channels=("b", "g"))
    assert LandingModel(LandingNet.random(seed=1, channels=12), {"channels": list(FINE_CHANNELS)}).channels == FINE_CHANNELS


def test_choose_reports_doubt():
    middles = np.array([[0.0, 100.0], [80.0, 200.0]])
    # two patches both likely the drink, far apart: which is it?
    twins = choose(np.array([[0, 0, 0.98, 0.02], [0, 0, 0.9, 0.1]]), middles, np.ones(2))
    assert twins["rival"]
    # a second patch 0.4 likely the drink: a rival under the default bar (0.3), not under a model's 0.5
    faint = choose(np.array([[0, 0, 0.98, 0.02], [0, 0, 0.4, 0.6]]), middles, np.ones(2))
    assert faint["rival"] and abs(faint["rival_p"] - 0.4) < 1e-9
    assert not choose(np.array([[0, 0, 0.98, 0.02], [0, 0, 0.4, 0.6]]), middles, np.ones(2), 0.5)["rival"]
    # a drink cut in two by a wall: both halves put its middle at one place: no rival
    halves = choose(np.array([[0, 0.97, 0, 0.03], [0, 0.9, 0, 0.1]]), np.array([[0, 60.0], [3, 62.0]]), np.ones(2))
    assert halves["spot"] == 1 and not halves["rival"]
    assert choose(np.array([[0.1, 0.1, 0.1, 0.7]]), middles[:1], np.ones(1)) is None
    # how likely the patch is the drink, and its spot's share of the three spots (is_sure's second way)
    torn = choose(np.array([[0.0, 0.02, 0.78, 0.2]]), middles[:1], np.ones(1))
    assert abs(torn["p_drink"] - 0.8) < 1e-9 and abs(torn["share"] - 0.975) < 1e-9 and torn["p_spot"] == 0.78


def test_the_committed_model_reads_a_development_frame_right_where_sure(setup):
    renderer, cal = setup
    model = landing_model()
    assert model is not None, "the committed landing model is missing (tools/learn_landings.py)"
    reader = LandingReader(cal)
    assert reader.model is model
    crate = PlacedCrate(x=5.0, y=65.0)      # its slots' middles at x -2.5 or 12.5, y 50, 65 or 80
    scene = LandingScene(crates=(crate,), drinks=(
        PlacedDrink(drink="red-short_can", x=-60.0, y=140.0, yaw=30.0, length_mm=20, width_mm=11),
        PlacedDrink(drink="blue-tall_can", x=90.0, y=230.0, yaw=100.0, length_mm=26, width_mm=11),
        PlacedDrink(drink="purple-stubby_can", x=10.0, y=300.0, yaw=10.0, length_mm=14, width_mm=12),
        PlacedDrink(drink="mint-short_can", x=-2.5, y=50.0, standing=True, length_mm=20, width_mm=11)))
    got = reader.read(renderer.render(scene, np.random.default_rng(1)), tuple(d.drink for d in scene.drinks))
    assert got.usable
    pairs = list(zip(truth(scene).landings, got.landings))
    assert all(right(t, g) for t, g in pairs if g.sure), pairs
    assert sum(g.sure for _, g in pairs) >= 3, pairs


def test_no_drink_and_bad_frames_give_no_sure_reading(setup):
    renderer, cal = setup
    empty = renderer.render(LandingScene(crates=(PlacedCrate(x=0.0, y=70.0),)), np.random.default_rng(2))
    got = LandingReader(cal).read(empty, ("red-short_can", "white-tall_can", "black-stubby_can"))
    assert got.usable and not any(x.sure for x in got.landings)
    reader = LandingReader(cal)
    for bad in (np.zeros((720, 1280, 3), np.uint8), np.zeros((10, 10, 3), np.uint8), "no picture", None):
        assert reader.read(bad, ("red-short_can",)).codes == ["camera_error"]


def test_a_model_whose_bars_nothing_clears_reads_everything_unsure(setup):
    renderer, cal = setup
    model = landing_model()
    bars = {**model.settings, "sure": 1.01, "sure_drink": 1.01}      # neither way of being sure can be cleared
    doubtful = LandingEnsemble(model.members, bars) if isinstance(model, LandingEnsemble) else LandingModel(model.net, bars)
    scene = LandingScene(drinks=(PlacedDrink(drink="red-short_can", x=-40.0, y=160.0, length_mm=20, width_mm=11),))
    got = LandingReader(cal, doubtful).read(renderer.render(scene, np.random.default_rng(3)), ("red-short_can",))
    assert got.landings[0].seen and not got.landings[0].sure


def test_an_ensemble_of_one_network_twice_reads_as_the_network():
    model = LandingModel(LandingNet.random(seed=3), {"temperature": 0.8})
    rng = np.random.default_rng(4)
    crops = rng.integers(0, 256, (3, CROP, CROP, len(CHANNELS)), dtype=np.uint8)
    feats = rng.normal(0, 1, (3, len(FEATURES))).astype(np.float32)
    p, off, scale = model.read(crops, feats)
    for combine in ("product", "mean"):
        q, off2, scale2 = LandingEnsemble([model, model], {"combine": combine}).read(crops, feats)
        assert np.allclose(p, q) and np.allclose(off, off2) and np.allclose(scale, scale2)
    # two networks that disagree on the middle: the scale grows by their disagreement
    other = LandingModel(LandingNet.random(seed=5), {"temperature": 0.8})
    _, o1, s1 = other.read(crops, feats)
    _, o2, s2 = LandingEnsemble([model, other]).read(crops, feats)
    assert np.allclose(o2, (off + o1) / 2) and (s2 >= (scale + s1) / 2 - 1e-9).all()
    assert LandingEnsemble([model]).read(crops[:0], feats[:0])[0].shape == (0, 4)


def test_a_wider_network_is_read_by_its_weights_shapes(tmp_path):
    from companion.vision.model_files import save_net
    wide = LandingNet.random(seed=2, widths=(24, 48, 96, 128), hidden=256)
    save_net({"widths": [24, 48, 96, 128], "hidden": 256}, wide.w, tmp_path / "landing_model.json", tmp_path / "landing_net.npz")
    model = landing_model(str(tmp_path / "landing_model.json"), str(tmp_path / "landing_net.npz"))
    landing_model.cache_clear()
    crops = np.random.default_rng(1).integers(0, 256, (2, CROP, CROP, len(CHANNELS)), dtype=np.uint8)
    p, off, scale = model.read(crops, np.zeros((2, len(FEATURES)), np.float32))
    assert model.net.w["c4w"].shape[0] == 128 and p.shape == (2, 4) and np.allclose(p.sum(1), 1)
    assert np.allclose(p, LandingModel(wide).read(crops, np.zeros((2, len(FEATURES)), np.float32))[0])


def test_a_model_reads_the_numbers_its_settings_name():
    # a candidate carries ALL_FEATURES; a model trained with the asked colour and the others asked
    # reads all 22, the committed kind the first 10, and a model given the wrong count is told what it reads
    rng = np.random.default_rng(6)
    crops = rng.integers(0, 256, (2, CROP, CROP, len(CHANNELS)), dtype=np.uint8)
    carried = rng.normal(0, 1, (2, len(ALL_FEATURES))).astype(np.float32)
    base = LandingModel(LandingNet.random(seed=1))
    assert np.allclose(base.read(crops, carried)[0], base.read(crops, carried[:, :len(FEATURES)])[0])
    w = LandingNet.random(seed=1).w
    extra = len(ALL_FEATURES) - len(FEATURES)
    w = {**w, "f1w": np.concatenate([w["f1w"], rng.normal(0, 1, (w["f1w"].shape[0], extra))], axis=1),
         "mean": np.zeros(len(ALL_FEATURES)), "std": np.ones(len(ALL_FEATURES))}
    coloured = LandingModel(LandingNet(w), {"features": list(ALL_FEATURES)})
    other = carried.copy()
    other[:, len(FEATURES):] = 0
    assert not np.allclose(coloured.read(crops, carried)[0], coloured.read(crops, other)[0])     # the colour counts
    with pytest.raises(ValueError, match=f"reads {len(ALL_FEATURES)} of a candidate's {len(ALL_FEATURES)}"):
        coloured.read(crops, carried[:, :12])
    with pytest.raises(ValueError, match="other inputs"):
        LandingModel(LandingNet(w))             # 22 numbers' weights, settings naming 10
    # a render made before the others were carried (16 numbers) is read as it was
    w16 = {**w, "f1w": w["f1w"][:, :-len(ALSO_FEATURES)], "mean": np.zeros(16), "std": np.ones(16)}
    names16 = list(ALL_FEATURES[:16])
    assert np.allclose(LandingModel(LandingNet(w16), {"features": names16}).read(crops, carried[:, :16])[0],
                       LandingModel(LandingNet(w16), {"features": names16}).read(crops, carried)[0])


def test_a_candidate_carries_the_other_drinks_asked_about(setup):
    # the game knows which drinks came out: a candidate carries its own colour and, apart, the
    # colours of the other drinks asked about with it (never its own), for a model that reads them
    from companion.drinks import COLOURS
    from companion.vision.landing_crops import COLOUR_FEATURES, candidates, frame_projector, top_view
    renderer, cal = setup
    scene = LandingScene(crates=(), drinks=(PlacedDrink(drink="white-short_can", x=-40.0, y=160.0, length_mm=20, width_mm=11),))
    frame = renderer.render(scene, np.random.default_rng(3))
    size = (frame.shape[1], frame.shape[0])
    view = top_view(frame, LandingReader(cal)._top_maps(size), cal.white_bgr, cal.camera_position,
                    frame_projector(cal, size))
    names = [c.value for c in COLOURS]
    alone = candidates(view, "white-short_can")[0].features
    beside = candidates(view, "white-short_can", also=("white", "blue", "red"))[0].features
    own = alone[len(FEATURES):len(FEATURES) + len(COLOUR_FEATURES)]
    assert own.tolist() == [float(n == "white") for n in names]
    assert alone[-len(ALSO_FEATURES):].sum() == 0
    assert beside[-len(ALSO_FEATURES):].tolist() == [float(n in ("blue", "red")) for n in names]
    assert np.array_equal(alone[:-len(ALSO_FEATURES)], beside[:-len(ALSO_FEATURES)])


def test_an_ensemble_is_loaded_from_its_settings(tmp_path):
    import json
    from companion.vision.model_files import save_net
    nets = {"landing_net.npz": LandingNet.random(seed=1), "landing_net_2.npz": LandingNet.random(seed=2)}
    settings = {"members": [{"net": "landing_net.npz", "temperature": 0.8}, {"net": "landing_net_2.npz", "temperature": 0.9}],
                "combine": "product", "temperature": 0.9, "sure": 0.97, "sure_scale_mm": 5.0}
    for name, net in nets.items():
        save_net(settings, net.w, tmp_path / "landing_model.json", tmp_path / name)
    model = landing_model(str(tmp_path / "landing_model.json"), str(tmp_path / "landing_net.npz"))
    assert isinstance(model, LandingEnsemble) and [m.temperature for m in model.members] == [0.8, 0.9]
    assert np.allclose(model.members[1].net.w["c1w"], nets["landing_net_2.npz"].w["c1w"])
    assert (model.sure, model.sure_scale_mm, model.temperature) == (0.97, 5.0, 0.9)
    (tmp_path / "landing_net_2.npz").unlink()
    landing_model.cache_clear()
    with pytest.raises(ValueError, match="landing_net_2.npz"):
        landing_model(str(tmp_path / "landing_model.json"), str(tmp_path / "landing_net.npz"))
    json.loads((tmp_path / "landing_model.json").read_text())
    landing_model.cache_clear()


def test_the_training_data_step_runs_on_a_tiny_set(tmp_path):
    spec = importlib.util.spec_from_file_location("learn_landings", ROOT / "tools" / "learn_landings.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / "tiny.npz"
    tool.render(types.SimpleNamespace(family="dev", seeds="20000:20001", scenes=1, copies=1, budget=0, channels="top",
                                      pixels="learned", out=str(out)))
    data = np.load(out)
    assert str(data["pixels"]) == "learned"      # the crops say which pixel classes cut them
    n = len(data["classes"])
    assert n >= 2 and data["crops"].shape == (n, CROP, CROP, len(CHANNELS)) and data["feats"].shape == (n, len(ALL_FEATURES))
    # each crop carries its asked colour, once: one asked drink of each colour a scene; and the
    # other colours asked with it, never its own, each of them the colour of a drink in the scene
    colours = data["feats"][:, len(FEATURES):len(FEATURES) + 6]
    assert (colours.sum(1) == 1).all() and len(set(colours.argmax(1).tolist())) == 6
    also = data["feats"][:, len(FEATURES) + 6:]
    assert also.shape[1] == 6 and not (also * colours).any() and also.any()
    present = data["group_spot"] >= 0       # one scene: a group a colour, in COLOURS' order, -1 when not there
    assert not (also.max(0) > present).any()
    assert set(data["classes"].tolist()) - {0, 1, 2, 3} == set()
    assert (data["classes"] != 3).any()         # the scene's drinks are found and named
    assert int(data["groups"].max()) < len(data["group_spot"])
    with pytest.raises(SystemExit):
        tool.render(types.SimpleNamespace(family="eval", seeds="940000:940001", scenes=1, copies=1, budget=0,
                                          channels="top", pixels="rules", out=str(out)))


def test_a_batch_normalised_network_is_exported_as_the_plain_one_the_reader_runs():
    """``learn_landings --norm batch`` trains conv-norm-ReLU; its export folds each norm's
    running statistics into the convolution, so the numpy network computes the same outputs."""
    torch = pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("learn_landings", ROOT / "tools" / "learn_landings.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    torch.manual_seed(0)
    net = tool.torch_net(norm=True)
    for norm in net.norms:          # statistics of a trained network, not the identity
        norm.running_mean.uniform_(-0.5, 0.5)
        norm.running_var.uniform_(0.2, 3.0)
        norm.weight.data.uniform_(0.5, 1.5)
        norm.bias.data.uniform_(-0.3, 0.3)
    net.eval()
    crops = np.random.default_rng(3).integers(0, 256, (3, CROP, CROP, len(CHANNELS)), dtype=np.uint8)
    feats = np.random.default_rng(4).normal(0, 1, (3, len(FEATURES))).astype(np.float32)
    with torch.no_grad():
        want = net(torch.from_numpy(crops).float().permute(0, 3, 1, 2) / 255.0, torch.from_numpy(feats)).numpy()
    weights = tool.exported(net, np.zeros(len(FEATURES)), np.ones(len(FEATURES)))
    assert set(weights) == {"c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "c4w", "c4b", "f1w", "f1b", "f2w", "f2b", "mean", "std"}
    got = LandingNet(weights).raw(crops, feats)
    assert np.allclose(got, want, atol=1e-4)
    plain = tool.exported(tool.torch_net(), np.zeros(len(FEATURES)), np.ones(len(FEATURES)))
    assert not np.allclose(LandingNet(plain).raw(crops, feats), want, atol=1e-2)     # the fold is what matches


def test_given_bars_are_kept_and_reported_on_the_tuning_drinks(tmp_path):
    """``learn_landings tune --bars``: the bars are the ones given (the search over a few hundred
    tuning drinks is a lottery), the temperature is still fitted, the tuning drinks still counted."""
    import argparse
    import json
    from companion.vision.model_files import save_net
    spec = importlib.util.spec_from_file_location("learn_landings", ROOT / "tools" / "learn_landings.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.bars_given("0.9,7,0.9") == (0.9, 7.0, 0.9)
    for bad in ("0.9,7", "0.9,seven,0.9", "1.5,7,0.9", "0.9,0,0.9"):
        with pytest.raises(argparse.ArgumentTypeError):
            tool.bars_given(bad)
    assert tool.second_given("0.7,0.98") == (0.7, 0.98)
    for bad in ("0.7", "0.7,0.98,1", "0,0.98", "0.7,1.2"):
        with pytest.raises(argparse.ArgumentTypeError):
            tool.second_given(bad)
    data = tmp_path / "tune.npz"
    tool.render(types.SimpleNamespace(family="dev", seeds="20000:20001", scenes=1, copies=1, budget=0, channels="top", pixels="rules",
                                      out=str(data)))
    net = LandingNet.random(seed=5)
    save_net({"channels": list(CHANNELS), "features": list(FEATURES), "seed": 5}, net.w,
             tmp_path / "landing_model.json", tmp_path / "landing_net.npz")
    tool.retune(types.SimpleNamespace(tune_on=str(data), out_dir=str(tmp_path), max_wrong=0.002, bars=(0.93, 6.0, 0.8),
                                      second_bars=(0.7, 0.98)))
    settings = json.loads((tmp_path / "landing_model.json").read_text())
    assert (settings["sure"], settings["sure_scale_mm"], settings["rival"]) == (0.93, 6.0, 0.8)
    assert (settings["sure_drink"], settings["sure_share"]) == (0.7, 0.98)     # the second way's, as given
    assert settings["tuned_on"]["bars"] == "given" and settings["seed"] == 5 and 0.5 <= settings["temperature"] <= 3.0
    counted = sum(settings["tuned_on"][k] for k in ("right", "sure_wrong", "unsure", "not_seen"))
    assert counted == int((np.load(data)["group_spot"] >= 0).sum())


def test_models_are_compared_at_their_own_bars_or_at_searched_ones(tmp_path, capsys):
    """``landing_ensemble compare --own-bars`` reads each model at the bars its settings name (as
    the reader does); without it the bars are searched on the tuning crops."""
    import json
    from companion.vision.model_files import save_net
    spec = importlib.util.spec_from_file_location("landing_ensemble", ROOT / "tools" / "landing_ensemble.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    data = tmp_path / "dev.npz"
    tool.cache(types.SimpleNamespace(family="dev", first=0, looks=1, candidates=4, channels="top", pixels="rules",
                                     out=str(data)))
    folder = tmp_path / "m"
    settings = {"channels": list(CHANNELS), "features": list(FEATURES), "sure": 0.999, "sure_scale_mm": 1.0, "rival": 0.3}
    save_net(settings, LandingNet.random(seed=7).w, folder / "landing_model.json", folder / "landing_net.npz")
    landing_model.cache_clear()
    rows = {}
    for own in (True, False):
        tool.compare(types.SimpleNamespace(tune_on=str(data), held_out=[str(data)], model=[f"r={folder}"], ensemble=[],
                                           combine=["product"], max_wrong=0.002, rivals=None, own_bars=own))
        rows[own] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (rows[True]["sure"], rows[True]["scale"], rows[True]["rival"]) == (0.999, 1.0, 0.3)
    searched = (rows[False]["sure"], rows[False]["scale"], rows[False]["rival"])
    assert searched != (0.999, 1.0, 0.3) and rows[False]["dev"] != "" and rows[True]["bars"].count("/") == 3
    landing_model.cache_clear()
