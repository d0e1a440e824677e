"""METRO DRINKS in the view: the stock column, the crates, the drinks at stations and in the tower.

``drinks_view`` is the view's top-level ``"drinks"`` (None outside METRO DRINKS); ``seat_view``
adds each player's ``"drinks"`` (their supply) and ``"colour_cards"``; ``stock_column_view`` is
the stock column as one more entry of ``"columns"`` (``"set": "JIDOHANBAIKI"``), its slots stock
cards or None for a gap. What nobody sees stays out: the face-down deck is a count, the discard
pile below its top card too.
"""
from __future__ import annotations

from .state import State
from .stock_column import COLOUR_IDS, STOCK_SET, colour_of, on_board, bonus_for
from .vending import free_builders


def stock_card(card: str) -> dict | None:
    """A stock card as the view shows it: {"id", "stock": "colour", "colour"} or {"id", "stock": "shape", "shape"}."""
    if not card:
        return None
    kind = "colour" if card in COLOUR_IDS else "shape"
    return {"id": card, "stock": kind, kind: card}


def stock_column_view(state: State) -> dict:
    d, column = state.drinks, len(state.columns)
    taken = {c: p for c, i, p in state.placed if (c, i) in state.occupied}
    slots = []
    for card in d.stock.slots:
        shown = stock_card(card)
        if shown is not None and shown["stock"] == "shape":
            shown["taken_by"] = taken.get(card)
        slots.append(shown)
    return {"column": column, "set": STOCK_SET, "colours": [], "slots": slots, "deck": d.stock.left,
            "discard": len(d.stock.discard), "discard_top": stock_card(d.stock.discard[-1]) if d.stock.discard else None,
            # discs on the draw pile this phase (building a vending machine: no limit of spaces)
            "pile_discs": [p for c, _, p in state.placed if c == STOCK_SET]}


def seat_view(state: State, p: int) -> dict:
    d = state.drinks
    if d is None:
        return {}
    return {"drinks": list(d.supplies[p]), "colour_cards": list(d.colour_cards[p]),
            "shape_cards": [stock_card(c) for c in d.shape_cards[p]], "discs_boxed": d.boxed[p]}


def drinks_view(state: State) -> dict | None:
    d = state.drinks
    if d is None:
        return None
    board = state.board
    free = free_builders(state)
    return {
        "stations": [{"station": board.stations[s].id, "drink": x, "colour": colour_of(x), "owner": state.pyramids[s]}
                     for s, x in enumerate(d.at) if x],
        "crates": [{"colour": c, "holder": h if h >= 0 else None,
                    "left": 6 if h < 0 else sum(1 for x in d.supplies[h] if colour_of(x) == c)}
                   for c, h in zip(COLOUR_IDS, d.crates)],
        "tower": sorted(d.tower.inside),
        "falling": list(d.falling),
        "free_builds": free[0] if free else None,
        "free_builders": list(free),
        "bonus": {c: bonus_for(on_board(d, c)) for c in COLOUR_IDS if on_board(d, c)},
    }
