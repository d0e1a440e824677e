"""The pages (the table's and the player's), the links that hand a device its key, and the
static files."""
from __future__ import annotations

from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from ..context import Api
from ..requests import MAX_GAME_KIND
from ..trust import COOKIE_AGE, HOST_COOKIE, seat_cookie, watch_cookie
from .static_version import STATIC, page, versioned_file


def add_page_routes(app: FastAPI, ctx: Api) -> None:
    @app.get("/", include_in_schema=False)
    def table_page(request: Request, host: str | None = Query(None, max_length=100),
                   game: str | None = Query(None, max_length=MAX_GAME_KIND),
                   watch: str | None = Query(None, max_length=100)) -> Response:
        if host is not None:  # the host link: this device becomes the table's
            grant = ctx.access.grant(host)
            good = grant is not None and grant.role == "host"
            return keyed(f"/?game={quote(game)}" if game else "/", HOST_COOKIE if good else None, host)
        if game is not None and watch is not None:  # a spectator link
            seats = ctx.tables.seats(game)
            grant = ctx.access.grant(watch, game, seats)
            good = grant is not None and grant.role == "spectator"
            return keyed(f"/?game={quote(game)}", watch_cookie(game) if good else None, watch)
        return page("index.html")

    @app.get("/player", include_in_schema=False)
    def player_page(game: str | None = Query(None, max_length=MAX_GAME_KIND),
                    token: str | None = Query(None, max_length=100)) -> Response:
        if game is not None and token is not None:  # a join link: this phone becomes the seat's
            grant = ctx.access.grant(token, game, ctx.tables.seats(game))
            good = grant is not None and grant.role == "player"
            return keyed(f"/player?game={quote(game)}" + ("" if good else "&refused=1"),
                         seat_cookie(game) if good else None, token)
        return page("player.html")

    @app.get("/how", include_in_schema=False)
    @app.get("/how/{game}", include_in_schema=False)
    def how_page() -> Response:
        """How to play a game (static/js/how.js draws it from the catalogues): no key, no secret."""
        return page("how.html")

    # Before the mount: its scripts and styles at this version's addresses (routes/static_version.py).
    app.add_api_route("/static/v/{version}/{path:path}", versioned_file, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def keyed(url: str, cookie: str | None, key: str | None) -> Response:
    """Go on to ``url`` (the key out of the address bar and history), keeping the key in a cookie."""
    response = RedirectResponse(url, status_code=303)
    if cookie is not None and key is not None:
        response.set_cookie(cookie, key, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/")
    return response
