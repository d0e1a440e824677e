"""Naming a measured piece: colour and shape against the profile's models and each drink's
own calibration photo; the posterior over the 36 drinks gives the confidence, and a piece far
from every drink, between two, or longer than the drink it looks like is marked ``unsure``
instead of guessed."""
from __future__ import annotations

import numpy as np

from ..drinks import COLOURS, SHAPES, Shape
from .features import COLOUR_FEATURES, LUMA, SHAPE_FEATURES, angle_shift, colour_vector, shape_vector, size_units
from .profile import Profile

UNSURE_BELOW = 0.6            # posterior (colour x shape) below which a drink is unsure
OUTLIER_SHAPE = 30.0          # squared normalised distance beyond which no shape fits
OUTLIER_COLOUR = 60.0
SHAPE_SURE = 10.0            # a shape distance this small: the outline plainly fits
COLOUR_APART = 3.0           # the next colour this many times further: the colour is plain
BLUR_SMEAR = 5.0              # px by which blur may lengthen a drink, per unit of blur inflation
ROUND = [j for j, s in enumerate(SHAPES) if s is not Shape.SQUARE_BOTTLE]   # cans and round bottles (not faceted)
SQUARE = SHAPES.index(Shape.SQUARE_BOTTLE)
FLAT = SHAPE_FEATURES.index("flat")      # lower is flatter (features.py)
SQUARE_ROLL = 1.5             # how much wider a square bottle's spread of flat is towards less even
TOO_LONG = 1.10               # a piece this much longer than the drink it looks like is not that drink


def blur_inflation(sharpness: float) -> float:
    return 1.0 + 2.5 * max(0.0, 0.92 - sharpness)


def _tables(profile: Profile):
    """The 36 drinks as arrays, computed once per profile: cols, shps; the expected shape
    vectors (views x colour x shape x feature: the models' prediction, then the drink's own
    calibration, then its other poses if any), the inverse shape spreads per colour (colour x 1
    x feature), the expected colours (views x colour x shape x channel, likewise) and the
    inverse colour spread."""
    c = profile._cache
    if "tables" not in c:
        cols = [x.value for x in COLOURS]
        shps = [x.value for x in SHAPES]
        sm, cm = profile.shape_model, profile.colour_model
        off = np.array([sm.offsets[k] if sm.offsets else np.zeros_like(sm.spread) for k in cols])
        S = np.array([sm.means[k] for k in shps])[None, :, :] + off[:, None, :]
        C = np.array([cm.means[k] for k in cols])[:, None, :].repeat(len(shps), 1)
        # each drink as its own calibration photo showed it as well: the models add a shape's
        # effect to a colour's, but some drinks are more than the sum (a black square bottle's
        # flat faces catch the light, and it reads lighter and flatter than black cans suggest)
        # (and, from a mat calibrated in several poses, as each pose showed it: a drink with
        # fewer poses than another repeats its own, so the tables stay rectangular)
        units = size_units(SHAPE_FEATURES, float(profile.stats.get("px_per_mm", 1.0)))
        n_poses = max((len(r.get("poses", ())) for r in profile.drinks.values()), default=0)
        own_s, own_c = np.repeat(S[None], 1 + n_poses, 0), np.repeat(C[None], 1 + n_poses, 0)
        for i, k in enumerate(cols):
            for j, s in enumerate(shps):
                rec = profile.drinks.get(f"{k}-{s}", {})
                views = [rec, *rec.get("poses", ())]
                for p in range(1 + n_poses):
                    view = views[p] if p < len(views) else rec
                    if all(n in view for n in SHAPE_FEATURES):
                        own_s[p, i, j] = shape_vector(view) * units
                    if all(n in view for n in COLOUR_FEATURES):
                        own_c[p, i, j] = colour_vector(view)
        # the edge feature is a ratio of brightnesses: on a dark drink a little light from a
        # neighbour or the tray moves it much more, so its spread grows as the colour darkens
        lum = np.array([cm.means[k] @ LUMA for k in cols])
        sinv = np.broadcast_to(1.0 / sm.spread, (len(cols), len(SHAPE_FEATURES))).copy()
        sinv[:, SHAPE_FEATURES.index("edge")] *= np.minimum(1.0, lum / np.median(lum))
        c["tables"] = (cols, shps, np.concatenate([S[None], own_s]), sinv[:, None, :],
                       np.concatenate([C[None], own_c]), 1.0 / cm.spread)
    return c["tables"]


def distances(f: dict, profile: Profile):
    """Colour distance and shape distance (each 6 colours x 6 shapes) of a region's features:
    against the models' prediction for each drink or against the drink's own calibration, the nearer."""
    cols, shps, dev_c, dev_s = deviations(f, profile)
    return cols, shps, (dev_c ** 2).sum(axis=3).min(axis=0), (dev_s ** 2).sum(axis=3).min(axis=0)


def deviations(f: dict, profile: Profile):
    """What ``distances`` sums, feature by feature: the colour's and the shape's deviations from
    each drink's expected values in units of their spreads (views x 6 colours x 6 shapes x
    feature; the views as in ``_tables``: the models' prediction, the drink's own calibration,
    its other poses). A learned scorer (learned.py) reads them one by one."""
    cols, shps, S, sinv, C, cinv = _tables(profile)
    dev_c = (colour_vector(f) - C) * cinv
    # each shape as it would measure at this angle to the light (a round drink's shading
    # changes with it; the calibrated shapes are as if at none)
    own = shape_vector(f)
    v = np.empty((len(shps), len(own)))
    effect = profile.stats.get("angle_effect")
    if effect and "axis" in f:
        # the round shapes (ROUND: all but the square bottle) as they read at this angle
        v[:] = own - angle_shift(effect, f["axis"])
        v[SQUARE] = own
    else:
        v[:] = own
    dev = v - S
    # a faceted bottle's face may catch the light more evenly than in its calibration photo:
    # reading flatter than calibrated is no evidence against it (a can reading flat is); and
    # rocked on its face (or resting on an edge) it shows a side face and bevels lit unlike
    # the face, so it may read less even by more than a round drink's spread allows
    dev[:, :, SQUARE, FLAT] = np.maximum(dev[:, :, SQUARE, FLAT], 0.0) / SQUARE_ROLL
    return cols, shps, dev_c, dev * sinv


def _calibrated_length(profile: Profile, drink: str) -> float:
    """The drink's length in working px (a mat profile's mm turned to px): as its calibration
    photo measured it or as the models predict it, the longer (one photo may measure it short)."""
    cols, shps, S, *_ = _tables(profile)
    colour, shape = drink.split("-", 1)
    i = SHAPE_FEATURES.index("length")
    return float(S[:, cols.index(colour), shps.index(shape), i].max())


def classify(f: dict, profile: Profile, sharpness: float = 1.0) -> dict:
    """Joint over the 36 drinks: colour distance + shape distance given that colour. A blurred
    frame (sharpness < 1) measures outlines less exactly: the shape spread widens with it.

    Whether the outline fits any drink at all is judged with half that widening (in squared
    distance: the inflation once, not squared). With the full widening, a blurred bottle that
    had lost its neck passed as a can with confidence; with half of it, it is unsure."""
    cols, shps, dc, ds_sharp = distances(f, profile)
    inflation = blur_inflation(sharpness)
    ds = ds_sharp / inflation ** 2
    tot = dc + ds
    flat_ = tot.ravel()
    p = np.exp(-0.5 * (flat_ - flat_.min()))
    p /= p.sum()
    order = np.argsort(-p)
    best, second = int(order[0]), int(order[1])
    ci, si = divmod(best, len(shps))
    colour, shape = cols[ci], shps[si]
    d_c, d_s = float(dc[ci, si]), float(ds[ci, si])
    conf = float(p[best])
    f["_ds"], f["_dc"] = round(d_s, 1), round(d_c, 1)
    reasons = []
    no_fit = float(ds_sharp[ci, si]) / inflation > OUTLIER_SHAPE
    if no_fit:
        reasons.append("outline fits no drink")
        conf = min(conf, 0.3)
    runner_up = float(np.delete(dc, ci, axis=0).min())
    # a dark drink's lit face on a dark tray reads lighter than calibrated: far off, but much
    # nearer its own colour than any other, and with its outline fitting well, it is that drink
    plain = d_s <= SHAPE_SURE and d_c <= 2 * OUTLIER_COLOUR and runner_up >= COLOUR_APART * d_c
    colour_far = d_c > OUTLIER_COLOUR and not plain
    if colour_far:
        reasons.append("colour fits no drink")
        conf = min(conf, 0.3)
    # motion blur smears both ends outwards by a few pixels, whatever the drink's length
    longest = _calibrated_length(profile, f"{colour}-{shape}") * TOO_LONG + BLUR_SMEAR * (inflation - 1.0)
    too_long = not no_fit and f["length"] > longest
    if too_long:
        # the other features may fit while the piece runs on past the drink: two drinks end to
        # end, or a drink and its neighbour's end, read as one
        reasons.append(f"longer than a {colour} {shape.replace('_', ' ')}: two drinks?")
        conf = min(conf, 0.3)
    c2, s2 = divmod(second, len(shps))
    if p[best] < 0.9:
        reasons.append(f"or {cols[c2]}-{shps[s2]}?")
    # "second": the runner-up, where the only doubt is which of the two it is (the outline and the
    # colour fit, and the piece is no longer than the drink): a second opinion that names one of
    # the two settles more than one that names a third (checked.Naming's ``agreeing``)
    only_the_margin = not (no_fit or colour_far or too_long)
    return {"color": colour, "shape": shape, "confidence": round(conf, 3), "unsure": conf < UNSURE_BELOW,
            "why": "; ".join(reasons), "d_shape": d_s, "d_colour": d_c, "too_long": too_long, "no_fit": no_fit,
            "second": f"{cols[c2]}-{shps[s2]}" if only_the_margin else None}
