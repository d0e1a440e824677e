"""Random crate layouts as the crate games leave them, for the crate reader's training, tests
and benchmark: six crates standing together as one connected grid (GRAPE SODA's 6x6 square
with some crates moved; in YUZU some turned), most fields holding one of the 36 drinks (each
drink once).

>>> import numpy as np
>>> lay = random_layout(np.random.default_rng(1))
>>> len(lay.crates), len(lay.fields())
(6, 36)
"""
from __future__ import annotations

import numpy as np

from ..crate_fields import CrateLayout, crate_fields
from ..drinks import DRINK_IDS

SQUARE = tuple((2 * (i % 3), 3 * (i // 3), 0) for i in range(6))   # GRAPE SODA's start


def _connected(cells: set) -> bool:
    if not cells:
        return True
    todo, seen = [next(iter(cells))], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        x, y = c
        todo += [n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n in cells and n not in seen]
    return len(seen) == len(cells)


def random_crates(rng: np.random.Generator, moves: int | None = None, turns: bool | None = None) -> tuple:
    """Six crate places: the square, then ``moves`` crates (0-4 at random) taken away and put
    elsewhere touching the rest (turned a quarter with ``turns``, as YUZU allows)."""
    places = list(SQUARE)
    moves = int(rng.integers(0, 5)) if moves is None else moves
    turns = bool(rng.random() < 0.35) if turns is None else turns
    for _ in range(moves):
        k = int(rng.integers(0, len(places)))
        rest = places[:k] + places[k + 1:]
        taken = {f for p in rest for f in crate_fields(p)}
        xs = [f[0] for f in taken]
        ys = [f[1] for f in taken]
        options = []
        for turn in ((0, 1) if turns else (0,)):
            for x in range(min(xs) - 3, max(xs) + 2):
                for y in range(min(ys) - 3, max(ys) + 2):
                    fs = crate_fields((x, y, turn))
                    if taken.isdisjoint(fs) and _connected(taken | set(fs)):
                        options.append((x, y, turn))
        if options:
            places = rest + [options[int(rng.integers(0, len(options)))]]
    return tuple(places)


def random_layout(rng: np.random.Generator, fill: float | None = None, **kw) -> CrateLayout:
    """A layout of :func:`random_crates` with a share ``fill`` (50-80 % at random) of its fields
    holding drinks, each drink once."""
    crates = random_crates(rng, **kw)
    fields = sorted({f for p in crates for f in crate_fields(p)})
    fill = float(rng.uniform(0.5, 0.8)) if fill is None else fill
    n = min(len(DRINK_IDS), int(round(fill * len(fields))))
    where = rng.choice(len(fields), size=n, replace=False)
    drinks = rng.choice(len(DRINK_IDS), size=n, replace=False)
    return CrateLayout(crates=crates, drinks={fields[int(w)]: DRINK_IDS[int(d)] for w, d in zip(where, drinks)})
