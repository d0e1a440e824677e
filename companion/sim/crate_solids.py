"""The yellow crates as solids: each crate an open box (its floor, four outer walls and the
inner walls between its 2x3 slots), two crates side by side showing a double wall with a thin
seam between. Grid millimetres: field (x, y) spans x * pitch .. (x + 1) * pitch across and the
same down; the walls' tops are the rim, ``rim`` mm over the table.

A wall is cut into pieces about one field long, each a box (``board_solids.prism``): the renderer
paints far to near, and pieces that short sort rightly against the drinks between them.

>>> from companion.sim.crate_looks import CrateLook
>>> parts = crate_parts([(0, 0, 2, 3)], CrateLook.from_seed(1))
>>> len(parts.walls), len(parts.floors), parts.floors[0].shape
(17, 1, (4, 2))
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Wall:
    """One piece of wall: its rectangle in grid mm (x0, y0, x1, y1) from ``z0`` mm to the rim;
    ``crate``: its crate's index; ``out``: which of its sides faces out of the crate (0 -y,
    1 +x, 2 +y, 3 -x; -1 for an inner wall, all sides in slots)."""

    x0: float
    y0: float
    x1: float
    y1: float
    z0: float
    crate: int = 0
    out: int = -1


@dataclass(frozen=True)
class CrateParts:
    walls: list[Wall]
    floors: list[np.ndarray]        # each crate's inside (4, 2) grid mm, at the floor's height
    outlines: list[np.ndarray]      # each crate's outside (4, 2) grid mm, on the table


def _rect(x0, y0, x1, y1) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


def crate_parts(footprints, look) -> CrateParts:
    """The walls and floors of crates standing on ``footprints`` (x0, y0, x1, y1 in fields,
    exclusive, as ``CrateLayout.footprints`` gives them) in ``look``'s size."""
    p, w, g, fl = look.pitch_mm, look.wall_mm, look.seam_mm / 2, look.floor_mm
    walls, floors, outlines = [], [], []
    for i, (fx0, fy0, fx1, fy1) in enumerate(footprints):
        X0, Y0, X1, Y1 = fx0 * p + g, fy0 * p + g, fx1 * p - g, fy1 * p - g
        outlines.append(_rect(X0, Y0, X1, Y1))
        floors.append(_rect(X0 + w * 0.5, Y0 + w * 0.5, X1 - w * 0.5, Y1 - w * 0.5))
        # the outer walls, down to the table: one piece per field along them
        for r in range(fy0, fy1):
            a, b = max(r * p, Y0), min((r + 1) * p, Y1)
            walls += [Wall(X0, a, X0 + w, b, 0.0, i, 3), Wall(X1 - w, a, X1, b, 0.0, i, 1)]
        for c in range(fx0, fx1):
            a, b = max(c * p, X0), min((c + 1) * p, X1)
            walls += [Wall(a, Y0, b, Y0 + w, 0.0, i, 0), Wall(a, Y1 - w, b, Y1, 0.0, i, 2)]
        # the inner walls between the slots, standing on the floor
        for c in range(fx0 + 1, fx1):
            for r in range(fy0, fy1):
                a, b = max(r * p, Y0 + w), min((r + 1) * p, Y1 - w)
                walls.append(Wall(c * p - w / 2, a, c * p + w / 2, b, fl, i))
        for r in range(fy0 + 1, fy1):
            for c in range(fx0, fx1):
                a, b = max(c * p, X0 + w), min((c + 1) * p, X1 - w)
                walls.append(Wall(a, r * p - w / 2, b, r * p + w / 2, fl, i))
    return CrateParts(walls, floors, outlines)


def slot_room(field: tuple[int, int], footprint, look) -> tuple[float, float, float, float]:
    """The inside of a field's slot in grid mm (x0, y0, x1, y1), between its walls."""
    p, w, g = look.pitch_mm, look.wall_mm, look.seam_mm / 2
    fx0, fy0, fx1, fy1 = footprint
    x, y = field
    x0 = x * p + (g + w if x == fx0 else w / 2)
    x1 = (x + 1) * p - (g + w if x + 1 == fx1 else w / 2)
    y0 = y * p + (g + w if y == fy0 else w / 2)
    y1 = (y + 1) * p - (g + w if y + 1 == fy1 else w / 2)
    return x0, y0, x1, y1


def nudged(pts: np.ndarray, nudge, centre) -> np.ndarray:
    """Grid mm points (n, 2) of a crate pushed by ``nudge`` (dx mm, dy mm, turn degrees about
    the crate's ``centre``): crates pushed together by hand never line up exactly."""
    dx, dy, turn = nudge
    if not (dx or dy or turn):
        return np.asarray(pts, np.float64)
    a = np.radians(turn)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    c = np.asarray(centre, np.float64)
    return (np.asarray(pts, np.float64) - c) @ R.T + c + (dx, dy)
