"""TOKYO METRO random playouts: the quick random policy the hints assume every player follows.

The estimator (rules/estimate.py) plays a game to its end with this policy, through the game's
declaration (``GAME.policy``). It is random but not uniform over the legal moves, for two reasons:

- speed: in the action phase it picks one card action first and lists only that action's moves
  (``action_phase.action_moves(only=...)``), instead of all of them (often 100 and more), which
  makes a playout several times cheaper;
- sense: a uniform pick over the move list lets kinds with many moves (a walk to any of 30
  fields, nine stakes on each line) crowd out the rest, and a uniform bid spends half of a
  player's money on the player order. So the policy picks a card action uniformly, bids
  modestly (0 to ``BID_UP_TO``), passes now and then (``PASS_CHANCE``), and starts the trains at
  once (riders get off when their turn or their stop asks them, not whenever they might).

Chance moves (cards turned up, ties) are sampled with their listed odds. Everything is drawn from
the ``random.Random`` passed in: the same generator state gives the same playout.
"""
from __future__ import annotations

import random
from typing import Any

from ..engine import Move
from ..estimate import random_move
from .action_phase import action_moves
from .actions import available
from .state import ACTIONS, BID, TRAINS, State
from .vending import VARIANT_LISTS

BID_UP_TO = 300      # the highest bid a playout makes (yen); bids are a cost with no yen coming back
PASS_CHANCE = 0.15   # per action turn: pass although an action is possible


def policy_bid(state: State, p: int, rng: random.Random) -> Move:
    """A modest random bid of seat p (it reads only the seat's yen, which every viewer sees)."""
    step = state.options.bid_step
    top = min(state.seats[p].yen, BID_UP_TO)
    return Move("bid", p, {"amount": rng.randrange(0, top // step + 1) * step})


def _action(game: Any, state: State, p: int, rng: random.Random) -> Move:
    if state.seats[p].tempo_now == 0 and rng.random() < PASS_CHANCE:
        return Move("pass", p, {})
    acts: list = [(cid, i) for cid, i, _ in available(state, p)]
    if state.drinks is not None:  # METRO DRINKS: each kind of the stock column's actions is one more choice
        acts += list(VARIANT_LISTS)
    rng.shuffle(acts)
    for key in acts:
        moves = VARIANT_LISTS[key](state, p) if isinstance(key, str) else action_moves(state, p, only=key)
        if moves:
            return rng.choice(moves)
    # No action can be taken: passing is legal then (the game lists what else is).
    return rng.choice(game.legal_moves(state, p))


def policy_move(game: Any, state: State, rng: random.Random) -> Move:
    """The move the random policy makes in ``game`` (TOKYO METRO's declaration) for whoever it
    waits for, chance included."""
    actor = game.pending(state)[0].actor  # secret bids are made all at once: any order will do
    if state.phase == BID:
        return policy_bid(state, actor, rng)
    if state.phase == ACTIONS:
        return _action(game, state, actor, rng)
    if state.phase == TRAINS and state.run is None:
        return Move("run_trains", actor, {})
    return random_move(game, state, rng)
