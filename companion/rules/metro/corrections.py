"""Board corrections: a small file that changes a system's default board instead of replacing it.

Our boards are approximations (the rule book prints none). A table comparing its printed board
with our map writes down only what differs, by the names the map shows: a line by its letter, a
station by its id, a stop circle by its id. ``apply_corrections`` makes the corrected board file
from the default one; ``board.load_board`` then checks it as any board (a fault found there is
placed back at the correction that caused it: :func:`corrected_place`). docs/metro-files.md
describes the format.

>>> base = {"lines": [{"letter": "G", "shares": 3, "stops": ["a", "b", "c"]}],
...         "stations": [{"id": s, "name": s.upper(), "circles": [{"id": s, "x": 1, "y": 1, "fields": [[0, 0]]}]}
...                      for s in "abc"]}
>>> fixed = apply_corrections(base, {"format": FORMAT, "version": 1, "lines": {"G": {"shares": 2}},
...                                   "stations": {"b": {"name": "Bee"}}, "remove_stations": ["c"]})
>>> fixed["lines"][0]["shares"], fixed["lines"][0]["stops"], [s["name"] for s in fixed["stations"]]
(2, ['a', 'b'], ['A', 'Bee'])
>>> apply_corrections(base, {"format": FORMAT, "version": 1, "lines": {"Q": {"shares": 2}}})
Traceback (most recent call last):
...
companion.rules.metro.files.DataError: board_corrections: /lines/Q: there is no line 'Q' on this board; its lines are G
"""
from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import Field

from .files import (CircleData, DataError, FieldAt, FileModel, Grid, Items, Named, StartArea, StationData, Stops,
                    check)

FORMAT = "tokyo-table-companion/metro-board-corrections"
SOURCE = "board_corrections"


class LineChange(FileModel):
    """What differs on one line; a field left out stays as it is."""

    name: Named | None = None
    colour: Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$")] | None = None
    shares: Annotated[int, Field(ge=1, le=4)] | None = None
    disc_spaces: Annotated[int, Field(ge=0, le=10)] | None = None
    stops: Stops | None = None                       # the whole list of circle ids, first to last
    vehicle: Literal["train", "tram", "bus"] | None = None
    vehicles: Literal[1, 2] | None = None


class CircleChange(FileModel):
    """A stop circle moved, or touching other fields."""

    x: Annotated[float, Field(ge=0)] | None = None
    y: Annotated[float, Field(ge=0)] | None = None
    fields: list[FieldAt] | None = None


class StationChange(FileModel):
    """A station renamed, or given other circles (the whole list)."""

    name: Named | None = None
    name_ja: str | None = None
    circles: Items(CircleData, 1, 3, fault="a station has 1 to 3 stop circles") | None = None


Id = Annotated[str, Field(min_length=1, max_length=64)]


class CorrectionsFile(FileModel):
    """Changes to a system's default board, applied in this order: grid and start area, stations
    removed (their circles leave every line), stations and small stops added, stations changed,
    circles changed, lines changed."""

    format: Literal["tokyo-table-companion/metro-board-corrections"]
    version: Literal[1]
    name: Annotated[str, Field(max_length=80)] = ""   # the corrected board's name ("" : the default's + " (corrected)")
    note: Annotated[str, Field(max_length=2000)] = ""
    approximate: bool | None = None                 # None: as the default board says
    grid: Grid | None = None
    start_area: StartArea | None = None
    remove_stations: Items(Id, 0, 300) = []
    add_stations: Items(StationData, 0, 100) = []
    remove_small_stops: Items(Id, 0, 300) = []
    add_small_stops: Items(CircleData, 0, 200) = []
    stations: Annotated[dict[Id, StationChange], Field(max_length=300)] = {}
    circles: Annotated[dict[Id, CircleChange], Field(max_length=600)] = {}
    lines: Annotated[dict[Id, LineChange], Field(max_length=30)] = {}


def _fail(where: str, reason: str) -> None:
    raise DataError(SOURCE, where, reason)


def _changes(model: FileModel) -> dict:
    """The fields a change gives (left-out ones are None and change nothing)."""
    return {k: v for k, v in model.model_dump(mode="json").items() if v is not None}


def apply_corrections(base: dict, data: Any) -> dict:
    """The board file ``base`` with the corrections ``data`` applied (a new dict; ``base`` is
    untouched); DataError naming the correction that cannot apply (an unknown line, station or
    circle). The result is not checked here: ``load_board`` does that."""
    fix = check(CorrectionsFile, data, SOURCE)
    board = copy.deepcopy(base)
    if fix.name:
        board["name"] = fix.name
    elif "name" in board:
        board["name"] = f"{board['name']} (corrected)"
    if fix.note:
        board["note"] = fix.note
    if fix.approximate is not None:
        board["approximate"] = fix.approximate
    if fix.grid is not None:
        board["grid"] = fix.grid.model_dump(mode="json")
    if fix.start_area is not None:
        board["start_area"] = fix.start_area.model_dump(mode="json")
    stations: list[dict] = board.setdefault("stations", [])
    small: list[dict] = board.setdefault("small_stops", [])
    lines: list[dict] = board.setdefault("lines", [])

    station_ids = [st["id"] for st in stations]
    for k, sid in enumerate(fix.remove_stations):
        if sid not in station_ids:
            _fail(f"/remove_stations/{k}", f"there is no station {sid!r} on this board; the preview on the "
                                           "page /table-cards lists the ids")
    stations[:] = [st for st in stations if st["id"] not in fix.remove_stations]
    small_ids = [c["id"] for c in small]
    for k, cid in enumerate(fix.remove_small_stops):
        if cid not in small_ids:
            _fail(f"/remove_small_stops/{k}", f"there is no small stop {cid!r} on this board")
    small[:] = [c for c in small if c["id"] not in fix.remove_small_stops]

    stations.extend(st.model_dump(mode="json", exclude_none=True) for st in fix.add_stations)
    small.extend(c.model_dump(mode="json") for c in fix.add_small_stops)

    by_id = {st["id"]: st for st in stations}
    for sid, change in fix.stations.items():
        if sid not in by_id:
            _fail(f"/stations/{sid}", f"there is no station {sid!r} on this board")
        by_id[sid].update(_changes(change))

    circle_by_id = {c["id"]: c for st in stations for c in st["circles"]} | {c["id"]: c for c in small}
    for cid, change in fix.circles.items():
        if cid not in circle_by_id:
            _fail(f"/circles/{cid}", f"there is no stop circle {cid!r} on this board")
        circle_by_id[cid].update(_changes(change))

    # Every line keeps only the circles still on the board (a removed station's leave its lines).
    for line in lines:
        line["stops"] = [c for c in line["stops"] if c in circle_by_id]
    letters = [line["letter"] for line in lines]
    for letter, change in fix.lines.items():
        if letter not in letters:
            _fail(f"/lines/{letter}", f"there is no line {letter!r} on this board; its lines are {' '.join(letters)}")
        lines[letters.index(letter)].update(_changes(change))

    # A station's own list of lines is derived from the stops: made again, so that a changed line
    # need not be written twice.
    serving: dict[str, set[str]] = {}
    for line in lines:
        for cid in line["stops"]:
            serving.setdefault(cid, set()).add(line["letter"])
    for st in stations:
        if "lines" in st:
            served = set().union(*(serving.get(c["id"], set()) for c in st["circles"]))
            st["lines"] = [ln for ln in letters if ln in served]
    if not small:
        board.pop("small_stops")
    # The board camera's layout places the default stations: it no longer fits other stations.
    if (fix.remove_stations or fix.add_stations) and "layout" in board:
        board.pop("layout")
    return board


def corrected_place(board: dict, where: str, fix: Any) -> str:
    """The place in the corrections file of a fault ``load_board`` found at ``where`` in the
    corrected ``board``: a line by its letter, a station by its id (where the corrections name
    it), else the board's own pointer under ``/board``."""
    parts = where.strip("/").split("/")
    if len(parts) >= 2 and parts[1].isdigit():
        index = int(parts[1])
        if parts[0] == "lines" and index < len(board.get("lines", [])):
            letter = board["lines"][index]["letter"]
            if letter in (fix.get("lines") or {}):
                return "/".join(["", "lines", letter, *parts[2:]])
        if parts[0] == "stations" and index < len(board.get("stations", [])):
            sid = board["stations"][index]["id"]
            if sid in (fix.get("stations") or {}):
                return "/".join(["", "stations", sid, *parts[2:]])
            added = [st.get("id") for st in fix.get("add_stations") or []]
            if sid in added:
                return "/".join(["", "add_stations", str(added.index(sid)), *parts[2:]])
    return "/board" + (where if where != "/" else "")
