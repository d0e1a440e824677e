"""The HTTP face of the companion: REST for games, moves and observations, a
WebSocket per dashboard that pushes that viewer's view after every change, and
the static dashboard. Secrets leave only through a player's own token."""
from __future__ import annotations

import asyncio
import io
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import segno
from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StringConstraints, field_validator
from starlette.concurrency import run_in_threadpool

from ..observation import Observation
from ..rules.engine import IllegalMove, Move
from ..rules.games import GAMES
from ..table.devices import Devices
from ..table.session import ESTIMATE_PLAYOUTS, BrokenGame, Forbidden, NotOffered, TableSession, stored_log
from ..table.store import EventStore
from .body_limit import RESPONSE_413, BodyLimit
from .heavy import ESTIMATE_WAITING, ESTIMATE_WORKERS, BoundedWork, Busy
from .json_body import StrictJSONRoute

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)


# Bounds of what a request may carry, checked before anything is stored (a game's settings and
# log are kept for ever and sent to every device). The body as a whole: server/body_limit.py.
MAX_NAME = 40                 # characters of a player's name
MAX_SEATS = 12                # seats at one table (LEMON SQUASH seats the most: 12)
MAX_GAME_KIND = 40            # characters of a game's id ("upside_down_tower")
MAX_SEED = 2**63 - 1          # a seed is a whole number from 0 to this
MAX_OPTIONS = 40              # options named in one game (TOKYO METRO has the most: 27)
MAX_OPTIONS_BYTES = 131_072   # the options as JSON: a whole board file of one's own takes ~55 KB
MAX_MOVE_BYTES = 4_096        # a move as JSON: the largest a game takes (drinks, amounts, coins) ~400 B

Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]


def _json_bytes(value: Any) -> int:
    """The size of a value as the store would write it (a lone surrogate counted, not refused here)."""
    return len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))


class NewGame(BaseModel):
    game: str = Field("pocari_bet", max_length=MAX_GAME_KIND, description="game id, e.g. pocari_bet")
    names: list[Name] = Field(default_factory=lambda: ["Aki", "Ben", "Chie"], min_length=1, max_length=MAX_SEATS,
                              description=f"one per seat, 1 to {MAX_NAME} characters each")
    bots: list[Seat] = Field(default_factory=list, max_length=MAX_SEATS, description="seats played by the computer")
    simulated: bool = Field(True, description="True: the simulated tower supplies drops")
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    options: dict[Annotated[str, StringConstraints(max_length=MAX_GAME_KIND)], Any] = Field(
        default_factory=dict, max_length=MAX_OPTIONS,
        description=f"the game's options (each game checks its own names and bounds); at most "
                    f"{MAX_OPTIONS} of them, {MAX_OPTIONS_BYTES} bytes as JSON")

    @field_validator("options")
    @classmethod
    def _small_options(cls, value: dict) -> dict:
        size = _json_bytes(value)
        if size > MAX_OPTIONS_BYTES:
            raise ValueError(f"the options take {size} bytes as JSON; at most {MAX_OPTIONS_BYTES}")
        return value


class MoveIn(BaseModel):
    move: dict[str, Any] = Field(description='{"kind": ..., "player": seat or "chance", "args": {...}}; '
                                             f"at most {MAX_MOVE_BYTES} bytes as JSON")
    # A token is compared, never stored: one of any other length is refused as a wrong one (403).
    token: str | None = Field(None, description="the player's link token; none for the table view")

    @field_validator("move")
    @classmethod
    def _small_move(cls, value: dict) -> dict:
        size = _json_bytes(value)
        if size > MAX_MOVE_BYTES:
            raise ValueError(f"the move takes {size} bytes as JSON; no move of any game takes more than "
                             f"{MAX_MOVE_BYTES}")
        return value


class Tables:
    """The sessions of this server, resumed from the store at start. A game whose log cannot
    be folded is set aside (``broken``), with a message in the log; the others run."""

    def __init__(self, store: EventStore):
        self.store = store
        self.sessions: dict[str, TableSession] = {}
        self.broken: dict[str, BrokenGame] = {}
        for info in reversed(store.games(status="open")):
            try:
                self._load(info.id)
            except BrokenGame:
                pass
        self.active: str | None = next(reversed(self.sessions), None)  # the game the devices feed

    def _load(self, game_id: str) -> TableSession:
        try:
            session = TableSession(self.store, game_id)
        except BrokenGame as exc:
            self._set_aside(exc)
            raise
        self.sessions[game_id] = session
        return session

    def _set_aside(self, exc: BrokenGame) -> None:
        if exc.game_id not in self.broken:
            log.error("%s", exc)
        self.broken[exc.game_id] = exc

    def problem(self, info) -> dict | None:
        """Why a listed game is set aside (its settings are read here; its records when it is
        resumed: at start for open games, when first opened for finished ones), or None."""
        if info.problem and info.id not in self.broken:
            self._set_aside(BrokenGame(info.id, info.game, 0, info.problem))
        broken = self.broken.get(info.id)
        return broken.to_json() if broken else None

    def touch(self, session: TableSession) -> TableSession:
        """Mark the game a person just played in as the one the camera and sensors report to."""
        self.active = session.id
        return session

    def route(self, obs: Observation) -> None:
        """Hand a device's observation to the game in play; without one it is only counted."""
        session = self.sessions.get(self.active) if self.active else None
        if session is None or session.game.is_over(session.state):
            log.info("no game in play: %s observation not recorded", obs.source)
            return
        session.observe(obs)

    def get(self, game_id: str) -> TableSession:
        """The game's session: 404 for no such game, 409 (saying why) for one set aside."""
        if game_id in self.broken:
            raise HTTPException(409, str(self.broken[game_id]))
        if game_id not in self.sessions:
            try:
                self._load(game_id)
            except KeyError:
                raise HTTPException(404, f"no game {game_id!r}; GET /api/games lists the games") from None
            except BrokenGame as exc:
                raise HTTPException(409, str(exc)) from None
        return self.sessions[game_id]


def create_app(store: EventStore, lan_url: str | None = None, camera: str | None = None,
               serial: str | None = None, profile: str | None = None) -> FastAPI:
    """The app; ``camera`` and ``serial`` name the devices to run (None: none, "sim": simulated)."""
    tables = Tables(store)
    estimates_work = BoundedWork("estimates", ESTIMATE_WORKERS, ESTIMATE_WAITING)
    devices = Devices(tables.route, camera=camera, serial=serial, profile=profile, store=store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        devices.start()
        try:
            yield
        finally:
            devices.stop()
            estimates_work.close()

    app = FastAPI(title="Tokyo Table Companion", version="0.1.0", lifespan=lifespan, responses=RESPONSE_413,
                  description="Rules, tower and dashboard for TOKYO JIDOHANBAIKI game nights.")
    app.add_middleware(BodyLimit)  # 413 for a body over MAX_BODY_BYTES, before it is read whole
    app.router.route_class = StrictJSONRoute  # NaN and Infinity in a body: a 422, not a 500 later
    app.state.tables, app.state.lan_url, app.state.devices = tables, lan_url, devices
    app.state.estimates_work = estimates_work

    def viewer_of(session: TableSession, token: str | None):
        try:
            return session.seat_for_token(token)
        except Forbidden as exc:
            raise HTTPException(403, str(exc)) from None

    def act(fn, *args):
        try:
            return fn(*args)
        except IllegalMove as exc:
            raise HTTPException(409, exc.reason) from None
        except Forbidden as exc:
            raise HTTPException(403, str(exc)) from None

    @app.get("/api/games", summary="List games, newest first",
             description="`broken` is null, or, for a game set aside because a stored record cannot be read "
                         "or applied, `{seq, reason, message}` (seq 0: the game's own settings).")
    def list_games() -> list[dict]:
        return [{"id": g.id, "game": g.game, "status": g.status, "created": g.created,
                 "names": g.config.get("names", []), "bots": g.config.get("bots", []),
                 "simulated": g.config.get("simulated", True), "broken": tables.problem(g)}
                for g in store.games()]

    @app.get("/api/game-types", summary="The games this server knows")
    def game_types() -> list[dict]:
        return [{"id": name, "players": list(mod.PLAYERS)} for name, mod in GAMES.items()]

    @app.post("/api/games", status_code=201, summary="Start a game; answers the player links")
    def new_game(body: NewGame, request: Request) -> dict:
        if any(not 0 <= b < len(body.names) for b in body.bots):
            raise HTTPException(422, f"bots must be seats 0 to {len(body.names) - 1}")
        try:
            session = TableSession.create(store, body.game, body.names, body.bots, body.simulated,
                                          body.seed, body.options)
        except KeyError as exc:
            raise HTTPException(422, str(exc.args[0])) from None
        except IllegalMove as exc:
            raise HTTPException(422, exc.reason) from None
        tables.sessions[session.id] = session
        tables.touch(session)
        return {"id": session.id, "players": player_links(session, request)}

    def base_url(request: Request) -> str:
        return (app.state.lan_url or str(request.base_url)).rstrip("/")

    def player_links(session: TableSession, request: Request) -> list[dict]:
        base = base_url(request)
        return [{"seat": seat, "name": name, "bot": seat in session.bots,
                 "url": f"{base}/player?game={session.id}&token={session.config['tokens'][seat]}"}
                for seat, name in enumerate(session.config["names"])]

    @app.get("/api/games/{game_id}/players", summary="Player links (for the table view's join panel)")
    def players(game_id: str, request: Request) -> list[dict]:
        return player_links(tables.get(game_id), request)

    @app.get("/api/games/{game_id}/players/{seat}/qr.svg", summary="A QR code of a player's link")
    def player_qr(game_id: str, seat: int, request: Request) -> Response:
        links = player_links(tables.get(game_id), request)
        if not 0 <= seat < len(links):
            raise HTTPException(404, f"no seat {seat}")
        buffer = io.BytesIO()  # a whole SVG document (with its namespace), so <img> can show it
        segno.make(links[seat]["url"], error="m").save(buffer, kind="svg", scale=6, border=2)
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    @app.get("/api/games/{game_id}/view", summary="The view of the table, or of one player with a token")
    def get_view(game_id: str, token: str | None = Query(None)) -> dict:
        session = tables.get(game_id)
        return session.view(viewer_of(session, token))

    @app.get("/api/games/{game_id}/estimates",
             summary="Estimated final yen of each move offered to this viewer, from random playouts",
             description="For the moves the viewer (a player's token, or none for the table view) is offered now: "
                         "the mean, spread and range of the seat's final yen over random playouts, in which "
                         "everything this viewer cannot see is drawn again. An estimate, not a promise. The same "
                         "log gives the same answer; the playouts are capped so that one request stays under ~2 s. "
                         f"At most {ESTIMATE_WORKERS} estimate runs at a time and {ESTIMATE_WAITING} more wait; "
                         "beyond that the answer is 429 with a Retry-After header (seconds). "
                         "404 for a game without estimates (only TOKYO METRO has them).",
             responses={429: {"description": "busy with other estimates: ask again after Retry-After seconds",
                              "headers": {"Retry-After": {"description": "seconds", "schema": {"type": "integer"}}},
                              "content": {"application/json": {"schema": {
                                  "type": "object", "required": ["detail"],
                                  "properties": {"detail": {"type": "string"}}}}}}})
    async def get_estimates(game_id: str, token: str | None = Query(None),
                            playouts: int = Query(ESTIMATE_PLAYOUTS, ge=1, le=2000,
                                                  description="random playouts in all (spread over the moves)")) -> dict:
        # The playouts run on the bounded pool (server/heavy.py), never on the threads that serve
        # the other requests; this request holds no thread while it waits for them.
        session = await run_in_threadpool(tables.get, game_id)
        viewer = viewer_of(session, token)
        try:
            key, work = session.estimate_job(viewer, playouts)
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

    @app.post("/api/games/{game_id}/moves", summary="Make a move; 409 with the reason if illegal")
    def post_move(game_id: str, body: MoveIn) -> dict:
        session = tables.get(game_id)
        viewer = viewer_of(session, body.token)
        move = act(Move.from_json, body.move)
        events = act(session.submit, move, viewer)
        tables.touch(session)
        return {"events": events, "view": session.view(viewer)}

    @app.post("/api/games/{game_id}/observations", summary="Report what a source saw in the tray")
    def post_observation(game_id: str, obs: Observation) -> dict:
        session = tables.get(game_id)
        return {**act(session.observe, obs), "view": session.view(None)}

    @app.post("/api/games/{game_id}/throw", summary="Simulated table: throw the due drinks in")
    def post_throw(game_id: str) -> dict:
        session = tables.touch(tables.get(game_id))
        return {**act(devices.throw, session), "view": session.view(None)}

    @app.get("/api/devices", summary="The camera and the sensor board: state, firmware, beams")
    def get_devices() -> dict:
        return devices.status()

    @app.get("/api/camera.jpg", summary="The latest camera frame with the detections drawn on it",
             responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "no camera"}})
    def get_camera_frame() -> Response:
        frame = devices.frame_jpeg()
        if frame is None:
            raise HTTPException(404, "no camera frame: start with --camera, or wait for the camera")
        return Response(frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/api/games/{game_id}/question/dismiss", summary="Dismiss the open question (logged)")
    def dismiss_question(game_id: str) -> dict:
        session = tables.get(game_id)
        act(session.dismiss_question)
        return {"view": session.view(None)}

    @app.post("/api/games/{game_id}/undo", summary="Take back the latest move (appends an undo)")
    def post_undo(game_id: str) -> dict:
        session = tables.get(game_id)
        return {"events": act(session.undo), "view": session.view(None)}

    @app.get("/api/games/{game_id}/log.jsonl", response_class=PlainTextResponse,
             summary="The game log, for `companion replay`")
    def get_log(game_id: str) -> str:
        try:
            session = tables.get(game_id)
        except HTTPException:
            if game_id in tables.broken:  # as stored, to see what went wrong: it cannot be played on
                return stored_log(store, game_id)
            raise
        if not session.game.is_over(session.state):
            # The log holds every secret card drawn; it leaves the server once they are all revealed.
            raise HTTPException(409, "the log can be downloaded when the game is over: it holds the secret cards")
        return session.log_jsonl()

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        try:
            session = tables.get(game_id)
            viewer = session.seat_for_token(token)
        except (HTTPException, Forbidden) as exc:
            await websocket.close(code=4403, reason=str(getattr(exc, "detail", exc))[:120])
            return
        await websocket.accept()
        changed = asyncio.Event()
        loop = asyncio.get_running_loop()

        def listener() -> None:
            loop.call_soon_threadsafe(changed.set)

        session.listeners.append(listener)
        try:
            receiver = asyncio.create_task(_drain(websocket))
            while not receiver.done():
                await websocket.send_json(session.view(viewer))
                waiter = asyncio.create_task(changed.wait())
                await asyncio.wait({waiter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                changed.clear()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.listeners.remove(listener)

    @app.get("/", include_in_schema=False)
    def table_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/player", include_in_schema=False)
    def player_page() -> FileResponse:
        return FileResponse(STATIC / "player.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    from .openapi_errors import document_errors; document_errors(app)  # every status in /openapi.json
    return app


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so that a disconnect is noticed."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
