"""Where each drink the game asks about landed, read from one frame of the landing camera.

``LandingReader(calibration).read(frame, asked)`` returns a
:class:`~companion.landing.LandingReading`: for each asked drink (the game knows which drinks
came out, and their colours differ) whether it was seen, its spot (``slot``, ``crate``,
``outside``: the words of ``companion/landing.py``) and its distance from the tower's foot,
and whether the reading is sure. It never raises on a frame: a frame it cannot read gets a
code (``not_calibrated``, ``camera_error``) and no landings.

How, by default: the learned way (``landing_reading.py``: each patch of the asked colour,
cut from the top view and turned, read by the network of ``landing_net.py``). When no model is
committed, or with ``learned=False``, the hand-written rules below.

The rules: the table plane is rectified to a top view in landing millimetres (``TOP_PX_PER_MM``)
through the calibrated camera (``landing_calibrate.py``), its colours balanced against the
mat's paper; each pixel gets its likeliest class among the six plastics, the crates' yellow
and the table (``landing_colours.py``); the crates are the yellow patches of a crate's size,
the asked drink the biggest patch of its colour of a drink's size; both are put back on the
table from their heights (``landing_geometry.py``), and the spot is the landing words' own
:func:`~companion.landing.spot_of` on what was found. A reading is sure only when its spot stays
the same with the drink moved by ``SURE_MM`` any way (near a slot's wall or a crate's rim it
does not), the drink's patch is clearly of a drink's size and shape, and its colour clearly
its own.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..drinks import Drink
from ..landing import MAX_DISTANCE_MM, Landing, LandingReading, LandingScene, PlacedDrink, spot_of
from .landing_calibrate import LandingCalibration
from .landing_colours import CLASSES
from .landing_crops import SIZE_MM, TOP_PX_PER_MM, VIEW_MM
from .landing_crops import top_view as classified_top_view
from .landing_fit import Patch, best_pose, outline, walled
from .landing_geometry import FLOOR_MM, RIM_MM, FoundCrate, crate_from_pixels, drink_pose
from .landing_net import LandingModel, landing_model
from .landing_reading import read_learned

SURE_MM = 2.5
MIN_SHARE, MAX_SHARE = 0.12, 3.0    # a drink's patch against its expected area
MIN_OVERLAP = 0.55                  # a patch no pose's outline covers this well (overlap / union) is doubtful
AMBIGUOUS = 0.1                     # standing and lying fit within this of each other: not told apart
PRIOR = 0.05                        # what a crate (or the open table) adds to standing (or lying)
FIT_PAD_MM = 16.0
CRATE_JOIN_MM = 13.0                # yellow pieces this near each other are one crate
NEAR_CRATE_MM = 25.0                # a lying drink this near a crate may lie on it
COIN_MM, ROUND = 8.5, 0.8           # a patch this round and at least this wide (radius) is a coin
STRAY_YELLOW_MM2 = 20.0             # this much yellow near a drink with no crate found there: doubtful
WALLED = 0.04                       # a lying drink's outline this much under a wall's yellow
CANDIDATES = 3                      # patches of the asked colour fitted at most
RIVAL_OVERLAP = 0.75                # another patch a drink's outline fits this well (and nearly as well
RIVAL_GAP = 0.1                     # as the best): which is it?
LIFT_AMBIGUOUS = 0.05               # on the table, a floor or a rim: as well fitted within this
MIN_MARGIN = 2.0                    # a patch's mean colour margin (cost units) to be sure of it
MIN_CRATE_MM2 = 350.0


class LandingReader:
    """Reads landing frames of one calibrated camera (see the module's words). ``model``: the
    learned reader's network and bars (``landing_net.py``; the committed one by default);
    ``learned=False`` (or no model committed) reads by the hand-written rules below."""

    def __init__(self, calibration: LandingCalibration | None, model: LandingModel | None = None,
                 learned: bool = True):
        self.calibration = calibration
        self.model = (model if model is not None else landing_model()) if learned else None
        self._maps: dict = {}
        self._notes: dict = {}          # why each drink of the last frame was read as it was (for tuning)
        self._alternatives: list = []   # the last fit's lying poses that are what they say (on the table, floor or rim)
        self._consistent = True         # whether the last fit's best lying pose is one of them
        self._patch = None              # and its patch

    # --- the top view -----------------------------------------------------------------------

    def _top_maps(self, size: tuple[int, int]):
        if size not in self._maps:
            cal = self.calibration
            x0, x1, y0, y1 = VIEW_MM
            s = TOP_PX_PER_MM
            w, h = int((x1 - x0) * s), int((y1 - y0) * s)
            xs = x0 + (np.arange(w) + 0.5) / s
            ys = y1 - (np.arange(h) + 0.5) / s          # far side up: the top view as the camera sees it
            gx, gy = np.meshgrid(xs, ys)
            pts = np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size)])
            # only what lies in front of the camera maps to the frame
            R, _ = cv2.Rodrigues(np.array(cal.rvec, np.float64))
            depth = (pts @ R.T + np.array(cal.tvec))[:, 2]
            px = cal.project(pts)
            sx, sy = size[0] / cal.image_size[0], size[1] / cal.image_size[1]
            mx = (px[:, 0] * sx).reshape(h, w).astype(np.float32)
            my = (px[:, 1] * sy).reshape(h, w).astype(np.float32)
            valid = ((depth > 1).reshape(h, w) & (mx >= 0) & (my >= 0) & (mx <= size[0] - 1) & (my <= size[1] - 1))
            mx[~valid], my[~valid] = -1, -1
            self._maps = {size: (mx, my, valid, gx.astype(np.float32), gy.astype(np.float32))}
        return self._maps[size]

    def top_view(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The frame's table plane seen from above (BGR) and where it is in view."""
        mx, my, valid, _, _ = self._top_maps((frame.shape[1], frame.shape[0]))
        return cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), valid

    # --- reading ----------------------------------------------------------------------------

    def read(self, frame_bgr, asked: tuple[str, ...]) -> LandingReading:
        asked = tuple(dict.fromkeys(a for a in asked if _is_drink(a)))
        cal = self.calibration
        if cal is None:
            return LandingReading(codes=["not_calibrated"])
        frame = _usable(frame_bgr, cal.image_size)
        if frame is None:
            return LandingReading(codes=["camera_error"])
        try:
            if self.model is not None:
                return read_learned(frame, asked, self._top_maps((frame.shape[1], frame.shape[0])), cal, self.model,
                                    self._notes)
            return self._read(frame, asked)
        except (cv2.error, ValueError, FloatingPointError, np.linalg.LinAlgError):
            return LandingReading(codes=["camera_error"])

    def _read(self, frame: np.ndarray, asked: tuple[str, ...]) -> LandingReading:
        cal = self.calibration
        maps = self._top_maps((frame.shape[1], frame.shape[0]))
        view = classified_top_view(frame, maps, cal.white_bgr, cal.camera_position)
        label, margin, gx, gy, camera = view.label, view.margin, view.gx, view.gy, view.camera
        crates = self._crates(label, gx, gy, camera)
        scene_crates = tuple(c.crate for c in crates)
        out = []
        for name in asked:
            out.append(self._drink(name, label, margin, gx, gy, camera, scene_crates, crates))
        return LandingReading(landings=out)

    def _crates(self, label, gx, gy, camera) -> list[FoundCrate]:
        mask = (label == CLASSES.index("yellow")).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        # a drink lying across a crate cuts its yellow in two: pieces this near are one crate
        k = int(CRATE_JOIN_MM * TOP_PX_PER_MM) | 1
        joined = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        found = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < MIN_CRATE_MM2 * TOP_PX_PER_MM ** 2:
                continue
            # the drinks in and on a crate hide much of its yellow: the crate is all its yellow's hull
            ys, xs = np.nonzero((lab == i) & (mask > 0))
            hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
            sel = np.zeros(mask.shape, np.uint8)
            cv2.fillConvexPoly(sel, hull, 1)
            sel = sel > 0
            c = crate_from_pixels(np.column_stack([gx[sel], gy[sel]]).astype(np.float64), camera)
            if c is not None:
                found.append(c)
        return found

    def _drink(self, name, label, margin, gx, gy, camera, scene_crates, crates) -> Landing:
        d = Drink.parse(name)
        length, width = SIZE_MM[d.shape.value]
        mask = (label == CLASSES.index(d.colour.value)).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        joined = cv2.dilate(mask, np.ones((5, 5), np.uint8))      # a drink cut by a wall is one drink
        n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        patches = []
        for i in range(1, n):
            x, y, w, h, _ = stats[i]
            sel = np.zeros(mask.shape, bool)
            sel[y:y + h, x:x + w] = (lab[y:y + h, x:x + w] == i) & (mask[y:y + h, x:x + w] > 0)
            count = int(sel[y:y + h, x:x + w].sum())
            if count < 6:
                continue
            at = np.array([gx[y + h // 2, x + w // 2], gy[y + h // 2, x + w // 2]], np.float64)
            share = count / (_expected_area(at, camera, length, width) * TOP_PX_PER_MM ** 2)
            if MIN_SHARE <= share <= MAX_SHARE and not _coin_like(sel[y:y + h, x:x + w], count):
                patches.append((min(share, 1.0), sel))
        if not patches:
            return Landing(drink=name, seen=False, sure=False)
        # the likeliest few patches by size, then the one a drink's outline fits best
        patches.sort(key=lambda p: -p[0])
        fits = []
        for _, sel in patches[:CANDIDATES]:
            fits.append((self._fit(name, sel, label, gx, gy, camera, length, width, scene_crates), sel,
                         self._alternatives, self._consistent, self._patch))
        fits.sort(key=lambda f: -f[0][0].score)
        (pose, other), best_sel, alternatives, consistent, patch = fits[0]
        rivals = sum(1 for (p, _), _, _, _, _ in fits[1:] if p.score >= max(RIVAL_OVERLAP, pose.score - RIVAL_GAP))
        scene = LandingScene(crates=scene_crates)
        spot = _spot(scene, name, pose, length, width)
        inside = next((c for c in scene_crates if _near(c, pose, 0.0)), None)
        if pose.standing and inside is not None:
            spot = "slot"       # a drink stands only on a slot's floor: over a crate it stands in a slot
            steady = _near(inside, pose, -SURE_MM)
        else:
            steady = all(_spot(scene, name, pose, length, width, dx, dy) == spot
                         for dx, dy in ((SURE_MM, 0), (-SURE_MM, 0), (0, SURE_MM), (0, -SURE_MM)))
            if not pose.standing and spot != "outside":
                steady = steady and all(_spot(scene, name, pose, length, width, turn=t) == spot for t in (-15, 15))
        distance = math.hypot(pose.x, pose.y)
        if pose.score - other.score < AMBIGUOUS:
            # standing or lying is not told by the outline: the distance halfway, sure only when
            # both are near it and (over a crate) the crate's prior decides
            other_distance = math.hypot(other.x, other.y)
            tolerance = max(10.0, 0.05 * distance)
            steady = steady and abs(other_distance - distance) <= 1.6 * tolerance
            distance = (distance + other_distance) / 2
            # standing in a slot or lying across the crate, standing or lying on the table: the
            # outline does not tell; sure only when both say the same
            steady = steady and _spot(scene, name, other, length, width) == spot
        if not pose.standing:
            steady = steady and consistent
            if pose.lift == 0 and walled(patch, outline(d.shape.value, length, width, False, pose.x, pose.y, pose.yaw,
                                                        0.0, camera)) > WALLED:
                steady = False      # on the table behind a wall, or on the walls: the outline does not tell
            # lying on the table beside a crate, or on its walls: as well fitted, both must agree
            for alt in alternatives:
                if alt.score >= pose.score - LIFT_AMBIGUOUS and (
                        _spot(scene, name, alt, length, width) != spot
                        or abs(math.hypot(alt.x, alt.y) - distance) > max(10.0, 0.05 * distance)):
                    steady = False
        # yellow beside the drink but no crate found there: a crate not made out; nothing is sure
        rows, cols = np.nonzero(best_sel)
        pad = int(FIT_PAD_MM * TOP_PX_PER_MM)
        around = label[max(0, rows.min() - pad):rows.max() + pad + 1, max(0, cols.min() - pad):cols.max() + pad + 1]
        yellow_near = np.count_nonzero(around == CLASSES.index("yellow")) >= STRAY_YELLOW_MM2 * TOP_PX_PER_MM ** 2
        if yellow_near and not any(_near(c.crate, pose, NEAR_CRATE_MM) for c in crates):
            steady = False
        colour_clear = float(np.mean(margin[best_sel])) >= MIN_MARGIN
        near_crate = spot != "outside" or any(_near(c.crate, pose, 8.0) for c in crates)
        sure = (steady and pose.score >= MIN_OVERLAP and colour_clear and rivals == 0
                and (not near_crate or all(c.sure for c in crates)))
        self._notes[name] = {"steady": steady, "score": round(pose.score, 2), "other": round(other.score, 2),
                             "standing": pose.standing, "colour": round(float(np.mean(margin[best_sel])), 1),
                             "rivals": rivals, "crates": [c.sure for c in crates]}
        return Landing(drink=name, spot=spot, distance_mm=min(MAX_DISTANCE_MM, round(distance)), sure=bool(sure))

    def _fit(self, name, sel, label, gx, gy, camera, length, width, crates):
        """The drink's best standing and best lying pose (``landing_fit.py``), the likelier first."""
        shape = Drink.parse(name).shape.value
        rows, cols = np.nonzero(sel)
        pad = int(FIT_PAD_MM * TOP_PX_PER_MM)
        r0, r1 = max(0, rows.min() - pad), min(sel.shape[0], rows.max() + pad + 1)
        c0, c1 = max(0, cols.min() - pad), min(sel.shape[1], cols.max() + pad + 1)
        crop = label[r0:r1, c0:c1]
        own = CLASSES.index(Drink.parse(name).colour.value)
        patch = Patch(sel[r0:r1, c0:c1], (crop != CLASSES.index("table")) & (crop != own),
                      float(gx[r0, c0] - 0.5 / TOP_PX_PER_MM), float(gy[r0, c0] + 0.5 / TOP_PX_PER_MM), TOP_PX_PER_MM,
                      walls=crop == CLASSES.index("yellow"))
        self._patch = patch
        pts = np.column_stack([gx[sel], gy[sel]]).astype(np.float64)
        up = drink_pose(pts, camera, length, width, bias=10.0)
        down = drink_pose(pts, camera, length, width, bias=-10.0)
        over = any(_near(c, up, 3.0) or _near(c, down, 3.0) for c in crates)
        standing = best_pose(patch, camera, shape, length, width, True, (up.x, up.y), [0.0],
                             FLOOR_MM if over else 0.0)
        yaws = [down.yaw + 15.0 * k for k in range(12)]
        # a lying drink lies on the table, on a slot's floor (wholly in the slot) or across a
        # crate's walls (its middle over the crate): each only where it is what it says
        near = any(_near(c, down, NEAR_CRATE_MM) for c in crates)
        scene = LandingScene(crates=crates)
        lying, self._alternatives = None, []
        for lift, where in (((0.0, "outside"), (FLOOR_MM, "slot"), (RIM_MM, "crate")) if near else ((0.0, "outside"),)):
            at = drink_pose(pts, camera, length, width, lift, bias=-10.0) if lift else down
            p = best_pose(patch, camera, shape, length, width, False, (at.x, at.y), yaws, lift)
            fits = _spot(scene, name, p, length, width) == where and (lift > 0 or not _touches(crates, p, length, width))
            if fits:
                self._alternatives.append(p)
            if lying is None or (fits, p.score) > lying[0]:
                lying = ((fits, p.score), p)
        self._consistent = lying[0][0]        # False: no lying pose is what it says (on what it lies)
        lying = lying[1]
        # a drink in a crate mostly stands in a slot; one on the table mostly lies where it fell
        lean = PRIOR if over and _over_any(crates, standing) else -PRIOR
        if standing.score + lean >= lying.score:
            return standing, lying
        return lying, standing


def _spot(scene, name, pose, length, width, dx: float = 0.0, dy: float = 0.0, turn: float = 0.0) -> str:
    placed = PlacedDrink(drink=name, x=pose.x + dx, y=pose.y + dy, yaw=pose.yaw + turn, standing=pose.standing,
                         length_mm=length, width_mm=width)
    return spot_of(scene, placed)


def _coin_like(sel: np.ndarray, count: int) -> bool:
    """A round flat patch as wide as a coin: a coin (flat: it keeps its shape on the table
    plane), not a drink (a drink's patch is drawn out by its length or its height)."""
    pts = np.column_stack(np.nonzero(sel)[::-1]).astype(np.float32)
    (_, _), radius = cv2.minEnclosingCircle(pts)
    return radius >= COIN_MM * TOP_PX_PER_MM and count >= ROUND * math.pi * radius * radius


def _touches(crates, pose, length, width) -> bool:
    """Whether a drink lying on the table there would reach under a crate (it cannot)."""
    placed = PlacedDrink(drink="red-short_can", x=pose.x, y=pose.y, yaw=pose.yaw, length_mm=length, width_mm=width)
    for c in crates:
        hu, hv = c.half_size()
        if any(abs(u) < hu - 1.0 and abs(v) < hv - 1.0 for u, v in (c.local(*p) for p in placed.footprint())):
            return True
    return False


def _over_any(crates, pose) -> bool:
    return any(_near(c, pose, 0.0) for c in crates)


def _near(crate, pose, margin: float) -> bool:
    hu, hv = crate.half_size()
    u, v = crate.local(pose.x, pose.y)
    return abs(u) <= hu + margin and abs(v) <= hv + margin


def _expected_area(at: np.ndarray, camera: np.ndarray, length: float, width: float) -> float:
    """About how many square mm of the top view a drink there covers (standing or lying alike)."""
    dist = float(np.linalg.norm(at - camera[:2]))
    H = float(camera[2])
    smear = dist * width / max(H - width, 1.0)
    return length * width + length * smear * 0.5


def _is_drink(name) -> bool:
    try:
        Drink.parse(name)
        return True
    except (ValueError, TypeError, AttributeError):
        return False


def _usable(frame, size: tuple[int, int]) -> np.ndarray | None:
    """The frame as BGR uint8 of the calibration's size (a frame of the same shape at another
    resolution is scaled), or None when it is no picture of the table."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        return None
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3 or min(frame.shape[:2]) < 16:
        return None
    h, w = frame.shape[:2]
    if (w, h) != tuple(size):
        if abs(w / h - size[0] / size[1]) > 0.02:
            return None
        frame = cv2.resize(frame, tuple(size), interpolation=cv2.INTER_AREA)
    if float(frame.mean()) < 6 or float(frame.std()) < 2:
        return None          # black, or one flat colour: the camera gives no picture
    return frame
