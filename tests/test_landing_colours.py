"""The landing reader's colour classes (issue 32, item 9): the plastics' references taken from
the view itself (``landing_colour_adapt.adapted_references``, the option ``landing_crops.ADAPT``: not
the default, docs/performance.md "Plastic colours from the table") and the classes' costs. On
made-up balanced top views (linear light against the paper), so only the colours are tested."""
from __future__ import annotations

import numpy as np
from companion.sim.looks import linear_to_srgb_u8
from companion.vision import landing_colour_adapt as la
from companion.vision import landing_colours as lc
from companion.vision import landing_crops

SIDE = 300
DRINK = (slice(140, 170), slice(130, 150))      # a drink's patch: 20 x 13 mm at 1.5 px/mm


def view(table_srgb, plastic_srgb=None, seed: int = 0, texture: float = 0.03) -> np.ndarray:
    """A table of one colour (its grain ``texture``, each channel its own) with, given ``plastic_srgb``, one drink's
    patch of that plastic, its pixels' channels varying by 12 % (shading, noise)."""
    rng = np.random.default_rng(seed)
    table = lc.srgb_to_linear(np.array(table_srgb[::-1], np.float32)) * 0.8
    lin = (table * rng.normal(1, texture, (SIDE, SIDE, 3))).astype(np.float32)
    if plastic_srgb is not None:
        p = lc.srgb_to_linear(np.array(plastic_srgb[::-1], np.float32))
        lin[DRINK] = p * rng.normal(1, 0.12, (30, 20, 3)).astype(np.float32)
    return lin


def classes(feats, refs) -> np.ndarray:
    return lc.cost_stack(lc.costs_of(feats, refs)).argmin(0)


def everywhere() -> np.ndarray:
    return np.ones((SIDE, SIDE), bool)


def test_an_orange_tinted_red_is_read_red_with_the_references_from_the_view():
    # a red of an orange tint (a varied look's plastic): the nominal red leaves part of it to
    # the crates' yellow; the red taken from the view reads it all red
    feats = lc.features(view((60, 80, 110), (221, 106, 41)), 1.5)
    refs = la.adapted_references(feats, everywhere())
    red, yellow = lc.CLASSES.index("red"), lc.CLASSES.index("yellow")
    before, after = classes(feats, lc.REFERENCES)[DRINK], classes(feats, refs)[DRINK]
    assert (before == yellow).sum() >= 30
    assert (after == yellow).sum() <= 5 and (after == red).sum() >= 590
    # the red moved towards the drink's own chromaticity, the absent plastics did not move
    own = lc.chroma_of(lc.srgb_to_linear(np.array((41, 106, 221), np.float32))[None])[0]
    assert np.linalg.norm(refs["red"][0] - own) < 0.5 * np.linalg.norm(lc.REFERENCES["red"][0] - own)
    for name in ("mint", "blue", "purple", "white", "black", "yellow"):
        assert np.allclose(refs[name][0], lc.REFERENCES[name][0], atol=1e-3), name


def test_a_plastic_does_not_take_a_table_of_its_colour():
    # a pale cyan-green table near the mint: moved freely, the mint would become the table
    # (most of the view); such a move is refused and the mint stays nominal
    feats = lc.features(view((128, 237, 231), texture=0.06), 1.5)
    mint = lc.CLASSES.index("mint")
    refs = la.adapted_references(feats, everywhere())
    assert np.array_equal(refs["mint"][0], lc.REFERENCES["mint"][0])
    assert (classes(feats, refs) == mint).mean() <= la.ADAPT_MOST_SHARE


def test_without_the_guard_the_mint_would_take_the_table(monkeypatch):
    # what the guard above stops (so that test can fail): the mint drawn onto the table
    monkeypatch.setattr(la, "ADAPT_MOST_SHARE", 1.0)
    feats = lc.features(view((128, 237, 231), texture=0.06), 1.5)
    refs = la.adapted_references(feats, everywhere())
    assert (classes(feats, refs) == lc.CLASSES.index("mint")).mean() > 0.5


def test_nothing_to_adapt_from_keeps_the_nominal_references():
    feats = lc.features(view((60, 80, 110)), 1.5)
    refs = la.adapted_references(feats, np.zeros((SIDE, SIDE), bool))
    assert all(np.array_equal(refs[n][0], lc.REFERENCES[n][0]) for n in lc.REFERENCES)


def test_the_costs_are_the_written_out_formula():
    # the chromaticity distance is written out for speed: the costs are those of the plain formula
    rng = np.random.default_rng(3)
    lin = rng.uniform(0.01, 1.0, (40, 50, 3)).astype(np.float32)
    got = lc.class_costs(lin, 1.5)
    chroma, bright, t_chroma, t_bright = lc.features(lin, 1.5)
    for name, (ref_c, ref_b) in lc.REFERENCES.items():
        sc = lc.SIGMA_CHROMA * {"black": 2.5, "yellow": lc.YELLOW_SPREAD}.get(name, 1.0)
        db = (bright - ref_b) / lc.SIGMA_LOG
        db = np.minimum(db, 0) * 1.6 if name == "white" else np.maximum(db, 0) * 1.3 if name == "black" else db
        assert np.array_equal(got[name], ((chroma - ref_c) ** 2).sum(-1) / sc ** 2 + db ** 2), name
    dc = ((chroma - t_chroma) ** 2).sum(-1) / lc.TABLE_CHROMA ** 2
    assert np.array_equal(got["table"], dc * np.clip(1 - (t_bright - bright) / 4, 0.4, 1)
                          + (np.clip(bright - t_bright - 0.15, 0, None) / 0.25) ** 2
                          + (np.clip(t_bright - bright - 1.9, 0, None) / 0.25) ** 2)


def test_the_view_adapted_plastics_are_an_option_off_by_default():
    # measured and not kept (its pre-registered rule failed on held-out looks)
    assert landing_crops.ADAPT is False


def test_the_top_view_reads_with_the_view_adapted_plastics_only_when_asked(monkeypatch):
    # landing_crops.top_view's classes: nominal by default, from the view with ADAPT
    lin = view((60, 80, 110), (221, 106, 41))
    frame = linear_to_srgb_u8(lin / lc.PAPER_ALBEDO)          # the frame whose paper white is 255
    gy = np.full((SIDE, SIDE), 100.0, np.float32)
    mx, my = np.meshgrid(np.arange(SIDE, dtype=np.float32), np.arange(SIDE, dtype=np.float32))
    maps = (mx, my, everywhere(), gy, gy)          # the frame is the top view; all of it in view, off the base
    yellow = {}
    for adapt in (False, True):
        monkeypatch.setattr(landing_crops, "ADAPT", adapt)
        label = landing_crops.top_view(frame, maps, (255.0, 255.0, 255.0), np.array([0.0, -300.0, 400.0])).label
        yellow[adapt] = int((label[DRINK] == lc.CLASSES.index("yellow")).sum())
    assert yellow[False] >= 30 and yellow[True] <= 5
