"""The board calibration (the host's): a photo of the empty board, the stations tapped on it, the
fit saved for the board camera, and the page that walks the host through it (/calibrate-board).

The board camera's device, when the service runs one, is ``ctx.board_device``: it may offer
``latest_frame()`` (a photo without an upload) and ``reload_calibration()`` (take the new fit at
once). Both are looked up when used, so the page works, by upload, without a board camera.
"""
from __future__ import annotations

from typing import Annotated, Literal

import numpy as np
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ...table.board_calibration import BoardCalibrationError, BoardCalibrator
from ..context import KEYED, Api
from .static_version import page

PHOTO_PATH = "/api/board/calibration/photo"
MAX_PHOTO_BYTES = 8_000_000       # a phone's photo as JPEG; the page sends it scaled down (~1 MB)
MAX_STATION_ID = 64
MAX_TAPS = 60
MAX_PX = 100_000.0
PHOTO_TYPES = ("image/jpeg", "image/png", "image/webp", "image/bmp", "application/octet-stream")

Pixel = Annotated[float, Field(ge=-MAX_PX, le=MAX_PX)]


class TapsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    taps: dict[Annotated[str, Field(min_length=1, max_length=MAX_STATION_ID)], tuple[Pixel, Pixel]] = Field(
        max_length=MAX_TAPS, description="station id -> [x, y]: the middle of the station in the photo's pixels")


def board_device(ctx: Api):
    """The board camera's device, or None (the service runs none, or an older one)."""
    return getattr(ctx, "board_device", None) or getattr(ctx.state, "board_device", None)


def add_board_calibration_routes(app: FastAPI, ctx: Api) -> None:
    calibrator = BoardCalibrator(ctx.store.path.parent)

    def camera_offered() -> bool:
        return callable(getattr(board_device(ctx), "latest_frame", None))

    def refused(exc: BoardCalibrationError) -> HTTPException:
        return HTTPException(422, str(exc))

    @app.get("/api/board/calibration", dependencies=KEYED, summary="The board's calibration: saved or not, "
             "and the photo being tapped (host)",
             description="`saved`: `calibrated`, `board`, `taps`, `fit` (`affine` or `smooth`), `snapped` (station "
                         "circles found on the photo and fitted to as well), `residual_mm` "
                         "(how far an untapped station may be off, in mm), `saved` (ISO 8601). `photo`: the photo "
                         "held for tapping (`width`, `height`, `markers`, `sheet`: its corners in pixels) or null, "
                         "with `suggested` stations to tap. `camera`: whether the board camera can give a photo.")
    def get_calibration(request: Request) -> dict:
        ctx.host_of(request, "calibrate the board")
        return {"saved": calibrator.status(), **calibrator.photo_info(), "camera": camera_offered()}

    @app.post(PHOTO_PATH, dependencies=KEYED, summary="A photo of the empty board to calibrate by (host)",
              description="The body is the photo (JPEG or PNG, at most 8 MB), or empty with `source=camera` for "
                          "the board camera's latest frame. Answers as `GET /api/board/calibration`; 422 when "
                          "the photo is no image or its corner markers are not found (the detail says what to do).",
              openapi_extra={"requestBody": {"required": False, "content": {
                  kind: {"schema": {"type": "string", "format": "binary"}} for kind in ("image/jpeg", "image/png")}}},
              responses={409: {"description": "source=camera, but no board camera or no frame yet"},
                         415: {"description": "the body is not a photo"},
                         422: {"description": "not an image, or the board's markers are not found"}})
    async def post_photo(request: Request,
                         source: Literal["upload", "camera"] = Query("upload", description="`upload`: the body; "
                                                                     "`camera`: the board camera's latest frame")) -> dict:
        ctx.host_of(request, "calibrate the board")
        if source == "camera":
            device = board_device(ctx)
            latest = getattr(device, "latest_frame", None)
            if not callable(latest):
                raise HTTPException(409, "no board camera: start the service with --board-camera, or upload a photo")
            frame = await run_in_threadpool(latest)
            if not isinstance(frame, np.ndarray):
                raise HTTPException(409, "the board camera has no picture yet: wait a moment, or upload a photo")
            photo = frame
        else:
            photo = await request.body()
            if not photo:
                raise HTTPException(422, "the photo is empty: choose a photo of the empty board")
            kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
            if kind not in PHOTO_TYPES:
                raise HTTPException(415, "send the photo itself as the body, as image/jpeg or image/png")
        try:
            info = await run_in_threadpool(calibrator.take_photo, photo)
        except BoardCalibrationError as exc:
            raise refused(exc) from None
        return {"saved": calibrator.status(), **info, "camera": camera_offered()}

    @app.get(PHOTO_PATH + ".jpg", dependencies=KEYED, summary="The photo held for tapping (host)",
             responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "no photo yet"}})
    def get_photo(request: Request) -> Response:
        ctx.host_of(request, "calibrate the board")
        jpeg = calibrator.photo_jpeg()
        if jpeg is None:
            raise HTTPException(404, "no photo of the empty board yet: send one first")
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/api/board/calibration", dependencies=KEYED, summary="Fit the board to the stations tapped and "
              "save it (host)",
              description="`taps`: station id -> [x, y] in the photo's pixels, at least 3 (5 or more also fit a "
                          "smooth bend). Saves `board-calibration.json` (and the empty board's picture) in the "
                          "data folder; the board camera takes it at once. Answers the saved calibration (as "
                          "`saved` in `GET /api/board/calibration`); 422 says what is wrong with the taps.",
              responses={507: {"description": "the data folder cannot be written"},
                         422: {"description": "too few taps, an unknown station, a tap off the board, or taps "
                                              "that do not fit this board"}})
    async def post_calibration(body: TapsIn, request: Request) -> dict:
        ctx.host_of(request, "calibrate the board")
        try:
            saved = await run_in_threadpool(calibrator.fit, body.taps)
        except BoardCalibrationError as exc:
            raise refused(exc) from None
        except OSError as exc:
            raise HTTPException(507, f"the calibration could not be saved: {exc.strerror or exc}") from None
        reload = getattr(board_device(ctx), "reload_calibration", None)
        saved["camera_reloaded"] = False
        if callable(reload):
            try:
                await run_in_threadpool(reload)
                saved["camera_reloaded"] = True
            except Exception as exc:  # the board camera's trouble must not undo a saved calibration
                saved["camera_problem"] = f"{type(exc).__name__}: {exc}"
        return saved

    @app.get("/calibrate-board", include_in_schema=False)
    def calibrate_board_page() -> Response:
        return page("calibrate-board.html")
