"""Calibrating the landing camera from one photo of the calibration mat in front of the tower.

The host lays the printed mat (``vision/mat.py``: A4, four ArUco markers in its corners, the
small tray marker) flat on the table in front of the tower, its top edge (the edge with markers
0 and 1) against the tower's foot and its middle in front of the tower's middle, and takes one
photo with the camera where it will stay. The landing words' frame (``companion/landing.py``:
the tower's foot the origin, y away from the tower, x to the right seen from the tower) is then
the page turned half round: :func:`page_to_landing`.

From the markers' corners (up to 20 points on the table plane):

- the camera: its focal length, its barrel distortion (one radial term) and where it stands
  (rotation and position against the table), fitted by OpenCV's ``calibrateCamera`` with the
  picture's middle as the optical axis and square pixels; so any plane at a height over the
  table maps to the photo (a standing drink's top, a crate's rim);
- the white reference: the mat's paper under the lamp (colours are read against it, so the
  lamp's colour and the exposure cancel out).

Every refusal is a :class:`LandingCalibrationError` saying what to do.

>>> page_to_landing() @ np.array([0.0, 0.0, 1.0])
array([148.5,   0. ,   1. ])
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .mat import DICT, MARKERS, PAGE_MM, TRAY_MARKER_ID, detect_markers, marker_corners_mm
from .photo import PhotoRefused, decode_photo

FORMAT = "tokyo-table-companion/landing-calibration"
VERSION = 1
MAX_SIDE = 8000
MIN_MARKERS = 3                 # of the mat's four corner markers
LENS_NEEDED_PX = 0.9          # a pinhole fit worse than this (mean px) may take a lens term
LENS_GAIN = 0.6               # and takes it when that brings the misfit down this much
MAX_RESIDUAL_PX = 3.0           # the markers' corners must fit the camera this well (mean, px)
LOOK_CLOSER = (2, 3)            # the photo enlarged this much when a corner marker is missed (small and far)
MAX_LOOK_SIDE = 4200            # but not beyond this many pixels a side

Number = Annotated[float, Field(ge=-1e9, le=1e9, allow_inf_nan=False)]


class LandingCalibrationError(ValueError):
    """A landing calibration that cannot be made or read; the message says what to do."""


def page_to_landing() -> np.ndarray:
    """The mat's page mm -> landing mm (3x3): its top edge on the tower's foot line, centred on
    the tower, turned half round (a print cannot lie mirrored)."""
    return np.array([[-1.0, 0.0, PAGE_MM[0] / 2], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


class LandingCalibration(BaseModel):
    """What the landing reader needs to know of its camera (JSON round trip, every field
    bounded). ``rvec``/``tvec``: landing mm (z up from the table) -> camera (OpenCV's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: str = FORMAT
    version: int = Field(VERSION, ge=1, le=VERSION)
    image_size: tuple[Annotated[int, Field(ge=64, le=MAX_SIDE)], Annotated[int, Field(ge=64, le=MAX_SIDE)]]
    focal_px: float = Field(gt=10, lt=100_000)
    distortion: tuple[Number, Number] = (0.0, 0.0)      # OpenCV's k1, k2
    rvec: tuple[Number, Number, Number]
    tvec: tuple[Number, Number, Number]
    white_bgr: tuple[Annotated[float, Field(gt=0, le=255)], Annotated[float, Field(gt=0, le=255)],
                     Annotated[float, Field(gt=0, le=255)]]
    residual_px: float = Field(0.0, ge=0, le=100)
    notes: str = Field("", max_length=500)

    @property
    def K(self) -> np.ndarray:
        w, h = self.image_size
        return np.array([[self.focal_px, 0, w / 2], [0, self.focal_px, h / 2], [0, 0, 1.0]])

    @property
    def dist(self) -> np.ndarray:
        return np.array([self.distortion[0], self.distortion[1], 0.0, 0.0, 0.0])

    @property
    def camera_position(self) -> np.ndarray:
        """The camera's centre in landing mm (x, y, height over the table)."""
        R, _ = cv2.Rodrigues(np.array(self.rvec, np.float64))
        return (-R.T @ np.array(self.tvec, np.float64)).ravel()

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Landing mm (n, 3) (z up) -> photo px (n, 2), the lens's distortion in."""
        pts = np.asarray(pts, np.float64).reshape(-1, 3)
        px, _ = cv2.projectPoints(pts, np.array(self.rvec, np.float64), np.array(self.tvec, np.float64), self.K, self.dist)
        return px.reshape(-1, 2)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "LandingCalibration":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise LandingCalibrationError(f"{path}: cannot read the landing calibration: {exc.strerror or exc}") from None
        return cls.from_json(text, str(path))

    @classmethod
    def from_json(cls, text: str, name: str = "the landing calibration") -> "LandingCalibration":
        try:
            cal = cls.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise LandingCalibrationError(f"{name} is not a landing calibration ({where}: {first.get('msg')}): make "
                                          "a new one with `companion calibrate landing PHOTO --out FILE.json`") from None
        if cal.format != FORMAT:
            raise LandingCalibrationError(f"{name} is not a landing calibration: make a new one with "
                                          "`companion calibrate landing PHOTO --out FILE.json`")
        return cal


def what_to_do() -> str:
    return ("print the calibration mat (`companion calibrate print-mat`, A4 at 100 %), lay it flat on the table in front "
            "of the tower with its edge holding markers 0 and 1 against the tower's foot, centred on the tower, "
            "and photograph it with the landing camera where it will stay, all four corner markers in view")


def read_photo(source) -> np.ndarray:
    try:
        return decode_photo(source, "the calibration mat in front of the tower", max_side=MAX_SIDE)
    except PhotoRefused as exc:
        raise LandingCalibrationError(str(exc)) from None


def calibrate_landing(photo) -> LandingCalibration:
    """The landing camera's calibration from one photo (bytes, a path or a BGR array) of the mat
    in front of the tower; :class:`LandingCalibrationError` in words when it cannot be made."""
    image = read_photo(photo)
    h, w = image.shape[:2]
    found = find_markers(image)
    corners = [i for i in MARKERS if i in found]
    if len(corners) < MIN_MARKERS:
        raise LandingCalibrationError(f"found {len(corners)} of the mat's 4 corner markers: {what_to_do()}")
    ids = corners + ([TRAY_MARKER_ID] if TRAY_MARKER_ID in found else [])
    px = np.concatenate([found[i] for i in ids]).astype(np.float32)
    page = np.concatenate([marker_corners_mm(i) for i in ids]).astype(np.float64)
    flat = cv2.perspectiveTransform(page.reshape(-1, 1, 2), page_to_landing()).reshape(-1, 2)
    obj = np.column_stack([flat, np.zeros(len(flat))]).astype(np.float32)
    K0 = np.array([[0.9 * w, 0, w / 2], [0, 0.9 * w, h / 2], [0, 0, 1.0]])
    fixed = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    try:
        fits = [cv2.calibrateCamera([obj], [px.reshape(-1, 1, 2)], (w, h), K0.copy(), np.zeros(5), flags=flags)
                for flags in (fixed | cv2.CALIB_FIX_K1, fixed)]
    except cv2.error:
        raise LandingCalibrationError(f"the mat's markers do not fit a camera: {what_to_do()}") from None
    # the mat covers the near part of the view only: a lens term is taken only when it is needed
    # there (a spurious one bends the far table by centimetres)
    plain, bent = fits
    err, K, dist, rvecs, tvecs = bent if bent[0] < LENS_GAIN * plain[0] and plain[0] > LENS_NEEDED_PX else plain
    cal = LandingCalibration(image_size=(w, h), focal_px=float(np.clip(K[0, 0], 11, 99_999)),
                             distortion=(float(dist.ravel()[0]), float(dist.ravel()[1])),
                             rvec=tuple(float(v) for v in rvecs[0].ravel()),
                             tvec=tuple(float(v) for v in tvecs[0].ravel()),
                             white_bgr=(1.0, 1.0, 1.0), residual_px=float(min(err, 100.0)),
                             notes=f"markers {ids}")
    if not (err <= MAX_RESIDUAL_PX and cal.camera_position[2] > 0 and w * 0.2 < cal.focal_px < w * 8):
        raise LandingCalibrationError(f"the mat's markers do not fit a camera (off by {err:.1f} px): is the mat "
                                      f"flat? {what_to_do()}")
    return cal.model_copy(update={"white_bgr": paper_white(image, cal)})


def _small_marker_detector() -> cv2.aruco.ArucoDetector:
    """The mat's detector tuned for markers far off and seen at a slant (a landing camera looks
    along the table: the mat's far markers are a few dozen pixels, squashed)."""
    p = cv2.aruco.DetectorParameters()
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    p.adaptiveThreshWinSizeMin, p.adaptiveThreshWinSizeMax, p.adaptiveThreshWinSizeStep = 3, 43, 4
    p.minMarkerPerimeterRate = 0.01
    p.polygonalApproxAccuracyRate = 0.06
    p.minCornerDistanceRate = 0.02
    p.perspectiveRemovePixelPerCell = 8
    p.perspectiveRemoveIgnoredMarginPerCell = 0.2
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICT), p)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The mat's markers (id -> 4 corners, px): as every mat is found, and when a corner marker
    is missed, again with a detector for small slanted markers on the photo enlarged (and its
    contrast evened out in a dim corner); the first sighting of each marker is kept."""
    found = {i: c for i, c in detect_markers(image).items() if i in MARKERS or i == TRAY_MARKER_ID}
    if all(i in found for i in MARKERS):
        return found
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = _small_marker_detector()
    clahe = cv2.createCLAHE(2.0, (8, 8))
    for scale in (1, *LOOK_CLOSER):
        if scale > 1 and max(gray.shape) * scale > MAX_LOOK_SIDE:
            break
        big = gray if scale == 1 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        for img in (big, clahe.apply(big)):
            corners, ids, _ = detector.detectMarkers(img)
            for i, c in zip(() if ids is None else ids.ravel(), corners):
                if int(i) in MARKERS or int(i) == TRAY_MARKER_ID:
                    found.setdefault(int(i), (c.reshape(4, 2) + 0.5) / scale - 0.5)
        if all(i in found for i in MARKERS):
            break
    return found


def paper_white(image: np.ndarray, cal: LandingCalibration) -> tuple[float, float, float]:
    """The mat's paper as the camera sees it (BGR): the brightest fifth of the page's area."""
    page = np.array([[0, 0], [PAGE_MM[0], 0], [PAGE_MM[0], PAGE_MM[1]], [0, PAGE_MM[1]]], np.float64)
    inner = page * 0.9 + page.mean(0) * 0.1
    flat = cv2.perspectiveTransform(inner.reshape(-1, 1, 2), page_to_landing()).reshape(-1, 2)
    poly = cal.project(np.column_stack([flat, np.zeros(4)]))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    bgr = image[mask > 0].astype(np.float64)
    if len(bgr) < 50:
        raise LandingCalibrationError(f"too little of the mat is in view: {what_to_do()}")
    grey = bgr.sum(1)
    top = bgr[grey >= np.percentile(grey, 80)]
    return tuple(float(np.clip(v, 1.0, 255.0)) for v in np.median(top, axis=0))
