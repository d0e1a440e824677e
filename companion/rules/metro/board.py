"""The TOKYO METRO board as data: lines, stations, stop circles, the grid of fields.

A board file (``files.BoardFile``) lists the lines in train order (G first, as on the
revenue track), each with its stops as circle ids; the stations, each with 1 to 3 stop circles
and, per circle, the fields of the grid that touch it; and the rectangle of fields where meeples
are placed in round 1. A circle may be a stop of two lines (where they cross), and a line may have
two stops in one station. A board may also list small stops (OSAKA METRO's trams and buses):
circles of no station, where vehicles stop and riders get on and off but nobody builds or is paid.
A line may run two vehicles (``vehicles: 2``), one from each terminal.

Loading checks the file against its model and then what a model cannot say, and refuses it
with the first fault and its place (a :class:`DataError` naming the file and a JSON pointer):

>>> bad = default_board_data()
>>> bad["lines"][0]["stops"] = bad["lines"][0]["stops"][:1]
>>> load_board(bad, source="my_board.json")
Traceback (most recent call last):
...
companion.rules.metro.files.DataError: my_board.json: /lines/0/stops: needs at least 2 item(s), has 1: a line needs at least 2 stops (its two terminals)

Everything the rules ask often is precomputed once per board: field adjacency, the stations
each field touches, each line's stops as circle and station numbers.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .files import BoardFile, DataError, check

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_BOARD = DATA / "tokyo_board.json"

__all__ = ["Board", "Line", "Station", "Circle", "DataError", "load_board", "default_board",
           "default_board_data", "read_json"]


@dataclass(frozen=True, eq=False)
class Circle:
    index: int
    id: str
    x: float
    y: float
    station: int                 # index of its station; -1 for a small stop (no station)
    fields: tuple[int, ...]      # fields touching it


@dataclass(frozen=True, eq=False)
class Station:
    index: int
    id: str
    name: str
    name_ja: str
    circles: tuple[int, ...]
    fields: tuple[int, ...]      # every field touching one of its circles
    lines: tuple[int, ...]       # line indices stopping here


@dataclass(frozen=True, eq=False)
class Line:
    index: int
    letter: str
    name: str
    colour: str
    shares: int
    disc_spaces: int
    stops: tuple[int, ...]           # circle index of stop 1, 2, ...
    stop_station: tuple[int, ...]    # station index of each stop; -1 at a small stop (no station)
    vehicle: str = "train"           # "train", "tram" or "bus" (what the view draws)
    vehicles: int = 1                # 2: one starts at each terminal and both move together

    def label(self, stop: int) -> str:
        """``G1`` for the first stop (``stop`` counts from 0)."""
        return f"{self.letter}{stop + 1}"


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board; compared by identity (one object per loaded file)."""

    name: str
    approximate: bool
    cols: int
    rows: int
    blocked: frozenset[int]
    start_fields: tuple[int, ...]
    lines: tuple[Line, ...]
    stations: tuple[Station, ...]
    circles: tuple[Circle, ...]
    line_index: Mapping[str, int]
    station_index: Mapping[str, int]
    adjacent: tuple[tuple[int, ...], ...]        # orthogonal neighbours of each field (not blocked)
    field_stations: tuple[tuple[int, ...], ...]  # stations each field touches
    station_fieldsets: tuple[frozenset[int], ...]  # per station: the fields touching it
    data: Mapping[str, Any] = field(repr=False)  # the file as loaded (for the map view)

    @property
    def n_fields(self) -> int:
        return self.cols * self.rows

    def field(self, col: int, row: int) -> int:
        return row * self.cols + col

    def col_row(self, f: int) -> tuple[int, int]:
        return f % self.cols, f // self.cols

    def field_label(self, f: int) -> str:
        col, row = self.col_row(f)
        return f"[{col}, {row}]"

    def reachable(self, start: int, steps: int, occupied) -> list[int]:
        """Fields a meeple on ``start`` can reach in up to ``steps`` orthogonal steps without
        entering an occupied field (``start`` itself included)."""
        seen = {start}
        frontier = [start]
        adjacent = self.adjacent
        for _ in range(steps):
            nxt = []
            for f in frontier:
                for g in adjacent[f]:
                    if g not in seen and g not in occupied:
                        seen.add(g)
                        nxt.append(g)
            if not nxt:
                break
            frontier = nxt
        return sorted(seen)

    def geometry(self) -> dict:
        """What a map view draws: the grid, the start area, lines with their stops (circle ids in
        order), stations with their circles (x, y in field units; the fields touching each), and
        whether the geometry is only approximate. Field numbers in moves are row * cols + col."""
        return _geometry(self)


def read_json(path: Path | str) -> Any:
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(path.name, f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}") from None


def default_board_data() -> dict:
    """A fresh copy of the default board file's data (to edit in tests)."""
    return read_json(DEFAULT_BOARD)


@lru_cache(maxsize=1)
def default_board() -> Board:
    return load_board(read_json(DEFAULT_BOARD), source=DEFAULT_BOARD.name)


def load_board(data: Any, source: str = "board") -> Board:
    """Validate a board's data and precompute what the rules need; DataError at the first fault."""
    file = check(BoardFile, data, source)

    def fail(where: str, reason: str) -> None:
        raise DataError(source, where, reason)

    cols, rows = file.grid.cols, file.grid.rows

    def field_index(pair: list[int], where: str) -> int:
        col, row = pair
        if not (0 <= col < cols and 0 <= row < rows):
            fail(where, f"field {pair} is outside the {cols}x{rows} grid (columns 0-{cols - 1}, rows 0-{rows - 1})")
        return row * cols + col

    blocked = frozenset(field_index(p, f"/grid/blocked/{i}") for i, p in enumerate(file.grid.blocked))

    area = file.start_area
    if area.col + area.cols > cols or area.row + area.rows > rows:
        fail("/start_area", f"the start area runs off the {cols}x{rows} grid")
    start_fields = tuple(sorted(r * cols + c for r in range(area.row, area.row + area.rows)
                                for c in range(area.col, area.col + area.cols) if r * cols + c not in blocked))
    if not start_fields:
        fail("/start_area", "the start area has no free field")

    # Stations and their circles.
    station_ids: dict[str, str] = {}
    circle_where: dict[str, str] = {}
    circle_index: dict[str, int] = {}
    raw_circles = []  # (id, x, y, station index, fields)

    def add_circle(circle, cw: str, station: int, what: str, use: str) -> None:
        """One stop circle at ``cw`` (a station's, or a small stop's with ``station`` -1)."""
        if circle.id in circle_where:
            fail(f"{cw}/id", f"circle id {circle.id!r} is used twice (first at {circle_where[circle.id]})")
        circle_where[circle.id] = cw
        if circle.x > cols or circle.y > rows:
            fail(cw, f"{what} at ({circle.x:g}, {circle.y:g}) lies outside the {cols}x{rows} grid")
        fields = tuple(sorted({field_index(p, f"{cw}/fields/{k}") for k, p in enumerate(circle.fields)}))
        if not fields:
            fail(f"{cw}/fields", f"{what} touches no field; list the fields a meeple may stand on {use}")
        circle_index[circle.id] = len(raw_circles)
        raw_circles.append((circle.id, circle.x, circle.y, station, fields))

    for s, st in enumerate(file.stations):
        where = f"/stations/{s}"
        if st.id in station_ids:
            fail(f"{where}/id", f"station id {st.id!r} is used twice (first at {station_ids[st.id]})")
        station_ids[st.id] = where
        for c, circle in enumerate(st.circles):
            add_circle(circle, f"{where}/circles/{c}", s, f"station {st.name!r} (circle {circle.id!r})", "to use it")
    # Small stops: circles of no station (their station index is -1), after the stations' circles.
    for k, circle in enumerate(file.small_stops):
        add_circle(circle, f"/small_stops/{k}", -1, f"small stop {circle.id!r}", "to get on or off there")

    # Lines.
    letters: dict[str, str] = {}
    raw_lines = []
    on_line = [[] for _ in raw_circles]
    for i, line in enumerate(file.lines):
        where = f"/lines/{i}"
        if line.letter in letters:
            fail(f"{where}/letter", f"line letter {line.letter!r} is used twice (first at {letters[line.letter]})")
        letters[line.letter] = where
        stops = []
        for k, cid in enumerate(line.stops):
            if cid not in circle_index:
                fail(f"{where}/stops/{k}", f"{cid!r} is not a circle of this board (line {line.letter}, stop {k + 1})")
            c = circle_index[cid]
            if c in stops:
                fail(f"{where}/stops/{k}", f"line {line.letter} visits circle {cid!r} twice "
                                           f"(stops {stops.index(c) + 1} and {k + 1}); give each stop its own circle")
            stops.append(c)
            on_line[c].append(i)
        for end, k in (("first", 0), ("last", len(stops) - 1)):
            if raw_circles[stops[k]][3] < 0:
                fail(f"{where}/stops/{k}", f"line {line.letter}'s {end} stop {line.stops[k]!r} is a small stop; "
                                           "a line's terminals must be stations")
        raw_lines.append((line, tuple(stops)))

    for c, (cid, _x, _y, s, _f) in enumerate(raw_circles):
        if not on_line[c]:
            what = f"station {file.stations[s].name!r}" if s >= 0 else "a small stop"
            fail(circle_where[cid], f"stop circle {cid!r} ({what}) is a stop of no line")

    for s, st in enumerate(file.stations):
        if st.lines is None:
            continue
        for k, letter in enumerate(st.lines):
            if letter not in letters:
                fail(f"/stations/{s}/lines/{k}", f"unknown line letter {letter!r}; the board's lines are "
                                                 f"{' '.join(letters)}")
        served = {file.lines[i].letter for c in st.circles for i in on_line[circle_index[c.id]]}
        if set(st.lines) != served:
            fail(f"/stations/{s}/lines", f"station {st.name!r} lists lines {sorted(st.lines)} "
                                         f"but its circles are stops of {sorted(served)}")

    circles = tuple(Circle(i, cid, x, y, s, fields) for i, (cid, x, y, s, fields) in enumerate(raw_circles))
    stations = []
    for s, st in enumerate(file.stations):
        cs = tuple(circle_index[c.id] for c in st.circles)
        fields = tuple(sorted({f for c in cs for f in circles[c].fields}))
        lines = tuple(sorted({i for c in cs for i in on_line[c]}))
        stations.append(Station(s, st.id, st.name, st.name_ja, cs, fields, lines))
    lines = tuple(Line(i, ln.letter, ln.name, ln.colour, ln.shares, ln.disc_spaces, stops,
                       tuple(circles[c].station for c in stops), ln.vehicle, ln.vehicles)
                  for i, (ln, stops) in enumerate(raw_lines))

    n = cols * rows
    adjacent = []
    for f in range(n):
        col, row = f % cols, f // cols
        nb = []
        for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            c2, r2 = col + dc, row + dr
            if 0 <= c2 < cols and 0 <= r2 < rows and r2 * cols + c2 not in blocked:
                nb.append(r2 * cols + c2)
        adjacent.append(tuple(nb))
    touching: list[list[int]] = [[] for _ in range(n)]
    for st in stations:
        for f in st.fields:
            touching[f].append(st.index)
    return Board(
        name=file.name, approximate=file.approximate, cols=cols, rows=rows,
        blocked=blocked, start_fields=start_fields, lines=lines, stations=tuple(stations), circles=circles,
        line_index={ln.letter: ln.index for ln in lines}, station_index={st.id: st.index for st in stations},
        adjacent=tuple(adjacent), field_stations=tuple(tuple(t) for t in touching),
        station_fieldsets=tuple(frozenset(st.fields) for st in stations), data=data,
    )


_GEOMETRY: dict[int, dict] = {}


def _geometry(board: Board) -> dict:
    cached = _GEOMETRY.get(id(board))
    if cached is not None and cached["_board"] is board:
        return cached["geometry"]
    area = board.data["start_area"]
    geometry = {
        "name": board.name, "approximate": board.approximate,
        "grid": {"cols": board.cols, "rows": board.rows,
                 "blocked": [list(board.col_row(f)) for f in sorted(board.blocked)]},
        "start_area": dict(area),
        "lines": [{"letter": ln.letter, "name": ln.name, "colour": ln.colour, "shares": ln.shares,
                   "disc_spaces": ln.disc_spaces, "vehicle": ln.vehicle, "vehicles": ln.vehicles,
                   "stops": [{"label": ln.label(k), "circle": board.circles[c].id} for k, c in enumerate(ln.stops)]}
                  for ln in board.lines],
        "stations": [{"id": st.id, "name": st.name, "name_ja": st.name_ja,
                      "lines": [board.lines[i].letter for i in st.lines],
                      "circles": [{"id": board.circles[c].id, "x": board.circles[c].x, "y": board.circles[c].y,
                                   "fields": [list(board.col_row(f)) for f in board.circles[c].fields]}
                                  for c in st.circles]}
                     for st in board.stations],
        # Stops that are no station (OSAKA METRO's trams and buses): drawn as small circles.
        "small_stops": [{"id": c.id, "x": c.x, "y": c.y, "fields": [list(board.col_row(f)) for f in c.fields]}
                        for c in board.circles if c.station < 0],
    }
    _GEOMETRY[id(board)] = {"_board": board, "geometry": geometry}
    return geometry
