"""The routes a camera over the table's pieces has for each game it reads (table/watch.py): what it
makes of the pieces, and the answers to its proposals. The board camera (routes/board.py) and the
crate camera (routes/crates.py) each add them under their own path."""
from __future__ import annotations

from typing import Any, Callable

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictBool, StrictStr

from ...observation import whole_number
from ...table.session import TableSession
from ...table.watch import MAX_CANDIDATES, BadAnswer
from ..context import KEYED, NAMES_A_GAME, Api
from ..requests import MAX_GAME_KIND

MAX_ID = 40        # characters of a proposal's id (they are 12)
SIM_START_S = 10.0  # how long a call may wait for a simulated camera still being opened


class ConfirmIn(BaseModel):
    proposal: StrictStr = Field(max_length=MAX_ID, description="the proposal's id (the view's camera object's proposal.id)")
    candidate: whole_number(ge=0, lt=MAX_CANDIDATES) | None = Field(
        None, description="which of several candidates (the camera object's candidates); null for a proposal of one")


class DismissIn(BaseModel):
    proposal: StrictStr = Field(max_length=MAX_ID, description="the proposal's id")


class AutoIn(BaseModel):
    on: StrictBool = Field(description="true: a proposal of one explanation is made at once, without a tap")


def add_watch_routes(app: FastAPI, ctx: Api, path: str, attr: str, camera: str, thing: str, absent: str,
                     view_key: str, of_what: str) -> None:
    """GET /api/games/{id}/<path> and POST .../confirm, .../dismiss, .../auto for the watch a
    session holds as ``attr`` (``absent``: why a game has none, after "it")."""

    def watch_of(session: TableSession):
        watch = getattr(session, attr)
        if watch is None:
            raise HTTPException(404, f"the {camera} has nothing to read in game {session.id}: it {absent}")
        return watch

    def acting_viewer(request: Request, game_id: str) -> int | None:
        caller = ctx.caller_of(request, game_id)
        if caller.grant.role == "spectator":
            raise HTTPException(403, f"a spectator only watches: the host or the player whose move it is answers "
                                     f"the {camera}")
        return caller.seat

    @app.get(f"/api/games/{{game_id}}/{path}", dependencies=KEYED,
             summary=f"What the {camera} makes of {of_what} (any key of the game)",
             description=f"The view's `{view_key}` object: the camera's state and problem, whether the settled "
                         f"{thing} matches the game, the differences (cause `dashboard`: a to-do list; `board`: no "
                         "legal move explains them), a proposal or the candidates, auto mode.")
    def get_watch(game_id: str, request: Request) -> dict:
        ctx.caller_of(request, game_id)
        return watch_of(ctx.session_of(game_id)).to_json()

    @app.post(f"/api/games/{{game_id}}/{path}/confirm", dependencies=KEYED,
              summary=f"Make the {camera}'s proposed moves (the host, or the seat whose moves they are)",
              description=f"Made as any move is (checked, logged with `by: {path}` and who confirmed it, in the "
                          f"feed, undoable). 409 when it is no longer proposed (the {thing} or the game changed).")
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

    @app.post(f"/api/games/{{game_id}}/{path}/dismiss", dependencies=KEYED,
              summary=f"Set the {camera}'s proposal aside (the host or the seat it is for)")
    def dismiss(game_id: str, body: DismissIn, request: Request) -> dict:
        viewer = acting_viewer(request, game_id)
        watch = watch_of(ctx.session_of(game_id))
        return {**ctx.act(watch.dismiss, body.proposal, viewer), view_key: watch.to_json()}

    @app.post(f"/api/games/{{game_id}}/{path}/auto", dependencies=KEYED,
              summary="Auto mode on or off (host): a proposal of one explanation is made at once")
    def auto(game_id: str, body: AutoIn, request: Request) -> dict:
        ctx.host_of(request, f"switch the {camera}'s auto mode", game_id)
        watch = watch_of(ctx.session_of(game_id))
        watch.set_auto(body.on)
        return {"auto": body.on, view_key: watch.to_json()}


def add_picture_route(app: FastAPI, ctx: Api, path: str, device: Callable[[], Any], camera: str, option: str,
                      shows: str) -> None:
    """GET /api/<path>.jpg: the camera's latest picture (``device()``: the camera's device or None)."""

    @app.get(f"/api/{path}.jpg", dependencies=KEYED, summary=f"The {camera}'s latest picture{shows}",
             responses={**NAMES_A_GAME, 200: {"content": {"image/jpeg": {}}},
                        404: {"description": f"no {camera}, no picture yet, or no such game"}})
    def picture(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND)) -> Response:
        ctx.any_caller(request, game)
        found = device()
        jpeg = found.frame_jpeg() if found is not None else None
        if jpeg is None:
            raise HTTPException(404, f"no {camera} picture: start with {option}, or wait for the camera"
                                if found is None else f"no {camera} picture yet: wait a moment")
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


def simulated(device: Any, camera: str, option: str, what: str) -> Any:
    """The device whose camera is simulated, else 409 saying how to start one."""
    if device is None or device.simulated_camera(wait=SIM_START_S) is None:
        raise HTTPException(409, f"no simulated {camera} runs here: start with {option} sim (the default on a "
                                 f"simulated table) to change the simulated {what}")
    return device
