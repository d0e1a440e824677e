"""The market and the crates of CHOCOLATE MILK: the 3x3 plot cards (cells 0-8 row by row, 0 top
left, 4 the centre, 8 bottom right), how they are filled and refilled; the crates, what they
take in and how they score.

>>> [c for c in range(9) if adjacent(4, c)]
[0, 1, 2, 3, 5, 6, 7, 8]
>>> crate_score(["mint-tall_can", "mint-short_can", "mint-stubby_can", "mint-square_bottle", "red-tall_can"])
('mint', 4, 1600)
"""
from __future__ import annotations

from typing import Sequence

from ...drinks import CARD_IDS
from .common import best_attribute, matches

CENTRE = 4
CRATE = 6                                     # drinks a crate holds
FILL_ORDER = (0, 1, 2, 3, 5, 6, 7, 8, 4, 4)   # one drink on each outer card, two on the centre


def dice_refill(supply: frozenset[str] | set[str], colour_roll: int, shape_roll: int,
                colour_row: Sequence[str], shape_row: Sequence[str]) -> str | None:
    """The drink two dice name: the colour card under the first roll, the shape card under
    the second (counted from the left); a colour or shape no longer in the supply moves on
    to the next card to its right (round to the first after the last)."""
    colours = [c for k in range(6) for c in [colour_row[(colour_roll - 1 + k) % 6]]
               if any(d.startswith(c + "-") for d in supply)]
    if not colours:
        return None
    colour = colours[0]
    for k in range(6):
        shape = shape_row[(shape_roll - 1 + k) % 6]
        if f"{colour}-{shape}" in supply:
            return f"{colour}-{shape}"
    return None


def adjacent(a: int, b: int) -> bool:
    """One step apart on the 3x3 grid, orthogonally or diagonally."""
    (ra, ca), (rb, cb) = divmod(a, 3), divmod(b, 3)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def crate_score(drinks: Sequence[str], unit: int = 100) -> tuple[str | None, int, int]:
    """The attribute a crate is best scored by, how many match, and the payout (count squared)."""
    card, n = best_attribute(drinks)
    return card, n, n * n * unit


def dice_odds(supply: frozenset[str] | set[str], colour_row: Sequence[str],
              shape_row: Sequence[str]) -> dict[str | None, float]:
    """How likely two dice name each drink (``dice_refill``)."""
    odds: dict[str | None, float] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            d = dice_refill(supply, a, b, colour_row, shape_row)
            odds[d] = odds.get(d, 0) + 1 / 36
    return odds


def set_cell(grid: tuple, cell: int, drinks: tuple[str, ...]) -> tuple:
    """The market with ``cell`` holding ``drinks``."""
    return tuple(drinks if i == cell else c for i, c in enumerate(grid))


# --- the crates -------------------------------------------------------------------------------

def stow(crates: tuple[tuple[str, ...], ...], drinks: Sequence[str], chosen: str | None = None,
         into: int = 0) -> tuple[tuple[tuple[str, ...], ...], list[str]]:
    """``crates`` with ``drinks`` put in, each into the first crate with room (``chosen`` into crate
    ``into`` first), and the drinks no crate had room for."""
    filled = [list(c) for c in crates]
    back = []
    for d in drinks:
        order = [into, *range(len(filled))] if d == chosen else range(len(filled))
        room = next((i for i in order if len(filled[i]) < CRATE), None)
        (back if room is None else filled[room]).append(d)
    return tuple(tuple(c) for c in filled), back


def by_card(drinks: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Each card that some of ``drinks`` match, with those drinks."""
    return [(card, fits) for card in CARD_IDS for fits in [[d for d in drinks if matches(d, card)]] if fits]


def seat_score(crates: Sequence[Sequence[str]], yen: int, unit: int) -> dict:
    """A player's score: each crate by the colour or shape most of its drinks share, added to their yen."""
    per = [dict(zip(("by", "count", "yen"), crate_score(c, unit))) for c in crates]
    crate_yen = sum(c["yen"] for c in per)
    return {"crates": per, "crate_yen": crate_yen, "total": yen + crate_yen}
