"""Finding the crates' grid of fields in a frame (issue 31): where the yellow lattice of slot walls
lies, on the plane of the crates' rims.

All crates' rims lie in one plane (the crates stand on the table, all alike), so one homography
maps that plane to the frame. Calibration gives a first one (:mod:`.crate_calibrate`); a frame is
looked at through it on a *canvas*: the rim plane seen straight from above at :data:`UNIT_PX` px
per slot pitch. There the walls of the slots repeat with the pitch in two perpendicular
directions, whatever way the crates were turned or moved, so

1. of the canvas's yellowness (:func:`.crate_plastic.yellow_map`, against the calibrated plastic) and its
   brightness, the fine detail only, the turn and pitch whose two perpendicular waves and their
   second harmonics carry the most power give the lattice (:func:`global_lattice`);
2. the local phase of each wave (demodulated and smoothed) tells how far the lattice there is
   off the global one: an affine map near the crates' middle, then homographies over ever larger
   windows are fitted to those local positions (:func:`refine`), taking in the perspective the
   calibration got wrong, a bump of the camera, and lens bending in part;
3. the fitted grid maps *grid units* (field ``(i, j)`` spans ``[i, i+1] x [j, j+1]``, its walls on
   whole numbers) to frame pixels; each field's share of crate plastic (:func:`coverage`) says
   where crates may stand (the learned model has the last word, :mod:`.crates`).

The lattice crests are where the plastic is (walls): drinks stand between them. A drink leans
away from the camera's nadir in the rim plane (it stands above it), the walls' inner faces show
towards the nadir: the crests are pulled a little, the same way for the same camera, which the
learned model, trained on this very pipeline's patches, takes in its stride.

>>> import numpy as np
>>> g = np.zeros((120, 120), np.float32); g[::10, :] = 1; g[:, ::10] = 1
>>> lat = global_lattice(g, np.ones_like(g), 10.0)
>>> [round(float(v), 2) for v in np.linalg.norm(lat.freqs, axis=1) * 10]
[1.0, 1.0]
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .crate_plastic import Plastic, yellow_map

UNIT_PX = 10.0          # canvas px per slot pitch while the lattice is looked for
MAX_UNITS = 36          # a canvas spans at most this many pitches a side (a grid spans 6-20)
PAD_UNITS = 2.0         # round the yellow seen, the canvas reaches this much further
SMOOTH_UNITS = 0.8      # the local phase is averaged over a Gaussian of this many pitches
MIN_YELLOW = 0.5        # a pixel this yellow (0..1) counts as crate plastic


# --- canvases ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Canvas:
    """A view of the rim plane: canvas px (x, y) -> plane units ``origin + (x, y) / px``; the
    plane's units map to frame px by ``H``."""

    H: np.ndarray          # plane units -> frame px
    origin: tuple[float, float]
    px: float
    size: tuple[int, int]  # w, h

    def canvas_to_units(self) -> np.ndarray:
        return np.array([[1 / self.px, 0, self.origin[0]], [0, 1 / self.px, self.origin[1]], [0, 0, 1]])

    def canvas_to_frame(self) -> np.ndarray:
        return self.H @ self.canvas_to_units()

    def warp(self, frame: np.ndarray, interpolation=cv2.INTER_LINEAR, shrunk: dict | None = None) -> np.ndarray:
        """The canvas's view of ``frame``; ``shrunk``: a cache of the frame averaged down (by
        whole factors), kept by the caller across canvases of one frame."""
        M = self.canvas_to_frame()
        # a frame much finer than the canvas is averaged down first (no aliasing of thin walls)
        step = frame_px_per_unit(self.H, self.origin_mid()) / self.px
        if step >= 3.0:
            k = int(step // 1.5)
            small = shrunk.get(k) if shrunk is not None else None
            if small is None:
                small = cv2.resize(frame, (max(1, frame.shape[1] // k), max(1, frame.shape[0] // k)),
                                   interpolation=cv2.INTER_AREA)
                if shrunk is not None:
                    shrunk[k] = small
            sx, sy = small.shape[1] / frame.shape[1], small.shape[0] / frame.shape[0]
            M = np.diag([sx, sy, 1.0]) @ M
            frame = small
        return cv2.warpPerspective(frame, M, self.size, flags=interpolation | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def origin_mid(self) -> tuple[float, float]:
        return (self.origin[0] + self.size[0] / 2 / self.px, self.origin[1] + self.size[1] / 2 / self.px)


def frame_px_per_unit(H: np.ndarray, at) -> float:
    """How many frame px one plane unit spans at ``at`` (the mean of the two directions)."""
    p = np.array([[at[0], at[1]], [at[0] + 1, at[1]], [at[0], at[1] + 1]], np.float64).reshape(-1, 1, 2)
    q = cv2.perspectiveTransform(p, H).reshape(-1, 2)
    return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 2)


def to_frame(H: np.ndarray, pts) -> np.ndarray:
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, H).reshape(-1, 2)


def canvas_round(H: np.ndarray, frame_shape, yellow_small: np.ndarray, px: float = UNIT_PX) -> Canvas | None:
    """The canvas round the yellow a small copy of the frame shows (``yellow_small``: its
    yellowness), in the plane of ``H``; None when nothing yellow lies in front of the camera."""
    fh, fw = frame_shape[:2]
    ys, xs = np.nonzero(yellow_small >= MIN_YELLOW)
    if len(xs) < 8:
        return None
    sx, sy = fw / yellow_small.shape[1], fh / yellow_small.shape[0]
    pts = np.column_stack([(xs + 0.5) * sx, (ys + 0.5) * sy])
    Hinv = np.linalg.inv(H)
    w = pts @ Hinv[2, :2] + Hinv[2, 2]
    ok = np.abs(w) > 1e-9
    u = to_frame(Hinv, pts[ok])
    if not len(u):
        return None
    lo, hi = np.percentile(u, 1, axis=0) - PAD_UNITS, np.percentile(u, 99, axis=0) + PAD_UNITS
    mid = (lo + hi) / 2
    span = np.minimum(hi - lo, MAX_UNITS)
    lo, hi = mid - span / 2, mid + span / 2
    size = (int(math.ceil(span[0] * px)), int(math.ceil(span[1] * px)))
    if min(size) < 8:
        return None
    return Canvas(H, (float(lo[0]), float(lo[1])), px, size)


# --- the lattice ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lattice:
    """Two plane waves on a canvas: ``freqs`` (2, 2) cycles per px (rows), ``phases`` radians;
    grid coordinates of a canvas point x: ``freqs @ x + phases / 2 pi`` (whole numbers on the
    crests). ``strength``: the weaker wave's share of the signal's power."""

    freqs: np.ndarray
    phases: np.ndarray
    strength: float


def detail(y: np.ndarray, px: float) -> np.ndarray:
    """The fine detail of a map: itself less its mean over about a pitch."""
    return y - cv2.GaussianBlur(y, (0, 0), px * 0.6)


def global_lattice(signal: np.ndarray, weight: np.ndarray, px: float, spread: float = 1.3,
                   extra: np.ndarray | None = None) -> Lattice | None:
    """The square lattice of ``signal`` (fine detail, weighted by ``weight``) on a canvas of ``px``
    px per expected pitch: the turn and pitch (within a factor ``spread`` of the expected) whose
    two perpendicular waves and their second harmonics (thin walls have strong ones) carry the
    most power; ``extra``: a second picture of the same lattice whose (normalised) power adds to
    the evidence. The phases are ``signal``'s. None when the canvas shows no power at all."""
    s = signal * weight
    h, w = s.shape
    n = 1 << int(math.ceil(math.log2(max(h, w, 64) * 2)))
    power = _power(s, n)
    if extra is not None:
        power = power + _power(extra * weight, n)
    if not np.isfinite(power).all() or power.max() <= 0:
        return None
    power = cv2.GaussianBlur(power.astype(np.float32), (0, 0), 1.0)
    thetas = np.radians(np.arange(0.0, 90.0, 0.5))
    pitches = px * np.exp(np.linspace(-math.log(spread), math.log(spread), 41))
    T, Pp = np.meshgrid(thetas, pitches, indexing="ij")
    score = np.zeros(T.shape)
    for k in (1, 2):
        for rot in (0.0, math.pi / 2):
            fx = k * np.cos(T + rot) / Pp
            fy = k * np.sin(T + rot) / Pp
            score += _lookup(power, fx, fy, n)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    theta, pitch = float(T[i, j]), float(Pp[i, j])
    f1 = np.array([math.cos(theta), math.sin(theta)]) / pitch
    f2 = np.array([-math.sin(theta), math.cos(theta)]) / pitch
    f1, f2 = _sharpen(s, f1, n), _sharpen(s, f2, n)
    if f1[0] * f2[1] - f1[1] * f2[0] < 0:          # keep the canvas's handedness
        f2 = -f2
    freqs = np.array([f1, f2])
    phases = np.array([_phase(s, f) for f in freqs])
    strength = float(score[i, j] / (np.median(score) + 1e-12))
    return Lattice(freqs, phases, strength)


def _power(s: np.ndarray, n: int) -> np.ndarray:
    F = np.fft.fft2(s - s.mean(), s=(n, n))
    p = F.real ** 2 + F.imag ** 2
    return p / (p.max() + 1e-12)


def _lookup(power: np.ndarray, fx: np.ndarray, fy: np.ndarray, n: int) -> np.ndarray:
    """The power at frequencies (cycles/px), from the nearest bin of an n x n transform."""
    i = np.round(fy * n).astype(np.int64) % n
    j = np.round(fx * n).astype(np.int64) % n
    return power[i, j]


def _coefficient(s: np.ndarray, f: np.ndarray) -> complex:
    h, w = s.shape
    ex = np.exp(-2j * math.pi * f[0] * np.arange(w))
    ey = np.exp(-2j * math.pi * f[1] * np.arange(h))
    return complex(ey @ (s @ ex))


def _phase(s: np.ndarray, f: np.ndarray) -> float:
    """The phase of ``s``'s wave of frequency ``f`` (crests where ``2 pi f.x + phase`` is 2 pi n)."""
    return float(np.angle(_coefficient(s, f)))


def _sharpen(s: np.ndarray, f: np.ndarray, n: int) -> np.ndarray:
    """The frequency between FFT bins: a few steps of a small search on the exact transform."""
    best = np.array(f, np.float64)
    step = 0.5 / n
    val = abs(_coefficient(s, best))
    for _ in range(4):
        for d in ((step, 0), (-step, 0), (0, step), (0, -step)):
            cand = best + d
            v = abs(_coefficient(s, cand))
            if v > val:
                best, val = cand, v
        step /= 2
    return best


def local_positions(s: np.ndarray, weight: np.ndarray, lat: Lattice, px: float, every: float = 0.5):
    """Sample points of a canvas (x, y px) and their grid coordinates from the local phase of
    each wave (unwrapped against the global one), with a weight each (the local amplitude)."""
    h, w = s.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    step = max(1, int(round(every * px)))
    sel = (slice(step // 2, None, step), slice(step // 2, None, step))
    xs, ys = xx[sel].ravel(), yy[sel].ravel()
    g, amp = [], []
    for f, ph in zip(lat.freqs, lat.phases):
        arg = (2 * math.pi) * (f[0] * xx + f[1] * yy)
        re = cv2.GaussianBlur(s * np.cos(arg), (0, 0), SMOOTH_UNITS * px)
        im = cv2.GaussianBlur(-s * np.sin(arg), (0, 0), SMOOTH_UNITS * px)
        z = (re + 1j * im)[sel].ravel()
        local = np.angle(z)
        d = (local - ph + math.pi) % (2 * math.pi) - math.pi
        g.append(f[0] * xs + f[1] * ys + (ph + d) / (2 * math.pi))
        amp.append(np.abs(z))
    wgt = np.minimum(amp[0], amp[1]) * weight[sel].ravel()
    return np.column_stack([xs, ys]), np.column_stack(g), wgt


def fit_homography(src: np.ndarray, dst: np.ndarray, wgt: np.ndarray) -> np.ndarray | None:
    """A least-squares homography src -> dst (weighted DLT on normalised points)."""
    keep = wgt > 0
    if keep.sum() < 6:
        return None
    src, dst, wgt = src[keep], dst[keep], wgt[keep] / wgt[keep].max()

    def norm(p):
        m = np.average(p, axis=0, weights=wgt)
        sc = math.sqrt(2) / max(1e-9, float(np.average(np.linalg.norm(p - m, axis=1), weights=wgt)))
        return np.array([[sc, 0, -sc * m[0]], [0, sc, -sc * m[1]], [0, 0, 1]])

    Ts, Td = norm(src), norm(dst)
    a = (np.column_stack([src, np.ones(len(src))]) @ Ts.T)[:, :2]
    b = (np.column_stack([dst, np.ones(len(dst))]) @ Td.T)[:, :2]
    z, o = np.zeros(len(a)), np.ones(len(a))
    rows1 = np.column_stack([a[:, 0], a[:, 1], o, z, z, z, -b[:, 0] * a[:, 0], -b[:, 0] * a[:, 1], -b[:, 0]])
    rows2 = np.column_stack([z, z, z, a[:, 0], a[:, 1], o, -b[:, 1] * a[:, 0], -b[:, 1] * a[:, 1], -b[:, 1]])
    sw = np.sqrt(wgt)[:, None]
    A = np.concatenate([rows1 * sw, rows2 * sw])
    try:
        _, _, vt = np.linalg.svd(A, full_matrices=False)
    except np.linalg.LinAlgError:
        return None
    Hn = vt[-1].reshape(3, 3)
    H = np.linalg.inv(Td) @ Hn @ Ts
    if not np.all(np.isfinite(H)) or abs(H[2, 2]) < 1e-12:
        return None
    return H / H[2, 2]


def fit_affine(src: np.ndarray, dst: np.ndarray, wgt: np.ndarray) -> np.ndarray | None:
    """A weighted least-squares affine map src -> dst (3x3)."""
    keep = wgt > 0
    if keep.sum() < 4:
        return None
    A = np.column_stack([src[keep], np.ones(int(keep.sum()))]) * np.sqrt(wgt[keep])[:, None]
    B = dst[keep] * np.sqrt(wgt[keep])[:, None]
    sol, *_ = np.linalg.lstsq(A, B, rcond=None)
    return np.vstack([sol.T, [0, 0, 1]])


def refine(s: np.ndarray, weight: np.ndarray, lat: Lattice, px: float, window: float | None = None,
           affine: bool = False) -> np.ndarray | None:
    """Canvas px -> grid coordinates (3x3) fitted to the local phases (within a Gaussian
    ``window`` of that many pitches round the crates' middle, if given); samples far off the
    first fit are dropped and it is fitted again. None if it cannot be fitted."""
    pts, g, wgt = local_positions(s, weight, lat, px)
    if len(wgt) == 0 or wgt.max() <= 0:
        return None
    wgt = np.where(wgt >= 0.25 * np.percentile(wgt[wgt > 0], 75), wgt, 0.0) if (wgt > 0).any() else wgt
    if window is not None and wgt.sum() > 0:
        mid = (pts * wgt[:, None]).sum(0) / wgt.sum()
        wgt = wgt * np.exp(-((pts - mid) ** 2).sum(1) / (2 * (window * px) ** 2))
    fit = fit_affine if affine else fit_homography
    G = fit(pts, g, wgt)
    for _ in range(2):
        if G is None:
            return None
        res = np.abs(to_frame(G, pts) - g).max(axis=1)
        wgt = np.where(res <= 0.2, wgt, 0.0)
        G = fit(pts, g, wgt)
    return G


# --- the grid on a frame ----------------------------------------------------------------------

STAGES = ((2.0, True), (4.0, False), (None, False))   # window (pitches), affine


@dataclass(frozen=True)
class Grid:
    """The crates' lattice found in a frame: ``H`` grid units -> frame px (field (i, j) spans
    [i, i+1] x [j, j+1]); ``cells`` (i, j) -> share of crate plastic in the field; ``strength``
    of the lattice's weaker wave; ``refined``: how many of the fits over ever larger windows
    (STAGES) gave a lattice a camera shows (0: the global lattice alone, whose pitch and phase
    are only rough)."""

    H: np.ndarray
    cells: dict
    strength: float
    refined: int = len(STAGES)


def find_grid(frame: np.ndarray, H0: np.ndarray, plastic: Plastic | None, spread: float = 1.45,
              small: np.ndarray | None = None) -> Grid | None:
    """The crates' grid in ``frame`` starting from the rim plane's homography ``H0`` (plane units
    of about a pitch -> frame px). None when no lattice of crate plastic shows.

    The global lattice first, then fits over ever larger windows round the crates' middle (an
    affine map near the middle, a homography over all): the phase of a wave is only known up
    to whole pitches, so each fit reaches only as far as the one before predicts well."""
    shrunk: dict = {}
    if small is None:
        shrunk[4] = cv2.resize(frame, (frame.shape[1] // 4, frame.shape[0] // 4), interpolation=cv2.INTER_AREA)
        small = yellow_map(shrunk[4], plastic)
    canvas = canvas_round(H0, frame.shape, small)
    if canvas is None:
        return None
    sig, weight = lattice_signal(canvas.warp(frame, shrunk=shrunk), plastic, canvas.px)
    lat = global_lattice(sig, weight, canvas.px, spread)
    if lat is None:
        return None
    G = np.vstack([np.column_stack([lat.freqs, lat.phases / (2 * math.pi)]), [0, 0, 1]])
    H = canvas.canvas_to_frame() @ np.linalg.inv(G)                       # grid -> frame
    refined = 0
    for window, affine in STAGES:
        H = H / H[2, 2]
        c2 = canvas_round(H, frame.shape, small)
        if c2 is None:
            return None
        sig, weight = lattice_signal(c2.warp(frame, shrunk=shrunk), plastic, c2.px)
        # grid coordinates of canvas px x are origin + x / px: crests on whole numbers
        ax = Lattice(np.array([[1 / c2.px, 0.0], [0.0, 1 / c2.px]]),
                     np.array([2 * math.pi * c2.origin[0], 2 * math.pi * c2.origin[1]]), lat.strength)
        G = refine(sig * weight, weight, ax, c2.px, window, affine)
        if G is None or not plausible(G, weight, c2.px):
            continue
        H = c2.canvas_to_frame() @ np.linalg.inv(G)
        refined += 1
    H = H / H[2, 2]
    cells = field_coverage(frame, H, plastic, small, shrunk)
    return Grid(H, cells, lat.strength, refined) if cells is not None else None


def field_coverage(frame: np.ndarray, H: np.ndarray, plastic: Plastic | None, small: np.ndarray | None = None,
                   shrunk: dict | None = None) -> dict | None:
    """Each whole field of the grid ``H`` (grid units -> frame px) -> its share of crate plastic in
    ``frame`` (None: the grid is not in view). ``small``: the frame's yellowness a quarter the size,
    ``shrunk``: the frame averaged down (both kept by a caller that has them already)."""
    if shrunk is None:
        shrunk = {}
    if small is None:
        shrunk.setdefault(4, cv2.resize(frame, (frame.shape[1] // 4, frame.shape[0] // 4), interpolation=cv2.INTER_AREA))
        small = yellow_map(shrunk[4], plastic)
    canvas = canvas_round(H, frame.shape, small)
    if canvas is None:
        return None
    return coverage(yellow_map(canvas.warp(frame, shrunk=shrunk), plastic), canvas)


def lattice_signal(img: np.ndarray, plastic: Plastic | None, px: float) -> tuple[np.ndarray, np.ndarray]:
    """What the lattice is looked for in, and where: the fine detail of the canvas's yellowness
    plus that of its brightness (each scaled to its spread over the crates' region): drinks stand out of the plastic by
    colour, while empty slots are all plastic and show their walls only by their light."""
    y = yellow_map(img, plastic)
    weight = _region(y, px)
    lum = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255.0
    out = np.zeros_like(y)
    for part in (y, lum):
        d = detail(part, px)
        spread = float(np.sqrt((d * d * weight).sum() / max(1e-6, float(weight.sum()))))
        out += d / max(spread, 1e-3)
    return out, weight


def plausible(G: np.ndarray, weight: np.ndarray, px: float) -> bool:
    """Whether a fitted map canvas px -> grid is a lattice a camera shows: over the crates'
    region its pitch changes by less than 40 % and its axes stay 60-120 degrees apart."""
    ys, xs = np.nonzero(weight > 0.5)
    if not len(xs):
        return False
    pts = np.array([[xs.min(), ys.min()], [xs.max(), ys.min()], [xs.max(), ys.max()], [xs.min(), ys.max()],
                    [xs.mean(), ys.mean()]], np.float64)
    pitches, angles = [], []
    for p in pts:
        q = to_frame(G, [p, p + (1, 0), p + (0, 1)])
        J = np.column_stack([q[1] - q[0], q[2] - q[0]])          # grid per canvas px
        try:
            Ji = np.linalg.inv(J)                                # canvas px per grid unit
        except np.linalg.LinAlgError:
            return False
        a, b = Ji[:, 0], Ji[:, 1]
        pitches += [np.linalg.norm(a), np.linalg.norm(b)]
        angles.append(math.degrees(math.acos(np.clip(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)), -1, 1))))
    pitches = np.array(pitches)
    return bool(pitches.max() < 1.4 * pitches.min() and all(60 <= a <= 120 for a in angles)
                and 0.5 * px < np.median(pitches) < 2 * px)


def _region(y: np.ndarray, px: float) -> np.ndarray:
    """Where crates are: plastic within about a pitch, softened at the edge (float 0..1)."""
    m = cv2.GaussianBlur((y >= MIN_YELLOW).astype(np.float32), (0, 0), px * 0.7)
    return np.clip(m * 3.0, 0, 1)


def coverage(y: np.ndarray, canvas: Canvas) -> dict:
    """Each whole field of the canvas's grid (its units are grid units) -> its share of plastic."""
    ox, oy = canvas.origin
    px = canvas.px
    out = {}
    i0, j0 = int(math.ceil(ox)), int(math.ceil(oy))
    i1, j1 = int(math.floor(ox + canvas.size[0] / px)), int(math.floor(oy + canvas.size[1] / px))
    yb = (y >= MIN_YELLOW).astype(np.float32)
    for j in range(j0, j1):
        for i in range(i0, i1):
            x0, y0 = int(round((i - ox) * px)), int(round((j - oy) * px))
            x1, y1 = int(round((i + 1 - ox) * px)), int(round((j + 1 - oy) * px))
            cell = yb[y0:y1, x0:x1]
            if cell.size:
                out[(i, j)] = float(cell.mean())
    return out
