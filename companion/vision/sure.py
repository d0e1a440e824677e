"""A learned sureness (issue 26, item 3): ``identify(..., scorer="checked-sure")``.

``checked-set`` (checked.py) keeps a sure rules' reading sure when the pixel network's top name is
the rules' name and it finds "no single drink" unlikely. That rule is made by hand and all or
nothing: a network that gives the rules' name 0.45 against a neighbour's 0.55 overrules a rules'
reading that was plainly right, while one that agrees at 0.6 lets through a piece whose length
lies halfway between two of the set's calibrated shapes. The rules' sure mistakes that are
left are mostly such neighbours (two heights of one colour; white and mint), and the signals
that tell them apart are already at hand when the check runs.

Here a small logistic model weighs those signals (``INPUTS``, ``inputs``) into the probability
that the rules' name is right: the network's probability of the rules' name, of its own top name
and of "no single drink"; whether the second look fitted the piece; the rules' own confidence
and their margins (in the rules' distance) between their name and the best other drink, the
best other shape of that colour and the best other colour of that shape; the frame's blur; and
where the piece's measured length and width lie between the set's calibrated size of the
rules' shape and of the nearest other shape of that colour (0: the rules' shape's own, 1: the
neighbour's). A sure reading whose probability is under the model's ``bar`` is kept but made
unsure, with the doubt in its ``_why``; the no-drink guard of ``checked-set``'s network still
applies first (phantoms in a shadow band).

The weights and the bar come from tools/choose_sureness.py, fitted on held-out tables of the
training family only (never the evaluation family), the model's probabilities judged out of
fold (each table's readings by a model fitted without its group of tables). The bar is the one
with the best score there (correct minus ten times wrong, summed over the benchmark's four
difficulties) among those that cost the development family's temperature tables at most 1.0
point of the rules' correct at any difficulty: 0.885 over the wider network of 228 looks (0.965
over the narrower one, 0.93 over
the one of 180, 0.91 over the one of 132, 0.915 over the one before it learned from more
looks). (``--target SURE_RIGHT``, the issue's 99.7 %, chose the bar so that sure readings were
right that share of the time: 0.985, which asked a third to a half of the drinks.) The file is under 2 KB of JSON
(``models/drink_sure.json``); the model runs in numpy in microseconds per reading.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..drinks import SHAPES
from .checked import SET_PATH, alone_model, ask, drink_index, drink_name, no_drink_settings, pixel_check_settings, \
    pixel_opinion, taught_drinks

SURE_PATH = Path(__file__).with_name("models") / "drink_sure.json"
N_DRINKS = 36
P_FLOOR = 1e-6                 # probabilities below this say no more (their logarithm is clipped)
MARGIN_CLIP = 30.0             # a margin in the rules' distance beyond this says no more
SURE_RIGHT = 0.997             # issue 26's target share right (choose_sureness.py --target: the bar by it)
BAR_BOUNDS = (0.5, 0.999)      # a bar outside these is a broken fit, not a choice

# every number ``inputs`` makes; a model uses those of them its file names (``SureModel.uses``)
INPUTS = ("log_p_own", "log_p_top", "own_is_top", "log_p_no_drink", "log_p_runner_up", "log_p_same_colour",
          "log_p_same_shape", "fitted", "rules_confidence", "margin_all", "margin_shape", "margin_colour", "blur",
          "length_between", "width_between", "log_d_shape", "log_d_colour")


def _log(p: float) -> float:
    return math.log(max(float(p), P_FLOOR))


def _between(value: float, own: float, others: np.ndarray) -> float:
    """Where ``value`` lies from ``own`` towards the nearest of ``others`` on its side (0 at own,
    1 at that neighbour; negative: away from every neighbour, towards none), clipped to [-1, 2]."""
    d = value - own
    side = others[(others - own) * d > 0] if d != 0 else others
    if not len(side):
        return -1.0 if d != 0 else 0.0
    gap = side[np.argmin(np.abs(side - own))] - own
    return float(np.clip(d / gap, -1.0, 2.0)) if gap != 0 else 0.0


def inputs(d: dict, row: np.ndarray, sharpness: float, profile) -> np.ndarray:
    """The model's numbers (INPUTS) for one sure reading ``d`` (with ``_f``) and the pixel
    network's probabilities ``row`` (37) of its piece."""
    from .classify import _tables, blur_inflation, distances
    from .features import SHAPE_FEATURES
    own = drink_index(d)
    ci, si = divmod(own, len(SHAPES))
    f = d["_f"]
    best = int(np.argmax(row[:N_DRINKS]))
    # the rules' distances (as classify weighs them): their name against the best others
    _, _, dc, ds = distances(f, profile)
    tot = (dc + ds / blur_inflation(sharpness) ** 2).ravel()
    others = np.delete(tot, own)
    # the rules' runner-up: the network's view of it
    runner = int(np.argmin(np.where(np.arange(len(tot)) == own, np.inf, tot)))
    same_colour = np.delete(tot.reshape(-1, len(SHAPES))[ci], si)
    same_shape = np.delete(tot.reshape(-1, len(SHAPES))[:, si], ci)

    def margin(rest):
        # in log-odds of the rules' posterior, on a signed log scale (a margin of 40 says no
        # more than one of 20; their spread would swamp the fit's other numbers)
        m = float(np.clip(0.5 * (rest.min() - tot[own]), -MARGIN_CLIP, MARGIN_CLIP))
        return math.copysign(math.log1p(abs(m)), m)
    grid = row[:N_DRINKS].reshape(-1, len(SHAPES))
    # the set's calibrated sizes of this colour's shapes (the models' view) against the piece's
    _, _, S, *_ = _tables(profile)
    li, wi = SHAPE_FEATURES.index("length"), SHAPE_FEATURES.index("width")
    sizes = S[0, ci]
    rest = np.delete(np.arange(len(SHAPES)), si)
    return np.array([
        _log(row[own]), _log(row[best]), float(best == own),
        _log(row[N_DRINKS]) if len(row) > N_DRINKS else math.log(P_FLOOR), _log(row[runner]),
        _log(grid[ci].sum() - grid[ci, si]), _log(grid[:, si].sum() - grid[ci, si]),
        float(bool(d.get("_fitted"))), float(d.get("confidence", 1.0)),
        margin(others), margin(same_colour), margin(same_shape), max(0.0, 1.0 - float(sharpness)),
        _between(float(f["length"]), float(sizes[si, li]), sizes[rest, li]),
        _between(float(f["width"]), float(sizes[si, wi]), sizes[rest, wi]),
        math.log1p(max(float(f.get("_ds", 0.0)), 0.0)), math.log1p(max(float(f.get("_dc", 0.0)), 0.0)),
    ], np.float64)


@dataclass(frozen=True)
class SureModel:
    """Logistic regression over standardised numbers (``uses``: names of INPUTS, in order):
    P(the rules' name is right); ``bar``: the least P(right) of a reading that stays sure."""
    uses: tuple[str, ...]
    mean: np.ndarray
    std: np.ndarray
    weights: np.ndarray
    bias: float
    bar: float
    settings: dict

    @classmethod
    def from_dict(cls, data: dict) -> "SureModel":
        uses = tuple(data.get("inputs", ()))
        if not uses or any(u not in INPUTS for u in uses):
            raise ValueError("the sureness model was fitted on other inputs: run tools/choose_sureness.py")
        bar = float(data["bar"])
        if not BAR_BOUNDS[0] <= bar <= BAR_BOUNDS[1]:
            raise ValueError(f"the sureness model's bar {bar} is outside {BAR_BOUNDS}")
        arr = {k: np.asarray(data[k], np.float64) for k in ("mean", "std", "weights")}
        if any(a.shape != (len(uses),) for a in arr.values()) or not all(np.isfinite(a).all() for a in arr.values()):
            raise ValueError("the sureness model's arrays do not match its inputs")
        settings = {k: v for k, v in data.items() if k not in ("inputs", "mean", "std", "weights", "bias", "bar")}
        return cls(uses, arr["mean"], arr["std"], arr["weights"], float(data["bias"]), bar, settings)

    def to_dict(self) -> dict:
        return {**self.settings, "inputs": list(self.uses), "mean": [round(float(v), 6) for v in self.mean],
                "std": [round(float(v), 6) for v in self.std], "weights": [round(float(v), 6) for v in self.weights],
                "bias": round(float(self.bias), 6), "bar": float(self.bar)}

    @property
    def columns(self) -> list[int]:
        return [INPUTS.index(u) for u in self.uses]

    def right(self, x: np.ndarray) -> np.ndarray:
        """P(right) for rows of every INPUTS (n, len(INPUTS))."""
        x = np.asarray(x, np.float64).reshape(-1, len(INPUTS))[:, self.columns]
        z = ((x - self.mean) / self.std) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


@cache
def sure_model(path: str = str(SURE_PATH)) -> SureModel:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path}: no sureness model; run tools/choose_sureness.py")
    return SureModel.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def judge(readings: list[dict], p: np.ndarray, sharpness: float, profile, model: SureModel,
          guard=None, label: str = "sureness") -> list[dict]:
    """The learned check of the sure readings ``readings`` (each with ``_f`` and a drink's name)
    given the pixel network's probabilities ``p`` (n, 37), in place: the no-drink ``guard``
    (checked.NoDrink) first, then a reading whose probability of being right is under the
    model's bar is made unsure ("<label> 0.42: <network's name>?" in its ``_why``). A drink the
    table taught the camera is judged by the guard only (the network never saw its look)."""
    taught = taught_drinks(profile)
    for d, row in zip(readings, p):
        if guard is not None and guard.doubts(d, row):
            ask(d, "pixels: no drink?")
        elif drink_name(drink_index(d)) not in taught:
            right = float(model.right(inputs(d, row, sharpness, profile)[None])[0])
            if right < model.bar:
                ask(d, f"{label} {right:.2f}: {drink_name(int(np.argmax(row[:N_DRINKS])))}?")
    return readings


def to_judge(readings: list[dict]) -> list[dict]:
    """The readings the check judges: sure ones with measured features and a drink's name
    (fitted ones too: whether the second look fitted the piece is one of the model's inputs)."""
    return [d for d in readings if not d["unsure"] and "_f" in d and drink_index(d) is not None]


def check_sure(readings: list[dict], an, profile, model: SureModel | None = None, pixels=None) -> list[dict]:
    """``scorer="checked-sure"``: the rules' sure readings judged by the learned sureness over
    ``checked-set``'s network (``models/drink_pixels_set.npz``, its crop read as its settings say)."""
    todo = to_judge(readings)
    if not todo:
        return readings
    model = model or sure_model()
    pixels = pixels or alone_model(str(SET_PATH))
    _, _, mirror = pixel_check_settings(pixels)
    p = np.asarray(pixel_opinion(todo, an, profile, pixels, mirror))
    judge(todo, p, an.sharpness, profile, model, no_drink_settings(pixels))
    return readings
