"""Which pixels are drinks (vision/segment.py), on rendered photos of the benchmark's tables:
a black drink's face that passes for a shadow, the tray enclosed by a ring of drinks, and a soft
shadow band across half the tray, which is read, not refused."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.sim.camera import SIM_SEED
from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import render_sample
from companion.vision import placing, segment
from companion.vision.profile import Profile

from vision_support import benchmark_photo, reading_at, shadow_band, rules_reading as identify  # the rules' own steps are tested here



PROFILE = Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json"


def test_a_black_drinks_face_on_a_dark_tray_is_no_shadow(tmp_path, monkeypatch):
    # seed 27001 (a dark tray), 10th touching photo, which test_vision_split reads too: the
    # black square bottle's flat face keeps the tray's colour and is evenly darker, as a shadow
    # is, but far deeper over the whole face than any drink's shadow; taken as the drink's own
    # pixels, it is read right (found on seed 16006's 8th photo)
    profile, image, truth = benchmark_photo(tmp_path, 27001, 9)
    bottle = next(t for t in truth if t["id"] == "black-square_bottle")
    got = reading_at(identify(image, profile), bottle)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "square_bottle", False)
    # where calibration had seen shadows as deep as the face (a harsher lamp), the face is read
    # as shadow and leaves only the neck and the glare spot: only the second look finds the
    # bottle, by its outline's rim on the face's edges (vision/fit.py); without the rim's
    # votes no such bottle is found
    assert segment.deep_shade_level(profile) < 0.3
    profile.stats["shadow_depth"] = 0.45
    profile._cache.clear()
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"], got["_why"]) == ("black", "square_bottle", False, "outline fitted")
    monkeypatch.setattr(placing, "RIM_EXPLAINS", 0.0)
    found = identify(image, profile)
    assert not any((f["color"], f["shape"]) == ("black", "square_bottle") and not f["unsure"] for f in found)


def test_the_tray_enclosed_by_a_ring_of_drinks_is_no_drink(tmp_path, monkeypatch):
    # seed 16004 (a light tray), 21st touching photo: touching drinks lie around a patch of the
    # tray; filling their outlines must not fill it, or it is read as one more (unsure) drink
    profile, image, truth = benchmark_photo(tmp_path, 16004, 21)
    found = identify(image, profile)
    assert len(found) == len(truth)
    assert sorted(f"{f['color']}-{f['shape']}" for f in found) == sorted(t["id"] for t in truth)
    monkeypatch.setattr(segment, "TRAY_HOLE", (1e9, 1.0))
    profile._cache.clear()
    assert len(identify(image, profile)) == len(truth) + 1


def test_calibration_measures_how_deep_the_drinks_shadows_are():
    # the shadow beside each drink in its calibration photo; a blob must be deeper than that
    # to be taken as a drink. A profile made before this was measured uses a fixed level.
    import copy
    from pathlib import Path

    from companion.vision.profile import Profile

    profile = Profile.load(Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json")
    depth = profile.stats["shadow_depth"]
    assert 0.1 < depth < 0.35
    assert segment.deep_shade_level(profile) == depth + segment.DEEP_MARGIN
    older = copy.copy(profile)
    older.stats = {k: v for k, v in profile.stats.items() if k != "shadow_depth"}
    assert segment.deep_shade_level(older) == segment.DEEP_SHADE


def test_a_soft_shadow_band_across_half_the_tray_is_read_not_refused(monkeypatch):
    # The band puts the frame's median light between the lit and the shaded tray, so that no
    # plane of light fitted from the median explains a quarter of the frame: the whole frame was
    # refused as "not the calibrated tray". Now the plane starts from the level most of the tray
    # shares, and the band's broad, smooth, colourless step is taken as shade.
    profile = Profile.load(PROFILE)
    img, truth = render_sample(Renderer(Look.from_seed(SIM_SEED)), np.random.default_rng(5), "separated")
    shaded = shadow_band(img)
    ref = segment.reference(profile)
    small = cv2.resize(shaded, profile.work_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    grid = (np.log(cv2.resize(small, segment.TINY, interpolation=cv2.INTER_AREA) + 1.0) - ref["bg_tiny_log"]).reshape(-1, 3)
    assert segment._tray_plane(grid, segment.column_medians(grid), ref)[1].mean() < segment.TRAY_SHARE
    found = identify(shaded, profile)
    right = [t for t in truth if any(f"{f['color']}-{f['shape']}" == t["id"] and not f["unsure"]
                                     for f in [reading_at(found, t)])]
    assert len(right) >= len(truth) - 1, (found, truth)
    assert not [f for f in found if not f["unsure"] and f"{f['color']}-{f['shape']}" not in {t["id"] for t in truth}]
    # without the shade, the same frame is refused whole
    monkeypatch.setattr(segment, "_broad_shade", lambda resid, inl, profile: np.zeros(inl.shape, bool))
    profile._cache.clear()
    with pytest.raises(segment.FrameError, match="does not show the calibrated tray"):
        identify(shaded, profile)
