"""Naming a piece from its pixels (vision/drink_crops.py, vision/pixel_scorer.py, issue 26):
the crop is turned along the piece and scaled by the set's own drinks; the committed network
loads, runs with numpy alone, names rendered drinks of a table it never saw right; the
training tool's data step runs on a tiny set and its network is the run-time one."""
from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from companion.sim.looks import FAMILIES
from companion.vision import drink_crops, pixel_scorer
from companion.vision.drinks import DEFAULT_SCORER, SCORERS, identify, identify_analysis
from companion.vision.segment import analyse

from vision_support import benchmark_photo

ROOT = Path(__file__).resolve().parents[1]
SEED = 8003            # a table whose profile other vision tests share (vision_support's cache)


def _tool():
    spec = importlib.util.spec_from_file_location("learn_drink_pixels", ROOT / "tools" / "learn_drink_pixels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pieces(difficulty="separated", skip=0):
    profile, image, truth = benchmark_photo(None, SEED, skip, difficulty)
    an = analyse(image, profile)
    kept = {}
    identify_analysis(an, profile, lambda readings, _an, _p: kept.setdefault("pieces", copy.deepcopy(readings)))
    return profile, an, kept["pieces"], truth


def test_a_crop_is_turned_along_the_piece_and_sized_by_the_set():
    """The piece's mask lies along the crop's width, centred, its narrow end to the right; the
    set's longest drink would span LONGEST of the width, so a piece's length in the crop is
    its length against that set's drinks."""
    profile, an, pieces, _ = _pieces()
    raw = drink_crops.raw_crops(pieces, an, profile)
    assert raw.shape == (len(pieces), drink_crops.H, drink_crops.W, drink_crops.RAW)
    longest = profile.stats["max_length"]
    for d, crop in zip(pieces, raw):
        own = crop[..., 3] > 0.5
        ys, xs = np.nonzero(own)
        assert abs(ys.mean() - (drink_crops.H - 1) / 2) < 2.5 and abs(xs.mean() - (drink_crops.W - 1) / 2) < 4
        span = xs.max() - xs.min() + 1
        expected = d["_f"]["length"] / longest * drink_crops.LONGEST * drink_crops.W
        assert abs(span - expected) <= 0.15 * expected + 2, (d["color"], d["shape"], span, expected)
        assert ys.max() - ys.min() + 1 < span or d["shape"] == "stubby_can"
        if d["shape"].endswith("bottle"):        # the neck is to the right: fewer mask rows there
            third = drink_crops.W // 3
            assert own[:, -third:].sum() < own[:, :third].sum()
    x = drink_crops.channels(raw, drink_crops.references(profile))
    assert x.shape[-1] == drink_crops.CHANNELS and np.isfinite(x).all()


def test_the_model_is_small_loads_and_was_trained_on_other_tables():
    assert pixel_scorer.NET_PATH.stat().st_size < 10_000_000
    model = pixel_scorer.pixel_model()
    settings = model.settings
    assert 0.9 <= model.sure < 1.0 and model.temperature > 0
    assert settings["temperature_tables_at_sure"]["sure_right"] >= _tool().SURE_RIGHT
    for family, first, last in settings["trained"]["tables"] + settings["trained"]["temperature_tables"]:
        assert family in FAMILIES and family != "eval"
        assert first > 31_000 and not first <= SEED <= last
    net = pixel_scorer.PixelNet.random(side=len(model.net.w["mean"]))
    assert net.logits(np.zeros((1, drink_crops.H, drink_crops.W, drink_crops.CHANNELS)),
                      np.zeros((1, len(model.net.w["mean"])))).shape == (1, 37)


def test_a_network_of_other_widths_loads_as_its_weights_say(tmp_path):
    """A model file's layer widths are its weights' shapes (tools/learn_drink_pixels.py
    --widths): a wider network saved and loaded again scores as before, 37 scores a piece."""
    net = pixel_scorer.PixelNet.random(side=pixel_scorer.N_SIDE, seed=1, conv=(24, 48, 64), hidden=128)
    x = np.random.default_rng(2).normal(size=(3, drink_crops.H, drink_crops.W, drink_crops.CHANNELS))
    side = np.ones((3, pixel_scorer.N_SIDE), np.float32)
    pixel_scorer.save(tmp_path / "wide.npz", net.w, {"features": False})
    again = pixel_scorer.load(tmp_path / "wide.npz")
    assert again.net.w["c3b"].shape == (64,) and again.net.w["f1b"].shape == (128,)
    assert np.allclose(again.net.logits(x, side), net.logits(x, side), atol=1e-5)
    assert again.net.logits(x, side).shape == (3, 37)


def test_the_set_network_is_the_wide_one_and_reads_each_crop_once():
    """checked-set's network (make model: widths 24/48/64, hidden 128, its check chosen with
    --single-read): its widths are in its settings and its weights alike, and its check reads a
    crop once, since a second, mirrored read of the wide network costs more time a frame than
    the speed target leaves (docs/performance.md, "A wider set network")."""
    from companion.vision.checked import SET_PATH, alone_model, pixel_check_settings
    model = alone_model(str(SET_PATH))
    widths = [len(model.net.w[f"c{k}b"]) for k in (1, 2, 3)]
    assert widths == model.settings["widths"] == [24, 48, 64]
    assert len(model.net.w["f1b"]) == model.settings["hidden"] == 128
    _agree, _fitted, mirror = pixel_check_settings(model)
    assert mirror is False
    # and it compares a piece with the set's own drinks (56th session): the simulated table's
    # profile carries their pieces, so the demo reads with them
    from companion.vision.profile import Profile
    assert model.net.compares and model.settings["compares"]
    sim = Profile.load(ROOT / "calibration" / "sim-profile.json")
    assert len(sim.pieces) == 36 and model.prototypes(sim).shape == (36, len(model.net.w["eb"]))


def test_the_fast_convolution_and_pooling_are_plain_ones():
    """The channel-first convolution (nine shifted copies, one product) and pooling give what a
    3x3 convolution without padding, ReLU and 2x2 max pooling give, written out directly."""
    rng = np.random.default_rng(3)
    c, n, h, w, out = 5, 3, 9, 12, 4
    x = rng.normal(size=(c, n, h, w)).astype(np.float32)
    k = rng.normal(size=(out, c, 3, 3)).astype(np.float32)
    b = rng.normal(size=out).astype(np.float32)
    want = np.zeros((out, n, h - 2, w - 2), np.float32)
    for i in range(3):
        for j in range(3):
            want += np.einsum("oc,cnyx->onyx", k[:, :, i, j], x[:, :, i:i + h - 2, j:j + w - 2])
    want = np.maximum(want + b[:, None, None, None], 0)
    got = pixel_scorer._conv(x, pixel_scorer._windowed(k), b)
    assert np.allclose(got, want, atol=1e-4)
    pooled = pixel_scorer._pool(got)                       # 7 x 10 -> 3 x 5: the odd row dropped
    assert pooled.shape == (out, n, 3, 5)
    assert np.array_equal(pooled, got[:, :, :6, :10].reshape(out, n, 3, 2, 5, 2).max(axis=(3, 5)))


@pytest.mark.parametrize("difficulty,skip", [("separated", 0), ("touching", 1)])
def test_names_rendered_drinks_of_a_table_it_never_saw(difficulty, skip):
    """A dev table no training saw: no drink read wrong, at most one asked; the same frame
    reads the same twice."""
    assert "pixels" in SCORERS and DEFAULT_SCORER in SCORERS
    profile, image, truth = benchmark_photo(None, SEED, skip, difficulty)
    found = identify(image, profile, scorer="pixels")
    assert found == identify(image, profile, scorer="pixels")
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
    assert all("_piece" not in d and "_f" not in d for d in found)


def test_the_training_tools_data_step_and_network_on_a_tiny_set(tmp_path, monkeypatch):
    """The data step of tools/learn_drink_pixels.py (tools/learn_drinks.py's table with crops)
    renders and reads a tiny table and keeps a crop per piece; a short training on it gives a
    network whose numpy scores are PyTorch's (train() checks that itself) and whose confidence
    the temperature and bar are fitted for. A training tool's test: it runs where the tool runs,
    beside PyTorch (its tiny table costs some 20 s of rendering, which `make test` is spared)."""
    pytest.importorskip("torch")
    tool = _tool()
    monkeypatch.setattr(tool.base.drink_tables, "CACHE", tmp_path)
    tab = tool.base.table(100_000, "dev", 1, harsh=0, crops=True)
    assert tab["profile"] is not None and len(tab["photos"]) == 4
    for ph in tab["photos"]:
        assert len(ph["crops"]) == len(ph["pieces"]) == len(ph["truth"])
        assert all("_piece" not in d for d in ph["pieces"])
    again = tool.base.table(100_000, "dev", 1, harsh=0, crops=True)      # from the cache
    assert np.array_equal(again["photos"][0]["crops"], tab["photos"][0]["crops"])
    ex = tool.examples([tab], features=False)
    assert len(ex["y"]) == sum(len(ph["pieces"]) for ph in tab["photos"])
    weights = tool.train(ex, epochs=1, log=lambda _m: None)
    model = pixel_scorer.PixelModel(pixel_scorer.PixelNet(weights), {"features": False})
    model.temperature = tool.fit_temperature(model, ex)
    bar, _ = tool.choose_sure(model, ex)
    assert model.temperature > 0 and 0.9 <= bar <= 0.999
    json.dumps({"sure": bar})
    # batch-normalised while training, folded at the export: train() checks the numpy network's
    # scores against PyTorch's in eval mode, and the layers are the run time's own
    folded = tool.train(ex, epochs=1, log=lambda _m: None, norm=True, augment="strong")
    assert {k: v.shape for k, v in folded.items()} == {k: v.shape for k, v in weights.items()}


def test_the_strong_augmentation_relights_further_and_keeps_the_masks():
    """``--augment strong`` (tools/learn_drink_pixels.py) spreads a crop's colour wider than the
    plain augmentation from the same draws, and neither touches what the masks say: a piece
    relit is the same piece. Numpy and OpenCV only (the batches are made before PyTorch)."""
    tool = _tool()
    raw = np.zeros((400, drink_crops.H, drink_crops.W, drink_crops.RAW), np.float32)
    raw[..., :3] = 120.0
    raw[:, 8:20, 10:46, 3] = 1.0                       # the piece
    raw[:, 8:20, 10:46, 4] = 1.0                       # segmented pixels: the piece's own
    spread = {}
    for how in ("plain", "strong"):
        out = tool.augmented(raw, np.random.default_rng(5), how)
        assert out.shape == raw.shape and np.isfinite(out).all()
        # the masks are only moved with the crop: what lay deep inside the piece still does
        assert (out[:, 13:15, 26:30, 3] > 0.99).all() and (out[:, 13:15, 26:30, 4] > 0.99).all()
        spread[how] = float(np.log(out[:, 14, 28, :3]).std())
    assert spread["strong"] > 1.3 * spread["plain"]
    again = tool.augmented(raw[:8], np.random.default_rng(5), "strong")
    assert np.array_equal(again, tool.augmented(raw[:8], np.random.default_rng(5), "strong"))


def test_a_training_table_gives_its_calibration_photos_as_pieces(tmp_path, monkeypatch):
    """The data step's job for a training table (tools/drink_pixel_data.py) keeps the table's
    own calibration photos, read with the profile they made, as training pieces: each photo
    as taken and augmented (relit, blurred, compressed), its largest piece labelled with the
    photo's drink; the photos are not rendered again (the table's rendering hands them over).
    A training tool's test, as the one above (its tiny table costs some 30 s)."""
    pytest.importorskip("torch")
    tool = _tool()
    monkeypatch.setattr(tool.base.drink_tables, "CACHE", tmp_path)
    tool.extras.render_all([("dev", 100_000, 1, 0)], True)
    tab = tool.base.table(100_000, "dev", 1, harsh=0, crops=True)
    calib = tool.extras.calibration_pieces(tab)
    per_drink = 1 + tool.extras.CALIB_AUGMENTED
    assert 36 * per_drink - 4 <= len(calib) <= 36 * per_drink
    named = [t for ph in calib for t in ph["truth"] if t is not None]
    assert len(set(named)) >= 34 and all(named.count(t) <= per_drink for t in set(named))
    for ph in calib:
        assert len(ph["crops"]) == len(ph["pieces"]) == len(ph["truth"]) and sum(t is not None for t in ph["truth"]) == 1
    # the rules read most of the set's own photos right: the labels are the drinks photographed
    right = sum(f"{d['color']}-{d['shape']}" == t for ph in calib for d, t in zip(ph["pieces"], ph["truth"]) if t)
    assert right >= 0.9 * len(named)
    both = tool.extras.with_extras([tab])[0]
    assert len(both["photos"]) == len(tab["photos"]) + len(calib)


def test_a_network_that_compares_reads_a_piece_against_the_sets_own_drinks():
    """A set network with a prototype head (tools/drink_protos.py) adds to each drink's score its
    likeness to that drink's calibration pieces (the profile's ``pieces``); a drink without one
    gains nothing, a profile without pieces is read by the network alone, and a network without
    the head ignores them. Random weights: the plumbing, not the reading."""
    rng = np.random.default_rng(3)
    side_n = pixel_scorer.N_SIDE + drink_crops.SET_SIZES
    net = pixel_scorer.PixelNet.random(side=side_n, seed=4, conv=(8, 8, 8), hidden=16)
    plain = pixel_scorer.PixelModel(net, {"set_sizes": True})
    weights = {**net.w, "ew": rng.normal(0, 0.3, (6, 16)), "eb": rng.normal(0, 0.1, 6), "scale": np.array([5.0])}
    comparing = pixel_scorer.PixelModel(pixel_scorer.PixelNet(weights), {"set_sizes": True})
    assert comparing.net.compares and not plain.net.compares
    profile, an, pieces, _truth = _pieces()
    profile = copy.copy(profile)
    profile._cache = {}
    raw = rng.uniform(0, 1, (2, drink_crops.H, drink_crops.W, drink_crops.RAW)).astype(np.float16)
    profile.pieces = {"red-short_can": (raw, np.zeros((2, 3), np.float32))}
    protos = comparing.prototypes(profile)
    red_short = [c.value for c in pixel_scorer.COLOURS].index("red") * 6 + [s.value for s in pixel_scorer.SHAPES].index("short_can")
    assert protos.shape == (36, 6) and np.isclose(np.linalg.norm(protos[red_short]), 1.0)
    assert np.count_nonzero(np.linalg.norm(protos, axis=1)) == 1
    assert comparing.prototypes(profile) is protos                       # made once a profile
    assert plain.prototypes(profile) is None
    x = drink_crops.channels(rng.uniform(0, 255, (3, drink_crops.H, drink_crops.W, drink_crops.RAW)).astype(np.float32),
                             drink_crops.references(profile))
    side = np.ones((3, side_n), np.float32)
    alone, compared = comparing.net.logits(x, side), comparing.net.logits(x, side, protos)
    moved = np.abs(compared - alone) > 1e-6
    assert moved[:, red_short].all() and moved.sum() == 3
    assert np.allclose(plain.net.logits(x, side, protos), plain.net.logits(x, side))
    got = pixel_scorer.probabilities(pieces, an, profile, comparing)
    profile.pieces = {}
    profile._cache = {}
    assert not np.allclose(got, pixel_scorer.probabilities(pieces, an, profile, comparing))
