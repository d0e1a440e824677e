"""The landing reader's learned way (``landing_net.py``): each asked drink's candidate patches
(``landing_crops.py``) read by the network; the likeliest to be the drink is taken, its spot the
network's likeliest, its distance from the middle the network puts on the table.

A reading is sure only when the network is (the spot's probability at least the model's
``sure``, the middle's error scale at most ``sure_scale_mm``) and no other patch of the colour
is nearly as likely the drink somewhere else (at least the model's ``rival``: two look-alike
patches, which one is it?). A drink none of whose patches is likely the drink is looked for
again (a second look, ``LOOSE``): at twice as many patches, each filled in where its colour is
the runner-up class of a pixel that is not the table (``landing_crops.colour_mask``) as long as
at least half of the patch is the colour itself; a drink that look does not find either is not
seen, and one it finds is never sure (the model's bars were set on crops of the colour's own
mask; on varied looks a drink found so was read sure and wrong: docs/performance.md).

>>> p = np.array([[0.01, 0.01, 0.97, 0.01], [0.1, 0.1, 0.1, 0.7]])
>>> choose(p, np.array([[0.0, 100.0], [50.0, 50.0]]), np.array([1.0, 1.0]))["spot"]
2
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..landing import MAX_DISTANCE_MM, SPOTS, Landing, LandingReading
from . import landing_crops      # its MAX_CANDIDATES read when used (tools/landing_*.py set it)
from .landing_crops import candidates, frame_projector, from_crop, top_view

SEEN = 0.5                  # a patch at least this likely the drink: the drink is seen
RIVAL = 0.3                 # another patch this likely the drink, and elsewhere: not sure (a model's own ``rival`` bar
                            # replaces it)
RIVAL_MM = 10.0             # elsewhere: its middle this far from the best one's
LOOSE = True                # a drink none of whose patches is read as it looked for again in the loose mask


def choose(p: np.ndarray, middles: np.ndarray, scales: np.ndarray, rival_bar: float = RIVAL) -> dict | None:
    """The reading of one asked drink from its candidates' spot probabilities (n, 4: slot,
    crate, outside, none), middles on the table (n, 2 mm) and error scales (n): the best
    candidate's index, spot (index into SPOTS), its probability, scale, middle, how likely the
    drink the likeliest other patch elsewhere is (``rival_p``; 0 when there is none) and whether
    that rival casts doubt (at least ``rival_bar``); None when no candidate is likely the drink."""
    if not len(p):
        return None
    drink = 1.0 - p[:, 3]
    best = int(np.argmax(drink))
    if drink[best] < SEEN:
        return None
    spot = int(np.argmax(p[best, :3]))
    rival_p = max((float(drink[j]) for j in range(len(p))
                   if j != best and float(np.linalg.norm(middles[j] - middles[best])) > RIVAL_MM), default=0.0)
    return {"index": best, "spot": spot, "p_spot": float(p[best, spot]), "scale": float(scales[best]),
            "p_drink": float(drink[best]), "share": float(p[best, spot] / max(float(p[best, :3].sum()), 1e-12)),
            "middle": np.asarray(middles[best], np.float64), "rival_p": rival_p, "rival": rival_p >= rival_bar}


@dataclass(frozen=True)
class SureBars:
    """Bars of a sure reading apart from a model (the training tools' searches and scores)."""

    sure: float
    sure_scale_mm: float
    rival: float = RIVAL
    sure_drink: float | None = None
    sure_share: float | None = None


def is_sure(pick: dict, model) -> bool:
    """Whether a pick clears the model's bars: its spot's probability at least ``sure``, or (a
    model with ``sure_drink`` and ``sure_share``) the patch at least ``sure_drink`` likely the
    drink and its spot at least ``sure_share`` of the three spots' probability (62nd session:
    a patch the network is torn about being the drink, yet sure where it lies, was left unsure
    though mostly right: docs/performance.md, "Sure of the spot, less of the drink"); the middle's
    scale at most ``sure_scale_mm`` and no rival either way.

    >>> bars = SureBars(sure=0.9, sure_scale_mm=7.0, rival=0.9, sure_drink=0.7, sure_share=0.98)
    >>> pick = {"p_spot": 0.78, "p_drink": 0.79, "share": 0.99, "scale": 3.0, "rival_p": 0.0}
    >>> is_sure(pick, bars), is_sure({**pick, "share": 0.9}, bars), is_sure({**pick, "p_drink": 0.6}, bars)
    (True, False, False)
    >>> is_sure(pick, SureBars(sure=0.9, sure_scale_mm=7.0, rival=0.9))      # the first way alone
    False
    """
    drink_bar, share_bar = getattr(model, "sure_drink", None), getattr(model, "sure_share", None)
    placed = pick["p_spot"] >= model.sure or (drink_bar is not None and share_bar is not None and
                                              pick["p_drink"] >= drink_bar and pick["share"] >= share_bar)
    return placed and pick["scale"] <= model.sure_scale_mm and pick["rival_p"] < getattr(model, "rival", RIVAL)


def pick_of(cands: list, p: np.ndarray, off: np.ndarray, scale: np.ndarray, model) -> dict | None:
    """``choose`` over a drink's candidates, given the network's reading of their crops."""
    middles = np.array([from_crop(off[i], c.centre, c.basis) for i, c in enumerate(cands)])
    return choose(p, middles, scale, getattr(model, "rival", RIVAL))


def read_learned(frame: np.ndarray, asked: tuple[str, ...], maps, calibration, model, notes: dict | None = None
                 ) -> LandingReading:
    """The reading of one (usable) frame: ``maps`` the top view's (``LandingReader._top_maps``)."""
    camera = calibration.camera_position
    view = top_view(frame, maps, calibration.white_bgr, camera,
                    frame_projector(calibration, (frame.shape[1], frame.shape[0])), getattr(model, "pixels", None))
    channels = getattr(model, "channels", landing_crops.CHANNELS)      # a stand-in reader of crops: the top view's
    colours = tuple(name.partition("-")[0] for name in asked)
    found = {name: candidates(view, name, channels=channels, also=colours) for name in asked}
    flat = [c for name in asked for c in found[name]]
    if flat:
        p, off, scale = model.read(np.stack([c.crop for c in flat]), np.stack([c.features for c in flat]))
    out, at = [], 0
    for name in asked:
        cands = found[name]
        k = len(cands)
        pick = None
        if k:
            pick = pick_of(cands, p[at:at + k], off[at:at + k], scale[at:at + k], model)
            at += k
        loose = False
        if pick is None and LOOSE:
            # nothing of its colour read as the drink: look again, at twice as many patches, each
            # filled in where its colour is the runner-up of a pixel that is not the table (an
            # off-tint plastic reads partly as its neighbour)
            cands = candidates(view, name, loose=True, limit=2 * landing_crops.MAX_CANDIDATES, channels=channels,
                               also=colours)
            if cands:
                pick = pick_of(cands, *model.read(np.stack([c.crop for c in cands]),
                                                  np.stack([c.features for c in cands])), model)
                loose = pick is not None
                k = len(cands)
        if pick is None:
            out.append(Landing(drink=name, seen=False, sure=False))
            continue
        distance = min(MAX_DISTANCE_MM, round(math.hypot(*pick["middle"])))
        if notes is not None:
            notes[name] = {"p_spot": round(pick["p_spot"], 3), "p_drink": round(pick["p_drink"], 3),
                           "share": round(pick["share"], 3), "scale": round(pick["scale"], 1), "rival": pick["rival"],
                           "candidates": k, "loose": loose}
        # the model's bars were set on crops of the colour's own mask: what the second look finds is asked
        out.append(Landing(drink=name, spot=SPOTS[pick["spot"]], distance_mm=distance,
                           sure=is_sure(pick, model) and not loose))
    return LandingReading(landings=out)
