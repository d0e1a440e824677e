"""GENMAICHA's recipes: the 3x3 grid of stock cards, its six lines (three rows, three columns),
the Matcha-iri gaps between two cards of a column, and whether a set of drinks brews a set of
recipes (each drink counts once as its colour and once as its shape).

>>> grid = ("red", "blue", "short_can", "white", "tall_can", "mint", "black", "square_bottle", "purple")
>>> line_cards(grid, "row0"), line_cards(grid, "col1")
(('red', 'blue', 'short_can'), ('blue', 'tall_can', 'square_bottle'))
>>> covers(["red", "blue", "short_can"], ["red-short_can", "blue-tall_can"])
True
>>> covers(["red", "red"], ["red-short_can"])   # one drink is not two red ingredients
False
"""
from __future__ import annotations

from itertools import combinations, product
from typing import Iterable, Sequence

from .common import sort_drinks, traits

LINES = ("row0", "row1", "row2", "col0", "col1", "col2")   # row0: the top row; col0: the left column
GAPS = ("c0g0", "c0g1", "c1g0", "c1g1", "c2g0", "c2g1")    # column c, between rows g and g+1


def line_cells(line: str) -> tuple[int, int, int]:
    """The grid positions (row * 3 + column) of a line."""
    k = int(line[3])
    return (k * 3, k * 3 + 1, k * 3 + 2) if line.startswith("row") else (k, k + 3, k + 6)


def line_cards(grid: Sequence[str], line: str) -> tuple[str, ...]:
    return tuple(grid[i] for i in line_cells(line))


def gap_cells(gap: str) -> tuple[int, int]:
    """The two grid positions a Matcha-iri gap lies between (upper, lower)."""
    c, g = int(gap[1]), int(gap[3])
    return g * 3 + c, (g + 1) * 3 + c


def matcha_card(grid: Sequence[str], gap: str, lines: Iterable[str]) -> str | None:
    """The extra card a gap adds to a brewed row beside it, or None when exactly one of the two
    rows beside the gap is not among ``lines``."""
    g = int(gap[3])
    upper, lower = gap_cells(gap)
    rows = {f"row{g}", f"row{g + 1}"} & set(lines)
    if len(rows) != 1:
        return None
    return grid[lower] if rows == {f"row{g}"} else grid[upper]


def covers(needs: Sequence[str], drinks: Sequence[str]) -> bool:
    """Whether ``drinks`` fill every needed ingredient (a card id, listed once per use) with each
    drink used at least once, and for each of its two traits at most once."""
    return pick_cover(needs, drinks) is not None


def pick_cover(needs: Sequence[str], drinks: Sequence[str]) -> dict[str, tuple[str, ...]] | None:
    """Which drinks fill each needed card (a drink per use), every drink used; None if none do."""
    want: dict[str, int] = {}
    for c in needs:
        want[c] = want.get(c, 0) + 1
    options = []
    for card, k in want.items():
        having = [d for d in drinks if card in traits(d)]
        if len(having) < k:
            return None
        options.append([(card, combo) for combo in combinations(having, k)])
    for choice in product(*options):
        used = {d for _, combo in choice for d in combo}
        if used == set(drinks):
            return dict(choice)
    return None


def smallest_cover(needs: Sequence[str], held: Sequence[str]) -> tuple[str, ...] | None:
    """The fewest of ``held`` that fill ``needs`` (catalogue order decides among equals)."""
    held = sort_drinks(held)
    useful = [d for d in held if set(traits(d)) & set(needs)]
    for size in range(1, len(needs) + 1):
        for combo in combinations(useful, size):
            if covers(needs, combo):
                return combo
    return None
