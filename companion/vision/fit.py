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
* plain tray: -1; pixels that differ from the tray a little or look like shadow: -0.35
  (a white drink in its own shade on a light tray looks just like that).

Each shape of the piece's colour is placed where it collects the most votes (from the
piece's ends, along its axis; in a piece too large for one drink also anywhere, along each
of its straight edges). A shape that wins the vote by far is taken. Otherwise the
well-placed outlines are judged by what they cut out: measured with the ordinary features,
the cut must look like that drink (``fit_piece``). No clear winner: the drink stays unsure.
An outline must cover most of the piece, but not the piece's faint pixels (that differ from
the tray no more than a shadow does): the shade in the angle between drinks, carried along by
a piece, is no part of the drink. What the outline does not cover of a large piece is fitted
again (two drinks of one colour side by side).

Outlines come from calibration (``outline`` in each drink's record: its width at 24 points
along its length, wide end first); a profile without them skips this step.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..drinks import SHAPES
from .classify import blur_inflation, distances
from .features import Region, measure, size_factor
from .outline import STEP, Outline, outlines, template

AMBIGUOUS = -0.35          # vote of a pixel that might be drink or shadow
OTHER = -1.5               # vote of a pixel that belongs to another drink
EXPLAINED_MIN = 0.3        # mean vote inside an outline worth measuring
COVERED_MIN = 0.7          # share of the piece inside the accepted outline
VOTE_DEFICIT = 120.0       # judged distance added per vote per pixel an outline trails the best-voted one
VOTE_MARGIN = 0.18         # votes per outline pixel by which one shape alone decides
JUDGE_MAX = 40.0           # squared normalised shape distance of an acceptable cut
JUDGE_PLAUSIBLE = 90.0     # ... of the other cut, which must merely not contradict
JUDGE_MARGIN = 6.0         # by which the best cut must beat the next (a likelihood ratio of 20)
OUTLIER_COLOUR_FIT = 60.0   # colour distance beyond which a strict cut is not this colour
FAINT_SHARE = 0.85         # below this share of segmented pixels a cut is judged loosely only
EDGE_WEIGHT = 6.0          # votes per boundary sample for lying on an edge (or against lying on none)
EDGE_HALF = 3.0            # an edge this many times the tray's own texture counts half


@dataclass
class Placement:
    outline: Outline
    score: float           # votes, with the piece's uncovered pixels counted against it
    explained: float       # mean vote inside the outline
    covered: float         # share of the piece inside the outline; its faint pixels outside do not
                           # count (shade beside a drink is no part of it)
    inside: np.ndarray     # bool over the window's sampled pixels
    cx: float
    cy: float
    pose: tuple = (0.0, 1, 0.0, 0.0)   # angle offset, direction, start along, offset across


class Window:
    """The pixels around one piece, sampled every STEP px, with their votes for one colour."""

    def __init__(self, votes: np.ndarray, target: np.ndarray, x0: int, y0: int, centre: tuple[float, float],
                 axis: tuple[float, float], allowed: np.ndarray, strict: np.ndarray,
                 gradient: tuple[np.ndarray, np.ndarray] | None = None):
        self.x0, self.y0 = x0, y0
        self.gradient = gradient        # (gx, gy) of the corrected view over the window, in tray-texture units
        self.brighter = False           # set when the piece is brighter than the tray around it
        self.crowded = False            # set when the piece is too large for one drink
        self.allowed = allowed          # full resolution: pixels a drink placed here may own
        self.strict = strict            # ... of those, the ones segmented as drink
        ys, xs = np.mgrid[0:votes.shape[0]:STEP, 0:votes.shape[1]:STEP]
        self.votes = votes[::STEP, ::STEP].ravel().astype(np.float32)
        self.target = target[::STEP, ::STEP].ravel()
        self.n_target = float(np.count_nonzero(self.target))
        self.faint_target = np.zeros_like(self.target)   # the piece's faint pixels (set by _window)
        # the piece's pixels count +1 inside the outline and -1 outside it: as a weight,
        # 2 inside, with the constant -n_target added to every score
        self.weights = self.votes + self.target.astype(np.float32)
        self.full = (votes + target).astype(np.float32)     # the same weights, full resolution
        self.target_full = target
        self.x = (xs.ravel() + x0).astype(np.float32)
        self.y = (ys.ravel() + y0).astype(np.float32)
        self.cx, self.cy = centre
        self.angle0 = math.atan2(axis[1], axis[0])
        self._frames: dict[float, tuple[np.ndarray, np.ndarray]] = {}

    def frame(self, dangle: float) -> tuple[np.ndarray, np.ndarray]:
        """Coordinates along and across the piece's axis turned by ``dangle`` radians."""
        if dangle not in self._frames:
            a = self.angle0 + dangle
            ca, sa = math.cos(a), math.sin(a)
            dx, dy = self.x - self.cx, self.y - self.cy
            self._frames[dangle] = (dx * ca + dy * sa, -dx * sa + dy * ca)
        return self._frames[dangle]

    def place(self, o: Outline, dangle: float, direction: int, t0: float, v0: float) -> Placement:
        u, v = self.frame(dangle)
        tt = (u - t0) * direction
        idx = np.clip(tt, 0, o.length - 1).astype(np.int32)
        inside = (tt >= 0) & (tt < o.length) & (np.abs(v - v0) < o.widths[idx] * 0.5)
        score = float(self.weights @ inside) - self.n_target     # bool as 0/1: a fast masked sum
        pose = (dangle, direction, t0, v0)
        score += self.edge_votes(o, pose)
        return Placement(o, score, 0.0, 0.0, inside, self.cx, self.cy, pose)

    def edge_votes(self, o: Outline, pose: tuple) -> float:
        """Votes of the placed outline's rim: a drink's silhouette is an edge in the image (a
        colour step, or the dark line where its side turns away), even where its body looks
        like the tray; a rim across plain tray or through the middle of a drink is not."""
        if self.gradient is None or EDGE_WEIGHT == 0:
            return 0.0
        gx, gy = self.gradient
        pts, normals = o.rim(pose, self.angle0, (self.cx - self.x0, self.cy - self.y0))
        h, w = gx.shape
        xi = np.clip(np.rint(pts[:, 0]).astype(np.int32), 0, w - 1)
        yi = np.clip(np.rint(pts[:, 1]).astype(np.int32), 0, h - 1)
        s = np.abs(gx[yi, xi] * normals[:, 0] + gy[yi, xi] * normals[:, 1])
        support = s / (s + EDGE_HALF)
        return EDGE_WEIGHT * float(np.sum(support - 0.5))

    def finish(self, p: Placement) -> Placement:
        """Fill in how well a (chosen) placement explains its pixels, and where it lies."""
        n_in = float(np.count_nonzero(p.inside))
        if n_in:
            p.explained = float(self.votes @ p.inside) / n_in
            shade_left = float(np.count_nonzero(self.faint_target & ~p.inside))
            p.covered = float(np.count_nonzero(self.target & p.inside)) / max(self.n_target - shade_left, 1.0)
            p.cx, p.cy = float(self.x[p.inside].mean()), float(self.y[p.inside].mean())
        return p

    def polygon(self, p: Placement) -> np.ndarray:
        """The placed outline as a polygon in working pixels (to claim its pixels)."""
        return p.outline.polygon(p.pose, self.angle0, (self.cx, self.cy))

    def angles(self) -> list[float]:
        """Directions (relative to the piece's axis) worth trying: the axis itself and those
        of the long straight edges in the piece (each drink of a pressed-together group has
        its own)."""
        if not hasattr(self, "_angles"):
            m = cv2.GaussianBlur(self.target_full.astype(np.float32), (5, 5), 1.0)
            gx = cv2.Sobel(m, cv2.CV_32F, 1, 0)
            gy = cv2.Sobel(m, cv2.CV_32F, 0, 1)
            mag = np.hypot(gx, gy).ravel()
            keep = mag > 0.05
            edge_dir = (np.arctan2(gy.ravel()[keep], gx.ravel()[keep]) + math.pi / 2) % math.pi
            hist = np.bincount((edge_dir / math.pi * 36).astype(np.int32) % 36, mag[keep], minlength=36)
            hist = hist + 0.5 * (np.roll(hist, 1) + np.roll(hist, -1))
            peaks = [i for i in range(36) if hist[i] >= hist[i - 1] and hist[i] >= hist[(i + 1) % 36]
                     and hist[i] >= 0.3 * hist.max()]
            peaks = sorted(peaks, key=lambda i: -hist[i])[:3]
            found = [0.0, math.radians(6), -math.radians(6)]
            for i in peaks:
                d = ((i + 0.5) * math.pi / 36 - self.angle0 + math.pi / 2) % math.pi - math.pi / 2
                if all(abs(d - f) > math.radians(4) for f in found):
                    found.append(d)
            self._angles = found
        return self._angles

    def _canvas(self, dangle: float) -> tuple[np.ndarray, int]:
        """The weights turned so that the direction ``dangle`` runs along the rows, sampled."""
        if not hasattr(self, "_canvases"):
            self._canvases = {}
        if dangle not in self._canvases:
            h, w = self.full.shape
            D = int(math.hypot(h, w) / STEP) + 2
            a = self.angle0 + dangle
            ca, sa = math.cos(a), math.sin(a)
            g = (np.arange(D, dtype=np.float32) - D / 2) * STEP
            X, Y = np.meshgrid(g, g)
            mx = (self.cx - self.x0) + X * ca - Y * sa
            my = (self.cy - self.y0) + X * sa + Y * ca
            self._canvases[dangle] = (cv2.remap(self.full, mx, my, cv2.INTER_NEAREST,
                                                borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0), D)
        return self._canvases[dangle]

    def sweep(self, o: Outline) -> tuple | None:
        """The best pose of an outline anywhere in the window, over the candidate directions
        (a correlation of the outline's mask with the turned weights)."""
        tmpl, yc = template(o)
        best = None
        for dangle in self.angles():
            canvas, D = self._canvas(dangle)
            if canvas.shape[0] < tmpl.shape[0] or canvas.shape[1] < tmpl.shape[1]:
                continue
            for direction, t in ((1, tmpl), (-1, tmpl[:, ::-1])):
                _, val, _, (mx, my) = cv2.minMaxLoc(cv2.matchTemplate(canvas, t, cv2.TM_CCORR))
                if best is None or val > best[0]:
                    start = mx if direction == 1 else mx + t.shape[1] - 1
                    best = (val, (dangle, direction, (start - D / 2) * STEP, (my + yc - D / 2) * STEP))
        return None if best is None else best[1]

    def best(self, o: Outline) -> Placement:
        """The best placement of one outline: from the piece's ends, then a local search."""
        u, _ = self.frame(0.0)
        tu = u[self.target]
        if len(tu) == 0:
            return Placement(o, -1e9, 0.0, 0.0, np.zeros_like(self.target), self.cx, self.cy)
        lo, hi = float(np.percentile(tu, 2)), float(np.percentile(tu, 98))
        mid, L = (lo + hi) / 2, float(o.length)
        starts = [(+1, lo), (+1, hi - L), (+1, mid - L / 2), (-1, hi), (-1, lo + L), (-1, mid + L / 2)]
        keys = [(0.0, d, t0, 0.0) for d, t0 in starts]
        # a group of drinks: the outline may lie anywhere in it, at another angle
        swept = self.sweep(o) if self.crowded else None
        if swept is not None:
            keys.append(swept)
        best_key, best = None, None
        for key in keys:
            p = self.place(o, *key)
            if best is None or p.score > best.score:
                best_key, best = key, p
        # coordinate search over angle, position along and across the axis
        steps = {0: [math.radians(3), math.radians(6)], 2: [2.0, 4.0], 3: [2.0, 4.0]}
        for _ in range(2):
            improved = False
            for k, deltas in steps.items():
                for delta in deltas:
                    for sign in (-1, 1):
                        key = list(best_key)
                        key[k] += sign * delta
                        p = self.place(o, key[0], key[1], key[2], key[3])
                        if p.score > best.score:
                            best_key, best, improved = tuple(key), p, True
            if not improved:
                break
        return self.finish(best)


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
            if p.explained < EXPLAINED_MIN or not (p.covered >= COVERED_MIN or (window.crowded and p.explained >= 0.75)):
                continue
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
    if ok_loose and window.brighter and _segmented_share(window, loose) < FAINT_SHARE:
        # a drink barely brighter than the tray (white on a light one): its strict cut lacks
        # whole parts (a neck, a cap), so only the loose cut can be judged. Not so a drink
        # darker than the tray, whose loose cut takes in its shadow
        return loose, m_loose
    # one cut must be convincing and the other at least plausible
    if loose.outline.shape != strict.outline.shape or not (
            (ok_loose and d_strict <= JUDGE_PLAUSIBLE) or (ok_strict and d_loose <= JUDGE_PLAUSIBLE)):
        return None
    return loose, max(m_loose, m_strict)


def _segmented_share(window: Window, p: Placement) -> float:
    """Of the pixels a placed outline would own loosely, the share segmented as drink."""
    cut = _cut(window, p, False) > 0
    loose = np.count_nonzero(cut)
    return np.count_nonzero(cut & window.strict) / loose if loose else 1.0     # the strict pixels lie among the loose


def _cut(window: Window, p: Placement, strict: bool) -> np.ndarray:
    """The pixels a placed outline would own: inside it, all but plain tray and other drinks
    (loose), or only the pixels segmented as drink (strict)."""
    cut = np.zeros(window.allowed.shape, np.uint8)
    cv2.fillPoly(cut, [window.polygon(p) - np.array([window.x0, window.y0], np.int32)], 255)
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
            if len(xs) < 0.5 * min_area:
                break
            win = _window(found, dropped, owner, claimed, an, colour, target, xs, ys, longest)
            win.crowded = len(xs) > 1.3 * max_area
            here = outlines(profile, size_factor(an.size_field, float(xs.mean()), float(ys.mean()), an.mask.shape))
            got = fit_piece(win, colour, here, judge)
            if got is None:
                break
            placed, margin = got
            cv2.fillPoly(claimed, [win.polygon(placed)], 1)
            # unsure fragments of this colour that the outline covers were parts of this drink
            for j, other in enumerate(found):
                if j != k and j not in dropped and other["color"] == colour and other["unsure"]:
                    mine = owner == j + 1
                    n = np.count_nonzero(mine)
                    if n and np.count_nonzero(mine & (claimed > 0)) >= 0.6 * n:
                        dropped.add(j)
            added.append(_reading(found[k], colour, placed.outline.shape, placed.cx, placed.cy,
                                  round(min(0.99, 1.0 - 0.5 * math.exp(-margin / 2)), 3), "outline fitted"))
            placed_any = True
        if placed_any:
            dropped.add(k)
            left = (owner == k + 1) & (claimed == 0) & ~an.faint    # what is faint of it was shade
            ys, xs = np.nonzero(left)
            if len(xs) >= 0.5 * min_area:      # more is there, but no outline fits it: ask
                added.append(_reading(found[k], colour, found[k]["shape"], float(xs.mean()), float(ys.mean()),
                                      0.3, "part of a group that fits no drink", unsure=True))
    return [d for k, d in enumerate(found) if k not in dropped] + added


def _reading(d: dict, colour: str, shape: str, cx: float, cy: float, confidence: float, why: str,
             unsure: bool = False) -> dict:
    return {"color": colour, "shape": shape, "cx": cx, "cy": cy, "confidence": confidence, "unsure": unsure,
            "_why": why, "_f": {**d["_f"], "cx": cx, "cy": cy}}


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
    votes[claimed[y0:y1, x0:x1] > 0] = OTHER
    pts = np.column_stack([xs, ys]).astype(np.float64)
    centre = pts.mean(axis=0)
    _evals, evecs = np.linalg.eigh(np.cov((pts - centre).T))
    axis = evecs[:, 1]
    loose = (votes > OTHER) & ~(free & tray)
    win = Window(votes, target[y0:y1, x0:x1], x0, y0, (float(centre[0]), float(centre[1])),
                 (float(axis[0]), float(axis[1])), loose, votes > 0, _gradient(an, x0, y0, x1, y1, tray))
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
