"""TOKYO METRO movement phase: in player order each meeple is placed (round 1) or walks.

Round 1: ``place {field}`` puts the meeple on a free field of the marked start area. Later rounds:
``walk {field}`` moves it up to ``walk`` fields (2; 3 with a bicycle) in orthogonal steps, never
into or through a field with another meeple; staying put is a walk to its own field. A meeple in
a train stays on (``ride_on``) or gets off first (``alight``; both in trains.py).
"""
from __future__ import annotations

from ..engine import Event, IllegalMove, Move
from .rounds import next_mover
from .state import State, field_arg, occupied_fields, quick_move, seat_label, set_seat


def awaited(state: State) -> str:
    return (f"{seat_label(state, state.order[state.turn])}, whose turn to move it is (place or walk the meeple, "
            "or stay on or get off a train)")


def _steps(state: State, p: int) -> int:
    return state.options.walk + (1 if state.seats[p].bicycle else 0)


def place_moves(state: State, p: int) -> list[Move]:
    seat = state.seats[p]
    if seat.riding >= 0 or seat.field >= 0:
        return []
    taken = occupied_fields(state, but=p)
    return [quick_move("place", p, {"field": f}) for f in state.board.start_fields if f not in taken]


def walk_moves(state: State, p: int) -> list[Move]:
    seat = state.seats[p]
    if seat.riding >= 0 or seat.field < 0:
        return []
    reach = state.board.reachable(seat.field, _steps(state, p), occupied_fields(state, but=p))
    return [quick_move("walk", p, {"field": f}) for f in reach]


def _on_foot(state: State, move: Move) -> None:
    seat = state.seats[move.player]
    if seat.riding >= 0:
        raise IllegalMove(f"your meeple rides train {state.board.lines[seat.riding].letter}: get off first (alight) "
                          "or stay on (ride_on)", move)


def place(state: State, move: Move) -> tuple[State, list[Event]]:
    _on_foot(state, move)
    p, board = move.player, state.board
    f = field_arg(state, move)
    if state.seats[p].field >= 0:
        raise IllegalMove("your meeple is on the board already; walk instead", move)
    if f not in board.start_fields:
        raise IllegalMove(f"in round 1 the meeple is placed inside the marked start area; field "
                          f"{board.field_label(f)} is outside it", move)
    if f in occupied_fields(state, but=p):
        raise IllegalMove(f"field {board.field_label(f)} holds another meeple", move)
    return _moved(state, move, f, "placed")


def walk(state: State, move: Move) -> tuple[State, list[Event]]:
    _on_foot(state, move)
    p, board = move.player, state.board
    f = field_arg(state, move)
    seat = state.seats[p]
    if seat.field < 0:
        raise IllegalMove("place your meeple first (round 1)", move)
    steps = _steps(state, p)
    if f not in board.reachable(seat.field, steps, occupied_fields(state, but=p)):
        raise IllegalMove(f"field {board.field_label(f)} is not within {steps} orthogonal steps of your meeple "
                          "without crossing another meeple (movement rules)", move)
    return _moved(state, move, f, "moved")


def _moved(state: State, move: Move, f: int, event: str) -> tuple[State, list[Event]]:
    state = state._replace(seats=set_seat(state, move.player, field=f))
    return next_mover(state), [Event(event, {"seat": move.player, "field": list(state.board.col_row(f))})]
