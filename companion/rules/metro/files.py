"""The TOKYO METRO data files as pydantic models: a board, action cards, share cards, the revenue track.

Each file carries its ``format`` and ``version``; numbers are whole numbers (a circle's position
may be fractional), texts are text, and nothing unknown is taken. A file that does not fit is
refused at its first fault with the place of the fault as a JSON pointer (:class:`DataError`),
in words a table can act on. What a model cannot say (ids used twice, a stop naming no circle)
the loaders in ``board.py`` and ``cards.py`` check after the model, with the same kind of error.
``BoardFile.model_json_schema()`` (and the others') give the JSON Schema of a file.

>>> check(TrackFile, {"format": "tokyo-table-companion/metro-revenue-track", "version": 1}, "x.json")
Traceback (most recent call last):
...
companion.rules.metro.files.DataError: x.json: /: 'step' is required
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

M = TypeVar("M", bound="FileModel")


class DataError(ValueError):
    """A data file that does not validate: ``source`` (file), ``where`` (JSON pointer), ``reason``."""

    def __init__(self, source: str, where: str, reason: str):
        super().__init__(f"{source}: {where or '/'}: {reason}")
        self.source, self.where, self.reason = source, where or "/", reason


def pointer(*parts: Any) -> str:
    return "".join(f"/{p}" for p in parts)


class FileModel(BaseModel):
    """A part of a data file: strict types, unknown fields refused by name."""

    model_config = ConfigDict(strict=True, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_fields_only(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name in data:
                if name not in cls.model_fields:
                    raise PydanticCustomError("unknown_field", "unknown field {field!r}; known: {known}",
                                              {"field": name, "known": ", ".join(cls.model_fields)})
        return data


def Items(item: Any, least: int = 0, most: int | None = None, fault: str = "") -> Any:  # noqa: N802 - a type
    """A list of ``item`` with ``least`` to ``most`` items; ``fault`` says in the file's own terms
    what a wrong count means."""
    def counted(items: list) -> list:
        wrong = (f"needs at least {least} item(s), has {len(items)}" if len(items) < least else
                 f"allows at most {most} item(s), has {len(items)}" if most is not None and len(items) > most else "")
        if wrong:
            raise ValueError(f"{wrong}: {fault}" if fault else wrong)
        return items
    return Annotated[list[item], AfterValidator(counted)]


Natural = Annotated[int, Field(ge=0)]
Named = Annotated[str, Field(min_length=1)]
FieldAt = Items(Natural, 2, 2)   # [col, row] of a field of the grid


# --- the board ------------------------------------------------------------------------------------

class Grid(FileModel):
    cols: Annotated[int, Field(ge=1, le=200)]
    rows: Annotated[int, Field(ge=1, le=200)]
    blocked: list[FieldAt] = []                # fields a meeple may not enter


class StartArea(FileModel):
    """The marked rectangle of fields where meeples are placed in round 1."""

    col: Natural
    row: Natural
    cols: Annotated[int, Field(ge=1)]
    rows: Annotated[int, Field(ge=1)]


Stops = Items(Named, 2, fault="a line needs at least 2 stops (its two terminals)")


class LineData(FileModel):
    letter: Annotated[str, Field(pattern=r"^[A-Z][A-Za-z]?$")]
    name: Named
    colour: Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$")]
    shares: Annotated[int, Field(ge=1, le=4)]
    disc_spaces: Annotated[int, Field(ge=0, le=10)]   # beside the line on the track: tempo tokens and speculations
    # Circle ids in order: the first is stop 1 (where the train is placed); first and last are the terminals.
    stops: Stops
    source_numbers: list[int] = []                    # the real station numbers (information only)
    # What runs on it (OSAKA METRO adds trams and buses; the view draws them) and how many: 2 means
    # one vehicle starts at each terminal and both move together (OSAKA METRO's lines P and bus).
    vehicle: Literal["train", "tram", "bus"] = "train"
    vehicles: Literal[1, 2] = 1


class CircleData(FileModel):
    id: Named
    x: Annotated[float, Field(ge=0)]                  # in field units; (0, 0) is the grid's top-left corner
    y: Annotated[float, Field(ge=0)]
    fields: list[FieldAt]                             # the fields that touch this circle


Circles = Items(CircleData, 1, 3, fault="a station has 1 to 3 stop circles")


class StationData(FileModel):
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: Named
    name_ja: str = ""
    lines: list[str] | None = None                    # the lines serving it (checked against the stops)
    circles: Circles


class BoardFile(FileModel):
    """A TOKYO METRO board: lines in train order (the revenue track's), stations of 1 to 3 stop
    circles, the grid of fields, and the start area. The loader also checks every circle is on a
    line and touches a field, no line visits a circle twice, and ids are unique."""

    format: Literal["tokyo-table-companion/metro-board"]
    version: Literal[1]
    name: Named
    approximate: bool = False                         # not the printed board's geometry: the dashboard says so
    note: str = ""
    grid: Grid
    start_area: StartArea
    lines: Items(LineData, 1)
    stations: Items(StationData, 1)
    # Stop circles that are no station (OSAKA METRO's small stops between a tram's or bus's two
    # terminals): trains stop, riders board and get off there, but no pyramid is built and nothing
    # is paid. A line's terminals are always stations.
    small_stops: Items(CircleData, 0, 200) = []
    # Where fields, stations, stops and the revenue track lie on the sheet, in millimetres, for the
    # board camera (companion/board_layout.py checks and reads it; the engine does not).
    layout: dict[str, Any] | None = None


# --- cards and the track --------------------------------------------------------------------------

ActionKind = Literal["move", "station", "station_swap", "invest", "start", "tempo", "bicycle", "discount",
                     "bid_bonus", "loan", "repay", "speculate", "action_disc", "card",
                     # OSAKA METRO's cards: selling a share, copying an action taken this round,
                     # investing by giving up an action disc instead of yen.
                     "sell", "copy", "invest_disc"]
CardId = Annotated[str, Field(pattern=r"^[A-Za-z0-9]+$")]


class ActionData(FileModel):
    kind: ActionKind
    spaces: Annotated[int, Field(ge=1, le=3)]
    amount: Natural | None = None                     # what it means depends on the kind (cards.ACTION_KINDS)


class CardData(FileModel):
    id: CardId
    dots: Annotated[int, Field(ge=1, le=3)]           # its place in the deck: 1-dot cards are dealt first
    actions: Items(ActionData, 1, 2)


class CardSetData(FileModel):
    id: CardId
    colours: Items(str, 1, 2)                         # the line letters the set is named by
    cards: Items(CardData, 1)


class DeckFile(FileModel):
    """Sets of action cards, one set per card column. The loader checks the colours are lines of
    the board and that an amount is given exactly where the kind needs one."""

    format: Literal["tokyo-table-companion/metro-action-cards"]
    version: Literal[1]
    note: str = ""
    sets: Items(CardSetData, 1)


class ShareCard(FileModel):
    line: str
    number: Annotated[int, Field(ge=1, le=4)]         # bought in order, #1 first
    surcharge: Annotated[int, Field(ge=0, multiple_of=100)]   # on top of the invest action's cost


class StockFile(FileModel):
    """One card per share; the loader checks every line of the board has cards 1 to its shares."""

    format: Literal["tokyo-table-companion/metro-stock-cards"]
    version: Literal[1]
    note: str = ""
    cards: Items(ShareCard, 1)


class TrackFile(FileModel):
    """One row ``[value, high, low]`` per value from 0 to ``top`` in steps of ``step``."""

    format: Literal["tokyo-table-companion/metro-revenue-track"]
    version: Literal[1]
    note: str = ""
    step: Annotated[int, Field(ge=1)]
    top: Annotated[int, Field(ge=1)]
    rows: Items(Items(Natural, 3, 3), 2)


# --- reading a file -------------------------------------------------------------------------------

def check(model: type[M], data: Any, source: str) -> M:
    """``data`` as ``model``; DataError at the first place where it does not fit."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise DataError(source, *_fault(exc.errors()[0])) from None


def _fault(error: Any) -> tuple[str, str]:
    """(where, reason) of a pydantic error, in the data's own terms."""
    loc, kind, ctx, value = error["loc"], error["type"], error.get("ctx") or {}, error.get("input")
    where = pointer(*loc)
    if kind == "missing":
        return pointer(*loc[:-1]), f"{loc[-1]!r} is required"
    if kind == "unknown_field":
        # (pydantic fills a custom error's {slots} but not {slot!r}: the words are made here)
        return pointer(*loc, ctx["field"]), f"unknown field {ctx['field']!r}; known: {ctx['known']}"
    expected = {"int_type": "integer", "float_type": "number", "string_type": "string", "bool_type": "boolean",
                "list_type": "array", "model_type": "object", "dict_type": "object"}.get(kind)
    if expected:
        return where, f"expected {expected}, found {_describe(value)}"
    reasons = {
        "literal_error": lambda: f"{value!r} is not one of {ctx.get('expected')}",
        "greater_than_equal": lambda: f"{value} is below the minimum {ctx.get('ge')}",
        "less_than_equal": lambda: f"{value} is above the maximum {ctx.get('le')}",
        "multiple_of": lambda: f"{value} is not a multiple of {ctx.get('multiple_of')}",
        "string_pattern_mismatch": lambda: f"{value!r} does not match the pattern {ctx.get('pattern')}",
        "string_too_short": lambda: f"{value!r} is shorter than {ctx.get('min_length')} character(s)",
        "value_error": lambda: error["msg"].removeprefix("Value error, "),
    }
    return where, reasons[kind]() if kind in reasons else error["msg"]


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {value}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return f"text {value!r}"
    return "a list" if isinstance(value, list) else "an object"
