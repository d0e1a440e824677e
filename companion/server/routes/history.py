"""The history across nights (the host's): the games played, a page at a time, each player's
record, the tower's statistics from every drop, a log replayed, and the page that shows them."""
from __future__ import annotations

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import Response

from ...table.history import History, replay_log
from ...table.log import LogError
from ..context import KEYED, Api
from ..requests import MAX_HISTORY_PAGE, ReplayIn
from .static_version import page

MAX_OFFSET = 1_000_000  # far beyond any table's games: a bound, so that a wild number is a clear 422


def add_history_routes(app: FastAPI, ctx: Api) -> None:
    history = History(ctx.tables)

    @app.get("/api/history", dependencies=KEYED, summary="The games played, newest first, a page at a time (host)",
             description="The finished games (`status`: `completed`, or `ended` early by the host: no winner) and "
                         "the games set aside (`set_aside`: `{seq, reason, message}`, a log that cannot be "
                         "replayed), each with its players (`name`, `bot`, `yen`, `score`: the final standing "
                         "in yen, `winner`), `winners` (seats), `created` and `finished` (ISO 8601, UTC), "
                         "`moves` and `drops`. `total`: the games in all. Each game's log: "
                         "`GET /api/games/{id}/log.jsonl`.")
    def get_history(request: Request, offset: int = Query(0, ge=0, le=MAX_OFFSET, description="games to skip"),
                    limit: int = Query(20, ge=1, le=MAX_HISTORY_PAGE, description="games in this page")) -> dict:
        ctx.host_of(request, "read the history")
        return ctx.encoded(history.page(offset, limit))

    @app.get("/api/history/players", dependencies=KEYED, summary="Each player's record across nights (host)",
             description="By name (a computer seat apart from a person of the same name), over the games played "
                         "to their end: `games`, `wins`, `yen_total` and `yen_average` of the final standings, "
                         "and the same per game in `by_game`; most wins first.")
    def get_players(request: Request) -> dict:
        ctx.host_of(request, "read the players' records")
        return ctx.encoded(history.players())

    @app.get("/api/history/tower", dependencies=KEYED, summary="The tower's statistics from every drop (host)",
             description="From every drop in effect in any game, `real` (games on the table's tower) and "
                         "`simulated` (the simulated table's) apart: `drops`, `thrown`, `first` (drinks out in "
                         "the drop they were thrown in) and `stuck`, their rates, `stuck_drops` (drops that left "
                         "a drink inside), `spills`, and per drink id the same counts with `freed` (out with a "
                         "later drop) and `spilled` (fell out with nothing thrown).")
    def get_tower(request: Request) -> dict:
        ctx.host_of(request, "read the tower's statistics")
        return ctx.encoded(history.tower())

    @app.post("/api/history/replay", dependencies=KEYED, summary="Replay a game log and say what it comes to (host)",
              description="The log as `GET /api/games/{id}/log.jsonl` gives it; nothing is stored. Answers "
                          "`summary` (as a game of the history) and `payouts`, or 422 naming the first line that "
                          "cannot be read or applied, as `companion replay FILE` does.")
    def post_replay(body: ReplayIn, request: Request) -> dict:
        ctx.host_of(request, "replay a log")
        try:
            return ctx.encoded(replay_log(body.log))
        except LogError as exc:
            raise HTTPException(422, f"line {exc.line} of the log: {exc.reason}") from None

    @app.get("/history", include_in_schema=False)
    def history_page() -> Response:
        return page("history.html")
