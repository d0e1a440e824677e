"""PURA's six crates: their slots and sides, the start rule, and which swaps face straight across.

A crate is two slots wide and three long; slots are numbered row by row: 0 1 / 2 3 / 4 5. Its
long sides are ``left`` (0, 2, 4) and ``right`` (1, 3, 5), its short sides ``top`` (0, 1) and
``bottom`` (4, 5). Crates may be moved and turned freely, so any side may face any side of the
same length, either way round. The moves and the declaration are in pura.py.

>>> side_pairs((0, 2, 4), (5, 3, 1)), side_pairs((0, 3), (0, 2))
(True, False)
"""
from __future__ import annotations

from itertools import combinations
from typing import Sequence

from ..engine import Composite
from .common import trait_counts, traits

CRATES, SLOTS = 6, 6
SIDES = {"left": (0, 2, 4), "right": (1, 3, 5), "top": (0, 1), "bottom": (4, 5)}

Crates = tuple[tuple[str | None, ...], ...]
Swap = tuple[int, int, tuple[int, ...], tuple[int, ...]]  # crate a, crate b, a's slots, b's slots facing them


def excess(crates: Crates, max_share: int = 3) -> int:
    """How far the crates are over the start rule (at most ``max_share`` sharing a colour or shape)."""
    return sum(crate_excess(c, max_share) for c in crates)


def crate_excess(crate: Sequence[str | None], max_share: int = 3) -> int:
    """How far one crate is over the start rule."""
    return sum(max(0, k - max_share) for k in trait_counts(d for d in crate if d).values())


def offending(crates: Crates, max_share: int = 3) -> list[tuple[int, int]]:
    """(crate, slot) of every drink that helps a crate break the start rule."""
    found = []
    for i, c in enumerate(crates):
        bad = {t for t, k in trait_counts(d for d in c if d).items() if k > max_share}
        found += [(i, s) for s, d in enumerate(c) if d and bad & set(traits(d))]
    return found


def swapped(crates: Crates, pairs: Sequence[tuple[int, int, int, int]]) -> Crates:
    """The crates after swapping slot ``sa`` of crate ``a`` with slot ``sb`` of crate ``b``, pair by pair."""
    grid = [list(c) for c in crates]
    for a, sa, b, sb in pairs:
        grid[a][sa], grid[b][sb] = grid[b][sb], grid[a][sa]
    return tuple(tuple(c) for c in grid)


def side_pairs(a_slots: Sequence[int], b_slots: Sequence[int]) -> bool:
    """Whether slots of one crate can face slots of another straight across touching sides
    of the same length (either way round, since crates may be turned)."""
    for sa in SIDES.values():
        if not set(a_slots) <= set(sa):
            continue
        for sb in SIDES.values():
            if len(sa) != len(sb) or not set(b_slots) <= set(sb):
                continue
            for rev in (False, True):
                if all((sb[::-1] if rev else sb)[sa.index(x)] == y for x, y in zip(a_slots, b_slots)):
                    return True
    return False


def _alignments() -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ways two crates can stand side to side: the slot pairs facing each other."""
    found = []
    for sa in SIDES.values():
        for sb in SIDES.values():
            if len(sa) == len(sb):
                for tb in (sb, sb[::-1]):
                    found.append(tuple(zip(sa, tb)))
    return tuple(found)


ALIGNMENTS = _alignments()


def _swap_shapes() -> tuple[Swap, ...]:
    """Every distinct straight-across swap between two crates (the geometry only)."""
    seen, found = set(), []
    for a, b in combinations(range(CRATES), 2):
        for facing in ALIGNMENTS:
            for k in range(1, len(facing) + 1):
                for pairs in combinations(facing, k):
                    key = (a, b, frozenset(pairs))
                    if key not in seen:
                        seen.add(key)
                        found.append((a, b, tuple(x for x, _ in pairs), tuple(y for _, y in pairs)))
    return tuple(found)


_SWAP_SHAPES = _swap_shapes()


def all_swaps(crates: Crates) -> list[Swap]:
    """The swaps that move something: no pair of the swap has two empty slots."""
    return [(a, b, sa, sb) for a, b, sa, sb in _SWAP_SHAPES
            if all(crates[a][x] is not None or crates[b][y] is not None for x, y in zip(sa, sb))]


def swap_composites(crates: Crates, cost: int) -> list[Composite]:
    """Swaps, one entry per pair of crates (a < b): pick slot pairs ``[a_slot, b_slot]`` that
    face each other along one way the crates can stand side to side (``within``); pairs of
    two empty slots are left out, as they move nothing."""
    found = []
    for a, b in combinations(range(CRATES), 2):
        groups = []
        for pairs in ALIGNMENTS:
            kept = sorted(p for p in pairs if crates[a][p[0]] is not None or crates[b][p[1]] is not None)
            if kept and kept not in groups:
                groups.append(kept)
        if not groups:
            continue
        items = sorted({p for g in groups for p in g})
        most = max(len(g) for g in groups)
        found.append(Composite("swap", {"arg": ["a_slots", "b_slots"], "from": [list(p) for p in items],
                                        "min": 1, "max": most, "within": [[list(p) for p in g] for g in groups],
                                        "shows": [[crates[a][x], crates[b][y]] for x, y in items]},
                               base={"a": a, "b": b}, price={str(k): cost for k in range(1, most + 1)}))
    return found
