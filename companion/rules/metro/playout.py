"""TOKYO METRO random playouts: a quick random policy, and a game played to its end with it.

The policy is what the hint estimates (``estimate.py``) assume every player does from now on. It
is random but not uniform over the legal moves, for two reasons:

- speed: in the action phase it picks one card action first and lists only that action's moves
  (``actions.action_moves(only=...)``), instead of all of them (often 100 and more), which makes
  a playout several times cheaper;
- sense: a uniform pick over the move list lets kinds with many moves (a walk to any of 30
  fields, nine stakes on each line) crowd out the rest, and a uniform bid spends half of a
  player's money on the player order. So the policy picks a card action uniformly, bids
  modestly (0 to ``BID_UP_TO``) and passes now and then (``PASS_CHANCE``).

Chance moves (cards turned up, ties) are sampled with their listed odds. Everything is drawn from
the ``random.Random`` passed in: the same generator state gives the same playout.
"""
from __future__ import annotations

import random

from ..engine import CHANCE, Move
from . import game
from .actions import action_moves, available, phase_moves
from .state import ACTIONS, BID, MOVEMENT, State, movement_moves

BID_UP_TO = 300      # the highest bid a playout makes (yen); bids are a cost with no yen coming back
PASS_CHANCE = 0.15   # per action turn: pass although an action is possible


def policy_bid(state: State, p: int, rng: random.Random) -> Move:
    """A modest random bid of seat p (it reads only the seat's yen, which every viewer sees)."""
    step = state.options.bid_step
    top = min(state.seats[p].yen, BID_UP_TO)
    return Move("bid", p, {"amount": rng.randrange(0, top // step + 1) * step})


def _action(state: State, p: int, rng: random.Random) -> Move:
    seat = state.seats[p]
    if seat.tempo_now == 0 and rng.random() < PASS_CHANCE:
        return Move("pass", p, {})
    acts = [(cid, i) for cid, i, _ in available(state, p)]
    rng.shuffle(acts)
    for key in acts:
        moves = action_moves(state, p, only=key)
        if moves:
            return rng.choice(moves)
    # No action can be taken: passing is legal then (phase_moves says what else is).
    return rng.choice(phase_moves(state, p))


def policy_move(state: State, rng: random.Random) -> Move:
    """The move the random policy makes for whoever the game waits for (chance included)."""
    phase = state.phase
    if phase == BID:
        p = game.pending(state)[0].actor  # secret bids are made all at once; any order will do
        return policy_bid(state, p, rng)
    actor = game.pending(state)[0].actor
    if actor == CHANCE:
        outcomes = game.chance(state).outcomes
        moves = [m for m, _ in outcomes]
        return rng.choices(moves, weights=[w for _, w in outcomes])[0] if len(moves) > 1 else moves[0]
    if phase == ACTIONS:
        return _action(state, actor, rng)
    if phase == MOVEMENT:
        return rng.choice(movement_moves(state, actor))
    return rng.choice(game.legal_moves(state, actor))  # the train phase: a handful of choices


def play_out(state: State, rng: random.Random, limit: int = 20_000) -> State:
    """The state at the end of the game (after the final scoring), every move by the policy."""
    for _ in range(limit):
        if state.phase == "over":
            return state
        state, _ = game.apply(state, policy_move(state, rng))
    raise RuntimeError(f"a playout did not end within {limit} moves")
