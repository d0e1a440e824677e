"""Where everything lies on the TOKYO METRO board sheet, in millimetres: the board camera's map.

The board file (``rules/metro/data/tokyo_board.json``) carries a ``layout`` section written by
``build_layout.py``: the sheet's size, the grid, the four printed ArUco markers beside the
corners, and the place of every piece: the meeple of each field, the pyramid of each station,
the train of each line at each stop, the line-value marker of each line on the revenue track,
the rider places beside it, and the drink of each station (METRO DRINKS). ``vision`` reads the board by these places, ``sim`` draws it
from them, and a calibration (``companion calibrate board``) moves them to where the printed
board has them (:meth:`BoardLayout.mapped`). Shared by vision, sim and table, so it imports none
of them, nor the rules: it reads the board file as data.

>>> layout = BoardLayout.default()
>>> layout.sheet
(967.0, 540.0)
>>> layout.spot("station:otemachi").kind
'pyramid'
>>> layout.value_at(layout.lane_y(1400))
1400
>>> layout.spot("drink:otemachi").kind
'drink'
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

BOARD_FILE = Path(__file__).resolve().parent / "rules" / "metro" / "data" / "tokyo_board.json"

Point = tuple[float, float]
MM = Field(ge=-200.0, le=5000.0)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GridData(_Strict):
    x: float = MM
    y: float = MM
    field: float = Field(gt=5.0, le=200.0)


class MarkerData(_Strict):
    dictionary: str = "DICT_4X4_50"
    size: float = Field(gt=5.0, le=300.0)
    ids: list[int] = Field(min_length=4, max_length=4)
    at: list[tuple[float, float]] = Field(min_length=4, max_length=4)   # top-left corners: TL, TR, BR, BL


class TrackData(_Strict):
    step: int = Field(gt=0, le=10_000)
    top: int = Field(gt=0, le=1_000_000)
    lanes: dict[str, float]                      # line letter -> the lane's x
    values: list[float] = Field(min_length=2, max_length=2001)   # y of value 0, step, 2 step, ...
    riders: list[float] = Field(min_length=1, max_length=8)      # y of the rider places of every lane
    lane_width: float = Field(gt=2.0, le=100.0)


class LayoutData(_Strict):
    """The ``layout`` section of a board file (see build_layout.py for how it is made)."""

    units: str = "mm"
    sheet: tuple[float, float]
    grid: GridData
    markers: MarkerData
    pieces: dict[str, float]                     # base radius (mm) of meeple, pyramid, train
    meeples: list[tuple[float, float]]           # per field (row by row): where its meeple stands
    pyramids: dict[str, tuple[float, float]]     # per station id: where its pyramid stands
    drinks: dict[str, tuple[float, float]] = {}  # per station id: where a drink built there stands (METRO DRINKS)
    stops: dict[str, list[tuple[float, float]]]  # per line letter: where its train stands at each stop
    track: TrackData
    clearance: dict[str, float] = {}


class LayoutError(ValueError):
    """A board file whose layout is missing or does not fit its board."""


@dataclass(frozen=True)
class Spot:
    """One place a piece can stand: ``kind`` is meeple, pyramid, train, rider or drink; ``r`` its base radius."""

    id: str
    kind: str
    x: float
    y: float
    r: float


@dataclass(frozen=True)
class DrawnLine:
    letter: str
    name: str
    colour: str
    circles: tuple[Point, ...]      # its stops' circles, in order


@dataclass(frozen=True)
class DrawnStation:
    id: str
    name: str
    name_ja: str
    circles: tuple[Point, ...]


@dataclass(frozen=True, eq=False)
class BoardLayout:
    """The board in millimetres (x right, y down from the sheet's top-left corner)."""

    name: str
    sheet: Point
    cols: int
    rows: int
    grid_origin: Point
    field_mm: float
    marker_dictionary: str
    marker_size: float
    marker_ids: tuple[int, ...]
    marker_at: tuple[Point, ...]
    radius: dict[str, float]
    meeples: tuple[Point, ...]
    pyramids: dict[str, Point]
    stops: dict[str, tuple[Point, ...]]
    lanes: dict[str, float]
    values: tuple[float, ...]
    value_step: int
    riders: tuple[float, ...]
    lane_width: float
    lines: tuple[DrawnLine, ...]
    stations: tuple[DrawnStation, ...]
    start_area: tuple[int, int, int, int]       # col, row, cols, rows
    drinks: dict[str, Point] = field(default_factory=dict)   # station id -> its drink's place (METRO DRINKS)
    data: dict = field(repr=False, default_factory=dict)   # the board file this came from

    # --- loading ----------------------------------------------------------------------------

    @classmethod
    def default(cls) -> "BoardLayout":
        return _default()

    @classmethod
    def from_file(cls, path: str | Path) -> "BoardLayout":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LayoutError(f"{path}: cannot read the board file: {exc}") from exc
        return cls.from_board(data, source=str(path))

    @classmethod
    def from_board(cls, board: Any, source: str = "board") -> "BoardLayout":
        """The layout of a board file's data (its ``layout`` section, checked against its stations
        and lines)."""
        if not isinstance(board, dict) or not isinstance(board.get("layout"), dict):
            raise LayoutError(f"{source}: the board file has no 'layout' section: run build_layout.py on it "
                              "or calibrate the board (companion calibrate board)")
        try:
            lay = LayoutData.model_validate(board["layout"])
            grid, lines, stations = board["grid"], board["lines"], board["stations"]
            cols, rows = int(grid["cols"]), int(grid["rows"])
            circles = {c["id"]: (float(c["x"]), float(c["y"]))
                       for c in [c for s in stations for c in s["circles"]] + board.get("small_stops", [])}
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "/".join(str(p) for p in first["loc"])
            raise LayoutError(f"{source}: /layout/{where}: {first['msg']}") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutError(f"{source}: the board file is not a TOKYO METRO board ({exc!r} missing or wrong)") from exc
        if len(lay.meeples) != cols * rows:
            raise LayoutError(f"{source}: /layout/meeples: {len(lay.meeples)} places for {cols * rows} fields")
        missing = [s["id"] for s in stations if s["id"] not in lay.pyramids]
        if missing:
            raise LayoutError(f"{source}: /layout/pyramids: no place for station(s) {', '.join(missing[:5])}")
        for line in lines:
            letter = line["letter"]
            if len(lay.stops.get(letter, ())) != len(line["stops"]):
                raise LayoutError(f"{source}: /layout/stops/{letter}: needs one place per stop ({len(line['stops'])})")
            if letter not in lay.track.lanes:
                raise LayoutError(f"{source}: /layout/track/lanes: no lane for line {letter}")
        g, f = lay.grid, lay.grid.field

        def mm(p):
            return (g.x + p[0] * f, g.y + p[1] * f)

        area = board.get("start_area") or {"col": 0, "row": 0, "cols": cols, "rows": rows}
        return cls(
            name=str(board.get("name", "board")), sheet=tuple(lay.sheet), cols=cols, rows=rows,
            grid_origin=(g.x, g.y), field_mm=f, marker_dictionary=lay.markers.dictionary,
            marker_size=lay.markers.size, marker_ids=tuple(lay.markers.ids),
            marker_at=tuple(tuple(p) for p in lay.markers.at), radius=dict(lay.pieces),
            meeples=tuple(tuple(p) for p in lay.meeples),
            pyramids={k: tuple(v) for k, v in lay.pyramids.items()},
            stops={k: tuple(tuple(p) for p in v) for k, v in lay.stops.items()},
            lanes=dict(lay.track.lanes), values=tuple(lay.track.values), value_step=lay.track.step,
            riders=tuple(lay.track.riders), lane_width=lay.track.lane_width,
            lines=tuple(DrawnLine(l["letter"], l.get("name", l["letter"]), l.get("colour", "#888888"),
                                  tuple(mm(circles[c]) for c in l["stops"])) for l in lines),
            stations=tuple(DrawnStation(s["id"], s.get("name", s["id"]), s.get("name_ja", ""),
                                        tuple(mm((c["x"], c["y"])) for c in s["circles"])) for s in stations),
            start_area=(int(area["col"]), int(area["row"]), int(area["cols"]), int(area["rows"])),
            drinks={k: tuple(v) for k, v in lay.drinks.items() if k in lay.pyramids},
            data=board,
        )

    # --- places -----------------------------------------------------------------------------

    @property
    def line_letters(self) -> tuple[str, ...]:
        return tuple(l.letter for l in self.lines)

    def field_rect(self, f: int) -> tuple[float, float, float, float]:
        """x, y, width, height of field ``f`` (row by row from the top-left)."""
        col, row = f % self.cols, f // self.cols
        return (self.grid_origin[0] + col * self.field_mm, self.grid_origin[1] + row * self.field_mm,
                self.field_mm, self.field_mm)

    def lane_y(self, value: int) -> float:
        """The y of a value's space on the revenue track."""
        i = max(0, min(len(self.values) - 1, round(value / self.value_step)))
        return self.values[i]

    def value_at(self, y: float) -> int:
        """The value whose space is nearest to ``y``."""
        i = int(np.argmin(np.abs(np.asarray(self.values) - y)))
        return i * self.value_step

    def rider_places(self, letter: str) -> tuple[Point, ...]:
        x = self.lanes[letter]
        return tuple((x, y) for y in self.riders)

    def spots(self) -> Iterator[Spot]:
        """Every place a piece can stand, but the value markers (read along their lanes)."""
        r = self.radius
        for i, (x, y) in enumerate(self.meeples):
            yield Spot(f"field:{i}", "meeple", x, y, r.get("meeple", 7.0))
        for sid, (x, y) in self.pyramids.items():
            yield Spot(f"station:{sid}", "pyramid", x, y, r.get("pyramid", 6.5))
        for letter, places in self.stops.items():
            for k, (x, y) in enumerate(places):
                yield Spot(f"stop:{letter}:{k}", "train", x, y, r.get("train", 6.0))
        for letter in self.lanes:
            for k, (x, y) in enumerate(self.rider_places(letter)):
                yield Spot(f"ride:{letter}:{k}", "rider", x, y, r.get("meeple", 7.0))

    def drink_spots(self) -> Iterator[Spot]:
        """Where a drink built at each station stands (METRO DRINKS: ``drink:<station id>``, kind
        "drink"). Apart from :meth:`spots`: the place model reads those, the drink reader these."""
        r = self.radius.get("drink", 6.0)
        for sid, (x, y) in self.drinks.items():
            yield Spot(f"drink:{sid}", "drink", x, y, r)

    def spot(self, spot_id: str) -> Spot:
        for s in (*self.spots(), *self.drink_spots()):
            if s.id == spot_id:
                return s
        raise KeyError(spot_id)

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Each marker's four corners (TL, TR, BR, BL) in board millimetres."""
        s = self.marker_size
        return {mid: np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)
                for mid, (x, y) in zip(self.marker_ids, self.marker_at)}

    # --- a fitted board ---------------------------------------------------------------------

    def mapped(self, move: Callable[[np.ndarray], np.ndarray]) -> "BoardLayout":
        """The same board with every place moved by ``move`` (an (n, 2) array of mm -> mm): how a
        calibration carries the approximate data onto the printed board. The sheet, the grid's
        field size and the markers stay (the markers are where the table laid them)."""

        def pts(points):
            if not points:
                return ()
            return tuple(tuple(map(float, p)) for p in move(np.asarray(points, np.float64).reshape(-1, 2)))

        stops = {k: pts(v) for k, v in self.stops.items()}
        pyr_ids = list(self.pyramids)
        pyr = pts([self.pyramids[k] for k in pyr_ids])
        drink_ids = list(self.drinks)
        drinks = pts([self.drinks[k] for k in drink_ids])
        lane_ids = list(self.lanes)
        # The track moves as a whole: its lanes' x at mid height, its values' y at the mid lane.
        mid_x = float(np.mean(list(self.lanes.values())))
        mid_y = float(np.mean(self.values))
        lanes = pts([(self.lanes[k], mid_y) for k in lane_ids])
        values = pts([(mid_x, y) for y in self.values])
        riders = pts([(mid_x, y) for y in self.riders])
        return replace(
            self, meeples=pts(self.meeples), pyramids=dict(zip(pyr_ids, pyr)), stops=stops,
            drinks=dict(zip(drink_ids, drinks)),
            lanes={k: p[0] for k, p in zip(lane_ids, lanes)}, values=tuple(p[1] for p in values),
            riders=tuple(p[1] for p in riders),
            lines=tuple(replace(l, circles=pts(l.circles)) for l in self.lines),
            stations=tuple(replace(s, circles=pts(s.circles)) for s in self.stations),
        )

    def to_data(self) -> dict:
        """The ``layout`` section for this (possibly fitted) board."""
        return {
            "units": "mm", "sheet": list(self.sheet),
            "grid": {"x": self.grid_origin[0], "y": self.grid_origin[1], "field": self.field_mm},
            "markers": {"dictionary": self.marker_dictionary, "size": self.marker_size,
                        "ids": list(self.marker_ids), "at": [list(p) for p in self.marker_at]},
            "pieces": dict(self.radius),
            "meeples": [_r(p) for p in self.meeples],
            "pyramids": {k: _r(p) for k, p in self.pyramids.items()},
            "drinks": {k: _r(p) for k, p in self.drinks.items()},
            "stops": {k: [_r(p) for p in v] for k, v in self.stops.items()},
            "track": {"step": self.value_step, "top": self.value_step * (len(self.values) - 1),
                      "lanes": {k: round(v, 2) for k, v in self.lanes.items()},
                      "values": [round(v, 2) for v in self.values], "riders": [round(v, 2) for v in self.riders],
                      "lane_width": self.lane_width},
        }


def _r(p: Point) -> list[float]:
    return [round(float(p[0]), 2), round(float(p[1]), 2)]


@lru_cache(maxsize=1)
def _default() -> BoardLayout:
    return BoardLayout.from_file(BOARD_FILE)
