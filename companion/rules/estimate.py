"""Hints for any declared game: the expected final yen of each legal move, by random playouts.

An estimate must never tell a player what they cannot know. So before each playout the game's
``redraw`` throws away everything the asking viewer cannot see and draws it again, consistently
with what that viewer sees (another seat's sealed bid, a face-down deck); a game without a
``redraw`` offers no estimates.

Then each playout applies one of the moves and plays the game to its end with the game's
``policy`` (or a uniform random one: chance by its listed odds, a drop of the tower by
``DROP_ODDS``); the seat's final yen (``payouts(state)["yen"]``) is recorded. The playouts are
spread over the moves evenly by **group** (the game's ``group`` of a move: one per card action in
TOKYO METRO, else one per kind) and within a group over its moves, so that every kind of choice
gets its share even when one kind has a hundred moves. Playout k of every move uses the same
redrawn world and the same random stream (common random numbers), which makes the differences
between moves less noisy than the means themselves.

Pure: no clock, no I/O; all randomness comes from the ``random.Random`` given.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .engine import CHANCE, ChanceChoice, ChanceDrop, Move

if TYPE_CHECKING:
    from .declared import Declared

# What a playout assumes of the tower when it cannot know: each drink thrown in comes out with the
# first odds, each drink stuck inside with the second (the simulated tower's physics is not for the
# rules to import; these only steer hints).
DROP_ODDS = (0.75, 0.35)


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


# A move's star ("best") only where the playouts can tell: its mean beats the runner-up's by more
# than this many standard errors of the difference. With ten playouts a move the plain highest
# mean is mostly noise, and a star on it would teach players to trust the noise.
CLEAR_Z = 2.0


def clearly_best(samples: Sequence[Sequence[int]], paired: bool) -> int | None:
    """The index of the sample with the highest mean when it beats the runner-up by more than
    CLEAR_Z standard errors of the difference; None when the noise could explain it (or there
    is no runner-up). ``paired``: value j of every sample came from the same world (common random
    numbers), so the differences are taken world by world, which cancels the noise they share.

    >>> clearly_best([[100, 900, 500], [120, 910, 530]], paired=True)   # better in every world
    1
    >>> clearly_best([[100, 900, 500], [900, 100, 530]], paired=True) is None
    True
    """
    ranked = sorted((i for i, s in enumerate(samples) if s), key=lambda i: -sum(samples[i]) / len(samples[i]))
    if len(ranked) < 2:
        return None
    a, b = samples[ranked[0]], samples[ranked[1]]
    if paired:
        diffs = [x - y for x, y in zip(a, b)]
        if len(diffs) < 2:
            return None
        gap, se = Stats.of(diffs).mean, Stats.of(diffs).sd / math.sqrt(len(diffs))
    else:
        if len(a) < 2 or len(b) < 2:
            return None
        sa, sb = Stats.of(a), Stats.of(b)
        gap, se = sa.mean - sb.mean, math.sqrt(sa.sd ** 2 / sa.n + sb.sd ** 2 / sb.n)
    return ranked[0] if gap > 0 and gap > CLEAR_Z * se else None


def random_move(game: "Declared", state: Any, rng: random.Random) -> Move:
    """A uniform random move of whoever the game waits for; chance by its odds."""
    actor = game.pending(state)[0].actor
    if actor != CHANCE:
        return rng.choice(game.legal_moves(state, actor))
    spec = game.chance(state)
    if isinstance(spec, ChanceDrop):
        thrown, inside = DROP_ODDS
        out = [d for d in spec.thrown if rng.random() < thrown] + [d for d in spec.inside if rng.random() < inside]
        return Move(spec.move_kind, CHANCE, {"out": tuple(sorted(out))})
    assert isinstance(spec, ChanceChoice)
    moves = [m for m, _ in spec.outcomes]
    return rng.choices(moves, weights=[w for _, w in spec.outcomes])[0] if len(moves) > 1 else moves[0]


def play_out(game: "Declared", state: Any, rng: random.Random, limit: int = 20_000) -> Any:
    """The state at the end of the game, every move by the game's policy (default: uniform)."""
    policy = game.policy or (lambda s, r: random_move(game, s, r))
    for _ in range(limit):
        if game.is_over(state):
            return state
        state, _ = game.apply(state, policy(state, rng))
    raise RuntimeError(f"a playout of {game.name} did not end within {limit} moves")


def _schedule(moves: Sequence[Move], playouts: int, group: Callable[[Move], str]) -> list[int]:
    """Which move (index) each playout starts with: groups in turn, and in each group its moves in turn."""
    groups: dict[str, list[int]] = {}
    for i, m in enumerate(moves):
        groups.setdefault(group(m), []).append(i)
    order = list(groups.values())
    taken = [0] * len(order)
    out = []
    for k in range(playouts):
        g = k % len(order)
        members = order[g]
        out.append(members[taken[g] % len(members)])
        taken[g] += 1
    return out


def estimate_final(game: "Declared", state: Any, seat: int, moves: Sequence[Move], rng: random.Random,
                   playouts: int = 200, viewer: int | None = None) -> dict:
    """The expected final yen of ``seat`` after each of ``moves`` (legal moves of that seat now),
    from ``playouts`` random playouts in all, with the hidden information drawn again from
    ``viewer``'s point of view (a seat's phone, or None for the table view). With no moves, the
    playouts estimate the seat's final yen from the state as it is.

    Returns ``{"seat", "playouts", "overall": stats, "moves": [{"move", **stats}],
    "groups": [{"group", **stats}]}``; stats are ``n, mean, sd, low, high`` (yen; mean and sd
    rounded), with n = 0 and nulls for a move no playout started with, and ``best``: true for the
    one move (group) that is clearly the best, if any (``clearly_best``)."""
    if game.redraw is None:
        raise ValueError(f"{game.title} offers no estimates")
    if playouts < 1:
        raise ValueError("an estimate needs at least one playout")
    if viewer is not None and viewer != seat:
        raise ValueError(f"seat {viewer}'s phone may ask only about its own seat, not seat {seat}")
    moves = list(moves)
    schedule = _schedule(moves, playouts, game.group) if moves else [-1] * playouts
    per_move: list[list[int]] = [[] for _ in moves]
    overall: list[int] = []
    worlds: list[tuple[Any, int]] = []
    for k, i in enumerate(schedule):
        # The j-th playout of every move runs in world j (common random numbers).
        w = len(per_move[i]) if i >= 0 else k
        if w == len(worlds):  # a new world: the hidden part drawn again, and a playout seed
            worlds.append((game.redraw(state, viewer, rng), rng.getrandbits(64)))
        world, seed = worlds[w]
        start = world if i < 0 else game.apply(world, moves[i])[0]
        final = game.payouts(play_out(game, start, random.Random(seed)))["yen"][seat]
        overall.append(final)
        if i >= 0:
            per_move[i].append(final)
    groups: dict[str, list[int]] = {}
    for m, values in zip(moves, per_move):
        groups.setdefault(game.group(m), []).extend(values)
    best_move = clearly_best(per_move, paired=True)  # the j-th playout of every move: world j
    best_group = clearly_best(list(groups.values()), paired=False)  # a group's moves mixed: not paired
    return {
        "seat": seat, "playouts": playouts,
        "overall": Stats.of(overall).to_json(),
        "moves": [{"move": m.to_json(), **Stats.of(v).to_json(), "best": i == best_move}
                  for i, (m, v) in enumerate(zip(moves, per_move))],
        "groups": [{"group": g, **Stats.of(v).to_json(), "best": i == best_group}
                   for i, (g, v) in enumerate(groups.items())],
    }
