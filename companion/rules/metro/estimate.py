"""TOKYO METRO hints: the expected final yen of each legal move, estimated by random playouts.

An estimate must never tell a player what they cannot know. So before each playout the hidden
part of the state is **determinized** from the asking viewer's point of view: everything that
``game.view(state, viewer)`` hides is thrown away and drawn again, consistently with what that
viewer sees:

- the secret bids of the seats that have bid (``has_bid`` is public, the amount is not): drawn
  again the way a playout bids (``playout.policy_bid``);
- each column's face-down deck and the discard pile below its top card: the cards of the column's
  set that are neither face up, nor on top of the pile, nor in a player's hand are pooled and dealt
  again at random into the deck (as many cards of each dot group as the deck holds: the dots are
  printed on the backs) and under the top of the discard pile.

The determinization reads only what the viewer sees, and draws everything in an order that does
not depend on the hidden part (pools are sorted first), so two states that look the same to the
viewer give the same estimates for the same seed (tests/test_metro_estimate.py).

Then each playout applies one of the moves and plays the game to its end with the random policy
of ``playout.py``; the seat's final yen (after the end scoring) is recorded. The playouts are
spread over the moves evenly by **group** (one group per card action, or per kind for the other
moves: a walk to 30 fields is one choice of action and 30 of target) and within a group over its
moves, so that every kind of choice gets its share even when one action has a hundred targets.
Playout k of every move uses the same determinization and the same random stream (common random
numbers), which makes the differences between moves less noisy than the means themselves.

Pure: no clock, no I/O; all randomness comes from the ``random.Random`` given.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

from ..engine import Move
from .playout import play_out, policy_bid
from .state import BID, State

__all__ = ["determinize", "estimate_final", "group_key", "Stats"]


# --- determinization ----------------------------------------------------------------------------

def determinize(state: State, viewer: int | None, rng: random.Random) -> State:
    """A state that looks the same to ``viewer`` (None: the shared table view) as ``state``, with
    everything the viewer cannot see drawn at random."""
    seats = list(state.seats)
    if state.phase == BID:
        for p, seat in enumerate(seats):
            if p != viewer and seat.bid >= 0:
                # Drawn the way a playout bids; policy_bid reads only the seat's yen, which is public.
                seats[p] = seat._replace(bid=policy_bid(state, p, rng).args["amount"])
    return state._replace(seats=tuple(seats), columns=_redeal_columns(state, rng))


def _redeal_columns(state: State, rng: random.Random):
    deck = state.rules.deck
    in_hands = {c for s in state.seats for c in s.cards}
    columns = []
    for c, col in enumerate(state.columns):
        seen = set(col.slots) | in_hands | ({col.discard[-1]} if col.discard else set())
        pool = sorted(cid for cid in deck.sets[c].cards if cid not in seen)
        rng.shuffle(pool)
        # The deck keeps how many cards of each dot group it holds (visible on the backs); the
        # first cards of the pool with those dots fill it, the rest go under the pile's top card.
        groups, used = [], set()
        for group in col.deck:
            if not group:
                groups.append(group)
                continue
            dots = deck.cards[group[0]].dots
            picked = [cid for cid in pool if deck.cards[cid].dots == dots and cid not in used][:len(group)]
            if len(picked) != len(group):
                raise ValueError(f"column {c}: the cards out of sight do not fit its deck; the state is inconsistent")
            used.update(picked)
            groups.append(tuple(sorted(picked)))
        below = [cid for cid in pool if cid not in used]
        if len(below) != max(0, len(col.discard) - 1):
            raise ValueError(f"column {c}: the cards out of sight do not fit its discard pile; the state is inconsistent")
        discard = tuple(below) + col.discard[-1:]
        columns.append(col._replace(deck=tuple(groups), discard=discard))
    return tuple(columns)


# --- the estimate -------------------------------------------------------------------------------

def group_key(move: Move) -> str:
    """The choice of action a move makes: its card action ("GM1/0"), else its kind."""
    args = move.args
    if isinstance(args.get("card"), str) and isinstance(args.get("action"), int):
        return f"{args['card']}/{args['action']}"
    return move.kind


@dataclass(frozen=True)
class Stats:
    n: int
    mean: float | None
    sd: float | None
    low: int | None
    high: int | None

    @classmethod
    def of(cls, values: Sequence[int]) -> "Stats":
        if not values:
            return cls(0, None, None, None, None)
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        return cls(n, mean, sd, min(values), max(values))

    def to_json(self) -> dict:
        return {"n": self.n, "mean": None if self.mean is None else round(self.mean),
                "sd": None if self.sd is None else round(self.sd), "low": self.low, "high": self.high}


def _schedule(moves: Sequence[Move], playouts: int) -> list[int]:
    """Which move (index) each playout starts with: groups in turn, and in each group its moves
    in turn."""
    groups: dict[str, list[int]] = {}
    for i, m in enumerate(moves):
        groups.setdefault(group_key(m), []).append(i)
    order = list(groups.values())
    taken = [0] * len(order)
    out = []
    for k in range(playouts):
        g = k % len(order)
        members = order[g]
        out.append(members[taken[g] % len(members)])
        taken[g] += 1
    return out


def estimate_final(state: State, seat: int, moves: Sequence[Move], rng: random.Random, playouts: int = 200,
                   viewer: int | None = None) -> dict:
    """The expected final yen of ``seat`` after each of ``moves`` (legal moves of that seat now),
    from ``playouts`` random playouts in all, with the hidden information determinized from
    ``viewer``'s point of view (a seat's phone, or None for the table view). With no moves, the
    playouts estimate the seat's final yen from the state as it is.

    Returns ``{"seat", "playouts", "overall": stats, "moves": [{"move", **stats}],
    "groups": [{"group", **stats}]}``; stats are ``n, mean, sd, low, high`` (yen; mean and sd
    rounded), with n = 0 and nulls for a move no playout started with."""
    if playouts < 1:
        raise ValueError("an estimate needs at least one playout")
    if viewer is not None and viewer != seat:
        raise ValueError(f"seat {viewer}'s phone may ask only about its own seat, not seat {seat}")
    moves = list(moves)
    schedule = _schedule(moves, playouts) if moves else [-1] * playouts
    per_move: list[list[int]] = [[] for _ in moves]
    overall: list[int] = []
    worlds: list[tuple[State, int]] = []
    for k, i in enumerate(schedule):
        # The j-th playout of every move runs in world j (common random numbers).
        w = len(per_move[i]) if i >= 0 else k
        if w == len(worlds):  # a new world: the hidden part drawn again, and a playout seed
            worlds.append((determinize(state, viewer, rng), rng.getrandbits(64)))
        world, seed = worlds[w]
        start = world if i < 0 else _apply(world, moves[i])
        final = play_out(start, random.Random(seed)).seats[seat].yen
        overall.append(final)
        if i >= 0:
            per_move[i].append(final)
    groups: dict[str, list[int]] = {}
    for m, values in zip(moves, per_move):
        groups.setdefault(group_key(m), []).extend(values)
    return {
        "seat": seat, "playouts": playouts,
        "overall": Stats.of(overall).to_json(),
        "moves": [{"move": m.to_json(), **Stats.of(v).to_json()} for m, v in zip(moves, per_move)],
        "groups": [{"group": g, **Stats.of(v).to_json()} for g, v in groups.items()],
    }


def _apply(state: State, move: Move) -> State:
    from . import game  # the Game surface (game.py offers this module as game.estimate)
    return game.apply(state, move)[0]
