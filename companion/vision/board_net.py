"""The board reader's place network: a small convolutional network that names what stands on
one place of the board from the pixels round it (issue 29).

Its input for a place (:func:`patches`) is a square of the rectified sheet round the point its
piece is looked at (PATCH mm a side at 1 px/mm), brought to the empty board's light, and the
same square of the empty board itself: six channels, each the log of the colour against the
sheet's paper (so a lamp's brightness and colour cancel out), clipped. Beside the pixels it is
given the reader's measured numbers of the place (``board_model.feature_names``: change, colour
against the paper, the kind of place). Three 3x3 convolutions (ReLU, 2x2 max pooling after the
first two: 24 -> 22 -> 11 -> 9 -> 4 -> 2, then the maximum over the last 2x2), the measured numbers, a hidden layer, and a score per
name (``board_model.CLASSES``).

Run with numpy alone (the service carries no deep-learning library): each convolution is one
matrix product over the windows of the squares (``sliding_window_view``), so ~100 places cost a
few milliseconds on one core. ``tools/learn_board.py`` trains it with PyTorch (a training tool
only) on rendered boards and writes ``models/board_net.npz``; the layers here are the same
layers, in the same order, with the same weights' layout (PyTorch's (out, in, 3, 3)).

>>> import numpy as np
>>> net = PlaceNet.random(features=4, classes=3, seed=0)
>>> net.logits(np.zeros((2, PATCH, PATCH, 6), np.float32), np.zeros((2, 4), np.float32)).shape
(2, 3)
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

NET_PATH = Path(__file__).with_name("models") / "board_net.npz"
PATCH = 24               # mm (px) a side of the square read round a place: a piece's body and base, and room for a lean misjudged
CHANNELS = (12, 24, 32)  # the three convolutions' widths, and the hidden layer's, of a network trained by
HIDDEN = 64              # default (the tools' --widths/--hidden make others; the layers here take the weights' shapes)
PAPER_EPS = 8.0          # added to colours before ratios (dark noise; the board reader's too)
CLIP = (-3.0, 1.0)       # log colour against the paper: black ink is about -2.5, nothing is 2.7x the paper


def square_offsets(size: int = PATCH) -> np.ndarray:
    """(size*size, 2) pixel offsets (x, y) of a square centred on a point, row by row."""
    lo = -(size // 2)
    yy, xx = np.mgrid[lo:lo + size, lo:lo + size]
    return np.stack([xx.ravel(), yy.ravel()], axis=1)


def disc_offsets(r_in: float, r_out: float) -> np.ndarray:
    """(k, 2) pixel offsets (x, y) of the ring between radii ``r_in`` and ``r_out`` (a disc for
    ``r_in`` 0) round a point: where the board reader measures a place."""
    k = int(np.ceil(r_out))
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
    d = np.hypot(xx, yy)
    sel = (d <= r_out) & (d >= r_in)
    return np.stack([xx[sel], yy[sel]], axis=1)


def patches(sheet: np.ndarray, reference: np.ndarray, paper: np.ndarray, at: np.ndarray,
            size: int = PATCH) -> np.ndarray:
    """The network's input for the places centred at ``at`` (n, 2) px: (n, size, size, 6)
    float32, the sheet's square then the reference's, as log colour against ``paper``. Squares
    running off the sheet repeat its edge."""
    h, w = sheet.shape[:2]
    off = square_offsets(size)
    c = np.round(at).astype(np.int64)
    x = np.clip(c[:, None, 0] + off[None, :, 0], 0, w - 1)
    y = np.clip(c[:, None, 1] + off[None, :, 1], 0, h - 1)
    idx = y * w + x
    scale = np.log(np.asarray(paper, np.float32) + PAPER_EPS)
    out = np.empty((len(at), size * size, 6), np.float32)
    out[..., :3] = sheet.reshape(-1, 3)[idx]
    out[..., 3:] = reference.reshape(-1, 3)[idx]
    np.log(out + PAPER_EPS, out=out)
    out[..., :3] -= scale
    out[..., 3:] -= scale
    np.clip(out, *CLIP, out=out)
    return out.reshape(len(at), size, size, 6)


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 convolution without padding, then ReLU: x (n, h, w, c) -> (n, h-2, w-2, out)."""
    n, h, wd, c = x.shape
    win = sliding_window_view(x, (3, 3), axis=(1, 2))               # (n, h-2, w-2, c, 3, 3)
    cols = win.reshape(n * (h - 2) * (wd - 2), c * 9)                # one copy: the windows side by side
    out = cols @ w.reshape(len(w), c * 9).T
    out += b
    np.maximum(out, 0, out=out)
    return out.reshape(n, h - 2, wd - 2, len(w))


def _pool(x: np.ndarray) -> np.ndarray:
    """2x2 max pooling (an odd last row or column dropped, as PyTorch's)."""
    n, h, w, c = x.shape
    return x[:, :h // 2 * 2, :w // 2 * 2].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def float_weights(weights: dict[str, np.ndarray], keys: tuple[str, ...], network: str, tool: str) -> dict:
    """A network's exported weights as float32, or ValueError naming the first one missing and
    the tool that makes them (each numpy network of the readers loads its weights so)."""
    w = {k: np.asarray(v, np.float32) for k, v in weights.items()}
    for key in keys:
        if key not in w:
            raise ValueError(f"the {network} lacks {key}: run {tool}")
    return w


def dense_head(image: np.ndarray, numbers: np.ndarray, w: dict[str, np.ndarray]) -> np.ndarray:
    """The layers after the convolutions: the image's features (n, k) beside the measured
    numbers standardised (``mean``, ``std``), one hidden ReLU layer (``f1``), the scores (``f2``)."""
    z = (np.asarray(numbers, np.float32) - w["mean"]) / w["std"]
    hidden = np.maximum(np.concatenate([image, z], axis=1) @ w["f1w"].T + w["f1b"], 0)
    return hidden @ w["f2w"].T + w["f2b"]


class PlaceNet:
    """The exported network (weights as PyTorch keeps them) and the standardisation of the
    measured numbers it is given beside the pixels."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, ("c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "f1w", "f1b", "f2w", "f2b", "mean",
                                         "std"), "board place network", "tools/learn_board.py")

    @classmethod
    def random(cls, features: int, classes: int, seed: int = 0, channels: tuple[int, int, int] = CHANNELS,
               hidden: int = HIDDEN) -> "PlaceNet":
        """A network of the right shapes with random weights (for tests of the plumbing)."""
        rng = np.random.default_rng(seed)
        c1, c2, c3 = channels
        shapes = {"c1w": (c1, 6, 3, 3), "c1b": (c1,), "c2w": (c2, c1, 3, 3), "c2b": (c2,),
                  "c3w": (c3, c2, 3, 3), "c3b": (c3,), "f1w": (hidden, c3 + features), "f1b": (hidden,),
                  "f2w": (classes, hidden), "f2b": (classes,)}
        w = {k: rng.normal(0, 0.1, s) for k, s in shapes.items()}
        return cls({**w, "mean": np.zeros(features), "std": np.ones(features)})

    def logits(self, squares: np.ndarray, features: np.ndarray) -> np.ndarray:
        """Scores per name for n places: ``squares`` (n, PATCH, PATCH, 6) from :func:`patches`,
        ``features`` (n, F) the reader's measured numbers."""
        w = self.w
        if not len(squares):
            return np.zeros((0, len(w["f2b"])), np.float32)
        x = _pool(_conv(squares.astype(np.float32, copy=False), w["c1w"], w["c1b"]))
        x = _pool(_conv(x, w["c2w"], w["c2b"]))
        x = _conv(x, w["c3w"], w["c3b"])
        return dense_head(x.max(axis=(1, 2)), features, w)
