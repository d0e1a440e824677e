"""Training patches cut on the renderer's TRUE grid and camera, a little off as the reader's own are
(issue 31; ``tools/learn_crates.py render --truth-grid``).

The reader's patches (:func:`companion.vision.crate_patches.field_patches`) come from the grid
and camera it finds; where it finds none, a frame teaches the network nothing. Measured on varied
looks (docs/performance.md, "The field network on the true grid"), the committed network names
72.5 % of the drinks right on the true grid (54.5 % of those it has a cell on through the found
one): the network lacks kinds of look as well as the grid. Cut on the truth, every frame of every
look teaches it, at the cost of a render alone. The truth is moved as the reader's finds are off:
the grid by a few hundredths of a pitch and a degree or two, the camera's height by about a tenth,
so that the network does not learn a precision the reader never has.

Each frame gives its layout's fields (their drink or ``empty``), the ring of fields round them
(``none``: no slot) and a few patches cut half a pitch off a field (``off``). Here too: the
calibration a refused look's photo is given from the truth (:func:`truth_calibration`)."""
from __future__ import annotations

import math

import cv2
import numpy as np

SHIFT = 0.06            # the grid's shift, pitches (sd)
TURN = 1.5              # its turn, degrees (sd)
SCALE = 0.03            # its scale (sd, relative)
HEIGHT = 0.12           # the camera's height (sd, log)
NADIR = 0.08            # the camera's nadir, share of its height (sd)
OFF_PER_FRAME = 4       # patches cut half a pitch off a field


def jitter(rng: np.random.Generator, mid: np.ndarray) -> np.ndarray:
    """A small similarity of grid units about ``mid``: how far off a found grid may be."""
    a = math.radians(rng.normal(0, TURN))
    s = math.exp(rng.normal(0, SCALE))
    c, n = s * math.cos(a), s * math.sin(a)
    shift = rng.normal(0, SHIFT, 2)
    R = np.array([[c, -n, 0], [n, c, 0], [0, 0, 1.0]])
    to_mid = np.array([[1, 0, mid[0]], [0, 1, mid[1]], [0, 0, 1.0]])
    from_mid = np.array([[1, 0, -mid[0]], [0, 1, -mid[1]], [0, 0, 1.0]])
    move = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1.0]])
    return move @ to_mid @ R @ from_mid


def camera_estimate(truth: dict, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """The camera's nadir (grid units) and height over the rim (pitches), moved as the reader's
    estimates of them are off."""
    p = float(truth["pitch_mm"])
    cam = truth["camera"]
    height = (cam[2] - truth["rim_height_mm"]) / p
    nadir = np.array(cam[:2], np.float64) / p + rng.normal(0, NADIR * height, 2)
    return nadir, height * math.exp(rng.normal(0, HEIGHT))


def true_grid(truth: dict) -> np.ndarray:
    """Grid units -> frame px: the homography through the fields' true middles (the frame's lens
    bends the rim plane's pinhole map; this is the best one homography over the crates, as the
    reader's grid is)."""
    keys = sorted(tuple(k) for k in truth["centres"])
    src = np.array([(i + 0.5, j + 0.5) for i, j in keys], np.float64)
    dst = np.array([truth["centres"][k] for k in keys], np.float64)
    H, _ = cv2.findHomography(src, dst, 0)         # a layout has a crate at least: six middles
    return H


def truth_patches(frame: np.ndarray, truth: dict, cal, rng: np.random.Generator):
    """(patches, numbers, labels) of one rendered frame, cut on its true grid moved a little
    (see the module's words); ``cal``: the look's calibration (its white can and plastic)."""
    from companion.vision.crate_grid import field_coverage
    from companion.vision.crate_net import CLASSES
    from companion.vision.crate_patches import exposure_gain, field_patches

    fields = {tuple(k): v for k, v in truth["fields"].items()}
    cells = sorted(fields)
    if not cells:
        return None
    mid = np.array(cells, np.float64).mean(axis=0) + 0.5
    H = true_grid(truth) @ jitter(rng, mid)
    H = H / H[2, 2]
    nadir, height = camera_estimate(truth, rng)
    ring = sorted({(x + dx, y + dy) for x, y in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - set(cells))
    cov = field_coverage(frame, H, cal.plastic) or {}
    white = np.asarray(cal.white_bgr, np.float64) * exposure_gain(frame, cal.plastic_bgr, cal.plastic)
    P, F = field_patches(frame, H, cells + ring, nadir, height, white, cov)
    Y = [CLASSES.index(fields[c]) for c in cells] + [CLASSES.index("none")] * len(ring)
    # half a pitch off along one axis: a patch across two fields
    picks = rng.choice(len(cells), size=min(OFF_PER_FRAME, len(cells)), replace=False)
    offs = []
    for k in picks:
        d = np.zeros(2)
        d[rng.integers(2)] = rng.choice([-0.5, 0.5])
        Hoff = H @ np.array([[1, 0, d[0]], [0, 1, d[1]], [0, 0, 1.0]])
        offs.append(field_patches(frame, Hoff, [cells[k]], nadir, height, white, cov))
    if offs:
        P = np.concatenate([P] + [o[0] for o in offs])
        F = np.concatenate([F] + [o[1] for o in offs])
        Y += [CLASSES.index("off")] * len(offs)
    return P, F, np.array(Y, np.int64)


def truth_calibration(photo: np.ndarray, truth: dict, focal_px: float):
    """For TRAINING only: the calibration a look's photo would give if the calibration read it
    right, from the renderer's truth (the rim plane, the camera's focal length, the white can's
    top) and the photo's own colours (the plastic where the crate stands, the white can's top as
    the photo shows it). A look whose photo the calibration refuses still teaches the network
    what its crates look like (the refusals are the calibration's problem, measured apart in
    benchmarks/crates.py); None when the photo shows too little of the crate's yellow."""
    from companion.vision.crate_calibrate import CrateCalibration
    from companion.vision.crate_grid import to_frame
    from companion.vision.crate_plastic import plastic_of, yellow_map

    p = float(truth["pitch_mm"])
    H = np.array(truth["rim_to_frame"], np.float64) @ np.diag([p, p, 1.0])
    H = H / H[2, 2]
    outline = np.round(to_frame(H, [(0, 0), (2, 0), (2, 3), (0, 3)])).astype(np.int32)
    inside = np.zeros(photo.shape[:2], np.uint8)
    cv2.fillPoly(inside, [outline], 1)
    yel = (yellow_map(photo) >= 0.5) & (inside > 0)
    if yel.sum() < 50:
        return None
    plastic = plastic_of(photo, yel)
    top = next(d["top_px"] for d in truth["drinks"] if tuple(d["field"]) == (0, 0))
    pitch_px = float(np.linalg.norm(to_frame(H, [(0.5, 0.5)]) - to_frame(H, [(1.5, 0.5)])))
    r = max(1, int(0.2 * pitch_px))
    x, y = (int(round(v)) for v in top)
    disc = photo[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3)
    if not len(disc):
        return None
    white = np.median(disc, axis=0)
    h, w = photo.shape[:2]
    return CrateCalibration(image_size=(w, h), rim_to_frame=np.round(H, 9).tolist(), focal_px=round(focal_px, 3),
                            plastic_hsv=(plastic.hue, plastic.sat, plastic.val), plastic_bgr=plastic.bgr,
                            white_bgr=tuple(float(v) for v in white), pitch_px=pitch_px, notes="truth (training)")
