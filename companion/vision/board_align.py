"""A frame's pose checked against the empty board's own print when fewer than three markers
hold it (issue 29: a hand or a cup over two corners).

With two markers in view the tracker carries the last good pose by the turn, shift and scale
those two give (``BoardTracker._carried``); eight corners at one or two edges of the sheet fix
that motion loosely, and the far side of the board -- the revenue track among it -- can lie
1-2 mm off, once in a while ten. A held pose (one marker or none) does not follow a bumped
board at all. The print between the markers does not hide, though: the sheet this pose gives
is laid onto the reference (the empty board rectified as the calibration kept it, so this works
for a calibrated real board as for the simulated one) by OpenCV's ECC, a turn and a shift in
the sheet's plane (what a knock does to a board; the carried pose already has the scale), on
the print's "ink" (how far the darkest channel lies under the paper's, so the lamp's colour and
strength fall out): first the whole sheet at half a pixel per mm (a pull of up to ~10 mm), then
the revenue track's band at one pixel per mm (:data:`TRACK_BOX`: the part a millimetre matters
most for, a value space being 6.5 mm; a fifth of the sheet's pixels). Ink a piece, a hand or a
shadow brings (beyond what the reference shows within :data:`REACH_MM`) is left out.

The correction is taken only when the band then agrees well (:data:`MIN_AGREE`), better than
before (:data:`GAIN`), and it moves no point of the sheet more than :data:`MAX_MOVE_MM` (pieces,
a hand or a different board would pull further) nor less than :data:`MIN_MOVE_MM` (nothing to
correct); otherwise the tracker's pose stays. Only this frame's pose is corrected: the tracker
keeps following the board by its markers. Frames with three or four markers cost nothing more.

A still board needs no new fit: the pose the last aligned frame ended with (corrected or not) is
tried first on the next one, by the fine scale's agreement alone (a fifth of a fit's cost), and
kept when the band agrees with it as well as it did then (within :data:`STILL_SLACK`) and it
lies within MAX_MOVE_MM of the tracker's pose. A knock moves the print off it (the agreement
falls) and the full fit runs again.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..board_layout import BoardLayout
from .board_pose import Pose, rectify
from .board_refine import _correlation, _max_move

SCALES = (0.5, 1.0)      # px per mm of the coarse fit (the whole sheet) and the fine one (the track's band)
BLUR_MM = (2.0, 1.0)     # the smoothing before each (a wide capture, then precision)
ITERATIONS = (20, 10)    # ECC's steps at each scale (the fine one starts near its answer)
TRACK_MARGIN_MM = 8.0    # the band round the lanes (their riders and value spaces) the fine fit sees
MAX_MOVE_MM = 20.0       # a correction moving a point of the sheet further than this is not taken
MIN_MOVE_MM = 0.2        # nor one moving none as far as this
MIN_AGREE = 0.55         # the agreement (ECC's correlation, fine scale) the corrected band must reach
GAIN = 0.005             # ... and by how much it must beat the tracker's pose
REACH_MM = 10.0          # how far the print may lie from where the reference has it
SLACK = 0.12             # ink beyond the reference's range by more than this is not the print
PAPER_STEP = 7           # the paper's colour from every 7th pixel (a median: enough, and cheap)
STILL_SLACK = 0.01       # how much less the band may agree with the last frame's pose and it still holds


def track_box(layout: BoardLayout) -> tuple[float, float, float, float]:
    """The revenue track's band (x0, y0, x1, y1 mm): every lane, its riders and value spaces.

    >>> from companion.board_layout import BoardLayout
    >>> track_box(BoardLayout.default())          # the right-hand fifth of the 967 x 540 mm sheet
    (752.0, 15.0, 960.0, 527.0)
    """
    half = layout.lane_width / 2 + TRACK_MARGIN_MM
    xs, ys = list(layout.lanes.values()), list(layout.riders) + list(layout.values)
    x0, y0 = max(0.0, min(xs) - half), max(0.0, min(ys) - TRACK_MARGIN_MM)
    x1, y1 = min(layout.sheet[0], max(xs) + half), min(layout.sheet[1], max(ys) + TRACK_MARGIN_MM)
    return float(np.floor(x0)), float(np.floor(y0)), float(np.ceil(x1)), float(np.ceil(y1))


def ink(img: np.ndarray) -> np.ndarray:
    """A sheet (BGR) as ink: how far its darkest channel lies under the paper's (the paper the
    median of the brighter 40 % of a sample of its pixels)."""
    img = np.asarray(img, np.float32)
    sample = img[::PAPER_STEP, ::PAPER_STEP].reshape(-1, 3)
    luma = sample.sum(axis=1)
    paper = np.median(sample[luma >= np.quantile(luma, 0.6)], axis=0) + 1.0
    # the channels' least by two elementwise minima (numpy's min over a last axis of 3 is slow)
    darkest = np.minimum(np.minimum(img[..., 0] / np.float32(paper[0]), img[..., 1] / np.float32(paper[1])),
                         img[..., 2] / np.float32(paper[2]))
    return np.clip(1.0 - darkest, 0.0, 1.0)


class _Scale:
    """The reference at one scale over one box of the sheet: its ink smoothed (the template)
    and the range of ink the print may show within REACH_MM of each place."""

    def __init__(self, layout: BoardLayout, reference: np.ndarray, scale: float, blur_mm: float,
                 box: tuple[float, float, float, float]):
        self.scale, self.sigma, self.box = scale, blur_mm * scale, box
        # box px -> sheet mm and back: a warp in the box's pixels as sheet mm -> sheet mm
        self.to_mm = np.array([[1.0 / scale, 0.0, box[0]], [0.0, 1.0 / scale, box[1]], [0.0, 0.0, 1.0]])
        self.to_px = np.linalg.inv(self.to_mm)
        w, h = int(round((box[2] - box[0]) * scale)), int(round((box[3] - box[1]) * scale))
        x0, y0 = int(round(box[0])), int(round(box[1]))
        part = np.asarray(reference, np.float32)[y0:y0 + int(round(box[3] - box[1])), x0:x0 + int(round(box[2] - box[0]))]
        raw = ink(cv2.resize(part, (w, h), interpolation=cv2.INTER_AREA))
        self.template = self.smooth(raw)
        r = max(1, int(round(REACH_MM * scale)))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        self.lo, self.hi = cv2.erode(raw, kernel) - SLACK, cv2.dilate(raw, kernel) + SLACK

    def smooth(self, img: np.ndarray) -> np.ndarray:
        return cv2.GaussianBlur(img.astype(np.float32), (0, 0), self.sigma)

    def sheet(self, frame: np.ndarray, pose: Pose, layout: BoardLayout) -> tuple[np.ndarray, np.ndarray]:
        """The frame's box as smoothed ink at this scale, and where it may be the print."""
        raw = ink(rectify(frame, pose, layout, self.scale, box=self.box))
        mask = ((raw >= self.lo) & (raw <= self.hi)).astype(np.uint8)
        return self.smooth(raw), cv2.erode(mask, np.ones((3, 3), np.uint8))   # a piece's blurred rim too

    def agreement(self, sheet: np.ndarray, W: np.ndarray) -> float:
        h, w = self.template.shape
        return _correlation(self.template, cv2.warpAffine(sheet, W, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                                          borderMode=cv2.BORDER_REPLICATE))


class FrameAlign:
    """Corrects the pose of a frame held by fewer than three markers from the print (above)."""

    def __init__(self, layout: BoardLayout, reference: np.ndarray):
        self.layout = layout
        whole = (0.0, 0.0, float(layout.sheet[0]), float(layout.sheet[1]))
        self.scales = [_Scale(layout, reference, s, b, box)
                       for s, b, box in zip(SCALES, BLUR_MM, (whole, track_box(layout)))]
        self.last = None          # (moved mm, before, after, taken) of the latest frame aligned
        self.still = None         # (H, agreement, lens) the latest frame aligned ended with: tried first on the next
        self.reused = 0           # frames whose pose was the last one's, no fit run (for the benchmarks)

    def pose(self, frame: np.ndarray, pose: Pose) -> Pose:
        """``pose`` corrected from the print when it is held by fewer than three markers and
        the correction passes the bars above (or the last frame's pose, still as good: above);
        else ``pose`` itself."""
        if pose.H is None or pose.markers >= 3:
            return pose
        H = self._still_pose(frame, pose)
        if H is None:
            C = self.correction(frame, pose)
            H = pose.H if C is None else pose.H @ C
            self.still = (H, self.last[2] if C is not None else self.last[1], pose.k)
        if H is pose.H:
            return pose
        return Pose(H / H[2, 2], pose.markers_seen, pose.state, pose.error, pose.k, pose.size)

    def _still_pose(self, frame: np.ndarray, pose: Pose) -> np.ndarray | None:
        """The last aligned frame's pose (board mm -> frame px) when this frame's band agrees
        with it as well as that frame's did and it lies near the tracker's ``pose``; else None."""
        if self.still is None or self.still[2] != pose.k:
            return None
        H, agreed, _ = self.still
        C = np.linalg.solve(pose.H, H)                   # the last pose in this pose's sheet (mm -> mm)
        moved = _max_move(C, self.layout) if np.all(np.isfinite(C)) else np.inf
        if moved > MAX_MOVE_MM:
            return None
        sc = self.scales[-1]
        sheet, _ = sc.sheet(frame, Pose(H, pose.markers_seen, pose.state, pose.error, pose.k, pose.size), self.layout)
        now = sc.agreement(sheet, np.eye(2, 3, dtype=np.float32))
        if now < agreed - STILL_SLACK:
            return None
        self.reused += 1
        self.last = (moved, agreed, now, moved >= MIN_MOVE_MM)     # "before": what the pose agreed when fitted
        return H

    def correction(self, frame: np.ndarray, pose: Pose) -> np.ndarray | None:
        """Sheet mm -> sheet mm (3 x 3) laying this frame's sheet onto the reference, or None."""
        C = np.eye(3)
        before = after = 0.0
        try:
            for sc, steps in zip(self.scales, ITERATIONS):
                sheet, print_only = sc.sheet(frame, pose, self.layout)
                W = (sc.to_px @ C @ sc.to_mm)[:2].astype(np.float32)
                if sc is self.scales[-1]:
                    before = sc.agreement(sheet, np.eye(2, 3, dtype=np.float32))
                _, W = cv2.findTransformECC(sc.template, sheet, W, cv2.MOTION_EUCLIDEAN,
                                            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, steps, 1e-4),
                                            print_only, 1)
                C = sc.to_mm @ np.vstack([W.astype(np.float64), [0.0, 0.0, 1.0]]) @ sc.to_px
                if sc is self.scales[-1]:
                    after = sc.agreement(sheet, W)
        except cv2.error:                   # ECC found nothing to hold on to: the pose stays
            self.last = (0.0, before, before, False)
            return None
        moved = _max_move(C, self.layout) if np.all(np.isfinite(C)) else np.inf
        taken = bool(after >= MIN_AGREE and after >= before + GAIN and MIN_MOVE_MM <= moved <= MAX_MOVE_MM)
        self.last = (float(moved), float(before), float(after), taken)
        return C if taken else None
