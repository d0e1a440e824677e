"""The bottle-taking square's 6x6 grid: its lines of three, who a line's majority belongs to, the
slide that closes the gaps, and what a player's drinks score.

Rows are counted from the far edge (row 0) to the edge where the empty crate stands (the last
row); columns from the left. The slide pushes the drinks towards the crate, then to the left.

>>> g = ((None, "red-tall_can"), ("blue-short_can", None))
>>> slid(g, "rows")
((None, None), ('blue-short_can', 'red-tall_can'))
>>> points(["red-tallest_bottle", "blue-short_can", "mint-stubby_can"], {"red"})
1
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ...drinks import COLOURS, SHAPES, Shape
from .common import traits

SIZE = 6
Grid = tuple[tuple[str | None, ...], ...]

# What a drink taken is worth (rule book 002, the bottle-taking square, SPIELZIEL): bottles and the
# stubby can score for their colour's owner and make up for the cans' minus points otherwise.
PLUS_SHAPES = frozenset({Shape.STUBBY_CAN.value, Shape.SQUARE_BOTTLE.value, Shape.NOT_TALLEST_BOTTLE.value,
                         Shape.TALLEST_BOTTLE.value})
MINUS = {Shape.SHORT_CAN.value: 1, Shape.TALL_CAN.value: 2}
COLOUR_IDS = tuple(c.value for c in COLOURS)
SHAPE_IDS = tuple(s.value for s in SHAPES)


def empty(size: int = SIZE) -> Grid:
    return ((None,) * size,) * size


def lines(grid: Grid) -> list[tuple[tuple[int, int], ...]]:
    """Every line of three cells next to each other across or down, all three holding a drink."""
    n = len(grid)
    found = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0)):
                cells = tuple((r + k * dr, c + k * dc) for k in range(3))
                if all(0 <= y < n and 0 <= x < n and grid[y][x] for y, x in cells):
                    found.append(cells)
    return found


def where(grid: Grid) -> dict[str, tuple[int, int]]:
    """Each drink in the grid and its cell."""
    return {d: (r, c) for r, row in enumerate(grid) for c, d in enumerate(row) if d}


def in_a_line(cells: Sequence[tuple[int, int]]) -> bool:
    """Whether three cells lie next to each other in one row or one column (in any order)."""
    rows, cols = sorted(r for r, _ in cells), sorted(c for _, c in cells)
    if len(set(rows)) == 1:
        return cols == list(range(cols[0], cols[0] + 3))
    if len(set(cols)) == 1:
        return rows == list(range(rows[0], rows[0] + 3))
    return False


def majority(drinks: Iterable[str], owner: Mapping[str, int], by: str) -> tuple[int | None, str | None]:
    """Who three drinks go to: (the owning seat, None), or (None, why not): ``"neutral"`` where a
    neutral colour has the majority, ``"none"`` where nobody has two of the three. ``by``:
    ``"colour"`` (two of one colour) or ``"player"`` (two of one player's colours)."""
    colours = [traits(d)[0] for d in drinks]
    counts: dict[str, int] = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    best = max(counts, key=lambda c: (counts[c], -COLOUR_IDS.index(c)))
    if counts[best] >= 2 and best in owner and by == "colour":
        return owner[best], None
    if by == "player":
        seats: dict[int, int] = {}
        for c in colours:
            if c in owner:
                seats[owner[c]] = seats.get(owner[c], 0) + 1
        winners = [p for p, k in seats.items() if k >= 2]
        if winners:
            return winners[0], None
    return None, ("neutral" if counts[best] >= 2 else "none")


def slid(grid: Grid, how: str) -> Grid:
    """The grid after the slide: every column pushed towards the crate (the last row), then
    ``"rows"``: every row pushed to the left; ``"columns"``: empty columns closed from the left."""
    n = len(grid)
    cols = []
    for c in range(n):
        stack = [grid[r][c] for r in range(n) if grid[r][c]]
        cols.append([None] * (n - len(stack)) + stack)
    if how == "columns":
        kept = [col for col in cols if any(col)]
        cols = kept + [[None] * n for _ in range(n - len(kept))]
        return tuple(tuple(cols[c][r] for c in range(n)) for r in range(n))
    rows = []
    for r in range(n):
        row = [cols[c][r] for c in range(n) if cols[c][r]]
        rows.append(tuple(row + [None] * (n - len(row))))
    return tuple(rows)


def points(taken: Iterable[str], own: set[str] | frozenset[str]) -> int:
    """A player's score from the drinks given to them: +1 per bottle or stubby can of their own
    colours; the short can -1 and the tall can -2, made up by bottles and stubby cans of other
    colours, one point each (what is not made up counts against them)."""
    plus = other = minus = 0
    for d in taken:
        colour, shape = traits(d)
        if shape in PLUS_SHAPES:
            if colour in own:
                plus += 1
            else:
                other += 1
        else:
            minus += MINUS[shape]
    return plus - max(0, minus - other)
