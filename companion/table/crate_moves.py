"""Which legal moves explain a change seen in the crates (GRAPE SODA, YUZU, the exploding cans).

The crate camera settles on a reading (:class:`~companion.crate_fields.CrateReading`: every
field seen, as a drink id or empty, with the fields read with doubt); :func:`explain` searches
the engine's legal moves for the sequences that turn the game's crates into the ones read
(``crate_fields.compare(...)`` with no differences; a field read with doubt matches anything, or,
narrowed to a few drinks, any of those):
best first, the number of differing fields as the distance, at most MAX_DEPTH moves (a GRAPE
SODA turn is a crate moved and a drink placed, in either order), a bounded number of states
tried, the same answer for the same input. The camera does not know which way round the game's
grid lies nor where it stands, so every comparison is up to a quarter turn and a shift of the
whole grid (:class:`Seen`).

A move whose ``drink`` is one the mover picks from their supply is listed by some games with one
drink only (GRAPE SODA's buttons offer the first): it is also tried with each drink the crates
show that the game does not have there, so that the drink actually put in is the one proposed.

Sequences that end in the same game (the same crate moved and drink placed, in the other order)
are one explanation, the first found. The answer is board_moves' :class:`Explained`: none (the
differences are the news), one (a proposal) or several (a question with the candidates). Only
the moves ``may`` allows are tried (the table leaves out chance, secret kinds and computer
players). The engine is pure and its states immutable: this module only reads and tries them.
"""
from __future__ import annotations

import heapq
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..crate_fields import EMPTY, CrateLayout, Pos, doubts, fits, normalized
from ..rules.engine import Move
from .board_moves import Budget, Explained, Node, acting_moves, state_key

MAX_DEPTH = 2          # moves in one explanation at most (a crate and a drink)
MAX_EXPANDED = 12      # states whose moves are listed, at most
MAX_TRIED = 2500       # moves tried (applied and compared), at most: a GRAPE SODA turn lists ~300
MAX_CANDIDATES = 8     # several explanations: at most this many are put to the players


def reads_crates(game: Any) -> bool:
    """Whether the game says where its crates stand (its declaration's ``crates`` hook)."""
    return callable(getattr(game, "crates", None))


def game_fields(game: Any, state: Any) -> dict[Pos, str]:
    """The game's crates as fields (shifted to 0, 0): field -> drink id or ``empty``."""
    places, drinks = game.crates(state)
    return CrateLayout(tuple(places), dict(drinks)).fields()


@dataclass(frozen=True)
class Seen:
    """A settled reading, prepared for many comparisons: the seen grid in each of its four quarter
    turns (shifted to 0, 0), each field with its doubt (``crate_fields.doubts``)."""

    turns: tuple[dict[Pos, tuple[str, "bool | frozenset[str]"]], ...]
    quarters: tuple[int, ...] = (0, 1, 2, 3)

    @classmethod
    def of(cls, fields: Mapping[Pos, str], unsure: Iterable[Pos] = (), quarters: int | None = None,
           choices: Mapping[Pos, Iterable[str]] | None = None) -> "Seen":
        """``quarters``: the one quarter turn that brings the camera's grid onto the game's, when the
        table knows it (None: any of the four); ``choices``: fields read with doubt narrowed to a
        few drinks."""
        marked = doubts(fields, unsure, choices)
        turns = []
        for _ in range(4):
            turns.append(normalized(marked))
            marked = {(-y, x): m for (x, y), m in marked.items()}
        if quarters is None:
            return cls(tuple(turns))
        return cls((turns[quarters % 4],), (quarters % 4,))

    def turns_matching(self, game: Mapping[Pos, str]) -> list[int]:
        """The quarter turns under which the game's fields (shifted to 0, 0) are the ones seen: each
        of the game's fields seen and fitting, and any seen field beyond the game's crates read with
        doubt and no choices (the reader's ring of maybe-no-slot fields round the crates), the
        grids shifted by as much as those lie beyond."""
        return [q for q, seen in zip(self.quarters, self.turns) if _covered(game, seen)]

    def matches(self, game: Mapping[Pos, str]) -> bool:
        """Whether the game's fields (shifted to 0, 0) are the ones seen, up to a quarter turn."""
        return bool(self.turns_matching(game))

    def distance(self, game: Mapping[Pos, str]) -> int:
        """Fields that differ at the best of a few alignments (each quarter turn, the grids'
        corners together): a quick measure for the search's order, not compare's exact one."""
        if not game:
            return min(len(s) for s in self.turns)
        gw, gh = max(x for x, _ in game) + 1, max(y for _, y in game) + 1
        best = None
        for seen in self.turns:
            if not seen:
                return len(game)
            sw, sh = max(x for x, _ in seen) + 1, max(y for _, y in seen) + 1
            for dx in {0, gw - sw}:
                for dy in {0, gh - sh}:
                    d = _mismatches(game, seen, dx, dy)
                    if best is None or d < best:
                        best = d
        return best


def _covered(game: Mapping[Pos, str], seen: Mapping[Pos, tuple]) -> bool:
    """Whether the seen fields, at some shift, hold each of the game's fields (fitting) and beyond
    them only fields read with doubt and no choices."""
    if len(seen) < len(game):
        return False
    if not game:
        return all(doubt is True for _, doubt in seen.values())
    gw, gh = max(x for x, _ in game) + 1, max(y for _, y in game) + 1
    sw, sh = max(x for x, _ in seen) + 1, max(y for _, y in seen) + 1
    for dx in range(sw - gw + 1):
        for dy in range(sh - gh + 1):
            covered = 0
            for (x, y), mark in seen.items():
                g = game.get((x - dx, y - dy))
                if g is None:
                    if mark[1] is not True:
                        break
                elif not fits(mark, g):
                    break
                else:
                    covered += 1
            else:
                if covered == len(game):
                    return True
    return False


def _mismatches(game: Mapping[Pos, str], seen: Mapping[Pos, tuple], dx: int, dy: int) -> int:
    d = 0
    covered = 0
    for (x, y), mark in seen.items():
        g = game.get((x + dx, y + dy))
        if g is None:
            d += mark[1] is not True       # a field read with doubt beyond the game's crates may be none
            continue
        covered += 1
        if not fits(mark, g):
            d += 1
    return d + len(game) - covered


def new_drinks(game: Mapping[Pos, str], seen: Mapping[Pos, str],
               choices: Mapping[Pos, Iterable[str]] | None = None) -> list[str]:
    """The drinks the crates show more of than the game has (in id order): the ones put in; with
    each drink a field read with doubt was narrowed to that the game has nowhere (``choices``)."""
    counts: dict[str, int] = {}
    for v in seen.values():
        if v != EMPTY:
            counts[v] = counts.get(v, 0) + 1
    for v in game.values():
        if v in counts:
            counts[v] -= 1
    there = set(game.values())
    maybe = {d for names in (choices or {}).values() for d in names if d not in there}
    return sorted({d for d, n in counts.items() if n > 0} | maybe)


def with_drinks(moves: list[Move], drinks: list[str]) -> list[Move]:
    """The moves, each one that names a ``drink`` also with each of ``drinks`` instead (the engine
    refuses those the mover does not have), without repeats, in listing order."""
    out, known = [], set()
    for move in moves:
        tries = [move]
        if isinstance(move.args.get("drink"), str):
            tries += [Move(move.kind, move.player, {**move.args, "drink": d}) for d in drinks
                      if d != move.args["drink"]]
        for m in tries:
            key = (m.kind, m.player, json.dumps(m.args, sort_keys=True))
            if key not in known:
                known.add(key)
                out.append(m)
    return out


def explain(game: Any, state: Any, seen: Mapping[Pos, str], unsure: Iterable[Pos] = (),
            may: Callable[[Move], bool] = lambda m: True, quarters: int | None = None,
            max_depth: int = MAX_DEPTH, max_expanded: int = MAX_EXPANDED, max_tried: int = MAX_TRIED,
            choices: Mapping[Pos, Iterable[str]] | None = None) -> Explained:
    """The move sequences that turn ``state``'s crates into the ``seen`` fields (see the module);
    ``quarters``: the quarter turn from the camera's grid to the game's, once the table knows it
    (a symmetric grid, such as the empty 6x6 square, otherwise looks the same four ways round);
    ``choices``: fields read with doubt narrowed to a few drinks (each of them is tried: a drink
    of a sure colour whose shape is in doubt is a question of which).
    Crates equal to the game's already are explained by no move: compare them first."""
    target = Seen.of(seen, unsure, quarters, choices)
    drinks = new_drinks(game_fields(game, state), seen, choices)
    start = Node(target.distance(game_fields(game, state)), 0, 0, state, ())
    heap, order = [start], 1
    visited = {state_key(state)}
    found: list[tuple[Move, ...]] = []
    outcomes: set[str] = set()
    shortest: int | None = None
    near: int | None = None            # the distance of the state the first explanation came from
    expanded = 0
    budget = Budget(max_tried)
    while heap:
        node = heapq.heappop(heap)
        if shortest is not None and (node.depth >= shortest or node.distance > near):
            continue  # longer than an explanation found, or much further from the crates seen
        if node.depth >= max_depth:
            continue
        if expanded >= max_expanded or budget.spent:
            budget.bounded = True
            break
        expanded += 1
        for move, after, key in budget.tries(game, node.state, with_drinks(acting_moves(game, node.state, may), drinks),
                                             visited):
            visited.add(key)
            there = game_fields(game, after)
            path = node.moves + (move,)
            if target.matches(there):
                outcome = _outcome(game, after)
                if outcome in outcomes:
                    continue   # the same moves in another order
                if shortest is None or len(path) < shortest:
                    shortest, found, near = len(path), [], node.distance
                if len(path) == shortest and len(found) < MAX_CANDIDATES:
                    found.append(path)
                    outcomes.add(outcome)
                continue
            d = target.distance(there)
            if d > start.distance:
                continue  # further from the crates read than the game is: no explanation goes that way
            heapq.heappush(heap, Node(d, len(path), order, after, path))
            order += 1
    return Explained(tuple(found), budget.bounded, expanded, budget.tried)


def _outcome(game: Any, state: Any) -> str:
    """The game after a sequence, for telling sequences apart: its table view without the note of
    the latest action (which differs when the same moves come in another order)."""
    view = {k: v for k, v in game.view(state, None).items() if k != "last"}
    return json.dumps(view, sort_keys=True, default=str)
