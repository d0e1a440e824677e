"""The simulated crate camera: its frames are seeded, its truth says where the fields are (a
field's middle from ``rim_to_frame`` lands in a slot; a drink shows where the truth puts it),
the three families of looks differ in kind, a turned crate renders, and the camera's set() shows
the new crates after a hand has passed, leaving the crates that did not move where they stood."""
import cv2
import numpy as np
import pytest

from companion.crate_fields import CrateLayout, crate_fields
from companion.sim.crate_camera import START, SimCrateCamera, open_crate_camera
from companion.sim.crate_looks import CrateLook
from companion.sim.crate_render import CrateRenderer
from companion.sim.looks import NOMINAL_SIZE_MM
from companion.vision.sources import FrameSource

GRAPE = CrateLayout(crates=START.crates, drinks={(0, 0): "red-tall_can", (3, 2): "white-tallest_bottle",
                                                 (5, 5): "black-stubby_can", (2, 4): "mint-square_bottle"})


@pytest.fixture(scope="module")
def dev():
    return CrateRenderer(CrateLook.from_seed(1, "dev"))


def through(H, pts):
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), np.asarray(H)).reshape(-1, 2)


def test_frames_are_seeded(dev):
    assert CrateLook.from_seed(7, "eval") == CrateLook.from_seed(7, "eval")
    a, ta = dev.render(GRAPE, np.random.default_rng(5), hand=True)
    b, tb = dev.render(GRAPE, np.random.default_rng(5), hand=True)
    assert np.array_equal(a, b) and ta == tb
    assert ta["hand"] and ta["hand_box"] is not None
    c, tc = dev.render(GRAPE, np.random.default_rng(6))
    assert not np.array_equal(a, c) and not tc["hand"]


def test_field_middles_land_in_the_slots(dev):
    """With no drinks, every field's middle (from the truth's homographies) shows the crate's
    yellow floor; the rim homography and the listed centres agree; the camera is above the grid."""
    empty = CrateLayout(crates=START.crates, drinks={})
    scene = dev.place(empty, np.random.default_rng(3), pose=(4.0, -6.0, 33.0))
    img, _ = dev.clean(scene)
    frame = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    truth = dev.truth(scene)
    p = truth["pitch_mm"]
    assert sorted(truth["fields"]) == [(x, y) for x in range(6) for y in range(6)]
    mids = np.array([((x + 0.5) * p, (y + 0.5) * p) for x, y in sorted(truth["fields"])])
    assert np.abs(through(truth["rim_to_frame"], mids) - np.array([truth["centres"][f] for f in sorted(truth["fields"])])).max() < 0.01
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    for u, v in through(truth["floor_to_frame"], mids):
        h, s, _ = hsv[int(round(v)), int(round(u))]
        assert 15 <= h <= 35 and s > 120, (u, v, hsv[int(round(v)), int(round(u))])
    # just outside the grid lies the table, not a crate
    u, v = through(truth["table_to_frame"], [(-30.0, 3 * p)])[0]
    assert not (15 <= hsv[int(v), int(u), 0] <= 35 and hsv[int(v), int(u), 1] > 120)
    assert truth["camera"][2] > 100          # mm over the table


def test_a_drink_shows_where_the_truth_puts_it(dev):
    """The same crates, with and without the drinks: they differ round each drink's top, and
    not in a field far from every drink."""
    pose = (0.0, 0.0, 10.0)
    full = dev.place(GRAPE, np.random.default_rng(1), pose)
    bare = dev.place(CrateLayout(crates=GRAPE.crates, drinks={}), np.random.default_rng(1), pose)
    a, _ = dev.clean(full)
    b, _ = dev.clean(bare)
    truth = dev.truth(full)
    diff = np.abs(a - b).sum(2)
    assert {d["field"]: d["drink"] for d in truth["drinks"]} == GRAPE.drinks
    for d in truth["drinks"]:
        u, v = (int(round(c)) for c in d["top_px"])
        assert diff[v - 3:v + 4, u - 3:u + 4].mean() > 40, d
    u, v = (int(round(c)) for c in truth["centres"][(4, 0)])
    assert diff[v - 3:v + 4, u - 3:u + 4].mean() < 3


def test_the_families_differ_in_kind():
    dev = [CrateLook.from_seed(s, "dev") for s in range(40)]
    ev = [CrateLook.from_seed(s, "eval") for s in range(910000, 910040)]
    varied = [CrateLook.from_seed(s, "varied") for s in range(80)]
    assert all(lk.distortion == 0 and lk.jpeg is None and lk.second is None and lk.lamp.kind == "overhead"
               and lk.image_size == (1280, 720) and 25 <= lk.tilt <= 40 for lk in dev)
    assert all(lk.distortion > 0 and lk.jpeg and lk.lamp.kind in ("point", "tube") and not 25 <= lk.tilt <= 40
               for lk in ev)
    assert any(lk.second is not None for lk in ev) and len({lk.image_size for lk in ev}) >= 3
    assert {lk.table for lk in ev} - {lk.table for lk in dev}
    for lk in dev + ev + varied:
        assert 13.4 <= lk.pitch_mm <= 18.0 and 10 <= lk.tilt <= 55 and lk.rim_mm > lk.floor_mm
        widest = max(NOMINAL_SIZE_MM[s][1] * lk.drink_mm(s) for s in NOMINAL_SIZE_MM)   # the crates hold the drinks
        assert widest + 1.5 * lk.wall_mm + lk.seam_mm / 2 < lk.pitch_mm
    tilts = [lk.tilt for lk in varied]
    assert min(tilts) < 15 and max(tilts) > 50
    frame, truth = CrateRenderer(ev[0]).render(GRAPE, np.random.default_rng(2))
    assert frame.shape == (ev[0].image_size[1], ev[0].image_size[0], 3) and truth["distortion"] > 0
    # with the lens, the listed centres are the distorted ones: not where the pinhole puts them
    pin = through(truth["rim_to_frame"], [((0.5) * truth["pitch_mm"], 0.5 * truth["pitch_mm"])])[0]
    assert np.abs(pin - truth["centres"][(0, 0)]).max() > 0.05


def test_a_turned_crate_renders(dev):
    layout = CrateLayout(crates=((0, 0, 0), (2, 0, 1), (0, 3, 0)),
                         drinks={f: "blue-short_can" for f in crate_fields((2, 0, 1))[:3]})
    frame, truth = dev.render(layout, np.random.default_rng(4))
    assert sorted(truth["crates"]) == [[0, 0, 2, 3], [0, 3, 2, 6], [2, 0, 5, 2]]
    assert sum(v != "empty" for v in truth["fields"].values()) == 3 and len(truth["fields"]) == 18
    p = truth["pitch_mm"]
    for d in truth["drinks"]:       # each stands on its own field's floor
        x, y = d["field"]
        mid = dev.grid_to_frame([((x + 0.5) * p, (y + 0.5) * p)], layout, truth["pose"], truth["floor_mm"])[0]
        assert np.hypot(*(np.array(d["foot_px"]) - mid)) < 0.2 * p * dev.px_per_mm


def test_the_camera_shows_a_new_layout_after_the_hand():
    cam = SimCrateCamera(seed=2)
    assert isinstance(open_crate_camera("sim:2"), SimCrateCamera) and cam.layout == START
    before = cam.read()
    still = cam.truth()
    # GRAPE SODA: the top-right crate moves below the bottom-right one, a drink is put in
    crates = START.crates[:2] + START.crates[3:] + ((4, 6, 0),)
    moved = CrateLayout(crates=crates, drinks={(0, 0): "purple-tall_can"})
    cam.set(moved, hand_frames=4)
    hands = []
    for _ in range(4):
        hands.append(cam.status()["hand"])
        cam.read()
    assert hands == [True] * 4 and not cam.status()["hand"]
    after = cam.read()
    truth = cam.truth()
    assert truth["fields"] == moved.fields() and truth["fields"][(0, 0)] == "purple-tall_can"
    # the crates that stayed stand where they stood
    for (x, y), c in still["centres"].items():
        if x < 4 or y >= 3:
            assert np.abs(np.array(c) - truth["centres"][(x, y)]).max() < 0.01
    u, v = (int(c) for c in truth["centres"][(0, 0)])
    assert np.abs(after[v - 4:v + 5, u - 4:u + 5].astype(int) - before[v - 4:v + 5, u - 4:u + 5]).mean() > 20
    cam.rest_hand()
    assert cam.status()["hand"] and cam.truth()["hand"]
    cam.lift_hand()
    assert not cam.status()["hand"]


def test_calibration_photo_and_other_sources(tmp_path):
    cam = SimCrateCamera(seed=2)
    assert cam.scene.loose                  # this table has things on it, cleared for the photo
    one = CrateLayout(crates=((0, 0, 0),), drinks={(0, 0): "red-stubby_can", (1, 2): "mint-tallest_bottle"})
    a = cam.calibration_photo(one)
    assert a.shape == (720, 1280, 3) and cam.calibration_truth["fields"] == one.fields()
    assert cam.calibration_truth["loose"] == [] and not cam.calibration_truth["hand"]
    assert np.array_equal(a, cam.calibration_photo(one))
    path = tmp_path / "crates.png"
    cv2.imwrite(str(path), a)
    src = open_crate_camera(str(path))
    assert isinstance(src, FrameSource) and not isinstance(src, SimCrateCamera) and src.read().shape == a.shape
    with pytest.raises(ValueError):
        open_crate_camera("sim:x")


def test_loose_things_lie_beside_the_crates():
    """Coins, cards and drinks on the table (eval and varied tables have them) lie clear of the
    crates, in view, and show in the frame."""
    look = next(lk for lk in (CrateLook.from_seed(s, "varied") for s in range(40))
                if lk.clutter >= 5 and lk.image_size == (1280, 720))
    r = CrateRenderer(look)
    scene = next(sc for sc in (r.place(GRAPE, np.random.default_rng(s)) for s in range(20)) if len(sc.loose) >= 3)
    img, _ = r.clean(scene)
    bare, _ = r.clean(type(scene)(scene.layout, scene.pose, scene.standing, scene.nudges, ()))
    truth = r.truth(scene)
    Gi = np.linalg.inv(r.grid_matrix(scene.layout, scene.pose))
    w, h = r.grid_size(scene.layout)
    for o, t in zip(scene.loose, truth["loose"]):
        gx, gy = Gi[:2, :2] @ (o.x, o.y) + Gi[:2, 2]
        assert not (-3 < gx < w + 3 and -3 < gy < h + 3), o
        u, v = (int(round(c)) for c in t["px"])
        assert 0 <= u < 1280 and 0 <= v < 720
        assert np.abs(img[max(0, v - 2):v + 3, max(0, u - 2):u + 3] - bare[max(0, v - 2):v + 3, max(0, u - 2):u + 3]).mean() > 5


@pytest.mark.parametrize("layout, words", [
    (CrateLayout(crates=((0, 0, 0), (1, 1, 0)), drinks={}), "both stand on field 1,1"),
    (CrateLayout(crates=((0, 0, 5),), drinks={}), "the turn 0 to 3"),
    (CrateLayout(crates=((0, 0, 0),), drinks={(0, 0): "gold-tall_can"}), "is no drink"),
    (CrateLayout(crates=tuple((2 * i, 0, 0) for i in range(13)), drinks={}), "at most 12 crates"),
])
def test_a_layout_the_crates_cannot_show_is_refused(layout, words):
    cam = SimCrateCamera(seed=5)
    with pytest.raises(ValueError, match=words):
        cam.set(layout)
    assert cam.layout == START and not cam.status()["hand"]


def test_crates_not_moved_stay_put_when_the_game_counts_from_a_new_corner():
    """The top-left crate moved to the left of the bottom row: a game that counts its fields from
    0 shifts every other crate two fields on; on the table those crates have not moved."""
    cam = SimCrateCamera(seed=6)
    before = cam.truth()
    shifted = tuple((x + 2, y, t) for x, y, t in START.crates[1:]) + ((0, 3, 0),)
    cam.set(CrateLayout(crates=shifted, drinks={}), hand_frames=0)
    after = cam.truth()
    assert sorted(after["fields"]) == sorted([(x, y) for x in range(4, 8) for y in range(3)]
                                             + [(x, y) for x in range(8) for y in range(3, 6)])
    for (x, y), c in before["centres"].items():
        if x >= 2 or y >= 3:                  # not the moved crate's
            assert np.abs(np.array(c) - after["centres"][(x + 2, y)]).max() < 0.01


def test_a_bump_moves_the_grid_not_the_game():
    cam = SimCrateCamera(seed=7)
    cam.set(GRAPE, hand_frames=0)
    cam.read()
    before = cam.truth()
    pose = cam.bump(seed=1)
    after = cam.truth()
    assert after["fields"] == before["fields"] == GRAPE.fields() and after["pose"] == list(pose)
    moved = [np.hypot(*(np.array(after["centres"][f]) - before["centres"][f])) for f in before["centres"]]
    assert min(moved) > 0.5 and max(moved) < 0.25 * 1280
    # the drinks stand in their slots still, and the camera shows the new place
    for d in after["drinks"]:
        x, y = d["field"]
        assert np.hypot(*(np.array(d["foot_px"]) - after["centres"][(x, y)])) < 0.6 * cam.renderer.px_per_mm * 15
