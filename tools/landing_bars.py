"""The landing network's bars of a sure reading, as the training tools read them: each drink of
a set of crops read as the reader reads it (``outputs``, ``picks``, ``decide``:
``landing_reading.choose`` over its candidates), counted at given bars (``score``:
``landing_reading.is_sure``), and the bars given on the command line (``--bars``,
``--second-bars``). Used by ``learn_landings.py`` (train, tune) and ``landing_ensemble.py``.
"""
from __future__ import annotations

import argparse

import numpy as np


def outputs(model, data) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A model's (or ensemble's) read of every crop: probabilities, middles on the table, scales."""
    n = len(data["groups"])
    p, off, scale = [], [], []
    width = len(model.channels)          # a cache may hold more channels than a model reads
    for s in range(0, n, 512):
        a, b, c = model.read(data["crops"][s:s + 512, ..., :width], data["feats"][s:s + 512])
        p.append(a), off.append(b), scale.append(c)
    if not n:
        return np.zeros((0, 4)), np.zeros((0, 2)), np.zeros(0)
    p, off, scale = (np.concatenate(v) for v in (p, off, scale))
    places = data["places"]
    up = places[:, 2:4].astype(np.float64)
    right = np.column_stack([up[:, 1], -up[:, 0]]) * np.where(places[:, 4:5] > 0.5, -1.0, 1.0)
    return p, places[:, :2] + right * off[:, :1] + up * off[:, 1:2], scale


def picks(read, data) -> list:
    """Each asked drink's reading as ``landing_reading.choose`` makes it."""
    from companion.vision.landing_reading import choose
    p, middles, scale = read
    by_group: dict[int, list[int]] = {}
    for i, g in enumerate(data["groups"]):
        by_group.setdefault(int(g), []).append(i)
    return [choose(p[idx], middles[idx], scale[idx]) if (idx := by_group.get(g)) else None
            for g in range(len(data["group_spot"]))]


def decide(model, data) -> dict:
    """Each asked drink (group) as ``(group, its true spot, the reader's pick)``: ``picks`` over
    ``outputs``."""
    chosen = picks(outputs(model, data), data)
    return {"rows": [(g, int(spot), pick) for g, (spot, pick) in enumerate(zip(data["group_spot"], chosen))]}


RIVALS = (0.3, 0.5, 0.7, 0.9)    # the rival bars tried (landing_reading.choose's ``rival_p``), the strictest first


def score(decided, data, sure: float, sure_scale: float, rival: float = 0.3, second=None) -> dict:
    """right / sure-wrong / unsure / not seen (of the drinks there), and drinks not there read
    as seen and sure, with the bars ``sure``, ``sure_scale``, ``rival`` and (``second``: drink,
    share) the second way's (``landing_reading.is_sure``)."""
    from companion.vision.landing_reading import SureBars, is_sure as sure_by
    bars = SureBars(sure, sure_scale, rival, *(second or (None, None)))
    counts = {"right": 0, "sure_wrong": 0, "unsure": 0, "not_seen": 0, "phantom_sure": 0}
    for g, true_spot, pick in decided["rows"]:
        is_sure = pick is not None and sure_by(pick, bars)
        if true_spot < 0:
            counts["phantom_sure"] += int(is_sure)
        elif pick is None:
            counts["not_seen"] += 1
        elif not is_sure:
            counts["unsure"] += 1
        else:
            true_d = float(data["group_distance"][g])
            right = pick["spot"] == true_spot and abs(float(np.hypot(*pick["middle"])) - true_d) <= max(10, 0.05 * true_d)
            counts["right" if right else "sure_wrong"] += 1
    return counts


def bars_given(text: str) -> tuple[float, float, float]:
    """``--bars 0.9,7,0.9``: the spot's probability, the middle's error scale (mm), the rival's."""
    try:
        sure, scale, rival = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"three numbers sure,scale_mm,rival (e.g. 0.9,7,0.9), not {text!r}") from None
    if not (0.0 < sure <= 1.0 and 0.0 < scale <= 100.0 and 0.0 < rival <= 1.0):
        raise argparse.ArgumentTypeError("sure and rival within (0, 1], the scale within (0, 100] mm")
    return sure, scale, rival


def second_given(text: str) -> tuple[float, float]:
    """``--second-bars 0.7,0.98``: the patch's probability of being the drink, its spot's share."""
    try:
        drink, share = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"two numbers drink,share (e.g. 0.7,0.98), not {text!r}") from None
    if not (0.0 < drink <= 1.0 and 0.0 < share <= 1.0):
        raise argparse.ArgumentTypeError("both within (0, 1]")
    return drink, share
