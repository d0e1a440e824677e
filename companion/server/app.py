"""The HTTP face of the companion: REST for games, moves and observations, a
WebSocket per dashboard that pushes that viewer's view after every change, and
the static dashboard. Every route says who may use it (server/trust.py): the host
holds the table's keys, a phone acts for its seat, a spectator only looks; secrets
leave only to their owner's key."""
from __future__ import annotations

import asyncio
import io
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import quote, urlsplit

import segno
from fastapi import FastAPI, HTTPException, Query, Request, Security, WebSocket, WebSocketDisconnect
from fastapi.security import APIKeyCookie, HTTPBearer
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from ..observation import Observation
from ..table.access import Access
from ..table.automation import Automation
from ..table.errors import BrokenGame, Forbidden, IllegalMove, NoSuchGame, NotOffered
from ..table.looks import LookBook
from ..table.session import ESTIMATE_PLAYOUTS, TableSession, parse_move, stored_log
from ..table.store import EventStore
from ..table.tables import Tables, game_types as known_games
from .body_limit import RESPONSE_413, BodyLimit
from .guard import Guard, own_names
from .heavy import ESTIMATE_WAITING, ESTIMATE_WORKERS, BoundedWork, Busy
from .json_body import StrictJSONRoute
from .openapi_errors import document_errors
from .live import Publisher
from .requests import MAX_GAME_KIND, FeedIn, MoveIn, NewGame
from .trust import (ASK_LINK, COOKIE_AGE, HOST_COOKIE, Caller, Trust, require_any, require_host,
                    seat_cookie, watch_cookie)

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)


# Live views (WebSockets) a table holds open.
MAX_SOCKETS_PER_DEVICE = 8    # live WebSockets of one key from one address (a page each: tabs, reloads)
MAX_SOCKETS = 256             # live WebSockets in all (a table has a dozen devices)


# The keys a route reads (server/trust.py), declared so that /openapi.json says which routes
# need one (and documents their 403); the routes check them themselves, saying what to do.
KEYED = [Security(HTTPBearer(auto_error=False, description="a key of the table: the host key, a seat's or "
                                                          "the spectators'")),
         Security(APIKeyCookie(name=HOST_COOKIE, auto_error=False, description="the host key, set by the host link"))]

# Answers of a route that names a game in its query or body (not in its path, where
# server/openapi_errors.py finds it): no such game, or one set aside or over.
NAMES_A_GAME = {404: {"description": "no such game"},
                409: {"description": "the game is set aside, or over (the tower feeds an open game)"}}

# Which of a device's keys a request uses: the player page asks with its seat's key first (a host
# who also plays on the same phone holds both); the table page, and scripts, need not say.
Viewing = Annotated[Literal["player", "table"] | None, Query(
    alias="as", description="`player`: use this device's seat key before the host's (the player page)")]


def create_app(store: EventStore, lan_url: str | None = None, camera: str | None = None,
               serial: str | None = None, profile: str | None = None, names: tuple[str, ...] = (),
               automation: Automation | None = None, open_camera=None) -> FastAPI:
    """The app; ``camera`` and ``serial`` name the devices to run (None: none, "sim": simulated);
    ``names``: host names the service answers to besides its addresses and this machine's name;
    ``automation``: the hands that play computer seats and the simulated table's chance
    (table/automation.py; the composition root's: `companion serve` wires in the simulated
    table's); ``open_camera(spec)``: opens the camera (the composition root's, which knows ``sim``)."""
    looks = LookBook(store.path.parent)   # what the host's corrections taught the camera
    tables = Tables(store, teacher=looks, automation=automation)
    looks.settle(tables.moves_in_effect)
    access = Access(store)
    trust = Trust(access)
    estimates_work = BoundedWork("estimates", ESTIMATE_WORKERS, ESTIMATE_WAITING)
    devices = tables.devices(camera=camera, serial=serial, profile=profile, looks=looks, open_camera=open_camera)
    sockets: dict[tuple[str, str], int] = {}  # live WebSockets by (address, key)
    publishers: dict[str, Publisher] = {}     # the live views of each game with a socket open

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        devices.start()
        try:
            yield
        finally:
            devices.stop()
            estimates_work.close()

    app = FastAPI(title="Tokyo Table Companion", version="0.1.0", lifespan=lifespan, responses=RESPONSE_413,
                  description="Rules, tower and dashboard for TOKYO JIDOHANBAIKI game nights. Who may call what: "
                              "the host (the host key: a cookie set by the host link, or `Authorization: Bearer "
                              "KEY`), a player (a seat's key, from the join link), a spectator (a game's "
                              "spectator key); docs/security.md.")
    app.add_middleware(BodyLimit)  # 413 for a body over MAX_BODY_BYTES, before it is read whole
    lan_host = urlsplit(lan_url).hostname if lan_url else None
    app.add_middleware(Guard, names=own_names([*names, *([lan_host] if lan_host else [])]))
    app.router.route_class = StrictJSONRoute  # NaN and Infinity in a body: a 422, not a 500 later
    app.state.tables, app.state.lan_url, app.state.devices = tables, lan_url, devices
    app.state.estimates_work, app.state.access = estimates_work, access

    def act(fn, *args):
        try:
            return fn(*args)
        except IllegalMove as exc:
            raise HTTPException(409, exc.reason) from None
        except Forbidden as exc:
            raise HTTPException(403, str(exc)) from None

    def no_game(game_id: str) -> HTTPException:
        return HTTPException(404, f"no game {game_id!r}; the host's lobby lists the games")

    def session_of(game_id: str) -> TableSession:
        """The game's session: 404 for no such game, 409 (saying why) for one set aside."""
        try:
            return tables.get(game_id)
        except NoSuchGame:
            raise no_game(game_id) from None
        except BrokenGame as exc:
            raise HTTPException(409, str(exc)) from None

    def known(game_id: str) -> None:
        try:
            tables.known(game_id)
        except NoSuchGame:
            raise no_game(game_id) from None

    def caller_of(conn, game_id: str, viewing: str | None = None) -> Caller:
        """Who asks about ``game_id``: 404 for no such game, 403 for a caller without its key."""
        known(game_id)
        caller = trust.caller(conn, game_id, tables.seats(game_id), as_player=viewing == "player")
        require_any(caller, game_id)
        return caller

    def host_of(request: Request, what: str, game_id: str | None = None) -> Caller:
        if game_id is not None:
            known(game_id)
        caller = trust.caller(request, game_id, tables.seats(game_id) if game_id else 0)
        require_host(caller, what)
        return caller

    def view_for(session: TableSession, caller: Caller) -> dict:
        """The caller's view: a player's seat, or the table's (a spectator's without moves)."""
        view = session.view(caller.seat, acting=caller.grant.role != "spectator")
        return {**view, "role": caller.grant.role, "fed": tables.active == session.id}

    def encoded(answer: dict) -> Response:
        """An answer that holds a view, encoded here (the request's worker thread) with the JSON
        encoder: FastAPI's own would walk the 50-80 KB of a TOKYO METRO view on the event loop
        (~20-60 ms), holding up every live view meanwhile."""
        return Response(json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":")),
                        media_type="application/json")

    def live_view(session: TableSession, caller: Caller) -> tuple[tuple, dict] | None:
        """A live view's message (in a worker thread): the caller's view and the key it is shared
        under; None once the caller's key no longer opens the game (the socket is closed)."""
        if not trust.still(caller, session.id, session.seats):
            return None
        view = view_for(session, caller)
        return (view["seq"], caller.seat, caller.grant.role, view["fed"]), view

    # --- the table as a whole ------------------------------------------------------------------

    @app.get("/api/whoami", summary="What this device's keys open (for the pages)",
             description="`role` is `host`, `player` (with `seat`), `spectator` or null (no key of the table); "
                         "`key` is `valid`, `wrong` (a key that opens nothing here: replaced, or a guess) or `none`.")
    def whoami(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND), viewing: Viewing = None) -> dict:
        seats = tables.seats(game) if game else 0
        caller = trust.caller(request, game, seats, as_player=viewing == "player")
        grant = caller.grant
        if grant is not None and game is not None and not grant.opens(game):
            grant = None
        key = "valid" if grant else "wrong" if caller.key else "none"
        return {"role": grant.role if grant else None, "seat": caller.seat if grant else None, "game_id": game,
                "key": key}

    @app.get("/api/games", dependencies=KEYED, summary="List games, newest first (host)",
             description="`broken` is null, or, for a game set aside because a stored record cannot be read "
                         "or applied, `{seq, reason, message}` (seq 0: the game's own settings). `fed`: the game "
                         "the tower's camera and sensors report to.")
    def list_games(request: Request) -> list[dict]:
        host_of(request, "list the games")
        return [{"id": g.id, "game": g.game, "status": g.status, "created": g.created,
                 "names": g.config.get("names", []), "bots": g.config.get("bots", []),
                 "simulated": g.config.get("simulated", True), "broken": tables.problem(g),
                 "fed": tables.active == g.id}
                for g in store.games()]

    @app.get("/api/game-types", summary="The games this server knows")
    def game_types() -> list[dict]:
        return known_games()

    @app.post("/api/games", dependencies=KEYED, status_code=201, summary="Start a game (host); answers the join links")
    def new_game(body: NewGame, request: Request) -> dict:
        host_of(request, "start a game")
        if any(not 0 <= b < len(body.names) for b in body.bots):
            raise HTTPException(422, f"bots must be seats 0 to {len(body.names) - 1}")
        try:
            session = tables.create(body.game, body.names, body.bots, body.simulated, body.seed, body.options)
        except KeyError as exc:
            raise HTTPException(422, str(exc.args[0])) from None
        except IllegalMove as exc:
            raise HTTPException(422, exc.reason) from None
        return {"id": session.id, "players": player_links(session, request)}

    @app.put("/api/feed", dependencies=KEYED, responses=NAMES_A_GAME, summary="Choose the game the tower's camera and sensors report to (host)")
    def put_feed(body: FeedIn, request: Request) -> dict:
        host_of(request, "choose the game the tower feeds", body.game_id)
        session = session_of(body.game_id)
        if session.over:
            raise HTTPException(409, "this game is over: choose an open game for the tower to feed")
        tables.feed(session)
        return {"game_id": session.id}

    # --- keys: join links, spectators ----------------------------------------------------------

    def base_url(request: Request) -> str:
        return (app.state.lan_url or str(request.base_url)).rstrip("/")

    def player_links(session: TableSession, request: Request) -> list[dict]:
        base = base_url(request)
        return [{"seat": seat, "name": name, "bot": seat in session.bots,
                 "url": f"{base}/player?game={session.id}&token={access.seat_key(session.id, seat)}"}
                for seat, name in enumerate(session.config["names"])]

    def seat_of(session: TableSession, seat: int) -> int:
        if not 0 <= seat < len(session.config["names"]):
            raise HTTPException(404, f"no seat {seat}: this game has seats 0 to {len(session.config['names']) - 1}")
        return seat

    @app.get("/api/games/{game_id}/players", dependencies=KEYED, summary="Join links of the seats (host; the table's join panel)")
    def players(game_id: str, request: Request) -> list[dict]:
        host_of(request, "hand out join links", game_id)
        return player_links(session_of(game_id), request)

    @app.post("/api/games/{game_id}/players/{seat}/revoke", dependencies=KEYED,
              summary="A new join link for a seat (host): the old link and every phone joined by it are shut out")
    def revoke_seat(game_id: str, seat: int, request: Request) -> dict:
        host_of(request, "replace a join link", game_id)
        session = session_of(game_id)
        access.revoke_seat(game_id, seat_of(session, seat))
        session.notify()  # open WebSockets check their keys again: the old phone's closes
        return player_links(session, request)[seat]

    @app.get("/api/games/{game_id}/players/{seat}/qr.svg", dependencies=KEYED, summary="A QR code of a seat's join link (host)",
             responses={200: {"content": {"image/svg+xml": {}}}})
    def player_qr(game_id: str, seat: int, request: Request) -> Response:
        host_of(request, "hand out join links", game_id)
        session = session_of(game_id)
        return _qr(player_links(session, request)[seat_of(session, seat)]["url"])

    def spectator_link(game_id: str, request: Request) -> dict:
        return {"url": f"{base_url(request)}/?game={game_id}&watch={access.spectator_key(game_id)}"}

    @app.get("/api/games/{game_id}/spectators", dependencies=KEYED, summary="The spectator link of a game (host): the table view, "
                                                          "no secrets, no buttons")
    def spectators(game_id: str, request: Request) -> dict:
        host_of(request, "hand out the spectator link", game_id)
        session_of(game_id)
        return spectator_link(game_id, request)

    @app.get("/api/games/{game_id}/spectators/qr.svg", dependencies=KEYED, summary="A QR code of the spectator link (host)",
             responses={200: {"content": {"image/svg+xml": {}}}})
    def spectators_qr(game_id: str, request: Request) -> Response:
        host_of(request, "hand out the spectator link", game_id)
        session_of(game_id)
        return _qr(spectator_link(game_id, request)["url"])

    @app.post("/api/games/{game_id}/spectators/revoke", dependencies=KEYED, summary="A new spectator link (host); the old one is shut out")
    def revoke_spectators(game_id: str, request: Request) -> dict:
        host_of(request, "replace the spectator link", game_id)
        session = session_of(game_id)
        access.revoke_spectators(game_id)
        session.notify()
        return spectator_link(game_id, request)

    # --- one game --------------------------------------------------------------------------------

    @app.get("/api/games/{game_id}/view", dependencies=KEYED, summary="What the caller may see of a game",
             description="The host and spectators see the table view (spectators without moves), a player "
                         "their seat's view with its secrets. `role` says which; `fed` whether the tower "
                         "reports to this game.")
    def get_view(game_id: str, request: Request, viewing: Viewing = None) -> dict:
        caller = caller_of(request, game_id, viewing)
        return encoded(view_for(session_of(game_id), caller))

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
        caller = await run_in_threadpool(caller_of, request, game_id, viewing)
        if caller.grant.role == "spectator":
            raise HTTPException(403, "estimates are for the players and the host; a spectator only watches")
        session = await run_in_threadpool(session_of, game_id)
        try:
            key, work = session.estimate_job(caller.seat, playouts)
        except NotOffered as exc:
            raise HTTPException(404, str(exc)) from None
        known = session.kept_estimate(key)
        if known is not None:
            return known
        try:
            return await estimates_work.run((session.id, *key), work)
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
        caller = caller_of(request, game_id, viewing)
        if caller.grant.role == "spectator":
            raise HTTPException(403, "a spectator only watches: moves are made on the players' phones and the table")
        if body.override_beams and not caller.is_host:
            raise HTTPException(403, "only the host overrides the exit beam (on the table view)")
        session = session_of(game_id)
        move = act(parse_move, body.move)
        events = act(session.submit, move, caller.seat, None, body.override_beams)
        if caller.is_host:
            tables.feed(session)  # the table plays here: the tower reports here
        return encoded({"events": events, "view": view_for(session, caller)})

    @app.post("/api/games/{game_id}/observations", dependencies=KEYED, summary="Enter by hand what landed in the tray (host)",
              description="The camera and the sensor board report inside the service, never through this "
                          "route: an observation entered here is a person's (`source` must be `person`).")
    def post_observation(game_id: str, obs: Observation, request: Request) -> dict:
        caller = host_of(request, "enter what the tower let out", game_id)
        if obs.source != "person":
            raise HTTPException(403, f"the {obs.source} reports inside the service, not through the API; "
                                     f"an observation entered here has source 'person'")
        session = session_of(game_id)
        return encoded({**act(session.observe, obs), "view": view_for(session, caller)})

    @app.post("/api/games/{game_id}/throw", dependencies=KEYED, summary="Simulated table: throw the due drinks in (host)")
    def post_throw(game_id: str, request: Request) -> dict:
        caller = host_of(request, "throw drinks into the tower", game_id)
        session = tables.feed(session_of(game_id))
        return encoded({**act(devices.throw, session), "view": view_for(session, caller)})

    @app.post("/api/games/{game_id}/tray/read", dependencies=KEYED,
              summary="Read the tray again (host): the camera reads its latest still frame as the awaited drop",
              description="For drinks already thrown whose reading was set aside: the camera reads the latest "
                          "still frame of the tray again, compared with the tray before the drop, and reports it "
                          "to this game as it reports any drop (taken, or asked about). The answer comes at once "
                          "(`result`: `reading`); the reading follows in the view. 409 without a working camera, "
                          "without a drop awaited, or while a throw is still being read.")
    def read_tray(game_id: str, request: Request) -> dict:
        caller = host_of(request, "have the tray read again", game_id)
        session = tables.feed(session_of(game_id))
        return encoded({**act(devices.reread, session), "view": view_for(session, caller)})

    @app.post("/api/games/{game_id}/question/dismiss", dependencies=KEYED, summary="Dismiss the open question (host; logged)")
    def dismiss_question(game_id: str, request: Request) -> dict:
        caller = host_of(request, "dismiss a question", game_id)
        session = session_of(game_id)
        act(session.dismiss_question)
        return encoded({"view": view_for(session, caller)})

    @app.post("/api/games/{game_id}/undo", dependencies=KEYED, summary="Take back the latest move (host; appends an undo)")
    def post_undo(game_id: str, request: Request) -> dict:
        caller = host_of(request, "undo", game_id)
        session = session_of(game_id)
        return encoded({"events": act(session.undo), "view": view_for(session, caller)})

    @app.post("/api/games/{game_id}/end", dependencies=KEYED, summary="End a game before its end (host; appends an end)")
    def post_end(game_id: str, request: Request) -> dict:
        caller = host_of(request, "end a game", game_id)
        session = session_of(game_id)
        act(session.end)
        return encoded({"view": view_for(session, caller)})

    @app.get("/api/games/{game_id}/log.jsonl", dependencies=KEYED, response_class=PlainTextResponse,
             summary="The game log, for `companion replay` (the host; a player once the game is over)")
    def get_log(game_id: str, request: Request, viewing: Viewing = None) -> str:
        caller = caller_of(request, game_id, viewing)
        if game_id in tables.broken or store.game(game_id).problem:
            require_host(caller, "read the log of a game set aside (it holds the secrets)")
            return stored_log(store, game_id)
        session = session_of(game_id)
        if not session.over:
            # The log holds every secret card drawn; it leaves the server once they are all revealed.
            raise HTTPException(409, "the log can be downloaded when the game is over: it holds the secret cards")
        if caller.grant.role == "spectator":
            raise HTTPException(403, "the log is for the host and the players")
        return session.log_jsonl()

    # --- devices -----------------------------------------------------------------------------------

    def any_caller(request: Request, game: str | None) -> Caller:
        if game is not None:
            return caller_of(request, game)
        caller = trust.caller(request)
        require_any(caller)
        return caller

    @app.get("/api/devices", dependencies=KEYED, responses=NAMES_A_GAME, summary="The camera and the sensor board: state, firmware, beams",
             description="For any key of the table; `game` names the game whose key a phone or spectator holds.")
    def get_devices(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND)) -> dict:
        any_caller(request, game)
        return devices.status()

    @app.get("/api/camera.jpg", dependencies=KEYED, summary="The latest camera frame with the detections drawn on it",
             responses={**NAMES_A_GAME, 200: {"content": {"image/jpeg": {}}},
                        404: {"description": "no camera frame yet, or no such game"}})
    def get_camera_frame(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND)) -> Response:
        any_caller(request, game)
        frame = devices.frame_jpeg()
        if frame is None:
            raise HTTPException(404, "no camera frame: start with --camera, or wait for the camera")
        return Response(frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/api/camera/learned/forget", dependencies=KEYED, summary="The camera forgets the looks the host's "
              "corrections taught it (host)",
              description="The camera reads with its calibration profile alone again. Answers what is left "
                          "learned (`corrections`, `looks`, `drinks`: none), as `camera.learned` in /api/devices.")
    def forget_learned(request: Request) -> dict:
        host_of(request, "make the camera forget what it learned")
        return {"learned": looks.forget()}

    # --- the live view -----------------------------------------------------------------------------

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str, viewing: Viewing = None) -> None:
        try:
            caller = caller_of(websocket, game_id, viewing)
            session = session_of(game_id)
        except HTTPException as exc:
            await websocket.close(code=4403 if exc.status_code == 403 else 4404, reason=str(exc.detail)[:120])
            return
        device = (websocket.client.host if websocket.client else "?", caller.key or "")
        if sockets.get(device, 0) >= MAX_SOCKETS_PER_DEVICE or sum(sockets.values()) >= MAX_SOCKETS:
            await websocket.close(code=4429, reason="too many live views open on this device: close some tabs")
            return
        sockets[device] = sockets.get(device, 0) + 1
        await websocket.accept()
        publisher = publishers.get(session.id)
        if publisher is None or publisher.session is not session:
            publisher = publishers[session.id] = Publisher(
                session, lambda who: live_view(session, who), f"this device's key was replaced: {ASK_LINK}")
        socket = publisher.join(websocket, caller)
        receiver = asyncio.create_task(_drain(websocket))
        try:
            # Until the device goes (its receiver ends) or its sender ends (closed, or a send failed).
            await asyncio.wait({receiver, socket.task}, return_when=asyncio.FIRST_COMPLETED)
            if socket.task.done() and not socket.task.cancelled() and socket.task.exception() is not None:
                exc = socket.task.exception()
                if not isinstance(exc, (WebSocketDisconnect, RuntimeError, OSError)):
                    log.error("a live view failed: %r", exc)
        finally:
            receiver.cancel()
            if publisher.leave(socket) and publishers.get(session.id) is publisher:
                del publishers[session.id]
            sockets[device] -= 1
            if not sockets[device]:
                del sockets[device]

    # --- the pages, and the links that hand a device its key -----------------------------------------

    def keyed(url: str, cookie: str | None, key: str | None) -> Response:
        """Go on to ``url`` (the key out of the address bar and history), keeping the key in a cookie."""
        response = RedirectResponse(url, status_code=303)
        if cookie is not None and key is not None:
            response.set_cookie(cookie, key, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/")
        return response

    @app.get("/", include_in_schema=False)
    def table_page(request: Request, host: str | None = Query(None, max_length=100),
                   game: str | None = Query(None, max_length=MAX_GAME_KIND),
                   watch: str | None = Query(None, max_length=100)) -> Response:
        if host is not None:  # the host link: this device becomes the table's
            grant = access.grant(host)
            good = grant is not None and grant.role == "host"
            return keyed(f"/?game={quote(game)}" if game else "/", HOST_COOKIE if good else None, host)
        if game is not None and watch is not None:  # a spectator link
            seats = tables.seats(game)
            grant = access.grant(watch, game, seats)
            good = grant is not None and grant.role == "spectator"
            return keyed(f"/?game={quote(game)}", watch_cookie(game) if good else None, watch)
        return FileResponse(STATIC / "index.html")

    @app.get("/player", include_in_schema=False)
    def player_page(game: str | None = Query(None, max_length=MAX_GAME_KIND),
                    token: str | None = Query(None, max_length=100)) -> Response:
        if game is not None and token is not None:  # a join link: this phone becomes the seat's
            grant = access.grant(token, game, tables.seats(game))
            good = grant is not None and grant.role == "player"
            return keyed(f"/player?game={quote(game)}" + ("" if good else "&refused=1"),
                         seat_cookie(game) if good else None, token)
        return FileResponse(STATIC / "player.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    document_errors(app)  # every status each route answers, in /openapi.json
    return app


def _qr(url: str) -> Response:
    buffer = io.BytesIO()  # a whole SVG document (with its namespace), so <img> can show it
    segno.make(url, error="m").save(buffer, kind="svg", scale=6, border=2)
    return Response(buffer.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so that a disconnect is noticed."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
