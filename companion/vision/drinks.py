"""Finding and naming the drinks in a photo of the tray.

1. Lighting of the moment: the empty tray is the reference. The ratio of this frame to the
   empty tray, on a coarse grid and with the drinks' own pixels rejected as outliers, gives
   a smooth gain field per channel; dividing by it shows the frame as if lit like the
   calibration photos (colours are measured on that corrected view).
2. Segmentation: pixels that differ from the (relit) empty tray by more than the frame's
   own noise, and are not merely darker in every channel alike (a shadow), belong to drinks.
3. Splitting: a blob that is not one drink (too big, or a poor fit to every shape) is cut
   along colour boundaries and the dark valleys between touching cylinders, then along
   the cut that leaves pieces each of which looks like a drink.
4. Features: length and width along the principal axis, the width profile (a bottle's
   shoulder and neck), the brightness profile across the body (round or flat faces), and
   the body colour.
5. Classification: colour and shape separately against the profile's per-class models;
   the posterior gives the confidence, and a drink far from every class or between two
   classes is marked ``unsure`` instead of guessed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..drinks import COLOURS, SHAPES
from .profile import Profile, ProfileError

SHAPE_FEATURES = ["length", "width", "neck", "shoulder", "flat", "edge"]
COLOUR_FEATURES = ["b", "g", "r"]
UNSURE_BELOW = 0.6            # posterior (colour x shape) below which a drink is unsure
OUTLIER_SHAPE = 30.0          # squared normalised distance beyond which no shape fits
OUTLIER_COLOUR = 60.0
SHAPE_SURE = 10.0            # a shape distance this small: the outline plainly fits
COLOUR_APART = 3.0           # the next colour this many times further: the colour is plain
BLUR_SMEAR = 10.0             # px by which blur may lengthen a drink, per unit of blur inflation
TOO_LONG = 1.10               # a piece this much longer than the drink it looks like is not that drink
TINY = (80, 45)               # grid of the lighting estimate
LUMA = np.array([0.114, 0.587, 0.299], np.float32)   # BGR weights of brightness
OUTLINE_POINTS = 24           # samples of a drink's width along its length, kept in the profile


class FrameError(ValueError):
    """The frame cannot be analysed (wrong size, too dark, overexposed)."""


@dataclass
class Analysis:
    """A frame prepared against the profile: corrected view, drink mask, noise level."""

    small: np.ndarray          # frame at working scale, float32 BGR
    gain: np.ndarray           # lighting of this frame relative to the empty tray (work scale)
    corrected: np.ndarray | None   # unused (measured per region)
    mask: np.ndarray           # uint8 0/255: drink pixels
    sigma: np.ndarray          # per-channel noise of the difference
    light: float               # mean gain (1 = as bright as the calibration)
    sharpness: float = 1.0     # fine detail of the tray now / in the calibration (motion blur < 1)
    clear_tray: np.ndarray | None = None   # bool: pixels that are plainly the empty tray (not even a shadow)


# --- checks -------------------------------------------------------------------------------------

def check_frame(image, profile: Profile) -> None:
    if image is None or not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise FrameError("not a colour image")
    w, h = profile.image_size
    if image.shape[1] != w or image.shape[0] != h:
        raise FrameError(f"the frame is {image.shape[1]}x{image.shape[0]} but the profile was calibrated at "
                         f"{w}x{h}; set the camera to {w}x{h} or calibrate again")


def exposure_problem(small: np.ndarray, light: float) -> str | None:
    """A short reason when the frame is too dark or overexposed to read, else None."""
    lum = small.mean()
    if lum < 18 or light < 0.3:
        return f"the frame is too dark to read (mean level {lum:.0f} of 255, {light:.0%} of the calibration light)"
    b, g, r = cv2.split(small)
    sat = float(np.count_nonzero(cv2.max(cv2.max(b, g), r) >= 250)) / b.size
    if sat > 0.35 or light > 3.0:
        return f"the frame is overexposed ({sat:.0%} of it saturated, {light:.0%} of the calibration light)"
    return None


# --- segmentation ----------------------------------------------------------------------------

def _cached(profile: Profile):
    c = profile._cache
    if "bg" not in c:
        if profile.background is None:
            raise ProfileError("this profile has no photo of the empty tray; calibrate with one "
                               "(calibrate drinks DIR, or --mat PHOTO --background EMPTY.png)")
        bg = profile.background.astype(np.float32)
        c["bg"] = bg
        gray = cv2.cvtColor(profile.background, cv2.COLOR_BGR2GRAY)
        c["k5"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        c["bg_lap_energy"] = float(np.mean(_band(gray)[::2, ::2] ** 2))
        c["bg_blackhat"] = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, c["k5"]).astype(np.float32)
        c["bg_tiny_log"] = np.log(cv2.resize(bg, TINY, interpolation=cv2.INTER_AREA) + 1.0)
        yy, xx = np.mgrid[0:TINY[1], 0:TINY[0]].astype(np.float32)
        c["design"] = np.column_stack([np.ones(xx.size), (xx.ravel() - TINY[0] / 2) / TINY[0],
                                       (yy.ravel() - TINY[1] / 2) / TINY[1]]).astype(np.float32)
        c["k3"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        c["k5"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        c["k7"] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    return c


def lighting_field(small: np.ndarray, profile: Profile) -> tuple[np.ndarray, float]:
    """Per-channel gain of this frame over the empty tray, smooth, at working scale."""
    c = _cached(profile)
    lr = np.log(cv2.resize(small, TINY, interpolation=cv2.INTER_AREA) + 1.0) - c["bg_tiny_log"]
    flat = lr.reshape(-1, 3)
    med = np.median(flat, axis=0)
    inl = np.abs(flat - med).max(axis=1) < 0.15
    A = c["design"]
    for _ in range(2):
        if inl.sum() < 30:
            break
        coef, *_ = np.linalg.lstsq(A[inl], flat[inl], rcond=None)
        resid = np.abs(flat - A @ coef).max(axis=1)
        inl = resid < 0.06
    else:
        pass
    w = inl.reshape(TINY[1], TINY[0]).astype(np.float32)
    if w.sum() < 30:
        field_ = np.broadcast_to(med, lr.shape).astype(np.float32)
    else:
        plane = (A @ coef).reshape(lr.shape).astype(np.float32)
        # what the plane misses (a person's shade), filled in smoothly from the tray around it
        res = (lr - plane) * w[..., None]
        num = cv2.GaussianBlur(res, (0, 0), 3.0)
        den = cv2.GaussianBlur(w, (0, 0), 3.0)[..., None] + 1e-3
        field_ = plane + num / den * np.minimum(1.0, den / 0.3)
    wsz = (small.shape[1], small.shape[0])
    gain = cv2.resize(np.exp(field_).astype(np.float32), wsz, interpolation=cv2.INTER_LINEAR)
    c["last_tray_share"] = float(w.mean())     # share of the frame that still looks like the tray
    return gain, float(np.exp(med.mean()))


def analyse(image: np.ndarray, profile: Profile) -> Analysis:
    check_frame(image, profile)
    c = _cached(profile)
    wsz = profile.work_size
    small8 = cv2.resize(image, wsz, interpolation=cv2.INTER_AREA)
    small = small8.astype(np.float32)
    gain, light = lighting_field(small, profile)
    problem = exposure_problem(small8, light)
    if problem:
        raise FrameError(problem)
    if c.get("last_tray_share", 1.0) < 0.25:
        raise FrameError("the frame does not show the calibrated tray (was the camera or the tray moved? "
                         "calibrate again)")
    expected = cv2.multiply(c["bg"], gain)
    ad = cv2.absdiff(small, expected)
    sub = ad[::4, ::4].reshape(-1, 3)
    sigma = np.maximum(np.median(sub, axis=0) * 1.4826, 1.5).astype(np.float32)
    adc = cv2.split(ad)
    z = cv2.max(cv2.max(adc[0] * (1 / sigma[0]), adc[1] * (1 / sigma[1])), adc[2] * (1 / sigma[2]))
    # a shadow darkens every channel alike and keeps the tray's colour; compared on a 3x3 mean
    # (a shadow is smooth) the colour test can be tight
    sm3 = cv2.blur(small, (3, 3))
    ex3 = cv2.blur(expected, (3, 3))
    ratio = cv2.split(cv2.divide(sm3 + 2.0, ex3 + 2.0))
    rmax = cv2.max(cv2.max(ratio[0], ratio[1]), ratio[2])
    rmin = cv2.min(cv2.min(ratio[0], ratio[1]), ratio[2])
    level = cv2.cvtColor(ex3, cv2.COLOR_BGR2GRAY) + 2.0
    rel_noise = float(sigma.max()) / 3.0 / level          # noise of a 3x3 mean, as a ratio
    shadow = (rmax < 1.0 + 4 * rel_noise) & (rmin > 0.58) & ((rmax - rmin) < 0.03 + 5 * rel_noise)
    # dark valleys: a lying drink's silhouette is a thin dark line (its side turns away from the
    # light, and it touches the tray there) even where its body matches the tray or looks like
    # a shadow (white in its own shade); a cast shadow fades out without one
    gray = cv2.cvtColor(small8, cv2.COLOR_BGR2GRAY)
    bh = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, c["k5"])
    valley = (bh.astype(np.float32) - c["bg_blackhat"] * float(light)) > 5.0 * float(sigma.mean())
    weak = ((z > 3.5) & ~shadow).astype(np.uint8) * 255
    weak = cv2.morphologyEx(weak, cv2.MORPH_OPEN, c["k3"])     # noise specks; thin valleys join after
    weak[valley] = 255
    strong = (z > 7.0) & (weak > 0)
    n, lab = cv2.connectedComponents(weak, connectivity=8)
    keep = np.zeros(n, np.uint8)
    keep[np.unique(lab[strong])] = 255
    keep[0] = 0
    fg = keep[lab]
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, c["k7"])
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(fg)
    min_area = min(profile.stats.get("min_area", 150) * 0.05, 30)
    keep = [cnt for cnt in contours if cv2.contourArea(cnt) >= min_area]
    cv2.drawContours(mask, keep, -1, 255, -1)
    # how sharp is this frame? the tray's fine detail against the empty tray's (where no drink is)
    lap = _band(gray)
    free = mask[::2, ::2] == 0
    e_now = float(np.mean(lap[::2, ::2][free] ** 2)) if free.any() else 0.0
    e_bg = c["bg_lap_energy"] * light * light
    sharp = min(1.0, math.sqrt(e_now / e_bg)) if e_bg > 0 else 1.0
    return Analysis(small, gain, None, mask, sigma, light, sharp, (z < 2.5) & (mask == 0))


# --- features --------------------------------------------------------------------------------

@dataclass
class Region:
    mask: np.ndarray      # uint8 0/255 crop
    x0: int
    y0: int

    @property
    def area(self) -> int:
        return int(np.count_nonzero(self.mask))


def measure(region: Region, an: Analysis, unit_scale: float = 1.0, axis=None) -> dict | None:
    """Geometry and colour features of one drink-sized region (None if degenerate)."""
    ys, xs = np.nonzero(region.mask)
    if len(xs) < 30:
        return None
    pts = np.column_stack([xs, ys]).astype(np.float32)
    mean = pts.mean(axis=0)
    d = pts - mean
    if axis is None:
        cov = d.T @ d / len(d)
        evals, evecs = np.linalg.eigh(cov)
        e1 = evecs[:, 1].astype(np.float32)
        if evals[1] < 1.8 * evals[0]:
            # nearly as wide as long (a stubby can): the length is the direction along which the
            # shading does not change (a cylinder's shading runs across it)
            a = measure(region, an, unit_scale, e1)
            b = measure(region, an, unit_scale, np.array([-e1[1], e1[0]], np.float32))
            if a is None or b is None:
                return a or b
            return a if a["flat"] >= b["flat"] else b
    else:
        e1 = np.asarray(axis, np.float32)
    t = d @ e1
    s = d @ np.array([-e1[1], e1[0]], np.float32)
    t0 = math.floor(t.min())
    pos = t - t0
    tb = pos.astype(np.int32)
    frac = pos - tb
    # soft binning: each pixel's unit area is shared by the two nearest slices, so that the
    # pixel grid seen at a slant does not alias into a comb of thick and thin slices
    w = (np.bincount(tb, 1.0 - frac, minlength=tb.max() + 2) + np.bincount(tb + 1, frac, minlength=tb.max() + 2))
    w = w.astype(np.float32)
    W = _quantile(w, 0.85)
    if W <= 2:
        return None
    ends = np.nonzero(w >= 0.25 * W)[0]
    lo, hi = int(ends[0]), int(ends[-1])
    w = w[lo:hi + 1]
    L = float(len(w))
    # orient: the narrow end (a bottle's neck) last
    q = max(1, int(round(len(w) * 0.22)))
    if w[:q].mean() < w[-q:].mean():
        w = w[::-1]
        t = -t
        e1 = -e1
        tlo = -(hi + t0 + 1)
    else:
        tlo = lo + t0
    neck = float(w[-q:].mean() / W)
    a, b = int(len(w) * 0.55), int(len(w) * 0.75)
    shoulder = float(w[a:max(b, a + 1)].mean() / W)
    # brightness across the body (the wide end, away from the ends)
    tn = (t - tlo) / max(L, 1.0)
    col = an.small[ys + region.y0, xs + region.x0] / an.gain[ys + region.y0, xs + region.x0]
    lum = col @ LUMA
    body = (tn > 0.12) & (tn < 0.5)
    flat, edge = 0.0, 0.0
    if body.sum() > 20:
        sn = s[body] / (W / 2)
        bins = np.clip(((sn + 1) / 2 * 7).astype(np.int32), 0, 6)
        cnt = np.bincount(bins, minlength=7).astype(np.float32)
        tot = np.bincount(bins, weights=lum[body], minlength=7)
        prof = tot / np.maximum(cnt, 1)
        prof = np.where(cnt > 0, prof, prof[cnt > 0].mean())
        top = max(float(prof.max()), 1.0)
        core = prof[1:6] / top
        flat = float(core.std() / max(core.mean(), 1e-3))
        edge = float((prof[0] + prof[6]) / 2 / max(prof[2:5].mean(), 1.0))
    # colour of the body: the lit part, without highlights and shaded edges
    inner = body & (np.abs(s) < W * 0.35) if body.sum() > 40 else np.ones_like(lum, bool)
    if not inner.any():             # a ragged cut (a fitted outline over few pixels): all of it
        inner = np.ones_like(lum, bool)
    li = lum[inner]
    lo_l, hi_l = _quantile(li, 0.30), _quantile(li, 0.80)
    sel = inner.copy()
    sel[inner] = (li >= lo_l) & (li <= hi_l)
    if sel.sum() < 5:
        sel = inner
    colour = np.median(col[sel], axis=0)
    cx = float(mean[0] + region.x0)
    cy = float(mean[1] + region.y0)
    # the outline itself (wide end first), for fitting it later where a drink's edges are hidden
    wprof = np.interp(np.linspace(0, len(w) - 1, OUTLINE_POINTS), np.arange(len(w)), w) * unit_scale
    return {"length": L * unit_scale, "width": W * unit_scale, "neck": neck, "shoulder": shoulder,
            "flat": flat, "edge": edge, "b": float(colour[0]), "g": float(colour[1]), "r": float(colour[2]),
            "cx": cx, "cy": cy, "area": float(len(xs)), "axis": (float(e1[0]), float(e1[1])),
            "outline": [round(float(v), 2) for v in wprof]}


def _quantile(a: np.ndarray, q: float) -> float:
    """The q-quantile by selection (np.percentile's interpolation and checks cost more than the
    measuring itself on these small arrays); the nearest rank, which is all the features need."""
    k = min(len(a) - 1, max(0, int(round(q * (len(a) - 1)))))
    return float(np.partition(a, k)[k])


def shape_vector(f: dict) -> np.ndarray:
    v = np.array([f[k] for k in SHAPE_FEATURES], np.float64)
    v[SHAPE_FEATURES.index("flat")] = math.log(f["flat"] + 0.02)   # facets: ratios matter, not differences
    return v


def colour_vector(f: dict) -> np.ndarray:
    return np.array([f[k] for k in COLOUR_FEATURES], np.float64)


# --- classification --------------------------------------------------------------------------

def _posterior(d2: dict[str, float]) -> tuple[str, float, float, str]:
    keys = list(d2)
    v = np.array([d2[k] for k in keys])
    p = np.exp(-0.5 * (v - v.min()))
    p /= p.sum()
    i = int(np.argmax(p))
    order = np.argsort(-p)
    return keys[i], float(p[i]), float(v[i]), keys[int(order[1])]


def _band(gray: np.ndarray) -> np.ndarray:
    """Fine detail (Laplacian): motion blur removes it."""
    return cv2.Laplacian(gray, cv2.CV_32F)


def blur_inflation(sharpness: float) -> float:
    return 1.0 + 2.5 * max(0.0, 0.92 - sharpness)


def _tables(profile: Profile):
    """The 36 drinks' expected shape vectors (colour x shape x feature) and colour means, as arrays."""
    c = profile._cache
    if "tables" not in c:
        cols = [x.value for x in COLOURS]
        shps = [x.value for x in SHAPES]
        sm, cm = profile.shape_model, profile.colour_model
        off = np.array([sm.offsets[k] if sm.offsets else np.zeros_like(sm.spread) for k in cols])
        S = np.array([sm.means[k] for k in shps])[None, :, :] + off[:, None, :]
        C = np.array([cm.means[k] for k in cols])[:, None, :].repeat(len(shps), 1)
        # each drink as its own calibration photo showed it as well: the models add a shape's
        # effect to a colour's, but some drinks are more than the sum (a black square bottle's
        # flat faces catch the light, and it reads lighter and flatter than black cans suggest)
        ppm = float(profile.stats.get("px_per_mm", 1.0))
        units = np.array([ppm if n in ("length", "width") else 1.0 for n in SHAPE_FEATURES])
        own_s, own_c = S.copy(), C.copy()
        for i, k in enumerate(cols):
            for j, s in enumerate(shps):
                rec = profile.drinks.get(f"{k}-{s}", {})
                if all(n in rec for n in SHAPE_FEATURES):
                    own_s[i, j] = shape_vector(rec) * units
                if all(n in rec for n in COLOUR_FEATURES):
                    own_c[i, j] = colour_vector(rec)
        # the edge feature is a ratio of brightnesses: on a dark drink a little light from a
        # neighbour or the tray moves it much more, so its spread grows as the colour darkens
        lum = np.array([cm.means[k] @ LUMA for k in cols])
        sinv = np.broadcast_to(1.0 / sm.spread, (len(cols), len(SHAPE_FEATURES))).copy()
        sinv[:, SHAPE_FEATURES.index("edge")] *= np.minimum(1.0, lum / np.median(lum))
        c["tables"] = (cols, shps, np.stack([S, own_s]), sinv[:, None, :], np.stack([C, own_c]), 1.0 / cm.spread)
    return c["tables"]


def _joint(f: dict, profile: Profile):
    """Colour distance and shape distance (each 6 colours x 6 shapes) of a region's features:
    against the models' prediction for each drink or against the drink's own calibration, the nearer."""
    cols, shps, S, sinv, C, cinv = _tables(profile)
    dc = (((colour_vector(f) - C) * cinv) ** 2).sum(axis=3).min(axis=0)
    ds = (((shape_vector(f) - S) * sinv) ** 2).sum(axis=3).min(axis=0)
    return cols, shps, dc, ds


def _calibrated_length(profile: Profile, drink: str) -> float:
    """The drink's length in working px (a mat profile's mm turned to px): as its calibration
    photo measured it or as the models predict it, the longer (one photo may measure it short)."""
    cols, shps, S, *_ = _tables(profile)
    colour, shape = drink.split("-", 1)
    i = SHAPE_FEATURES.index("length")
    return float(S[:, cols.index(colour), shps.index(shape), i].max())


def classify(f: dict, profile: Profile, sharpness: float = 1.0) -> dict:
    """Joint over the 36 drinks: colour distance + shape distance given that colour. A blurred
    frame (sharpness < 1) measures outlines less exactly: the shape spread widens with it."""
    cols, shps, dc, ds = _joint(f, profile)
    ds = ds / blur_inflation(sharpness) ** 2
    tot = dc + ds
    flat_ = tot.ravel()
    p = np.exp(-0.5 * (flat_ - flat_.min()))
    p /= p.sum()
    order = np.argsort(-p)
    best, second = int(order[0]), int(order[1])
    ci, si = divmod(best, len(shps))
    colour, shape = cols[ci], shps[si]
    d_c, d_s = float(dc[ci, si]), float(ds[ci, si])
    conf = float(p[best])
    f["_ds"], f["_dc"] = round(d_s, 1), round(d_c, 1)
    reasons = []
    if d_s > OUTLIER_SHAPE:
        reasons.append("outline fits no drink")
        conf = min(conf, 0.3)
    runner_up = float(np.delete(dc, ci, axis=0).min())
    # a dark drink's lit face on a dark tray reads lighter than calibrated: far off, but much
    # nearer its own colour than any other, and with its outline fitting well, it is that drink
    plain = d_s <= SHAPE_SURE and d_c <= 2 * OUTLIER_COLOUR and runner_up >= COLOUR_APART * d_c
    if d_c > OUTLIER_COLOUR and not plain:
        reasons.append("colour fits no drink")
        conf = min(conf, 0.3)
    # motion blur smears both ends outwards by a few pixels, whatever the drink's length
    longest = _calibrated_length(profile, f"{colour}-{shape}") * TOO_LONG + \
        BLUR_SMEAR * (blur_inflation(sharpness) - 1.0)
    if d_s <= OUTLIER_SHAPE and f["length"] > longest:
        # the other features may fit while the piece runs on past the drink: two drinks end to
        # end, or a drink and its neighbour's end, read as one
        reasons.append(f"longer than a {colour} {shape.replace('_', ' ')}: two drinks?")
        conf = min(conf, 0.3)
    if p[best] < 0.9:
        c2, s2 = divmod(second, len(shps))
        reasons.append(f"or {cols[c2]}-{shps[s2]}?")
    return {"color": colour, "shape": shape, "confidence": round(conf, 3), "unsure": conf < UNSURE_BELOW,
            "why": "; ".join(reasons), "d_shape": d_s, "d_colour": d_c}


# --- regions and splitting ----------------------------------------------------------------------

def regions_of(an: Analysis, profile: Profile) -> list[Region]:
    """Connected drink pixels; fragments of one drink (a black can whose lit middle matches a
    dark tray, a white one on a light tray) are joined when together they are drink-sized."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(an.mask, connectivity=8)
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
    _, _, dc, ds = _joint(f, profile)
    return float((np.minimum(dc, 100.0) + np.minimum(ds, 300.0)).min()), f


def identify_analysis(an: Analysis, profile: Profile) -> list[dict]:
    from .fit import refit

    scale = 1.0 / profile.scale
    found = []
    for region in regions_of(an, profile):
        for piece, f in split(region, an, profile):
            if f is None:
                continue
            c = classify(f, profile, an.sharpness)
            found.append({"color": c["color"], "shape": c["shape"], "cx": f["cx"], "cy": f["cy"],
                          "confidence": c["confidence"], "unsure": bool(c["unsure"]), "_why": c["why"], "_f": f,
                          "_r": piece, "_outline_bad": c["d_shape"] > OUTLIER_SHAPE and c["d_colour"] <= OUTLIER_COLOUR})
    found = refit(found, an, profile, profile.stats.get("min_area", 0), profile.stats.get("max_area", 1e9))
    out = []
    for d in found:
        cx, cy = d.pop("cx"), d.pop("cy")
        d.pop("_r", None)
        d.pop("_outline_bad", None)
        out.append({"color": d["color"], "shape": d["shape"],
                    "x": round((cx + 0.5) * scale - 0.5, 1), "y": round((cy + 0.5) * scale - 0.5, 1),
                    **{k: v for k, v in d.items() if k not in ("color", "shape")}})
    return out


SPLIT_PENALTY = 10.0     # cost of one more drink in a blob (keeps a drink from being cut in two)


def split(region: Region, an: Analysis, profile: Profile) -> list[tuple[Region, dict | None]]:
    """One region -> drinks: keep it when it fits one drink, else cut and re-merge by fit."""
    max_area = profile.stats.get("max_area", 1e9)
    min_area = profile.stats.get("min_area", 0)
    f = measure(region, an)
    cost, _ = _cost(f, profile)
    if region.area <= 1.2 * max_area and cost < 25:
        return [(region, f)]
    if region.area < 0.5 * min_area:
        return [(region, f)]
    m = region.mask
    h, w = m.shape
    y0, x0 = region.y0, region.x0
    roi = an.small[y0:y0 + h, x0:x0 + w] / an.gain[y0:y0 + h, x0:x0 + w]
    img8 = np.clip(roi, 0, 255).astype(np.uint8)
    # internal edges: boundaries between drinks are steep (a colour change, or the dark
    # silhouettes of two cylinders side by side)
    grad = cv2.morphologyEx(img8, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)).max(axis=2)
    inside = cv2.erode(m, np.ones((3, 3), np.uint8)) > 0
    if inside.sum() < 20:
        return [(region, f)]
    thr = max(float(np.percentile(grad[inside], 65)), 12.0)
    interior = (inside & (grad < thr)).astype(np.uint8)
    interior = cv2.morphologyEx(interior, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, markers = cv2.connectedComponents(interior)
    if n <= 2:
        return [(region, f)]
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
        return [(region, f)]
    lab = markers.copy()
    lab[(lab == -1) | (m == 0)] = 0
    lab[lab == bgmark] = 0
    # what the flood from outside took is a piece of its own when it is big enough to be part of
    # a drink and brighter than the tray there (a pale bottle's neck and cap, beyond a faint
    # shoulder), for the joining below to place; what is darker is most likely shadow, and it,
    # watershed lines and thin leftovers go to the neighbouring piece
    lost = cv2.morphologyEx(((markers == bgmark) & (m > 0)).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    nl, lost_lab, lost_stats, _ = cv2.connectedComponentsWithStats(lost, connectivity=4)
    if nl > 1:
        tray_lum = _cached(profile)["bg"][y0:y0 + h, x0:x0 + w] @ LUMA
        for j in range(1, nl):
            part = lost_lab == j
            if lost_stats[j, cv2.CC_STAT_AREA] >= max(40, 0.08 * min_area) and \
                    np.median(roi[part] @ LUMA - tray_lum[part]) > 0:
                lab[part] = bgmark + j
                labels.append(bgmark + j)
    for _ in range(12):
        lost = (lab == 0) & (m > 0)
        if not lost.any():
            break
        dil = cv2.dilate(lab.astype(np.float32), np.ones((3, 3), np.uint8)).astype(np.int32)
        lab[lost] = dil[lost]
    pieces = {i: (lab == i) for i in labels if np.any(lab == i)}
    cache: dict[frozenset, tuple[float, dict | None]] = {}

    def cost_of(key: frozenset):
        if key not in cache:
            pm = np.zeros_like(m)
            for i in key:
                pm[pieces[i]] = 255
            cache[key] = (*_cost(measure(Region(pm, x0, y0), an), profile), pm)
        return cache[key]

    groups = [frozenset([i]) for i in pieces]
    k5 = np.ones((5, 5), np.uint8)
    dil = {i: cv2.dilate(pieces[i].astype(np.uint8), k5) > 0 for i in pieces}

    def adjacent(g1, g2):
        return any(np.any(dil[i] & pieces[j]) for i in g1 for j in g2)

    # each piece's colour: pieces that are clearly of different colours are different drinks
    lum_roi = roi @ LUMA
    piece_colour: dict[int, str | None] = {}
    for i, pm_ in pieces.items():
        px = roi[pm_]
        if len(px) < 15:
            piece_colour[i] = None
            continue
        lv = lum_roi[pm_]
        lo_l, hi_l = np.percentile(lv, [30, 80])
        sel = (lv >= lo_l) & (lv <= hi_l)
        d = profile.colour_model.distances(np.median(px[sel] if sel.sum() >= 5 else px, axis=0))
        ranked = sorted(d.items(), key=lambda kv: kv[1])
        sure = ranked[0][1] < 15 and ranked[1][1] - ranked[0][1] > 10
        piece_colour[i] = ranked[0][0] if sure else None

    def colour_of(g):
        cs = {piece_colour[i] for i in g} - {None}
        return cs

    def same_colour(g1, g2):
        c1, c2 = colour_of(g1), colour_of(g2)
        return not c1 or not c2 or bool(c1 & c2)

    # greedy: join the neighbouring pair whose union fits a drink best, while that pays
    for _ in range(len(groups) * 2):
        if len(groups) <= 1:
            break
        best = None
        for a_i, g1 in enumerate(groups):
            for g2 in groups[a_i + 1:]:
                if not adjacent(g1, g2) or not same_colour(g1, g2):
                    continue
                u = g1 | g2
                gain_ = cost_of(g1)[0] + cost_of(g2)[0] + SPLIT_PENALTY - cost_of(u)[0]
                if best is None or gain_ > best[0]:
                    best = (gain_, g1, g2)
        if best is None or best[0] <= 0:
            break
        _, g1, g2 = best
        groups = [g for g in groups if g not in (g1, g2)] + [g1 | g2]
    return [(Region(cost_of(g)[2], x0, y0), cost_of(g)[1]) for g in groups]


def identify(image: np.ndarray, profile: Profile, debug: bool = False) -> list[dict]:
    """The drinks in one frame: color, shape, x, y (centroid, frame pixels), confidence, unsure."""
    an = analyse(image, profile)
    found = identify_analysis(an, profile)
    if not debug:
        for d in found:
            d.pop("_f", None)
            d.pop("_why", None)
    return found
