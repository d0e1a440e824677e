"""METRO DRINKS as data: JIDOHANBAIKI's stock-card column, the crates, and where every drink is.

Pure data and small rules on it; no phase logic (``vending.py`` holds the moves). The state of a
METRO DRINKS game carries one :class:`DrinksState` (``State.drinks``; None in the other METRO
games).

The column: the 6 colour cards and as many shape cards as make it as long as the action-card
sets (9 cards beside Tokyo's sets: 3 shapes out; 8 beside Osaka's: 4 out). Which shape cards
stay in the box nobody sees, so it is not drawn at setup: the deal turns up a card with the odds
that follow from it (every colour card is in the deck, each unseen shape card is in it with the
same chance), and the cards never turned up are the ones left in the box.

>>> col = StockColumn(size=9)
>>> odds = dict((m.args["card"], p) for m, p in deal_outcomes(col, (), 6).outcomes)
>>> round(odds["red"], 3), round(odds["tall_can"], 3), round(sum(odds.values()), 6)
(0.111, 0.056, 1.0)
>>> [bonus_for(n) for n in (1, 3, 4, 5, 6)]
[100, 100, 200, 200, 300]
"""
from __future__ import annotations

import random
from typing import Iterable, NamedTuple

from ...drinks import COLOURS, DRINK_IDS, SHAPES
from ..engine import CHANCE, ChanceChoice, IllegalMove, Move
from ..tower import Tower

STOCK_SET = "JIDOHANBAIKI"     # the column's name in the view (the other columns: their set ids)
GAP = ""                       # a slot whose colour card was taken; the station without a drink
COLOUR_IDS: tuple[str, ...] = tuple(c.value for c in COLOURS)
SHAPE_IDS: tuple[str, ...] = tuple(s.value for s in SHAPES)
STOCK_IDS = COLOUR_IDS + SHAPE_IDS
# Yen a station's owner gets from the bank when a train pays there and a drink stands at it, by
# how many drinks of that colour stand on the whole board: (at least this many, yen), highest first.
BONUS_TIERS: tuple[tuple[int, int], ...] = ((6, 300), (4, 200), (1, 100))


_ORDER = {d: i for i, d in enumerate(DRINK_IDS)}


def sort_drinks(ids: Iterable[str]) -> tuple[str, ...]:
    """Catalogue order (by colour, then shape lowest first). (rules/games/common.py has its own:
    importing it from here would import every game while the METRO games are being declared.)"""
    return tuple(sorted(ids, key=_ORDER.__getitem__))


def drinks_arg(move: Move, name: str = "out") -> tuple[str, ...]:
    """A move's list of distinct drink ids."""
    items = move.args.get(name)
    if not isinstance(items, (list, tuple)) or not all(isinstance(d, str) and d in _ORDER for d in items):
        raise IllegalMove(f"{name!r} must be a list of drink ids such as 'red-short_can', not {items!r:.60}", move)
    if len(set(items)) != len(items):
        raise IllegalMove(f"{name!r} lists a drink twice", move)
    return tuple(items)


def colour_of(drink: str) -> str:
    return drink.partition("-")[0]


def crate_drinks(colour: str) -> tuple[str, ...]:
    """The six drinks of one colour (a full crate), lowest shape first."""
    return tuple(d for d in DRINK_IDS if colour_of(d) == colour)


def bonus_for(count: int) -> int:
    """The bonus per paid station of a colour with ``count`` drinks on the board."""
    return next((yen for least, yen in BONUS_TIERS if count >= least), 0)


class StockColumn(NamedTuple):
    size: int                          # cards in the column's deck at the start
    slots: tuple[str, ...] = ()        # face up, bottom to top; GAP where a colour card was taken
    discard: tuple[str, ...] = ()      # bottom to top
    dealt: int = 0                     # cards turned up so far

    @property
    def left(self) -> int:
        """Cards still face down in the column's deck."""
        return self.size - self.dealt


class DrinksState(NamedTuple):
    stock: StockColumn
    at: tuple[str, ...]                        # per station: the drink standing there, or GAP
    crates: tuple[int, ...]                    # per colour (COLOUR_IDS): the seat that took it, or -1
    supplies: tuple[tuple[str, ...], ...]      # per seat: drinks in the personal supply, sorted
    colour_cards: tuple[tuple[str, ...], ...]  # per seat: colour cards taken
    shape_cards: tuple[tuple[str, ...], ...]   # per seat: shape cards taken from the discard pile (own cards)
    boxed: tuple[int, ...]                     # per seat: action discs given back to the box for good
    tower: Tower = Tower()
    falling: tuple[str, ...] = ()              # a crate's drinks thrown into the tower, awaiting the drop
    thrower: int = -1                          # who threw them
    free: tuple[int, ...] = ()                 # seats building for free (a shape card) ...
    free_round: int = 0                        # ... in this round's action phase


def new_drinks(size: int, stations: int, seats: int) -> DrinksState:
    n = range(seats)
    return DrinksState(stock=StockColumn(size=size), at=(GAP,) * stations, crates=(-1,) * len(COLOUR_IDS),
                       supplies=tuple(() for _ in n), colour_cards=tuple(() for _ in n),
                       shape_cards=tuple(() for _ in n), boxed=tuple(0 for _ in n))


def seen_cards(d: DrinksState) -> list[str]:
    """Every stock card turned up so far: face up, discarded, or in front of a player."""
    out = [c for c in d.stock.slots if c != GAP] + list(d.stock.discard)
    for cards in (*d.colour_cards, *d.shape_cards):
        out.extend(cards)
    return out


def deal_outcomes(col: StockColumn, turned_up: Iterable[str], column: int) -> ChanceChoice:
    """The cards that may turn up next in the stock column, with their odds, given the cards
    ``turned_up`` so far: the deck holds every colour card and ``size - 6`` of the shape cards."""
    turned = set(turned_up)
    colours = [c for c in COLOUR_IDS if c not in turned]
    shapes = [s for s in SHAPE_IDS if s not in turned]
    shapes_in = col.size - len(COLOUR_IDS) - (len(SHAPE_IDS) - len(shapes))
    left = len(colours) + shapes_in
    outcomes = [(Move("deal", CHANCE, {"column": column, "card": c}), 1 / left) for c in colours]
    if shapes_in > 0:
        outcomes += [(Move("deal", CHANCE, {"column": column, "card": s}), shapes_in / left / len(shapes))
                     for s in shapes]
    return ChanceChoice(tuple(outcomes))


def turn_up(d: DrinksState, card: str) -> DrinksState:
    """A card turned up on top of the column."""
    stock = d.stock
    return d._replace(stock=stock._replace(slots=stock.slots + (card,), dealt=stock.dealt + 1))


def slide_down(d: DrinksState) -> DrinksState:
    """Between rounds: the bottom card is discarded (a gap there discards nothing), the rest slide
    down keeping their gaps; the deal then puts one new card on top."""
    stock = d.stock
    bottom = stock.slots[:1]
    discard = stock.discard + tuple(c for c in bottom if c != GAP)
    return d._replace(stock=stock._replace(slots=stock.slots[1:], discard=discard))


def on_board(d: DrinksState, colour: str) -> int:
    return sum(1 for x in d.at if x and colour_of(x) == colour)


def station_bonus(d: DrinksState, station: int) -> tuple[str, int] | None:
    """(colour, yen) a train paying at ``station`` adds for its owner, or None without a drink."""
    drink = d.at[station]
    if not drink:
        return None
    colour = colour_of(drink)
    return colour, bonus_for(on_board(d, colour))


def owner_of(d: DrinksState, drink: str) -> int:
    """The seat holding the drink's colour card (its crate), or -1."""
    return d.crates[COLOUR_IDS.index(colour_of(drink))]


def redraw_hidden(d: DrinksState, rng: random.Random) -> DrinksState:
    """The stock column with what no viewer sees drawn again: the discard pile below its top
    card (the face-down deck is no list of cards here: its odds follow from what was seen)."""
    hidden = len(d.stock.discard) - 1
    if hidden <= 0:
        return d
    seen = [c for c in seen_cards(d) if c not in d.stock.discard[:-1]]
    drawn: list[str] = []
    for _ in range(hidden):
        spec = deal_outcomes(d.stock, seen + drawn, 0)
        moves = [m.args["card"] for m, _ in spec.outcomes]
        drawn.append(rng.choices(moves, weights=[p for _, p in spec.outcomes])[0])
    return d._replace(stock=d.stock._replace(discard=tuple(drawn) + d.stock.discard[-1:]))
