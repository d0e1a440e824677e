"""Step 3 of reading a photo (READING.md): a blob that is not one drink is cut into pieces
by a watershed and the pieces are joined again, greedily, while joining fits drinks better
than the price of one more drink; pieces of plainly different colours are never joined, and a
piece that plainly is a drink takes on no neighbour that spoils it (``spoils``)."""
from __future__ import annotations

import cv2
import numpy as np

from .classify import distances
from .faint import fill_from_nearest, is_shade
from .features import LUMA, Region, measure, measure_pixels
from .fit import REFIT_MIN
from .piece_colour import darkest, plain_colour
from .profile import Profile
from .segment import Analysis, reference
from .selection import byte_percentile, column_medians, pixels_by_label, pixels_where


def drink_cost(f: dict | None, profile: Profile) -> tuple[float, dict | None]:
    """How badly a region fits the best single drink (squared normalised distance)."""
    if f is None:
        return 400.0, None
    _, _, dc, ds = distances(f, profile)
    return float((np.minimum(dc, 100.0) + np.minimum(ds, 300.0)).min()), f


SHADE_TINT = 15.0   # levels: how far a part's colour may stray from the tray's own, dimmed, and still be shade
LIGHT_TRAY = 100.0  # tray luma above which a part darker than the tray may still be a drink


def above_tray(view: np.ndarray, tray: np.ndarray, px: np.ndarray) -> bool:
    """Are these pixels (``px`` of a relit crop ``view``; ``tray`` the empty tray's BGR there)
    a pale drink's part rather than shade? Brighter than the tray, or, on a light tray, of
    another hue: shade only dims the tray's own colour, while a mint neck turned from the
    light is darker than a lilac tray and still mint. (On a dark tray a part darker than
    it is a dark drink's or shade, and its hue is mostly noise.)

    >>> tray = np.full((1, 2, 3), 180.0)
    >>> above_tray(np.array([[[120., 120., 120.], [155., 160., 124.]]]), tray, np.array([[True, False]]))
    False
    >>> above_tray(np.array([[[120., 120., 120.], [155., 160., 124.]]]), tray, np.array([[False, True]]))
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
    if f is not None and drink_cost(f, profile)[0] < FITS_ALONE:
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
            if lost_area[j] >= max(40, 0.08 * min_area) and above_tray(roi, tray, part):
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
            cache[key] = (*drink_cost(f_, profile), at)
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
