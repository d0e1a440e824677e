"""A second look at drinks whose measured outline fits no drink (or runs on past the drink it
looks like: a drink with a neighbour's end or shade): fit the calibrated outlines.

The features in ``features.py`` come from a piece's own pixels. When drinks touch, or a white
drink's shaded shoulder reads as tray, a piece is cut short, carries part of a neighbour, or
holds two drinks of one colour, and its length and width profile then match nothing. Here
the question is turned round: which calibrated drink, laid at some position and angle,
explains the pixels around the piece best?

Each pixel near the piece votes for or against a placed outline:

* the piece's own pixels: +1 inside the outline, and each one left outside costs 1 (the
  outline must explain the piece);
* pixels of another piece of the same colour that is itself unsure (a fragment of this
  drink, most likely), or that an outline placed before left over (a white bottle's neck
  carried by the piece of the white bottle beside it): +1;
* pixels of a drink of another colour, or of a drink read with confidence: -1.5 (drinks do
  not overlap);
* pixels segmented as drink that no reading owns (a black bottle's face catching the light,
  too small and of no colour to be a drink, and dropped in the splitting): +0.5;
* plain tray: -1; pixels that differ from the tray a little or look like shadow: -0.35
  (a white drink in its own shade on a light tray looks just like that).

Each shape of the piece's colour is placed where it collects the most votes (from the
piece's ends, along its axis, and in a piece smaller than any drink along its straight
edges too; in a piece too large for one drink also anywhere, along each of its straight
edges). A shape that wins the vote by far is taken. Otherwise the
well-placed outlines are judged by what they cut out: measured with the ordinary features,
the cut must look like that drink (``fit_piece``). No clear winner: the drink stays unsure.
An outline must cover most of the piece, but not the piece's faint pixels (that differ from
the tray no more than a shadow does): the shade in the angle between drinks, carried along by
a piece, is no part of the drink. What the outline does not cover of a large piece is fitted
again (two drinks of one colour side by side).

When no outline fits, or the best leaves a drink's worth of the piece unexplained, the piece
may be two drinks of one colour touching end to end (a short can against a stubby one reads
as one long drink): each shape is laid from either end of the piece, the second drink is
fitted to what it leaves, the first again to what the second leaves, and the pair is taken
when it explains the piece clearly better than one drink (``fit_pair``).

Placing an outline where the votes are is ``placing.py``'s job.

Outlines come from calibration (``outline`` in each drink's record: its width at 24 points
along its length, wide end first); a profile without them skips this step.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..drinks import SHAPES
from .classify import blur_inflation, distances
from .features import Region, measure, size_factor
from .outline import STEP, outlines
from .placing import OTHER, Placement, Window, principal_axis

AMBIGUOUS = -0.35          # vote of a pixel that might be drink or shadow
UNOWNED = 0.5              # vote of a pixel segmented as drink that no reading owns
EXPLAINED_MIN = 0.25       # mean vote inside an outline worth measuring
COVERED_MIN = 0.7          # share of the piece inside the accepted outline
VOTE_DEFICIT = 120.0       # judged distance added per vote per pixel an outline trails the best-voted one
VOTE_MARGIN = 0.18         # votes per outline pixel by which one shape alone decides
JUDGE_MAX = 40.0           # squared normalised shape distance of an acceptable cut
JUDGE_PLAUSIBLE = 90.0     # ... of the other cut, which must merely not contradict
JUDGE_MARGIN = 5.0         # by which the best cut must beat the next (a likelihood ratio of 12)
OUTLIER_COLOUR_FIT = 60.0   # colour distance beyond which a strict cut is not this colour
FAINT_SHARE = 0.85         # below this share of segmented pixels a cut is judged loosely only
LOOSE_ALONE = 10.0         # ... if it is barely brighter than the tray, or its loose cut is this close
OVERLAP_MAX = 0.25         # share of an outline on other drinks beyond which it is not judged
REFIT_MIN = 0.3            # share of the smallest drink a piece needs for a second look
PARTIAL = 1.0              # ... below which outlines are tried along its straight edges too
PAIR_GAIN = 0.1            # votes per pixel by which two drinks end to end must beat one
PAIR_TRIES = 3             # pairs (by votes) whose second drink is fitted and judged
PAIR_COVERED = 0.85        # share of the piece the pair must cover
PAIR_AREA = 1.5            # a piece smaller than this many of the smallest drink holds no pair


def fit_piece(window: Window, colour: str, table: dict, judge) -> tuple[Placement, float] | None:
    """The drink of this colour whose placed outline explains the piece, and its margin.

    Each shape's outline is placed where it collects the most votes. If one shape wins the
    vote by far, it is taken. Otherwise each well-placed outline cuts the pixels it would own
    and ``judge(mask, shape)`` measures the cut with the ordinary features (a square
    bottle's flat face, a bottle's neck and shoulder must show in the pixels, not merely fit
    an outline), raised by how far the outline trails in the vote. Two cuts are judged: a
    loose one that also takes the pixels that might be shadow (a white drink's shaded part),
    and a strict one of the segmented pixels only (so an outline cannot make the cut look
    like itself). Both must name the same drink. None when no shape is clearly best or the
    best does not cover the piece."""
    placed = sorted((window.best(table[(colour, s.value)]) for s in SHAPES), key=lambda p: -p.score)
    top = placed[0]
    n_top = max(1.0, float(np.count_nonzero(top.inside)))
    vote_margin = (top.score - placed[1].score) / n_top
    if vote_margin >= VOTE_MARGIN and top.explained >= 0.6 and (top.covered >= 0.85 or window.crowded):
        # one outline explains the pixels far better than any other (a stubby can among
        # long drinks): the votes decide
        return top, JUDGE_MARGIN + vote_margin * 10
    verdicts = []
    for strict in (False, True):
        judged = []
        for p in placed:
            if p.explained < EXPLAINED_MIN or p.overlap > OVERLAP_MAX or not (
                    p.covered >= COVERED_MIN or (window.crowded and p.explained >= 0.75)):
                continue    # (drinks do not overlap: a rim between neighbours' edges is no drink)
            d = judge(_cut(window, p, strict), window.x0, window.y0, p.outline.shape, strict)
            if d is not None:
                # any outline's cut looks somewhat like that outline (a can's outline on a
                # bottle's body cuts a can): the cuts are weighed with how far the outline
                # trails in the votes, which see the whole piece and its rim
                judged.append((d + VOTE_DEFICIT * (top.score - p.score) / n_top, p))
        if not judged:
            return None
        judged.sort(key=lambda dp: dp[0])
        margin = (judged[1][0] - judged[0][0]) if len(judged) > 1 else JUDGE_MARGIN * 2
        verdicts.append((judged[0][1], margin, judged[0][0], judged[0][0] <= JUDGE_MAX and margin >= JUDGE_MARGIN))
    (loose, m_loose, d_loose, ok_loose), (strict, m_strict, d_strict, ok_strict) = verdicts
    plainly = d_loose <= LOOSE_ALONE and m_loose >= 2 * JUDGE_MARGIN
    if ok_loose and (window.brighter or plainly) and _segmented_share(window, loose) < FAINT_SHARE:
        # a drink barely brighter than the tray (white on a light one): its strict cut lacks
        # whole parts (a neck, a cap), so only the loose cut can be judged. Not so a drink
        # darker than the tray, whose loose cut takes in its shadow, unless that cut is the
        # drink's almost exactly and by far (a black square bottle whose face is the tray's
        # colour, on a dark tray)
        return loose, m_loose
    # one cut must be convincing and the other at least plausible
    if loose.outline.shape != strict.outline.shape or not (
            (ok_loose and d_strict <= JUDGE_PLAUSIBLE) or (ok_strict and d_loose <= JUDGE_PLAUSIBLE)):
        return None
    return loose, max(m_loose, m_strict)


def fit_pair(window: Window, colour: str, table: dict, judge, one: float) -> list[tuple[Placement, float]] | None:
    """Two drinks of this colour touching end to end or side by side, when they explain the
    piece better than one drink (of votes ``one``) plus the price of a drink: a short can
    against a stubby one reads as one long drink, which no outline covers.

    The first drink is laid from either end of the piece, each shape in turn, and the pairs
    are ranked by the votes of that drink with the best-voted outline in what it leaves
    (placed roughly: this ranking is most of the work). For
    the best few, the second drink is fitted to what the first leaves as any piece is
    (``fit_piece``: by a clear vote or by its cut), then the first again to what the second
    leaves; the pair must beat the single outline by PAIR_GAIN votes per pixel and cover
    the piece."""
    shapes = [s.value for s in SHAPES]
    ranked = []
    for first in (window.best_at_end(table[(colour, s)], end) for s in shapes for end in (0, 1)):
        rest = window.without(first)
        if rest is None:
            continue
        second = max((rest.best(table[(colour, s)], refine=False) for s in shapes), key=lambda p: p.score)
        ranked.append((_pair_votes(window, first, second), first, rest))
    ranked.sort(key=lambda r: -r[0])
    for _votes, first, rest in ranked[:PAIR_TRIES]:
        second = fit_piece(rest, colour, table, judge)
        if second is None:
            continue
        # the first drink was laid by votes alone: it too must fit what its partner leaves
        rest = window.without(second[0])
        first = None if rest is None else fit_piece(rest, colour, table, judge)
        if first is None:
            continue
        both = first[0].inside | second[0].inside
        gain = (_pair_votes(window, first[0], second[0]) - one) / max(1.0, float(np.count_nonzero(both)))
        shade_left = float(np.count_nonzero(window.faint_target & ~both))
        covered = float(np.count_nonzero(window.target & both)) / max(window.n_target - shade_left, 1.0)
        if gain >= PAIR_GAIN and covered >= PAIR_COVERED:
            return [first, second]
    return None


def _pair_votes(window: Window, a: Placement, b: Placement) -> float:
    """The votes of two placed outlines together (their rims included)."""
    return float(window.weights @ (a.inside | b.inside)) - window.n_target + a.edge + b.edge


def _segmented_share(window: Window, p: Placement) -> float:
    """Of the pixels a placed outline would own loosely, the share segmented as drink."""
    cut = _cut(window, p, False) > 0
    loose = np.count_nonzero(cut)
    return np.count_nonzero(cut & window.strict) / loose if loose else 1.0     # the strict pixels lie among the loose


def _cut(window: Window, p: Placement, strict: bool) -> np.ndarray:
    """The pixels a placed outline would own: inside it, all but plain tray and other drinks
    (loose), or only the pixels segmented as drink (strict)."""
    cut = window.owned(p).astype(np.uint8) * 255
    cut[~(window.strict if strict else window.allowed)] = 0
    return cut


def refit(found: list[dict], an, profile, min_area: float, max_area: float) -> list[dict]:
    """Replace unsure readings whose outline fits no drink, or is too long for the drink it
    looks like, by fitted outlines where one fits clearly (see the module text). ``found``:
    detections with their region (``_r``), features (``_f``) and centroid (``cx``, ``cy``) in
    working pixels; returns the new list."""
    table = outlines(profile)
    todo = [k for k, d in enumerate(found) if d["unsure"] and d.get("_outline_bad")]
    if table is None or not todo or an.clear_tray is None or an.faint is None:
        return found
    H, W = an.mask.shape
    owner = np.zeros((H, W), np.int32)          # k + 1 for the pixels of detection k
    for k, d in enumerate(found):
        r = d["_r"]
        h, w = r.mask.shape
        owner[r.y0:r.y0 + h, r.x0:r.x0 + w][r.mask > 0] = k + 1
    claimed = np.zeros((H, W), np.uint8)        # pixels of the drinks placed here
    dropped: set[int] = set()
    added: list[dict] = []
    longest = float(max(o.length for o in table.values()))
    for k in sorted(todo, key=lambda k: -found[k]["_f"]["area"]):
        if k in dropped:
            continue
        colour = found[k]["color"]
        judge = _judge(an, profile, colour)
        placed_any = False
        for _attempt in range(3):           # a group of one colour: one drink at a time
            target = (owner == k + 1) & (claimed == 0)
            ys, xs = np.nonzero(target)
            if len(xs) < REFIT_MIN * min_area:
                break
            win = _window(found, dropped, owner, claimed, an, colour, target, xs, ys, longest)
            win.crowded = len(xs) > 1.3 * max_area
            win.partial = len(xs) < PARTIAL * min_area
            here = outlines(profile, size_factor(an.size_field, float(xs.mean()), float(ys.mean()), an.mask.shape))
            got = fit_piece(win, colour, here, judge)
            fitted = [got] if got is not None else []
            if _attempt == 0 and len(xs) >= PAIR_AREA * min_area and (
                    got is None or _leaves(win, got[0], an.faint, 0.5 * min_area)):
                # one outline leaves part of the piece unexplained: two drinks pressed together?
                pair = fit_pair(win, colour, here, judge, got[0].score if got else _best_score(win, colour, here))
                fitted = pair or fitted
            if not fitted:
                break
            for placed, margin in fitted:
                polygon = win.polygon(placed)
                cv2.fillPoly(claimed, [polygon], 1)
                added.append(_reading(found[k], colour, placed.outline.shape, placed.cx, placed.cy,
                                      round(min(0.99, 1.0 - 0.5 * math.exp(-margin / 2)), 3), "outline fitted",
                                      piece=_polygon_piece(polygon, H, W)))
            # unsure fragments of this colour that the outlines cover were parts of these drinks
            for j, other in enumerate(found):
                if j != k and j not in dropped and other["color"] == colour and other["unsure"]:
                    mine = owner == j + 1
                    n = np.count_nonzero(mine)
                    if n and np.count_nonzero(mine & (claimed > 0)) >= 0.6 * n:
                        dropped.add(j)
            placed_any = True
        if placed_any:
            dropped.add(k)
            left = (owner == k + 1) & (claimed == 0) & ~an.faint    # what is faint of it was shade
            ys, xs = np.nonzero(left)
            if len(xs) >= 0.5 * min_area:      # more is there, but no outline fits it: ask
                added.append(_reading(found[k], colour, found[k]["shape"], float(xs.mean()), float(ys.mean()),
                                      0.3, "part of a group that fits no drink", unsure=True))
    return [d for k, d in enumerate(found) if k not in dropped] + added


def _leaves(window: Window, p: Placement, faint: np.ndarray, area: float) -> bool:
    """Does the placed outline leave at least ``area`` px of the piece that are not faint?"""
    inside = window.owned(p)
    h, w = inside.shape
    left = window.target_full & ~inside & ~faint[window.y0:window.y0 + h, window.x0:window.x0 + w]
    return np.count_nonzero(left) >= area


def _best_score(window: Window, colour: str, table: dict) -> float:
    """The votes of the best single outline of this colour (the window keeps its placements)."""
    return max(window.best(table[(colour, s.value)]).score for s in SHAPES)


def _reading(d: dict, colour: str, shape: str, cx: float, cy: float, confidence: float, why: str,
             unsure: bool = False, piece: Region | None = None) -> dict:
    # (_fitted: its features are those of the piece it replaced, not of the outline: a naming
    # from features, as vision/learned.py's, leaves such a reading as the outline named it;
    # _piece: the placed outline's pixels, for a naming from pixels, pixel_scorer.py)
    out = {"color": colour, "shape": shape, "cx": cx, "cy": cy, "confidence": confidence, "unsure": unsure,
           "_why": why, "_f": {**d["_f"], "cx": cx, "cy": cy}, "_fitted": True}
    if piece is not None:
        out["_piece"] = piece
    return out


def _polygon_piece(polygon: np.ndarray, height: int, width: int) -> Region | None:
    """A placed outline's polygon (frame pixels) as a Region of its own box (None: off the frame)."""
    pts = np.asarray(polygon).reshape(-1, 2)
    x0, y0 = max(int(np.floor(pts[:, 0].min())), 0), max(int(np.floor(pts[:, 1].min())), 0)
    x1, y1 = min(int(np.ceil(pts[:, 0].max())) + 1, width), min(int(np.ceil(pts[:, 1].max())) + 1, height)
    if x1 <= x0 or y1 <= y0:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(pts - (x0, y0)).astype(np.int32)], 255)
    return Region(mask, x0, y0)


def _judge(an, profile, colour: str):
    """judge(cut, x0, y0, shape, strict): how far the cut's measured outline is from that drink
    (None: nothing to measure, or a strict cut of another colour)."""
    inflate = blur_inflation(an.sharpness) ** 2

    def judge(cut, x0, y0, shape, strict=False):
        f = measure(Region(cut, x0, y0), an)
        if f is None:
            return None
        cols, shps, dc, ds = distances(f, profile)
        ci = cols.index(colour)
        # the colour was read from the piece; a loose cut may hold tray-coloured pixels (where
        # the drink looked like tray), so it is judged by its shape, but a cut of drink pixels
        # that is plainly another colour (a neighbour's) is no reading of this drink
        if strict and dc[ci].min() > min(float(dc.min()) + 10.0, OUTLIER_COLOUR_FIT):
            return None
        return float(ds[ci, shps.index(shape)] / inflate)

    return judge


def _window(found, dropped, owner, claimed, an, colour, target, xs, ys, longest) -> Window:
    """The votes around a piece for a drink of ``colour`` (see the module text)."""
    H, W = owner.shape
    # an outline reaches past the piece by at most what the piece lacks of the longest drink
    extent = math.hypot(float(xs.max() - xs.min()), float(ys.max() - ys.min()))
    reach = int(min(longest * 0.6, max(10.0, longest - extent + 10.0)))
    x0, y0 = max(0, int(xs.min()) - reach), max(0, int(ys.min()) - reach)
    x1, y1 = min(W, int(xs.max()) + reach + 1), min(H, int(ys.max()) + reach + 1)
    own = owner[y0:y1, x0:x1]
    by_owner = np.full(len(found) + 1, OTHER, np.float32)
    for j, other in enumerate(found):
        if other["color"] == colour and (other["unsure"] or j in dropped):
            by_owner[j + 1] = 1.0
    votes = by_owner[own]
    tray = an.clear_tray[y0:y1, x0:x1]
    free = own == 0
    votes[free] = np.where(tray[free], -1.0, AMBIGUOUS)
    votes[free & (an.mask[y0:y1, x0:x1] > 0)] = UNOWNED
    votes[claimed[y0:y1, x0:x1] > 0] = OTHER
    centre, axis = principal_axis(xs, ys)
    loose = (votes > OTHER) & ~(free & tray)
    win = Window(votes, target[y0:y1, x0:x1], x0, y0, centre, axis, loose, votes > 0,
                 _gradient(an, x0, y0, x1, y1, tray))
    win.faint_target = (target[y0:y1, x0:x1] & an.faint[y0:y1, x0:x1])[::STEP, ::STEP].ravel()
    view = an.small[y0:y1, x0:x1].sum(axis=2)
    if np.count_nonzero(tray) > 50:
        win.brighter = float(np.median(view[target[y0:y1, x0:x1]])) > float(np.median(view[tray]))
    return win


def _gradient(an, x0: int, y0: int, x1: int, y1: int, tray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The steepest channel's gradient of the corrected view, in units of the tray's own
    texture (its median gradient where the tray is plainly clear): comparable between a light
    and a dark tray, a sharp and a blurred frame."""
    view = an.small[y0:y1, x0:x1] / an.gain[y0:y1, x0:x1]
    view = cv2.GaussianBlur(view, (3, 3), 0.8)
    gx = cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3)
    mag = gx * gx + gy * gy
    pick = np.argmax(mag, axis=2)[..., None]
    gx = np.take_along_axis(gx, pick, axis=2)[..., 0]
    gy = np.take_along_axis(gy, pick, axis=2)[..., 0]
    tex = np.sqrt(np.take_along_axis(mag, pick, axis=2)[..., 0])
    level = float(np.median(tex[tray])) if np.count_nonzero(tray) > 50 else float(np.median(tex))
    level = max(level, 1.0)
    return gx / level, gy / level
