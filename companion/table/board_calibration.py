"""The board calibration as the table keeps it: the host's photo of the empty board while they
tap stations, and the calibration saved in the data folder for the board camera.

The calibration page (server/routes/board_calibration.py) hands over a photo (an upload or the
board camera's latest frame), gets back where the markers put the board and which stations to
tap, and then the taps; the fit itself is vision/board_calibrate.py's. The result is
``<data>/board-calibration.json`` with its reference ``board-calibration-empty.png``, which the
board camera reads (``load_calibration``). One photo is held at a time, in memory, scaled down
to :data:`MAX_SIDE` pixels a side (the taps are in its pixels).
"""
from __future__ import annotations

import json
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

import cv2
import numpy as np

from ..board_layout import BoardLayout
from ..vision.board_calibrate import (BoardCalibrationError, BoardPhoto, calibrate_board, locate_board,
                                      read_photo, save_calibration, station_point, suggest_stations)

__all__ = ["BoardCalibrationError", "BoardCalibrator", "FILE_NAME"]

FILE_NAME = "board-calibration.json"
MAX_SIDE = 2400          # the photo kept for tapping: enough for a 1 mm tap on a 1 m board
SUGGESTED = 8            # stations offered to tap, in order (6 are asked for; 2 spare for one not found)


class BoardCalibrator:
    """The host's calibration of the board: one photo at a time, the saved result."""

    def __init__(self, data_dir: str | Path, layout: BoardLayout | None = None):
        self.path = Path(data_dir) / FILE_NAME
        self.layout = layout or BoardLayout.default()
        self._lock = threading.Lock()
        self._photo: BoardPhoto | None = None
        self._jpeg: bytes | None = None

    # --- the photo ----------------------------------------------------------------------------

    def take_photo(self, source: bytes | np.ndarray) -> dict:
        """Keep a photo of the empty board (its markers must be found); answers its size, the
        markers found and the stations to tap, with where our data expects each in the photo."""
        image = read_photo(source)
        scale = MAX_SIDE / max(image.shape[:2])
        if scale < 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        where = locate_board(image, self.layout)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        with self._lock:
            self._photo, self._jpeg = where, (jpeg.tobytes() if ok else None)
        return self.photo_info()

    def photo_info(self) -> dict:
        with self._lock:
            where = self._photo
        if where is None:
            return {"photo": None}
        names = {s.id: (s.name, s.name_ja) for s in self.layout.stations}
        ids = suggest_stations(self.layout, SUGGESTED)
        guess = where.to_px([station_point(self.layout, s) for s in ids])
        h, w = where.image.shape[:2]
        sheet = where.to_px([(0, 0), (self.layout.sheet[0], 0), self.layout.sheet, (0, self.layout.sheet[1])])
        return {"photo": {"width": w, "height": h, "markers": list(where.markers),
                          "sheet": [[round(float(x), 1), round(float(y), 1)] for x, y in sheet]},
                "suggested": [{"station": s, "name": names[s][0], "name_ja": names[s][1],
                               "x": round(float(x), 1), "y": round(float(y), 1)} for s, (x, y) in zip(ids, guess)]}

    def photo_jpeg(self) -> bytes | None:
        with self._lock:
            return self._jpeg

    # --- the fit ------------------------------------------------------------------------------

    def fit(self, taps: Mapping[str, Any]) -> dict:
        """Fit the layout to the taps on the photo held and save it; answers what it came to."""
        with self._lock:
            where = self._photo
        if where is None:
            raise BoardCalibrationError("no photo of the empty board yet: send one first, then tap the stations")
        fit = calibrate_board(where.image, self.layout, taps, board_file="the companion's board file")
        save_calibration(fit, self.path)
        return self.status()

    def status(self) -> dict:
        """The saved calibration: {calibrated, board, taps, fit, snapped, residual_mm, saved} (or a problem)."""
        if not self.path.exists():
            return {"calibrated": False}
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
            saved = datetime.fromtimestamp(self.path.stat().st_mtime, timezone.utc).isoformat(timespec="seconds")
            return {"calibrated": True, "board": doc.get("board"), "taps": len(doc.get("taps") or {}),
                    "fit": doc.get("fit"), "snapped": doc.get("snapped", 0), "residual_mm": doc.get("residual_mm"),
                    "saved": saved,
                    "current": doc.get("board") == self.layout.name}
        except (OSError, ValueError, AttributeError) as exc:
            return {"calibrated": False, "problem": f"{self.path.name} cannot be read ({exc}): calibrate again"}
