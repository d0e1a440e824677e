"""GRAPE SODA's grid of six crates: where each crate stands, which fields that makes, and where a
crate may be moved to.

Each crate is two fields wide and three long (slots 0 1 / 2 3 / 4 5, as in pura_crates.py) and is
never turned, so a crate is known by the field of its top-left slot. The six start as a 6x6 square
(three across, two down). A crate may be lifted and set down anywhere that keeps the crates one
group: each crate shares at least one field's side with another (corners alone do not hold them
together), and no two overlap. The five crates left behind must hold together by themselves:
lifting a crate that bridges two parts would split the group, even for a moment. Positions are kept with the smallest x and y at 0, so every field
of any layout lies within 0..11 across and 0..17 down.

>>> targets(START, 0)[:3]
[(-2, 1), (-2, 2), (-2, 3)]
>>> connected(START), connected(((0, 0), (5, 0), (2, 0), (0, 3), (2, 3), (4, 3)))
(True, True)
>>> connected(((0, 0), (9, 9), (2, 0), (0, 3), (2, 3), (4, 3)))
False
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .pura_crates import CRATES, SLOTS

WIDE, LONG = 2, 3                       # a crate's fields across and down (never turned)
Pos = tuple[int, int]
Layout = tuple[Pos, ...]
START: Layout = tuple((WIDE * (i % 3), LONG * (i // 3)) for i in range(CRATES))
STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)  # the eight directions


def slot_offset(slot: int) -> Pos:
    return slot % WIDE, slot // WIDE


@lru_cache(maxsize=4096)  # asked for again and again while moves are listed; layouts are tuples
def fields(layout: Layout) -> dict[Pos, tuple[int, int]]:
    """Every field of the grid: (x, y) -> (crate, slot). Do not change the dict returned."""
    found = {}
    for c, (x, y) in enumerate(layout):
        for s in range(SLOTS):
            dx, dy = slot_offset(s)
            found[(x + dx, y + dy)] = (c, s)
    return found


def _overlap(a: Pos, b: Pos) -> bool:
    return abs(a[0] - b[0]) < WIDE and abs(a[1] - b[1]) < LONG


def touching(a: Pos, b: Pos) -> bool:
    """Whether two crates share at least one field's side."""
    side_by_side = abs(a[0] - b[0]) == WIDE and abs(a[1] - b[1]) < LONG
    end_to_end = abs(a[1] - b[1]) == LONG and abs(a[0] - b[0]) < WIDE
    return side_by_side or end_to_end


def connected(layout: Sequence[Pos]) -> bool:
    """Whether the crates form one group and none overlaps another."""
    n = len(layout)
    if any(_overlap(layout[i], layout[j]) for i in range(n) for j in range(i + 1, n)):
        return False
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in range(n):
            if j not in seen and touching(layout[i], layout[j]):
                seen.add(j)
                todo.append(j)
    return len(seen) == n


def moved(layout: Sequence[Pos], crate: int, to: Pos) -> Layout:
    return tuple(to if i == crate else p for i, p in enumerate(layout))


@lru_cache(maxsize=4096)
def _targets(layout: Layout, crate: int) -> tuple[Pos, ...]:
    """Where ``crate`` may be set down (in the layout's coordinates): every other place that
    keeps the crates one group."""
    others = [p for i, p in enumerate(layout) if i != crate]
    xs, ys = [p[0] for p in others], [p[1] for p in others]
    if not connected(others):  # the crates left behind must hold together by themselves
        return ()
    found = []
    for x in range(min(xs) - WIDE, max(xs) + WIDE + 1):
        for y in range(min(ys) - LONG, max(ys) + LONG + 1):
            p = (x, y)
            if p != tuple(layout[crate]) and not any(_overlap(p, q) for q in others) \
                    and any(touching(p, q) for q in others):
                found.append(p)
    return tuple(found)


def targets(layout: Sequence[Pos], crate: int) -> list[Pos]:
    """Where ``crate`` may be set down (in the layout's coordinates): every other place that
    keeps the crates one group."""
    return list(_targets(tuple(map(tuple, layout)), crate))


def normalised(layout: Sequence[Pos]) -> Layout:
    """The layout shifted so that its smallest x and y are 0 (nothing on the table moves)."""
    mx, my = min(p[0] for p in layout), min(p[1] for p in layout)
    return tuple((x - mx, y - my) for x, y in layout)


def size(layout: Sequence[Pos]) -> Pos:
    """Fields across and down of the layout's bounding box."""
    return max(p[0] for p in layout) + WIDE, max(p[1] for p in layout) + LONG
