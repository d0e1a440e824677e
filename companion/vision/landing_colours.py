"""What colour each part of the table in front of the tower is, for the landing reader: the
frame seen from above (the table plane rectified in landing millimetres), its colours balanced
against the calibration mat's paper, and each pixel's likeliest class among the six drinks'
plastics, the crates' yellow and the table itself (lit or in a shadow).

Colours are compared as chromaticity (each channel's share, linear light) and brightness
(log of the sum), against the paper's white: the lamp's colour and the exposure cancel out. The
table's colour is not known beforehand: each pixel's table is the median of the view around it
(drinks are small against that window), and a pixel near that colour, or that colour darkened
(a shadow), is table.

>>> [round(float(v), 3) for v in chroma_of(np.array([[0.2, 0.2, 0.2]]))[0]]
[0.333, 0.333]
"""
from __future__ import annotations

import cv2
import numpy as np

from ..drinks import COLOURS

# the drinks' plastics and the crates' yellow as sRGB (r, g, b) under white light: the makers'
# nominal colours, measured from the pieces (docs/drinks.md)
PLASTIC_SRGB = {
    "black": (38, 38, 42), "white": (236, 236, 232), "mint": (160, 226, 204),
    "blue": (34, 92, 196), "red": (206, 34, 44), "purple": (142, 76, 178),
}
YELLOW_SRGB = (246, 196, 22)
PAPER_ALBEDO = 0.85          # the mat's paper reflects about this much of the light
CLASSES = tuple(c.value for c in COLOURS) + ("yellow", "table")
SIGMA_CHROMA = 0.045         # how far a plastic's chromaticity wanders with shading and lamp
SIGMA_LOG = 0.9              # and its brightness (faces turned from the lamp, a top in the light)
TABLE_CHROMA = 0.03
YELLOW_SPREAD = 1.0          # crates' yellows differ more than the drinks' plastics (pale, glossy, sunbleached)
BACKGROUND_MM = 41           # the window the table's own colour is the median of
ADAPT_ROUNDS = 3             # EM rounds of the plastics' own colours (``adapted_references``)
ADAPT_STEP = 3               # on every 3rd pixel each way (a drink keeps dozens: the same, 9 times cheaper)
ADAPT_OTHER = 9.0            # the cost of "no class" in that mixture: 3 sigmas off every class
ADAPT_LEAST_SHARE = 1e-3     # about one drink's share of the top view
ADAPT_MOST_SHARE = 0.01      # no plastic adapted to cover more of it (a far standing bottle ~0.3 %)
ADAPTED = ("mint", "blue", "red", "purple")   # black and white are told by brightness: their chromaticity stays
ADAPT_PRIOR_PX = 25.0        # the nominal colour weighs as much as this many of those pixels (100 mm² at
                             # 1.5 px/mm: a drink's 300-600 mm² outweighs it, a stray speck does not)


def srgb_to_linear(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).astype(np.float32)


_LUT = srgb_to_linear(np.arange(256))


def chroma_of(lin: np.ndarray) -> np.ndarray:
    """(…, 3) linear BGR -> (…, 2) the shares of red and green."""
    s = np.maximum(lin.sum(-1, keepdims=True), 1e-4)
    return np.stack([lin[..., 2] / s[..., 0], lin[..., 1] / s[..., 0]], -1)


def _reference(srgb) -> tuple[np.ndarray, float]:
    lin = srgb_to_linear(np.array(srgb[::-1], np.float32))
    return chroma_of(lin[None])[0], float(np.log(lin.sum() + 1e-4))


REFERENCES = {name: _reference(rgb) for name, rgb in {**PLASTIC_SRGB, "yellow": YELLOW_SRGB}.items()}


def balanced(frame_bgr: np.ndarray, white_bgr) -> np.ndarray:
    """The frame in linear light as albedo against the paper (paper = PAPER_ALBEDO)."""
    lin = _LUT[frame_bgr]
    white = _LUT[np.clip(np.round(np.array(white_bgr)), 0, 255).astype(np.int64)]
    return lin * (PAPER_ALBEDO / np.maximum(white, 1e-3)).astype(np.float32)


def class_costs(lin: np.ndarray, px_per_mm: float, references: dict | None = None,
                adapt: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Each class's cost at each pixel (lower: likelier) of a balanced top view ``lin``, against
    ``references`` (``REFERENCES``: the makers' nominal plastics) or, with ``adapt`` (where the
    view shows the table: a bool mask), the plastics' references taken from this view itself
    (``adapted_references``)."""
    feats = features(lin, px_per_mm)
    if adapt is not None:
        references = adapted_references(feats, adapt)
    return costs_of(feats, REFERENCES if references is None else references)


def features(lin: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, ...]:
    """What a pixel's class costs are made of: its chromaticity and brightness, and the table's
    own there (a wide median of the view)."""
    chroma = chroma_of(lin)
    bright = np.log(lin.sum(-1) + 1e-4)
    k = int(BACKGROUND_MM * px_per_mm) | 1
    small = max(1, k // 15)
    # the table's own colour: a wide median, taken on a smaller picture (the same, far cheaper)
    h, w = lin.shape[:2]
    lo = cv2.resize(lin, (max(1, w // small), max(1, h // small)), interpolation=cv2.INTER_AREA)
    enc = np.clip(np.sqrt(lo / 1.2) * 255 + 0.5, 0, 255).astype(np.uint8)       # a wide median wants 8 bits
    med = cv2.medianBlur(enc, min(255, (k // small) | 1)).astype(np.float32) / 255
    table = cv2.resize(med * med * 1.2, (w, h), interpolation=cv2.INTER_LINEAR)
    return chroma, bright, chroma_of(table), np.log(table.sum(-1) + 1e-4)


def costs_of(feats: tuple[np.ndarray, ...], references: dict) -> dict[str, np.ndarray]:
    """Each class's cost from ``features`` against ``references`` (name -> (chroma, log brightness))."""
    out = {name: reference_cost(feats, name, ref) for name, ref in references.items()}
    out["table"] = table_cost(feats)
    return out


def reference_cost(feats: tuple[np.ndarray, ...], name: str, ref) -> np.ndarray:
    """One plastic's (or the yellow's) cost against its reference (chroma, log brightness)."""
    chroma, bright = feats[:2]
    ref_c, ref_b = ref
    dc = _square_distance(chroma, ref_c)
    # black and white are told by their brightness, their chromaticity is what noise makes it
    sc = SIGMA_CHROMA * {"black": 2.5, "yellow": YELLOW_SPREAD}.get(name, 1.0)
    db = (bright - ref_b) / SIGMA_LOG
    if name == "white":
        db = np.minimum(db, 0) * 1.6                # brighter than white is still white
    if name == "black":
        db = np.maximum(db, 0) * 1.3                # darker than black is still black
    return dc / sc ** 2 + db ** 2


def _square_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared distance of two chromaticities (…, 2): written out, as numpy sums a last axis of
    two slowly."""
    d0, d1 = a[..., 0] - b[..., 0], a[..., 1] - b[..., 1]
    return d0 * d0 + d1 * d1


def table_cost(feats: tuple[np.ndarray, ...]) -> np.ndarray:
    """The table and its shadows: its chromaticity, as bright or darker (a shadow takes up to 85 %)."""
    chroma, bright, t_chroma, t_bright = feats
    dc = _square_distance(chroma, t_chroma) / TABLE_CHROMA ** 2
    above = np.clip(bright - t_bright - 0.15, 0, None) / 0.25
    below = np.clip(t_bright - bright - 1.9, 0, None) / 0.25
    return dc * np.clip(1 - (t_bright - bright) / 4, 0.4, 1) + above ** 2 + below ** 2


def adapted_references(feats: tuple[np.ndarray, ...], where: np.ndarray, rounds: int = ADAPT_ROUNDS,
                       prior: float = ADAPT_PRIOR_PX, step: int = ADAPT_STEP) -> dict:
    """The plastics' chromaticities as this view shows them: the classes taken as a mixture
    (each pixel's cost a squared distance, its likelihood exp(-cost / 2)) whose plastic means are
    re-estimated from the view's own pixels (``where``, every ``step``-th each way) by a few
    rounds of EM, each mean held towards the nominal one as if ``prior`` pixels of it had been
    seen (a maximum a posteriori estimate: a plastic not on the table stays nominal, a drink's
    few hundred pixels move it). The crates' yellow is estimated alongside, so that its pixels
    pull no plastic, but returned nominal (the crates are found and the network reads them as
    trained); the brightness (already loose) and the table (its own local colour) stay."""
    sub = tuple(f[::step, ::step][where[::step, ::step]] for f in feats)
    refs = dict(REFERENCES)
    if not len(sub[0]):
        return refs
    chroma = sub[0]
    share = np.full(len(CLASSES) + 1, 1.0 / (len(CLASSES) + 1))
    # the crates' yellow moves too (crates differ far more than the plastics: a greenish or
    # orange one's pixels would otherwise pull the mint or the red), but is read as before
    moved = [k for k, name in enumerate(CLASSES) if name in ADAPTED or name == "yellow"]
    # a pixel no class explains (an edge, a card, a glint) is "other": it moves no plastic
    nominal = np.concatenate([cost_stack(costs_of(sub, refs)), np.full((1, len(chroma)), ADAPT_OTHER, np.float32)])
    before = _covers(nominal[:-1])
    costs = nominal.copy()
    for _ in range(rounds):
        for k in moved:                 # only the moving plastics' costs change
            costs[k] = reference_cost(sub, CLASSES[k], refs[CLASSES[k]])
        stack = costs.copy()
        # each class weighed by its share of the view (the mixture's weights): the table, most
        # of the view, keeps its own textured pixels from a plastic drawn near its colour
        stack -= 2 * np.log(share)[:, None].astype(np.float32)
        r = np.exp(-0.5 * (stack - stack.min(0)))
        r /= r.sum(0)
        # (a plastic's weight no less than one drink's, and "other" held there: the outliers a
        # view has many of must not outweigh a drink's own pixels far off its nominal colour)
        share = np.maximum(r.mean(1), ADAPT_LEAST_SHARE)
        share[-1] = ADAPT_LEAST_SHARE
        for k in moved:
            nominal_c, nominal_b = REFERENCES[CLASSES[k]]
            refs[CLASSES[k]] = ((prior * nominal_c + r[k] @ chroma) / (prior + r[k].sum())).astype(np.float32), nominal_b
    # a drink covers well under 1 % of the view and the asked drinks differ in colour: a plastic
    # that would now be more of the view than that (and than it was) has taken the table or the
    # crates, not a drink (a mint on a pale green table): it keeps its nominal colour
    for k in moved:
        costs[k] = reference_cost(sub, CLASSES[k], refs[CLASSES[k]])
    after = _covers(costs[:-1])
    for k in moved:
        if CLASSES[k] in PLASTIC_SRGB and after[k] > max(ADAPT_MOST_SHARE, before[k]):
            refs[CLASSES[k]] = REFERENCES[CLASSES[k]]
    refs["yellow"] = REFERENCES["yellow"]     # (read with the estimated yellow too: more sure mistakes on dev)
    return refs


def _covers(stack: np.ndarray) -> np.ndarray:
    """Each class's share of the pixels it is the likeliest class of."""
    return np.bincount(np.argmin(stack, axis=0), minlength=len(stack)) / max(stack.shape[1], 1)


def labels(costs) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's class index (into ``CLASSES``) and its margin to the next likeliest class
    (``costs``: ``class_costs``' or its ``cost_stack``)."""
    stack = cost_stack(costs) if isinstance(costs, dict) else costs
    best = np.argmin(stack, axis=0)
    two = np.partition(stack, 1, axis=0)        # the two lowest, without sorting the rest
    return best.astype(np.uint8), (two[1] - two[0]).astype(np.float32)


def cost_stack(costs: dict[str, np.ndarray]) -> np.ndarray:
    """The classes' costs stacked in ``CLASSES``' order."""
    return np.stack([costs[c] for c in CLASSES], 0)


def runner_up(stack: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Each pixel's next likeliest class after ``best`` (a plastic whose make or lamp shifts it
    towards a neighbour's reference is often its neighbour first and itself second)."""
    stack = stack.copy()
    np.put_along_axis(stack, best[None].astype(np.int64), np.inf, axis=0)
    return np.argmin(stack, axis=0).astype(np.uint8)
