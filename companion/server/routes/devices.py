"""The camera and the sensor board: their state, the camera's latest frame, and what the host's
corrections taught the camera."""
from __future__ import annotations

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import Response

from ..context import KEYED, NAMES_A_GAME, Api
from ..requests import MAX_GAME_KIND


def add_device_routes(app: FastAPI, ctx: Api) -> None:
    @app.get("/api/devices", dependencies=KEYED, responses=NAMES_A_GAME, summary="The camera and the sensor board: state, firmware, beams",
             description="For any key of the table; `game` names the game whose key a phone or spectator holds. "
                         "`board_camera`: the TOKYO METRO board's camera, `crate_camera`: the crates', "
                         "`landing_camera`: the table's in front of the tower (null: none runs).")
    def get_devices(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND)) -> dict:
        ctx.any_caller(request, game)
        board = ctx.board_device
        crates, landings = ctx.crate_device, ctx.landing_device
        return {**ctx.devices.status(), "board_camera": board.status() if board is not None else None,
                "crate_camera": crates.status() if crates is not None else None,
                "landing_camera": landings.status() if landings is not None else None}

    @app.get("/api/camera.jpg", dependencies=KEYED, summary="The latest camera frame with the detections drawn on it",
             responses={**NAMES_A_GAME, 200: {"content": {"image/jpeg": {}}},
                        404: {"description": "no camera frame yet, or no such game"}})
    def get_camera_frame(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND)) -> Response:
        ctx.any_caller(request, game)
        frame = ctx.devices.frame_jpeg()
        if frame is None:
            raise HTTPException(404, "no camera frame: start with --camera, or wait for the camera")
        return Response(frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/api/camera/learned/forget", dependencies=KEYED, summary="The camera forgets the looks the host's "
              "corrections taught it (host)",
              description="The camera reads with its calibration profile alone again. Answers what is left "
                          "learned (`corrections`, `looks`, `drinks`: none), as `camera.learned` in /api/devices.")
    def forget_learned(request: Request) -> dict:
        ctx.host_of(request, "make the camera forget what it learned")
        return {"learned": ctx.looks.forget()}
