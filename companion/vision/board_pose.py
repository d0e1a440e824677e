"""Where the TOKYO METRO board lies in a camera frame: its four printed ArUco markers.

The markers (``companion calibrate print-board-markers``; ids and places in the board file's
layout) give a homography from board millimetres to frame pixels; :func:`rectify` then gives
the sheet seen straight from above at :data:`PX_PER_MM`, the one picture every board reading
works on (and the empty board's reference is kept as).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..board_layout import BoardLayout
from .mat import detect_markers
from .radial_lens import distort_points, undistort_points

PX_PER_MM = 1.0          # the rectified sheet: one pixel per millimetre (a piece's base is ~13 px)


def board_markers(image: np.ndarray, layout: BoardLayout) -> dict[int, np.ndarray]:
    """The board's markers found in ``image``: id -> its 4 corners in pixels (TL, TR, BR, BL)."""
    return {i: c for i, c in detect_markers(image).items() if i in layout.marker_ids}


def fit_homography(found: dict[int, np.ndarray], layout: BoardLayout) -> np.ndarray | None:
    """Board mm -> frame px from the markers found (at least two: eight corners), or None."""
    ids = [i for i in layout.marker_ids if i in found]
    if len(ids) < 2:
        return None
    corners = layout.marker_corners()
    src = np.concatenate([corners[i] for i in ids]).astype(np.float32)
    dst = np.concatenate([found[i] for i in ids]).astype(np.float32)
    H, _ = cv2.findHomography(src, dst, 0)
    return H


def rectify(frame: np.ndarray, H, layout: BoardLayout, scale: float = PX_PER_MM, k: float = 0.0,
            box: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """The sheet seen from above: (sheet height x width) * ``scale`` pixels, board mm * scale.
    ``H`` is board mm -> frame px, or a :class:`Pose` (whose lens distortion ``k`` is then
    undone as well: the sheet of a wide-angle camera is straightened). ``box``: only the part
    (x0, y0, x1, y1) mm of the sheet, its corner (x0, y0) at pixel (0, 0)."""
    if isinstance(H, Pose):
        H, k = H.H, H.k
    S = np.diag([scale, scale, 1.0])
    w, h = int(round(layout.sheet[0] * scale)), int(round(layout.sheet[1] * scale))
    if box is not None:
        H = H @ np.array([[1.0, 0.0, box[0]], [0.0, 1.0, box[1]], [0.0, 0.0, 1.0]])
        w, h = int(round((box[2] - box[0]) * scale)), int(round((box[3] - box[1]) * scale))
    if not k:
        return cv2.warpPerspective(frame, S @ np.linalg.inv(H), (w, h), flags=cv2.INTER_AREA,
                                   borderMode=cv2.BORDER_REPLICATE)
    # where each sheet pixel lies in the frame: on a coarse grid (the map is smooth), enlarged
    step = 8
    gx, gy = np.meshgrid(np.arange(0, w + step, step, dtype=np.float64), np.arange(0, h + step, step, dtype=np.float64))
    mm = np.column_stack([gx.ravel(), gy.ravel()]) / scale
    px = distort_points(_project(H, mm), k, frame.shape[1::-1]).astype(np.float32)
    # enlarged so that node (i, j) lands on pixel (i * step, j * step) exactly
    up = np.array([[1.0 / step, 0, 0], [0, 1.0 / step, 0]])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    mx = cv2.warpAffine(px[:, 0].reshape(gx.shape), up, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    my = cv2.warpAffine(px[:, 1].reshape(gx.shape), up, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# --- following the board frame by frame ---------------------------------------------------------

HOLD_FRAMES = 25         # how long a pose is held with fewer than two markers in view (then lost)
MIN_SIDE_PX = 8.0        # a marker smaller than this is a misdetection (or the board is too far)
SIDE_RATIO = 3.0         # a marker's longest side against its shortest (perspective stays below)
SIZE_SPREAD = 4.0        # two markers' sizes may differ by this factor at most (a tilted camera)
FIT_TOL = 0.12           # a marker's corners may miss the fit by this share of its side (and 2 px)
ROI_MARGIN = 2.5         # the window searched around a marker's predicted place, in marker sides
SMALL_MARKER_PX = 40.0   # a marker predicted smaller than this (its longest side) and missed ...
UPSCALE = 2.0            # ... is looked for again in its window enlarged this many times
FIRST_ENLARGED_PX = 1280  # a frame with no last pose this long or shorter is searched enlarged too
REFINE_REGIONS = 8       # regions of the print found: enough to say which lens (board_refine.fit_lens)
LENS_MARKERS = 3         # the lens is measured on the first frame locked by at least this many markers
# A still board keeps its pose: the markers' corners found again within this of where they were
# when the pose was fitted (the median over the markers of each one's mean corner shift) mean
# the board has not moved. A fresh fit would only add the corners' noise, which a small, blurred
# or compressed marker multiplies across the sheet: on 960x540 looks frames of one still board
# were fitted up to 5-8 mm apart at the far side, and their empty places read as changed.
STILL_PX = 0.75          # px: the floor (the corners' own noise on a small, noisy marker)
STILL_MM = 0.75          # mm of the board at the markers: where the markers are sharp, a shift this small is followed


@dataclass(frozen=True)
class Pose:
    """Where the board lies in one frame. ``H``: board mm -> frame px (None when lost);
    ``markers_seen``: the ids of the board's markers found and used this frame; ``state``:
    ``locked`` (fitted from this frame's markers: all four, three, or two with the last pose to
    carry the rest), ``held`` (fewer than two markers: the last good pose, for a few frames) or
    ``lost``; ``error``: the fit's largest corner miss in pixels; ``k``: the lens distortion the
    pose was fitted with (H maps to the frame as a distortion-free camera would show it)."""

    H: np.ndarray | None
    markers_seen: tuple[int, ...]
    state: str
    error: float = 0.0
    k: float = 0.0                  # the lens's barrel distortion (undistort_points); H is of the undistorted frame
    size: tuple[int, int] = (0, 0)  # the frame's width and height

    def to_frame(self, mm: np.ndarray) -> np.ndarray:
        """Board mm (n, 2) -> frame px, the lens's distortion included."""
        return distort_points(_project(self.H, mm), self.k, self.size)

    @property
    def markers(self) -> int:
        return len(self.markers_seen)


class BoardTracker:
    """Follows the board through a stream of frames: :meth:`locate` refits the homography on
    every frame from the markers in view. Three or four markers: a full fit. Two (hands or pieces
    on the others): the last good pose moved by the similarity those two give (a bumped board is
    followed), or the eight corners' homography when there is no last pose. One or none: the last
    pose held for :data:`HOLD_FRAMES` frames, unless the one marker in view says the board moved;
    then lost. A marker whose shape or size does not fit the others, or that the fit misses, is
    left out; a fit that folds or shrinks the sheet is refused."""

    def __init__(self, layout: BoardLayout, hold_frames: int = HOLD_FRAMES, distortion: float | None = None,
                 refine: bool = False):
        self.layout = layout
        # refine: where the lens is measured, the pose is also corrected from the board's own
        # print (board_refine.py: only where the layout is the print itself, as on the simulated
        # board; a calibration fits the places in the markers' sheet instead); the correction
        # (sheet mm -> sheet mm) then applies to every pose this tracker gives
        self.refine = refine
        self.correction = np.eye(3)
        self.refinement = None
        self.hold_frames = hold_frames
        # the lens: given (a calibration kept it), or measured once from the sheet's straight
        # edges in the first frame locked by three or four markers (a camera's lens does not change)
        self.k = float(distortion or 0.0)
        self.k_known = distortion is not None
        self._mm = layout.marker_corners()
        self._last: np.ndarray | None = None      # the last good H
        self._since = 0                           # frames since it was fitted
        # poses a still board keeps (STILL_PX): (H, the corners found when it was fitted); the
        # first locked frame's (the empty board's, whose sheet the reader compares every frame
        # with) and the latest fitted
        self._home: tuple[np.ndarray, dict[int, np.ndarray]] | None = None
        self._fitted: tuple[np.ndarray, dict[int, np.ndarray]] | None = None
        self.kept = 0                             # frames given a still board's pose, no fit (for the benchmarks)

    def reset(self) -> None:
        self._last, self._since = None, 0
        self._home = self._fitted = None

    def locate(self, frame: np.ndarray) -> Pose:
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        size = (gray.shape[1], gray.shape[0])
        seen = self._sane(self._detect(gray))
        kept = self._still(self._undistorted(seen, size)) if self.k_known else None
        if kept is not None:
            self.kept += 1
            self._last, self._since = kept.H, 0
            return Pose(kept.H @ self.correction, kept.markers_seen, kept.state, kept.error, self.k, size)
        pose = self._fit(self._undistorted(seen, size), gray.shape)
        if pose.state == "locked" and not self.k_known and pose.markers >= LENS_MARKERS:
            # once, on the first frame with three or four markers (the calibration's empty
            # board; a frame that cuts one corner off still shows three edges of the sheet):
            # the lens is then fixed, so every frame is rectified as the reference was
            colour = frame if frame.ndim == 3 else None
            for _ in range(2):              # a second look from the first estimate's pose
                k = self._measure_lens(gray, seen, pose.H, colour)
                if k is None:
                    break
                self.k = k
                pose = self._fit(self._undistorted(seen, size), gray.shape)
                if pose.H is None:
                    self.k = 0.0
                    pose = self._fit(self._undistorted(seen, size), gray.shape)
                    break
            self.k_known = True
            if self.refine and pose.H is not None and frame.ndim == 3:
                k_edges = self.k
                try:
                    pose = self._refine(frame, gray, seen, pose, size)
                except (cv2.error, np.linalg.LinAlgError, ValueError):
                    # a frame the print cannot be fitted in: the markers' pose (and lens) stay
                    self.k, self.correction = k_edges, np.eye(3)
        if pose.state == "locked":
            self._last, self._since = pose.H, 0
            if self.k_known:
                found = self._undistorted(seen, size)
                self._fitted = (pose.H, {i: found[i] for i in pose.markers_seen})
                self._home = self._home or self._fitted
        elif pose.state == "held":
            self._since += 1
        else:
            self._last, self._since = None, 0
        # the markers' pose is what is followed (above); what is given out carries the print's
        # correction (the identity unless refined)
        H = pose.H if pose.H is None else pose.H @ self.correction
        return Pose(H, pose.markers_seen, pose.state, pose.error, self.k, size)

    # --- the print -------------------------------------------------------------------------------

    def _refine(self, frame: np.ndarray, gray: np.ndarray, seen: dict, pose: Pose, size) -> Pose:
        """The pose corrected from the board's own print (board_refine.py): first the lens, if
        the print's regions say another than the edges did, then a homography's correction
        kept for every later pose. Returns the markers' pose (with the lens now taken)."""
        from .board_refine import fit_lens, refine, region_points

        def refined(p: Pose):
            return refine(frame, Pose(p.H, p.markers_seen, p.state, p.error, self.k, size), self.layout)
        fit = refined(pose)
        mm, px = region_points(frame, Pose(pose.H, pose.markers_seen, pose.state, pose.error, self.k, size),
                               self.layout, fit.correction)
        if len(mm) >= REFINE_REGIONS:
            ids = [i for i in self.layout.marker_ids if i in seen]
            k = fit_lens(np.concatenate([mm] + [self._mm[i] for i in ids]),
                         np.concatenate([px] + [seen[i] for i in ids]), size, self.k)
            if k is not None:
                k_edges, self.k = self.k, k
                again = self._fit(self._undistorted(seen, size), gray.shape)
                if again.H is None:
                    self.k = k_edges
                else:
                    pose, fit = again, refined(again)
        self.refinement, self.correction = fit, fit.correction
        return pose

    def _still(self, found: dict[int, np.ndarray]) -> Pose | None:
        """The pose of a board that has not moved since it was fitted (STILL_PX): the first
        locked frame's, else the latest fitted; None when the markers moved (or too few are
        seen to say)."""
        for anchor in (self._home, self._fitted):
            if anchor is None:
                continue
            H, corners = anchor
            ids = [i for i in self.layout.marker_ids if i in found and i in corners]
            if len(ids) < 2:
                continue
            shift = np.median([np.linalg.norm(found[i] - corners[i], axis=1).mean() for i in ids])
            side = np.median([np.linalg.norm(found[i] - np.roll(found[i], 1, axis=0), axis=1).mean() for i in ids])
            if shift <= max(STILL_PX, STILL_MM * side / self.layout.marker_size):
                return Pose(H, tuple(ids), "locked", float(self._miss(H, found, ids).max()))
        return None

    # --- finding the markers ------------------------------------------------------------------

    def _detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """The board's markers: searched first in small windows around where the last pose puts
        them (a fraction of the frame's cost), then, if any is missing, in the whole frame; what
        those searches at the frame's own scale missed, in the image enlarged (UPSCALE): a small
        marker in its window (SMALL_MARKER_PX), or, with no last pose, in a small frame
        (FIRST_ENLARGED_PX) where some marker shows the board in view."""
        found: dict[int, np.ndarray] = {}
        windows = self._windows(gray.shape) if self._last is not None else {}
        for mid, (x0, y0, x1, y1, _) in windows.items():
            got = detect_markers(gray[y0:y1, x0:x1])
            if mid in got:
                found[mid] = got[mid] + np.array([x0, y0], np.float32)
        if windows and len(found) == len(self._mm):
            return found
        whole = board_markers(gray, self.layout)
        whole.update(found)
        if not windows and 0 < len(whole) < len(self._mm) and max(gray.shape) <= FIRST_ENLARGED_PX:
            # no last pose to look round (the first frame, the calibration's): a small frame's far
            # markers looked for in it enlarged, the ones the search at its own scale missed (only
            # where some marker shows the board is in view: a camera looking elsewhere would pay
            # ~70-120 ms a frame for nothing)
            for mid, c in _enlarged_markers(gray).items():
                if mid in self._mm:
                    whole.setdefault(mid, c)
        # a small, soft marker (a far corner of a wide, low-resolution view) both searches missed:
        # looked for again in its window enlarged, where its cells span more pixels (a frame the
        # searches above read fully is read as it was)
        for mid, (x0, y0, x1, y1, side) in windows.items():
            if mid not in whole and side < SMALL_MARKER_PX:
                got = _enlarged_markers(gray[y0:y1, x0:x1])
                if mid in got:
                    whole[mid] = got[mid] + np.array([x0, y0], np.float32)
        return whole

    def _windows(self, shape: tuple[int, ...]) -> dict[int, tuple[int, int, int, int, float]]:
        """Per marker, the window round where the last pose puts it (x0, y0, x1, y1 in frame px)
        and its predicted size (its longest side, px); none for a marker off the frame."""
        h, w = shape[:2]
        out = {}
        for mid, mm in self._mm.items():
            px = distort_points(_project(self._last, mm), self.k, (w, h))
            side = float(np.max(np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1)))
            lo = np.floor(px.min(axis=0) - ROI_MARGIN * side).astype(int)
            hi = np.ceil(px.max(axis=0) + ROI_MARGIN * side).astype(int)
            x0, y0 = max(lo[0], 0), max(lo[1], 0)
            x1, y1 = min(hi[0], w), min(hi[1], h)
            if x1 - x0 >= 16 and y1 - y0 >= 16:
                out[mid] = (x0, y0, x1, y1, side)
        return out

    @staticmethod
    def _sane(found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Markers whose outline is a plausible square seen in perspective, of sizes that agree."""
        ok = {}
        for mid, c in found.items():
            c = np.asarray(c, np.float64).reshape(4, 2)
            sides = np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1)
            if sides.min() < MIN_SIDE_PX or sides.max() > SIDE_RATIO * sides.min():
                continue
            if not cv2.isContourConvex(c.astype(np.float32).reshape(-1, 1, 2)):
                continue
            ok[mid] = c
        if len(ok) >= 2:
            size = {m: float(np.sqrt(abs(cv2.contourArea(c.astype(np.float32))))) for m, c in ok.items()}
            mid_size = float(np.median(list(size.values())))
            ok = {m: c for m, c in ok.items() if mid_size / SIZE_SPREAD <= size[m] <= mid_size * SIZE_SPREAD}
        return ok

    def _undistorted(self, seen: dict[int, np.ndarray], size) -> dict[int, np.ndarray]:
        return {m: undistort_points(c, self.k, size) for m, c in seen.items()}

    # --- the lens ---------------------------------------------------------------------------------

    def _measure_lens(self, gray: np.ndarray, seen: dict[int, np.ndarray], H: np.ndarray,
                      colour: np.ndarray | None = None) -> float | None:
        """The lens from the sheet's straight edges (board_lens.measure_lens), or None."""
        from .board_lens import measure_lens
        return measure_lens(self.layout, gray, seen, H, self.k, self._mm, colour)

    # --- fitting --------------------------------------------------------------------------------

    def _fit(self, found: dict[int, np.ndarray], shape: tuple[int, ...]) -> Pose:
        ids = [i for i in self.layout.marker_ids if i in found]
        H, used = None, ids
        if len(ids) >= 3:
            H, used = self._full(found, ids, least=3)
        if H is None and len(ids) >= 2:
            if self._last is not None:
                H, used = self._carried(found, ids)
            elif len(ids) == 2:
                H, used = self._full(found, ids, least=2)
        if H is not None and self._plausible(H, shape):
            return Pose(H, tuple(used), "locked", float(self._miss(H, found, used).max()))
        return self._hold(found)

    def _full(self, found, ids, least: int):
        """A homography from all the markers' corners; a marker the fit misses is left out and
        the rest refitted (a misread marker, or one moved on the table), down to ``least``."""
        while len(ids) >= least:
            src = np.concatenate([self._mm[i] for i in ids]).astype(np.float32)
            dst = np.concatenate([found[i] for i in ids]).astype(np.float32)
            H, _ = cv2.findHomography(src, dst, 0)
            if H is None:
                return None, ids
            ratio = self._miss(H, found, ids) / self._tolerance(found, ids)
            worst = int(np.argmax(ratio))
            if ratio[worst] <= 1.0:
                return H, ids
            ids = ids[:worst] + ids[worst + 1:]
        return None, ids

    def _carried(self, found, ids):
        """The last pose moved as a board is moved on the table: turned and shifted in its own
        plane (a similarity there: the camera and the table stay), fitted to where these
        markers are now, seen through the last pose. Two markers follow a bumped board; with
        three or more (whose full fit failed), the markers that move misses are left out."""
        inv = np.linalg.inv(self._last)
        for _ in range(2):
            src = np.concatenate([self._mm[i] for i in ids]).astype(np.float64)
            dst = _project(inv, np.concatenate([found[i] for i in ids]))
            H = self._last @ _similarity(src, dst)
            H = H / H[2, 2]
            good = self._miss(H, found, ids) <= self._tolerance(found, ids)
            if good.all():
                return H, ids
            ids = [i for i, g in zip(ids, good) if g]
            if len(ids) < 2:
                return None, ids
        return None, ids

    def _hold(self, found) -> Pose:
        ids = tuple(i for i in self.layout.marker_ids if i in found)
        if self._last is None or self._since >= self.hold_frames:
            return Pose(None, ids, "lost")
        for i in ids:        # the one marker in view must still be where the held pose puts it
            if self._miss(self._last, found, [i])[0] > 2 * self._tolerance(found, [i])[0]:
                return Pose(None, ids, "lost")
        return Pose(self._last, ids, "held")

    def _miss(self, H, found, ids) -> np.ndarray:
        """Per marker: the largest distance (px) between a corner found and where H puts it."""
        return np.array([float(np.max(np.linalg.norm(_project(H, self._mm[i]) - found[i], axis=1))) for i in ids])

    @staticmethod
    def _tolerance(found, ids) -> np.ndarray:
        sides = [float(np.mean(np.linalg.norm(found[i] - np.roll(found[i], 1, axis=0), axis=1))) for i in ids]
        return np.maximum(2.0, FIT_TOL * np.asarray(sides))

    def _plausible(self, H: np.ndarray, shape) -> bool:
        """The sheet under H: not folded, not a sliver, not vanishing, mostly in the frame."""
        if not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
            return False
        w, h = self.layout.sheet
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        den = (np.c_[corners, np.ones(4)] @ H.T)[:, 2]
        if np.any(den <= 1e-9 * abs(H[2, 2])) or np.any(np.sign(den) != np.sign(den[0])):
            return False
        px = _project(H, corners).astype(np.float32)
        if not cv2.isContourConvex(px.reshape(-1, 1, 2)):
            return False
        area = cv2.contourArea(px)
        fh, fw = shape[:2]
        if area < 0.02 * fw * fh or area > 25 * fw * fh:
            return False
        # orientation kept: the sheet's corners go round the same way as in board mm
        a, b = px[1] - px[0], px[3] - px[0]
        return bool(a[0] * b[1] - a[1] * b[0] > 0)


def _enlarged_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """The markers found in ``gray`` enlarged UPSCALE times (a small marker's cells then span
    more pixels), their corners in ``gray``'s own pixels."""
    enlarged = cv2.resize(gray, None, fx=UPSCALE, fy=UPSCALE, interpolation=cv2.INTER_CUBIC)
    return {m: c / UPSCALE for m, c in detect_markers(enlarged).items()}


def _project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[np.asarray(pts, np.float64).reshape(-1, 2), np.ones(len(pts))] @ H.T
    return p[:, :2] / p[:, 2:3]


def _similarity(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The least-squares similarity (3 x 3) taking points ``src`` to ``dst`` (Umeyama, no
    reflection): the move of a board pushed across the table, seen by the camera."""
    src, dst = np.asarray(src, np.float64), np.asarray(dst, np.float64)
    ms, md = src.mean(axis=0), dst.mean(axis=0)
    a, b = src - ms, dst - md
    # as complex numbers: dst = z * src, z = scale * e^(i turn)
    za, zb = a[:, 0] + 1j * a[:, 1], b[:, 0] + 1j * b[:, 1]
    z = complex(np.vdot(za, zb) / max(float(np.vdot(za, za).real), 1e-12))
    R = np.array([[z.real, -z.imag], [z.imag, z.real]])
    t = md - R @ ms
    return np.array([[R[0, 0], R[0, 1], t[0]], [R[1, 0], R[1, 1], t[1]], [0.0, 0.0, 1.0]])


def empty_reference(empty: np.ndarray, layout: BoardLayout, refine: bool = True,
                    min_markers: int = 1) -> tuple[np.ndarray | None, BoardTracker]:
    """The empty board seen from above (the reference a reader compares its frames with) and the
    tracker that located it (it keeps the lens it measured there); None for the reference where
    fewer than ``min_markers`` of the board's markers were found. With ``refine`` the pose is
    corrected from the print, as a simulated sheet (drawn from ``layout`` itself) allows."""
    tracker = BoardTracker(layout, refine=refine)
    pose = tracker.locate(empty)
    if pose.H is None or pose.markers < min_markers:
        return None, tracker
    return rectify(empty, pose, layout), tracker
