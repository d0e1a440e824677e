"""The board camera (TOKYO METRO): what it makes of the board, its proposals and their answers,
its picture, and the simulated players' hands on the simulated board (docs/board-camera.md)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictBool, StrictStr

from ...observation import whole_number
from ...table.board_device import HAND_FRAMES, MAX_HAND_FRAMES, SimBoardError
from ...table.board_watch import MAX_CANDIDATES, BadAnswer
from ...table.session import TableSession
from ..context import KEYED, NAMES_A_GAME, Api
from ..requests import MAX_GAME_KIND

MAX_ID = 40        # characters of a proposal's id (they are 12)
MAX_CHANGES = 60   # pieces changed by one simulated hand
SIM_START_S = 10.0  # how long a call may wait for the simulated board camera still being opened


class ConfirmIn(BaseModel):
    proposal: StrictStr = Field(max_length=MAX_ID, description="the proposal's id (the view's board_camera.proposal.id)")
    candidate: whole_number(ge=0, lt=MAX_CANDIDATES) | None = Field(
        None, description="which of several candidates (board_camera.candidates); null for a proposal of one")


class DismissIn(BaseModel):
    proposal: StrictStr = Field(max_length=MAX_ID, description="the proposal's id")


class AutoIn(BaseModel):
    on: StrictBool = Field(description="true: a proposal of one explanation is made at once, without a tap")


class PieceChange(BaseModel):
    piece: Literal["pyramid", "meeple", "train", "value", "drink"]
    key: StrictStr = Field(max_length=MAX_GAME_KIND, description="a station id, a colour or a line letter")
    to: Annotated[StrictStr, Field(max_length=MAX_GAME_KIND)] | whole_number(ge=0, le=1_000_000) | None \
        = Field(description="a colour (pyramid), a place 'field:<i>' or 'ride:<L>' (meeple), a stop index (train), "
                            "yen (value), a drink id or colour (drink, METRO DRINKS: key a station); null: off")

    model_config = {"extra": "forbid"}


class SimBoardIn(BaseModel):
    set: list[PieceChange] = Field(default_factory=list, max_length=MAX_CHANGES,
                                   description="pieces the simulated players change on the board")
    knock: StrictBool = Field(False, description="a knock moves a few pieces")
    hand: StrictBool = Field(False, description="a hand stays over the board (a player thinking) until the next "
                                                "change without one")
    follow_game: StrictBool = Field(False, description="make the board match the game in play (its to-do list)")
    hand_frames: whole_number(ge=0, le=MAX_HAND_FRAMES) = Field(
        HAND_FRAMES, description="the frames a hand passing over the board is seen in while it changes pieces "
                                 "(0: none; a faster script's hand: fewer)")

    model_config = {"extra": "forbid"}


def add_board_routes(app: FastAPI, ctx: Api) -> None:
    def watch_of(session: TableSession):
        if session.board_watch is None:
            raise HTTPException(404, f"game {session.id} is not a TOKYO METRO game: the board camera reads the "
                                     f"TOKYO METRO board only")
        return session.board_watch

    def acting_viewer(request: Request, game_id: str) -> int | None:
        caller = ctx.caller_of(request, game_id)
        if caller.grant.role == "spectator":
            raise HTTPException(403, "a spectator only watches: the host or the player whose move it is answers "
                                     "the board camera")
        return caller.seat

    @app.get("/api/games/{game_id}/board", dependencies=KEYED,
             summary="What the board camera makes of a TOKYO METRO game's board (any key of the game)",
             description="The view's `board_camera` object: the camera's state and problem, whether the settled "
                         "board matches the game, the differences (cause `dashboard`: a to-do list; `board`: no "
                         "legal move explains them), a proposal or the candidates, auto mode.")
    def get_board(game_id: str, request: Request) -> dict:
        ctx.caller_of(request, game_id)
        return watch_of(ctx.session_of(game_id)).to_json()

    @app.post("/api/games/{game_id}/board/confirm", dependencies=KEYED,
              summary="Make the board camera's proposed moves (the host, or the seat whose moves they are)",
              description="Made as any move is (checked, logged with `by: board` and who confirmed it, in the "
                          "feed, undoable). 409 when it is no longer proposed (the board or the game changed).")
    def confirm(game_id: str, body: ConfirmIn, request: Request) -> dict:
        viewer = acting_viewer(request, game_id)
        session = ctx.session_of(game_id)
        watch = watch_of(session)
        try:
            answer = ctx.act(watch.confirm, body.proposal, body.candidate, viewer)
        except BadAnswer as exc:
            raise HTTPException(422, str(exc)) from None
        ctx.tables.moved_in(session)
        caller = ctx.caller_of(request, game_id)
        return ctx.encoded({**answer, "view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/board/dismiss", dependencies=KEYED,
              summary="Set the board camera's proposal aside (the host or the seat it is for)")
    def dismiss(game_id: str, body: DismissIn, request: Request) -> dict:
        viewer = acting_viewer(request, game_id)
        watch = watch_of(ctx.session_of(game_id))
        return {**ctx.act(watch.dismiss, body.proposal, viewer), "board_camera": watch.to_json()}

    @app.post("/api/games/{game_id}/board/auto", dependencies=KEYED,
              summary="Auto mode on or off (host): a proposal of one explanation is made at once")
    def auto(game_id: str, body: AutoIn, request: Request) -> dict:
        ctx.host_of(request, "switch the board camera's auto mode", game_id)
        watch = watch_of(ctx.session_of(game_id))
        watch.set_auto(body.on)
        return {"auto": body.on, "board_camera": watch.to_json()}

    @app.get("/api/board-camera.jpg", dependencies=KEYED,
             summary="The board camera's latest picture: the board from above with the pieces read drawn",
             responses={**NAMES_A_GAME, 200: {"content": {"image/jpeg": {}}},
                        404: {"description": "no board camera, no picture yet, or no such game"}})
    def board_picture(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND)) -> Response:
        ctx.any_caller(request, game)
        device = ctx.board_device
        picture = device.frame_jpeg() if device is not None else None
        if picture is None:
            raise HTTPException(404, "no board camera picture: start with --board-camera, or wait for the camera"
                                if device is None else "no board camera picture yet: wait a moment")
        return Response(picture, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/api/sim/board", dependencies=KEYED,
              responses={409: {"description": "no simulated board camera runs here, or no TOKYO METRO game is "
                                              "in play to follow"}},
              summary="Simulated board camera: the simulated players change the board (host)",
              description="`set` pieces (a hand passes over as they change), `knock` the board, leave a `hand` "
                          "over it (until the next call without one; one left 20 s is the problem `hands`), or "
                          "`follow_game`: make it match the game the board camera reads for. 409 unless the "
                          "board camera is simulated.")
    def sim_board(body: SimBoardIn, request: Request) -> dict:
        ctx.host_of(request, "change the simulated board")
        device = ctx.board_device
        if device is None or device.simulated_camera(wait=SIM_START_S) is None:
            raise HTTPException(409, "no simulated board camera runs here: start with --board-camera sim (the "
                                     "default on a simulated table) to change the simulated board")
        changes: list[dict[str, Any]] = [c.model_dump() for c in body.set]
        try:
            return device.sim_hands(changes, knock=body.knock, hand=body.hand, follow_game=body.follow_game,
                                    hand_frames=body.hand_frames)
        except SimBoardError as exc:
            raise HTTPException(409 if exc.busy else 422, str(exc)) from None
