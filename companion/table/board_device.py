"""The board camera's thread: frames over the TOKYO METRO board, read, handed to the game.

Like the tray camera (table/devices.py): the source (``open_camera(spec)``, the composition
root's, which knows ``sim``: the simulated board camera) is read in a thread of its own that
keeps only the newest frame (``vision.sources.LatestFrame``), at most READ_FPS frames a second
(or the table's ``fps``: `companion serve --board-fps`);
each is read by the board reader (``vision.board_read.BoardReader``) and the reading handed to
the game the board camera reads for (``Tables.board_route``: the newest open METRO game created
or moved in), whose BoardWatch settles it and compares it with the game. While no such game is
in play (and nobody looks at the picture or calibrates), the camera rests: no frame is read or
rendered. A failing camera or reader never stops the service: it shows as a problem code in
every METRO view (``camera_error``, ``calibrate``) and the game goes on by taps.

The reader is made from the host's calibration (``<data>/board-calibration.json``, written by
the calibration page or `companion calibrate board`); a simulated board camera without one is
read against its own empty board (its ``empty_frame()`` rectified) on the default layout.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from ..board_layout import BoardLayout
from ..board_pieces import BoardReading, Pieces
from .board_moves import expected
from .camera_device import CameraDevice

READ_FPS = 4.0           # board readings a second at most: a settled board needs three over 0.6 s
FPS_RANGE = (1.0, 15.0)  # the rates `companion serve --board-fps` takes
CALIBRATION_FILE = "board-calibration.json"
HAND_FRAMES = 4          # frames a simulated hand passing over the board is seen in, unless told
MAX_HAND_FRAMES = 20
_BGR = {"red": (40, 40, 220), "blue": (220, 110, 30), "yellow": (30, 210, 230), "green": (60, 170, 60),
        "purple": (170, 60, 150)}


class SimBoardError(ValueError):
    """The simulated players' hands cannot do that (``busy``: not now, else the change is wrong)."""

    def __init__(self, message: str, busy: bool = False):
        super().__init__(message)
        self.busy = busy


class BoardDevice(CameraDevice):
    """The board camera (see the module). ``tables``: whom the readings go to (Tables);
    ``open_camera(spec)``: the source; ``data_dir``: where the calibration is kept;
    ``make_reader(layout, reference, colours)``: the reader (None: vision.board_read's)."""

    NAME = "board camera"
    CALIBRATION_FILE = CALIBRATION_FILE
    SIM_METHOD = "change"

    def __init__(self, tables: Any, spec: str, open_camera: Callable[[str], Any] | None = None,
                 data_dir: str | Path | None = None, make_reader: Callable[..., Any] | None = None,
                 follow_s: float | None = None, fps: float = READ_FPS):
        """``follow_s``: on a simulated table with a simulated board camera, a move made on the
        dashboard (or by a computer player) is copied onto the simulated board this long after
        it (a hand passes over), as the players at a real table would (None: never); ``fps``: the
        readings a second at most (`companion serve --board-fps`)."""
        super().__init__(tables, spec, open_camera, data_dir, follow_s, fps)
        self.make_reader = make_reader
        self.layout: BoardLayout | None = None
        self._picture_tracker = None

    # --- the simulated players' hands -----------------------------------------------------------

    def sim_hands(self, changes: list[dict], knock: bool = False, hand: bool = False,
                  follow_game: bool = False, hand_frames: int = HAND_FRAMES) -> dict:
        """Change the simulated board (see routes/board.py's /api/sim/board); SimBoardError when a
        change names no piece of this board, or there is no game to follow."""
        camera = self.simulated_camera()
        if camera is None:
            raise SimBoardError("no simulated board camera runs here", busy=True)
        if follow_game:
            session = self.tables.board_in_play()
            if session is None:
                raise SimBoardError("no TOKYO METRO game is in play for the board camera to follow", busy=True)
            self.sim_set(expected(session.state), hand_frames)
        if changes:
            try:   # a hand passes over the board as the pieces are changed
                camera.change(changes, hand_frames=hand_frames)
            except (ValueError, TypeError) as exc:
                raise SimBoardError(f"the simulated board cannot take these changes: {exc}") from None
        knocked = camera.knock() if knock else []
        # A hand left over the board (a player thinking; one that never leaves becomes the problem
        # "hands"), until the next change without one.
        if hand and callable(getattr(camera, "rest_hand", None)):
            camera.rest_hand()
        elif getattr(camera, "resting_hand", None) is not None:
            camera.lift_hand()
        return {"result": "changed", "pieces": camera.pieces.model_dump(mode="json"), "knocked": knocked}

    def sim_set(self, pieces: Pieces, hand_frames: int = HAND_FRAMES) -> None:
        """The simulated players make the simulated board hold ``pieces`` (a hand passes over it,
        seen in ``hand_frames`` frames)."""
        camera = self.simulated_camera()
        if camera is None:
            raise SimBoardError("no simulated board camera runs here", busy=True)
        camera.set(pieces, hand_frames=hand_frames)

    def watch_of(self, session: Any) -> Any:
        return session.board_watch

    def follow(self, session: Any) -> None:
        self.sim_hands([], follow_game=True)

    # --- inside --------------------------------------------------------------------------------

    def in_play(self) -> Any:
        return self.tables.board_in_play()

    def route(self, reading: BoardReading, at: float) -> None:
        self.tables.board_route(reading, at=at)

    def build_reader(self, frame: np.ndarray) -> None:
        """The reader, from the host's calibration or (simulated) the simulated empty board."""
        made = self._calibrated() or self._simulated_reference(frame)
        if made is None:
            self.uncalibrated = ("the board camera is not calibrated: open the board calibration page "
                                 "(or run `companion calibrate board`)")
            return
        layout, reference, colours, tracker = made
        make = self.make_reader
        if make is None:
            from ..vision.board_read import BoardReader as make
        from ..vision.board_pose import BoardTracker

        self.layout = layout
        # The reader follows the board with the tracker that found the empty board (it measured
        # the lens there); the picture for the dashboards has a tracker of its own.
        self.reader = make(layout, reference, colours, tracker=tracker or BoardTracker(layout))
        self._picture_tracker = BoardTracker(layout, distortion=getattr(self.reader.tracker, "k", None))

    def _calibrated(self) -> tuple | None:
        """(layout, reference, colours, tracker) of the host's calibration, or None without one."""
        path = self.calibration_path
        if path is None or not path.is_file():
            return None
        from ..vision.board_calibrate import load_calibration

        cal = load_calibration(path, BoardLayout.default().data)
        return cal.layout, cal.reference, getattr(cal, "colours", None), None

    def _simulated_reference(self, frame: np.ndarray) -> tuple | None:
        camera = self.simulated_camera() or (self.source if self.simulated else None)
        if camera is None or not hasattr(camera, "empty_frame"):
            return None
        from ..vision.board_pose import empty_reference

        layout = BoardLayout.default()
        # the simulated sheet is drawn from this very layout: the pose may be corrected by its print
        reference, tracker = empty_reference(camera.empty_frame(), layout, refine=True)
        if reference is None:
            raise RuntimeError("the simulated board's empty frame shows no markers")
        return layout, reference, None, tracker

    def picture(self, image: np.ndarray, reading: BoardReading | None) -> np.ndarray:
        """The sheet seen from above with the pieces read drawn (the frame as it is when the
        markers are not found)."""
        layout = self.layout or BoardLayout.default()
        from ..vision.board_pose import BoardTracker, rectify

        # the pose the reader found in this very frame; a tracker of the picture's own only
        # while there is no reader (the markers are not looked for twice)
        pose = getattr(self.reader, "last_pose", None) if reading is not None else None
        if pose is None:
            if self._picture_tracker is None:
                self._picture_tracker = BoardTracker(layout)
            pose = self._picture_tracker.locate(image)
        if pose.H is None:
            return image
        picture = rectify(image, pose, layout)
        if reading is not None:
            draw_pieces(picture, reading.pieces, layout, set(reading.unsure))
        return picture


def draw_pieces(sheet: np.ndarray, pieces: Pieces, layout: BoardLayout, unsure: set[str] = frozenset()) -> None:
    """Circle each piece read on the rectified sheet (1 px per mm) in its colour; the spots read
    with doubt in grey."""
    def ring(x: float, y: float, r: float, colour, label: str | None = None) -> None:
        c = (int(round(x)), int(round(y)))
        cv2.circle(sheet, c, int(r) + 3, colour, 2, cv2.LINE_AA)
        if label:
            cv2.putText(sheet, label, (c[0] + int(r) + 2, c[1] + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1,
                        cv2.LINE_AA)

    r = layout.radius
    for sid, colour in pieces.pyramids.items():
        if sid in layout.pyramids:
            ring(*layout.pyramids[sid], r.get("pyramid", 6.5), _BGR.get(colour, (255, 255, 255)))
    for colour, place in pieces.meeples.items():
        kind, _, where = place.partition(":")
        if kind == "field" and int(where) < len(layout.meeples):
            ring(*layout.meeples[int(where)], r.get("meeple", 7.0), _BGR.get(colour, (255, 255, 255)))
        elif kind == "ride" and where in layout.lanes and layout.riders:
            ring(layout.lanes[where], layout.riders[0], r.get("meeple", 7.0), _BGR.get(colour, (255, 255, 255)))
    for letter, k in pieces.trains.items():
        stops = layout.stops.get(letter, ())
        if 0 <= k < len(stops):
            ring(*stops[k], r.get("train", 6.0), (255, 255, 255), f"{letter}{k + 1}")
    for letter, value in pieces.values.items():
        if letter in layout.lanes:
            ring(layout.lanes[letter], layout.lane_y(value), 5, (0, 0, 0))
    spots = {s.id: s for s in layout.spots()} if unsure else {}
    for spot_id in sorted(unsure)[:200]:
        s = spots.get(spot_id)
        if s is not None:
            ring(s.x, s.y, s.r, (160, 160, 160))
