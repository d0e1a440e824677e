"""YUZU's crates on the table: where each stands, which way it is turned, and the moves the
connectivity rules allow (the moves and the declaration are in yuzu.py).

A crate is two slots wide and three long, its slots numbered row by row as in PURA
(pura_crates.py): 0 1 / 2 3 / 4 5. On the table it stands at ``(x, y)`` (its top-left cell)
turned ``turn`` quarter turns clockwise (a move's ``quarters``) (0 or 2: upright, two wide; 1 or 3: lying, three wide).
The cells are the table's grid, one drink each; ``y`` grows downwards. Two crates touch where
they share a stretch of border; the group must stay in one piece while a crate is lifted, and a
crate is put down with one of its sides against a side of the same length of another crate:
``flush`` (the two sides cover each other exactly) or ``along`` (shifted along one another, at
least one cell touching).

>>> cells((0, 0, 0)), cells((0, 0, 1))[:2]
([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)], [(2, 0), (2, 1)])
>>> placements(START, 5, "flush")[:2]
((5, 0, -3, 0), (5, 2, -3, 0))
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .pura_crates import CRATES, SLOTS

Place = tuple[int, int, int]            # x, y, turn
WIDTH, LENGTH = 2, 3

# The start: the six crates upright side by side, three across and two down: a 6x6 square.
START: tuple[Place, ...] = tuple((WIDTH * (k % 3), LENGTH * (k // 3), 0) for k in range(CRATES))


def size(turn: int) -> tuple[int, int]:
    """Width and height on the table of a crate turned ``turn`` quarter turns."""
    return (WIDTH, LENGTH) if turn % 2 == 0 else (LENGTH, WIDTH)


def cells(place: Place) -> list[tuple[int, int]]:
    """The table cells of a crate's slots 0 to 5, in slot order."""
    x, y, turn = place
    found = []
    for s in range(SLOTS):
        c, r, w, h = s % WIDTH, s // WIDTH, WIDTH, LENGTH
        for _ in range(turn % 4):           # a quarter turn clockwise: (c, r) in w x h -> (h-1-r, c) in h x w
            c, r, w, h = h - 1 - r, c, h, w
        found.append((x + c, y + r))
    return found


def footprint(place: Place) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 (exclusive) of a crate's rectangle."""
    w, h = size(place[2])
    return place[0], place[1], place[0] + w, place[1] + h


def _overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return min(a1, b1) - max(a0, b0)


def touch(a: Place, b: Place) -> bool:
    """Whether two crates share a stretch of border (a corner alone is not enough)."""
    ax0, ay0, ax1, ay1 = footprint(a)
    bx0, by0, bx1, by1 = footprint(b)
    if ax1 == bx0 or bx1 == ax0:
        return _overlap(ay0, ay1, by0, by1) > 0
    if ay1 == by0 or by1 == ay0:
        return _overlap(ax0, ax1, bx0, bx1) > 0
    return False


def overlaps(a: Place, b: Place) -> bool:
    ax0, ay0, ax1, ay1 = footprint(a)
    bx0, by0, bx1, by1 = footprint(b)
    return _overlap(ax0, ax1, bx0, bx1) > 0 and _overlap(ay0, ay1, by0, by1) > 0


def sides_match(a: Place, b: Place, touching: str) -> bool:
    """Whether crate ``a`` stands with a side against a side of ``b`` of the same length."""
    ax0, ay0, ax1, ay1 = footprint(a)
    bx0, by0, bx1, by1 = footprint(b)
    if ax1 == bx0 or bx1 == ax0:                          # side by side: the upright sides touch
        same = ay1 - ay0 == by1 - by0
        return same and ((ay0, ay1) == (by0, by1) if touching == "flush" else _overlap(ay0, ay1, by0, by1) > 0)
    if ay1 == by0 or by1 == ay0:                          # one above the other
        same = ax1 - ax0 == bx1 - bx0
        return same and ((ax0, ax1) == (bx0, bx1) if touching == "flush" else _overlap(ax0, ax1, bx0, bx1) > 0)
    return False


def connected(places: Sequence[Place]) -> bool:
    """Whether the crates form one group, each reached from the first through crates that touch."""
    if not places:
        return True
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j, p in enumerate(places):
            if j not in seen and touch(places[i], p):
                seen.add(j)
                todo.append(j)
    return len(seen) == len(places)


@lru_cache(maxsize=1024)
def movable(places: tuple[Place, ...], crate: int) -> bool:
    """A crate may be lifted (and so turned) only when the others stay in one group."""
    return connected([p for k, p in enumerate(places) if k != crate])


def why_not(places: Sequence[Place], crate: int, to: Place, touching: str) -> str | None:
    """Why crate ``crate`` may not be put at ``to`` (None: it may)."""
    if not movable(places, crate):
        return f"crate {crate} holds the group together: lifting it would split the crates in two"
    if to == places[crate]:
        return "put the crate somewhere else or turn it: it must move"
    return _misfit([p for k, p in enumerate(places) if k != crate], to, touching)


def _misfit(others: Sequence[Place], to: Place, touching: str) -> str | None:
    """Why a lifted crate may not be put down at ``to`` beside the ``others`` (None: it may)."""
    if any(overlaps(to, p) for p in others):
        return "another crate already stands there"
    if not any(sides_match(to, p, touching) for p in others):
        return ("put the crate with a side against a side of the same length of another crate (long to long, "
                "short to short)" + (", exactly side on side" if touching == "flush" else ""))
    return None


@lru_cache(maxsize=1024)  # a pure function of plain tuples: the same table is listed again and again
def placements(places: tuple[Place, ...], crate: int, touching: str) -> tuple[tuple[int, int, int, int], ...]:
    """Every allowed move of ``crate``, as (crate, x, y, turn), in a stable order."""
    if not movable(places, crate):
        return ()
    others = [p for k, p in enumerate(places) if k != crate]
    found = set()
    for turn in range(4):
        w, h = size(turn)
        for k, o in enumerate(places):
            if k == crate:
                continue
            ox0, oy0, ox1, oy1 = footprint(o)
            spots = []
            if h == oy1 - oy0:
                shifts = [0] if touching == "flush" else range(-h + 1, h)
                spots += [(x, oy0 + d) for x in (ox0 - w, ox1) for d in shifts]
            if w == ox1 - ox0:
                shifts = [0] if touching == "flush" else range(-w + 1, w)
                spots += [(ox0 + d, y) for y in (oy0 - h, oy1) for d in shifts]
            for x, y in spots:
                if (x, y, turn) != places[crate] and _misfit(others, (x, y, turn), touching) is None:
                    found.add((x, y, turn))
    return tuple((crate, x, y, t) for x, y, t in sorted(found, key=lambda p: (p[2], p[1], p[0])))


def normalised(places: Sequence[Place]) -> tuple[Place, ...]:
    """The same crates shifted so that the group's top-left corner is cell (0, 0)."""
    x0 = min(footprint(p)[0] for p in places)
    y0 = min(footprint(p)[1] for p in places)
    return tuple((x - x0, y - y0, t) for x, y, t in places)


def grid(places: Sequence[Place], crates: Sequence[Sequence[str]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Table cell -> (crate, slot)."""
    return {cell: (k, s) for k, p in enumerate(places) for s, cell in enumerate(cells(p))}


def neighbours(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Cells next to each other across a side or a corner."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1
