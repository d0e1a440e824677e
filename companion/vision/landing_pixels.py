"""Each pixel's class in the landing camera's top view, learned: a small network over a pixel's
colour and the table's own colour around it gives the log-probabilities of the six drinks'
plastics, the crates' yellow and the table (``landing_colours.CLASSES``). It stands in for the
hand-written distances to the makers' nominal colours (``landing_colours.costs_of``) where the
landing model's settings say ``pixels: "learned"`` (``landing_crops.top_view``).

Why: those distances were fitted by hand to nominal plastics, and a varied look's plastics, lamps
and crates wander off them (the 26th session found colour the first cause of a drink not seen);
this learns the same question from rendered varied looks whose every pixel's truth is known
(``sim/landing_render.LandingRenderer.label_picture``, ``tools/learn_landing_pixels.py``).

What a pixel gives (``inputs``): its balanced colour (the square root, as the crops show it), its
chromaticity and brightness, the table's there (``landing_colours.features``' wide median), and
the chromaticity and brightness averaged over a 5 px window (noise and JPEG blocks). Two hidden
ReLU layers of the weights' own widths. Trained on the view's own odds (each kept pixel weighted
by the inverse of the share of its kind kept); the settings' ``table_bias`` (1: as trained)
multiplies the table's odds, to find more drink pixels (below 1) or fewer.

>>> net = PixelClassNet.random(seed=0)
>>> lin = np.full((4, 5, 3), 0.3, np.float32)
>>> net.costs(lin, 1.5).shape
(8, 4, 5)
"""
from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .board_net import float_weights
from .landing_colours import CLASSES, features
from .model_files import load_net

NET_PATH = Path(__file__).with_name("models") / "landing_pixels.npz"
MODEL_PATH = Path(__file__).with_name("models") / "landing_pixels.json"
INPUTS = ("b", "g", "r", "chroma_r", "chroma_g", "bright", "table_chroma_r", "table_chroma_g", "table_bright",
          "near_chroma_r", "near_chroma_g", "near_bright")
KEYS = ("mean", "std", "w1", "b1", "w2", "b2", "w3", "b3")
NEAR_PX = 5                 # the window of the averaged colour: 3.3 mm at the top view's 1.5 px a mm
PLAIN_CHROMA = 0.012        # a pixel this near the table's chromaticity and
PLAIN_LOG = 0.15            # brightness (log) is the table's without asking (``plain``)
PLAIN_COST = 30.0           # the other classes' cost there


def inputs(lin: np.ndarray, px_per_mm: float, feats: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """(h, w, len(INPUTS)) float32 of a balanced top view ``lin`` (``feats``: its
    ``landing_colours.features`` when already made)."""
    chroma, bright, t_chroma, t_bright = feats if feats is not None else features(lin, px_per_mm)
    enc = np.sqrt(np.clip(lin, 0, 1.2) / 1.2)
    near = cv2.blur(np.dstack([chroma, bright]).astype(np.float32), (NEAR_PX, NEAR_PX))
    return np.dstack([enc, chroma, bright, t_chroma, t_bright, near]).astype(np.float32)


class PixelClassNet:
    """The exported network: standardisation, two hidden layers, one score a class."""

    def __init__(self, weights: dict[str, np.ndarray], table_bias: float = 1.0):
        self.w = float_weights(weights, KEYS, "landing pixel network", "tools/learn_landing_pixels.py")
        self.table_shift = np.float32(math.log(max(table_bias, 1e-6)))

    @classmethod
    def random(cls, seed: int = 0, hidden: tuple[int, int] = (16, 16)) -> "PixelClassNet":
        rng = np.random.default_rng(seed)
        n, (h1, h2), k = len(INPUTS), hidden, len(CLASSES)
        w = {"mean": np.zeros(n), "std": np.ones(n), "w1": rng.normal(0, 0.3, (h1, n)), "b1": np.zeros(h1),
             "w2": rng.normal(0, 0.3, (h2, h1)), "b2": np.zeros(h2), "w3": rng.normal(0, 0.3, (k, h2)),
             "b3": np.zeros(k)}
        return cls(w)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """(n, len(INPUTS)) -> (n, len(CLASSES)) scores, the table's shifted by its bias."""
        w = self.w
        z = (x - w["mean"]) / w["std"]
        h = np.maximum(z @ w["w1"].T + w["b1"], 0)
        h = np.maximum(h @ w["w2"].T + w["b2"], 0)
        out = h @ w["w3"].T + w["b3"]
        out[:, CLASSES.index("table")] += self.table_shift
        return out

    def costs(self, lin: np.ndarray, px_per_mm: float, feats: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
        """Each class's cost (minus its log-probability) at each pixel, (len(CLASSES), h, w): what
        ``landing_colours.cost_stack`` gives, learned. A pixel of the table's own colour
        (``plain``) is the table without asking the network (most of the view: the network
        on every pixel cost three times the rest of the top view)."""
        x = inputs(lin, px_per_mm, feats)
        h, w = x.shape[:2]
        x = x.reshape(-1, x.shape[2])
        out = np.full((h * w, len(CLASSES)), PLAIN_COST, np.float32)
        out[:, CLASSES.index("table")] = 0
        ask = np.flatnonzero(~plain(x))
        s = self.logits(x[ask])
        s -= s.max(1, keepdims=True)
        s -= np.log(np.exp(s).sum(1, keepdims=True))
        out[ask] = -s
        return np.ascontiguousarray(out.T.reshape(len(CLASSES), h, w))


def plain(x: np.ndarray) -> np.ndarray:
    """Which pixels of ``inputs`` (n, len(INPUTS)) are the table's own colour: their averaged
    chromaticity within PLAIN_CHROMA of the table's around them and their brightness within
    PLAIN_LOG (a shadow, darker, is asked: a black drink is darker too)."""
    i = INPUTS.index
    dc = np.hypot(x[:, i("near_chroma_r")] - x[:, i("table_chroma_r")], x[:, i("near_chroma_g")] - x[:, i("table_chroma_g")])
    return (dc < PLAIN_CHROMA) & (np.abs(x[:, i("near_bright")] - x[:, i("table_bright")]) < PLAIN_LOG)


@cache
def pixel_net(net_path: str = str(NET_PATH), model_path: str = str(MODEL_PATH)) -> PixelClassNet | None:
    """The committed pixel network, or None when none is committed."""
    loaded = load_net(model_path, net_path)
    if loaded is None:
        return None
    weights, settings = loaded
    if tuple(settings.get("inputs", INPUTS)) != INPUTS:
        raise ValueError("the landing pixel network was trained on other inputs: run tools/learn_landing_pixels.py")
    return PixelClassNet(weights, float(settings.get("table_bias", 1.0)))
