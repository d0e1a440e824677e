"""The calibration crate found by its outline when its cans do not come apart (issue 31).

The cans' tops are the calibration's first hold on the crate (:mod:`.crate_calibrate`): six
points on the rim plane's level. Under a coloured lamp, on a table of the cans' colours or with
a loose thing beside the crate, fewer than four of them come apart and the photo was refused.
The crate itself is the biggest, plainest thing in the photo, a yellow 2 x 3 box, so then:

1. its outline: the smallest rectangle round the convex hull of the crate's yellow (the drinks
   cut the yellow into pieces; the hull closes over them), its long sides the crate's three
   slots; a rough map crate units -> photo px;
2. the walls: the hull takes in the near walls' outer faces, so the map is moved and scaled
   along each side until the walls between the slots lie on the yellow between the cans (a
   rectangle tells no perspective: the reader's grid search, :func:`.crate_grid.find_grid`, was
   to fit it on every frame from the many slots of the whole grid; measured, it does not on
   such looks, so the step is off by default: ``crate_calibrate.OUTLINE``);
3. only then the cans, where the outline says the slots are: the brightest slot's middle is the
   white can (the colour reference), which must stand in a corner slot and clearly outshine the
   other five; the crate is numbered from it.

None where the outline is no crate's: the caller refuses the photo in words.

>>> H = rough_crate(np.array([[0, 0], [20, 0], [20, 30], [0, 30]], np.int32))
>>> [round(float(v)) for v in to_frame(H, [(2, 3)])[0]] in ([20, 30], [0, 0], [20, 0], [0, 30])
True
"""
from __future__ import annotations

import cv2
import numpy as np

from .crate_grid import to_frame
from .crate_plastic import Plastic, yellow_map

CRATE = np.array([(0, 0), (2, 0), (2, 3), (0, 3)], np.float64)     # crate units, the outline's corners
CORNER_SLOTS = ((0, 0), (1, 0), (0, 2), (1, 2))
WHITE_MARGIN = 1.15        # the white can's top outshines every other slot's middle by this factor
MAX_ASPECT = 2.2           # the outline's long side over its short one (a crate: 1.5, walls' faces more)


def rough_crate(hull: np.ndarray) -> np.ndarray | None:
    """Crate units -> px from the smallest rectangle round ``hull`` (points (n, 2)), its longer
    sides along the crate's three slots; None when the rectangle is no crate's shape."""
    box = cv2.boxPoints(cv2.minAreaRect(hull.reshape(-1, 1, 2).astype(np.float32))).astype(np.float64)
    sides = [np.linalg.norm(box[(k + 1) % 4] - box[k]) for k in range(2)]
    if min(sides) < 4 or max(sides) / min(sides) > MAX_ASPECT:
        return None
    # CRATE's first side (0, 0) -> (2, 0) is the short one
    dst = box if sides[0] <= sides[1] else np.roll(box, -1, axis=0)
    H, _ = cv2.findHomography(CRATE, dst, 0)
    return None if H is None or not np.all(np.isfinite(H)) else H / H[2, 2]


SNAP_PX = 20.0             # px a crate unit on the canvas the walls are looked for on
SCALES = np.linspace(0.7, 1.05, 15)      # the rim's size against the outline's (its outer faces widen it)
OFFSETS = np.linspace(-0.6, 0.6, 49)     # where the rim starts in the outline's units


def wall_fit(profile: np.ndarray, slots: int) -> tuple[float, float, float]:
    """The start and pitch (outline units) at which ``profile`` (the mean yellowness across the
    crate, at SNAP_PX px a unit from -0.5) shows walls best: high on the ``slots + 1`` walls, low
    in the slots' middles (the cans). Returns (score, start, pitch)."""
    n = len(profile)
    at = lambda u: profile[np.clip(np.round((u + 0.5) * SNAP_PX).astype(int), 0, n - 1)]   # noqa: E731
    best = (-np.inf, 0.0, 1.0)
    for s in SCALES:
        walls = np.arange(slots + 1) * s
        mids = (np.arange(slots) + 0.5) * s
        for o in OFFSETS:
            score = float(at(o + walls).mean() - at(o + mids).mean())
            if score > best[0]:
                best = (score, float(o), float(s))
    return best


def snap_to_walls(image: np.ndarray, H: np.ndarray, plastic: Plastic) -> np.ndarray:
    """The rough outline's map moved and scaled (along each side) so that the crate's inner walls
    lie on the yellow between the cans: the outline takes in the near walls' outer faces, the
    walls between the slots do not lie."""
    w, h = int(3 * SNAP_PX), int(4 * SNAP_PX)
    M = H @ np.array([[1 / SNAP_PX, 0, -0.5], [0, 1 / SNAP_PX, -0.5], [0, 0, 1.0]])      # canvas px -> frame px
    canvas = cv2.warpPerspective(image, M, (w, h), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
    y = yellow_map(canvas, plastic)
    _, ox, sx = wall_fit(y.mean(axis=0), 2)
    _, oy, sy = wall_fit(y.mean(axis=1), 3)
    S = np.array([[sx, 0, ox], [0, sy, oy], [0, 0, 1.0]])
    out = H @ S
    return out / out[2, 2]


def keeps_handedness(H: np.ndarray) -> bool:
    J = H[:2, :2] - np.outer(H[:2, 2], H[2, :2])
    return bool(np.linalg.det(J) * H[2, 2] > 0)


def crate_by_outline(image: np.ndarray, blob: np.ndarray, plastic: Plastic) -> np.ndarray | None:
    """Crate units -> photo px, the white can's slot at (0, 0), from the crate's outline
    (``blob``: the crate's yellow, a mask) and its slots' middles; None when not plain."""
    from .crate_calibrate import disc_colour

    ys, xs = np.nonzero(blob)
    if len(xs) < 50:
        return None
    H = rough_crate(cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32)))
    if H is None:
        return None
    H = snap_to_walls(image, H, plastic)
    tops = [disc_colour(image, H, (x + 0.5, y + 0.5), radius=0.18) for y in range(3) for x in range(2)]
    # white: bright in all three channels (a blue or yellow top under a lamp of its colour is
    # bright in one or two)
    bright = np.array([float(c.min()) for c in tops])
    k = int(np.argmax(bright))
    white = (k % 2, k // 2)
    if white not in CORNER_SLOTS or np.sort(bright)[-2] * WHITE_MARGIN > bright[k]:
        return None
    # flips along x and/or y bring the white can's corner to (0, 0)
    fx, fy = white[0] == 1, white[1] == 2
    F = np.array([[-1 if fx else 1, 0, 2 if fx else 0], [0, -1 if fy else 1, 3 if fy else 0], [0, 0, 1.0]])
    H = H @ F
    if not keeps_handedness(H):
        # the crate seen the other way round: its numbering mirrored (the white can's slot is all
        # the reader needs; the camera's pose needs a map a camera can have)
        H = H @ np.array([[-1, 0, 2], [0, 1, 0], [0, 0, 1.0]])
    return H / H[2, 2]
