"""What stands in the crates: the crates' fields as a game has them and as the crate camera reads them.

The yellow crates (two fields wide, three long; six make a 6x6 square) stand together on the
table in the crate games that play on a grid of crates (GRAPE SODA, YUZU, the exploding cans,
the bottle square). A *field* is one slot of one crate, named by its place on the crates' grid:
``(x, y)``, x to the right, y down. Everything here is about that grid as a whole:

- :class:`CrateLayout` is where the crates stand (each by its top-left field and its quarter
  turns) and which drink stands in which field: what a game's state has (the game's ``crates``
  hook in its declaration) and what the simulated crate camera is told to show.
- :class:`CrateReading` is one frame of the crate camera: each field it sees (a crate's slot) as
  a drink id or ``empty``, the fields read with doubt (some of them narrowed to a few drinks of
  one colour: its ``choices``), and the problems of the frame.
- The camera does not know which way round the game's grid lies, nor where on the table it
  stands: :func:`compare` matches the two up to a shift and a quarter turn of the whole grid.

Shared by vision, sim and table (like ``board_pieces.py``), so it imports none of them.

>>> game = CrateLayout(crates=((0, 0, 0), (2, 0, 0)), drinks={(0, 0): "red-tall_can"})
>>> sorted(game.fields())[:2], game.fields()[(0, 0)], game.fields()[(1, 0)]
([(0, 0), (0, 1)], 'red-tall_can', 'empty')
>>> seen = {(y, 3 - x): v for (x, y), v in game.fields().items()}   # the same grid, turned
>>> compare(game.fields(), seen).differences
()
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .drinks import DRINK_IDS

EMPTY = "empty"                # a crate's slot with nothing in it
WIDTH, LENGTH = 2, 3           # a crate's fields across and down, unturned
MAX_CRATES = 12                # crates on the table at most (the game has six; a second box, twelve)
MAX_FIELDS = MAX_CRATES * WIDTH * LENGTH
MAX_SPAN = 80                  # fields from one end of the grid to the other, at most
MAX_CHOICES = 6                # drinks a field read with doubt may be narrowed to (one colour's shapes)
KEY = re.compile(r"^(\d{1,2}),(\d{1,2})$")
CODES = ("no_crates", "unclear", "hand", "not_calibrated", "camera_error", "too_many")

Pos = tuple[int, int]
Place = tuple[int, int, int]   # a crate's top-left field x, y and its quarter turns clockwise (0-3)


def crate_fields(place: Place) -> list[Pos]:
    """The fields of a crate's slots 0 to 5 (row by row unturned: 0 1 / 2 3 / 4 5), in slot order,
    for a crate at ``(x, y)`` turned ``turn`` quarter turns clockwise (YUZU's convention,
    ``rules/games/yuzu_crates.py``).

    >>> crate_fields((0, 0, 1))
    [(2, 0), (2, 1), (1, 0), (1, 1), (0, 0), (0, 1)]
    """
    x, y, turn = place
    found = []
    for s in range(WIDTH * LENGTH):
        c, r, w, h = s % WIDTH, s // WIDTH, WIDTH, LENGTH
        for _ in range(turn % 4):       # a quarter turn clockwise: (c, r) in w x h -> (h-1-r, c) in h x w
            c, r, w, h = h - 1 - r, c, h, w
        found.append((x + c, y + r))
    return found


@dataclass(frozen=True)
class CrateLayout:
    """Where the crates stand and what stands in them. ``crates``: each crate's place
    ``(x, y, turn)``; ``drinks``: field -> drink id (a field not named is empty). The coordinates
    are the game's own (any origin): :meth:`fields` and :func:`compare` do not depend on it."""

    crates: tuple[Place, ...]
    drinks: Mapping[Pos, str]

    def fields(self) -> dict[Pos, str]:
        """Every field of every crate -> its drink id or ``EMPTY``, shifted so that the smallest
        x and y are 0."""
        return normalized({f: self.drinks.get(f, EMPTY) for place in self.crates for f in crate_fields(place)})

    def footprints(self) -> list[tuple[int, int, int, int]]:
        """Each crate's rectangle x0, y0, x1, y1 (exclusive), in the same shifted coordinates."""
        cells = [f for place in self.crates for f in crate_fields(place)]
        if not cells:
            return []
        ox, oy = min(x for x, _ in cells), min(y for _, y in cells)
        out = []
        for place in self.crates:
            fs = crate_fields(place)
            xs, ys = [x for x, _ in fs], [y for _, y in fs]
            out.append((min(xs) - ox, min(ys) - oy, max(xs) - ox + 1, max(ys) - oy + 1))
        return out


def normalized(fields: Mapping[Pos, str]) -> dict[Pos, str]:
    """The same fields shifted so that the smallest x and y are 0."""
    if not fields:
        return {}
    ox, oy = min(x for x, _ in fields), min(y for _, y in fields)
    return {(x - ox, y - oy): v for (x, y), v in fields.items()}


def turned(fields: Mapping[Pos, str], quarters: int) -> dict[Pos, str]:
    """The grid turned ``quarters`` quarter turns clockwise (then shifted to 0, 0)."""
    out = dict(fields)
    for _ in range(quarters % 4):
        out = {(-y, x): v for (x, y), v in out.items()}
    return normalized(out)


def field_key(f: Pos) -> str:
    return f"{f[0]},{f[1]}"


def parse_key(key: str) -> Pos:
    m = KEY.match(key)
    if not m:
        raise ValueError(f"a field is named 'x,y' (two numbers 0 to 99), not {key!r}")
    return int(m.group(1)), int(m.group(2))


class CrateReading(BaseModel):
    """One frame of the crate camera. ``fields``: ``"x,y"`` -> drink id or ``empty`` for every
    crate slot seen, on the grid the camera found (shifted to 0, 0; its quarter turn against the
    game's grid unknown); ``unsure``: the fields whose reading is a guess (their value in
    ``fields`` is the likeliest); ``choices``: of those, the ones the camera narrowed surely to a
    few drinks (a colour sure, its shape in doubt: the drinks likeliest first, the likeliest the
    field's value); an unsure field without choices may hold anything; ``codes``: what kept the frame from being read whole (no crates
    seen, a hand over them, no calibration, the camera failing, more crates than a table has).
    A reading with codes or with no fields is not *usable*: nothing it shows is proposed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fields: dict[str, str] = Field(default_factory=dict, max_length=MAX_FIELDS)
    unsure: list[str] = Field(default_factory=list, max_length=MAX_FIELDS)
    choices: dict[str, list[str]] = Field(default_factory=dict, max_length=MAX_FIELDS)
    codes: list[str] = Field(default_factory=list, max_length=len(CODES))

    @field_validator("fields")
    @classmethod
    def _fields(cls, value: dict) -> dict:
        for k, v in value.items():
            parse_key(k)
            if v != EMPTY and v not in DRINK_IDS:
                raise ValueError(f"field {k}: a drink id (colour-shape, e.g. 'red-tall_can') or 'empty', not {v!r}")
        return value

    @field_validator("unsure")
    @classmethod
    def _unsure(cls, value: list) -> list:
        for k in value:
            parse_key(k)
        return value

    @field_validator("choices")
    @classmethod
    def _choices(cls, value: dict) -> dict:
        for k, names in value.items():
            parse_key(k)
            if not 1 <= len(names) <= MAX_CHOICES:
                raise ValueError(f"field {k}: choices name 1 to {MAX_CHOICES} drinks, not {len(names)}")
            bad = [n for n in names if n not in DRINK_IDS]
            if bad:
                raise ValueError(f"field {k}: choices are drink ids (colour-shape, e.g. 'red-tall_can'), not {bad[0]!r}")
        return value

    @model_validator(mode="after")
    def _choices_unsure(self) -> "CrateReading":
        for k, names in self.choices.items():
            if k not in self.unsure or self.fields.get(k) != names[0]:
                raise ValueError(f"field {k}: choices belong to a field read with doubt, its likeliest drink first")
        return self

    @field_validator("codes")
    @classmethod
    def _codes(cls, value: list) -> list:
        bad = [c for c in value if c not in CODES]
        if bad:
            raise ValueError(f"unknown problem code {bad[0]!r} (known: {', '.join(CODES)})")
        return value

    @property
    def usable(self) -> bool:
        return not self.codes and bool(self.fields)

    def grid(self) -> dict[Pos, str]:
        return {parse_key(k): v for k, v in self.fields.items()}

    def unsure_fields(self) -> set[Pos]:
        return {parse_key(k) for k in self.unsure}

    def choice_sets(self) -> dict[Pos, frozenset[str]]:
        """The fields read with doubt that are narrowed to a few drinks -> those drinks."""
        return {parse_key(k): frozenset(v) for k, v in self.choices.items()}

    @classmethod
    def of(cls, fields: Mapping[Pos, str], unsure: Iterable[Pos] = (), codes: Iterable[str] = (),
           choices: Mapping[Pos, Iterable[str]] | None = None) -> "CrateReading":
        """A reading from a grid (shifted to 0, 0 here)."""
        fields = dict(fields)
        if not fields:
            return cls(codes=list(codes))
        ox, oy = min(x for x, _ in fields), min(y for _, y in fields)
        return cls(fields={field_key((x - ox, y - oy)): v for (x, y), v in sorted(fields.items())},
                   unsure=sorted(field_key((x - ox, y - oy)) for x, y in unsure),
                   choices={field_key((x - ox, y - oy)): list(v) for (x, y), v in sorted((choices or {}).items())},
                   codes=list(codes))


@dataclass(frozen=True)
class FieldDifference:
    """One field where the game and the crates disagree, in the game's coordinates (shifted to 0, 0):
    ``game`` and ``seen`` are a drink id, ``empty``, or None (no crate there)."""

    field: Pos
    game: str | None
    seen: str | None

    def say(self) -> str:
        return f"field {field_key(self.field)}: game {self.game or 'no crate'}, crates {self.seen or 'no crate'}"


@dataclass(frozen=True)
class Compared:
    """The best match of a reading with the game's grid: the quarter turn and shift that bring the
    seen grid onto the game's (``quarters``, ``shift``) and the fields that still differ (fields
    read with doubt are not counted)."""

    quarters: int
    shift: Pos
    differences: tuple[FieldDifference, ...]


def doubts(seen: Mapping[Pos, str], unsure: Iterable[Pos] = (),
           choices: Mapping[Pos, Iterable[str]] | None = None) -> dict[Pos, tuple[str, "bool | frozenset[str]"]]:
    """Each seen field with its doubt: False (read surely), True (read with doubt: anything may
    stand there) or the few drinks it was narrowed to (``choices``, for fields read with doubt)."""
    unsure, choices = set(unsure), choices or {}
    return {f: (v, (frozenset(choices[f]) if f in choices else True) if f in unsure else False)
            for f, v in seen.items()}


def fits(mark: tuple[str, "bool | frozenset[str]"], game: str | None) -> bool:
    """Whether a seen field (its value and doubt, as :func:`doubts` marks it) may be the game's
    ``game`` there (a drink id, ``empty``, or None: no crate).

    >>> fits(("red-tall_can", frozenset({"red-tall_can", "red-short_can"})), "red-short_can")
    True
    >>> fits(("red-tall_can", frozenset({"red-tall_can", "red-short_can"})), "empty")
    False
    """
    value, doubt = mark
    if doubt is True:
        return True
    if doubt is False:
        return game == value
    return game in doubt


def compare(game: Mapping[Pos, str], seen: Mapping[Pos, str], unsure: Iterable[Pos] = (),
            quarters: int | None = None, choices: Mapping[Pos, Iterable[str]] | None = None) -> Compared:
    """Match what the camera saw with what the game has, up to a shift and a quarter turn of the
    whole grid: the turn and shift with the fewest differing fields (ties: fewer quarter turns,
    then the smaller shift), and those differences, in reading order. ``unsure`` fields (in the
    seen grid's coordinates) do not count as differences, unless ``choices`` narrows one to a few
    drinks and the game has another there. ``quarters``: the one quarter turn to
    try, when the table knows how the camera's grid lies against the game's (a symmetric grid,
    such as the empty 6x6 square, would otherwise match a drink in the opposite corner).

    >>> compare({(0, 0): "empty", (1, 0): "red-tall_can"}, {(0, 0): "empty", (1, 0): "empty"}).differences[0].say()
    'field 1,0: game red-tall_can, crates empty'
    >>> compare({(0, 0): "empty"}, {(0, 0): "red-tall_can"}, unsure=[(0, 0)]).differences
    ()
    >>> compare({(0, 0): "empty"}, {(0, 0): "red-tall_can"}, unsure=[(0, 0)],
    ...         choices={(0, 0): ["red-tall_can", "red-short_can"]}).differences[0].say()
    'field 0,0: game empty, crates red-tall_can'
    """
    game = normalized(game)
    best: Compared | None = None
    for q in (range(4) if quarters is None else (quarters % 4,)):
        # turn the seen grid (with its unsure fields) and shift it to 0, 0, then try the shifts
        # that put its fields over the game's (a move may add or take crates at either end)
        marked = doubts(seen, unsure, choices)
        for _ in range(q):
            marked = {(-y, x): m for (x, y), m in marked.items()}
        if marked:
            ox, oy = min(x for x, _ in marked), min(y for _, y in marked)
            marked = {(x - ox, y - oy): m for (x, y), m in marked.items()}
        shifts = _shifts(game, marked)
        for shift in shifts:
            diffs = _differences(game, marked, shift)
            if best is None or len(diffs) < len(best.differences):
                best = Compared(q, shift, diffs)
        if best is not None and not best.differences:
            break
    return best or Compared(0, (0, 0), ())


def _shifts(game: Mapping[Pos, str], marked: Mapping[Pos, tuple]) -> list[Pos]:
    """The shifts worth trying, smallest first: none, then the ones that bring the grids' corners
    (and a crate's width or length either way) together."""
    if not game or not marked:
        return [(0, 0)]
    gw, gh = max(x for x, _ in game) + 1, max(y for _, y in game) + 1
    sw, sh = max(x for x, _ in marked) + 1, max(y for _, y in marked) + 1
    xs = sorted({0, gw - sw} | {d for d in range(-LENGTH, LENGTH + 1)}, key=abs)
    ys = sorted({0, gh - sh} | {d for d in range(-LENGTH, LENGTH + 1)}, key=abs)
    return sorted({(dx, dy) for dx in xs for dy in ys}, key=lambda s: (abs(s[0]) + abs(s[1]), s))


def _differences(game: Mapping[Pos, str], marked: Mapping[Pos, tuple], shift: Pos) -> tuple[FieldDifference, ...]:
    seen = {(x + shift[0], y + shift[1]): m for (x, y), m in marked.items()}
    out = []
    for f in sorted(set(game) | set(seen), key=lambda p: (p[1], p[0])):
        s = seen.get(f)
        g = game.get(f)
        if s is None:
            if g is not None:
                out.append(FieldDifference(f, g, None))
        elif not fits(s, g):
            out.append(FieldDifference(f, g, s[0]))
    return tuple(out)
