"""The keys a host hands out: the seats' join links and the spectator link, their QR codes, and
new links that shut the old ones out."""
from __future__ import annotations

import io

import segno
from fastapi import FastAPI, Request
from fastapi.responses import Response

from ..context import KEYED, Api

REACHABLE = ("Each link: `{seat, name, bot, url, reachable}` (the spectators': `{url, reachable}`). `url` points at "
             "`companion serve --public-url`, else the LAN address the service found, else the address of the "
             "request; `reachable` is false when that is a loopback address (127.0.0.1, ::1, localhost): phones "
             "cannot open such links, and the join panel says how to fix it (`--public-url`, or the Wi-Fi).")


def add_link_routes(app: FastAPI, ctx: Api) -> None:
    @app.get("/api/games/{game_id}/players", dependencies=KEYED, summary="Join links of the seats (host; the table's join panel)",
             description=REACHABLE)
    def players(game_id: str, request: Request) -> list[dict]:
        ctx.host_of(request, "hand out join links", game_id)
        return ctx.player_links(ctx.session_of(game_id), request)

    @app.post("/api/games/{game_id}/players/{seat}/revoke", dependencies=KEYED,
              summary="A new join link for a seat (host): the old link and every phone joined by it are shut out")
    def revoke_seat(game_id: str, seat: int, request: Request) -> dict:
        ctx.host_of(request, "replace a join link", game_id)
        session = ctx.session_of(game_id)
        ctx.access.revoke_seat(game_id, ctx.seat_of(session, seat))
        session.notify()  # open WebSockets check their keys again: the old phone's closes
        return ctx.player_links(session, request)[seat]

    @app.get("/api/games/{game_id}/players/{seat}/qr.svg", dependencies=KEYED, summary="A QR code of a seat's join link (host)",
             responses={200: {"content": {"image/svg+xml": {}}}})
    def player_qr(game_id: str, seat: int, request: Request) -> Response:
        ctx.host_of(request, "hand out join links", game_id)
        session = ctx.session_of(game_id)
        return _qr(ctx.player_links(session, request)[ctx.seat_of(session, seat)]["url"])

    @app.get("/api/games/{game_id}/spectators", dependencies=KEYED, summary="The spectator link of a game (host): the table view, "
                                                          "no secrets, no buttons", description=REACHABLE)
    def spectators(game_id: str, request: Request) -> dict:
        ctx.host_of(request, "hand out the spectator link", game_id)
        ctx.session_of(game_id)
        return ctx.spectator_link(game_id, request)

    @app.get("/api/games/{game_id}/spectators/qr.svg", dependencies=KEYED, summary="A QR code of the spectator link (host)",
             responses={200: {"content": {"image/svg+xml": {}}}})
    def spectators_qr(game_id: str, request: Request) -> Response:
        ctx.host_of(request, "hand out the spectator link", game_id)
        ctx.session_of(game_id)
        return _qr(ctx.spectator_link(game_id, request)["url"])

    @app.post("/api/games/{game_id}/spectators/revoke", dependencies=KEYED, summary="A new spectator link (host); the old one is shut out")
    def revoke_spectators(game_id: str, request: Request) -> dict:
        ctx.host_of(request, "replace the spectator link", game_id)
        session = ctx.session_of(game_id)
        ctx.access.revoke_spectators(game_id)
        session.notify()
        return ctx.spectator_link(game_id, request)


def _qr(url: str) -> Response:
    buffer = io.BytesIO()  # a whole SVG document (with its namespace), so <img> can show it
    segno.make(url, error="m").save(buffer, kind="svg", scale=6, border=2)
    return Response(buffer.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
