"""The printable mat: its markers are found in its own PDF and PNG, and one rendered photo of
the 36 drinks on it calibrates the drinks (sizes in mm, bound to a tray by the tray marker)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.drinks import DRINK_IDS, Drink
from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import render_mat_photo, render_sample, tray_marker_sticker
from companion.vision import mat
from companion.vision.calibrate import CalibrationError, calibrate_mat
from companion.vision.classify import distances
from companion.vision.features import SHAPE_FEATURES, size_units
from companion.vision.drinks import identify

from vision_support import run_cli

SEED = 31


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mat") / "mat"
    assert run_cli("calibrate", "print-mat", "--out", str(out)) == 0
    return out


def test_print_mat_writes_png_and_pdf(printed):
    assert printed.with_suffix(".png").stat().st_size > 5000
    pdf = printed.with_suffix(".pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")


def test_markers_found_in_its_own_pdf_and_png(printed):
    page = mat.read_pdf_image(printed.with_suffix(".pdf"))
    assert page.shape == (2480, 3508)                       # A4 landscape at 300 dpi
    assert sorted(mat.detect_markers(page)) == [0, 1, 2, 3, mat.TRAY_MARKER_ID]
    png = cv2.imread(str(printed.with_suffix(".png")))
    assert sorted(mat.detect_markers(png)) == [0, 1, 2, 3, mat.TRAY_MARKER_ID]
    # the page geometry is what the marker table says: the homography maps marker corners to mm
    view = mat.find_mat(page)
    corner = cv2.perspectiveTransform(np.array([[[0.0, 0.0]]]), view.H)[0, 0]
    assert np.allclose(corner, [0, 0], atol=0.5)


def test_markers_found_in_the_pdf_as_a_pdf_viewer_renders_it(printed, tmp_path):
    assert shutil.which("pdftoppm"), "pdftoppm is missing: `make test` installs Debian's poppler-utils"
    subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", str(printed.with_suffix(".pdf")), str(tmp_path / "p")],
                   check=True, timeout=60)
    page = cv2.imread(str(next(tmp_path.glob("p*.png"))))
    assert sorted(mat.detect_markers(page)) == [0, 1, 2, 3, mat.TRAY_MARKER_ID]


def test_checked_in_mat_is_current(printed):
    shipped = Path(__file__).resolve().parents[1] / "calibration" / "mat.pdf"
    assert np.array_equal(mat.read_pdf_image(shipped), mat.read_pdf_image(printed.with_suffix(".pdf"))), \
        "calibration/mat.pdf is stale: run companion calibrate print-mat --out calibration/mat"


@pytest.fixture(scope="module")
def mat_photos(tmp_path_factory):
    d = tmp_path_factory.mktemp("matphoto")
    look = Look.from_seed(SEED, "light")
    cv2.imwrite(str(d / "photo.png"), render_mat_photo(look, SEED))
    tray = Renderer(look, stickers=[tray_marker_sticker(Renderer(look))])
    rng = np.random.default_rng(3)
    empty, _ = tray.render([], rng=rng)
    cv2.imwrite(str(d / "empty.png"), empty)
    return d, look, tray


def test_calibrate_from_one_photo_of_the_mat(mat_photos, tmp_path):
    d, look, tray = mat_photos
    unbound = calibrate_mat(d / "photo.png")
    assert unbound.units == "mm" and unbound.background is None
    for did in ("red-tall_can", "blue-tallest_bottle", "mint-short_can"):
        true_len = look.sizes[Drink.parse(did).shape.value][0]
        assert unbound.drinks[did]["length"] == pytest.approx(true_len, rel=0.06)
    out = tmp_path / "mat-profile.json"
    assert run_cli("calibrate", "drinks", "--mat", str(d / "photo.png"), "--background", str(d / "empty.png"),
                   "--out", str(out)) == 0
    from companion.vision.profile import Profile
    profile = Profile.load(out)
    rng = np.random.default_rng(8)
    correct = total = 0
    for _ in range(4):
        img, truth = render_sample(tray, rng, "separated")
        found = identify(img, profile)
        for t in truth:
            best = min(found, key=lambda f: (f["x"] - t["x"]) ** 2 + (f["y"] - t["y"]) ** 2)
            total += 1
            correct += f"{best['color']}-{best['shape']}" == t["id"] and not best["unsure"]
    assert correct >= 0.85 * total


def test_mat_photo_errors(mat_photos, tmp_path):
    d, look, _ = mat_photos
    blank = np.full((720, 1280, 3), 120, np.uint8)
    cv2.imwrite(str(tmp_path / "blank.png"), blank)
    with pytest.raises(CalibrationError, match="found 0 of the mat's 4 corner markers"):
        calibrate_mat(tmp_path / "blank.png")
    missing = [x for x in DRINK_IDS if x != "purple-short_can"]
    cv2.imwrite(str(tmp_path / "partial.png"), render_mat_photo(look, SEED, drinks=missing))
    with pytest.raises(CalibrationError, match="spot purple-short_can is empty"):
        calibrate_mat(tmp_path / "partial.png")
    with pytest.raises(CalibrationError, match="tray marker"):
        calibrate_mat(d / "photo.png", background=tmp_path / "blank.png")


def read_score(profile, tray, seed: int, photos: int = 6) -> tuple[int, int, int]:
    """(right and sure, wrong and sure, drinks) over rendered photos of the tray, separated and touching."""
    rng = np.random.default_rng(seed)
    right = wrong = total = 0
    for k in range(photos):
        img, truth = render_sample(tray, rng, ("separated", "touching")[k % 2])
        found = identify(img, profile)
        for t in truth:
            best = min(found, key=lambda f: (f["x"] - t["x"]) ** 2 + (f["y"] - t["y"]) ** 2)
            total += 1
            sure = not best["unsure"]
            right += sure and f"{best['color']}-{best['shape']}" == t["id"]
            wrong += sure and f"{best['color']}-{best['shape']}" != t["id"]
    return right, wrong, total


def test_each_photo_of_the_mat_is_a_pose_the_reader_knows(mat_photos, tmp_path):
    """Issue 26, item 6: two photos of the mat, the drinks rolled between them, give a profile that
    knows each drink in both poses: a piece that measures as a drink did in either pose is that
    drink's own look (distance 0 to it), and the tray is read as well as with one photo."""
    d, look, tray = mat_photos
    rolled = d / "rolled.png"
    cv2.imwrite(str(rolled), render_mat_photo(look, SEED + 1))
    one = calibrate_mat(d / "photo.png", d / "empty.png")
    two = calibrate_mat([d / "photo.png", rolled], d / "empty.png")
    assert all("poses" not in one.drinks[x] for x in DRINK_IDS)
    assert all(len(two.drinks[x]["poses"]) == 2 for x in DRINK_IDS)
    for drink in ("black-square_bottle", "white-tall_can", "mint-tallest_bottle"):
        colour, shape = drink.split("-")
        for pose in two.drinks[drink]["poses"]:  # in mm: as a piece in the tray measures it, in px
            units = size_units(SHAPE_FEATURES, float(two.stats["px_per_mm"]))
            seen = {**pose, **{n: pose[n] * u for n, u in zip(SHAPE_FEATURES, units)}}
            cols, shps, dc, ds = distances(seen, two)
            i, j = cols.index(colour), shps.index(shape)
            assert dc[i, j] == pytest.approx(0, abs=1e-6) and ds[i, j] == pytest.approx(0, abs=1e-6), (drink, pose)
    right, wrong, total = read_score(two, tray, 12)
    assert right >= 0.85 * total and wrong == 0, (right, wrong, total)
    out = tmp_path / "two-poses.json"
    assert run_cli("calibrate", "drinks", "--mat", str(d / "photo.png"), str(rolled),
                   "--background", str(d / "empty.png"), "--out", str(out)) == 0
    with pytest.raises(CalibrationError, match="1 to 5 photos"):
        calibrate_mat([d / "photo.png"] * 6)
