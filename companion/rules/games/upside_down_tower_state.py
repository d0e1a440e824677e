"""The upside-down tower game's table: its options, the state of a game, and what the state says
(a drink's colour, what the bets return, whether the game has ended). The rules that move it on
are declared in upside_down_tower.py."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from pydantic import model_validator

from ...drinks import COLOURS
from ..options import Flag, GameOptions, Items, Players, Whole
from .common import clockwise, drink, sort_drinks
from .sealed import BID, BID_TIE, Bidding

DRAW, BUY, BET, THROW, LAND, SELL, OVER = "draw", "buy", "bet", "throw", "land", "sell", "over"
PHASES = (DRAW, BID, BID_TIE, BUY, BET, THROW, LAND, SELL, OVER)

SPACES = ("slot", "crate", "outside")
SPOTS = SPACES + ("stuck",)
FRONT_SLOTS = 12
# Rough odds for the simulated table; a real table reports each landing.
LANDING_ODDS = {"slot": 0.25, "crate": 0.35, "outside": 0.3, "stuck": 0.1}


class Options(GameOptions):
    players: Players = 3
    start_yen: Whole = 1000
    marker_colours: Items(str) = ("black", "white")   # the two colours that mark the bet spaces
    card_start: Whole = 100          # yen on each colour card at the start
    card_rise: Whole = 100           # added to a card per stock bought and per drink landed in the crate
    rate_slot: Whole = 300           # paid per winning 100 on "in a slot"
    rate_crate: Whole = 100          # ... on "in the crate, not in a slot"
    rate_outside: Whole = 200        # ... on "outside the crate"
    coin: Whole = 100
    max_stocks: Whole = 2            # the bid winner buys up to this many, of different colours
    max_rebids: Whole = 3            # tied bids re-bid this often, then a coin decides
    hide_yen_while_bidding: Flag = True
    max_rounds: Whole = 30           # a bound so that a game always ends (0: none)

    @model_validator(mode="after")
    def _two_marker_colours(self) -> "Options":
        m = self.marker_colours
        if len(m) != 2 or len(set(m)) != 2 or not set(m) <= {c.value for c in COLOURS}:
            raise ValueError("option marker_colours must name two different colours")
        return self

    def rate(self, space: str) -> int:
        return {"slot": self.rate_slot, "crate": self.rate_crate, "outside": self.rate_outside}[space]


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    stocks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bet:
    seat: int
    space: str
    coins: int


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0
    phase: str = DRAW
    round: int = 1
    lid: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()            # the bet-space markers: out of play
    cards: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (colour, drinks on its card)
    prices: tuple[tuple[str, int], ...] = ()          # (colour, yen on its card)
    front: tuple[str, ...] = ()                       # the two crates before the tower
    bidding: Bidding | None = None
    tied: tuple[int, ...] = ()
    winner: int | None = None                         # this round's bid winner
    bought: tuple[str, ...] = ()                      # colours bought this round
    bets: tuple[Bet, ...] = ()
    acted: int = 0                                    # players done in the bet or sell phase
    thrown: tuple[str, ...] = ()
    landed: tuple[tuple[str, str], ...] = ()          # (drink, spot)
    last_round: Mapping[str, Any] | None = None
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    def card(self, colour: str) -> tuple[str, ...]:
        return dict(self.cards)[colour]

    def price(self, colour: str) -> int:
        return dict(self.prices)[colour]

    @property
    def order(self) -> tuple[int, ...]:
        return clockwise(self.winner or 0, self.n)


def colour_of(drink_id: str) -> str:
    return drink(drink_id).colour.value


def set_card(state: State, colour: str, drinks: tuple[str, ...]) -> tuple:
    """The colour cards with ``drinks`` standing on the ``colour`` card."""
    return tuple((c, tuple(sort_drinks(drinks)) if c == colour else ds) for c, ds in state.cards)


def raise_price(state: State, colour: str, by: int) -> State:
    """``state`` with ``by`` yen more from the bank on the ``colour`` card."""
    prices = tuple((c, y + by if c == colour else y) for c, y in state.prices)
    return replace(state, prices=prices, bank=state.bank - by)


def settle_bets(state: State) -> dict:
    """What each bet returns: per coin the stake plus the space's rate if it won."""
    o = state.options
    counts = {s: sum(1 for _, spot in state.landed if spot == s) for s in SPACES}
    back = [0] * state.n
    lines = []
    to_bank = 0
    for b in state.bets:
        won_coins = (counts[b.space] >= 1) + (b.coins == 2 and counts[b.space] >= 2)
        got = won_coins * (o.coin + o.rate(b.space))
        back[b.seat] += got
        to_bank += (b.coins - won_coins) * o.coin
        lines.append({"seat": b.seat, "space": b.space, "coins": b.coins, "won_coins": won_coins, "paid": got})
    return {"counts": counts, "paid": back, "lost_to_bank": to_bank, "bets": lines}


def end_reason(state: State) -> str | None:
    if len(state.front) >= FRONT_SLOTS:
        return "front_crates_full"
    if sum(1 for _, ds in state.cards if not ds) >= 2:
        return "two_cards_empty"
    return None
