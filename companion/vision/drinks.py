"""Finding and naming the drinks in a photo of the tray.

1.-2. The lighting of the moment and the drink pixels (segment.py).
3. Splitting: a blob that is not one drink (too big, or a poor fit to every shape) is cut
   along colour boundaries and the dark valleys between touching cylinders, then along
   the cut that leaves pieces each of which looks like a drink (splitting.py).
4. Features of each piece (features.py); a piece with shade closed into it is also measured
   without its faint pixels, and taken so when that fits a drink better; one whose own
   pixels fall apart in drink-sized parts is read as that many drinks (faint.py).
5. Classification (classify.py); a pale part cut off a drink by a faint stretch is joined
   back when together they fit a drink better.
6. A second look with the calibrated outlines at pieces whose outline fits no drink or runs
   on past the drink it looks like, one drink or two of one colour pressed together (fit.py).
7. What is left unexplained, small and faint is shade, not a drink (faint.py).
8. Each drink is in the tower once: of two sure readings of one drink, the less sure is
   marked unsure (repeats.py).
(The steps are those of companion/vision/READING.md; docs/vision.md sums them up.)
"""
from __future__ import annotations

import cv2
import numpy as np

from .classify import OUTLIER_COLOUR, classify
from .components import components_with_stats
from .features import Region, measure
from .faint import is_shade, split_at_faint, trimmed_if_better
from .fit import refit
from .profile import Profile
from .repeats import doubt_repeats
from .segment import Analysis, analyse, reference
from .splitting import SPLIT_PENALTY, above_tray, drink_cost, split

# --- regions ----------------------------------------------------------------------------------

def regions_of(an: Analysis, profile: Profile) -> list[Region]:
    """Connected drink pixels; fragments of one drink (a black can whose lit middle matches a
    dark tray, a white one on a light tray) are joined when together they are drink-sized."""
    n, labels, stats = components_with_stats(an.mask)
    if n <= 1:
        return []
    min_area = profile.stats.get("min_area", 1e9)
    frag = min_area * 0.85
    max_area = profile.stats.get("max_area", 0.05 * an.mask.size) * 1.15
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    gap = 12
    boxes = stats[:, :4].astype(np.int64)
    areas = stats[:, 4].astype(np.float64)
    group_area = {i: areas[i] for i in range(1, n)}
    order = sorted(range(1, n), key=lambda i: areas[i])
    speck = profile.stats.get("speck", profile.stats.get("min_area", 0) * 0.08)
    for i in order:
        if areas[i] >= frag or areas[i] < speck:
            continue
        x, y, w, h = boxes[i]
        for j in range(1, n):
            if j == i:
                continue
            X, Y, W, H = boxes[j]
            if X > x + w + gap or X + W < x - gap or Y > y + h + gap or Y + H < y - gap:
                continue
            ri, rj = root(i), root(j)
            if ri == rj or group_area[ri] + group_area[rj] > max_area:
                continue
            # are they really within `gap` pixels of each other?
            x0, y0 = min(x, X) - gap, min(y, Y) - gap
            x1, y1 = max(x + w, X + W) + gap, max(y + h, Y + H) + gap
            sub = labels[max(y0, 0):y1, max(x0, 0):x1]
            a = cv2.dilate((sub == i).astype(np.uint8), np.ones((2 * gap + 1, 2 * gap + 1), np.uint8))
            if not np.any(a & (sub == j)):
                continue
            parent[rj] = ri
            group_area[ri] += group_area.pop(rj)
    groups: dict[int, list[int]] = {}
    for i in range(1, n):
        groups.setdefault(root(i), []).append(i)
    out = []
    for members in groups.values():
        if len(members) == 1 and areas[members[0]] < speck * 2.5:
            continue   # a speck on its own (noise, a crumb): not a drink
        xs0 = min(boxes[i][0] for i in members)
        ys0 = min(boxes[i][1] for i in members)
        xs1 = max(boxes[i][0] + boxes[i][2] for i in members)
        ys1 = max(boxes[i][1] + boxes[i][3] for i in members)
        sub = labels[ys0:ys1, xs0:xs1]
        m = np.isin(sub, members).astype(np.uint8) * 255 if len(members) > 1 else (sub == members[0]).astype(np.uint8) * 255
        if len(members) > 1:
            pad = gap
            m = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
            for k in (7, 11, 15, 19, 25):
                mm = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
                if cv2.connectedComponents(mm)[0] == 2:
                    break
            cnts, _ = cv2.findContours(mm, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            m = np.zeros_like(mm)
            cv2.drawContours(m, cnts, -1, 255, -1)
            xs0, ys0 = xs0 - pad, ys0 - pad
            # the padding and the closing may reach past the frame's edge: the region keeps
            # what lies inside (a window off the frame is an empty crop for the splitting)
            fh, fw = an.mask.shape
            cut_x, cut_y = max(0, -xs0), max(0, -ys0)
            m = np.ascontiguousarray(m[cut_y:fh - ys0, cut_x:fw - xs0])
            xs0, ys0 = xs0 + cut_x, ys0 + cut_y
        m = _repair(m, min_area, max_area / 1.15)
        out.append(Region(m, int(xs0), int(ys0)))
    return out


def _repair(m: np.ndarray, min_area: float, max_area: float) -> np.ndarray:
    """A drink-sized region with bites out of it (parts of the drink that look like the tray,
    or like a shadow) is closed up within its convex hull."""
    area = int(np.count_nonzero(m))
    if area == 0 or max_area <= 0:
        return m
    cnts, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return m
    hull = cv2.convexHull(np.concatenate(cnts))
    hull_area = cv2.contourArea(hull)
    if hull_area > 1.1 * max_area or (area >= 0.9 * min_area and area >= 0.86 * hull_area):
        return m
    pad = 8
    mm = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    mm = cv2.morphologyEx(mm, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)))[pad:-pad, pad:-pad]
    hm = np.zeros_like(m)
    cv2.drawContours(hm, [hull], -1, 255, -1)
    mm &= hm
    cnts, _ = cv2.findContours(mm, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(m)
    cv2.drawContours(out, cnts, -1, 255, -1)
    return out


def identify_analysis(an: Analysis, profile: Profile, scorer=None) -> list[dict]:
    """The readings of one analysed frame. ``scorer``: None (the rules of classify.py name each
    piece) or a function ``scorer(readings, an, profile)`` that names the finished pieces again
    (in place) before the one-drink-one-reading check: the pieces are the same either way, so
    two ways of naming are compared on the same pieces (vision/learned.py)."""
    scale = 1.0 / profile.scale
    found = []
    for region in regions_of(an, profile):
        for piece, f in split(region, an, profile):
            if f is None:
                continue
            c = classify(f, profile, an.sharpness)
            for piece, f, c in split_at_faint(piece, f, c, an, profile, SPLIT_PENALTY):
                piece, f, c = trimmed_if_better(piece, f, c, an, profile)
                found.append(_found(piece, f, c))
    min_area = profile.stats.get("min_area", 0)
    found = _join_cut_off_parts(found, an, profile, min_area)
    found = refit(found, an, profile, min_area, profile.stats.get("max_area", 1e9))
    out = []
    for d in found:
        if d["unsure"] and "_r" in d and (d["_r"].shade_like or is_shade(d["_r"], an, min_area)):
            continue
        cx, cy = d.pop("cx"), d.pop("cy")
        piece = d.pop("_r", None)
        if piece is not None:
            d["_piece"] = piece        # its pixels, for a scorer that reads them (pixel_scorer.py)
        d.pop("_outline_bad", None)
        out.append({"color": d["color"], "shape": d["shape"],
                    "x": round((cx + 0.5) * scale - 0.5, 1), "y": round((cy + 0.5) * scale - 0.5, 1),
                    **{k: v for k, v in d.items() if k not in ("color", "shape")}})
    if scorer is not None:
        scorer(out, an, profile)
    for d in out:
        d.pop("_piece", None)
    return doubt_repeats(out)


JOIN_GAP = 9          # px: how far a part cut off a drink by a faint stretch may lie from it
CUT_OFF_PART = 0.6   # ... and below this share of the smallest drink


def _found(piece: Region, f: dict, c: dict) -> dict:
    """A reading as identify_analysis keeps it until the end (with its piece and features)."""
    return {"color": c["color"], "shape": c["shape"], "cx": f["cx"], "cy": f["cy"], "confidence": c["confidence"],
            "unsure": bool(c["unsure"]), "_why": c["why"], "_f": f, "_r": piece, "_second": c["second"],
            "_outline_bad": (c["no_fit"] or c["too_long"]) and c["d_colour"] <= OUTLIER_COLOUR}


def _join_cut_off_parts(found: list[dict], an: Analysis, profile: Profile, min_area: float) -> list[dict]:
    """A pale bottle whose shoulder is faint falls apart in body and neck; when the neck hangs
    on the blob of a neighbour, the body alone reads as a can, and with confidence, and the
    neck stays an unsure part. An unsure part of the same colour, brighter than the tray,
    within JOIN_GAP px of a sure piece, is joined to it (with the faint pixels between them)
    when together they fit a drink better than apart, at the price of one drink less, as
    in the splitting; and when together their outline fits no drink, for the second look."""
    if an.faint is None or not min_area:
        return found
    tray = reference(profile)["bg"]
    dropped: set[int] = set()
    for k, part in enumerate(found):
        r = part["_r"]
        if not part["unsure"] or r.area >= CUT_OFF_PART * min_area:
            continue
        box = np.s_[r.y0:r.y0 + r.mask.shape[0], r.x0:r.x0 + r.mask.shape[1]]
        if not above_tray(an.small[box] / an.gain[box], tray[box], r.mask > 0):
            continue            # shade, not a pale neck
        for j, body in enumerate(found):
            if j == k or j in dropped or body["unsure"] or body["color"] != part["color"]:
                continue
            union = _bridged(body["_r"], r, an)
            f = None if union is None else measure(union, an)
            if f is None:
                continue
            c = classify(f, profile, an.sharpness)
            # a union whose outline fits no drink (a shoulder or cap blurred into shade) is
            # still taken when it costs less: the second look with the outlines places it
            outline_only = c["no_fit"] and c["d_colour"] <= OUTLIER_COLOUR
            if (c["unsure"] and not outline_only) or c["color"] != body["color"] or c["shape"] == body["shape"]:
                continue
            apart = drink_cost(body["_f"], profile)[0] + drink_cost(part["_f"], profile)[0] + SPLIT_PENALTY
            if drink_cost(f, profile)[0] < apart:
                found[j] = _found(union, f, c)
                dropped.add(k)
                break
    return [d for k, d in enumerate(found) if k not in dropped]


def _bridged(a: Region, b: Region, an: Analysis) -> Region | None:
    """The two pieces as one, with the faint pixels between them, when they lie within
    JOIN_GAP px of each other (else None); its window stays inside the frame."""
    H, W = an.mask.shape
    x0, y0 = max(min(a.x0, b.x0) - JOIN_GAP, 0), max(min(a.y0, b.y0) - JOIN_GAP, 0)
    x1 = min(max(a.x0 + a.mask.shape[1], b.x0 + b.mask.shape[1]) + JOIN_GAP, W)
    y1 = min(max(a.y0 + a.mask.shape[0], b.y0 + b.mask.shape[0]) + JOIN_GAP, H)
    first, second = np.zeros((y1 - y0, x1 - x0), np.uint8), np.zeros((y1 - y0, x1 - x0), np.uint8)
    for r, into in ((a, first), (b, second)):
        into[r.y0 - y0:r.y0 - y0 + r.mask.shape[0], r.x0 - x0:r.x0 - x0 + r.mask.shape[1]] = r.mask
    reach = np.ones((2 * JOIN_GAP + 1, 2 * JOIN_GAP + 1), np.uint8)
    if not np.any(cv2.dilate(first, reach) & second):
        return None
    both = first | second
    bridge = cv2.morphologyEx(both, cv2.MORPH_CLOSE, reach)
    both[(bridge > 0) & an.faint[y0:y1, x0:x1]] = 255
    return Region(both, x0, y0)


SCORERS = ("rules", "learned", "pixels", "checked", "checked-pixels", "checked-set", "checked-sure")
# "checked-set" (the default since issue 26's phantom session): the same check by a network that
# also knows the set's calibrated sizes, asking wherever its top name is not the rules' and where
# it finds "no single drink" at least 0.05 likely (phantom outlines in shadow bands). On fresh
# evaluation tables 932700-932705 it was sure and wrong 2.3-3.4 % of the time where
# "checked-pixels" was 3.9-9.3 %, scored higher at every difficulty, and read development tables
# within 0.61 points of the rules' correct (docs/performance.md, "Vision: phantoms and heights
# checked"); it adds 1-2 ms a frame to checked-pixels' check (the crop is read mirrored too).
# "checked-pixels": the rules' readings, each sure one asked of the network over the piece's
# pixels alone (vision/checked.py), made unsure where it names the piece otherwise. On fresh
# evaluation tables it was sure and wrong a quarter to a half less often than the rules at every
# difficulty, for at most 1.5 points of correct, and read the development tables exactly as the
# rules do (docs/performance.md, "Vision: the rules checked by the pixels alone"): the criterion
# for the default, fixed before the evaluation runs. "rules" alone is a little faster (the
# network adds 3-4 ms a frame); "checked" (the learned feature scorer as the second opinion)
# catches fewer of the rules' mistakes.
# "checked-sure" (vision/sure.py): checked-set's guard, then a learned sureness in place of the
# top-name rule. Its bar is chosen by score on training-family tables, within 1.0 point of the
# rules on the development tables: 0.915. On fresh evaluation tables 932810-932815 it was wrong
# less often than checked-set and scored higher on separated and hard drinks (hard: 0.63 % wrong
# against 1.41 %), but was wrong on one drink more on touching ones and as often on lighting drift,
# and scored 0.15-2.4 points lower there: not the default (docs/performance.md, "Vision: a learned
# sureness", "The bar chosen by score"). At the issue's 99.7 % bar (0.985, tools/choose_sureness.py
# --target 0.997) it was sure and wrong on 0-0.16 % of fresh evaluation drinks but asked 36-59 %.
DEFAULT_SCORER = "checked-set"


def scorer_hook(scorer: str):
    """The hook of ``identify_analysis`` that names the pieces by ``scorer`` (one of SCORERS):
    None for the rules, ``learned.rescore`` for the learned scorer, ``pixel_scorer.rescore``
    for the network over the pieces' pixels, ``learned.check`` for the rules made unsure where
    the learned scorer names a piece otherwise, ``checked.check_pixels`` for the rules made
    unsure where the network over the pixels alone names it otherwise, ``checked.check_set``
    for the same with the network that also knows the set's calibrated sizes and asks where it
    sees no drink, ``sure.check_sure`` for the rules kept sure only where a learned sureness
    over that network's and the rules' own signals finds them likely enough right."""
    if scorer not in SCORERS:
        raise ValueError(f"scorer must be one of {', '.join(SCORERS)}, not {scorer!r}")
    if scorer == "learned":
        from .learned import rescore
        return rescore
    if scorer == "pixels":
        from .pixel_scorer import rescore
        return rescore
    if scorer == "checked":
        from .learned import check
        return check
    if scorer == "checked-pixels":
        from .checked import check_pixels
        return check_pixels
    if scorer == "checked-set":
        from .checked import check_set
        return check_set
    if scorer == "checked-sure":
        from .sure import check_sure
        return check_sure
    return None


def identify(image: np.ndarray, profile: Profile, debug: bool = False, scorer: str = DEFAULT_SCORER) -> list[dict]:
    """The drinks in one frame: color, shape, x, y (centroid, frame pixels), confidence, unsure.
    ``scorer``: "rules" (classify.py), "learned" (vision/learned.py: a model trained on
    rendered tables names each piece from its measured features) or "pixels"
    (vision/pixel_scorer.py: from its pixels) or "checked" (the rules, unsure where the learned
    scorer names a piece otherwise) or "checked-pixels" (the rules, unsure where the network
    over the piece's pixels alone names it otherwise: vision/checked.py) or "checked-set" (the
    same with a network that also knows the set's sizes, asks where it sees no drink, and names
    what it leaves unsure where it is sure of the piece) or
    "checked-sure" (the rules, unsure where a learned sureness over that network's and the
    rules' signals doubts them: vision/sure.py); DEFAULT_SCORER when not given."""
    hook = scorer_hook(scorer)
    an = analyse(image, profile)
    found = identify_analysis(an, profile, hook)
    if not debug:
        for d in found:
            d.pop("_f", None)
            d.pop("_why", None)
            d.pop("_fitted", None)
            d.pop("_second", None)
    return found
