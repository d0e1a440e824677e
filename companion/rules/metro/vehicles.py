"""A line's vehicles: one train, or (OSAKA METRO's trams and buses) two that move together.

A line with ``vehicles: 2`` puts both on the board whenever an action would place its train: the
first at stop 1 heading on, the second at the last stop heading back (``LineState.second``). Both
move in the train phase at the same time, each paying the stations it stops at; tempo on the line
counts for both. Riders name the vehicle they ride (``Seat.vehicle``).

>>> from companion.rules.metro.board import Line
>>> tram = Line(0, "P", "tram", "#000", 1, 1, (0, 1, 2), (0, -1, 1), "tram", 2)
>>> ls = placed(tram, LineState())
>>> (ls.train, ls.dir), (ls.second, ls.second_dir)
((0, 1), (2, -1))
>>> positions(tram, ls)
[(0, 0, 1), (1, 2, -1)]
"""
from __future__ import annotations

from .board import Line
from .state import LineState


def placed(line: Line, ls: LineState) -> LineState:
    """The line with its vehicle(s) at the start: the train at stop 1; a second tram or bus at the
    other terminal."""
    if line.vehicles == 2:
        return ls._replace(train=0, dir=1, second=len(line.stops) - 1, second_dir=-1)
    return ls._replace(train=0, dir=1)


def removed(ls: LineState) -> LineState:
    """The line with no vehicle on the board (a started train without shareholders leaving)."""
    return ls._replace(train=-1, dir=1, second=-1, second_dir=-1)


def positions(line: Line, ls: LineState) -> list[tuple[int, int, int]]:
    """(vehicle, stop index, direction) of each of the line's vehicles on the board."""
    out = [(0, ls.train, ls.dir)] if ls.train >= 0 else []
    if line.vehicles == 2 and ls.second >= 0:
        out.append((1, ls.second, ls.second_dir))
    return out


def moved_to(ls: LineState, vehicle: int, stop: int, direction: int) -> LineState:
    """The line with one vehicle moved."""
    if vehicle:
        return ls._replace(second=stop, second_dir=direction)
    return ls._replace(train=stop, dir=direction)
