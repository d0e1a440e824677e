"""Simple computer players for empty seats: they choose among the legal moves.

Most games get a uniformly random player. TOKYO METRO gets a greedy one (a random METRO player
bids away its money and wanders about, which makes a dull game for the people at the table):
it bids modestly, walks towards stations nobody has built, and in the action phase takes the
move whose immediate net yen (what ``move_info`` says it pays minus what it costs, plus a little
for what builds the economy) is best, passing when nothing is worth a disc. Every choice is
reproducible from the seed (game seed + log position), so a resumed game plays on the same.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence, TypeVar

from .mall_shopper import mall_shopper

T = TypeVar("T")


def choose(options: Sequence[T], seed: str) -> T:
    """A reproducible choice: the same seed (game seed + log position) picks the same
    option, so a resumed game's computer players behave as before the restart."""
    if not options:
        raise ValueError("no options to choose from")
    return random.Random(seed).choice(list(options))


def bot_move(game: Any, state: Any, moves: Sequence[Any], seed: str) -> Any:
    """The computer player's move among ``moves`` (legal moves of one seat): the game's own
    strategy when it has one here, else a random choice."""
    if not moves:
        raise ValueError("no moves to choose from")
    strategy = STRATEGIES.get(game.name)
    if strategy is None:
        return choose(moves, seed)
    return strategy(game, state, list(moves), random.Random(seed))


# --- TOKYO METRO --------------------------------------------------------------------------------

BID_SHARE = 5          # bid at most a fifth of one's yen ...
BID_CAP = 300          # ... and at most this
PASS_PENALTY = 150     # passing must beat the best action by this much (discs left unused pay 100 each)
# What an action is worth beyond its immediate yen, per round still to play: a station earns while
# trains pass it, a share's line grows, more discs mean more actions. Rough, but they make busy games.
PER_ROUND = {"station": 150, "station_swap": 150, "invest": 150, "start": 60, "action_disc": 100,
             "tempo": 30, "bicycle": 20, "discount": 20,
             "invest_disc": 50, "copy": 40,   # OSAKA METRO: a share for a disc lost for good; a copy right
             # METRO DRINKS: a drink at a station earns when trains pay there; a crate is six of them
             "vend": 160, "free_vend": 200, "colour_card": 120, "shape_card": 100}


def _metro_action_score(game: Any, state: Any, move: Any, rounds_left: int) -> float:
    info = game.move_info(state, move)
    kind = move.kind
    if kind == "pass":
        return info.pays_up_to - PASS_PENALTY
    if kind == "loan":
        return info.pays_up_to - state.options.loan_end_cost
    if kind == "repay":
        return state.options.loan_end_cost - info.cost
    if kind == "bid_bonus":
        return info.pays_up_to / 2   # yen for the next bid only
    if kind == "speculate":
        return (info.pays_up_to - info.cost) / 2   # pays only if the line keeps its value
    if kind == "sell":
        return -PER_ROUND["invest"] * rounds_left   # the set-aside yen are about what the share pays at the end
    if kind in ("assign_tempo", "alight"):
        return -1000   # free moves: left to the random player's judgement of none
    if kind in ("colour_card", "shape_card"):   # METRO DRINKS: a crate is worth most with few drinks left to
        left = len(state.drinks.supplies[move.player])   # build, free builds with many
        if (kind == "colour_card") == (left > 3):
            return PER_ROUND[kind] * rounds_left / 4
    return info.pays_up_to - info.cost + PER_ROUND.get(kind, 0) * rounds_left


def _metro_field_score(state: Any, move: Any) -> int:
    """A field is worth the stations without a pyramid it touches."""
    field = move.args.get("field")
    if not isinstance(field, int):
        return 0
    return sum(1 for s in state.board.field_stations[field] if state.pyramids[s] < 0)


def metro_greedy(game: Any, state: Any, moves: list[Any], rng: random.Random) -> Any:
    if state.phase not in ("movement", "actions") and state.run is None:
        # Getting off a train is allowed at any time; the computer does it only in its own movement
        # or action turn, or when its train stops for it in the train phase.
        moves = [m for m in moves if m.kind != "alight"] or moves
    kinds = {m.kind for m in moves}
    p = moves[0].player
    if kinds == {"bid"}:
        cap = min(BID_CAP, state.seats[p].yen // BID_SHARE)
        modest = [m for m in moves if m.args["amount"] <= cap]
        return rng.choice(modest or moves[:1])
    jitter = lambda: rng.random() * 50  # noqa: E731 - ties (and near ties) broken at random
    if state.phase == "movement":
        return max(moves, key=lambda m: _metro_field_score(state, m) * 100 + jitter())
    if state.phase == "actions":
        rounds_left = state.rules.rounds - state.round
        return max(moves, key=lambda m: _metro_action_score(game, state, m, rounds_left) + jitter())
    return rng.choice(moves)  # the train phase: board, skip, get off, ride on


# One engine plays TOKYO METRO, OSAKA METRO and METRO DRINKS: the same greedy player for each.
STRATEGIES: dict[str, Callable[[Any, Any, list[Any], random.Random], Any]] = {
    "tokyo_metro": metro_greedy, "osaka_metro": metro_greedy, "metro_drinks": metro_greedy,
    "shopping_mall": mall_shopper}
