"""What the landing network looks at: the top view of one frame (the table plane in landing mm,
balanced against the mat's paper, a class per pixel) and, for an asked drink, its candidate
patches, each cut out as a small crop TURNED so that the ray from the camera's foot point
through the candidate points up (a standing drink's smear then always runs up the crop,
whatever the camera), with the numbers that say how far the camera is.

Shared by the reader (``landings.py``) and the training (``tools/learn_landings.py``), so both
see exactly the same crops.

Channels of a crop (``CHANNELS``), uint8: the balanced colour (B, G, R; the square root of
the albedo against the paper), the asked colour's mask, the crates' yellow mask, and where the
table is in view. ``frame_crop`` cuts the same place as the camera itself saw it (B, G, R
balanced alike, the table's vertical up: a drink standing or lying along the camera's ray
smear alike in the top view, not in the frame); a model of ``FRAME_CHANNELS`` reads it beside
the top view's, one of ``FINE_CHANNELS`` the top view again at twice the detail over half the
width (both tried: docs/performance.md). Numbers (``FEATURES``): the asked drink's shape (one-hot), the candidate's
distance from the camera's foot and the camera's height (so the net knows how long a smear a
drink of that height makes), the patch's size against a drink's, and its colour margin; a
candidate also carries the asked colour (one-hot, ``COLOUR_FEATURES``) for a model that reads it.

>>> crop_basis(np.array([0.0, -300.0]), np.array([0.0, 100.0]))[1].round(3).tolist()
[0.0, 1.0]
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from ..drinks import COLOURS, SHAPES, Drink
from .landing_colour_adapt import adapted_references
from .landing_colours import CLASSES, REFERENCES, balanced, cost_stack, costs_of, features, labels, runner_up

TOP_PX_PER_MM = 1.5
VIEW_MM = (-330.0, 340.0, -15.0, 430.0)      # x0, x1, y0, y1: the table the top view covers
BEHIND_MM = 6.0                     # the top view nearer the tower than this is its base
CROP = 56                           # a crop's side, px
CROP_MM = 1.6                       # mm a crop's pixel: 90 mm across, a standing tall bottle's smear and a crate
CHANNELS = ("b", "g", "r", "asked", "yellow", "in_view")
TOP_CHANNELS = 6                    # the top view's
# what a model may read beside them (its settings' "channels" say which): the camera's own look
# (``frame_crop``), or the top view again at FINE_MM a pixel (the crate's walls, 1.5 mm, a pixel
# and more there), both tried in docs/performance.md
FRAME_CHANNELS = CHANNELS + ("frame_b", "frame_g", "frame_r")
FINE_CHANNELS = CHANNELS + tuple(f"fine_{c}" for c in CHANNELS)
LAYOUTS = {"top": CHANNELS, "frame": FRAME_CHANNELS, "fine": FINE_CHANNELS}     # by the tools' --channels
FINE_MM = 0.8                       # mm a fine crop's pixel: 45 mm across, a crate's width and a wall's steps
FRAME_MM = 1.2                      # mm a frame crop's pixel at the candidate: 67 mm across
FRAME_LIFT_MM = 15.0                # the frame crop's centre over the table: a standing drink's middle
FEATURES = tuple(f"shape_{s.value}" for s in SHAPES) + ("reach", "height", "share", "margin")
# the asked drink's colour (one-hot): which plastic the patch should be, so that a network can
# learn each colour's own look-alikes (a black drink's are shadows, a purple one's a blue drink);
# a candidate carries ALL_FEATURES and a model reads the ones its settings name
COLOUR_FEATURES = tuple(f"colour_{c.value}" for c in COLOURS)
# the other drinks asked about beside it (a number a colour: the game knows which drinks came out): a
# patch that could be a white or a mint drink is the white one when no mint drink was thrown
ALSO_FEATURES = tuple(f"also_{c.value}" for c in COLOURS)
ALL_FEATURES = FEATURES + COLOUR_FEATURES + ALSO_FEATURES
MAX_CANDIDATES = 4                  # patches of the asked colour looked at, the biggest first (8: a wash, docs/performance.md)
MIN_PIXELS = 6
ADAPT = False                       # the plastics' colours from the view itself (``landing_colour_adapt``): not kept
SIZE_MM = {"stubby_can": (14.0, 12.0), "short_can": (20.0, 11.0), "tall_can": (26.0, 11.0),
           "square_bottle": (27.0, 10.0), "not_tallest_bottle": (29.0, 10.0), "tallest_bottle": (35.0, 11.0)}


@dataclass
class TopView:
    """One frame's table plane from above: ``image`` (h, w, 6) uint8 with the asked mask left
    empty, the class per pixel and its margin, the landing mm of each pixel, the camera."""

    image: np.ndarray
    label: np.ndarray
    margin: np.ndarray
    gx: np.ndarray
    gy: np.ndarray
    camera: np.ndarray
    frame: np.ndarray | None = None         # the camera's frame (BGR uint8) the view is made of
    white_bgr: tuple = (255.0, 255.0, 255.0)
    project: Callable | None = None         # landing mm (n, 3) -> the frame's px (n, 2)
    second: np.ndarray | None = None        # each pixel's next likeliest class (``runner_up``; made when first asked)
    costs: np.ndarray | None = None         # the classes' costs (``cost_stack``) it is made of

    def runner_up(self) -> np.ndarray | None:
        if self.second is None and self.costs is not None:
            self.second = runner_up(self.costs, self.label)
        return self.second


@dataclass
class Candidate:
    centre: np.ndarray          # landing mm (x, y) of the patch's middle
    pixels: int
    crop: np.ndarray            # (CROP, CROP, channels) uint8
    features: np.ndarray        # (len(ALL_FEATURES),) float32
    basis: tuple                # (right, up) unit vectors of the crop in landing mm


def encoded(lin: np.ndarray) -> np.ndarray:
    """Balanced linear light -> uint8 (the square root: dark plastics keep their steps)."""
    return np.clip(np.sqrt(np.clip(lin, 0, 1.2) / 1.2) * 255 + 0.5, 0, 255).astype(np.uint8)


def frame_projector(calibration, size: tuple[int, int]) -> Callable:
    """Landing mm (n, 3) -> px of a frame of ``size`` through the calibrated camera (a frame
    of another size than the calibration photo's is the same view scaled)."""
    scale = np.array([size[0] / calibration.image_size[0], size[1] / calibration.image_size[1]])
    return lambda pts: calibration.project(pts) * scale


def top_view(frame: np.ndarray, maps, white_bgr, camera: np.ndarray, project: Callable | None = None,
             pixels=None) -> TopView:
    """``maps``: (mx, my, valid, gx, gy) of the frame's size (``LandingReader._top_maps``);
    ``project`` (``frame_projector``) lets the crops show the frame too (blank without);
    ``pixels``: a ``landing_pixels.PixelClassNet`` that gives each pixel's class costs instead
    of the distances to the nominal plastics."""
    mx, my, valid, gx, gy = maps
    top = cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lin = balanced(top, white_bgr)
    feats = features(lin, TOP_PX_PER_MM)
    if pixels is not None:
        costs = pixels.costs(lin, TOP_PX_PER_MM, feats)
    else:
        refs = adapted_references(feats, valid & (gy >= BEHIND_MM)) if ADAPT else REFERENCES
        costs = cost_stack(costs_of(feats, refs))
    label, margin = labels(costs)
    table = CLASSES.index("table")
    label[~valid] = table
    label[gy < BEHIND_MM] = table          # the tower's base: nothing lands on it
    image = np.zeros(label.shape + (TOP_CHANNELS,), np.uint8)
    image[..., :3] = encoded(lin)
    image[..., 4] = (label == CLASSES.index("yellow")) * 255
    image[..., 5] = valid * 255
    return TopView(image, label, margin, gx, gy, camera, frame, tuple(white_bgr), project, costs=costs)


def crop_basis(camera_xy: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The crop's right and up directions: up from the camera's foot through the centre."""
    ray = np.asarray(centre, np.float64) - np.asarray(camera_xy, np.float64)
    up = ray / max(float(np.linalg.norm(ray)), 1e-6)
    return np.array([up[1], -up[0]]), up


def cut(image: np.ndarray, centre: np.ndarray, basis, mirror: bool = False, mm: float = CROP_MM) -> np.ndarray:
    """The turned crop of ``image`` (the top view, any channels) around ``centre`` (mm), ``mm``
    a pixel."""
    right, up = basis
    x0, _, _, y1 = VIEW_MM
    s = TOP_PX_PER_MM
    half = CROP * mm / 2
    sign = -1.0 if mirror else 1.0
    # crop px (j, i) -> mm: centre + right * (j - half) + up * (half - i), then -> top-view px
    a = np.column_stack([right * sign, -up]) * mm
    b = np.asarray(centre, np.float64) + (right * sign - up) * (0.5 * mm) + (up - right * sign) * half
    to_px = np.array([[s, 0.0], [0.0, -s]])
    A = to_px @ a
    t = to_px @ b + np.array([-x0 * s - 0.5, y1 * s - 0.5])
    M = np.column_stack([A, t]).astype(np.float64)
    chans = [cv2.warpAffine(np.ascontiguousarray(image[..., k:k + 3]), M, (CROP, CROP),
                            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT)
             for k in range(0, image.shape[2], 3)]
    return np.concatenate([c.reshape(CROP, CROP, -1) for c in chans], axis=2)


def frame_crop(view: TopView, centre: np.ndarray, basis, mirror: bool = False) -> np.ndarray:
    """The camera's own look at ``centre`` (mm), (CROP, CROP, 3) uint8 balanced as the top
    view: the table's right (``basis[0]``, mirrored or not) runs right and its vertical up, at
    ``FRAME_MM`` a pixel, the crop's middle ``FRAME_LIFT_MM`` over the table. Three points
    through the camera give the affine map (the lens bends little across a drink)."""
    if view.frame is None or view.project is None:
        return np.zeros((CROP, CROP, 3), np.uint8)
    right = np.array([basis[0][0], basis[0][1], 0.0]) * (-1.0 if mirror else 1.0)
    base = np.array([centre[0], centre[1], FRAME_LIFT_MM])
    half = CROP * FRAME_MM / 2
    world = np.stack([base, base + right * half, base + np.array([0.0, 0.0, half])])
    src = view.project(world).astype(np.float32)
    c = (CROP - 1) / 2
    dst = np.float32([[c, c], [c + CROP / 2, c], [c, c - CROP / 2]])
    M = cv2.getAffineTransform(dst, src)
    raw = cv2.warpAffine(view.frame, M, (CROP, CROP), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_CONSTANT)
    return encoded(balanced(raw, view.white_bgr))


def to_crop(point: np.ndarray, centre: np.ndarray, basis, mirror: bool = False) -> np.ndarray:
    """Landing mm -> the crop's (right, up) offset from its centre, mm."""
    d = np.asarray(point, np.float64) - np.asarray(centre, np.float64)
    return np.array([(-1.0 if mirror else 1.0) * float(d @ basis[0]), float(d @ basis[1])])


def from_crop(offset: np.ndarray, centre: np.ndarray, basis) -> np.ndarray:
    return np.asarray(centre, np.float64) + basis[0] * offset[0] + basis[1] * offset[1]


def numbers(feats: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """The numbers ``names`` of crops' numbers (n, width): a candidate's (``ALL_FEATURES``), a
    render's made before the colour (``FEATURES``) or before the other asked colours (``FEATURES +
    COLOUR_FEATURES``), or ``names`` already."""
    feats = np.asarray(feats)
    names = tuple(names)
    for have in (names, ALL_FEATURES, FEATURES + COLOUR_FEATURES, FEATURES):    # renders made before the others
        if feats.shape[-1] == len(have) and set(names) <= set(have):
            return feats if have == names else np.ascontiguousarray(feats[..., [have.index(n) for n in names]])
    raise ValueError(f"{feats.shape[-1]} numbers a crop: the landing model reads {len(names)} "
                     f"of a candidate's {len(ALL_FEATURES)}")


def colour_mask(view: TopView, colour: str, loose: bool = False) -> np.ndarray:
    """Where the top view is ``colour`` (uint8 0/1): its likeliest class; ``loose``: also where
    it is the runner-up of a pixel that is not the table (an off-tint plastic that reads as its
    neighbour: an orange-ish red as the crates' yellow, a bluish purple as blue)."""
    k = CLASSES.index(colour)
    mask = view.label == k
    second = view.runner_up() if loose else None
    if second is not None:
        mask |= (second == k) & (view.label != CLASSES.index("table"))
    return mask.astype(np.uint8)


def patches(view: TopView, colour: str, loose: bool = False, limit: int | None = None
            ) -> tuple[list[tuple[np.ndarray, int, tuple]], np.ndarray]:
    """The asked colour's patches (a drink cut by a wall is one): (centre mm, pixels, mask)
    for the biggest ``limit`` (``MAX_CANDIDATES``), and the colour's mask (``colour_mask``;
    ``loose``: a patch at least half of whose pixels are the colour itself)."""
    mask = colour_mask(view, colour, loose)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    own = view.label == CLASSES.index(colour) if loose else None
    joined = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    found = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        sel = (lab[y:y + h, x:x + w] == i) & (mask[y:y + h, x:x + w] > 0)
        count = int(sel.sum())
        if count < MIN_PIXELS:
            continue
        if loose and 2 * int((sel & own[y:y + h, x:x + w]).sum()) < count:
            continue        # the runner-up fills a patch of the colour in, it does not make one
        rows, cols = np.nonzero(sel)
        r, c = int(round(rows.mean())) + y, int(round(cols.mean())) + x
        found.append((np.array([view.gx[r, c], view.gy[r, c]], np.float64), count, (y, x, sel)))
    found.sort(key=lambda f: -f[1])
    return found[:limit or MAX_CANDIDATES], mask


def candidates(view: TopView, drink: str, mirror: bool = False, jitter: np.ndarray | None = None,
               loose: bool = False, limit: int | None = None, channels: tuple[str, ...] = CHANNELS,
               also: tuple[str, ...] = ()) -> list[Candidate]:
    """The turned crops of the asked drink's candidate patches (``jitter``: mm added to each
    centre, for training; ``loose``, ``limit``: as ``patches``, the crops' asked channel the
    loose mask; ``channels``: one of ``LAYOUTS``, the model's; ``also``: the colours of the
    other drinks asked about with it)."""
    if tuple(channels) not in LAYOUTS.values():
        raise ValueError(f"no landing crop has the channels {channels}")
    d = Drink.parse(drink)
    colour = d.colour.value
    length, width = SIZE_MM[d.shape.value]
    found, mask = patches(view, colour, loose, limit)
    if not found:
        return []
    image = view.image
    image[..., 3] = mask * 255
    out = []
    H = float(view.camera[2])
    # the asked drink's shape and colour (one-hot), the same for each of its candidates
    shape = np.zeros(len(SHAPES), np.float32)
    shape[[s.value for s in SHAPES].index(d.shape.value)] = 1
    tint = np.zeros(len(COLOURS), np.float32)
    tint[[c.value for c in COLOURS].index(colour)] = 1
    others = np.array([float(c.value in also and c.value != colour) for c in COLOURS], np.float32)
    for centre, count, (y, x, sel) in found:
        if jitter is not None:
            centre = centre + jitter
        basis = crop_basis(view.camera[:2], centre)
        crop = cut(image, centre, basis, mirror)
        if tuple(channels) == FRAME_CHANNELS:
            crop = np.concatenate([crop, frame_crop(view, centre, basis, mirror)], axis=2)
        elif tuple(channels) == FINE_CHANNELS:
            crop = np.concatenate([crop, cut(image, centre, basis, mirror, FINE_MM)], axis=2)
        reach = float(np.linalg.norm(centre - view.camera[:2]))
        expected = length * width + length * reach * width / max(H - width, 1.0) * 0.5
        margin = float(np.mean(view.margin[y:y + sel.shape[0], x:x + sel.shape[1]][sel]))
        feats = np.concatenate([shape, np.array([reach / 500, H / 500, math.log(count / TOP_PX_PER_MM ** 2 / expected),
                                                 min(margin, 30.0) / 10], np.float32), tint, others])
        out.append(Candidate(centre, count, crop, feats, basis))
    return out
