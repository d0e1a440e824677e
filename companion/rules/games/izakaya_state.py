"""IZAKAYA's options and state (rule book 000, IZAKAYA), and the scoring of its buildings.

A building scores the current prices of the drinks at its plot card's corners, added up, times
its storeys (the rule book's example: 3 storeys beside two white drinks at 200 and a blue at 300
make 3 x 700 = 2,100 yen).

>>> s = State(Options(), (Seat("A", 1000), Seat("B", 1000)), Grid(3, (4,)), lots=(1,) * 9, coins=(1, 1, 2, 2, 3, 3))
>>> s.price("white"), s.price("blue")
(100, 200)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from pydantic import model_validator

from ...drinks import CARD_IDS
from ..options import GameOptions, Items, Players, Whole, WholeIn
from .izakaya_grid import Grid
from .sealed import Bidding

LAYOUT, ORDER, BID, ACT, OVER = "layout", "order", "bid", "act", "over"
PRICE, CLAIM, BUILD, PASS = "price", "claim", "build", "pass"   # the spaces besides the colour cards
COLOURS = CARD_IDS[:6]
# The pot that ends the game after one more action phase, by player count (rule book: Spielende).
END_POT = {2: 1500, 3: 2300, 4: 3000, 5: 4000}
GRID_SIZE = {2: 3, 3: 3, 4: 4, 5: 5}


class Options(GameOptions):
    players: Players = 2
    start_yen: Whole = 1000
    end_pot: Whole = 0                          # 0: by player count (1,500 / 2,300 / 3,000 / 4,000)
    bid_step: WholeIn(1, 10_000) = 100
    grid: WholeIn(0, 7) = 0                     # cards per side; 0: by player count (3, 3, 4, 5)
    two_lots: Items(WholeIn(0, 48)) = ()        # cards (row by row from 0) with two dark plot borders;
    #                                             () = the table taps them at the start (phase "layout")
    colour_row: Items(str) = COLOURS            # the colour cards left to right
    start_coins: Items(WholeIn(0, 10)) = (1, 1, 2, 2, 3, 3)   # 100-yen coins on each, left to right
    coin: WholeIn(1, 10_000) = 100
    action_discs: WholeIn(1, 9) = 3
    claim_discs: WholeIn(0, 9) = 6
    pyramids: WholeIn(0, 25) = 6
    pieces: WholeIn(0, 200) = 36                # JUTAKU's building pieces in the supply (count your box)
    piece_storeys: WholeIn(1, 10) = 2           # the most storeys one piece adds
    max_storeys: WholeIn(1, 20) = 6             # the tallest building
    build_on: Literal["any", "own", "own_or_free"] = "any"   # whose plot cards a piece may go on
    max_rounds: WholeIn(1, 100) = 20            # a bound so that a game always ends

    @model_validator(mode="after")
    def _rows(self) -> "Options":
        if sorted(self.colour_row) != sorted(COLOURS):
            raise ValueError("option colour_row must list the six colours once each")
        if len(self.start_coins) != 6:
            raise ValueError("option start_coins must give the coins on each of the six colour cards")
        return self

    @property
    def size(self) -> int:
        return self.grid or GRID_SIZE.get(self.players, 5)

    @property
    def threshold(self) -> int:
        return self.end_pot or END_POT.get(self.players, 4000)


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    claims: tuple[tuple[int, int], ...] = ()    # edges holding this player's claim discs
    plots: tuple[int, ...] = ()                 # cards holding this player's pyramids


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    grid: Grid
    lots: tuple[int, ...]                       # lots per card (0 on a blocked card)
    phase: str = ORDER
    order: tuple[int, ...] = ()                 # the turn order (while drawing: the discs drawn)
    bidding: Bidding | None = None
    pot: int = 0
    last_phase: bool = False                    # the pot reached its mark: this action phase is the last
    round: int = 0                              # rounds (a bid and an action phase) begun
    coins: tuple[int, ...] = ()                 # coins on each colour card, in colour_row order
    crates: frozenset[str] = frozenset()        # drinks still in their crates
    drinks: tuple[tuple[int, str], ...] = ()    # (corner, drink), by corner
    buildings: tuple[tuple[int, int, int, int], ...] = ()   # (card, lot, storeys, pieces), by card and lot
    pieces: int = 0                             # building pieces left in the supply
    step: int = 0                               # action discs laid this phase
    spaces: tuple[tuple[int, str], ...] = ()    # (seat, space) of the discs laid this phase
    owed: int | None = None                     # a seat owed a free building piece (a line of three)
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def actor(self) -> int:
        """Who lays the next action disc (or builds the free piece owed)."""
        return self.owed if self.owed is not None else self.order[self.step % self.n]

    def price(self, colour: str) -> int:
        return self.coins[self.options.colour_row.index(colour)] * self.options.coin

    def owner(self, card: int) -> int | None:
        return next((p for p, s in enumerate(self.seats) if card in s.plots), None)

    def storeys(self, card: int, lot: int) -> int:
        return next((h for c, k, h, _ in self.buildings if (c, k) == (card, lot)), 0)

    def drink_at(self, corner: int) -> str | None:
        return dict(self.drinks).get(corner)

    def used(self, space: str) -> bool:
        return any(s == space for _, s in self.spaces)

    def laid(self, seat: int) -> int:
        return sum(1 for p, _ in self.spaces if p == seat)


def card_value(state: State, card: int) -> int:
    """The prices of the drinks at a card's corners, added up."""
    return sum(state.price(d.split("-", 1)[0]) for k in state.grid.corners_of(card)
               if (d := state.drink_at(k)) is not None)


def building_score(storeys: int, drink_prices: list[int]) -> int:
    """One building's score: its storeys times the prices of the drinks touching its card.

    >>> building_score(3, [200, 200, 300])   # the rule book's example
    2100
    """
    return storeys * sum(drink_prices)


def scores(state: State) -> list[int]:
    """Each seat's buildings, scored (a building on a card nobody claimed scores for nobody)."""
    out = [0] * state.n
    for card, _, storeys, _ in state.buildings:
        p = state.owner(card)
        if p is not None:
            out[p] += storeys * card_value(state, card)
    return out
