"""What every route shares: the table's parts (built once in server/app.py's ``create_app``) and
the helpers that turn the table's answers and refusals into HTTP ones, plus the declarations the
routes put in /openapi.json."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import HTTPException, Query, Request, Security
from fastapi.responses import Response
from fastapi.security import APIKeyCookie, HTTPBearer
from starlette.datastructures import State

from ..table.access import Access
from ..table.board_device import BoardDevice
from ..table.crate_device import CrateDevice
from ..table.devices import Devices
from ..table.landing_device import LandingDevice
from ..table.errors import BrokenGame, Forbidden, IllegalMove, NoSuchGame
from ..table.looks import LookBook
from ..table.session import TableSession
from ..table.store import EventStore
from ..table.tables import Tables
from .heavy import BoundedWork
from .reach import reachable
from .trust import HOST_COOKIE, Caller, Trust, require_any, require_host

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


@dataclass(eq=False)
class Api:
    """One app's table and the helpers its routes share (server/routes/)."""
    state: State   # the app's: public_url is read from it per request
    store: EventStore
    tables: Tables
    access: Access
    trust: Trust
    looks: LookBook
    devices: Devices
    estimates_work: BoundedWork
    board_device: BoardDevice | None = None   # the board camera (TOKYO METRO; None: none runs)
    crate_device: CrateDevice | None = None   # the crate camera (the crate games; None: none runs)
    landing_device: LandingDevice | None = None   # the landing camera (games scored by landings; None: none)

    def act(self, fn, *args):
        try:
            return fn(*args)
        except IllegalMove as exc:
            raise HTTPException(409, exc.reason) from None
        except Forbidden as exc:
            raise HTTPException(403, str(exc)) from None

    @staticmethod
    def no_game(game_id: str) -> HTTPException:
        return HTTPException(404, f"no game {game_id!r}; the host's lobby lists the games")

    def session_of(self, game_id: str) -> TableSession:
        """The game's session: 404 for no such game, 409 (saying why) for one set aside."""
        try:
            return self.tables.get(game_id)
        except NoSuchGame:
            raise self.no_game(game_id) from None
        except BrokenGame as exc:
            raise HTTPException(409, str(exc)) from None

    def known(self, game_id: str) -> None:
        try:
            self.tables.known(game_id)
        except NoSuchGame:
            raise self.no_game(game_id) from None

    def caller_of(self, conn, game_id: str, viewing: str | None = None) -> Caller:
        """Who asks about ``game_id``: 404 for no such game, 403 for a caller without its key."""
        self.known(game_id)
        caller = self.trust.caller(conn, game_id, self.tables.seats(game_id), as_player=viewing == "player")
        require_any(caller, game_id)
        return caller

    def host_of(self, request: Request, what: str, game_id: str | None = None) -> Caller:
        if game_id is not None:
            self.known(game_id)
        caller = self.trust.caller(request, game_id, self.tables.seats(game_id) if game_id else 0)
        require_host(caller, what)
        return caller

    def any_caller(self, request: Request, game: str | None) -> Caller:
        if game is not None:
            return self.caller_of(request, game)
        caller = self.trust.caller(request)
        require_any(caller)
        return caller

    def view_for(self, session: TableSession, caller: Caller) -> dict:
        """The caller's view: a player's seat, or the table's (a spectator's without moves)."""
        view = session.view(caller.seat, acting=caller.grant.role != "spectator")
        return {**view, "role": caller.grant.role, "fed": self.tables.active == session.id}

    @staticmethod
    def encoded(answer: dict) -> Response:
        """An answer that holds a view, encoded here (the request's worker thread) with the JSON
        encoder: FastAPI's own would walk the 50-80 KB of a TOKYO METRO view on the event loop
        (~20-60 ms), holding up every live view meanwhile."""
        return Response(json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":")),
                        media_type="application/json")

    def live_view(self, session: TableSession, caller: Caller) -> tuple[tuple, dict] | None:
        """A live view's message (in a worker thread): the caller's view and the key it is shared
        under; None once the caller's key no longer opens the game (the socket is closed)."""
        if not self.trust.still(caller, session.id, session.seats):
            return None
        view = self.view_for(session, caller)
        return (view["seq"], view.get("rev", 0), caller.seat, caller.grant.role, view["fed"]), view

    # --- keys: join links, spectators ----------------------------------------------------------

    def base_url(self, request: Request) -> str:
        """Where the links point: `--public-url` or the LAN address found, else the address the
        request came to (the tablet's: 127.0.0.1 when it runs on this machine)."""
        return (self.state.public_url or str(request.base_url)).rstrip("/")

    def player_links(self, session: TableSession, request: Request) -> list[dict]:
        base = self.base_url(request)
        phones = reachable(base)
        return [{"seat": seat, "name": name, "bot": seat in session.bots,
                 "url": f"{base}/player?game={session.id}&token={self.access.seat_key(session.id, seat)}",
                 "reachable": phones}
                for seat, name in enumerate(session.config["names"])]

    @staticmethod
    def seat_of(session: TableSession, seat: int) -> int:
        if not 0 <= seat < len(session.config["names"]):
            raise HTTPException(404, f"no seat {seat}: this game has seats 0 to {len(session.config['names']) - 1}")
        return seat

    def spectator_link(self, game_id: str, request: Request) -> dict:
        base = self.base_url(request)
        return {"url": f"{base}/?game={game_id}&watch={self.access.spectator_key(game_id)}", "reachable": reachable(base)}
