"""Naming a piece by a scorer that learned from rendered tables (issue 26, items 2 and 3):
beside the rules of classify.py (``identify(..., scorer="learned")``; ``drinks.DEFAULT_SCORER``
says which names by default).

The rules weigh a piece's colour and shape distances to each drink with spreads and
thresholds set by hand, photo by photo. Here a small network, trained by
``tools/learn_drinks.py`` on pieces that the real pipeline segmented and measured on many
rendered tables (each calibrated from its own photos, as ``calibrate drinks`` does; most of
them from the training family of looks, whose plastics, lamps, trays and cameras vary far more
than the development family's), scores each of the 36 drinks as the piece's name, and one more
candidate: "no single drink" (shade, a fragment, two drinks read as one). A softmax over the
37, its temperature fitted on tables the training never saw, gives the confidence; a reading
is sure from the model's bar ``sure`` up, chosen on those tables so that the sure readings
there were right at least 99.8 % of the time (never below 0.9); below it the reading is asked.

Every input is relative to the table's own calibration, so the scorer adapts to each physical
set as the rules do: a candidate's inputs are the piece's deviations from that drink's expected
colour and shape in units of the profile's spreads (what ``classify.deviations`` gives, from
the models' prediction or the drink's own calibration photo, the nearer), the summed distances,
which of the six shapes and colours the candidate is, how much lighter or darker than the tray
its calibrated colour is, and of the piece: the frame's sharpness against the calibration, its
area against the smallest drink's; and the rules' own reading (which drink they named, how
sure they were, whether the second look placed an outline for it, whether they doubted it).
No absolute colour or size goes in.

A reading whose outline the second look fitted (fit.py) is scored too: its features are those
of the piece it replaced, and the outline's name comes in as the rules' name.

The weights are a JSON file (``models/drink_scorer.json``, tens of KB); scoring is numpy alone.
"""
from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import numpy as np

from ..drinks import COLOURS, SHAPES
from .classify import blur_inflation, classify, deviations
from .features import LUMA, SHAPE_FEATURES
from .profile import Profile

MODEL_PATH = Path(__file__).with_name("models") / "drink_scorer.json"
SURE = 0.9            # a reading less confident than this is unsure (a model file without its own bar)
CLIP = 8.0            # deviations beyond this many spreads say no more than "far off"
N_DRINKS = len(COLOURS) * len(SHAPES)


def input_names() -> list[str]:
    return ([f"dev_{n}" for n in SHAPE_FEATURES] + ["dev_b", "dev_g", "dev_r"]
            + ["colour_dist", "shape_dist", "shape_dist_blur", "model_colour_dist", "model_shape_dist"]
            + [f"shape_{s.value}" for s in SHAPES] + [f"colour_{c.value}" for c in COLOURS]
            + ["contrast", "unsharp", "log_area", "nearest_colour", "nearest_shape", "none"]
            + ["rules_name", "rules_sureness", "rules_fitted", "rules_unsure"]
            + ["own_colour_apart", "own_shape_apart", "colour_gap"])


N_INPUTS = len(input_names())


def _tray_luma(profile: Profile) -> float:
    c = profile._cache
    if "tray_luma" not in c:
        bg = profile.background
        c["tray_luma"] = float(np.median(bg.reshape(-1, 3) @ LUMA)) if bg is not None else 128.0
    return c["tray_luma"]


def _table_inputs(profile: Profile) -> np.ndarray:
    """What a table's own calibration says of each drink (36 x 3), the same for every piece:
    how far the drink's own calibration photo lies from what the models predict for it, colour
    and shape, in spreads (a glossy square bottle whose face shone in its photo is more than
    its colour plus its shape: its readings vary more), and how far its calibrated colour is
    from the nearest other colour (on a light tray white and mint may lie close)."""
    c = profile._cache
    if "learned_table" not in c:
        from .classify import _tables
        _cols, _shps, S, sinv, C, cinv = _tables(profile)
        own_c = np.sqrt((((C[1] - C[0]) * cinv) ** 2).sum(axis=-1))
        own_s = np.sqrt((((S[1] - S[0]) * sinv) ** 2).sum(axis=-1))
        means = C[0][:, 0, :] * cinv                      # colour x channel, in spreads
        gap = np.sqrt(((means[:, None, :] - means[None, :, :]) ** 2).sum(axis=-1))
        np.fill_diagonal(gap, np.inf)
        col_gap = np.repeat(gap.min(axis=1)[:, None], len(SHAPES), axis=1)
        c["learned_table"] = np.minimum(np.stack([own_c, own_s, col_gap], axis=-1).reshape(-1, 3), 4 * CLIP)
    return c["learned_table"]


def inputs(f: dict, profile: Profile, sharpness: float, rules: dict | None = None) -> np.ndarray:
    """The scorer's inputs for one measured piece: 37 rows (the 36 drinks, colour-major as
    classify's tables, then "no single drink") of N_INPUTS each. ``rules``: the pipeline's own
    reading of the piece (color, shape, confidence, unsure, and ``_fitted`` when the second
    look placed an outline): the network learns how far to trust it, which the rules alone
    cannot say of themselves (on unfamiliar looks they are sure of wrong names)."""
    _, _, dev_c, dev_s = deviations(f, profile)
    sq_c, sq_s = (dev_c ** 2).sum(axis=3), (dev_s ** 2).sum(axis=3)
    near_c = np.take_along_axis(dev_c, sq_c.argmin(axis=0)[None, :, :, None], axis=0)[0]
    near_s = np.take_along_axis(dev_s, sq_s.argmin(axis=0)[None, :, :, None], axis=0)[0]
    dc, ds = sq_c.min(axis=0), sq_s.min(axis=0)
    inflation = blur_inflation(sharpness)
    nc, ns = len(COLOURS), len(SHAPES)
    x = np.zeros((N_DRINKS + 1, N_INPUTS))
    x[:N_DRINKS, 0:6] = np.clip(near_s, -CLIP, CLIP).reshape(-1, 6)
    x[:N_DRINKS, 6:9] = np.clip(near_c, -CLIP, CLIP).reshape(-1, 3)
    # square roots: a distance of 400 is no likelier than one of 100, both are "not this"
    x[:N_DRINKS, 9] = np.sqrt(dc).ravel()
    x[:N_DRINKS, 10] = np.sqrt(ds).ravel()
    x[:N_DRINKS, 11] = np.sqrt(ds).ravel() / inflation
    x[:N_DRINKS, 12] = np.sqrt(sq_c[0]).ravel()
    x[:N_DRINKS, 13] = np.sqrt(sq_s[0]).ravel()
    x[:N_DRINKS, 9:14] = np.minimum(x[:N_DRINKS, 9:14], 4 * CLIP)
    x[:N_DRINKS, 14:20] = np.tile(np.eye(ns), (nc, 1))
    x[:N_DRINKS, 20:26] = np.repeat(np.eye(nc), ns, axis=0)
    # how far the candidate's calibrated colour is from the tray's: a white drink on a light
    # tray loses its edges to the tray, a black one on a dark tray its face
    lum = np.array([profile.colour_model.means[c.value] @ LUMA for c in COLOURS])
    x[:N_DRINKS, 26] = np.repeat(np.log((lum + 5.0) / (_tray_luma(profile) + 5.0)), ns)
    # the piece: the same in every row (they matter against "no single drink")
    min_area = float(profile.stats.get("min_area", 0) or 0)
    x[:, 27] = max(0.0, 1.0 - sharpness)
    x[:, 28] = math.log(max(f.get("area", 1.0), 1.0) / min_area) if min_area > 0 else 0.0
    x[:, 29] = min(math.sqrt(float(dc.min())), 4 * CLIP)
    x[:, 30] = min(math.sqrt(float(ds.min())), 4 * CLIP)
    x[N_DRINKS, 31] = 1.0
    if rules is not None:
        try:
            row = [c.value for c in COLOURS].index(rules["color"]) * ns + [s.value for s in SHAPES].index(rules["shape"])
        except ValueError:
            row = None
        if row is not None:
            x[row, 32] = 1.0
            # the rules' confidence as log-odds, bounded: 0.999 and 1.0 say the same
            conf = min(max(float(rules.get("confidence", 0.0)), 1e-3), 1 - 1e-3)
            x[row, 33] = math.log(conf / (1 - conf))
            x[row, 34] = 1.0 if rules.get("_fitted") else 0.0
        x[:, 35] = 1.0 if rules.get("unsure") else 0.0
    x[:N_DRINKS, 36:39] = _table_inputs(profile)
    return x


class Scorer:
    """The exported network: inputs standardised, one hidden layer (tanh) plus a linear term,
    one logit per row; softmax over the 37 rows at the fitted temperature."""

    def __init__(self, model: dict):
        if model.get("inputs") != input_names():
            raise ValueError("the drink scorer was trained on other inputs: run `make model`")
        self.mean, self.std = np.array(model["mean"]), np.array(model["std"])
        self.w1, self.b1 = np.array(model["w1"]), np.array(model["b1"])
        self.w2, self.lin = np.array(model["w2"]), np.array(model["lin"])
        self.temperature = float(model.get("temperature", 1.0))
        # the bar of a sure reading, chosen in training on held-out tables so that a reading at
        # or above it is right at least 99.7 % of the time there (older files: SURE)
        self.sure = float(model.get("sure", SURE))

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Logits of rows of inputs (any leading shape, last axis N_INPUTS), before the temperature."""
        z = (x - self.mean) / self.std
        return np.tanh(z @ self.w1 + self.b1) @ self.w2 + z @ self.lin

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        z = self.logits(x) / self.temperature
        z = np.exp(z - z.max(axis=-1, keepdims=True))
        return z / z.sum(axis=-1, keepdims=True)


@cache
def scorer(path: str = str(MODEL_PATH)) -> Scorer:
    return Scorer(json.loads(Path(path).read_text(encoding="utf-8")))


def name(f: dict, profile: Profile, sharpness: float, model: Scorer | None = None,
         rules: dict | None = None) -> dict:
    """The learned reading of one piece: color, shape, confidence, unsure, why, and the
    probability that it is no single drink. ``rules``: the pipeline's reading of the piece
    (when not given, the rules of classify.py name it here: the network was trained with it)."""
    model = model or scorer()
    if rules is None:
        rules = classify(dict(f), profile, sharpness)
    p = model.probabilities(inputs(f, profile, sharpness, rules))
    order = np.argsort(-p[:N_DRINKS], kind="stable")
    best = int(order[0])
    ci, si = divmod(best, len(SHAPES))
    conf = float(p[best])
    reasons = []
    sure = model.sure
    if conf < sure:
        c2, s2 = divmod(int(order[1]), len(SHAPES))
        reasons.append(f"or {COLOURS[c2].value}-{SHAPES[s2].value}?")
        if p[N_DRINKS] > 0.1:
            reasons.append(f"no single drink? ({p[N_DRINKS]:.2f})")
    return {"color": COLOURS[ci].value, "shape": SHAPES[si].value, "confidence": round(conf, 3),
            "unsure": conf < sure, "why": "; ".join(reasons), "none": float(p[N_DRINKS])}


def rescore(readings: list[dict], an, profile: Profile, model: Scorer | None = None) -> list[dict]:
    """Name the finished readings of a frame again with the learned scorer, in place (the hook
    of ``drinks.identify_analysis``). The rules' reading is one of the inputs; a reading the
    second look fitted is scored too (its features are the piece's it replaced, its outline's
    name comes in as the rules' name), so that its confidence is the scorer's as well."""
    for d in readings:
        if "_f" not in d:
            continue
        renamed(d, name(d["_f"], profile, an.sharpness, model, d), profile)
    return readings


def check(readings: list[dict], an, profile: Profile, model: Scorer | None = None) -> list[dict]:
    """The rules' readings of a frame, each sure one asked of the learned scorer too, in place
    (the hook of ``drinks.identify_analysis`` for ``scorer="checked"``): where the learned scorer
    names the piece otherwise (sure or not), the rules' reading is kept but made unsure, with
    the other name in its ``why``. On tables unlike the ones the rules were tuned on, the rules
    are sure and wrong for 1-8 % of the drinks; where the learned scorer names such a piece
    otherwise the reading is asked (and reconciled with the game) instead of taken.

    A reading the learned scorer cannot judge stays as the rules made it: one with no measured
    features, and one the second look fitted (its outline was judged against the pixels; the
    features the scorer would see are those of the piece it replaced, two drinks of one colour
    as one)."""
    from .checked import check_learned
    return check_learned(readings, an, profile, model)


def renamed(d: dict, got: dict, profile: Profile) -> None:
    """A reading named again (in place) by a scorer's ``got`` (color, shape, confidence,
    unsure, why), with the distances of the drink now named (doubt_repeats weighs equally
    sure readings by them)."""
    d.update(color=got["color"], shape=got["shape"], confidence=got["confidence"], unsure=got["unsure"],
             _why=got["why"])
    _, _, dev_c, dev_s = deviations(d["_f"], profile)
    ci = [c.value for c in COLOURS].index(got["color"])
    si = [s.value for s in SHAPES].index(got["shape"])
    d["_f"] = {**d["_f"], "_dc": round(float((dev_c[:, ci, si] ** 2).sum(axis=-1).min()), 1),
               "_ds": round(float((dev_s[:, ci, si] ** 2).sum(axis=-1).min()), 1)}
