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
  printed on the backs) and under the top of the discard pile;
- METRO DRINKS: the stock column's discard pile below its top card, drawn with the deal's odds
  (stock_column.redraw_hidden; its face-down deck is no list of cards, only odds).

The determinization reads only what the viewer sees, and draws everything in an order that does
not depend on the hidden part (pools are sorted first), so two states that look the same to the
viewer give the same estimates for the same seed (tests/test_metro_estimate.py).

The estimate itself is the engine's, the same for every game (rules/estimate.py): each playout
applies one of the moves and plays the game to its end with the random policy of ``playout.py``;
this module is the game's ``redraw``.

Pure: no clock, no I/O; all randomness comes from the ``random.Random`` given.
"""
from __future__ import annotations

import random

from ..engine import Move
from .playout import policy_bid
from .state import BID, State
from .stock_column import redraw_hidden


def determinize(state: State, viewer: int | None, rng: random.Random) -> State:
    """A state that looks the same to ``viewer`` (None: the shared table view) as ``state``, with
    everything the viewer cannot see drawn at random."""
    seats = list(state.seats)
    if state.phase == BID:
        for p, seat in enumerate(seats):
            if p != viewer and seat.bid >= 0:
                # Drawn the way a playout bids; policy_bid reads only the seat's yen, which is public.
                seats[p] = seat._replace(bid=policy_bid(state, p, rng).args["amount"])
    drinks = state.drinks and redraw_hidden(state.drinks, rng)  # METRO DRINKS: the stock column's hidden cards
    return state._replace(seats=tuple(seats), columns=_redeal_columns(state, rng), drinks=drinks)


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


def group_key(move: Move) -> str:
    """The choice of action a move makes: its card action ("GM1/0") where it has one, else its
    kind (a walk to 30 fields is one choice of action; the estimate spreads its playouts so)."""
    args = move.args
    if isinstance(args.get("card"), str) and isinstance(args.get("action"), int):
        return f"{args['card']}/{args['action']}"
    return move.kind
