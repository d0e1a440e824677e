"""A frame's doubt, learnt: the chance that a crate reading holds a sure mistake somewhere, told
from the reader's own numbers for the frame (issue 31).

A field's bar says how sure its own patch is; it cannot see that the frame's grid is wrong as a
whole (a lattice off by part of a field, a column beside the crates read as slots), where
several fields come out sure and wrong together. The network says so in its own way: patches
cut between two fields ("off"), slots read with middling certainty, fields torn about being a
slot at all. A logistic regression over those numbers, fitted on frames of the development
and training families read with the frame guard off (``tools/learn_crate_guard.py``), gives
each frame a chance of a sure mistake; a frame at or over the threshold is unsure as a whole.
No guard is committed yet (measured against the share of unsure fields, ``crates.DOUBTFUL_SHARE``,
it read fewer fields right: docs/performance.md, "A frame guard learnt"); the reader uses one
where ``models/crate_guard.json`` exists.

>>> guard = FrameGuard(mean=np.zeros(len(NUMBERS)), std=np.ones(len(NUMBERS)),
...                    weights=np.zeros(len(NUMBERS)), bias=0.0, threshold=0.4)
>>> round(guard.chance(np.zeros(len(NUMBERS))), 2), guard.doubtful(np.zeros(len(NUMBERS)))
(0.5, True)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from .crate_net import CLASSES, NONE, OFF

GUARD_PATH = Path(__file__).with_name("models") / "crate_guard.json"
NUMBERS = ("slots", "sure", "slot_top_median", "slot_top_quartile", "off_mean", "off_slots", "torn")
_NONE, _OFF = CLASSES.index(NONE), CLASSES.index(OFF)


def frame_numbers(prob: np.ndarray, sure: int) -> np.ndarray:
    """The frame's numbers (:data:`NUMBERS`) from its fields' probabilities (as weighed by
    :mod:`.crate_once`) and how many of its fields are read surely."""
    named = prob[:, :_OFF]
    slots = named.argmax(1) != _NONE
    top = named.max(1)[slots]
    return np.array([
        float(slots.sum()), float(sure),
        float(np.median(top)) if len(top) else 0.0,
        float(np.quantile(top, 0.25)) if len(top) else 0.0,
        float(prob[:, _OFF].mean()) if len(prob) else 0.0,
        float(prob[slots, _OFF].mean()) if len(top) else 0.0,
        float(((prob[:, _NONE] > 0.05) & (prob[:, _NONE] < 0.95)).sum()),
    ])


@dataclass(frozen=True)
class FrameGuard:
    """A fitted logistic regression over standardised :data:`NUMBERS` and its threshold."""

    mean: np.ndarray
    std: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float

    def chance(self, numbers: np.ndarray) -> float:
        """The chance that a frame with these numbers holds a sure mistake."""
        z = float(((np.asarray(numbers, np.float64) - self.mean) / self.std) @ self.weights + self.bias)
        return float(1.0 / (1.0 + np.exp(-np.clip(z, -50, 50))))

    def doubtful(self, numbers: np.ndarray) -> bool:
        return self.chance(numbers) >= self.threshold

    def settings(self) -> dict:
        return {"numbers": list(NUMBERS), "mean": self.mean.tolist(), "std": self.std.tolist(),
                "weights": self.weights.tolist(), "bias": self.bias, "threshold": self.threshold}


@cache
def frame_guard(path: str = str(GUARD_PATH)) -> FrameGuard | None:
    """The committed guard (None when there is none: the share guard alone decides)."""
    file = Path(path)
    if not file.exists():
        return None
    s = json.loads(file.read_text(encoding="utf-8"))
    if tuple(s["numbers"]) != NUMBERS:
        raise ValueError(f"{file}: the guard was fitted on other numbers ({s['numbers']}): fit it again")
    return FrameGuard(np.array(s["mean"], np.float64), np.array(s["std"], np.float64),
                      np.array(s["weights"], np.float64), float(s["bias"]), float(s["threshold"]))
