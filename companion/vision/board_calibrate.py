"""Fitting our approximate board data to the printed TOKYO METRO board: a photo and a few taps.

The board file's places (``BoardLayout``) are approximate: on the printed board the stations lie
somewhat elsewhere, moved smoothly (another scale, a slant, a bow). A calibration takes one photo
of the EMPTY board with the four corner markers laid at its corners (board_markers.py):

1. the markers give the homography board mm -> photo px (board_pose.py), so every tap in the
   photo is a point in board millimetres;
2. the host taps at least :data:`MIN_TAPS` named stations (the middle of the station's printed
   circle or circles: :func:`station_point`), well spread (:func:`suggest_stations`);
3. the move from our data's mm to the printed board's mm is fitted: a least-squares affine map,
   plus a smooth remainder (a thin-plate spline) once there are ``warp.SMOOTH_FROM`` taps or more (vision/warp.py);
4. every place of the layout is moved by it (``BoardLayout.mapped``), and the empty board, seen
   straight from above at ``PX_PER_MM``, is kept as the reference every board reading compares
   its frames with.

``P.json`` (:func:`save_calibration`) holds the fitted layout, the taps and the residual; the
reference is ``<P>-empty.png`` beside it. :func:`load_calibration` reads both back for a board.

A photo of another board shows itself in the fit: its stations cannot be put on ours by a
plausible map (:data:`WRONG_BOARD_MM`). Every refusal is a :class:`BoardCalibrationError` whose
words say what to do; the CLI and the calibration page show them as they are.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

import cv2
import numpy as np

from ..board_layout import BoardLayout, LayoutError, Point
from .board_pose import PX_PER_MM, BoardTracker, Pose, board_markers, fit_homography, rectify
from .photo import PhotoRefused, decode_photo
from .radial_lens import distort_points, undistort_points
from .warp import Warp, fit_affine, fit_warp, k_fold_rms, leave_one_out_rms

FORMAT = "tokyo-table-companion/board-calibration"
VERSION = 1
MIN_TAPS = 3                 # an affine map needs three points
MAX_TAPS = 60
MIN_MARKERS = 3              # of the four: fewer give too loose a homography to calibrate by
WRONG_BOARD_MM = 25.0        # taps further than this (RMS) from the best affine map: not this board
SCALE_RANGE = (0.75, 1.33)   # how much larger or smaller the printed board may be than our data
SHEET_SLACK_MM = 10.0        # a tap this far outside the sheet is still taken (a marker laid loosely)
MIN_SPREAD_MM = 40.0         # the taps must span at least this much in their narrower direction
CORNER_NAMES = ("TL", "TR", "BR", "BL")


class BoardCalibrationError(ValueError):
    """A calibration that cannot be made or read; the message says why and what to do."""


# --- the photo --------------------------------------------------------------------------------

def read_photo(source: bytes | str | Path | np.ndarray) -> np.ndarray:
    """A colour image (BGR) from encoded bytes, a file or an array; refused in words when it is none."""
    try:
        return decode_photo(source, "the empty board")
    except PhotoRefused as exc:
        raise BoardCalibrationError(str(exc)) from None


@dataclass(frozen=True)
class BoardPhoto:
    """The empty board's photo with its pose: ``H`` maps board mm to photo px."""

    image: np.ndarray = field(repr=False)
    H: np.ndarray
    markers: tuple[int, ...]
    k: float = 0.0          # the lens's barrel distortion (H is then of the undistorted photo)

    @property
    def pose(self) -> Pose:
        """The same as a tracker's pose (what ``rectify`` straightens the photo with)."""
        return Pose(self.H, self.markers, "locked", k=self.k, size=(self.image.shape[1], self.image.shape[0]))

    def to_mm(self, points) -> np.ndarray:
        size = (self.image.shape[1], self.image.shape[0])
        pts = undistort_points(np.asarray(points, np.float64).reshape(-1, 2), self.k, size).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.H)).reshape(-1, 2)

    def to_px(self, points) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        px = cv2.perspectiveTransform(pts, self.H).reshape(-1, 2)
        return distort_points(px, self.k, (self.image.shape[1], self.image.shape[0])) if self.k else px


def locate_board(image: np.ndarray, layout: BoardLayout) -> BoardPhoto:
    """The board's pose in the photo from its corner markers (at least :data:`MIN_MARKERS`)."""
    found = board_markers(image, layout)
    if len(found) < MIN_MARKERS:
        names = dict(zip(layout.marker_ids, CORNER_NAMES))
        missing = [f"{names[i]} (id {i})" for i in layout.marker_ids if i not in found]
        seen = f"found {len(found)} of the board's 4 corner markers" + (
            f"; missing {', '.join(missing)}" if found else "")
        raise BoardCalibrationError(
            f"{seen}: print them (companion calibrate print-board-markers), lay each at its corner of the "
            "board, and photograph the whole board from above, well lit, with every marker in the picture "
            "and nothing on it")
    try:
        H = fit_homography(found, layout)
        ok = H is not None and np.all(np.isfinite(H)) and abs(np.linalg.det(H)) > 1e-12
    except (cv2.error, np.linalg.LinAlgError):
        ok = False
    if not ok:
        raise BoardCalibrationError("the corner markers do not give a view of the board: photograph it from "
                                    "above, the whole board in the picture")
    # each marker where the board file has it: a marker laid at the wrong corner shows here
    corners = layout.marker_corners()
    ids = sorted(found)
    src = np.concatenate([corners[i] for i in ids]).astype(np.float64).reshape(-1, 1, 2)
    placed = cv2.perspectiveTransform(src, H).reshape(-1, 4, 2)
    side = np.mean([np.linalg.norm(found[i][1] - found[i][0]) for i in ids])
    names = dict(zip(layout.marker_ids, CORNER_NAMES))
    # (half a marker's side: a marker laid loosely by hand is still taken; the taps fit the rest)
    off = [f"{names[i]} (id {i})" for i, c in zip(ids, placed)
           if np.max(np.linalg.norm(c - found[i], axis=1)) > 0.5 * side]
    if off:
        raise BoardCalibrationError(f"the corner markers are not laid as the board file has them (look at "
                                    f"{', '.join(off)}): lay TL at the left end of the board's top edge, then TR, BR "
                                    f"and BL clockwise, each upright, its black tip on the board's corner")
    if not _sheet_in_view(H, layout, image.shape):
        raise BoardCalibrationError("the corner markers do not give a view of the board: photograph it from "
                                    "above, the whole board in the picture")
    return BoardPhoto(image, H, tuple(ids))


def _sheet_in_view(H: np.ndarray, layout: BoardLayout, shape) -> bool:
    """Whether the sheet the markers give is a convex, unmirrored, not tiny shape in the photo."""
    W, Hh = layout.sheet
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [W, 0], [W, Hh], [0, Hh]]], np.float64), H)[0]
    edges = np.roll(quad, -1, axis=0) - quad
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    area = 0.5 * abs(np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - quad[:, 1] * np.roll(quad[:, 0], -1)))
    return bool(np.all(turns > 0) and area > 0.02 * shape[0] * shape[1])


# --- the stations -----------------------------------------------------------------------------

def station_point(layout: BoardLayout, station: str) -> Point:
    """Where a person taps a station: the middle of its printed circle(s), in board mm."""
    for s in layout.stations:
        if s.id == station:
            x, y = np.mean(np.asarray(s.circles, np.float64), axis=0)
            return float(x), float(y)
    raise BoardCalibrationError(f"no station {station!r} on the board {layout.name!r}: use a station id of "
                                "its board file (companion calibrate board lists suggestions)")


def suggest_stations(layout: BoardLayout, n: int = 6) -> list[str]:
    """``n`` stations to tap, spread over the board, in the order to tap them: each as far as can
    be from those before it (so the first three already span a wide triangle). Stations with one
    circle come first: their middle is plain to see."""
    single = [s for s in layout.stations if len(s.circles) == 1]
    pool = single if len(single) >= max(n, MIN_TAPS) else list(layout.stations)
    ids = [s.id for s in pool]
    pts = np.array([station_point(layout, i) for i in ids])
    centre = np.array(layout.sheet, np.float64) / 2
    chosen = [int(np.argmax(np.linalg.norm(pts - centre, axis=1)))]
    nearest = np.linalg.norm(pts - pts[chosen[0]], axis=1)
    while len(chosen) < min(n, len(ids)):
        k = int(np.argmax(nearest))
        chosen.append(k)
        nearest = np.minimum(nearest, np.linalg.norm(pts - pts[k], axis=1))
    return [ids[k] for k in chosen]


# --- the fit ----------------------------------------------------------------------------------

def _plausible(affine: np.ndarray) -> str | None:
    """Why an affine map cannot carry our board onto a print of it (None: it can)."""
    A = affine[:, :2]
    if np.linalg.det(A) <= 0:
        return "they come out mirrored"
    s = np.linalg.svd(A, compute_uv=False)
    if s.min() < SCALE_RANGE[0] or s.max() > SCALE_RANGE[1]:
        return f"they would need the board {s.max():.2f} x {s.min():.2f} times its size"
    return None


@dataclass(frozen=True)
class LayoutFit:
    layout: BoardLayout          # every place moved onto the printed board
    warp: Warp
    residual_mm: float           # leave-one-out RMS over the taps (0 with three: nothing to check)
    affine_rms_mm: float         # how far the taps lie from the best affine map


def fit_layout(layout: BoardLayout, printed: Mapping[str, Point], board_file: str = "DATA") -> LayoutFit:
    """The layout moved so that each tapped station's middle lands where the print has it
    (``printed``: station id -> board mm as measured in the photo)."""
    if len(printed) < MIN_TAPS:
        raise BoardCalibrationError(f"{len(printed)} station(s) tapped: tap at least {MIN_TAPS} stations, "
                                    "spread over the board")
    if len(printed) > MAX_TAPS:
        raise BoardCalibrationError(f"{len(printed)} stations tapped: at most {MAX_TAPS} are taken")
    ids = list(printed)
    src = np.array([station_point(layout, i) for i in ids])
    dst = np.array([printed[i] for i in ids], np.float64)
    spread = np.linalg.svd(src - src.mean(axis=0), compute_uv=False)
    if spread[-1] / np.sqrt(len(src)) < MIN_SPREAD_MM / 2:
        raise BoardCalibrationError("the tapped stations lie (almost) on one line: tap stations spread over the "
                                    "whole board, as the suggestions are")
    affine = fit_affine(src, dst)
    affine_rms = float(np.sqrt(np.mean(np.sum((src @ affine[:, :2].T + affine[:, 2] - dst) ** 2, axis=1))))
    why = _plausible(affine)
    if affine_rms > WRONG_BOARD_MM or why:
        detail = why or f"they lie {affine_rms:.0f} mm (RMS) from any map of it"
        raise BoardCalibrationError(f"the tapped stations do not fit this board's map ({detail}): is this photo "
                                    f"of the board in {board_file}? Check that each tap is on the station named")
    warp = fit_warp(src, dst)
    return LayoutFit(layout.mapped(warp), warp, leave_one_out_rms(src, dst, least=MIN_TAPS), affine_rms)


# --- the whole calibration --------------------------------------------------------------------

@dataclass(frozen=True)
class BoardFit:
    """A calibration made: the fitted layout, the empty board's reference, the taps and the residual."""

    layout: BoardLayout
    reference: np.ndarray = field(repr=False)    # the empty sheet from above, PX_PER_MM, BGR
    taps: dict[str, tuple[float, float]]         # station id -> photo px, as tapped
    printed_mm: dict[str, tuple[float, float]]   # station id -> board mm on the print
    residual_mm: float
    kind: str                                    # "affine" or "smooth"
    markers: tuple[int, ...]
    photo_size: tuple[int, int]
    snapped: int = 0                             # station circles found in the photo and fitted to


def check_taps(taps: Mapping[str, Any], layout: BoardLayout, photo: BoardPhoto) -> dict[str, tuple[float, float]]:
    """The taps as {station id: (x px, y px)}, each a known station inside the photo and the sheet."""
    if not isinstance(taps, Mapping):
        raise BoardCalibrationError("the taps must be station id -> [x, y] in photo pixels")
    known = {s.id for s in layout.stations}
    h, w = photo.image.shape[:2]
    out = {}
    for sid, xy in taps.items():
        if sid not in known:
            raise BoardCalibrationError(f"no station {sid!r} on the board {layout.name!r}: tap a station of its "
                                        "board file (the suggestions are)")
        try:
            x, y = (float(v) for v in xy)
        except (TypeError, ValueError):
            raise BoardCalibrationError(f"the tap of {sid} must be two numbers x, y (photo pixels)") from None
        if not (np.isfinite(x) and np.isfinite(y) and 0 <= x <= w and 0 <= y <= h):
            raise BoardCalibrationError(f"the tap of {sid} at ({x:g}, {y:g}) is outside the photo "
                                        f"({w}x{h} pixels)")
        out[sid] = (x, y)
    if out:
        mm = photo.to_mm(list(out.values()))
        W, H = layout.sheet
        for sid, (mx, my) in zip(out, mm):
            if not (-SHEET_SLACK_MM <= mx <= W + SHEET_SLACK_MM and -SHEET_SLACK_MM <= my <= H + SHEET_SLACK_MM):
                raise BoardCalibrationError(f"the tap of {sid} is outside the board's sheet ({mx:.0f}, {my:.0f} mm "
                                            f"from its top-left corner; the sheet is {W:g} x {H:g} mm): tap the "
                                            "station on the board, or lay the markers at the board's corners")
    return out


def calibrate_board(photo: bytes | str | Path | np.ndarray, layout: BoardLayout, taps: Mapping[str, Any],
                    board_file: str = "DATA", snap: bool = True) -> BoardFit:
    """A calibration from a photo of the empty board and the taps {station id: (x px, y px)};
    with ``snap``, refined by the station circles found near where the taps put them
    (board_snap.py), when enough are found and they agree with the taps."""
    image = read_photo(photo)
    where = _with_lens(image, locate_board(image, layout), layout)
    checked = check_taps(taps, layout, where)
    printed = dict(zip(checked, (tuple(map(float, p)) for p in where.to_mm(list(checked.values()))))) \
        if checked else {}
    fit = fit_layout(layout, printed, board_file)
    refined = _snapped_fit(image, where, layout, fit, printed) if snap else None
    (fitted, residual, kind, snapped) = refined or (fit.layout, fit.residual_mm, fit.warp.kind, 0)
    fitted = _track_by_taps(fitted, layout, printed)
    return BoardFit(fitted, rectify(image, where.pose, layout, PX_PER_MM), checked,
                    {k: (round(v[0], 2), round(v[1], 2)) for k, v in printed.items()},
                    round(residual, 2), kind, where.markers, (image.shape[1], image.shape[0]), snapped)


LENS_TAKEN = 0.01        # a lens distortion (radial_lens.undistort_points' k) below this is taken for none


def _with_lens(image: np.ndarray, where: BoardPhoto, layout: BoardLayout) -> BoardPhoto:
    """The photo's pose with its own lens measured (BoardTracker, from the sheet's straight
    edges), as the board reader will undo its camera's lens: the taps, the circles found and the
    empty sheet kept are then all in the straightened sheet the reader reads (with the markers'
    bare homography, a wide-angle photo's taps would land some millimetres off the places the
    reader looks at). The bare homography when the tracker cannot place the board."""
    pose = BoardTracker(layout).locate(image)
    if pose.H is None or pose.state != "locked" or abs(pose.k) < LENS_TAKEN:
        return where
    return BoardPhoto(image, pose.H, where.markers, k=pose.k)


def _track_by_taps(fitted: BoardLayout, layout: BoardLayout, printed: Mapping[str, Point]) -> BoardLayout:
    """``fitted`` with the revenue track (lanes, value spaces, rider places) moved by the taps'
    affine map alone. No tap and no station circle lies on the track, so the smooth fit's bends,
    drawn from the stations, would only be guessed there: on simulated prints it moved the track
    3-4 mm (more than half a value space) where the affine map leaves it within a fraction of one."""
    if not printed:
        return fitted
    src = np.array([station_point(layout, i) for i in printed])
    affine = fit_affine(src, np.array(list(printed.values()), np.float64))
    track = layout.mapped(lambda pts: pts @ affine[:, :2].T + affine[:, 2])
    return replace(fitted, lanes=track.lanes, values=track.values, riders=track.riders)


def _snapped_fit(image, where: BoardPhoto, layout: BoardLayout, fit: LayoutFit, printed: Mapping[str, Point]):
    """(layout, residual, kind, circles) refined by the circles found, or None (the taps' fit stays)."""
    from .board_snap import TAP_AGREE_MM, snap

    found = snap(image, where.pose, layout, fit.warp)
    if found is None:
        return None
    tap_src = np.array([station_point(layout, i) for i in printed])
    tap_dst = np.array(list(printed.values()), np.float64)
    src, dst = np.r_[tap_src, found.src], np.r_[tap_dst, found.dst]
    warp = fit_warp(src, dst, smooth=True)
    if np.max(np.linalg.norm(warp(tap_src) - tap_dst, axis=1)) > TAP_AGREE_MM:
        return None                                    # the circles found disagree with the host's taps
    return layout.mapped(warp), k_fold_rms(src, dst), "smooth", len(found.src)


def reference_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(f"{path.stem}-empty.png")


def save_calibration(fit: BoardFit, path: str | Path) -> Path:
    """Write P.json and its reference ``<P>-empty.png`` beside it; returns P.json's path."""
    path = Path(path)
    ref = reference_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(ref), fit.reference):
        raise BoardCalibrationError(f"cannot write {ref}")
    doc = {"format": FORMAT, "version": VERSION, "board": fit.layout.name, "layout": fit.layout.to_data(),
           "reference": ref.name, "taps": {k: [round(v[0], 1), round(v[1], 1)] for k, v in fit.taps.items()},
           "printed_mm": {k: list(v) for k, v in fit.printed_mm.items()}, "residual_mm": fit.residual_mm,
           "fit": fit.kind, "snapped": fit.snapped, "markers": list(fit.markers),
           "photo_size": list(fit.photo_size)}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)   # a reader never sees half a file
    return path


def summary(fit: BoardFit, path: str | Path | None = None) -> dict:
    """What a calibration came to, for --json and the page."""
    out = {"board": fit.layout.name, "taps": len(fit.taps), "fit": fit.kind, "snapped": fit.snapped,
           "residual_mm": fit.residual_mm,
           "markers": list(fit.markers), "printed_mm": {k: list(v) for k, v in fit.printed_mm.items()}}
    if path is not None:
        out.update(path=str(path), reference=str(reference_path(path)))
    return out


# --- reading it back --------------------------------------------------------------------------

@dataclass(frozen=True)
class BoardCalibration:
    """A saved calibration, for the board reader: the fitted places and the empty board's look."""

    layout: BoardLayout
    reference: np.ndarray = field(repr=False)    # the empty sheet from above (sheet h x w x 3, BGR)
    colours: Any = None                          # the pieces' colours, when a later step learns them


def load_calibration(path: str | Path, board_data: Mapping[str, Any]) -> BoardCalibration:
    """Read P.json (and its reference) for the board file ``board_data`` (its parsed JSON)."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoardCalibrationError(f"{path}: no board calibration there: calibrate the board "
                                    "(companion calibrate board, or the host's calibration page)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BoardCalibrationError(f"{path}: cannot read the board calibration: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BoardCalibrationError(f"{path}: not a board calibration (its format is not {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise BoardCalibrationError(f"{path}: board calibration version {doc.get('version')!r}; this companion "
                                    f"reads version {VERSION}: calibrate the board again")
    name = str(board_data.get("name", "board")) if isinstance(board_data, Mapping) else None
    if name is None:
        raise BoardCalibrationError("the board file is not a TOKYO METRO board file")
    if doc.get("board") != name:
        raise BoardCalibrationError(f"{path}: calibrated for the board {doc.get('board')!r}, not {name!r}: "
                                    "calibrate this board")
    try:
        layout = BoardLayout.from_board({**board_data, "layout": doc.get("layout")}, source=str(path))
    except LayoutError as exc:
        raise BoardCalibrationError(f"{exc}: calibrate the board again") from None
    ref_name = doc.get("reference")
    if not isinstance(ref_name, str) or Path(ref_name).name != ref_name:
        raise BoardCalibrationError(f"{path}: 'reference' must name a PNG beside it")
    reference = cv2.imread(str(path.with_name(ref_name)), cv2.IMREAD_COLOR)
    want = (int(round(layout.sheet[1] * PX_PER_MM)), int(round(layout.sheet[0] * PX_PER_MM)))
    if reference is None:
        raise BoardCalibrationError(f"{path.with_name(ref_name)}: the empty board's picture is missing or "
                                    "unreadable: calibrate the board again")
    if reference.shape[:2] != want:
        raise BoardCalibrationError(f"{path.with_name(ref_name)}: {reference.shape[1]}x{reference.shape[0]} "
                                    f"pixels, not the sheet's {want[1]}x{want[0]}: calibrate the board again")
    return BoardCalibration(layout, reference)
