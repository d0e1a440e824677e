"""Where each drink the game asks about landed, read from one frame of the landing camera.

``LandingReader(calibration).read(frame, asked)`` returns a
:class:`~companion.landing.LandingReading`: for each asked drink (the game knows which drinks
came out, and their colours differ) whether it was seen, its spot (``slot``, ``crate``,
``outside``: the words of ``companion/landing.py``) and its distance from the tower's foot,
and whether the reading is sure. It never raises on a frame: a frame it cannot read gets a
code (``not_calibrated``, ``camera_error``) and no landings.

How: the table plane is rectified to a top view in landing millimetres (``TOP_PX_PER_MM``)
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
from .landing_colours import CLASSES, balanced, class_costs, labels
from .landing_geometry import FLOOR_MM, RIM_MM, FoundCrate, crate_from_pixels, drink_pose

TOP_PX_PER_MM = 1.5
VIEW_MM = (-330.0, 340.0, -15.0, 430.0)      # x0, x1, y0, y1: the table the top view covers
SIZE_MM = {"stubby_can": (14.0, 12.0), "short_can": (20.0, 11.0), "tall_can": (26.0, 11.0),
           "square_bottle": (27.0, 10.0), "not_tallest_bottle": (29.0, 10.0), "tallest_bottle": (35.0, 11.0)}
SURE_MM = 2.5
MIN_SHARE, MAX_SHARE = 0.3, 3.0     # a drink's patch against its expected area
MAX_FIT = 0.55                      # a patch whose extent no pose explains this well is doubtful
MIN_MARGIN = 2.0                    # a patch's mean colour margin (cost units) to be sure of it
MIN_CRATE_MM2 = 350.0
BEHIND_MM = 6.0                     # the top view nearer the tower than this is its base (and its top's edge)


class LandingReader:
    """Reads landing frames of one calibrated camera (see the module's words). ``model`` is
    unused (no learned part yet); kept for the reader's final API."""

    def __init__(self, calibration: LandingCalibration | None, model=None):
        self.calibration = calibration
        self.model = model
        self._maps: dict = {}

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
            return self._read(frame, asked)
        except (cv2.error, ValueError, FloatingPointError, np.linalg.LinAlgError):
            return LandingReading(codes=["camera_error"])

    def _read(self, frame: np.ndarray, asked: tuple[str, ...]) -> LandingReading:
        cal = self.calibration
        top, valid = self.top_view(frame)
        _, _, _, gx, gy = self._top_maps((frame.shape[1], frame.shape[0]))
        lin = balanced(top, cal.white_bgr)
        label, margin = labels(class_costs(lin, TOP_PX_PER_MM))
        label[~valid] = CLASSES.index("table")
        label[gy < BEHIND_MM] = CLASSES.index("table")      # the tower's base: nothing lands on it
        camera = cal.camera_position
        crates = self._crates(label, gx, gy, camera)
        scene_crates = tuple(c.crate for c in crates)
        out = []
        for name in asked:
            out.append(self._drink(name, label, margin, gx, gy, camera, scene_crates, crates))
        return LandingReading(landings=out)

    def _crates(self, label, gx, gy, camera) -> list[FoundCrate]:
        mask = (label == CLASSES.index("yellow")).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        joined = cv2.dilate(mask, np.ones((5, 5), np.uint8))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        found = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < MIN_CRATE_MM2 * TOP_PX_PER_MM ** 2:
                continue
            sel = (lab == i) & (mask > 0)
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
        best, best_score, rivals = None, 0.0, 0
        for i in range(1, n):
            sel = (lab == i) & (mask > 0)
            count = int(sel.sum())
            if count < 6:
                continue
            pts = np.column_stack([gx[sel], gy[sel]]).astype(np.float64)
            expected = _expected_area(pts.mean(0), camera, length, width) * TOP_PX_PER_MM ** 2
            share = count / expected
            if not MIN_SHARE <= share <= MAX_SHARE:
                continue
            score = min(share, 1.0)
            if score > 0.5 * best_score and best is not None:
                rivals += 1
            if score > best_score:
                best, best_score, best_pts, best_sel = i, score, pts, sel
        if best is None:
            return Landing(drink=name, seen=False, sure=False)
        pose = self._pose(best_pts, camera, length, width, scene_crates)
        placed = PlacedDrink(drink=name, x=pose.x, y=pose.y, yaw=pose.yaw, standing=pose.standing,
                             length_mm=length, width_mm=width)
        scene = LandingScene(crates=scene_crates)
        spot = spot_of(scene, placed)
        distance = min(MAX_DISTANCE_MM, round(math.hypot(pose.x, pose.y)))
        steady = all(spot_of(scene, placed.model_copy(update={"x": pose.x + dx, "y": pose.y + dy})) == spot
                     for dx, dy in ((SURE_MM, 0), (-SURE_MM, 0), (0, SURE_MM), (0, -SURE_MM)))
        if not pose.standing and spot != "outside":
            steady = steady and all(spot_of(scene, placed.model_copy(update={"yaw": pose.yaw + t})) == spot
                                    for t in (-15, 15))
        colour_clear = float(np.mean(margin[best_sel])) >= MIN_MARGIN
        near_crate = spot != "outside" or any(_near(c.crate, pose, 8.0) for c in crates)
        sure = (steady and pose.fit <= MAX_FIT and colour_clear and rivals == 0
                and (not near_crate or all(c.sure for c in crates))
                and (spot == "outside" or abs(pose.fit - pose.other_fit) > 0.1 or _same_spot_both(scene, placed)))
        return Landing(drink=name, spot=spot, distance_mm=distance, sure=bool(sure))

    def _pose(self, pts, camera, length, width, crates):
        pose = drink_pose(pts, camera, length, width)
        scene = LandingScene(crates=crates)
        for c in crates:
            if _near(c, pose, 0.0):
                placed = PlacedDrink(drink="red-short_can", x=pose.x, y=pose.y, yaw=pose.yaw, standing=pose.standing,
                                     length_mm=length, width_mm=width)
                lift = FLOOR_MM if spot_of(scene, placed) == "slot" else RIM_MM
                return drink_pose(pts, camera, length, width, lift)
        return pose


def _same_spot_both(scene, placed) -> bool:
    return spot_of(scene, placed) == spot_of(scene, placed.model_copy(update={"standing": not placed.standing}))


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
