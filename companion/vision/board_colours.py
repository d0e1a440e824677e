"""The player colours on a table: where each colour's hue lies (the model's palette, or the
table's calibrated colours) and which piece is of no player's colour; and the colours as this
table shows them (``TablePalette``): learned from the pieces the place network read surely, they
settle a piece whose colour alone the network left in doubt.

The network names a piece's colour from looks it was trained on; a table's own lamp, paper and
plastic shift the hues (blue against purple under a warm lamp), and the bar of a sure colour is
set over every look at once. The pieces of one colour on one table, though, lie close together:
a piece that surely stands, read below the bar, whose hue (log b/g, log r/g against the paper,
the place's ``chroma_bg``/``chroma_rg``) lies among this table's pieces of the colour the network
leans to -- or of its runner-up, where a lamp moves one colour's pieces towards another's look --
and far from every other colour in play, is that colour. Anything less clear stays in
doubt. The settings were chosen on the place network's tempering looks (tools/learn_board.py's
TEMPER and DEV_TEMPER, boards in order as a table sees them: 1,171 of 2,639 doubted colours
where p(empty) <= STANDING settled, none wrong, and 159 more by elimination, none wrong;
docs/board-camera.md, "Colours no player has").

>>> palette = TablePalette(("red", "blue"))
>>> palette.learn(["red", "red", "blue", "blue"], np.array([[0.1, 1.4], [0.12, 1.38], [0.7, -0.8], [0.72, -0.78]]))
>>> palette.settles("blue", np.array([0.71, -0.79])), palette.settles("blue", np.array([0.4, 0.3]))
(True, False)
"""
from __future__ import annotations

from collections import deque

import numpy as np

from .board_net import PAPER_EPS

KEEP = 100          # the latest pieces of each colour kept (the light may change during a game)
LEAST = 2           # pieces of a colour read surely before it counts as known on this table
WITHIN = 2.5        # a settled piece lies within this many spreads of its colour's middle ...
APART = 5.0         # ... and at least this many from every other colour's
SPREAD_FLOOR = 0.05  # the least spread of a colour (log units): two pieces alone may lie very close
ELIMINATION = 2 * APART   # ... or, its colour not yet seen surely, this many from every other colour's
STANDING = 0.02     # a piece stands where the place network's p(empty) is at most this (for settling its colour)


def hue_palette(colours: dict | None, paper: np.ndarray, model) -> dict[str, np.ndarray]:
    """Each player colour's hue (log b/g, log r/g, against the ``paper``'s) on a sheet: from the
    calibrated ``colours`` (colour -> BGR under the reference's light) when given, each with the
    place model's spread and bar, else the model's palette."""
    if colours:
        paper = np.asarray(paper, np.float64) + PAPER_EPS
        out = {}
        for c, v in colours.items():
            if c in model.palette_spread:
                lc = np.log((np.asarray(v, np.float64) + PAPER_EPS) / paper)
                out[c] = np.array([lc[0] - lc[1], lc[2] - lc[1]])
        return out
    return dict(model.palette)


def far_from_palette(hues: np.ndarray, palette: dict[str, np.ndarray], model) -> np.ndarray:
    """Per hue: its distance from the nearest colour of ``palette``, as a share of that colour's
    bar in the place model (its spread, ``far``): above 1, no player's colour."""
    if not palette:
        return np.zeros(len(hues))
    ratios = [np.sqrt((((hues - m) / model.palette_spread[c]) ** 2).sum(axis=1)) / model.far[c]
              for c, m in palette.items()]
    return np.min(ratios, axis=0)


class TablePalette:
    """The hues of the pieces read surely on this table, per player colour in play."""

    def __init__(self, players: tuple[str, ...]):
        self.players = tuple(players)
        self._seen = {c: deque(maxlen=KEEP) for c in self.players}
        self._stats: dict[str, tuple[np.ndarray, np.ndarray]] | None = None

    def learn(self, colours: list[str], chroma: np.ndarray) -> None:
        """Pieces read surely: ``colours[i]`` at hue ``chroma[i]`` (log b/g, log r/g)."""
        for c, v in zip(colours, np.asarray(chroma, np.float64).reshape(-1, 2)):
            if c in self._seen and np.isfinite(v).all():
                self._seen[c].append(v)
                self._stats = None

    def ready(self) -> bool:
        return all(len(v) >= LEAST for v in self._seen.values())

    def settles(self, colour: str, chroma: np.ndarray) -> bool:
        """Whether a piece of hue ``chroma`` the network leans to read ``colour`` is that colour
        on this table: among its pieces, far from every other colour's. A colour none of whose
        pieces was read surely yet (a table's lamp may shift one colour's pieces all below the
        bar) is settled by elimination: every other colour in play known, and the piece twice as
        far from each of them (ELIMINATION spreads)."""
        if colour not in self._seen:
            return False
        others_known = all(len(v) >= LEAST for c, v in self._seen.items() if c != colour)
        if not others_known:
            return False
        middles = self._middles()
        distance = {c: float(np.sqrt((((np.asarray(chroma) - mid) / spread) ** 2).sum()))
                    for c, (mid, spread) in middles.items() if len(self._seen[c]) >= LEAST}
        if colour not in distance:
            return all(d >= ELIMINATION for d in distance.values())
        return distance[colour] <= WITHIN and all(d >= APART for c, d in distance.items() if c != colour)

    def _middles(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        if self._stats is None:
            self._stats = {}
            for c, seen in self._seen.items():
                if not seen:
                    continue
                a = np.array(seen)
                mid = np.median(a, axis=0)
                self._stats[c] = (mid, np.maximum(1.4826 * np.median(np.abs(a - mid), axis=0), SPREAD_FLOOR))
        return self._stats
