"""What a TOKYO METRO state has standing on the physical board, for the board camera to compare.

Only the pieces a camera over the board sees: each station's pyramid (by seat), each seat's
meeple (on a field, or beside the revenue track riding a line's train), each train on the board
(the stop it stands at) and each line's value marker. Action discs, tempo tokens, cards and
money are not on the board sheet. Seats, not colours: the table gives each seat its colour.

>>> from companion.rules.metro.game import GAME
>>> state = GAME.setup({"players": 2, "names": ["Ann", "Ben"]})
>>> on_board(state)
{'pyramids': {}, 'meeples': {}, 'trains': {}, 'values': {'G': 0, 'M': 0, 'H': 0, 'T': 0, 'C': 0, 'Y': 0, 'Z': 0, 'N': 0, 'A': 0, 'I': 0, 'S': 0, 'E': 0}}
"""
from __future__ import annotations

from .state import State


def on_board(state: State) -> dict:
    """``pyramids`` {station id: seat}, ``meeples`` {seat: "field:<i>" or "ride:<letter>"},
    ``trains`` {letter: stop index}, ``values`` {letter: yen}."""
    board = state.board
    meeples = {}
    for p, seat in enumerate(state.seats):
        if seat.riding >= 0:
            meeples[p] = f"ride:{board.lines[seat.riding].letter}"
        elif seat.field >= 0:
            meeples[p] = f"field:{seat.field}"
    drinks = state.drinks
    extra = {} if drinks is None else {  # METRO DRINKS: the vending machines at stations
        "drinks": {board.stations[s].id: x for s, x in enumerate(drinks.at) if x}}
    return {
        **extra,
        "pyramids": {board.stations[i].id: owner for i, owner in enumerate(state.pyramids) if owner >= 0},
        "meeples": meeples,
        "trains": {board.lines[i].letter: ls.train for i, ls in enumerate(state.lines) if ls.train >= 0},
        "values": {board.lines[i].letter: ls.value for i, ls in enumerate(state.lines)},
    }
