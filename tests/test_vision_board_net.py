"""The board reader's place network run with numpy (companion/vision/board_net.py): the same
layers as PyTorch's (a cross-correlation over (out, in, 3, 3) weights, ReLU, 2x2 max pooling
that drops an odd last row), so that weights trained there mean the same here; the squares cut
round places; the committed model's shape."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from companion.vision import board_model, board_net


def _reference_logits(net: board_net.PlaceNet, squares: np.ndarray, feats: np.ndarray) -> np.ndarray:
    """The network written out loop by loop, the slow and obvious way (NHWC in, PyTorch's layout
    of the weights)."""
    def conv(x, w, b):
        n, h, wd, _ = x.shape
        out = np.zeros((n, h - 2, wd - 2, len(w)))
        for i in range(3):
            for j in range(3):
                out += np.einsum("nyxc,oc->nyxo", x[:, i:i + h - 2, j:j + wd - 2, :], w[:, :, i, j])
        return np.maximum(out + b, 0)

    def pool(x):
        n, h, wd, c = x.shape
        out = np.zeros((n, h // 2, wd // 2, c))
        for y in range(h // 2):
            for x_ in range(wd // 2):
                out[:, y, x_] = x[:, 2 * y:2 * y + 2, 2 * x_:2 * x_ + 2].max(axis=(1, 2))
        return out

    w = net.w
    h = pool(conv(squares, w["c1w"], w["c1b"]))
    h = pool(conv(h, w["c2w"], w["c2b"]))
    h = conv(h, w["c3w"], w["c3b"]).max(axis=(1, 2))
    z = (feats - w["mean"]) / w["std"]
    hidden = np.maximum(np.concatenate([h, z], axis=1) @ w["f1w"].T + w["f1b"], 0)
    return hidden @ w["f2w"].T + w["f2b"]


def test_the_numpy_network_computes_the_layers_pytorch_trained():
    rng = np.random.default_rng(5)
    net = board_net.PlaceNet.random(features=5, classes=4, seed=3)
    squares = rng.normal(0, 1, (7, board_net.PATCH, board_net.PATCH, 6)).astype(np.float32)
    feats = rng.normal(0, 1, (7, 5)).astype(np.float32)
    got = net.logits(squares, feats)
    want = _reference_logits(net, squares.astype(np.float64), feats.astype(np.float64))
    assert got.shape == (7, 4)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    # a mirrored weight gives another answer: the orientation of the kernels matters
    flipped = board_net.PlaceNet({**net.w, "c1w": net.w["c1w"][:, :, ::-1, :]})
    assert np.abs(flipped.logits(squares, feats) - got).max() > 1e-3
    assert net.logits(squares[:0], feats[:0]).shape == (0, 4)


def test_a_network_of_other_widths_runs_as_its_weights_say():
    """The tools train wider networks (--widths, --hidden): the numpy layers take the weights'
    shapes, so one loads and computes the same layers without a setting of its own."""
    rng = np.random.default_rng(6)
    wide = board_net.PlaceNet.random(features=5, classes=7, seed=4, channels=(24, 48, 64), hidden=128)
    assert wide.w["c3w"].shape == (64, 48, 3, 3) and wide.w["f1w"].shape == (128, 64 + 5)
    squares = rng.normal(0, 1, (3, board_net.PATCH, board_net.PATCH, 6)).astype(np.float32)
    feats = rng.normal(0, 1, (3, 5)).astype(np.float32)
    np.testing.assert_allclose(wide.logits(squares, feats), _reference_logits(wide, squares.astype(np.float64),
                                                                                feats.astype(np.float64)),
                               rtol=1e-4, atol=1e-4)


def test_the_training_tools_refuse_widths_they_cannot_build(capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import learn_board_drinks
    for bad in ("24,48", "24,x,64", "24,48,0"):
        with pytest.raises(SystemExit):
            learn_board_drinks.main(["--net", "--widths", bad])
        assert "give 3 whole numbers from 1 to 512" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        learn_board_drinks.main(["--widths", "24,48,64"])           # widths without the network they shape
    assert "give --net too" in capsys.readouterr().err


def test_the_place_tool_refuses_more_looks_or_threads_than_it_has(capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import learn_board
    most = len(learn_board.TRAIN) + len(learn_board.TRAIN_MORE)
    assert set(learn_board.TRAIN).isdisjoint(learn_board.TRAIN_MORE)
    assert set(learn_board.TRAIN_MORE).isdisjoint([*learn_board.TEMPER, *learn_board.VARIED_HELD_OUT])
    for args, words in ((["--looks", str(most + 1)], f"give 1 to {most}"), (["--looks", "0"], f"give 1 to {most}"),
                        (["--threads", "0"], "give 1 to 64")):
        with pytest.raises(SystemExit):
            learn_board.main(args)
        assert words in capsys.readouterr().err


def test_squares_are_cut_round_each_point_as_log_colour_against_the_paper():
    sheet = np.full((60, 80, 3), 200.0, np.float32)
    sheet[30, 40] = (20.0, 100.0, 200.0)            # one dark-ish pixel
    reference = np.full_like(sheet, 200.0)
    sq = board_net.patches(sheet, reference, np.array([200.0, 200.0, 200.0]), np.array([[40.0, 30.0], [2.0, 2.0]]))
    assert sq.shape == (2, board_net.PATCH, board_net.PATCH, 6)
    mid = board_net.PATCH // 2
    assert sq[0, mid, mid, 0] == pytest.approx(np.log(28.0 / 208.0), abs=1e-5)   # the point itself at the middle
    assert sq[0, mid, mid, 2] == pytest.approx(0.0, abs=1e-6)
    assert np.abs(sq[0, :, :, 3:]).max() < 1e-6                 # the paper against itself: 0
    assert np.abs(sq[1]).max() < 1e-6                            # a square off the sheet's corner repeats its edge


def test_the_committed_model_is_whole():
    model = board_model.spot_model()
    assert model.net.w["f2w"].shape[0] == len(board_model.CLASSES)
    assert model.net.w["mean"].shape == (board_model.N_FEATURES,)
    assert 0.5 < model.sure <= 1.0 and 0.5 < model.sure_empty <= 1.0 and model.temperature > 0
    # a train clear of drinks has a bar of its own, never above the bar beside a drink
    assert model.clear_mm > 0 and 0.5 < model.clear_bars[1] <= model.sure_train <= 1.0
    assert set(model.palette) == set(board_model.CLASSES[1:-1])


def test_bars_are_chosen_apart_for_empty_colour_and_trains_near_and_clear_of_drinks():
    """tools/learn_board.py's choose_sure: each bar is the lowest at which its own tempering
    places were right often enough, so a confident mistake of one kind (a drink's body beside a
    stop read as a train) raises that kind's bar alone."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import learn_board

    train, red = board_model.CLASSES.index("train"), board_model.CLASSES.index("red")

    def rows(n, cls, conf, truth=None, drink_mm=np.inf):
        p = np.full((n, len(board_model.CLASSES)), (1.0 - conf) / (len(board_model.CLASSES) - 1))
        p[:, cls] = conf
        return p, np.full(n, cls if truth is None else truth), np.full(n, drink_mm)

    parts = [rows(4000, 0, 0.97), rows(2, 0, 0.95, truth=red),                  # empty: wrong below 0.96
             rows(2000, red, 0.999), rows(3, red, 0.99, truth=0),                # a colour: wrong below 0.995
             rows(2000, train, 0.999, drink_mm=10.0), rows(2, train, 0.9985, truth=0, drink_mm=12.0),
             rows(2000, train, 0.97), rows(1, train, 0.96, truth=0)]             # trains clear of drinks
    p, y, mm = (np.concatenate(a) for a in zip(*parts))
    bars, got = learn_board.choose_sure(p, y, places=1000, drink_mm=mm)
    assert 0.95 < bars["sure_empty"] <= 0.97
    assert 0.99 < bars["sure"] <= 0.999
    assert 0.9985 < bars["sure_train"] <= 0.999                 # beside a drink: above its mistakes
    assert 0.96 < bars["clear_of_drinks"]["sure_train"] <= 0.97  # clear of drinks: its own, lower
    assert bars["clear_of_drinks"]["mm"] == learn_board.CLEAR_MM
    assert got["wrong_sure"] == 0 and got["unsure"] == 8
