"""The rules' readings with a second opinion (issue 26, item 3): ``identify(..., scorer=
"checked")`` asks the learned feature scorer (learned.py), ``scorer="checked-pixels"`` asks a
network that reads the piece's pixels alone (``pixel_scorer`` with the model
``models/drink_pixels_alone.npz``).

The pieces, their names and their confidences stay the rules'; only their sureness can fall.
A sure reading stays sure when the second opinion's top name is the rules' name, or when it
gives the rules' name at least the probability ``agree`` (the pixels' check: chosen on
held-out training-family tables by tools/choose_pixel_check.py and kept in the model's file);
otherwise the reading is kept but unsure, asked, with the other name in its ``_why`` (the
table's question then offers the drinks that could have come out).

Why two checkers. The learned feature scorer takes the rules' own reading among its inputs
(and the same measured features the rules weigh): on looks the rules were not tuned on it
mostly agrees with their mistakes and caught a fifth of them (docs/performance.md, "Vision:
the rules checked by the learned scorer"). The pixel network alone sees neither the rules'
name nor their sureness, nor the features they weigh: the piece's crop relit against the
tray, its colours against the set's six plastics, its blur and size against the set's
drinks, whether the second look fitted it. Its mistakes are its own, so where it disagrees
with the rules the rules are worth asking.

A reading the checker cannot judge stays as the rules made it: one without measured features,
and (unless the checker's settings say it judges them) one the second look fitted: the learned
scorer sees the features of the piece the outline replaced (two drinks of one colour as one);
the pixel network sees the placed outline's own crop, and ``check_fitted`` in its settings says
whether that measured better on the held-out tables.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from ..drinks import COLOURS, SHAPES

ALONE_PATH = Path(__file__).with_name("models") / "drink_pixels_alone.npz"
COLOUR_NAMES = [c.value for c in COLOURS]
SHAPE_NAMES = [s.value for s in SHAPES]


def drink_index(d: dict) -> int | None:
    """The row (colour-major, as the scorers' 36) of a reading's name; None for a name that
    is no drink."""
    try:
        return COLOUR_NAMES.index(d["color"]) * len(SHAPES) + SHAPE_NAMES.index(d["shape"])
    except ValueError:
        return None


def drink_name(row: int) -> str:
    ci, si = divmod(int(row), len(SHAPES))
    return f"{COLOURS[ci].value}-{SHAPES[si].value}"


def check(readings: list[dict], an, profile, opinion, label: str, agree: float | None = None,
          judge_fitted: bool = False) -> list[dict]:
    """The rules' sure readings of a frame asked of a second opinion, in place.

    ``opinion(todo, an, profile)``: probabilities (n, 37: the 36 drinks, then "no single
    drink") for the readings ``todo``. A sure reading stays sure where the opinion's most
    likely drink is the rules' name, or (``agree``) gives the rules' name at least that
    probability; otherwise it is made unsure and its ``_why`` says "<label>: <name>?"."""
    todo = [d for d in readings
            if not d["unsure"] and "_f" in d and (judge_fitted or not d.get("_fitted"))
            and drink_index(d) is not None]
    if not todo:
        return readings
    p = np.asarray(opinion(todo, an, profile))[:, :len(COLOURS) * len(SHAPES)]
    for d, row in zip(todo, p):
        own, best = drink_index(d), int(np.argmax(row))
        if best == own or (agree is not None and row[own] >= agree):
            continue
        d["unsure"] = True
        d["_why"] = "; ".join(filter(None, [d.get("_why", ""), f"{label}: {drink_name(best)}?"]))
    return readings


def learned_opinion(todo: list[dict], an, profile, model=None) -> np.ndarray:
    """The learned feature scorer's probabilities (its inputs carry the rules' reading);
    ``model``: another than the committed one."""
    from .learned import inputs, scorer
    model = model or scorer()
    return model.probabilities(np.stack([inputs(d["_f"], profile, an.sharpness, d) for d in todo]))


def check_learned(readings: list[dict], an, profile, model=None) -> list[dict]:
    """``scorer="checked"``: the rules checked by the learned feature scorer (top name only)."""
    return check(readings, an, profile, lambda todo, an_, prof: learned_opinion(todo, an_, prof, model), "learned")


@cache
def alone_model(path: str = str(ALONE_PATH)):
    """The pixel network trained without the feature scorer's view (and so without the rules'
    reading): its settings carry the check's ``check_agree`` and ``check_fitted``."""
    from .pixel_scorer import pixel_model
    model = pixel_model(path)
    if model.features:
        raise ValueError(f"{path}: this network takes the feature scorer's view; the check needs one "
                         "that reads the pixels alone (tools/learn_drink_pixels.py --variant pixels)")
    return model


def pixel_check_settings(model) -> tuple[float | None, bool, bool]:
    """(agree, judge_fitted, mirror) of a pixel model's check (tools/choose_pixel_check.py
    writes them; a file without them: the top name only, fitted readings left to the rules,
    the crop read once)."""
    settings = model.settings.get("check", {})
    agree = settings.get("agree")
    return (None if agree is None else float(agree)), bool(settings.get("fitted", False)), \
        bool(settings.get("mirror", False))


def pixel_opinion(todo: list[dict], an, profile, model, mirror: bool = False, raw=None) -> np.ndarray:
    """The pixel network's probabilities (n, 37) for readings; with ``mirror`` the mean of the
    crop's and its mirror image's across the piece's axis (a drink mirrored is the same drink;
    the training mirrored half the crops), which costs the network twice. ``raw``: the
    readings' raw crops when already cut (the training tool's cache)."""
    from .drink_crops import raw_crops
    from .pixel_scorer import probabilities
    if raw is None:
        raw = raw_crops(todo, an, profile)
    p = probabilities(todo, an, profile, model, raw)
    if mirror:
        p = 0.5 * (p + probabilities(todo, an, profile, model, np.ascontiguousarray(np.asarray(raw)[:, ::-1])))
    return p


def check_pixels(readings: list[dict], an, profile, model=None) -> list[dict]:
    """``scorer="checked-pixels"``: the rules checked by the pixel network alone."""
    model = model or alone_model()
    agree, fitted, mirror = pixel_check_settings(model)
    return check(readings, an, profile, lambda todo, an_, prof: pixel_opinion(todo, an_, prof, model, mirror),
                 "pixels", agree=agree, judge_fitted=fitted)
