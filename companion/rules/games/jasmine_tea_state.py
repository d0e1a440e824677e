"""JASMINE TEA's table: its options, the state of a game, and what the state is worth (the bet
limit, what a round's drop pays, the final card bonus). The rules that move it on are declared
in jasmine_tea.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ...drinks import ALL_DRINKS, CARD_IDS
from ..engine import OPTION_RANGE
from ..options import Flag, GameOptions, Players, Whole, WholeIn
from ..tower import Tower
from .common import AroundTheTable, count_matching, matches, with_rethrow
from .sealed import BID, BID_TIE, Bidding

START, TURNS, DROP, NEXT_START, OVER = "start", "turns", "drop", "next_start", "over"
PHASES = (START, BID, BID_TIE, TURNS, DROP, NEXT_START, OVER)
AtLeastOne = WholeIn(1, OPTION_RANGE[1])


class Options(GameOptions):
    """The rule book's numbers, and named choices where it is silent (docs/rules-notes.md)."""

    # Rules version 1 read the bet limit as one for each bet action (docs/rules-notes.md,
    # "Corrected in rules version 2"); a game stored under it replays with that reading.
    EARLIER = {1: {"bet_limit_per": "action"}}

    players: Players = 3
    start_yen: Whole = 2000
    rounds: Whole = 0                   # 0: by player count (5 / 4 / 3)
    actions: AtLeastOne = 3             # per player and round
    last_round_actions: AtLeastOne = 2
    card_price: Whole = 500
    bet_base: Whole = 200               # the bet limit without cards
    bet_per_card: Whole = 200           # added to the limit per owned card
    bet_limit_per: Literal["round", "action"] = "round"   # "round": all bets of a round; "action": each bet action
    payout_ratio: Whole = 3             # a paying bet pays 3:1
    drink_unit: Whole = 100             # 1 / 2 / 3 drinks cost 1 / 4 / 9 units
    max_drinks: AtLeastOne = 3
    bonus_per_drink: Whole = 200        # final bonus per boxed drink matching an owned card
    start_by: Literal["bid", "random"] = "bid"   # a sealed start bid, or a random start player
    max_rebids: Whole = 3               # tied start bids re-bid this often, then a coin decides
    poorest_tie: Literal["random", "turn_order"] = "random"   # who starts next when several are poorest
    allow_pass: Flag = True             # a player may let an action go by

    @property
    def total_rounds(self) -> int:
        if self.rounds:
            return self.rounds
        return 5 if self.players == 2 else 4 if self.players <= 4 else 3


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    cards: tuple[str, ...] = ()      # stock cards bought (kept to the end)


@dataclass(frozen=True)
class Bet:
    seat: int
    card: str
    amount: int
    turn: int                        # the action of the round that placed it (0-based)


@dataclass(frozen=True)
class State(AroundTheTable):
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0                    # may go below zero: the bank never runs dry
    phase: str = START
    round: int = 1
    start_player: int = 0
    turn: int = 0                    # actions taken this round
    bidding: Bidding | None = None
    tied: tuple[int, ...] = ()       # seats a coin decides between
    middle: tuple[str, ...] = CARD_IDS
    bets: tuple[Bet, ...] = ()
    supply: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    bought: tuple[tuple[int, str], ...] = ()   # (buyer, drink) set aside this round
    rethrow: frozenset[str] = frozenset()      # fell out between throws: thrown with the next throw
    tower: Tower = field(default_factory=Tower)
    box: frozenset[str] = frozenset()          # came out: out of the game
    thrower: int | None = None
    last_round: Mapping[str, Any] | None = None
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def actions_this_round(self) -> int:
        o = self.options
        return o.last_round_actions if self.round >= o.total_rounds else o.actions


def bet_limit(state: State, p: int) -> int:
    """What ``p`` may still bet with the next bet action: the limit (200 plus 200 per owned card)
    less what ``p`` staked earlier this round (option ``bet_limit_per`` "round"), and never more
    than ``p`` has."""
    o = state.options
    limit = o.bet_base + o.bet_per_card * len(state.seats[p].cards)
    if o.bet_limit_per == "round":
        limit -= sum(b.amount for b in state.bets if b.seat == p)
    return max(0, min(limit, state.seats[p].yen))


def bet_on(state: State, card: str) -> bool:
    """Whether a bet lies on ``card`` this round (then it cannot be bought)."""
    return any(b.card == card for b in state.bets)


def thrown_now(state: State) -> tuple[str, ...]:
    """What the round's throw puts in the tower: the drinks bought, and any that fell out since."""
    return with_rethrow(state, (d for _, d in state.bought))


def score_round(state: State, out: tuple[str, ...]) -> dict:
    """What the bank pays for a drop, and where each stake goes (bank or a card's owner)."""
    o = state.options
    owner = {c: p for p, s in enumerate(state.seats) for c in s.cards}
    paid = [0] * state.n
    stakes_to = [0] * state.n
    to_bank = 0
    lines = []
    for card in CARD_IDS:
        for p in range(state.n):
            stake = sum(b.amount for b in state.bets if b.seat == p and b.card == card)
            if not stake:
                continue
            hit = any(matches(d, card) for d in out)
            win = o.payout_ratio * stake if hit else 0
            paid[p] += win
            q = owner.get(card)
            if q is not None and q != p:
                stakes_to[q] += stake
            else:
                to_bank += stake
            lines.append({"seat": p, "card": card, "stake": stake, "won": win, "stake_to": q if q != p else None})
    return {"out": list(out), "paid": paid, "stakes_to_owners": stakes_to, "stakes_to_bank": to_bank,
            "bets": lines}


def final_bonus(state: State) -> list[dict]:
    o = state.options
    return [{c: o.bonus_per_drink * count_matching(state.box, c) for c in s.cards} for s in state.seats]
