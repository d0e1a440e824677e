"""How the camera's view and the light change what a drink measures, learnt from where and
at which angle the 36 calibration drinks happened to lie (see ``features.size_factor`` and
``features.angle_shift`` for how the learnt effects are applied when measuring):

* ``fit_size_field``: a camera tilted towards one side sees the drinks there larger;
* ``fit_angle_effect``: a round drink's shading turns with its angle to the light.

The calibration photos are then turned into what they would show in the middle of the view
(``as_in_the_middle``) and at no angle (``as_if_at_no_angle``), so that the models describe
the drinks themselves.
"""
from __future__ import annotations

import math

import numpy as np

from ..drinks import COLOURS, SHAPES
from .classify import ROUND
from .features import ANGLED, FLAT_FLOOR, SHAPE_FEATURES, along_tilt, angle_shift, shape_vector, size_factor

FIELD_PRIOR = 0.15      # typical size gradient across the view (log units): a camera tilted a few degrees
SIZE_NOISE = 0.02       # how far one photo's measured size strays (log units)
SIGNIFICANT = 3.0       # a gradient smaller than this many standard errors is taken as none


def fit_size_field(features: dict[str, dict], shape: tuple[int, int]) -> tuple[float, float]:
    """The size gradient across the view (see ``features.size_factor``) that the calibration
    photos show: a camera tilted towards one side sees the drinks there larger. Each drink is
    photographed once, wherever it lay; a drink's log length and log width are a shape's plus
    a colour's effect plus the gradient at its place, fitted by least squares: first as if the
    gradient were the same in every direction, then with lengths along the tilt stretched
    twice as much as across it (the way it tilts taken from the first fit); each fit twice,
    the second time without the photos the first explains worst (two drinks in one photo).
    The gradient is pulled towards none as far as the places are too close together to tell
    it, and none is kept where the photos cannot tell it from none."""
    cols = [c.value for c in COLOURS]
    shps = [s.value for s in SHAPES]
    h, w = shape
    field = (0.0, 0.0)
    for directed in (False, True):
        rows, ys = [], []
        for d, f in features.items():
            c, s_ = d.split("-", 1)
            axis = f.get("axis", (1.0, 0.0))
            for k, (name, u) in enumerate((("length", axis), ("width", (-axis[1], axis[0])))):
                r = np.zeros(2 * len(shps) + 2 * (len(cols) - 1) + 2)
                r[k * len(shps) + shps.index(s_)] = 1.0
                if cols.index(c) > 0:
                    r[2 * len(shps) + k * (len(cols) - 1) + cols.index(c) - 1] = 1.0
                m = along_tilt(field, u, shape) if directed else 1.0
                r[-2:] = (f["cx"] / w - 0.5) * m, (f["cy"] / h - 0.5) * m
                rows.append(r)
                ys.append(math.log(max(f[name], 1e-6)))
        A = np.array(rows)
        prior = np.zeros((2, A.shape[1]))
        prior[0, -2] = prior[1, -1] = SIZE_NOISE / FIELD_PRIOR
        field = tuple(float(v) for v in _robust_fit(A, np.array(ys), prior, SIZE_NOISE))
        if field == (0.0, 0.0):
            break
    return field


def as_in_the_middle(f: dict, field: tuple[float, float], shape: tuple[int, int]) -> dict:
    """A calibration photo's sizes as the drink would look in the middle of the view."""
    u = f.get("axis", (1.0, 0.0))
    along = size_factor(field, f["cx"], f["cy"], shape, u)
    across = size_factor(field, f["cx"], f["cy"], shape, (-u[1], u[0]))
    return {**f, "length": f["length"] / along, "width": f["width"] / across,
            "outline": [v / across for v in f["outline"]]}


ROUND_NAMES = {SHAPES[j].value for j in ROUND}


def fit_angle_effect(features: dict[str, dict]) -> dict[str, list[float]]:
    """How the shading features of a round drink (``features.ANGLED``) change with its angle
    to the light (see ``features.angle_shift``), from the 30 round drinks of the calibration,
    each at the angle it happened to lie: a shape's plus a colour's effect plus the angle
    terms, by least squares (twice, the second time without the photos the first explains
    worst). A term the angles cannot tell from none is taken as none."""
    names = [d for d in features if d.split("-", 1)[1] in ROUND_NAMES]
    shps = sorted({d.split("-", 1)[1] for d in names})
    cols = sorted({d.split("-", 1)[0] for d in names})
    effect = {}
    for feature in ANGLED:
        k = SHAPE_FEATURES.index(feature)
        A, y = [], []
        for d in names:
            c, s_ = d.split("-", 1)
            r = np.zeros(len(shps) + len(cols) - 1 + 2)
            r[shps.index(s_)] = 1.0
            if cols.index(c) > 0:
                r[len(shps) + cols.index(c) - 1] = 1.0
            a = math.atan2(features[d]["axis"][1], features[d]["axis"][0])
            r[-2:] = math.cos(2 * a), math.sin(2 * a)
            A.append(r)
            y.append(shape_vector(features[d])[k])
        coef = _robust_fit(np.array(A), np.array(y))
        effect[feature] = [float(v) for v in coef]
    return {k: v for k, v in effect.items() if any(v)}


def _robust_fit(A: np.ndarray, y: np.ndarray, prior: np.ndarray | None = None, floor: float = 0.0) -> np.ndarray:
    """The last two coefficients of a least-squares fit of y on A (with ``prior`` rows pulling
    the coefficients towards zero), refitted without the rows the first fit explains worst
    (beyond three times the typical residual, and ``floor``); each kept only if at least
    SIGNIFICANT standard errors from zero."""
    P = np.zeros((0, A.shape[1])) if prior is None else prior
    keep = np.ones(len(y), bool)
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(np.vstack([A[keep], P]), np.concatenate([y[keep], np.zeros(len(P))]), rcond=None)
        resid = y - A @ coef
        scale = max(1.4826 * float(np.median(np.abs(resid))), 1e-4)
        keep = np.abs(resid) <= max(3.0 * scale, floor)
    M = np.vstack([A[keep], P])
    se = np.sqrt(np.diag(np.linalg.pinv(M.T @ M))[-2:]) * scale
    return np.where(np.abs(coef[-2:]) >= SIGNIFICANT * se, coef[-2:], 0.0)


def as_if_at_no_angle(f: dict, effect: dict) -> dict:
    """A round drink's calibration features without what its angle to the light added."""
    shift = angle_shift(effect, f["axis"])
    out = dict(f)
    for name in effect:
        k = SHAPE_FEATURES.index(name)
        if name == "flat":
            out[name] = math.exp(math.log(f[name] + FLAT_FLOOR) - shift[k]) - FLAT_FLOOR
        else:
            out[name] = f[name] - shift[k]
    return out
