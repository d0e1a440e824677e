"""The shopping-mall game's state and its sums (rule book 002, the shopping-mall game): where each
good is, what leaving the mall pays and how the market's prices fall, the ranking at the end.

Every good is in exactly one place: on a card, in a shopper's crate, in a shopper's pile before
them (paid for), in the bag (crabs and tunas), in the vending machine's crate (drinks), on the way
through the tower, or in the box (lost in the skill variant, or never laid).

>>> exit_pay(("shirt#1", "shirt#2", "red-tall_can", "salmon#1", "crab#7"), {"outer": 300, "red": 300},
...          salmon=500, values={"crab#7": 600}, detergent=())[0]
2000
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from ..engine import Event, IllegalMove, Move
from .common import arg_text, set_at, sort_drinks
from .mall_plan import CLOTHING, OUTSIDE, STACK_OF, Plan, good_kind

BANK = 1_000_000          # the general supply of yen: as good as endless (VORBEREITUNG 15)
SALMON_FIRST, SALMON_LATER = 500, 400
TUNA_STEP = 500          # the first tuna costs 500, each after it 500 more


@dataclass(frozen=True)
class Shopper:
    name: str
    yen: int = 0
    at: str = OUTSIDE                 # a point of the plan, or outside the mall
    crate: tuple[str, ...] = ()       # goods taken on this trip
    pile: tuple[str, ...] = ()        # goods paid for, laid before the shopper
    barrels: int = 0                  # one mackerel barrel per exit
    tunas: int = 0                    # tunas bought so far: the next costs 500 more

    def magazines(self) -> int:
        return sum(1 for g in self.pile if good_kind(g) == "magazine")


@dataclass(frozen=True)
class State:
    options: object
    plan: Plan
    seats: tuple[Shopper, ...]
    phase: str
    cards: Mapping[str, tuple[str, ...]]          # card id -> goods on it
    prices: Mapping[str, int]                      # price pile -> yen on it (colours and stacks)
    bag: tuple[str, ...]
    lid: tuple[str, ...] = ()                      # drinks still to be drawn onto the drink cards
    machine: tuple[str, ...] = ()                  # the vending machine's crate
    thrown: tuple[str, ...] = ()                   # the drinks going through the tower now
    box: tuple[str, ...] = ()                      # goods lost (skill variant)
    bank: int = BANK
    barrels: int = 0                               # mackerel barrels not yet taken
    player: int = 0
    start_player: int = 0
    round: int = 1
    salmon_sold: bool = False                      # someone has left with salmon: 400 from now on
    drawing: str | None = None                     # the kind drawn from the bag now ("crab", "tuna")
    last: Mapping[str, object] | None = field(default=None, compare=True)
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def shopper(self) -> Shopper:
        return self.seats[self.player]

    @property
    def tuna_price(self) -> int:
        """What the shopper whose turn it is pays for a tuna: 500, and 500 more for each bought before."""
        return TUNA_STEP * (self.shopper.tunas + 1)

    @property
    def salmon_price(self) -> int:
        return SALMON_LATER if self.salmon_sold else SALMON_FIRST

    def in_bag(self, kind: str) -> list[str]:
        return [g for g in self.bag if good_kind(g) == kind]

    def done(self, seat: int) -> bool:
        return self.seats[seat].barrels >= self.options.trips

    def goods_where(self) -> dict[str, list[str]]:
        """Each good and the places it is found (one, when the books are right)."""
        where: dict[str, list[str]] = {}
        for card, goods in self.cards.items():
            for g in goods:
                where.setdefault(g, []).append(card)
        for p, s in enumerate(self.seats):
            for g in s.crate:
                where.setdefault(g, []).append(f"crate {p}")
            for g in s.pile:
                where.setdefault(g, []).append(f"pile {p}")
        for name in ("bag", "lid", "machine", "thrown", "box"):
            for g in getattr(self, name):
                where.setdefault(g, []).append(name)
        return where


def shown_as(good: str) -> str:
    """How a screen names a good: a drink by its id (drawn), any other by its kind ('shirt')."""
    return good if good_kind(good) == "drink" else good_kind(good)


def set_shopper(state: State, seat: int, **changes: object) -> State:
    """The state with shopper ``seat`` changed."""
    return replace(state, seats=set_at(state.seats, seat, **changes))


def price_pile(good: str) -> str | None:
    """The market price pile a good is paid from: its colour card or its stack; None for the
    special goods (salmon, crabs, tunas pay their own; magazines and detergent pay nothing)."""
    kind = good_kind(good)
    if kind == "drink":
        return good.split("-", 1)[0]
    return STACK_OF.get(kind)


def exit_pay(crate: tuple[str, ...], prices: Mapping[str, int], salmon: int, values: Mapping[str, int],
             detergent: tuple[str, ...]) -> tuple[int, dict[str, int], list[dict]]:
    """What leaving with ``crate`` pays (SPIELABLAUF; the special goods): the market price of each
    good, salmon at ``salmon`` each, crabs and tunas at their face, each clothing item named in
    ``detergent`` twice. Returns the total, the count paid from each price pile, and the lines."""
    total, piles, lines = 0, {}, []
    for g in crate:
        kind, pile = good_kind(g), price_pile(g)
        if pile is not None:
            pay = prices[pile] * (2 if g in detergent else 1)
            piles[pile] = piles.get(pile, 0) + 1
        elif kind == "salmon":
            pay = salmon
        else:
            pay = values.get(g, 0)
        total += pay
        lines.append({"good": g, "pays": pay, "doubled": g in detergent})
    return total, piles, lines


def best_detergent(crate: tuple[str, ...], prices: Mapping[str, int]) -> tuple[str, ...]:
    """The clothing items the detergent in ``crate`` doubles best: the dearest, one each."""
    k = sum(1 for g in crate if good_kind(g) == "detergent")
    clothes = sorted((g for g in crate if good_kind(g) in CLOTHING), key=lambda g: (-prices[price_pile(g)], g))
    return tuple(clothes[:k])


def ranking(state: State) -> tuple[int, ...]:
    """The winners: most yen; a tie goes to most magazines; still tied, all of them."""
    best = max(s.yen for s in state.seats)
    tied = [p for p, s in enumerate(state.seats) if s.yen == best]
    most = max(state.seats[p].magazines() for p in tied)
    return tuple(p for p in tied if state.seats[p].magazines() == most)


# --- the skill variant ------------------------------------------------------------------------

def losses(state: State, seat: int) -> list[Move]:
    """In the skill variant, any good in a shopper's crate may fall out (tapped when it happens)."""
    if not state.options.skill or state.phase == "over":
        return []
    return [Move("lose", seat, {"good": g}) for g in state.seats[seat].crate]


def lose(state: State, move: Move) -> tuple[State, list[Event]]:
    """A good fell out of the mover's crate (the skill variant): lost; a drink goes to the machine's crate."""
    if not state.options.skill:
        raise IllegalMove("goods falling out of a crate are lost only in the skill variant (option 'skill')", move)
    p = move.player
    g = arg_text(move, "good")
    crate = state.seats[p].crate
    if g not in crate:
        raise IllegalMove(f"{g} is not in {state.seats[p].name}'s crate: {', '.join(crate) or 'none'}", move)
    state = set_shopper(state, p, crate=tuple(x for x in crate if x != g))
    if good_kind(g) == "drink":
        state = replace(state, machine=tuple(sort_drinks(state.machine + (g,))))
    else:
        state = replace(state, box=state.box + (g,))
    return state, [Event("lost", {"seat": p, "good": shown_as(g), "item": g})]
