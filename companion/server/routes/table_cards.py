"""The table's own METRO board, cards and track (the host's): check a set, save it by name, list and
delete the sets, and the page that does it (/table-cards). A new game takes a set's id
(``POST /api/games`` with ``table_cards``: routes/table.py asks :func:`game_options`)."""
from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Path, Request
from fastapi.responses import JSONResponse, Response

from ...table.table_cards import MAX_SETS, Full, NoSuchSet, NotForGame, Refused, TableCards
from ..context import KEYED, Api
from ..requests import MAX_SET_ID, TableCardsIn
from .static_version import page

SetId = Path(max_length=MAX_SET_ID, description="the set's id (GET /api/table-cards/sets lists them)")

REFUSED = {422: {"description": "the set does not validate: `detail` says so, `faults` lists each fault as "
                                "{file, where (a JSON pointer in that file), reason}"}}


def files_of(body: TableCardsIn) -> dict[str, Any]:
    return body.model_dump(exclude={"name", "system"}, exclude_none=True)


def refused(exc: Refused) -> JSONResponse:
    """422 with every fault: the page shows each at its file and place."""
    faults = "; ".join(f"{f['file']} {f['where']}: {f['reason']}" for f in exc.faults)
    said = HTTPException(422, f"the table's cards do not validate: {faults}")   # its words translated as any
    return JSONResponse({"detail": said.detail, "faults": exc.faults}, status_code=said.status_code)


def no_set(set_id: str, status: int = 404) -> HTTPException:
    return HTTPException(status, f"no saved set {set_id!r}; the page /table-cards lists the table's sets")


def game_options(store, set_id: str, game: str, options: dict) -> dict:
    """A new game's options filled from a saved set (HTTPException 422: no such set, not for this game,
    no longer valid)."""
    try:
        return TableCards(store).options_for(set_id, game, options)
    except NoSuchSet:
        raise no_set(set_id, 422) from None
    except NotForGame as exc:
        if exc.why == "no_metro":
            raise HTTPException(422, f"{game} is played without a board and cards of the table's own: "
                                     "leave table_cards out") from None
        if exc.why == "both":
            names = exc.about["names"]
            raise HTTPException(422, f"give table_cards or the files in the options, not both "
                                     f"(the options give {names})") from None
        system, wanted = exc.about["system"], exc.about["wanted"]
        raise HTTPException(422, f"this set is for the {system} system; the game plays {wanted}: choose a set "
                                 "of that system") from None
    except Refused as exc:
        faults = "; ".join(f"{f['file']} {f['where']}: {f['reason']}" for f in exc.faults)
        raise HTTPException(422, f"the saved set no longer validates: {faults}; check it again on the page "
                                 "/table-cards") from None


def add_table_cards_routes(app: FastAPI, ctx: Api) -> None:
    sets = TableCards(ctx.store)

    @app.get("/api/table-cards/sets", dependencies=KEYED, summary="The table's own METRO cards and boards, saved (host)",
             description="`sets`: {id, name, system, saved, files} by name; `most`: how many may be saved.")
    def list_sets(request: Request) -> dict:
        ctx.host_of(request, "see the table's own cards")
        return {"sets": sets.list(), "most": MAX_SETS}

    @app.post("/api/table-cards/check", dependencies=KEYED, responses=REFUSED,
              summary="Check a set of the table's own METRO files (host); nothing is saved",
              description="Answers a preview: `geometry` (the board as a game's view draws it) and `summary` "
                          "(lines with shares, card sets with counts, share cards' surcharges, the track's "
                          "numbers, the numbers of players the cards allow).")
    def check_set(body: TableCardsIn, request: Request) -> Response:
        ctx.host_of(request, "check the table's own cards")
        try:
            return ctx.encoded(sets.check(body.system, files_of(body)))
        except Refused as exc:
            return refused(exc)

    @app.post("/api/table-cards/sets", dependencies=KEYED, status_code=201,
              responses={**REFUSED, 409: {"description": "as many sets as may be kept are saved: delete one"}},
              summary="Save a set of the table's own METRO files under its name (host)",
              description="Checked as by `/api/table-cards/check`; a set of the same name is replaced. Answers "
                          "the set as listed, `new`, and the preview.")
    def save_set(body: TableCardsIn, request: Request) -> Response:
        ctx.host_of(request, "save the table's own cards")
        if not body.name.strip():
            raise HTTPException(422, "give the set a name, to pick it in the lobby")
        try:
            saved = sets.save(body.name, body.system, files_of(body))
        except Refused as exc:
            return refused(exc)
        except Full:
            raise HTTPException(409, f"{MAX_SETS} sets are saved already: delete one first") from None
        answer = ctx.encoded(saved)
        answer.status_code = 201
        return answer

    @app.get("/api/table-cards/sets/{set_id}", dependencies=KEYED, summary="One saved set with its files (host)")
    def get_set(request: Request, set_id: str = SetId) -> Response:
        ctx.host_of(request, "see the table's own cards")
        try:
            return ctx.encoded(sets.get(set_id))
        except NoSuchSet:
            raise no_set(set_id) from None

    @app.delete("/api/table-cards/sets/{set_id}", dependencies=KEYED,
                summary="Delete a saved set (host); games started with it keep their copy")
    def delete_set(request: Request, set_id: str = SetId) -> dict:
        ctx.host_of(request, "delete the table's own cards")
        try:
            sets.delete(set_id)
        except NoSuchSet:
            raise no_set(set_id) from None
        return {"deleted": set_id}

    @app.get("/table-cards", include_in_schema=False)
    def table_cards_page() -> Response:
        return page("table-cards.html")
