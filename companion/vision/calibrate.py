"""Calibration: learn the drinks' colours and sizes from photos, write a profile.

Two ways in:

* ``calibrate_dir(DIR)``: ``background.png`` (the empty tray) and 36 photos
  ``<colour>-<shape>.png`` with one drink each, all taken by the tray camera.
* ``calibrate_mat(PHOTO)``: one photo of all 36 drinks laid on the printable mat (see
  ``mat.py``); sizes come out in millimetres, colours relative to the mat's grey. Bound to a
  tray by ``background=`` (a photo of the empty tray showing the tray marker cut from the
  mat), which gives the tray's scale and grey reference.
"""
from __future__ import annotations

import logging
import math
from pathlib import Path

import cv2
import numpy as np

from ..drinks import COLOURS, DRINK_IDS, SHAPES
from .calibration_pieces import add_pieces
from .drinks import regions_of
from .features import COLOUR_FEATURES, SHAPE_FEATURES, Region, colour_vector, measure, shape_vector, size_units
from .profile import Model, Profile, work_scale
from .segment import Analysis, FrameError, analyse, shadow_depths
from .view import ROUND_NAMES, as_if_at_no_angle, as_in_the_middle, fit_angle_effect, fit_size_field

log = logging.getLogger("companion.vision")

IMAGE_EXTS = (".png", ".jpg", ".jpeg")
# floors of the per-feature spread (relative to the feature's mean over all classes, or absolute)
SHAPE_FLOOR_REL = {"length": 0.025, "width": 0.04}
SHAPE_FLOOR_ABS = {"neck": 0.04, "shoulder": 0.04, "flat": 0.15, "edge": 0.05}
COLOUR_FLOOR = 7.0
INFLATE = 1.5


class CalibrationError(Exception):
    """Calibration cannot go on; the message says which file and what to do."""


def read_image(path: Path) -> np.ndarray:
    path = Path(path)
    if not path.exists():
        raise CalibrationError(f"{path}: no such file")
    data = np.fromfile(str(path), np.uint8) if path.is_file() else None
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
    if img is None:
        raise CalibrationError(f"{path}: cannot read it as an image (damaged, or not a PNG/JPEG)")
    return img


def _find(directory: Path, stem: str) -> Path | None:
    for ext in IMAGE_EXTS:
        p = directory / f"{stem}{ext}"
        if p.exists():
            return p
    return None


def _bare_profile(background: np.ndarray) -> Profile:
    h, w = background.shape[:2]
    s = work_scale(w)
    small = cv2.resize(background, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_AREA)
    empty = Model([], {}, np.ones(0))
    p = Profile(image_size=(w, h), background=small, colour_model=empty, shape_model=empty, drinks={})
    p.stats["min_area"] = 1e9         # unknown yet: every piece may be a fragment of the drink
    p.stats["speck"] = 12.0
    return p


def single_drink(img: np.ndarray, profile: Profile, name: str) -> dict:
    """Features of the one drink in a calibration photo; clear errors otherwise."""
    if (img.shape[1], img.shape[0]) != tuple(profile.image_size):
        raise CalibrationError(f"{name}: the photo is {img.shape[1]}x{img.shape[0]} but background.png is "
                               f"{profile.image_size[0]}x{profile.image_size[1]}; take every photo with the "
                               "same camera setting")
    try:
        an = analyse(img, profile)
    except FrameError as exc:
        raise CalibrationError(f"{name}: {exc}") from None
    regions = sorted(regions_of(an, profile), key=lambda r: -r.area)
    if not regions:
        raise CalibrationError(f"{name}: no drink found (is it the same tray, camera position and light as "
                               "background.png?)")
    big = [r for r in regions if r.area >= 0.25 * regions[0].area]
    if len(big) > 1:
        raise CalibrationError(f"{name}: {len(big)} drinks (or other objects) in the photo; put exactly one "
                               "drink in the tray for each photo")
    f = measure(regions[0], an, outline=True)
    if f is None:
        raise CalibrationError(f"{name}: the drink is too small to measure")
    border = regions[0]
    h, w = an.mask.shape
    if border.x0 <= 1 or border.y0 <= 1 or border.x0 + border.mask.shape[1] >= w - 1 or \
            border.y0 + border.mask.shape[0] >= h - 1:
        raise CalibrationError(f"{name}: the drink touches the edge of the photo; lay it fully inside the view")
    f["light"] = an.light
    depths = shadow_depths(an, profile)
    f["shadow_depth"] = float(np.percentile(depths, 95)) if len(depths) >= 20 else float("nan")
    return f


def _robust_spread(resid: np.ndarray, dof_scale: float = 1.0) -> np.ndarray:
    """Per-feature spread of residuals: RMS after dropping gross outliers (a bad photo)."""
    mad = 1.4826 * np.median(np.abs(resid), axis=0) + 1e-9
    keep = np.abs(resid) <= 4 * mad
    rms = np.sqrt(np.sum(np.where(keep, resid ** 2, 0), axis=0) / np.maximum(keep.sum(axis=0), 1))
    return rms * dof_scale


def build_models(features: dict[str, dict], units: str = "px") -> tuple[Model, Model, dict]:
    """Colour: per-colour means, pooled spread. Shape: shape effect + colour effect (median
    polish over the 6 x 6 table of drinks), spread from what that leaves. One sample per drink."""
    cols = [c.value for c in COLOURS]
    shps = [s.value for s in SHAPES]
    # colours
    groups = {c: np.array([colour_vector(features[f"{c}-{s}"]) for s in shps]) for c in cols}
    med = {c: np.median(v, axis=0) for c, v in groups.items()}
    resid = np.concatenate([v - med[c] for c, v in groups.items()])
    spread_c = _robust_spread(resid, math.sqrt(6 / 5))
    cmeans = {}
    for c, v in groups.items():
        ok = np.all(np.abs(v - med[c]) <= 4 * np.maximum(spread_c, 3.0), axis=1)
        cmeans[c] = v[ok].mean(axis=0) if ok.any() else med[c]
    colour = Model(list(COLOUR_FEATURES), cmeans, np.maximum(spread_c * INFLATE, COLOUR_FLOOR))
    # shapes: X[c, s] = mu + a[s] + b[c] + e
    X = np.array([[shape_vector(features[f"{c}-{s}"]) for s in shps] for c in cols])   # 6 x 6 x F
    R = X.copy()
    row = np.zeros((len(cols), X.shape[2]))
    colm = np.zeros((len(shps), X.shape[2]))
    for _ in range(6):
        r = np.median(R, axis=1)
        row += r
        R -= r[:, None, :]
        k = np.median(R, axis=0)
        colm += k
        R -= k[None, :, :]
    resid = R.reshape(-1, X.shape[2])
    spread_s = _robust_spread(resid, math.sqrt(36 / 25))
    overall = np.abs(colm + row.mean(axis=0)).mean(axis=0)
    floor = np.array([SHAPE_FLOOR_REL.get(n, 0) * overall[i] + SHAPE_FLOOR_ABS.get(n, 0)
                      for i, n in enumerate(SHAPE_FEATURES)])
    smeans = {s: colm[j] + row.mean(axis=0) for j, s in enumerate(shps)}
    offsets = {c: row[i] - row.mean(axis=0) for i, c in enumerate(cols)}
    shape = Model(list(SHAPE_FEATURES), smeans, np.maximum(spread_s * INFLATE, floor), offsets)
    areas = [f["area"] for f in features.values()]
    widths = [f["width"] for f in features.values()]
    stats = {"min_area": float(min(areas)), "max_area": float(max(areas)),
             "min_width": float(min(widths)), "max_width": float(max(widths)),
             "max_length": float(max(f["length"] for f in features.values())),
             "min_length": float(min(f["length"] for f in features.values()))}
    return colour, shape, stats


def _record(f: dict) -> dict:
    rec = {k: round(float(f[k]), 4) for k in (*SHAPE_FEATURES, *COLOUR_FEATURES, "area")}
    rec["outline"] = list(f["outline"])      # width along the length (see vision/fit.py)
    return rec


def calibrate_dir(directory: str | Path) -> Profile:
    directory = Path(directory)
    if not directory.is_dir():
        raise CalibrationError(f"{directory}: not a folder; give the folder with background.png and the 36 "
                               "drink photos")
    bg_path = _find(directory, "background")
    if bg_path is None:
        raise CalibrationError(f"{directory}: background.png (a photo of the empty tray) is missing")
    missing = [d for d in DRINK_IDS if _find(directory, d) is None]
    if missing:
        shown = ", ".join(f"{d}.png" for d in missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        raise CalibrationError(f"{directory}: {len(missing)} drink photo(s) missing: {shown}")
    known = {"background"} | set(DRINK_IDS)
    for p in sorted(directory.iterdir()):
        if p.suffix.lower() in IMAGE_EXTS and p.stem not in known:
            log.warning("%s: not a drink id, ignored (names look like red-short_can.png)", p.name)
    photos = ((d, path.name, read_image(path)) for d in DRINK_IDS for path in [_find(directory, d)])
    return calibrate_photos(read_image(bg_path), photos, f"calibrate drinks {directory.name}")


def calibrate_photos(background: np.ndarray, photos, source: str) -> Profile:
    """The profile from the empty tray and one photo per drink, given as (drink id, name for
    messages, BGR image) for each of the 36 drinks (a generator will do). The photos are kept
    until the profile is made: each is then read again with it, for its drink's calibration
    piece (calibration_pieces.py)."""
    profile = _bare_profile(background)
    shots = []
    features = {}
    for d, name, img in photos:
        features[d] = single_drink(img, profile, name)
        shots.append((d, img))
    field = fit_size_field(features, (profile.work_size[1], profile.work_size[0]))
    features = {d: as_in_the_middle(f, field, (profile.work_size[1], profile.work_size[0]))
                for d, f in features.items()}
    effect = fit_angle_effect(features)
    features = {d: as_if_at_no_angle(f, effect) if d.split("-", 1)[1] in ROUND_NAMES else f
                for d, f in features.items()}
    colour, shape, stats = build_models(features)
    profile.colour_model, profile.shape_model = colour, shape
    shadows = [f["shadow_depth"] for f in features.values() if not math.isnan(f["shadow_depth"])]
    if shadows:
        stats["shadow_depth"] = round(float(np.median(shadows)), 4)
    profile.stats = {**stats, "size_field": [round(v, 4) for v in field],
                     "angle_effect": {k: [round(v, 4) for v in cs] for k, cs in effect.items()}}
    profile.drinks = {d: _record(f) for d, f in features.items()}
    profile.source = source
    _check_separable(profile)
    _check_sizes(profile)
    add_pieces(profile, shots)
    return profile


SIZE_ODD = 0.15         # a drink whose length or width is this far (log) from what its shape and colour predict


def _check_sizes(profile: Profile) -> None:
    """Warn about each drink whose photo measured it much shorter or narrower (or longer,
    wider) than its shape and colour predict from the other 35: either the
    drink is hard to see against this tray (part of it looks like the tray, or like a shadow
    on it), and the frames will see it as its photo did (identification compares a drink
    with its own photo as well as with the prediction, and may still know it, or read it
    unsure), or something else lay in the photo, which is then better taken again."""
    sm = profile.shape_model
    for d, rec in profile.drinks.items():
        colour, shape = d.split("-", 1)
        if shape not in sm.means or not sm.offsets or colour not in sm.offsets:
            continue
        for name in ("length", "width"):
            k = SHAPE_FEATURES.index(name)
            expected = float(sm.means[shape][k] + sm.offsets[colour][k])
            if expected > 0 and rec.get(name, 0) > 0 and abs(math.log(rec[name] / expected)) > SIZE_ODD:
                how = {"length": ("shorter", "longer"), "width": ("narrower", "wider")}[name][rec[name] > expected]
                log.warning("calibration: %s measured %.0f %% %s than its shape and colour predict: it is "
                            "hard to see against this tray (expect it read unsure or missed at times; more "
                            "light helps), or something else was in its photo (then take that photo again)", d,
                            100 * abs(rec[name] / expected - 1), how)
                break


def _check_separable(profile: Profile) -> None:
    """Warn when two classes are so close that identification will often be unsure."""
    for name, model in (("colours", profile.colour_model), ("shapes", profile.shape_model)):
        keys = list(model.means)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                d = math.sqrt(float(np.sum(((model.means[a] - model.means[b]) / model.spread) ** 2)))
                if d < 3.0:
                    log.warning("calibration: %s %s and %s look alike (separation %.1f); expect unsure "
                                "readings between them", name, a, b, d)


# --- from one photo of the mat ---------------------------------------------------------------

MAT_PPM = 3.0          # rectified mat, px per mm
GREY_REF = 128.0       # colours from the mat are stored as if the mat's grey were this
MAT_TRANSFER = 1.6     # wider shape spreads for a mat profile used on the tray


MAX_MAT_PHOTOS = 5  # photos of the mat in one calibration: two or three poses are what helps


def calibrate_mat(photo_paths, background: str | Path | None = None) -> Profile:
    """A profile from photos of the 36 drinks on the printed mat (sizes in mm, colours relative
    to the mat's grey): one photo, or up to ``MAX_MAT_PHOTOS`` with the drinks turned over or
    rolled between them. Each photo is a pose of every drink: the models learn from the middle
    of the poses, and a drink is compared with each of its poses as well (a square bottle on its
    face and on its edge, a can's seam turned up or down). With ``background`` (the empty tray
    showing the tray marker) it is bound to that tray and camera, ready for identification."""
    paths = [Path(photo_paths)] if isinstance(photo_paths, (str, Path)) else [Path(p) for p in photo_paths]
    if not 1 <= len(paths) <= MAX_MAT_PHOTOS:
        raise CalibrationError(f"give 1 to {MAX_MAT_PHOTOS} photos of the mat (two or three, the drinks turned "
                               f"over between them, are best), not {len(paths)}")
    poses: dict[str, list[dict]] = {d: [] for d in DRINK_IDS}
    first = None
    for path in paths:
        photo = read_image(path)
        first = photo if first is None else first
        for d, f in _mat_photo(photo, path.name).items():
            poses[d].append(f)
    features = {d: _middle_pose(fs) for d, fs in poses.items()}
    colour, shape, stats = build_models(features)
    drinks = {d: {**_record(features[d]), **({"poses": [_record(f) for f in fs]} if len(fs) > 1 else {})}
              for d, fs in poses.items()}
    profile = Profile(image_size=(first.shape[1], first.shape[0]), background=None, colour_model=colour,
                      shape_model=shape, drinks=drinks, units="mm",
                      source="calibrate drinks --mat " + " ".join(p.name for p in paths), stats=stats)
    _check_separable(profile)
    if background is not None:
        profile = bind_to_tray(profile, read_image(Path(background)), Path(background).name)
    return profile


def _mat_photo(photo: np.ndarray, name: str) -> dict[str, dict]:
    """Every drink as one photo of the mat shows it on its spot."""
    from . import mat

    try:
        view = mat.find_mat(photo)
    except ValueError as exc:
        raise CalibrationError(f"{name}: {exc}") from None
    W, H = int(mat.PAGE_MM[0] * MAT_PPM), int(mat.PAGE_MM[1] * MAT_PPM)
    S = np.diag([MAT_PPM, MAT_PPM, 1.0])
    rect = cv2.warpPerspective(photo, S @ view.H, (W, H), flags=cv2.INTER_AREA).astype(np.float32)
    return {d: _mat_spot(rect, d, name) for d in DRINK_IDS}


def _middle_pose(poses: list[dict]) -> dict:
    """One drink's poses as one: the median of each measured feature (and of the outline's
    widths), so that no single pose (a face catching the lamp) decides the models."""
    if len(poses) == 1:
        return poses[0]
    middle = dict(poses[0])
    for k in (*SHAPE_FEATURES, *COLOUR_FEATURES, "area"):
        middle[k] = float(np.median([f[k] for f in poses]))
    outlines = [f["outline"] for f in poses]
    if len({len(o) for o in outlines}) == 1:
        middle["outline"] = [float(v) for v in np.median(np.array(outlines, np.float64), axis=0)]
    return middle


def _mat_spot(rect: np.ndarray, drink: str, name: str) -> dict:
    from . import mat

    cx, cy = mat.spot_centre(drink)
    sw, sh = mat.SPOT_MM
    x0, y0 = int(round((cx - sw / 2) * MAT_PPM)), int(round((cy - sh / 2) * MAT_PPM))
    x1, y1 = int(round((cx + sw / 2) * MAT_PPM)), int(round((cy + sh / 2) * MAT_PPM))
    roi = rect[y0:y1, x0:x1]
    h, w = roi.shape[:2]
    ring = np.ones((h, w), bool)
    b = int(round(1.6 * MAT_PPM))
    ring[b:-b, b:-b] = False
    ring[:1, :] = ring[-1:, :] = False
    ring[:, :1] = ring[:, -1:] = False
    grey = np.median(roi[ring], axis=0)
    dev = np.abs(roi[ring] - grey)
    sigma = np.maximum(np.median(dev, axis=0) * 1.4826, 1.5)
    z = (np.abs(roi - grey) / sigma).max(axis=2)
    ratio = (roi + 2) / (grey + 2)
    shadow = (ratio.max(axis=2) < 1.03) & (ratio.min(axis=2) > 0.58) & (np.ptp(ratio, axis=2) < 0.12)
    gray = cv2.cvtColor(np.clip(roi, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    gm = cv2.add(cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 1, 0)),
                 cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 0, 1)), dtype=cv2.CV_32F)
    fg = (((z > 5) & ~shadow) | (gm > 18 * float(sigma.mean()))).astype(np.uint8) * 255
    fg[:2, :] = fg[-2:, :] = 0
    fg[:, :2] = fg[:, -2:] = 0
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    cnts, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cnts = sorted(cnts, key=cv2.contourArea, reverse=True)
    label = f"{name}: spot {drink}"
    if not cnts or cv2.contourArea(cnts[0]) < 0.15 * (sh * MAT_PPM) ** 2:
        raise CalibrationError(f"{label} is empty; lay every drink on its own spot and photograph again")
    if len(cnts) > 1 and cv2.contourArea(cnts[1]) > 0.3 * cv2.contourArea(cnts[0]):
        raise CalibrationError(f"{label} holds two objects; one drink per spot")
    m = np.zeros_like(fg)
    cv2.drawContours(m, cnts[:1], -1, 255, -1)
    gain = np.broadcast_to((grey / GREY_REF).astype(np.float32), roi.shape)
    an = Analysis(roi, gain, None, m, sigma.astype(np.float32), 1.0)
    f = measure(Region(m, 0, 0), an, unit_scale=1.0 / MAT_PPM, outline=True)
    if f is None:
        raise CalibrationError(f"{label}: the drink is too small to measure")
    f["area"] = f["area"] / MAT_PPM ** 2
    return f


def bind_to_tray(profile: Profile, background: np.ndarray, name: str = "background") -> Profile:
    """Turn a mat profile (mm, grey-relative colours) into one for this tray and camera."""
    from . import mat

    if profile.units != "mm":
        raise CalibrationError("only a profile made from the mat can be bound to a tray photo")
    found = mat.find_tray_marker(background)
    if found is None:
        raise CalibrationError(f"{name}: the tray marker (cut from the mat) is not in the photo of the empty "
                               "tray; lay it flat in a corner of the tray, fully in view")
    ppm_full, _corners, frame = found
    grey = np.median(background[frame > 0].astype(np.float32), axis=0)
    # the marker lies where it lies: correct the grey for the light there (a corner is often dimmer),
    # taking the tray around it as uniform plastic
    lum = cv2.cvtColor(background, cv2.COLOR_BGR2GRAY).astype(np.float32)
    near = cv2.dilate(frame, np.ones((61, 61), np.uint8)) > 0
    ring = near & ~(cv2.dilate(frame, np.ones((15, 15), np.uint8)) > 0)
    hull = cv2.dilate(frame, np.ones((15, 15), np.uint8)) > 0
    far = ~hull
    if ring.sum() > 50:
        grey = grey * float(np.median(lum[far]) / max(np.median(lum[ring]), 1.0))
    p = _bare_profile(background)
    ppm = ppm_full * p.scale                    # working px per mm
    cgain = grey / GREY_REF
    colour = Model(profile.colour_model.names, {k: v * cgain for k, v in profile.colour_model.means.items()},
                   profile.colour_model.spread * float(cgain.mean()))
    lin = size_units(profile.shape_model.names, ppm)
    sm = profile.shape_model
    # a mat photo and the tray camera see the drinks under different light and scale: allow for it
    shape = Model(sm.names, {k: v * lin for k, v in sm.means.items()}, sm.spread * lin * MAT_TRANSFER,
                  {k: v * lin for k, v in sm.offsets.items()} if sm.offsets else None)
    p.colour_model, p.shape_model = colour, shape
    st = dict(profile.stats)
    for k in ("min_area", "max_area"):
        st[k] = st[k] * ppm * ppm
    for k in ("min_width", "max_width", "min_length", "max_length"):
        st[k] = st[k] * ppm
    st["px_per_mm"] = ppm
    p.stats = st
    # each drink's own colour, seen in this tray's light as the colour means are
    def in_this_light(rec: dict) -> dict:
        return {**rec, **{ch: rec[ch] * float(cgain[i]) for i, ch in enumerate(COLOUR_FEATURES) if ch in rec}}

    p.drinks = {k: {**in_this_light(rec), **({"poses": [in_this_light(q) for q in rec["poses"]]} if "poses" in rec else {})}
                for k, rec in profile.drinks.items()}
    p.source = profile.source + f" --background {name}"
    return p
