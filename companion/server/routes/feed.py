"""The feed of the night, paged: every entry of a game as the caller may know it (the view carries
the latest ones; table/feed.py says what an entry holds and who sees what)."""
from __future__ import annotations

from fastapi import FastAPI, Query, Request

from ..context import KEYED, Api, Viewing

FEED_PAGE = 50       # entries per page unless asked otherwise
FEED_PAGE_MAX = 200


def add_feed_routes(app: FastAPI, ctx: Api) -> None:
    @app.get("/api/games/{game_id}/feed", dependencies=KEYED, summary="What happened in a game, newest first, paged",
             description="One entry per record that matters (a move with its events and each seat's yen change as "
                         "the table view shows yen; an undo; a question set aside; the end), newest first. The "
                         "caller is decided as for the view: a player sees their own secret moves in full, the "
                         "host, spectators and the other players only that a seat made a secret move. `before`: "
                         "only entries of records before this seq (the `next` of the previous page); `next` is "
                         "null on the last page.")
    def get_feed(game_id: str, request: Request, viewing: Viewing = None,
                 before: int | None = Query(None, ge=1, description="a record seq: the entries before it"),
                 limit: int = Query(FEED_PAGE, ge=1, le=FEED_PAGE_MAX, description="entries on this page")) -> dict:
        caller = ctx.caller_of(request, game_id, viewing)
        session = ctx.session_of(game_id)
        entries = session.feed_for(caller.seat, before, limit + 1)  # one more tells whether a page follows
        page = entries[:limit]
        return ctx.encoded({"game_id": game_id, "seq": session.step, "entries": page,
                            "next": page[-1]["seq"] if len(entries) > limit else None})
