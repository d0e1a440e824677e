"""GENMAICHA's table: its options and the state of a game (the rules that move it on are in
genmaicha.py, the recipes in genmaicha_recipes.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

from ...drinks import ALL_DRINKS
from ..options import Flag, GameOptions, Items, Players, Whole, WholeIn
from .common import AroundTheTable
from .sealed import Bidding

DEAL, FILL, BID, BID_TIE, DRAFT, BREW, OVER = "deal", "fill", "bid", "bid_tie", "draft", "brew", "over"
PEEK, REVEAL = "peek", "reveal"   # the tea ceremony: a hidden card seen by one player

# Our copy of the rule book lacks the table of how many drinks go into each crate: our reading,
# by player count (docs/rules-notes.md, GENMAICHA 1).
FILL_BY_PLAYERS = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}


class Options(GameOptions):
    """The rule book's numbers, and named choices where it is silent (docs/rules-notes.md)."""

    players: Players = 3
    start_yen: Whole = 500
    rounds: WholeIn(0, 10) = 0             # 0: 3 rounds, 4 with two players
    drinks_per_crate: WholeIn(0, 6) = 0    # 0: FILL_BY_PLAYERS (the book's table is missing)
    row_yen: Items(Whole) = (300, 200, 100)     # top row to bottom row
    col_yen: Items(Whole) = (400, 500, 600)     # left column to right column
    brew_drop: Whole = 100                 # a line's yen fall by this after each brew (not below 0)
    bids_paid: Literal["all", "none"] = "all"   # every bid goes to the bank, or bids only set the order
    max_rebids: WholeIn(0, 5) = 1          # tied bidders add a bid this often, then a coin decides
    matcha: Flag = False                   # variant Matcha-iri
    matcha_yen: Items(Whole) = (100, 200, 200)  # per gap of the left, middle and right column
    market: Flag = False                   # variant tea market (brands on recipes)
    brand_min: WholeIn(100, 5000) = 100
    brand_paid_by: Literal["bank", "brewer"] = "bank"  # who pays the brand's owner a second stake
    brand_left: Literal["returned", "bank"] = "returned"  # a brand's stake at the game's end
    ceremony: Flag = False                 # variant tea ceremony (hidden cards above the top row)
    ceremony_bonus: Whole = 500

    @property
    def total_rounds(self) -> int:
        return self.rounds or (4 if self.players == 2 else 3)

    @property
    def per_crate(self) -> int:
        return self.drinks_per_crate or FILL_BY_PLAYERS[self.players]


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    drinks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Brand:
    line: str
    seat: int
    amount: int


@dataclass(frozen=True)
class State(AroundTheTable):
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0                       # may go below zero: the bank never runs dry
    phase: str = DEAL
    round: int = 1
    start_player: int = 0
    grid: tuple[str, ...] = ()          # stock cards, row by row from the top left
    lines: tuple[int, ...] = ()         # yen beside each line (genmaicha_recipes.LINES)
    pots: tuple[int, ...] = ()          # Matcha-iri yen in each gap (genmaicha_recipes.GAPS)
    bag: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    crates: tuple[tuple[str, ...], ...] = ()
    taken: tuple[int, ...] = ()         # crates drafted this round
    bidding: Bidding | None = None
    totals: tuple[int, ...] = ()        # each seat's bids this round, added up
    rebids: tuple[int, ...] = ()        # how often each seat re-bid this round
    coin: tuple[int, ...] = ()          # seats a coin put ahead of their tied equals, in that order
    tied: tuple[int, ...] = ()          # seats the coin decides between now
    order: tuple[int, ...] = ()         # this round's order: the highest bid first
    turn: int = 0                       # whose turn in ``order`` (draft, brewing)
    brewed: frozenset[str] = frozenset()    # lines brewed at least once in the game
    fresh: tuple[str, ...] = ()         # lines the brewer in turn brewed first in the game (may brand)
    brands: tuple[Brand, ...] = ()
    last_brew: Mapping[str, Any] | None = None
    # The tea ceremony: the three cards left over lie face down above the columns. The companion
    # learns one only when a player looks at it (entered on their phone) or tries it.
    hidden: tuple[str | None, ...] = ()
    seen: frozenset[tuple[int, int]] = frozenset()   # (seat, column) pairs: who has looked
    revealed: tuple[int, ...] = ()                    # columns whose hidden card lies face up
    looking: tuple[int, int] | None = None            # (seat, column) awaiting the card seen
    attempt: Mapping[str, Any] | None = None          # a four-card brew awaiting its hidden card
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()
