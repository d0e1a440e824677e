"""POCARI BET's state: the options, the seats and the round in play, and what a round pays.

The moves that change it, who makes them and the declaration are in pocari_bet.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from pydantic import model_validator

from ...drinks import ALL_DRINKS, COLOUR_CARDS, SHAPE_CARDS, Card, Drink
from ..options import Flag, GameOptions, Players, Whole, WholeIn
from ..tower import Tower
from .common import AroundTheTable

# Phases, in the order a round runs through them.
START, DRAW, SECRET, TURN_UP, DRAFT, INVEST, DECLARE, DROP, OVER = (
    "start", "draw", "secret", "turn_up", "draft", "invest", "declare", "drop", "over")

# Stakes move in 100-yen tiles (a smaller step would list thousands of stakes to choose from).
Stake = WholeIn(100, 10_000)


class Options(GameOptions):
    """The numbers of the rule book, and named choices where it is silent."""

    players: Players = 3
    start_yen: Whole = 1000
    rounds: Whole = 9                # the richest after this many rounds wins ...
    win_at: Whole = 10_000           # ... or whoever reaches this much first
    min_stake: Stake = 100           # what a player invests each round: from min_stake to
    max_stake: Stake = 300           # max_stake in steps of stake_step, never more than they have
    stake_step: Stake = 100
    bonus: Whole = 500               # for paying out on the colour or shape of one's secret card
    restart_yen: Whole = 500         # for a player who ran out of money
    # The 7th drink may be stuck in the tower when its cards turn up. True: it
    # still costs the start player his stake if it comes out in this round's drop.
    seventh_stuck_counts: Flag = True

    @model_validator(mode="after")
    def _stakes_in_order(self) -> "Options":
        if self.min_stake > self.max_stake:
            raise ValueError(f"min_stake ({self.min_stake}) must not be more than max_stake ({self.max_stake})")
        return self

    @classmethod
    def from_config(cls, config: Mapping[str, Any], title: str, allowed: Sequence[int]) -> "Options":
        # The names given are checked against the three seats (start), not taken as the count.
        return super().from_config({k: v for k, v in config.items() if k != "names"}, title, allowed)


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    secret: str | None = None      # the stock card drawn this round
    hand: tuple[str, ...] = ()     # drinks drafted this round
    stake: int = 0                 # yen pushed forward this round
    declared: str | None = None    # the colour or shape invested in


@dataclass(frozen=True)
class State(AroundTheTable):
    options: Options
    seats: tuple[Seat, ...]
    bank: int                       # may go negative: the bank never runs dry (rules-notes)
    phase: str = START
    round: int = 1
    start_player: int = 0
    colour_deck: frozenset[str] = frozenset(c.id for c in COLOUR_CARDS)
    shape_deck: frozenset[str] = frozenset(c.id for c in SHAPE_CARDS)
    drawing_from: str | None = None           # the deck the current drawer chose
    face_up: tuple[str, ...] = ()             # the colour and shape card turned up
    seventh: str | None = None                # the drink those two cards name
    seventh_set_aside: bool = False           # False when it is stuck in the tower
    supply: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    rethrow: frozenset[str] = frozenset()     # fell out between throws; goes in with the next throw
    tower: Tower = field(default_factory=Tower)
    picks: int = 0                            # draft picks made this round
    last_round: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()



def thrown(state: State) -> tuple[str, ...]:
    """All that the start player throws in: six drafted drinks, the 7th, and any re-throws."""
    drinks = [d for s in state.seats for d in s.hand]
    if state.seventh_set_aside:
        drinks.append(state.seventh)
    return tuple(drinks) + tuple(sorted(state.rethrow))



def score_round(state: State, out: tuple[str, ...]) -> dict:
    """What each seat is paid back from the bank for a drop (0 when the stake is lost)."""
    o = state.options
    drinks = [Drink.parse(d) for d in out]
    seventh_out = state.seventh in out and (state.seventh_set_aside or o.seventh_stuck_counts)
    paid, matches, bonus = [], [], []
    for p, seat in enumerate(state.seats):
        n = sum(d.matches(Card.parse(seat.declared)) for d in drinks) if seat.declared else 0
        forfeited = seventh_out and p == state.start_player
        pays = seat.stake > 0 and n > 0 and not forfeited
        got_bonus = pays and seat.secret == seat.declared
        paid.append(seat.stake * (1 + n) + (o.bonus if got_bonus else 0) if pays else 0)
        matches.append(n)
        bonus.append(got_bonus)
    return {"paid": paid, "matches": matches, "bonus": bonus, "seventh_out": seventh_out,
            "stakes": [s.stake for s in state.seats], "declared": [s.declared for s in state.seats],
            "secrets": [s.secret for s in state.seats], "start_player": state.start_player,
            "seventh": state.seventh}



def payouts(state: State) -> dict:
    """Money now; for the round in play each seat's best case (without the secret bonus,
    which would give the card away); the final standings once the game is over."""
    in_play = list(thrown(state)) + sorted(state.tower.inside) if state.phase in (DECLARE, DROP) else []
    best = []
    for s in state.seats:
        n = sum(Drink.parse(d).matches(Card.parse(s.declared)) for d in in_play) if s.declared else 0
        best.append(s.yen + s.stake * (1 + n) if n else s.yen)
    return {"yen": [s.yen for s in state.seats], "stakes": [s.stake for s in state.seats],
            "best_case": best, "final": state.phase == OVER, "winners": list(state.winners)}



def matching(state: State, kind: str) -> int:
    """How many drinks that could come out this round match a colour or shape."""
    card = Card.parse(kind)
    return sum(Drink.parse(d).matches(card) for d in list(thrown(state)) + list(state.tower.inside))
