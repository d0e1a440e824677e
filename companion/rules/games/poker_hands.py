"""Hands of the vending-machine poker game: the best five cans of a crate, ranked like poker
with the drinks' colours as suits and their shapes as ranks (stubby can lowest, tallest bottle
highest), and five of a kind above everything.

>>> hand_rank(["red-tall_can", "blue-tall_can", "mint-tall_can", "white-tall_can", "black-tall_can"])[0]
'five_of_a_kind'
"""
from __future__ import annotations

from itertools import combinations
from typing import Sequence

from .common import drink, sort_drinks

CATEGORIES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
              "four_of_a_kind", "straight_flush", "five_of_a_kind")


def _rank5(cans: Sequence[str]) -> tuple:
    ds = [drink(c) for c in cans]
    ranks = sorted((d.shape.height_rank for d in ds), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    flush = len(ds) == 5 and len({d.colour for d in ds}) == 1
    straight = len(ds) == 5 and len(counts) == 5 and ranks[0] - ranks[-1] == 4
    if shape[:1] == [5]:
        cat = 9
    elif straight and flush:
        cat = 8
    elif shape[:1] == [4]:
        cat = 7
    elif shape[:2] == [3, 2]:
        cat = 6
    elif flush:
        cat = 5
    elif straight:
        cat = 4
    elif shape[:1] == [3]:
        cat = 3
    elif shape[:2] == [2, 2]:
        cat = 2
    elif shape[:1] == [2]:
        cat = 1
    else:
        cat = 0
    return (cat,) + order


def best_hand(crate: Sequence[str]) -> tuple[tuple, tuple[str, ...]]:
    """The best hand of up to five cans from a crate: (rank key, the cans). Ties between
    equally good selections keep the tallest leftover can out of the hand."""
    crate = sort_drinks(crate)
    if not crate:
        return (-1,), ()
    size = min(5, len(crate))
    best = None
    for combo in combinations(crate, size):
        key = _rank5(combo)
        if best is None or key > best[0]:
            best = (key, combo)
    return best


def hand_rank(crate: Sequence[str]) -> tuple[str, tuple]:
    key, cans = best_hand(crate)
    return ("nothing" if key[0] < 0 else CATEGORIES[key[0]]), key
