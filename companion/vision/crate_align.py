"""The crates' grid set right field by field by a small learnt network (issue 31).

The lattice search (:mod:`.crate_grid`) finds the crates' grid to about a tenth of a pitch in the
middle and worse towards the edges (measured on development looks: median 0.10 pitch, a seventh
of the fields more than a quarter off), and one grid for all the crates cannot follow a crate a
player set down a little askew. Patches cut so far off are what the field network most often
doubts (its ``off`` class) or names a neighbouring height. Read on the renderer's true grid
instead, the same reader reads about a third more fields right and sure on development looks
(docs/performance.md, "The grid set right by a network").

So each field that shows crate plastic is looked at from above: a square of the rim plane two
pitches a side round the field's middle as the found grid has it, turned so that the camera's
lean points up (the walls' inner faces then always show on the same side), colours as log
brightness less the patch's own mean (no colour reference needed). The network (numpy; trained
by ``tools/learn_crate_align.py`` on rendered training looks, their true grid moved by a few
tenths of a pitch) says where the field's true middle lies in that square. The grid is then fitted
anew through the moved middles (a homography, RANSAC: a field it misjudges is left out), once
(a second fit measured no better).
A fit that leaves out more than half the fields, or moves the grid by more than half a pitch
anywhere, is not taken: the lattice's grid stands.

>>> import numpy as np
>>> net = AlignNet.random(seed=0)
>>> net.offsets(np.zeros((3, SIDE, SIDE, 3), np.float32), np.zeros((3, 2), np.float32)).shape
(3, 2)
"""
from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .board_net import _conv, _pool, dense_head, float_weights
from .crate_grid import frame_px_per_unit, to_frame
from .crate_patches import lean_of
from .model_files import load_net

NET_PATH = Path(__file__).with_name("models") / "crate_align.npz"
MODEL_PATH = Path(__file__).with_name("models") / "crate_align.json"
SIDE = 32                 # patch px a side
SPAN = 1.0                # pitches either side of the field's middle
PX = SIDE / (2 * SPAN)    # patch px a pitch
FEATURES = ("lean", "scale")
CHANNELS = (16, 32, 32)
HIDDEN = 64
KEYS = ("c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "f1w", "f1b", "f2w", "f2b", "mean", "std")
MIN_FIELDS = 6            # fields with plastic needed to fit a grid
MIN_SHARE = 0.5           # of them, the share the fit must keep
MAX_MOVE = 0.5            # pitches: a refit moving the grid further anywhere is not taken
ROUNDS = 1             # fits through the network's middles (a second measured no better: docs/performance.md)


def flat_size(channels: tuple[int, int, int] = CHANNELS) -> int:
    s = ((SIDE - 2) // 2 - 2) // 2 - 2
    return channels[2] * s * s


def axes(centres: np.ndarray, nadir: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each field's lean direction (unit, away from the camera's nadir, as the field patches'
    :func:`.crate_patches.lean_of`) and the direction across it."""
    along, _ = lean_of(centres, nadir, 1.0)
    return along, np.column_stack([-along[:, 1], along[:, 0]])


def align_patches(frame: np.ndarray, H: np.ndarray, cells: list, nadir: np.ndarray,
                  height: float) -> tuple[np.ndarray, np.ndarray]:
    """Patches (n, SIDE, SIDE, 3) float32 round the ``cells`` of the grid ``H`` (grid units ->
    frame px; the lean up: row 0 lies furthest from the nadir) and their numbers (n, 2): the lean
    per pitch of height and the frame's scale."""
    n = len(cells)
    if n == 0:
        return np.zeros((0, SIDE, SIDE, 3), np.float32), np.zeros((0, len(FEATURES)), np.float32)
    centres = np.array([(i + 0.5, j + 0.5) for i, j in cells], np.float64)
    along, across = axes(centres, nadir)
    t = -SPAN + (np.arange(SIDE) + 0.5) / PX
    pts = (centres[:, None, None, :] + t[::-1][None, :, None, None] * along[:, None, None, :]
           + t[None, None, :, None] * across[:, None, None, :]).reshape(-1, 2)
    ppu = frame_px_per_unit(H, centres.mean(axis=0))
    k = max(1, int(ppu / (1.5 * PX)))                 # a much finer frame averaged down first
    src, Hs = frame, H
    if k > 1:
        src = cv2.resize(frame, (max(1, frame.shape[1] // k), max(1, frame.shape[0] // k)), interpolation=cv2.INTER_AREA)
        Hs = np.diag([src.shape[1] / frame.shape[1], src.shape[0] / frame.shape[0], 1.0]) @ H
    q = to_frame(Hs, pts).astype(np.float32).reshape(-1, SIDE, 2)
    img = cv2.remap(src, q[..., 0], q[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    img = np.log(img.reshape(n, SIDE, SIDE, 3).astype(np.float32) + 8.0)
    img -= img.mean(axis=(1, 2), keepdims=True)
    np.clip(img, -3.0, 3.0, out=img)
    _, lean = lean_of(centres, nadir, height)
    feats = np.column_stack([lean, np.full(n, math.log(max(ppu, 1.0) / 50.0))]).astype(np.float32)
    return img, feats


class AlignNet:
    """The exported network (weights as PyTorch keeps them): a patch -> where the field's true
    middle lies in it, pitches (across, along the lean)."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, KEYS, "crate align network", "tools/learn_crate_align.py")

    @classmethod
    def random(cls, seed: int = 0) -> "AlignNet":
        """A network of the right shapes with random weights (for tests of the plumbing)."""
        rng = np.random.default_rng(seed)
        c1, c2, c3 = CHANNELS
        nf = len(FEATURES)
        shapes = {"c1w": (c1, 3, 3, 3), "c1b": (c1,), "c2w": (c2, c1, 3, 3), "c2b": (c2,),
                  "c3w": (c3, c2, 3, 3), "c3b": (c3,), "f1w": (HIDDEN, flat_size() + nf), "f1b": (HIDDEN,),
                  "f2w": (2, HIDDEN), "f2b": (2,)}
        return cls({**{k: rng.normal(0, 0.1, s) for k, s in shapes.items()}, "mean": np.zeros(nf), "std": np.ones(nf)})

    def offsets(self, patches: np.ndarray, feats: np.ndarray) -> np.ndarray:
        w = self.w
        if not len(patches):
            return np.zeros((0, 2), np.float32)
        x = _pool(_conv(patches.astype(np.float32, copy=False), w["c1w"], w["c1b"]))
        x = _pool(_conv(x, w["c2w"], w["c2b"]))
        x = _conv(x, w["c3w"], w["c3b"])
        flat = x.transpose(0, 3, 1, 2).reshape(len(x), -1)          # PyTorch's (c, h, w) order
        return dense_head(flat, feats, w)


@cache
def align_net(net_path: str = str(NET_PATH)) -> AlignNet | None:
    """The committed network (None when there is none)."""
    found = load_net(MODEL_PATH, net_path)
    return AlignNet(found[0]) if found is not None else None


def true_middles(net: AlignNet, frame: np.ndarray, H: np.ndarray, cells: list, nadir: np.ndarray,
                 height: float) -> np.ndarray:
    """Where the network puts each field's true middle, in the grid units of ``H``."""
    patches, feats = align_patches(frame, H, cells, nadir, height)
    off = net.offsets(patches, feats).astype(np.float64)
    centres = np.array([(i + 0.5, j + 0.5) for i, j in cells], np.float64)
    along, across = axes(centres, nadir)
    return centres + off[:, :1] * across + off[:, 1:] * along


def refit(net: AlignNet | None, frame: np.ndarray, H: np.ndarray, cells: list, nadir: np.ndarray,
          height: float) -> np.ndarray:
    """``H`` fitted anew through the fields' middles as the network sees them (``cells``: the
    fields with crate plastic); ``H`` itself when there are too few or the fit is doubtful."""
    if net is None or len(cells) < MIN_FIELDS:
        return H
    src = np.array([(i + 0.5, j + 0.5) for i, j in cells], np.float64)
    G = H
    for _ in range(ROUNDS):
        mids = true_middles(net, frame, G, cells, nadir, height)
        dst = to_frame(G, mids)
        ppu = frame_px_per_unit(G, src.mean(axis=0))
        F, keep = cv2.findHomography(src, dst, cv2.RANSAC, 0.1 * ppu)
        if F is None or keep is None or keep.sum() < max(MIN_FIELDS, MIN_SHARE * len(cells)):
            return H
        G = F / F[2, 2]
    back = to_frame(np.linalg.inv(H), to_frame(G, src))      # the new middles in the old grid's units
    if not np.all(np.isfinite(back)) or np.max(np.linalg.norm(back - src, axis=1)) > MAX_MOVE:
        return H
    return G
