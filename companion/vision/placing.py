"""A calibrated outline laid over the pixels around a piece, where they vote for it most.

``vision/fit.py`` gives each pixel near a piece its vote for a drink of one colour (the
piece's own pixels, fragments, other drinks, tray, shadow) and judges what the placed
outlines cut out; this module only places them: a ``Window`` holds the votes, sampled every
STEP px, and finds the pose of an outline (angle, direction, position along and across the
piece's axis) that collects the most, its rim's edge votes included.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .outline import STEP, Outline, template
from .pose_votes import inside_votes, rim_support

OTHER = -1.5               # vote of a pixel that belongs to another drink
EDGE_WEIGHT = 6.0          # votes per boundary sample for lying on an edge (or against lying on none)
EDGE_HALF = 3.0            # an edge this many times the tray's own texture counts half
RIM_EXPLAINS = 1.0         # weight of the rim's edge votes in an outline's mean vote


@dataclass
class Placement:
    outline: Outline
    score: float           # votes, with the piece's uncovered pixels counted against it
    explained: float       # mean vote inside the outline, its rim's edge votes included
    covered: float         # share of the piece inside the outline; its faint pixels outside do not
                           # count (shade beside a drink is no part of it)
    inside: np.ndarray     # bool over the window's sampled pixels
    cx: float
    cy: float
    pose: tuple = (0.0, 1, 0.0, 0.0)   # angle offset, direction, start along, offset across
    edge: float = 0.0      # the rim's votes, part of the score
    frame: tuple = (0.0, 0.0, 0.0)     # the window's axis angle and centre that the pose is relative to
    overlap: float = 0.0   # share of the outline lying on other drinks


class Window:
    """The pixels around one piece, sampled every STEP px, with their votes for one colour."""

    def __init__(self, votes: np.ndarray, target: np.ndarray, x0: int, y0: int, centre: tuple[float, float],
                 axis: tuple[float, float], allowed: np.ndarray, strict: np.ndarray,
                 gradient: tuple[np.ndarray, np.ndarray] | None = None):
        self.x0, self.y0 = x0, y0
        self.gradient = gradient        # (gx, gy) of the corrected view over the window, in tray-texture units
        self.brighter = False           # set when the piece is brighter than the tray around it
        self.crowded = False            # set when the piece is too large for one drink
        self.partial = False            # set when the piece is smaller than any drink
        self.allowed = allowed          # full resolution: pixels a drink placed here may own
        self.strict = strict            # ... of those, the ones segmented as drink
        ys, xs = np.mgrid[0:votes.shape[0]:STEP, 0:votes.shape[1]:STEP]
        self.votes_full = votes
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
        self._rims: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._best: dict[tuple, Placement] = {}
        self._placed: dict[tuple, Placement] = {}

    def frame(self, dangle: float) -> tuple[np.ndarray, np.ndarray]:
        """Coordinates along and across the piece's axis turned by ``dangle`` radians."""
        if dangle not in self._frames:
            a = self.angle0 + dangle
            ca, sa = math.cos(a), math.sin(a)
            dx, dy = self.x - self.cx, self.y - self.cy
            self._frames[dangle] = (dx * ca + dy * sa, -dx * sa + dy * ca)
        return self._frames[dangle]

    def place(self, o: Outline, dangle: float, direction: int, t0: float, v0: float) -> Placement:
        # a local search comes back to poses it has tried (a tenth of them): kept, not placed again
        key = (o, dangle, direction, t0, v0)
        if key not in self._placed:
            self._placed[key] = self._place(o, dangle, direction, t0, v0)
        return self._placed[key]

    def _place(self, o: Outline, dangle: float, direction: int, t0: float, v0: float) -> Placement:
        u, v = self.frame(dangle)
        inside, votes = inside_votes(u, v, float(t0), float(v0), int(direction), o.widths, self.weights)
        score = votes - self.n_target
        pose = (dangle, direction, t0, v0)
        edge = self.edge_votes(o, pose)
        return Placement(o, score + edge, 0.0, 0.0, inside, self.cx, self.cy, pose, edge,
                         (self.angle0, self.cx, self.cy))

    def edge_votes(self, o: Outline, pose: tuple) -> float:
        """Votes of the placed outline's rim: a drink's silhouette is an edge in the image (a
        colour step, or the dark line where its side turns away), even where its body looks
        like the tray; a rim across plain tray or through the middle of a drink is not."""
        if self.gradient is None or EDGE_WEIGHT == 0:
            return 0.0
        gx, gy = self.gradient
        dangle, direction, t0, v0 = pose
        # the rim of an outline at one angle and direction, moved along and across: computed
        # once and shifted (placing an outline tries hundreds of poses)
        key = (o, dangle, direction)
        if key not in self._rims:
            self._rims[key] = o.rim((dangle, direction, 0.0, 0.0), self.angle0,
                                    (self.cx - self.x0, self.cy - self.y0))
        pts, normals = self._rims[key]
        a = self.angle0 + dangle
        ca, sa = math.cos(a), math.sin(a)
        return EDGE_WEIGHT * rim_support(pts, normals, float(t0 * ca - v0 * sa), float(t0 * sa + v0 * ca),
                                          gx, gy, EDGE_HALF)

    def finish(self, p: Placement) -> Placement:
        """Fill in how well a (chosen) placement explains its pixels, and where it lies."""
        n_in = float(np.count_nonzero(p.inside))
        if n_in:
            # a rim lying on the edges of a silhouette explains what it encloses, though that
            # looks like shadow (a black drink's flat face on a dark tray)
            p.explained = (float(self.votes @ p.inside) + RIM_EXPLAINS * p.edge) / n_in
            p.overlap = float(np.count_nonzero(p.inside & (self.votes <= OTHER))) / n_in
            shade_left = float(np.count_nonzero(self.faint_target & ~p.inside))
            p.covered = float(np.count_nonzero(self.target & p.inside)) / max(self.n_target - shade_left, 1.0)
            p.cx, p.cy = float(self.x[p.inside].mean()), float(self.y[p.inside].mean())
        return p

    def polygon(self, p: Placement) -> np.ndarray:
        """The placed outline as a polygon in working pixels (to claim its pixels)."""
        angle0, cx, cy = p.frame
        return p.outline.polygon(p.pose, angle0, (cx, cy))

    def owned(self, p: Placement) -> np.ndarray:
        """Over the window, at full resolution: the pixels inside the placed outline."""
        inside = np.zeros(self.target_full.shape, np.uint8)
        cv2.fillPoly(inside, [self.polygon(p) - np.array([self.x0, self.y0], np.int32)], 1)
        return inside > 0

    def without(self, p: Placement) -> "Window | None":
        """The same window for the rest of the piece once a drink lies as ``p``: its pixels
        are that drink's (they vote against another one), the piece is what it leaves."""
        taken = self.owned(p)
        target = self.target_full & ~taken
        ys, xs = np.nonzero(target)
        if len(xs) < 10:
            return None
        votes = self.votes_full.copy()
        votes[taken] = OTHER
        centre, axis = principal_axis(xs + self.x0, ys + self.y0)
        rest = Window(votes, target, self.x0, self.y0, centre, axis, self.allowed & ~taken, self.strict & ~taken,
                      self.gradient)
        rest.brighter = self.brighter
        rest.faint_target = self.faint_target & rest.target
        return rest

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

    def span(self) -> tuple[float, float] | None:
        """Where the piece starts and ends along its axis (2nd and 98th percentiles)."""
        if not hasattr(self, "_span"):
            u, _ = self.frame(0.0)
            tu = u[self.target]
            self._span = (float(np.percentile(tu, 2)), float(np.percentile(tu, 98))) if len(tu) else None
        return self._span

    def best(self, o: Outline, refine: bool = True) -> Placement:
        """The best placement of one outline: from the piece's ends, then a local search
        (``refine=False``: without it, a rough answer in a sixth of the time). Kept: the
        pair fitting asks again."""
        if (o, refine) not in self._best:
            self._best[(o, refine)] = self._best_placement(o, refine)
        return self._best[(o, refine)]

    def _best_placement(self, o: Outline, refine: bool) -> Placement:
        span = self.span()
        if span is None:
            return self._nowhere(o)
        lo, hi = span
        mid, L = (lo + hi) / 2, float(o.length)
        starts = [(+1, lo), (+1, hi - L), (+1, mid - L / 2), (-1, hi), (-1, lo + L), (-1, mid + L / 2)]
        # the axis of a piece smaller than any drink (a black bottle's neck and cap, its face
        # lost to a dark tray) need not be the drink's: its straight edges are tried too
        angles = self.angles() if self.partial else [0.0]
        keys = [(a, d, t0, 0.0) for a in angles for d, t0 in starts]
        # a group of drinks: the outline may lie anywhere in it, at another angle
        swept = self.sweep(o) if self.crowded else None
        if swept is not None:
            keys.append(swept)
        return self.search(o, keys, refine)

    def _nowhere(self, o: Outline) -> Placement:
        """The placement of an outline over a piece with no pixels left: it loses every vote,
        and its pose is still relative to this window (so its polygon is where it says)."""
        return Placement(o, -1e9, 0.0, 0.0, np.zeros_like(self.target), self.cx, self.cy,
                         frame=(self.angle0, self.cx, self.cy))

    def best_at_end(self, o: Outline, end: int) -> Placement:
        """The best placement of one outline that starts at one end of the piece (0: where its
        axis starts, 1: where it ends), either way round, along the piece's axis or one of its
        long edges (two drinks end to end need not lie in line), then a local search."""
        if not np.any(self.target):
            return self._nowhere(o)
        L = float(o.length)
        keys = []
        for dangle in self.angles():
            u, v = self.frame(dangle)
            tu, tv = u[self.target], v[self.target]
            lo, hi = float(np.percentile(tu, 2)), float(np.percentile(tu, 98))
            # across: in the middle of the piece's pixels at that end
            near = tu < lo + 0.3 * L if end == 0 else tu > hi - 0.3 * L
            v0 = float(np.median(tv[near])) if np.any(near) else 0.0
            starts = [(+1, lo), (-1, lo + L)] if end == 0 else [(+1, hi - L), (-1, hi)]
            keys += [(dangle, d, t0, v0) for d, t0 in starts]
        return self.search(o, keys)

    def search(self, o: Outline, keys: list[tuple], refine: bool = True) -> Placement:
        """The best of the poses ``keys``, improved (``refine``) by a coordinate search over
        the angle and the position along and across the axis."""
        best_key, best = None, None
        for key in keys:
            p = self.place(o, *key)
            if best is None or p.score > best.score:
                best_key, best = key, p
        steps = {0: [math.radians(3), math.radians(6)], 2: [2.0, 4.0], 3: [2.0, 4.0]}
        for _ in range(2 if refine else 0):
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


def principal_axis(xs: np.ndarray, ys: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """The centre of these pixels and the direction along which they spread most."""
    pts = np.column_stack([xs, ys]).astype(np.float64)
    centre = pts.mean(axis=0)
    _evals, evecs = np.linalg.eigh(np.cov((pts - centre).T))
    return (float(centre[0]), float(centre[1])), (float(evecs[0, 1]), float(evecs[1, 1]))
