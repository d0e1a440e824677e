"""Which pixels are drinks (vision/segment.py), on rendered photos of the benchmark's tables:
a black drink's face that passes for a shadow, and the tray enclosed by a ring of drinks."""
from __future__ import annotations

from companion.vision import placing, segment
from companion.vision.drinks import identify

from vision_support import benchmark_photo, reading_at


def test_a_black_drinks_face_on_a_dark_tray_is_no_shadow(tmp_path, monkeypatch):
    # seed 16006 (a dark tray), 7th touching photo: the black square bottle's flat face keeps
    # the tray's colour and is evenly darker, as a shadow is, but far deeper over the whole
    # face than any drink's shadow; taken as the drink's own pixels, it is read right
    profile, image, truth = benchmark_photo(tmp_path, 16006, 7)
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
