"""The table as a whole: who this device is, the games, the kinds of game, a new game, and the
game the tower feeds."""
from __future__ import annotations

from fastapi import FastAPI, HTTPException, Path, Query, Request

from ...table.errors import IllegalMove
from ...table.session import wall_ms
from ...table.tables import game_guide
from ...table.tables import game_types as known_games
from ..context import KEYED, NAMES_A_GAME, Api, Viewing
from ..requests import MAX_GAME_KIND, FeedIn, NewGame
from .table_cards import game_options


def add_table_routes(app: FastAPI, ctx: Api) -> None:
    @app.get("/api/whoami", summary="What this device's keys open (for the pages)",
             description="`role` is `host`, `player` (with `seat`), `spectator` or null (no key of the table); "
                         "`key` is `valid`, `wrong` (a key that opens nothing here: replaced, or a guess) or `none`.")
    def whoami(request: Request, game: str | None = Query(None, max_length=MAX_GAME_KIND), viewing: Viewing = None) -> dict:
        seats = ctx.tables.seats(game) if game else 0
        caller = ctx.trust.caller(request, game, seats, as_player=viewing == "player")
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
        ctx.host_of(request, "list the games")
        return [{"id": g.id, "game": g.game, "status": g.status, "created": g.created,
                 "names": g.config.get("names", []), "bots": g.config.get("bots", []),
                 "simulated": g.config.get("simulated", True), "broken": ctx.tables.problem(g),
                 "fed": ctx.tables.active == g.id}
                for g in ctx.store.games()]

    @app.get("/api/time", summary="The service's clock (a real-time game's dashboard runs its clock from it)",
             description="`now_ms`: the service's wall clock in milliseconds, the clock that stamps a real-time "
                         "game's moments (a race's start, a player done). No key needed: nothing here is secret.")
    def service_time() -> dict:
        return {"now_ms": wall_ms()}

    @app.get("/api/game-types", summary="The games this server knows")
    def game_types() -> list[dict]:
        return known_games()

    @app.get("/api/game-types/{game}", summary="One game's kinds of move and the rules they follow (how to play)",
             description="`kinds`: every kind of move, with the rule-book section it follows, `secret` (made on "
                         "the player's own phone) and `chance` (the table enters what happened). No key needed: "
                         "nothing here is secret.")
    def game_guide_of(game: str = Path(max_length=MAX_GAME_KIND)) -> dict:
        try:
            return game_guide(game)
        except KeyError as exc:
            raise HTTPException(404, str(exc.args[0])) from None

    @app.post("/api/games", dependencies=KEYED, status_code=201, summary="Start a game (host); answers the join links")
    def new_game(body: NewGame, request: Request) -> dict:
        ctx.host_of(request, "start a game")
        if any(not 0 <= b < len(body.names) for b in body.bots):
            raise HTTPException(422, f"bots must be seats 0 to {len(body.names) - 1}")
        options = body.options
        if body.table_cards is not None:  # a METRO game with the table's own board and cards
            options = game_options(ctx.store, body.table_cards, body.game, options)
        try:
            session = ctx.tables.create(body.game, body.names, body.bots, body.simulated, body.seed, options)
        except KeyError as exc:
            raise HTTPException(422, str(exc.args[0])) from None
        except IllegalMove as exc:
            raise HTTPException(422, exc.reason) from None
        return {"id": session.id, "players": ctx.player_links(session, request)}

    @app.put("/api/feed", dependencies=KEYED, responses=NAMES_A_GAME, summary="Choose the game the tower's camera and sensors report to (host)")
    def put_feed(body: FeedIn, request: Request) -> dict:
        ctx.host_of(request, "choose the game the tower feeds", body.game_id)
        session = ctx.session_of(body.game_id)
        if session.over:
            raise HTTPException(409, "this game is over: choose an open game for the tower to feed")
        if not session.game.uses_tower:
            raise HTTPException(409, f"{session.game.title} throws nothing into the tower: the camera and sensors "
                                     "go on reporting to the game they feed; choose a game played with the tower")
        ctx.tables.feed(session)
        return {"game_id": session.id}
