"""The simulated board camera: its frames are seeded, its markers are found where its truth says,
a hidden marker is not found, a hand is flagged, the two families of looks differ in kind, and
the camera's set/change/knock do what they are told."""
import cv2
import numpy as np
import pytest

from companion.board_layout import BoardLayout
from companion.board_pieces import Pieces
from companion.sim.board_camera import SimBoardCamera, apply_changes
from companion.sim.board_dataset import sample_board
from companion.sim.board_looks import BoardLook, Bump
from companion.sim.board_render import BoardRenderer
from companion.vision.board_pose import board_markers, fit_homography

LAYOUT = BoardLayout.default()
BOARD = Pieces(pyramids={"otemachi": "red", "ginza": "blue", "shibuya": "yellow"},
               meeples={"green": "field:130", "purple": "ride:G", "red": "ride:G"},
               trains={"G": 3, "M": 0}, values={"G": 1400, "M": 0})


@pytest.fixture(scope="module")
def dev():
    return BoardRenderer(LAYOUT, BoardLook.from_seed(1, "dev"))


def spots_px(H, pts):
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), np.asarray(H)).reshape(-1, 2)


def test_frames_are_seeded(dev):
    assert BoardLook.from_seed(7, "eval") == BoardLook.from_seed(7, "eval")
    a, ta = dev.render(BOARD, rng=np.random.default_rng(5), hand=True)
    b, tb = dev.render(BOARD, rng=np.random.default_rng(5), hand=True)
    assert np.array_equal(a, b) and ta == tb
    c, _ = dev.render(BOARD, rng=np.random.default_rng(6), hand=True)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("bump", [None, Bump(2.5, 15.0, -12.0)])
def test_markers_found_where_the_truth_says(dev, bump):
    frame, truth = dev.render(BOARD, bump=bump, rng=np.random.default_rng(1))
    found = board_markers(frame, LAYOUT)
    assert sorted(found) == list(LAYOUT.marker_ids)
    for mid, c in found.items():
        assert np.abs(c - np.array(truth["markers"][str(mid)]["corners"])).max() < 1.5
    spots = np.array([(s.x, s.y) for s in LAYOUT.spots()])
    fitted = spots_px(fit_homography(found, LAYOUT), spots)
    assert np.abs(fitted - spots_px(truth["homography"], spots)).max() < 1.5
    # every piece stands where the truth puts it, on its spot (a person's 1-2 mm off)
    placed = {p["spot"]: p for p in truth["placed"]}
    assert {"station:otemachi", "field:130", "ride:G:0", "ride:G:1", "stop:G:3", "value:G:1400"} <= set(placed)
    assert abs(placed["field:130"]["mm"][0] - LAYOUT.meeples[130][0]) <= 2.0


def test_hidden_markers_are_not_found(dev):
    frame, truth = dev.render(BOARD, rng=np.random.default_rng(2), hide_markers=[20, 22])
    found = board_markers(frame, LAYOUT)
    assert sorted(found) == [21, 23]
    assert [m for m, v in truth["markers"].items() if not v["visible"]] == ["20", "22"]
    assert fit_homography(found, LAYOUT) is not None        # two markers still lock the board


def test_a_hand_is_flagged(dev):
    calm, t0 = dev.render(BOARD, rng=np.random.default_rng(3))
    busy, t1 = dev.render(BOARD, rng=np.random.default_rng(3), hand=True)
    assert not t0["hand"] and t1["hand"]
    assert np.mean(np.abs(calm.astype(int) - busy.astype(int)).max(axis=2) > 40) > 0.01


def test_the_families_differ_in_kind():
    dev = [BoardLook.from_seed(s, "dev") for s in range(30)]
    ev = [BoardLook.from_seed(s, "eval") for s in range(30)]
    assert all(l.distortion == 0 and l.gloss == 0 and l.tilt <= 15 and l.jpeg is None for l in dev)
    assert {l.material for l in dev} == {"wood"} and {l.lamp.kind for l in dev} == {"overhead"}
    assert all(l.distortion > 0 and l.gloss > 0 and l.tilt >= 15 and l.jpeg for l in ev)
    assert {l.material for l in ev} == {"plastic"} and {l.lamp.kind for l in ev} <= {"point", "tube"}
    assert {l.table for l in ev} - {l.table for l in dev}          # table tops dev never has
    assert all(not l.sizes for l in dev) and all(abs(l.sizes["meeple"] - 1) <= 0.12 for l in ev)
    with pytest.raises(ValueError, match="no family"):
        BoardLook.from_seed(1, "train")


def test_the_training_family_varies_what_tables_vary():
    """"varied" (training only) spans matte and glossy, wood and plastic, every lamp kind, lenses
    and none, JPEG and raw, straight above to tilted; seeded like the others."""
    va = [BoardLook.from_seed(s, "varied") for s in range(40)]
    assert va[3] == BoardLook.from_seed(3, "varied") and va[3] != BoardLook.from_seed(3, "dev")
    assert {l.material for l in va} == {"wood", "plastic"} and {l.lamp.kind for l in va} == {"overhead", "point", "tube"}
    assert min(l.gloss for l in va) == 0 < max(l.gloss for l in va)
    assert min(l.distortion for l in va) == 0 < max(l.distortion for l in va)
    assert any(l.jpeg is None for l in va) and any(l.jpeg for l in va)
    assert min(l.tilt for l in va) < 10 and max(l.tilt for l in va) > 25
    assert {l.image_size for l in va} == {(960, 540), (1280, 720), (1920, 1080)}


def test_sample_boards_are_plausible():
    rng = np.random.default_rng(0)
    for _ in range(30):
        p = sample_board(rng, LAYOUT)
        assert len(p.meeples) <= 5 and len(p.pyramids) <= 40 and len(p.trains) <= 12
        assert sum(v.startswith("ride:") for v in p.meeples.values()) <= 3
        assert all(0 <= k < len(LAYOUT.stops[l]) for l, k in p.trains.items())


def test_the_camera_does_what_it_is_told():
    cam = SimBoardCamera(seed=1, pieces=BOARD)
    first = cam.read()
    assert first.shape == (720, 1280, 3) and cam.status()["state"] == "ok"
    cam.change([{"piece": "pyramid", "key": "ueno", "to": "purple"},
                {"piece": "meeple", "key": "green", "to": "field:131"},
                {"piece": "train", "key": "M", "to": None},
                {"piece": "value", "key": "G", "to": 2000}], hand_frames=3)
    assert cam.pieces.pyramids["ueno"] == "purple" and cam.pieces.meeples["green"] == "field:131"
    # a value marker moved along its lane stands at its new value (it is not kept where it stood)
    g = [p for p in cam.truth()["placed"] if p["kind"] == "value" and p["key"] == "G"]
    assert len(g) == 1 and abs(g[0]["mm"][1] - LAYOUT.lane_y(2000)) <= 2.0
    assert "M" not in cam.pieces.trains and cam.status()["hand"]
    for _ in range(3):
        cam.read()
    assert not cam.status()["hand"]
    still = [cam.read() for _ in range(4)]
    assert not np.array_equal(still[0], still[1])        # fresh noise on a still scene
    before = cam.pieces
    changed = cam.knock(seed=4)
    assert 1 <= len(changed) <= 3 and cam.bump is not None
    for c in changed:
        now = {"pyramid": cam.pieces.pyramids, "meeple": cam.pieces.meeples, "train": cam.pieces.trains}[c["piece"]]
        assert now.get(c["key"]) == c["to"] and c["to"] != c["from"]
    assert cam.pieces != before
    off = [c for c in changed if c["piece"] == "pyramid"]
    assert len(cam.truth()["loose"]) == len(off)           # a pyramid knocked off lies on the table
    assert cam.empty_frame().shape == first.shape
    cam.rest_hand(at=(400.0, 300.0))
    assert cam.status()["hand"] and cam.truth()["hand"]
    cam.lift_hand()
    assert not cam.status()["hand"]
    with pytest.raises(ValueError, match="no station"):
        apply_changes(BOARD, [{"piece": "pyramid", "key": "atlantis", "to": "red"}], LAYOUT)
    with pytest.raises(ValueError, match="piece is one of"):
        apply_changes(BOARD, [{"piece": "crate", "key": "ueno", "to": "red"}], LAYOUT)
    # METRO DRINKS: a drink set at a station (by id, or by colour alone), and a bad one refused
    assert apply_changes(BOARD, [{"piece": "drink", "key": "ueno", "to": "red"}], LAYOUT).drinks == {"ueno": "red"}
    with pytest.raises(ValueError, match="drink id"):
        apply_changes(BOARD, [{"piece": "drink", "key": "ueno", "to": "orange-can"}], LAYOUT)


@pytest.mark.parametrize("name", ["board_looks", "board_sheet", "board_solids", "board_render", "board_camera",
                                  "board_dataset"])
def test_module_doctests_pass(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(f"companion.sim.{name}"), verbose=False, report=True)
    assert result.failed == 0 and result.attempted > 0


def test_a_dataset_is_written(tmp_path, capsys):
    import json

    from companion.sim.board_dataset import main
    assert main([str(tmp_path), "--family", "dev", "--count", "2", "--seed", "11"]) == 0
    truth = json.loads((tmp_path / "0001.json").read_text())
    assert (tmp_path / "0000.png").is_file() and (tmp_path / truth["empty"]).is_file()
    assert Pieces.model_validate(truth["pieces"]) and len(truth["markers"]) == 4
    assert '"scenes": 2' in capsys.readouterr().out
