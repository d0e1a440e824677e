"""IZAKAYA's plot grid (rule book 000, IZAKAYA): TOKYO JUTAKU plot cards in a square, the
corners where cards meet (drinks stand there), the edges between two cards (claim discs lie
there) and the straight lines of three claim discs.

Cards are numbered row by row from 0; the corner points of an ``size`` x ``size`` grid are
numbered row by row too, ``(size + 1) ** 2`` of them, of which the four outer corners of the grid
never hold a drink. A corner where four cards meet must be filled before one where only two do.

>>> g = Grid(3, blocked=(4,))
>>> g.four_corners, g.two_corners[:3]
((5, 6, 9, 10), (1, 2, 4))
>>> g.cards_at(5)
(0, 1, 3, 4)
>>> g.edge_free(0, 1), g.edge_free(1, 4)
(True, False)
>>> g.in_line({(0, 1)}, (6, 7)), Grid(4).in_line({(0, 1), (1, 2)}, (2, 3))
(False, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable


@dataclass(frozen=True)
class Grid:
    size: int
    blocked: tuple[int, ...] = ()     # cards turned to their blue side: no plot, no claim

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(range(self.size * self.size))

    @property
    def plots(self) -> tuple[int, ...]:
        """The cards that can be claimed and built on."""
        return tuple(c for c in self.cards if c not in self.blocked)

    def rc(self, card: int) -> tuple[int, int]:
        return divmod(card, self.size)

    # --- corners ----------------------------------------------------------------------------

    def cards_at(self, corner: int) -> tuple[int, ...]:
        """The cards that touch a corner point."""
        i, j = divmod(corner, self.size + 1)
        return tuple(r * self.size + c for r in (i - 1, i) for c in (j - 1, j)
                     if 0 <= r < self.size and 0 <= c < self.size)

    @cached_property
    def four_corners(self) -> tuple[int, ...]:
        return tuple(k for k in range((self.size + 1) ** 2) if len(self.cards_at(k)) == 4)

    @cached_property
    def two_corners(self) -> tuple[int, ...]:
        return tuple(k for k in range((self.size + 1) ** 2) if len(self.cards_at(k)) == 2)

    @property
    def corners(self) -> tuple[int, ...]:
        """Every corner that may hold a drink (the outer corners of the grid never do)."""
        return tuple(sorted(self.four_corners + self.two_corners))

    def corners_of(self, card: int) -> tuple[int, ...]:
        """The corner points of a card that may hold a drink."""
        r, c = self.rc(card)
        n = self.size + 1
        return tuple(k for k in (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
                     if k in self.corners)

    def open_corners(self, taken: Iterable[int]) -> tuple[int, ...]:
        """Where a drink may stand now: an empty four-card corner while any is left, then the
        empty two-card corners."""
        taken = set(taken)
        four = tuple(k for k in self.four_corners if k not in taken)
        return four or tuple(k for k in self.two_corners if k not in taken)

    # --- edges and lines ---------------------------------------------------------------------

    def neighbours(self, card: int) -> tuple[int, ...]:
        r, c = self.rc(card)
        return tuple(rr * self.size + cc for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                     if 0 <= rr < self.size and 0 <= cc < self.size)

    def edge_free(self, a: int, b: int) -> bool:
        """Whether cards ``a`` and ``b`` share an edge between two plots (a claim disc's place)."""
        return a in self.plots and b in self.plots and b in self.neighbours(a)

    @cached_property
    def edges(self) -> tuple[tuple[int, int], ...]:
        return tuple((a, b) for a in self.plots for b in self.neighbours(a) if a < b and self.edge_free(a, b))

    @staticmethod
    def _middle(edge: tuple[int, int], size: int) -> tuple[int, int]:
        # the edge's midpoint in half-card units: (row, column), both doubled
        (r1, c1), (r2, c2) = divmod(edge[0], size), divmod(edge[1], size)
        return r1 + r2 + 1, c1 + c2 + 1

    def in_line(self, discs: Iterable[tuple[int, int]], new: tuple[int, int]) -> bool:
        """Whether the disc just laid on edge ``new`` makes three of ``discs`` (the same player's)
        lie next to each other in a straight line: edges of the same direction, side by side
        along a row or column of cards, or end to end along one grid line."""
        mids = {self._middle(e, self.size) for e in discs} | {self._middle(new, self.size)}
        r, c = self._middle(new, self.size)
        for dr, dc in ((2, 0), (0, 2)):
            run = [k for k in range(-2, 3) if (r + k * dr, c + k * dc) in mids]
            if any(all(k + x in run for x in range(3)) for k in (-2, -1, 0)):
                return True
        return False
