"""The landing reader's candidates (issue 32, item 9): a drink none of whose patches the network
reads as it is looked for again, at twice as many patches of its colour, each filled in where
its colour is the runner-up class of a pixel that is not the table (docs/performance.md,
"Drinks not seen"). On a made-up top view and a stand-in network, so that only the candidate
step is tested."""
from __future__ import annotations

import numpy as np
import pytest

from companion.vision import landing_reading
from companion.vision.landing_colours import CLASSES
from companion.vision.landing_crops import TOP_CHANNELS, TOP_PX_PER_MM, VIEW_MM, TopView, patches

TABLE, RED, YELLOW = CLASSES.index("table"), CLASSES.index("red"), CLASSES.index("yellow")


def view_of(label: np.ndarray, second: np.ndarray) -> TopView:
    x0, x1, y0, y1 = VIEW_MM
    h, w = label.shape
    xs = x0 + (np.arange(w) + 0.5) / TOP_PX_PER_MM
    ys = y1 - (np.arange(h) + 0.5) / TOP_PX_PER_MM
    gx, gy = np.meshgrid(xs, ys)
    image = np.zeros((h, w, TOP_CHANNELS), np.uint8)
    image[..., 5] = 255
    return TopView(image, label, np.full(label.shape, 5.0, np.float32), gx.astype(np.float32), gy.astype(np.float32),
                   np.array([0.0, -300.0, 400.0]), second=second)


def blank() -> tuple[np.ndarray, np.ndarray]:
    x0, x1, y0, y1 = VIEW_MM
    shape = (int((y1 - y0) * TOP_PX_PER_MM), int((x1 - x0) * TOP_PX_PER_MM))
    return np.full(shape, TABLE, np.uint8), np.full(shape, CLASSES.index("black"), np.uint8)


def at(x_mm: float, y_mm: float) -> tuple[int, int]:
    x0, _, _, y1 = VIEW_MM
    return int((y1 - y_mm) * TOP_PX_PER_MM), int((x_mm - x0) * TOP_PX_PER_MM)


class DrinkSized:
    """A stand-in network: a crop is the drink (outside) when its asked mask is a drink's size
    (a lying short can's outline), no drink when it is far bigger or smaller."""

    sure, sure_scale_mm, rival, temperature = 0.95, 5.0, 0.5, 1.0

    def read(self, crops, feats):
        n = len(crops)
        p = np.zeros((n, 4))
        for i, c in enumerate(crops):
            count = int((c[..., 3] > 0).sum())
            p[i] = (0.0, 0.0, 0.97, 0.03) if 60 <= count <= 200 else (0.0, 0.0, 0.05, 0.95)
        return p, np.zeros((n, 2)), np.ones(n)


def read(view: TopView, monkeypatch) -> object:
    monkeypatch.setattr(landing_reading, "top_view", lambda *a, **k: view)
    monkeypatch.setattr(landing_reading, "frame_projector", lambda *a, **k: None)

    class Calibration:
        camera_position = view.camera
        white_bgr = (255.0, 255.0, 255.0)

    frame = np.zeros((4, 4, 3), np.uint8)
    return landing_reading.read_learned(frame, ("red-short_can",), None, Calibration(), DrinkSized()).landings[0]


def test_a_drink_crowded_out_by_bigger_patches_of_its_colour_is_seen(monkeypatch):
    label, second = blank()
    for x in (-250, -120, 120, 250):          # four patches of the colour far bigger than a drink (a red cloth's folds)
        r, c = at(x, 380)
        label[r:r + 60, c:c + 60] = RED
    r, c = at(0.0, 200.0)                     # the drink: a lying short can, 20 x 11 mm
    label[r:r + 16, c:c + 30] = RED
    got = read(view_of(label, second), monkeypatch)
    assert got.seen and got.spot == "outside" and not got.sure
    assert abs(got.distance_mm - 200) <= 15


def test_a_drink_half_read_as_its_neighbour_colour_is_filled_in(monkeypatch):
    label, second = blank()
    r, c = at(-60.0, 150.0)
    label[r:r + 16, c:c + 30] = YELLOW         # an orange-ish red: half of it nearer the crates' yellow...
    second[r:r + 16, c:c + 30] = RED           # ...with red the runner-up
    label[r:r + 16, c:c + 17] = RED
    view = view_of(label, second)
    strict, _ = patches(view, "red")
    loose, _ = patches(view, "red", loose=True)
    assert strict[0][1] < 0.6 * loose[0][1] and loose[0][1] >= 16 * 30 - 40
    got = read(view, monkeypatch)
    assert got.seen and got.spot == "outside"
    assert not got.sure         # found by the second look: asked, however sure the network


@pytest.mark.parametrize("red_share", [0.0, 0.3])
def test_the_runner_up_fills_a_patch_in_but_does_not_make_one(monkeypatch, red_share):
    label, second = blank()
    r, c = at(60.0, 150.0)
    label[r:r + 16, c:c + 30] = CLASSES.index("purple")     # another drink, red its runner-up
    second[r:r + 16, c:c + 30] = RED
    label[r:r + 16, c:c + int(30 * red_share)] = RED
    label[r + 200:r + 220, c:c + 4] = RED                    # a sliver of red elsewhere: no drink
    view = view_of(label, second)
    assert all(p[1] < 16 * 30 - 40 for p in patches(view, "red", loose=True)[0])
    assert not read(view, monkeypatch).seen


def test_table_pixels_never_join_the_loose_mask(monkeypatch):
    label, second = blank()
    second[:] = RED                            # a red table: red the runner-up everywhere
    r, c = at(0.0, 200.0)
    label[r:r + 16, c:c + 30] = RED
    view = view_of(label, second)
    loose, _ = patches(view, "red", loose=True)
    assert len(loose) == 1 and loose[0][1] == 16 * 30
