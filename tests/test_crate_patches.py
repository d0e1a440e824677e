"""The crate reader's patches (vision/crate_patches.py): each patch row is one height over the
rim, so a drink's top lands on the row of its height whatever the field's lean. Checked on a
rendered development frame, with the look calibrated from the renderer's truth (the geometry
alone, not the calibration's focal length): the tops of one kind of drink fall on the same row
in fields whose leans differ by 0.4 pitch a pitch of height or more (the fixed-length patch
before put one kind's tops up to 11-18 rows apart on this frame), and the rows climb with the
drinks' heights."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from companion.sim.crate_layouts import random_layout
from companion.sim.crate_looks import CrateLook
from companion.sim.crate_render import CrateRenderer
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT
from companion.vision.crate_grid import to_frame
from companion.vision.crate_patches import MIN_LEAN, heights, lean_of
from companion.vision import crates
from companion.vision.crates import CrateReader

TOOL = Path(__file__).resolve().parents[1] / "tools" / "learn_crates.py"


def patch_row(along: float, dist: float, height: float) -> int:
    """The patch row whose sample lies ``along`` pitches up the field's ray (crate_patches' cut)."""
    z = heights()
    b = max(dist, MIN_LEAN * height) * z / np.maximum(height - z, 0.25 * height)
    return int(np.argmin(np.abs(b - along)))


@pytest.fixture(scope="module")
def tops():
    spec = importlib.util.spec_from_file_location("learn_crates", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    renderer = CrateRenderer(CrateLook.from_seed(3, "dev"))
    rng = np.random.default_rng([3, 31])
    photo, ptruth = renderer.render(CALIBRATION_LAYOUT, rng)
    found = None
    # the truth's focal length kept (not the frames' estimate, vision/crate_focal.py): the rows
    # are checked against the true geometry
    kept, crates.FOCAL_FROM_FRAMES = crates.FOCAL_FROM_FRAMES, False
    try:
        while found is None:
            cal = tool.truth_calibration(photo, ptruth, renderer.f)
            frame, truth = renderer.render(random_layout(rng), rng)
            found = CrateReader(cal, model=None).locate(frame)
    finally:
        crates.FOCAL_FROM_FRAMES = kept
    inv = np.linalg.inv(found.grid.H)
    out = []                       # (shape, lean, row of its top)
    for d in truth["drinks"]:
        mid = to_frame(inv, [truth["centres"][tuple(d["field"])]])
        top = to_frame(inv, [d["top_px"]])[0]
        unit, lean = lean_of(mid, found.nadir, found.height)
        along = float((top - mid[0]) @ unit[0])
        out.append((d["drink"].partition("-")[2], float(lean[0]), patch_row(along, lean[0] * found.height, found.height)))
    return out


def test_a_height_lands_on_one_row_whatever_the_lean(tops):
    leans = [lean for _, lean, _ in tops]
    assert max(leans) - min(leans) >= 0.4          # fields the camera sees at clearly different leans
    for shape in {s for s, _, _ in tops}:
        rows = [r for s, _, r in tops if s == shape]
        assert max(rows) - min(rows) <= 5, (shape, rows)


def test_the_rows_climb_with_the_drinks_heights(tops):
    mean = {s: np.mean([r for t, _, r in tops if t == s]) for s in {s for s, _, _ in tops}}
    order = [s for s in ("stubby_can", "short_can", "tall_can", "tallest_bottle") if s in mean]
    assert len(order) >= 3
    # row 0 is the highest: taller drinks' tops on smaller row numbers
    assert all(mean[a] > mean[b] for a, b in zip(order, order[1:])), mean
