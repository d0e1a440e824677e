"""IZAKAYA's view (what a viewer may see: another seat's sealed bid shows only that it was made),
its payouts (the buildings scored beside the yen in hand) and what a move could pay, and why.

>>> from companion.rules.games import izakaya
>>> v = view(izakaya.setup({"names": ["Aki", "Ben"]}), None)
>>> v["grid"]["size"], v["end_pot"], [p["yen"] for p in v["prices"]]
(3, 1500, [100, 100, 200, 200, 300, 300])
"""
from __future__ import annotations

from ..engine import Move, MoveInfo
from .izakaya_state import ACT, OVER, PRICE, State, card_value, scores

NAME = "izakaya"


def payouts(state: State) -> dict:
    built = scores(state)
    return {"yen": [s.yen for s in state.seats], "buildings": built,
            "projected": [s.yen + b for s, b in zip(state.seats, built)], "pot": state.pot,
            "final": state.phase == OVER, "winners": list(state.winners)}


# --- the view -------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    o, g = state.options, state.grid
    built = scores(state)
    turn = state.actor if state.phase == ACT else None
    sealed = state.bidding is not None
    players = [{
        "seat": p, "name": s.name, "yen": s.yen, "buildings": built[p], "total": s.yen + built[p],
        "discs": o.action_discs - state.laid(p) if state.phase == ACT else o.action_discs,
        "claim_discs": o.claim_discs - len(s.claims), "pyramids": o.pyramids - len(s.plots),
        "plots": list(s.plots), "place": state.order.index(p) + 1 if p in state.order else None,
        "has_bid": sealed and state.bidding.has_bid(p), "turn": turn == p,
        "bid": state.bidding.amount(p) if sealed and p == viewer else None,
    } for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "max_rounds": o.max_rounds,
        "players": players, "turn": turn, "order": list(state.order),
        "pot": state.pot, "end_pot": o.threshold, "last_phase": state.last_phase,
        "bidding": state.bidding.view(viewer) if sealed else None,
        "grid": {"size": g.size, "blocked": list(g.blocked),
                 "cards": [{"card": c, "owner": state.owner(c), "lots": state.lots[c],
                            "storeys": [state.storeys(c, k) for k in range(state.lots[c])],
                            "value": card_value(state, c)} for c in g.cards],
                 "corners": [{"corner": k, "four": k in g.four_corners, "drink": state.drink_at(k),
                              "price": state.price(d.split("-", 1)[0]) if (d := state.drink_at(k)) else None}
                             for k in g.corners],
                 "open_corners": list(g.open_corners(k for k, _ in state.drinks)),
                 "claims": [{"plot": a, "neighbour": b, "seat": p} for p, s in enumerate(state.seats)
                            for a, b in s.claims]},
        "prices": [{"colour": c, "yen": state.price(c), "crate": sum(1 for d in state.crates if d.startswith(c + "-")),
                    "disc": next((p for p, sp in state.spaces if sp == c), None)} for c in o.colour_row],
        "price_move_used": state.used(PRICE), "pieces": state.pieces, "free_build": state.owed,
        "spaces": [{"seat": p, "space": sp} for p, sp in state.spaces],
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "final": {"yen": [s.yen for s in state.seats], "buildings": built,
                  "totals": [s.yen + b for s, b in zip(state.seats, built)]} if state.phase == OVER else None,
    }


# --- what moves cost and why ----------------------------------------------------------------

def bid_info(state: State, move: Move) -> MoveInfo:
    amount = int(move.args.get("amount", 0))
    return MoveInfo(cost=amount, why="why.izakaya.bid", params={"amount": amount})


def build_info(state: State, move: Move) -> MoveInfo:
    plot = move.args.get("plot")
    if not isinstance(plot, int) or plot not in state.grid.plots:
        return MoveInfo()
    if state.owner(plot) != move.player:   # another's plot, or nobody's: it scores nothing for the builder
        return MoveInfo()
    value, storeys = card_value(state, plot), int(move.args.get("storeys", 0))
    return MoveInfo(pays_up_to=value * storeys, why="why.izakaya.build",
                    params={"drinks_yen": value, "storeys": storeys})
