"""The board's pose refined from its own print (issue 29): where the markers' homography and
the lens leave the middle of the sheet a few millimetres off.

The markers fix the pose at the sheet's four corners (or three, when one lies out of view);
between them the lens and the markers' own small errors decide where everything lies, and a
homography fitted to three markers' corners alone can be ~10 mm off at the missing corner. The
print itself -- the metro lines' coloured strokes, the station rings, the revenue track's lanes
and ticks -- is spread over the whole sheet, and a lens cannot hide it. So, once, on the frame
where the tracker measures its lens (a calibration's empty board):

1. A sketch of the print is drawn from the layout (:func:`sketch`): "ink" where the layout
   has its lines (a 3.5 mm stroke), its lanes' strips and 1000-yen ticks, the rider rings and
   the letters' dots below; paper in the station rings. It is a sketch, not the print: only
   its shapes matter (the comparison below is normalised, so the ink's strength does not).
2. The sheet rectified by the markers' pose is turned into ink as well (how far its darkest
   channel lies under the paper's: any coloured or grey print shows, the paper does not).
3. OpenCV's ECC fits the homography that best lays the sheet's ink onto the sketch, coarse
   (0.5 px per mm: a pull of up to ~10 mm) then fine (1 px per mm).
4. It is taken only when the sheet then agrees with the sketch well (:data:`MIN_AGREE`),
   better than with the markers' pose (the correlation up by :data:`GAIN`), moves no point of the sheet more than :data:`MAX_MOVE_MM` (a sketch that
   is not this board's print, pieces or a hand) and at least :data:`MIN_MOVE_MM` (else there is
   nothing to correct). Otherwise the markers' pose stays: the refinement can only fall back.

The result is a correction of board millimetres (3 x 3, sheet mm -> sheet mm) the tracker
applies to every later pose (``BoardTracker(..., refine=True)``): the same camera and markers
make the same small error in every frame, and the reference and the frames then agree with the
layout alike. It is used where the layout is the print itself (the simulated board camera, the
benchmarks); a real board's calibration fits its places in the rectified sheet instead, so a
calibrated reader keeps the markers' pose as the calibration saw it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..board_layout import BoardLayout

LINE_MM = 3.5            # a metro line's stroke as sketched
RING_MM = 5.0            # a station ring's radius
MAX_MOVE_MM = 16.0       # a correction moving a sheet point further than this is not taken
MIN_MOVE_MM = 0.25       # nor one that moves nothing by this much (the markers' pose is right)
GAIN = 0.003             # the correlation must rise by this much over the markers' pose
MIN_AGREE = 0.6          # a correction after which the sheet agrees less with the sketch is not taken
                         # (ECC has locked onto a part: 2 of 40 held-out varied looks, blurred 960x540
                         # sheets, moved the track 2-3 mm the wrong way before this bar)
SCALES = (0.5, 1.0)      # px per mm of the coarse and the fine fit
BLUR_MM = (2.0, 1.0)     # the smoothing of each fit: a wider capture at the coarse one


@dataclass(frozen=True)
class Refinement:
    """``correction``: sheet mm -> sheet mm (3 x 3), the identity when not ``taken``; ``moved``:
    the most it moves a point of the sheet (mm); ``before``/``after``: how well the sheet's ink
    and the sketch agree (ECC correlation, -1..1) with the markers' pose and with the correction."""

    correction: np.ndarray
    taken: bool
    moved: float
    before: float
    after: float
    why: str = ""
    lens: float | None = None      # the lens the print's regions say (None: they do not say clearly)


def sketch(layout: BoardLayout, scale: float) -> np.ndarray:
    """The print's shapes as ink (float32, 0 paper .. 1 ink), the sheet at ``scale`` px per mm."""
    w, h = int(round(layout.sheet[0] * scale)), int(round(layout.sheet[1] * scale))
    img = np.zeros((h, w), np.float32)
    sh = 4                                    # sub-pixel places (cv2's shift)

    def p(x, y):
        return int(round(x * scale * (1 << sh))), int(round(y * scale * (1 << sh)))

    def thick(mm):
        return max(1, int(round(mm * scale)))
    for line in layout.lines:
        pts = np.array([p(*c) for c in line.circles], np.int32)
        cv2.polylines(img, [pts], False, 1.0, thick(LINE_MM), cv2.LINE_AA, sh)
    for st in layout.stations:
        for c in st.circles:
            cv2.circle(img, p(*c), int(RING_MM * scale * (1 << sh)), 0.0, -1, cv2.LINE_AA, sh)
            cv2.circle(img, p(*c), int(RING_MM * scale * (1 << sh)), 0.8, thick(0.7), cv2.LINE_AA, sh)
    half = layout.lane_width / 2
    top, bottom = min(layout.riders) - 9, max(layout.values) + 6
    for x in layout.lanes.values():
        cv2.rectangle(img, p(x - half, top), p(x + half, bottom), 0.25, -1, cv2.LINE_AA, sh)
        cv2.rectangle(img, p(x - half, top), p(x + half, bottom), 0.6, thick(0.4), cv2.LINE_AA, sh)
        for i, y in enumerate(layout.values):
            if (i * layout.value_step) % 1000 == 0:
                cv2.line(img, p(x - 0.9 * half, y), p(x + 0.9 * half, y), 0.6, thick(0.5), cv2.LINE_AA, sh)
        for y in layout.riders:
            cv2.circle(img, p(x, y), int(6.0 * scale * (1 << sh)), 0.9, thick(0.8), cv2.LINE_AA, sh)
        cv2.circle(img, p(x, bottom + 5.5), int(4.5 * scale * (1 << sh)), 1.0, -1, cv2.LINE_AA, sh)
    return img


def ink(sheet: np.ndarray) -> np.ndarray:
    """A rectified sheet (BGR) as ink: how far its darkest channel lies under the paper's."""
    img = sheet.astype(np.float32)
    flat = img.reshape(-1, 3)
    luma = flat.sum(axis=1)
    paper = np.median(flat[luma >= np.quantile(luma, 0.6)], axis=0) + 1.0
    return np.clip(1.0 - (img / paper).min(axis=2), 0.0, 1.0)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 0 else 0.0


def _max_move(C: np.ndarray, layout: BoardLayout) -> float:
    w, h = layout.sheet
    gx, gy = np.meshgrid(np.linspace(0, w, 9), np.linspace(0, h, 5))
    pts = np.c_[gx.ravel(), gy.ravel(), np.ones(gx.size)]
    q = pts @ C.T
    q = q[:, :2] / q[:, 2:3]
    return float(np.max(np.hypot(*(q - pts[:, :2]).T)))


def refine(frame: np.ndarray, pose, layout: BoardLayout) -> Refinement:
    """The correction of ``pose`` (a :class:`~.board_pose.Pose`, its lens included) the print
    in ``frame`` says; the identity (not taken) when it does not say so clearly."""
    from .board_pose import rectify
    eye = np.eye(3)
    C = eye.copy()                                   # sheet mm -> sheet mm, refined scale by scale
    before = after = 0.0
    for n, (s, blur) in enumerate(zip(SCALES, BLUR_MM)):
        S = np.diag([s, s, 1.0])
        sheet = ink(rectify(frame, pose, layout, s))
        tmpl = sketch(layout, s)
        sigma = blur * s
        sheet_b = cv2.GaussianBlur(sheet, (0, 0), sigma)
        tmpl_b = cv2.GaussianBlur(tmpl, (0, 0), sigma)
        if n == len(SCALES) - 1:
            before = _correlation(tmpl_b, sheet_b)
        W = (S @ C @ np.linalg.inv(S)).astype(np.float32)
        W /= W[2, 2]
        try:
            _, W = cv2.findTransformECC(tmpl_b, sheet_b, W, cv2.MOTION_HOMOGRAPHY,
                                        (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5), None, 1)
        except cv2.error:
            return Refinement(eye, False, 0.0, before, before, "the print does not converge on the sketch")
        C = np.linalg.inv(S) @ W.astype(np.float64) @ S
        C /= C[2, 2]
        if n == len(SCALES) - 1:
            h, w = tmpl_b.shape
            warped = cv2.warpPerspective(sheet_b, W, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                         borderMode=cv2.BORDER_REPLICATE)
            after = _correlation(tmpl_b, warped)
    moved = _max_move(C, layout)
    if after < MIN_AGREE:
        return Refinement(eye, False, moved, before, after, "the print is not clear enough to refine by")
    if not np.all(np.isfinite(C)) or moved > MAX_MOVE_MM:
        return Refinement(eye, False, moved, before, after, "it would move the sheet too far")
    if after < before + GAIN:
        return Refinement(eye, False, moved, before, after, "the print agrees no better")
    if moved < MIN_MOVE_MM:
        return Refinement(eye, False, moved, before, after, "nothing to correct")
    return Refinement(C, True, moved, before, after)


# --- the lens, from the print's regions --------------------------------------------------------

TILE_MM = 120.0          # the regions each laid onto the sketch on their own (a shift each)
TILE_INK = 0.08          # a region whose sketch has less ink spread than this says nothing
LENS_KS = np.round(np.arange(-0.06, 0.2501, 0.0025), 4)
LENS_GAIN = 0.25         # px: the print's lens is taken when it fits the regions this much better


def region_points(frame: np.ndarray, pose, layout: BoardLayout, correction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the print's regions really lie: (board mm (n, 2), frame px (n, 2)). Each region of
    the sheet (rectified by ``pose`` and its ``correction``) is laid onto the sketch by a shift
    of its own; a lens one homography cannot follow shows as shifts that differ by region."""
    from .board_pose import rectify
    sheet = cv2.GaussianBlur(ink(rectify(frame, pose, layout, 1.0)), (0, 0), 1.0)
    tmpl = cv2.GaussianBlur(sketch(layout, 1.0), (0, 0), 1.0)
    h, w = tmpl.shape
    C = correction.astype(np.float32)
    warped = cv2.warpPerspective(sheet, C, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_REPLICATE)
    mm, px = [], []
    t = int(TILE_MM)
    for y0 in range(0, h - t // 2, t // 2):
        for x0 in range(0, w - t // 2, t // 2):
            a, b = tmpl[y0:y0 + t, x0:x0 + t], warped[y0:y0 + t, x0:x0 + t]
            if a.shape != (t, t) or a.std() < TILE_INK:
                continue
            W = np.eye(2, 3, dtype=np.float32)
            try:
                cc, W = cv2.findTransformECC(a, b, W, cv2.MOTION_TRANSLATION,
                                             (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4), None, 1)
            except cv2.error:
                continue
            d = W[:, 2].astype(np.float64)
            if cc < MIN_AGREE or np.hypot(*d) > 6.0:
                continue
            centre = np.array([x0 + t / 2.0, y0 + t / 2.0])
            seen = np.r_[centre + d, 1.0] @ correction.T         # where the old sheet shows it
            mm.append(centre)
            px.append(pose.to_frame((seen[:2] / seen[2])[None])[0])
    return np.array(mm).reshape(-1, 2), np.array(px).reshape(-1, 2)


def fit_lens(mm: np.ndarray, px: np.ndarray, size: tuple[int, int], k_now: float) -> float | None:
    """The lens (and with it a homography) that puts board mm ``mm`` on frame px ``px`` best;
    None unless it fits clearly better than ``k_now``."""
    from .board_pose import _project
    from .radial_lens import distort_points, undistort_points

    def miss(k: float) -> float:
        H, _ = cv2.findHomography(mm.astype(np.float32), undistort_points(px, k, size).astype(np.float32), 0)
        if H is None:
            return np.inf
        return float(np.mean(np.hypot(*(distort_points(_project(H, mm), k, size) - px).T)))
    now = miss(k_now)
    costs = np.array([miss(float(k)) for k in LENS_KS])
    i = int(np.argmin(costs))
    if not np.isfinite(costs[i]) or costs[i] > now - LENS_GAIN:
        return None
    return float(LENS_KS[i])
