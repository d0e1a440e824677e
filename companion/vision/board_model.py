"""The board reader's learned place model: what it is given (:func:`feature_names`), what it
names (:data:`CLASSES`), and the exported network (:class:`SpotModel`, a small numpy MLP read
from ``models/board_spots.json``; tools/learn_board.py trains it on rendered looks).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from ..board_pieces import PLAYER_COLOURS

MODEL_PATH = Path(__file__).with_name("models") / "board_spots.json"
KINDS = ("meeple", "pyramid", "train", "rider")
CLASSES = ("empty",) + PLAYER_COLOURS + ("train",)


def feature_names() -> list[str]:
    return (["change", "changed_3", "changed_6", "spread", "base_change", "base_changed_3", "base_edges",
             "base_darker", "base_lighter"]
            + [f"colour_{c}" for c in "bgr"] + ["chroma_bg", "chroma_rg", "bright"]
            + [f"ref_{c}" for c in "bgr"] + [f"diff_{c}" for c in "bgr"]
            + ["ring_change", "ring_bright"]
            + [f"kind_{k}" for k in KINDS])


N_FEATURES = len(feature_names())


class SpotModel:
    """The exported network: inputs standardised, one tanh hidden layer, a softmax over CLASSES
    at the fitted temperature; ``sure`` the bar of a confident reading; ``palette`` the player
    colours' mean chroma/brightness (and spread) as the training looks showed them."""

    def __init__(self, model: dict):
        if model.get("inputs") != feature_names() or tuple(model.get("classes", ())) != CLASSES:
            raise ValueError("the board spot model was trained on other inputs: run tools/learn_board.py")
        self.mean, self.std = np.array(model["mean"]), np.array(model["std"])
        self.w1, self.b1 = np.array(model["w1"]), np.array(model["b1"])
        self.w2, self.b2 = np.array(model["w2"]), np.array(model["b2"])
        self.temperature = float(model.get("temperature", 1.0))
        self.sure = float(model.get("sure", 0.98))                    # a piece's name
        self.sure_empty = float(model.get("sure_empty", self.sure))  # "empty"
        # per player colour: its chroma (log b/g, log r/g against the paper), the spread of it,
        # and how many spreads away a piece is of no player's colour
        self.palette = {c: np.array(v) for c, v in model.get("palette", {}).items()}
        self.palette_spread = {c: np.array(v) for c, v in model.get("palette_spread", {}).items()}
        self.far = {c: float(v) for c, v in model.get("far", {}).items()}
        self.value_peak = float(model.get("value_peak", 6.0))

    def logits(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.std
        return np.tanh(z @ self.w1 + self.b1) @ self.w2 + self.b2

    def probabilities(self, x: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
        z = self.logits(x) / self.temperature
        if allowed is not None:
            z = np.where(allowed, z, -np.inf)
        z = np.exp(z - z.max(axis=-1, keepdims=True))
        return z / z.sum(axis=-1, keepdims=True)


@cache
def spot_model(path: str = str(MODEL_PATH)) -> SpotModel:
    return SpotModel(json.loads(Path(path).read_text(encoding="utf-8")))
