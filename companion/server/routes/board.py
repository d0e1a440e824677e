"""The board camera (TOKYO METRO): what it makes of the board, its proposals and their answers,
its picture, and the simulated players' hands on the simulated board (docs/board-camera.md)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field, StrictBool, StrictStr

from ...observation import whole_number
from ...table.board_device import HAND_FRAMES, MAX_HAND_FRAMES, SimBoardError
from ..context import KEYED, Api
from ..requests import MAX_GAME_KIND
from .watch import add_picture_route, add_watch_routes, simulated

MAX_CHANGES = 60   # pieces changed by one simulated hand


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
    add_watch_routes(app, ctx, "board", "board_watch", camera="board camera", thing="board",
                     absent="is not a TOKYO METRO game: the board camera reads the TOKYO METRO board only",
                     view_key="board_camera", of_what="a TOKYO METRO game's board")

    add_picture_route(app, ctx, "board-camera", lambda: ctx.board_device, "board camera", "--board-camera",
                      ": the board from above with the pieces read drawn")

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
        device = simulated(ctx.board_device, "board camera", "--board-camera", "board")
        changes: list[dict[str, Any]] = [c.model_dump() for c in body.set]
        try:
            return device.sim_hands(changes, knock=body.knock, hand=body.hand, follow_game=body.follow_game,
                                    hand_frames=body.hand_frames)
        except SimBoardError as exc:
            raise HTTPException(409 if exc.busy else 422, str(exc)) from None
