"""The calibration cans' tops marked by a small network (issue 31), where the hand-written finder
(:func:`.calibration_crate.can_tops`, the crate's yellow first, then what is not yellow in it)
finds too few: a pale or glossy crate, a lamp that tints it, cans that touch.

The network (``tools/learn_crate_tops.py``, PyTorch for training, numpy here) is fully
convolutional: a photo scaled so that the crate's pitch is about :data:`PITCH` px in, a map a
quarter of its size out, high where a can's top stands in a crate's slot. Five 3x3 layers
(zero padding, ReLU; 2x2 max pooling after the first two) and a 1x1 layer to one score a cell.
Its input is the photo's BGR scaled to [-0.5, 0.5]. The crate's size in the photo is not known
before it is found, so the photo is read at a few scales (:data:`SCALES`, a factor of two apart:
the network learnt pitches from :data:`PITCH` / sqrt 2 to :data:`PITCH` x sqrt 2 and a little
beyond), each giving its own peaks; :func:`.calibration_crate.place_crate` keeps the scale whose
six tops fit a crate best.

>>> import numpy as np
>>> net = TopsNet.random(seed=0)
>>> net.heat(np.zeros((64, 96, 3), np.uint8)).shape
(16, 24)
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .board_net import _conv, _pool, float_weights
from .model_files import load_net

NET_PATH = Path(__file__).with_name("models") / "crate_tops.npz"
MODEL_PATH = Path(__file__).with_name("models") / "crate_tops.json"
PITCH = 16.0                  # px: the crate's pitch the network reads best
STRIDE = 4                    # photo px (at the read scale) a cell of the map
CHANNELS = (8, 16, 32, 32, 32)
KEYS = tuple(f"c{i}{k}" for i in range(1, 7) for k in "wb")
# a scale whose picture has more px than this is not read (its layers' memory, some 200 MB; a
# crate of that scale's pitch would be under a 250th of such a photo)
MAX_PIXELS = 1_600_000


class TopsNet:
    """The exported weights (PyTorch's layout: c1..c5 3x3 convolutions, c6 the 1x1 score)."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, KEYS, "crate tops network", "tools/learn_crate_tops.py")

    @classmethod
    def random(cls, seed: int = 0, channels: tuple[int, ...] = CHANNELS) -> "TopsNet":
        """A network of the given widths with random weights (for tests of the plumbing)."""
        rng = np.random.default_rng(seed)
        w, c_in = {}, 3
        for i, c in enumerate(channels, 1):
            w[f"c{i}w"], w[f"c{i}b"] = rng.normal(0, 0.1, (c, c_in, 3, 3)), np.zeros(c)
            c_in = c
        w["c6w"], w["c6b"] = rng.normal(0, 0.1, (1, c_in, 1, 1)), np.zeros(1)
        return cls(w)

    def heat(self, picture: np.ndarray) -> np.ndarray:
        """The map (h // 4, w // 4) of scores in [0, 1] for a BGR uint8 picture."""
        x = (picture.astype(np.float32) / 255.0 - 0.5)[None]
        for i in range(1, 6):
            x = _conv(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))), self.w[f"c{i}w"], self.w[f"c{i}b"])
            if i <= 2:
                x = _pool(x)
        z = x[0] @ self.w["c6w"].reshape(1, -1).T + self.w["c6b"]
        return 1.0 / (1.0 + np.exp(-z[..., 0]))


def peaks(heat: np.ndarray, least: float, most: int) -> list[tuple[float, float, float]]:
    """The map's local maxima of at least ``least``, strongest first (at most ``most``; one of
    two within a cell's diagonal): (x, y) in the read picture's px (the 3x3 cells round each
    weighted, for a place finer than a cell) and the score."""
    top = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= least)
    ys, xs = np.nonzero(top)
    order = np.argsort(-heat[ys, xs], kind="stable")
    h, w = heat.shape
    out, kept = [], []
    for y, x in zip(ys[order], xs[order]):
        # a flat top gives neighbouring maxima: one top (cans' tops lie 2.5 cells apart and more)
        if len(out) == most:
            break
        if any((y - ky) ** 2 + (x - kx) ** 2 <= 2 for ky, kx in kept):
            continue
        kept.append((y, x))
        y0, y1, x0, x1 = max(0, y - 1), min(h, y + 2), max(0, x - 1), min(w, x + 2)
        win = heat[y0:y1, x0:x1]
        gy, gx = np.mgrid[y0:y1, x0:x1]
        cy, cx = float((win * gy).sum() / win.sum()), float((win * gx).sum() / win.sum())
        out.append(((cx + 0.5) * STRIDE - 0.5, (cy + 0.5) * STRIDE - 0.5, float(heat[y, x])))
    return out


# the crate's pitch in the photo, px: the scales read are PITCH / these (a factor of two apart)
PITCHES = (16.0, 32.0, 64.0, 128.0, 256.0)
LEAST = 0.3                   # a peak weaker than this is not a can's top


def tops_by_scale(image: np.ndarray, net: "TopsNet | None" = None, most: int = 6) -> list[list[tuple[np.ndarray, float]]]:
    """For each scale of :data:`PITCHES` that fits the photo, the peaks (the photo's px, score),
    strongest first; [] without a committed network."""
    net = net or tops_net()
    if net is None:
        return []
    h, w = image.shape[:2]
    out = []
    for pitch in PITCHES:
        s = PITCH / pitch
        size = (int(round(w * s)), int(round(h * s)))
        if size[0] * size[1] > MAX_PIXELS or min(size) < 3 * PITCH:
            continue            # too big to read, or too small to hold a crate three pitches long
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        found = peaks(net.heat(small), LEAST, most)
        out.append([(np.array([(x + 0.5) / s - 0.5, (y + 0.5) / s - 0.5]), score) for x, y, score in found])
    return out


@cache
def tops_net(settings_path: str = str(MODEL_PATH), net_path: str = str(NET_PATH)) -> TopsNet | None:
    """The committed network (None when there is none)."""
    found = load_net(settings_path, net_path)
    return None if found is None else TopsNet(found[0])
