"""Finding and naming the drinks in a photo of the tray.

1.-2. The lighting of the moment and the drink pixels (segment.py).
3. Splitting: a blob that is not one drink (too big, or a poor fit to every shape) is cut
   along colour boundaries and the dark valleys between touching cylinders, then along
   the cut that leaves pieces each of which looks like a drink.
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
(The steps are those of docs/vision.md.)
"""
from __future__ import annotations

import cv2
import numpy as np

from .classify import OUTLIER_COLOUR, classify, distances
from .components import components_with_stats
from .features import LUMA, Region, measure, measure_pixels
from .faint import fill_from_nearest, is_shade, split_at_faint, trimmed_if_better
from .fit import REFIT_MIN, refit
from .piece_colour import darkest, plain_colour
from .selection import byte_percentile, column_medians, pixels_by_label, pixels_where
from .profile import Profile
from .repeats import doubt_repeats
from .segment import Analysis, analyse, reference

# --- regions and splitting ----------------------------------------------------------------------

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


def _cost(f: dict | None, profile: Profile) -> tuple[float, dict | None]:
    """How badly a region fits the best single drink (squared normalised distance)."""
    if f is None:
        return 400.0, None
    _, _, dc, ds = distances(f, profile)
    return float((np.minimum(dc, 100.0) + np.minimum(ds, 300.0)).min()), f


def identify_analysis(an: Analysis, profile: Profile) -> list[dict]:
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
        d.pop("_r", None)
        d.pop("_outline_bad", None)
        out.append({"color": d["color"], "shape": d["shape"],
                    "x": round((cx + 0.5) * scale - 0.5, 1), "y": round((cy + 0.5) * scale - 0.5, 1),
                    **{k: v for k, v in d.items() if k not in ("color", "shape")}})
    return doubt_repeats(out)


JOIN_GAP = 9          # px: how far a part cut off a drink by a faint stretch may lie from it
CUT_OFF_PART = 0.6   # ... and below this share of the smallest drink


def _found(piece: Region, f: dict, c: dict) -> dict:
    """A reading as identify_analysis keeps it until the end (with its piece and features)."""
    return {"color": c["color"], "shape": c["shape"], "cx": f["cx"], "cy": f["cy"], "confidence": c["confidence"],
            "unsure": bool(c["unsure"]), "_why": c["why"], "_f": f, "_r": piece,
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
        if not _above_tray(an.small[box] / an.gain[box], tray[box], r.mask > 0):
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
            apart = _cost(body["_f"], profile)[0] + _cost(part["_f"], profile)[0] + SPLIT_PENALTY
            if _cost(f, profile)[0] < apart:
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


SHADE_TINT = 15.0   # levels: how far a part's colour may stray from the tray's own, dimmed, and still be shade
LIGHT_TRAY = 100.0  # tray luma above which a part darker than the tray may still be a drink


def _above_tray(view: np.ndarray, tray: np.ndarray, px: np.ndarray) -> bool:
    """Are these pixels (``px`` of a relit crop ``view``; ``tray`` the empty tray's BGR there)
    a pale drink's part rather than shade? Brighter than the tray, or, on a light tray, of
    another hue: shade only dims the tray's own colour, while a mint neck turned from the
    light is darker than a lilac tray and still mint. (On a dark tray a part darker than
    it is a dark drink's or shade, and its hue is mostly noise.)

    >>> tray = np.full((1, 2, 3), 180.0)
    >>> _above_tray(np.array([[[120., 120., 120.], [155., 160., 124.]]]), tray, np.array([[True, False]]))
    False
    >>> _above_tray(np.array([[[120., 120., 120.], [155., 160., 124.]]]), tray, np.array([[False, True]]))
    True
    """
    v, t = column_medians(pixels_where(view, px)), column_medians(pixels_where(tray, px))
    if v @ LUMA > t @ LUMA:
        return True
    if t @ LUMA < LIGHT_TRAY:
        return False
    dim = float(v @ t) / max(float(t @ t), 1e-6)     # the tray dimmed to match the part
    return bool(np.abs(v - dim * t).max() > SHADE_TINT)


SPLIT_PENALTY = 10.0     # cost of one more drink in a blob (keeps a drink from being cut in two)
FITS_ALONE = 25.0        # a region's cost (colour + shape) below which it is one drink as it stands
FITS_CLEARLY = 8.0       # a group's cost below which it is plainly a drink as it stands ...
JOIN_WORSE = 12.0        # ... and takes on no piece that raises its cost by more than this
SHADE_AREA = 0.5         # a piece of the darkest colour, or only relit, below this share of the smallest drink is shade


def split(region: Region, an: Analysis, profile: Profile) -> list[tuple[Region, dict | None]]:
    """One region -> drinks: keep it when it fits one drink, else cut and re-merge by fit."""
    max_area = profile.stats.get("max_area", 1e9)
    min_area = profile.stats.get("min_area", 0)
    # a region larger than any drink is not measured unless it stays whole (measuring costs
    # time in proportion to the pixels)
    f = measure(region, an) if region.area <= 1.2 * max_area else None
    if f is not None and _cost(f, profile)[0] < FITS_ALONE:
        return [(region, f)]

    def whole():
        return [(region, f if f is not None else measure(region, an))]

    if region.area < 0.5 * min_area:
        return whole()
    m = region.mask
    h, w = m.shape
    y0, x0 = region.y0, region.x0
    roi = an.small[y0:y0 + h, x0:x0 + w] / an.gain[y0:y0 + h, x0:x0 + w]
    img8 = np.minimum(np.maximum(roi, 0), 255).astype(np.uint8)
    # internal edges: boundaries between drinks are steep (a colour change, or the dark
    # silhouettes of two cylinders side by side)
    b, g, r = cv2.split(cv2.morphologyEx(img8, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)))
    grad = cv2.max(cv2.max(b, g), r)          # (numpy's max across the channels takes ten times as long)
    inside = cv2.erode(m, np.ones((3, 3), np.uint8)) > 0
    if inside.sum() < 20:
        return whole()
    thr = max(byte_percentile(pixels_where(grad, inside), 65), 12.0)
    interior = (inside & (grad < thr)).astype(np.uint8)
    interior = cv2.morphologyEx(interior, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, markers = cv2.connectedComponents(interior)
    if n <= 2:
        return whole()
    counts = np.bincount(markers.ravel(), minlength=n)
    small_m = counts < max(8, 0.03 * min_area)
    small_m[0] = False
    markers[small_m[markers]] = 0
    markers = markers.astype(np.int32)
    bgmark = n  # outside the region
    markers[m == 0] = bgmark
    cv2.watershed(img8, markers)
    labels = [i for i in range(1, n) if not small_m[i]]
    if len(labels) <= 1:
        return whole()
    lab = markers.copy()
    lab[(lab == -1) | (m == 0)] = 0
    lab[lab == bgmark] = 0
    # what the flood from outside took is a piece of its own when it is big enough to be part of
    # a drink and brighter than the tray there (a pale bottle's neck and cap, beyond a faint
    # shoulder), for the joining below to place; what is darker is most likely shadow, and it,
    # watershed lines and thin leftovers go to the nearest piece
    lost = cv2.morphologyEx(((markers == bgmark) & (m > 0)).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    nl, lost_lab = cv2.connectedComponents(lost, connectivity=4)
    if nl > 1:
        lost_area = np.bincount(lost_lab.ravel(), minlength=nl)     # (faster than OpenCV's statistics)
        tray = reference(profile)["bg"][y0:y0 + h, x0:x0 + w]
        for j in range(1, nl):
            part = lost_lab == j
            if lost_area[j] >= max(40, 0.08 * min_area) and _above_tray(roi, tray, part):
                lab[part] = bgmark + j
                labels.append(bgmark + j)
    fill_from_nearest(lab, m > 0)
    # each piece as its pixels (flat indices into the crop, in scan order): a group's pixels
    # are its pieces' merged, measured without drawing them in a mask and finding them again
    at_of = pixels_by_label(lab)
    pieces = {i: at_of[i] for i in labels if i in at_of}
    roi_px = roi.reshape(-1, 3)
    cache: dict[frozenset, tuple[float, dict | None, np.ndarray]] = {}

    def cost_of(key: frozenset):
        if key not in cache:
            at = pieces[next(iter(key))] if len(key) == 1 else np.sort(np.concatenate([pieces[i] for i in key]))
            f_ = measure_pixels(np.column_stack((at % w, at // w)), np.take(roi_px, at, axis=0), x0, y0, an)
            cache[key] = (*_cost(f_, profile), at)
        return cache[key]

    groups = [frozenset([i]) for i in pieces]
    # the pieces each piece comes within 2 px of (looked for in its bounding box, 2 px wider)
    k5 = np.ones((5, 5), np.uint8)
    near = {}
    for i, at in pieces.items():
        cols = at % w          # (``at`` is in scan order: its first and last give the rows)
        box = np.s_[max(int(at[0] // w) - 2, 0):int(at[-1] // w) + 3, max(int(cols.min()) - 2, 0):int(cols.max()) + 3]
        around = cv2.dilate((lab[box] == i).astype(np.uint8), k5) > 0
        # (the labels present, by counting: np.unique hashes them, at ten times the cost)
        near[i] = set(np.flatnonzero(np.bincount(pixels_where(lab[box], around))).tolist())

    def adjacent(g1, g2):
        return any(j in near[i] for i in g1 for j in g2)

    # each piece's colour: pieces that are clearly of different colours are different drinks
    read = {i: plain_colour(np.take(roi_px, at, axis=0), profile) for i, at in pieces.items()}
    piece_colour = {i: c for i, (c, _, _) in read.items()}
    relit_only = {i for i, (_, relit, _) in read.items() if relit}
    likely = {i: cs for i, (_, _, cs) in read.items()}

    def colour_of(g):
        cs = {piece_colour[i] for i in g} - {None}
        return cs

    def colours_likely(g):
        # a group of no plain colour that fits a drink on its own (a white can on a table
        # whose white and mint look alike) is still plainly not black: what it may be counts
        cs = colour_of(g)
        if cs or not all(likely[i] for i in g) or cost_of(g)[0] >= FITS_ALONE:
            return cs
        return set().union(*(likely[i] for i in g))

    def same_colour(g1, g2):
        c1, c2 = colours_likely(g1), colours_likely(g2)
        return not c1 or not c2 or bool(c1 & c2)

    # greedy: join the neighbouring pair whose union fits a drink best, while that pays
    for _ in range(len(groups) * 2):
        if len(groups) <= 1:
            break
        pairs = [(g1, g2) for a_i, g1 in enumerate(groups) for g2 in groups[a_i + 1:]
                 if adjacent(g1, g2) and same_colour(g1, g2)]
        best = _best_join(pairs, cost_of)
        if best is None or best[0] <= 0:
            break
        _, g1, g2 = best
        groups = [g for g in groups if g not in (g1, g2)] + [g1 | g2]
    # pieces of the darkest colour, or of a colour only relit, too small to be a drink
    # are the shade between the drinks of the blob (kept apart from them now that their
    # colours are told apart), not drinks
    shade = {darkest(profile)}
    out = []
    for g in groups:
        _, f_, at = cost_of(g)
        pm = np.zeros(m.shape, np.uint8)      # (C order: its flat view is the crop's scan order)
        pm.ravel()[at] = 255
        if len(groups) > 1 and (colour_of(g) == shade or g <= relit_only) and np.count_nonzero(pm) < SHADE_AREA * min_area:
            # ... unless it is not faint, as shade is: of a black bottle on a dark tray only
            # the neck and cap may be segmented, which the second look can fit; if it does
            # not, the piece is dropped after all
            part = Region(pm, x0, y0, shade_like=True)
            if g <= relit_only or part.area < REFIT_MIN * min_area or is_shade(part, an, min_area):
                continue
            out.append((part, f_))
            continue
        out.append((Region(pm, x0, y0), f_))
    return out


def spoils(a: float, b: float, union: float) -> bool:
    """Would joining two groups of costs ``a`` and ``b`` into one of cost ``union`` spoil a
    drink? A group that is plainly a drink as it stands (cost below FITS_CLEARLY) takes on no
    neighbour that makes it fit clearly worse (by more than JOIN_WORSE). On a dark tray the
    shade closed in between drinks is as dark as a black drink's body: a black stubby can
    joined with the wedge of shade beside it fits a bottle, poorly but better than the two
    apart with a drink's price paid for the wedge, and was read as that bottle.

    >>> spoils(3.0, 247.8, 24.9)     # a black stubby can and the shade beside it
    True
    >>> spoils(24.5, 300.0, 6.6)     # a bottle's body, no drink alone, and its neck
    False
    >>> spoils(4.0, 300.0, 9.0)      # a body that fits a can, and the neck that makes it a bottle
    False
    """
    good = min(a, b)
    return good < FITS_CLEARLY and union > good + JOIN_WORSE


def _best_join(pairs: list[tuple[frozenset, frozenset]], cost_of) -> tuple[float, frozenset, frozenset] | None:
    """Of these pairs of groups, the one whose joining gains most (their costs and one drink's
    SPLIT_PENALTY, less the union's cost), the first listed of equals; None when there is none.

    A union costs at least nothing, so a pair gains at most its own costs and the penalty: the
    pairs are tried from that bound down, and a union that could not beat the best so far is
    never measured (measuring is most of the splitting's time). A pair whose union would
    spoil a plain drink (``spoils``) is passed over."""
    bound = [cost_of(g1)[0] + cost_of(g2)[0] + SPLIT_PENALTY for g1, g2 in pairs]
    best, best_k = None, -1
    for k in sorted(range(len(pairs)), key=lambda k: -bound[k]):
        if best is not None and bound[k] < best[0]:
            break
        g1, g2 = pairs[k]
        union = cost_of(g1 | g2)[0]
        if spoils(cost_of(g1)[0], cost_of(g2)[0], union):
            continue
        gain_ = bound[k] - union
        if best is None or gain_ > best[0] or (gain_ == best[0] and k < best_k):
            best, best_k = (gain_, g1, g2), k
    return best


def identify(image: np.ndarray, profile: Profile, debug: bool = False) -> list[dict]:
    """The drinks in one frame: color, shape, x, y (centroid, frame pixels), confidence, unsure."""
    an = analyse(image, profile)
    found = identify_analysis(an, profile)
    if not debug:
        for d in found:
            d.pop("_f", None)
            d.pop("_why", None)
    return found
