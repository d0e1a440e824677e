"""One game in play: the caller's view, estimates, moves, what the tower let out (entered by hand,
thrown on the simulated table, read again), questions, undo, the end, and the log."""
from __future__ import annotations

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from ...observation import Observation
from ...table.errors import NotOffered
from ...table.session import ESTIMATE_PLAYOUTS, parse_move, stored_log
from ..context import KEYED, Api, Viewing
from ..heavy import ESTIMATE_WAITING, ESTIMATE_WORKERS, Busy
from ..requests import MoveIn
from ..trust import require_host


def add_play_routes(app: FastAPI, ctx: Api) -> None:
    @app.get("/api/games/{game_id}/view", dependencies=KEYED, summary="What the caller may see of a game",
             description="The host and spectators see the table view (spectators without moves), a player "
                         "their seat's view with its secrets. `role` says which; `fed` whether the tower "
                         "reports to this game.")
    def get_view(game_id: str, request: Request, viewing: Viewing = None) -> dict:
        caller = ctx.caller_of(request, game_id, viewing)
        return ctx.encoded(ctx.view_for(ctx.session_of(game_id), caller))

    @app.get("/api/games/{game_id}/estimates", dependencies=KEYED,
             summary="Estimated final yen of each move offered to this viewer, from random playouts",
             description="For the moves the viewer (a player's seat, or the host's table view) is offered now: "
                         "the mean, spread and range of the seat's final yen over random playouts, in which "
                         "everything this viewer cannot see is drawn again. An estimate, not a promise. The same "
                         "log gives the same answer; the playouts are capped so that one request stays under ~2 s. "
                         f"At most {ESTIMATE_WORKERS} estimate runs at a time and {ESTIMATE_WAITING} more wait; "
                         "beyond that the answer is 429 with a Retry-After header (seconds). "
                         "404 for a game without estimates (one whose secrets cannot be drawn again for the "
                         "asking viewer; the view says `offers_estimates`). Not for spectators.",
             responses={429: {"description": "busy with other estimates: ask again after Retry-After seconds",
                              "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}},
                              "content": {"application/json": {"schema": {
                                  "type": "object", "required": ["detail"],
                                  "properties": {"detail": {"type": "string"}}}}}}})
    async def get_estimates(game_id: str, request: Request, viewing: Viewing = None,
                            playouts: int = Query(ESTIMATE_PLAYOUTS, ge=1, le=2000,
                                                  description="random playouts in all (spread over the moves)")) -> dict:
        # The playouts run on the bounded pool (server/heavy.py), never on the threads that serve
        # the other requests; this request holds no thread while it waits for them.
        caller = await run_in_threadpool(ctx.caller_of, request, game_id, viewing)
        if caller.grant.role == "spectator":
            raise HTTPException(403, "estimates are for the players and the host; a spectator only watches")
        session = await run_in_threadpool(ctx.session_of, game_id)
        try:
            key, work = session.estimate_job(caller.seat, playouts)
        except NotOffered as exc:
            raise HTTPException(404, str(exc)) from None
        known = session.kept_estimate(key)
        if known is not None:
            return known
        try:
            return await ctx.estimates_work.run((session.id, *key), work)
        except Busy as exc:
            return JSONResponse({"detail": str(exc)}, status_code=429,
                                headers={"Retry-After": str(exc.retry_after)})

    @app.post("/api/games/{game_id}/moves", dependencies=KEYED, summary="Make a move (a player for their seat, the host for the "
                                                      "table); 409 with the reason if illegal",
              description="A drop (a chance move that says what came out of the tower) whose number of drinks "
                          "differs from what the exit beam counted for it is refused with 409, whose `detail` says "
                          "so; after looking into the tray and the chute, the host confirms it with "
                          "`override_beams: true` (kept in the log with the move).",
              responses={409: {"description": "the rules refuse the move now, the game is set aside, or the exit "
                                              "beam counted another number of drinks for this drop (send it again "
                                              "with `override_beams: true` if the beam is wrong); `detail` says which"}})
    def post_move(game_id: str, body: MoveIn, request: Request, viewing: Viewing = None) -> dict:
        caller = ctx.caller_of(request, game_id, viewing)
        if caller.grant.role == "spectator":
            raise HTTPException(403, "a spectator only watches: moves are made on the players' phones and the table")
        if body.override_beams and not caller.is_host:
            raise HTTPException(403, "only the host overrides the exit beam (on the table view)")
        session = ctx.session_of(game_id)
        move = ctx.act(parse_move, body.move)
        events = ctx.act(session.submit, move, caller.seat, None, body.override_beams)
        if caller.is_host:
            ctx.tables.feed(session)  # the table plays here: the tower reports here
        ctx.tables.moved_in(session)  # and the board camera reads for the game moved in
        return ctx.encoded({"events": events, "view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/observations", dependencies=KEYED, summary="Enter by hand what landed in the tray (host)",
              description="The camera and the sensor board report inside the service, never through this "
                          "route: an observation entered here is a person's (`source` must be `person`).")
    def post_observation(game_id: str, obs: Observation, request: Request) -> dict:
        caller = ctx.host_of(request, "enter what the tower let out", game_id)
        if obs.source != "person":
            raise HTTPException(403, f"the {obs.source} reports inside the service, not through the API; "
                                     f"an observation entered here has source 'person'")
        session = ctx.session_of(game_id)
        return ctx.encoded({**ctx.act(session.observe, obs), "view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/throw", dependencies=KEYED, summary="Simulated table: throw the due drinks in (host)")
    def post_throw(game_id: str, request: Request) -> dict:
        caller = ctx.host_of(request, "throw drinks into the tower", game_id)
        session = ctx.tables.feed(ctx.session_of(game_id))
        return ctx.encoded({**ctx.act(ctx.devices.throw, session), "view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/tray/read", dependencies=KEYED,
              summary="Read the tray again (host): the camera reads its latest still frame as the awaited drop",
              description="For drinks already thrown whose reading was set aside: the camera reads the latest "
                          "still frame of the tray again, compared with the tray before the drop, and reports it "
                          "to this game as it reports any drop (taken, or asked about). The answer comes at once "
                          "(`result`: `reading`); the reading follows in the view. 409 without a working camera, "
                          "without a drop awaited, or while a throw is still being read.")
    def read_tray(game_id: str, request: Request) -> dict:
        caller = ctx.host_of(request, "have the tray read again", game_id)
        session = ctx.tables.feed(ctx.session_of(game_id))
        return ctx.encoded({**ctx.act(ctx.devices.reread, session), "view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/question/dismiss", dependencies=KEYED, summary="Dismiss the open question (host; logged)")
    def dismiss_question(game_id: str, request: Request) -> dict:
        caller = ctx.host_of(request, "dismiss a question", game_id)
        session = ctx.session_of(game_id)
        ctx.act(session.dismiss_question)
        return ctx.encoded({"view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/undo", dependencies=KEYED, summary="Take back the latest move (host; appends an undo)")
    def post_undo(game_id: str, request: Request) -> dict:
        caller = ctx.host_of(request, "undo", game_id)
        session = ctx.session_of(game_id)
        return ctx.encoded({"events": ctx.act(session.undo), "view": ctx.view_for(session, caller)})

    @app.post("/api/games/{game_id}/end", dependencies=KEYED, summary="End a game before its end (host; appends an end)")
    def post_end(game_id: str, request: Request) -> dict:
        caller = ctx.host_of(request, "end a game", game_id)
        session = ctx.session_of(game_id)
        ctx.act(session.end)
        return ctx.encoded({"view": ctx.view_for(session, caller)})

    @app.get("/api/games/{game_id}/log.jsonl", dependencies=KEYED, response_class=PlainTextResponse,
             summary="The game log, for `companion replay` (the host; a player once the game is over)")
    def get_log(game_id: str, request: Request, viewing: Viewing = None) -> str:
        caller = ctx.caller_of(request, game_id, viewing)
        if game_id in ctx.tables.broken or ctx.store.game(game_id).problem:
            require_host(caller, "read the log of a game set aside (it holds the secrets)")
            return stored_log(ctx.store, game_id)
        session = ctx.session_of(game_id)
        if not session.over:
            # The log holds every secret card drawn; it leaves the server once they are all revealed.
            raise HTTPException(409, "the log can be downloaded when the game is over: it holds the secret cards")
        if caller.grant.role == "spectator":
            raise HTTPException(403, "the log is for the host and the players")
        return session.log_jsonl()
