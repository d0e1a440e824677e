"""The value markers read by the value network (companion/vision/board_value_net.py): the numpy
layers are PyTorch's, the lanes are cut where the track is, the committed model reads a rendered
board's values, the rules' way stays when no model is committed, and the training tool's data
step (tools/board_value_data.py) cuts lanes with their truth."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from companion.board_layout import BoardLayout
from companion.board_pieces import Pieces
from companion.sim.board_looks import BoardLook
from companion.sim.board_render import BoardRenderer
from companion.vision import board_read, board_value_net as bvn
from companion.vision.board_pose import BoardTracker, rectify
from companion.vision.board_values import ValueLanes
from rendered_board import located_empty_board

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

LOOK_SEED = 13          # tests use looks below 100 (the training tools and the benchmark others)


def _reference_rows(net: bvn.ValueNet, x: np.ndarray) -> np.ndarray:
    """The network's row scores written out loop by loop (NHWC in, PyTorch's weight layout)."""
    def conv(x, w, b, dil=1, relu=True):
        n, h, wd, _ = x.shape
        kh, kw = w.shape[2:]
        ho, wo = h - (kh - 1) * dil, wd - kw + 1
        out = np.zeros((n, ho, wo, len(w)))
        for i in range(kh):
            for j in range(kw):
                out += np.einsum("nyxc,oc->nyxo", x[:, i * dil:i * dil + ho, j:j + wo, :], w[:, :, i, j])
        out += b
        return np.maximum(out, 0) if relu else out

    w = net.w
    h = conv(x, w["c1w"], w["c1b"])
    h = np.maximum(h[:, :, 0::2][:, :, :h.shape[2] // 2], h[:, :, 1::2][:, :, :h.shape[2] // 2])
    h = conv(h, w["c2w"], w["c2b"]).max(axis=2, keepdims=True)
    h = conv(conv(h, w["l1w"], w["l1b"]), w["l2w"], w["l2b"], dil=2)
    return conv(h, w["ow"], w["ob"], relu=False)[:, :, 0, 0]


def test_the_numpy_network_computes_the_layers_pytorch_trained():
    rng = np.random.default_rng(4)
    net = bvn.ValueNet.random(seed=2)
    strips = rng.normal(0, 1, (3, 60, bvn.WIDTH // 2, 6)).astype(np.float32)
    got = net.row_scores(strips)
    assert got.shape == (3, 60 - 2 * bvn.REACH)
    np.testing.assert_allclose(got, _reference_rows(net, strips.astype(np.float64)), rtol=1e-4, atol=1e-4)
    # the lane's convolution reads rows two apart: a kernel turned end for end answers otherwise
    turned = bvn.ValueNet({**net.w, "l2w": net.w["l2w"][:, :, ::-1]})
    assert np.abs(turned.row_scores(strips) - got).max() > 1e-3
    # a space's score is the row score read between rows; the last score is "no marker"
    rows = np.full((3, 2), bvn.REACH + 10.25)
    logits = net.logits(strips, rows)
    np.testing.assert_allclose(logits[:, 0], 0.75 * got[:, 10] + 0.25 * got[:, 11], rtol=1e-5, atol=1e-5)
    assert np.all(logits[:, 2] == net.w["none"][0])


def test_lanes_are_cut_along_the_track_as_log_colour_against_the_paper():
    layout = BoardLayout.default()
    cut = bvn.LaneStrips(layout)
    sheet = np.full((540, 967, 3), 200.0, np.float32)
    x, y = int(layout.lanes["H"]), int(layout.lane_y(1500))
    sheet[y - 2:y + 3, x - 3:x + 3] = (20.0, 100.0, 200.0)          # a blue-ish mark on lane H, value 1500
    s = cut.strips(sheet, np.full_like(sheet, 200.0), np.array([200.0, 200.0, 200.0]))
    assert s.shape == (len(layout.lanes), cut.length, bvn.WIDTH // 2, 6)
    h = cut.letters.index("H")
    row = int(round(cut.rows(None)[15]))
    assert s[h, row, :, 0].min() == pytest.approx(np.log(28.0 / 208.0), abs=1e-5)
    assert np.abs(np.delete(s, h, axis=0)).max() < 1e-6                  # the other lanes: paper against paper
    assert np.abs(s[..., 3:]).max() < 1e-6
    rows = cut.rows(None)
    assert np.all(np.diff(rows) < 0) and rows.min() >= bvn.MARGIN - 1 and rows.max() <= cut.length - bvn.MARGIN


@pytest.fixture(scope="module")
def board():
    layout, renderer, empty, tracker, pose = located_empty_board(LOOK_SEED)
    return layout, renderer, rectify(empty, pose, layout), tracker


def test_the_committed_model_reads_a_rendered_boards_values(board):
    layout, renderer, reference, tracker = board
    model = bvn.value_model()
    assert model is not None, "models/board_values.npz is committed (tools/learn_board_values.py)"
    assert 0.5 < model.sure <= 1.0 and model.temperature > 0
    reader = board_read.BoardReader(layout, reference, tracker=BoardTracker(layout, distortion=tracker.k))
    assert isinstance(reader.lanes, bvn.LearnedLanes)
    letters = list(layout.lanes)
    # the track's ends, neighbouring lanes a space apart, one lane without a marker
    values = {c: v for c, v in zip(letters[:-1], (0, 6000, 100, 200, 3000, 3100, 2900, 500, 4400, 5900, 1200))}
    pieces = Pieces(pyramids={"otemachi": "red"}, meeples={"blue": "ride:H"}, trains={"G": 3}, values=values)
    reading = reader.read(renderer.render(pieces, rng=np.random.default_rng(6))[0])
    assert not reading.hands
    assert reading.pieces.values == values
    assert not [u for u in reading.unsure if u.startswith("value:")]


def test_the_committed_model_reads_lanes_at_the_pose_refined_from_the_print():
    """The model is trained on lanes cut at the refined pose (board_refine.py), as the simulated
    board camera and the benchmarks read: a plain board and the same board bumped with two
    markers hidden (the pose carried, then checked against the print: board_align.py)."""
    from companion.sim.board_looks import Bump
    layout = BoardLayout.default()
    renderer = BoardRenderer(layout, BoardLook.from_seed(LOOK_SEED, "dev"))
    empty, _ = renderer.render(Pieces(), rng=np.random.default_rng(1))
    tracker = BoardTracker(layout, refine=True)
    pose = tracker.locate(empty)
    assert tracker.refinement is not None and tracker.refinement.taken, tracker.refinement
    reader = board_read.BoardReader(layout, rectify(empty, pose, layout), tracker=tracker)
    letters = list(layout.lanes)
    values = {c: v for c, v in zip(letters[1:], (6000, 0, 4100, 4200, 1500, 2800, 300, 3300, 5000, 700, 2000))}
    pieces = Pieces(pyramids={"otemachi": "yellow"}, meeples={"red": "ride:C"}, trains={"M": 2}, values=values)
    rng = np.random.default_rng(8)
    for bump, hidden in ((None, ()), (Bump.random(rng, angle=2.0, shift=12.0), (20, 23))):
        reading = reader.read(renderer.render(pieces, bump=bump, hide_markers=hidden, rng=rng)[0])
        assert reading.pose == "locked" and reading.markers == 4 - len(hidden)
        assert reading.pieces.values == values
        assert not [u for u in reading.unsure if u.startswith("value:")]


def test_without_a_value_model_the_rules_read_the_values(board, monkeypatch):
    layout, renderer, reference, tracker = board
    monkeypatch.setattr(board_read, "value_model", lambda: None)
    reader = board_read.BoardReader(layout, reference, tracker=BoardTracker(layout, distortion=tracker.k))
    assert isinstance(reader.lanes, ValueLanes)
    pieces = Pieces(values={"G": 1400, "M": 600})
    assert reader.read(renderer.render(pieces, rng=np.random.default_rng(7))[0]).pieces.values == pieces.values


def test_a_doubtful_lane_is_unsure_and_an_empty_one_is_not_read(board):
    layout, _, reference, _ = board
    net = bvn.ValueNet({**bvn.ValueNet.random(seed=1).w, "none": np.array([50.0])})
    sure_none = bvn.LearnedLanes(layout, reference.astype(np.float32), np.array([200.0] * 3), bvn.ValueModel(net, {"sure": 0.9}))
    assert sure_none.read(reference.astype(np.float32), None) == ({}, [])
    flat = bvn.ValueNet({**net.w, "none": np.array([0.0]), "ow": np.zeros((1, bvn.LANE[1], 1, 1)), "ob": np.zeros(1)})
    doubtful = bvn.LearnedLanes(layout, reference.astype(np.float32), np.array([200.0] * 3), bvn.ValueModel(flat, {"sure": 0.9}))
    values, unsure = doubtful.read(reference.astype(np.float32), None)
    assert values == {} and unsure == [f"value:{c}" for c in layout.lanes]


def test_the_training_data_step_cuts_lanes_with_their_truth(tmp_path, monkeypatch):
    import board_value_data
    monkeypatch.setattr(board_value_data, "CACHE", tmp_path)
    with pytest.raises(ValueError):
        board_value_data.look_data(5, "eval")
    d = board_value_data.look_data(5, "dev", boards=2, fresh=True)
    layout = BoardLayout.default()
    lanes = len(layout.lanes)
    assert d["strips"].shape[1:] == (bvn.LaneStrips(layout).length, bvn.WIDTH // 2, 6) and d["strips"].dtype == np.float16
    assert len(d["y"]) == len(d["strips"]) == len(d["rows"]) and len(d["y"]) % lanes == 0 and len(d["y"]) > 0
    assert d["rows"].shape[1] == len(layout.values)
    assert set(d["y"].tolist()) <= set(range(len(layout.values) + 1))
    assert board_value_data.labels(layout, None) == len(layout.values) and board_value_data.labels(layout, 2300) == 23
    assert list(tmp_path.glob("dev-5-v*.npz"))                      # cached for the next run
    again = board_value_data.look_data(5, "dev", boards=2)
    np.testing.assert_array_equal(again["y"], d["y"])


def test_the_training_step_gives_weights_the_reader_loads():
    pytest.importorskip("torch")
    import learn_board_values
    rng = np.random.default_rng(0)
    data = {"strips": rng.normal(0, 0.3, (8, 70, bvn.WIDTH // 2, 6)).astype(np.float16),
            "rows": np.tile(np.linspace(bvn.REACH, 70 - bvn.REACH - 1, 5), (8, 1)).astype(np.float32),
            "y": rng.integers(0, 6, 8)}
    weights = learn_board_values.train_net(data, epochs=1)
    net = bvn.ValueNet(weights)
    assert net.logits(data["strips"].astype(np.float32), data["rows"]).shape == (8, 6)
    p = learn_board_values.probabilities(net, data)
    assert np.allclose(p.sum(axis=1), 1.0)
    p = np.array([[0.97, 0.03]] * 1000 + [[0.96, 0.04], [0.93, 0.07]])
    y = np.array([0] * 1000 + [1, 1])
    assert learn_board_values.choose_sure(p, y) == pytest.approx(0.9605)   # the wrong ones below the bar


def test_a_shifted_training_strip_moves_its_frame_half_along_the_lane_alone():
    torch = pytest.importorskip("torch")
    import learn_board_values
    strips = torch.zeros(64, 6, 40, 3)
    strips[:, :, 20] = 1.0                                          # a tick across the lane, row 20, both halves
    moved = learn_board_values.shifted(strips, torch.Generator().manual_seed(1), 1.2)
    at = moved[:, 0, :, 0].argmax(dim=1) - 20                       # where each frame half's tick went
    assert torch.equal(moved[:, 3:], strips[:, 3:])                 # the reference half as cut
    assert torch.equal(moved[:, :3].amax(dim=1), moved[:, 0])       # the frame's channels moved together
    assert int(at.abs().max()) <= learn_board_values.SHIFT_MAX_MM and int(at.abs().max()) >= 1
    assert (at == 0).any() and (at > 0).any() and (at < 0).any()
    assert torch.equal(learn_board_values.shifted(strips, torch.Generator(), 0.0), strips)   # 0: as cut
    data = {"strips": np.random.default_rng(0).normal(0, 0.3, (8, 70, bvn.WIDTH // 2, 6)).astype(np.float16),
            "rows": np.tile(np.linspace(bvn.REACH, 70 - bvn.REACH - 1, 5), (8, 1)).astype(np.float32),
            "y": np.arange(8) % 6}
    assert set(learn_board_values.train_net(data, epochs=1, shift_mm=1.2)) == set(bvn.KEYS)
