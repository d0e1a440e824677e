"""The colour of a piece of a blob, for the splitting (drinks.py): plain, or only relit, or
which colours it may be. A part of a drink lit otherwise than its body is its colour darker
or lighter, so each colour is also compared scaled to match."""
from __future__ import annotations

import numpy as np

from .classify import COLOUR_APART, OUTLIER_COLOUR
from .features import LUMA
from .selection import column_medians, pixels_where, quantiles
from .profile import Profile


def darkest(profile: Profile) -> str:
    """The drink colour that shade looks like."""
    means = profile.colour_model.means
    return min(means, key=lambda c: float(np.asarray(means[c]) @ LUMA))


RELIT = (0.35, 1.6)   # how much darker (in shade) or lighter (a face catching the light) a part of a drink may look


def plain_colour(px: np.ndarray, profile: Profile) -> tuple[str | None, bool, frozenset]:
    """The colour of these pixels (relit BGR) when it is plain, else None; whether only
    relighting gives it; and the colours it may be (the plain one, or when none is plain those
    near enough to be it, none when it is near none). Plain: very near one colour, or near one and much further from every
    other (the terms of classify's colour rule: drift and blur move a piece's colour off the
    calibration). Measured on the lit body's brightness band, as a drink's colour is.

    A part of a drink lit otherwise than its body (a neck turned from the light, the dark line
    between two cylinders, a flat face catching the light) is its colour darker or lighter, so
    it is compared with every colour scaled to match: a white neck in shade is grey, which the
    colours as calibrated would call mint rather than white. A reading that only scaling gives
    is weaker: a small such piece on its own is more likely shade than a drink.
    """
    if len(px) < 15:
        return None, False, frozenset()
    lv = px @ LUMA
    lo_l, hi_l = quantiles(lv, (0.3, 0.8))
    sel = (lv >= lo_l) & (lv <= hi_l)
    x = column_medians(pixels_where(px, sel) if sel.sum() >= 5 else px)
    as_calibrated = _plain(profile.colour_model.distances(x))
    rd = _relit_distances(x, profile)
    relit = _plain(rd)
    if relit:
        return relit, relit != as_calibrated, frozenset([relit])
    if as_calibrated and not _another_colour_shaded(x, rd, as_calibrated, profile):
        return as_calibrated, False, frozenset([as_calibrated])
    near = min(rd.values())
    return None, False, frozenset(c for c, d in rd.items() if d < OUTLIER_COLOUR and d <= COLOUR_APART * max(near, 5.0))


SHADED = (0.7, 1.3)   # how much darker or lighter a drink's shaded or lit half looks than its body
RELIT_EXACT = 2.0     # a relit distance this small: the colour, relit, matches almost exactly


def _another_colour_shaded(x: np.ndarray, relit: dict[str, float], plain: str, profile: Profile) -> bool:
    """Is colour ``x``, plainly ``plain`` as calibrated, almost exactly another colour a little
    darker or lighter? On a table whose white and mint differ mostly in brightness, a white
    can's shaded half is calibrated mint; it may be either, and is not plain.

    >>> from companion.vision.profile import Model
    >>> cm = Model(["b", "g", "r"], {"white": np.array([209., 222., 203.]), "mint": np.array([195., 210., 166.])},
    ...            np.array([7., 7., 7.]))
    >>> p = type("P", (), {"colour_model": cm})
    >>> half = np.array([180., 191., 175.])          # white at 0.86: as calibrated, nearer mint
    >>> _another_colour_shaded(half, _relit_distances(half, p), "mint", p)
    True
    >>> body = np.array([195., 209., 165.])
    >>> _another_colour_shaded(body, _relit_distances(body, p), "mint", p)
    False
    """
    nearest = min(relit, key=relit.get)
    if nearest == plain or relit[nearest] >= RELIT_EXACT:
        return False
    m = np.asarray(profile.colour_model.means[nearest], np.float64)
    k = float(x @ m) / max(float(m @ m), 1e-6)
    return SHADED[0] < k < SHADED[1]


def _plain(d: dict[str, float]) -> str | None:
    """The nearest colour of these distances when it is plainly the nearest, else None."""
    (colour, near), (_, second) = sorted(d.items(), key=lambda kv: kv[1])[:2]
    sure = (near < 15 and second - near > 10) or (near < OUTLIER_COLOUR and second > COLOUR_APART * max(near, 5.0))
    return colour if sure else None


def _relit_distances(x: np.ndarray, profile: Profile) -> dict[str, float]:
    """Squared normalised distance of a colour to each drink colour scaled by the factor (within
    RELIT) that brings it closest.

    A dark red is red in shade, not black:

    >>> from companion.vision.profile import Model
    >>> cm = Model(["b", "g", "r"], {"red": np.array([45., 36., 194.]), "black": np.array([38., 35., 42.])},
    ...            np.array([7., 7., 7.]))
    >>> d = _relit_distances(np.array([19., 22., 119.]), type("P", (), {"colour_model": cm}))
    >>> d["red"] < 5 < 100 < d["black"]
    True
    """
    cm = profile.colour_model
    names, m = cm.mean_rows()
    k = np.minimum(np.maximum((m @ x) / np.maximum((m * m).sum(axis=1), 1e-6), RELIT[0]), RELIT[1])
    return dict(zip(names, ((((x - k[:, None] * m) / cm.spread) ** 2).sum(axis=1)).tolist()))
