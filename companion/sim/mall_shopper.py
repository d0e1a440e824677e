"""A computer shopper for the shopping-mall game (rule book 002): it walks towards the dearest goods
it can reach, takes the dearest good it stands in front of (a tuna only when it is likely to pay
more than it costs), tries the vending machine when nothing better is at hand, and heads for the
exit once its crate holds enough. A good falling out (the skill variant) is the table's to tap,
never the computer's choice. A random shopper wanders the aisles for ever and seldom leaves.
"""
from __future__ import annotations

import random
from typing import Any

from ..rules.games.mall_plan import good_kind
from ..rules.games.shopping_mall_state import price_pile

ENOUGH = 4           # goods in the crate that send the shopper to the exit
MACHINE = 250        # what a go at the vending machine is worth to it, about
MAGAZINE = 60        # a tie-break is worth a little
DETERGENT = 150      # it doubles a clothing item, when there is one


def _value(state: Any, name: str) -> float:
    """About what a good (a drink id or a kind) pays this shopper when they leave."""
    kind = good_kind(name) if "-" in name else name
    if kind in ("crab", "tuna"):
        bag = state.in_bag(kind) or [g for goods in state.cards.values() for g in goods if good_kind(g) == kind]
        mean = sum(state.plan.values[g] for g in bag) / len(bag) if bag else 0
        return mean - (state.tuna_price if kind == "tuna" else 0)
    if kind == "salmon":
        return state.salmon_price
    if kind == "magazine":
        return MAGAZINE
    if kind == "detergent":
        return DETERGENT
    pile = price_pile(name if kind == "drink" else f"{kind}#0")
    return state.prices.get(pile, 0) if pile else 0


def _best_at(state: Any, point: str) -> float:
    """The dearest good on the cards a shopper standing at ``point`` faces."""
    best = 0.0
    for card in state.plan.faces.get(point, ()):
        for g in state.cards[card]:
            best = max(best, _value(state, g if good_kind(g) == "drink" else good_kind(g)))
    return best + (MACHINE if point in state.plan.vending and state.machine else 0)


def mall_shopper(game: Any, state: Any, moves: list[Any], rng: random.Random) -> Any:
    own = [m for m in moves if m.kind != "lose"] or moves
    kinds = {m.kind for m in own}
    crate = state.shopper.crate
    if "leave" in kinds and len(crate) >= ENOUGH:
        return next(m for m in own if m.kind == "leave")
    walks = [m for m in own if m.kind in ("move", "enter")]
    if walks:
        if len(crate) >= ENOUGH:   # towards the exit
            return min(walks, key=lambda m: (state.plan.steps_out(m.args["point"]), rng.random()))
        return max(walks, key=lambda m: (_best_at(state, m.args["point"]), rng.random()))
    takes = [m for m in own if m.kind == "take"]
    best = max(takes, key=lambda m: (_value(state, m.args["good"]), rng.random()), default=None)
    worth = _value(state, best.args["good"]) if best else 0
    machine = next((m for m in own if m.kind == "use_machine"), None)
    if machine and worth < MACHINE:
        return machine
    if best is not None and worth > 0:
        return best
    return next((m for m in own if m.kind == "pass"), rng.choice(own))
