"""Which legal moves explain a change seen on the TOKYO METRO board.

The board camera settles on a board (:class:`~companion.board_pieces.Pieces`, with the spots it
read with doubt); :func:`explain` searches the engine's legal moves for the sequences that turn
the game's board into that one (``differences(...) == []``): best first, the number of
differences left as the distance, a few hundred states at most, depth at most MAX_DEPTH, the
same answer for the same input. A move that takes the board further from the one read is not
followed (a train moved a stop short of where it stands leaves as many differences, not more). A move that changes nothing on the board counts only as a step
on the way to one that does (a rider staying on, a seat skipping a train, when a person moved a
train through several stops at once), and only where it is the mover's one such choice: a
"pass" among a hundred unseen card actions is no step the board can tell.

The answer (:class:`Explained`) has no explanation (a knock, a mistake: the differences are the
news), one (a proposal) or several: different move sequences that leave the same board (the
same pyramid from two different action cards): a question with the candidates. Only the moves
``may`` allows are tried (the table leaves out chance, secret kinds and computer players).

A drink the camera sees at a station (METRO DRINKS) is read by its colour alone: a build move
of any drink of that colour explains it, so two drinks of one colour in the mover's supply make
a question (which one was built), one makes a proposal.

The engine is pure and its states immutable: this module only reads and tries them.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from ..board_pieces import PLAYER_COLOURS, BoardReading, Pieces, differences
from ..rules.engine import CHANCE, IllegalMove, Move
from ..rules.metro.pieces import on_board

MAX_DEPTH = 6          # moves in one explanation at most (a train run with riders deciding at stops)
MAX_EXPANDED = 300     # states whose moves are listed, at most
MAX_TRIED = 2500       # moves tried (applied and compared), at most: an action phase lists up to ~400 a state
MAX_CANDIDATES = 8     # several explanations: at most this many are put to the players
STEP_CHOICES = 1       # a move that changes nothing on the board is a step only where it is the one such choice


def expected(state: Any) -> Pieces:
    """What the game's state has on the board, seats turned into the players' colours."""
    seen = on_board(state)
    return Pieces.model_construct(
        pyramids={sid: PLAYER_COLOURS[seat] for sid, seat in seen["pyramids"].items()},
        meeples={PLAYER_COLOURS[seat]: place for seat, place in seen["meeples"].items()},
        trains=dict(seen["trains"]), values=dict(seen["values"]), drinks=dict(seen.get("drinks", {})))


def drinks_in_play(state: Any) -> bool:
    """Whether the game is METRO DRINKS (drinks at stations are part of its board): in another
    game the board camera's drinks are not compared."""
    return getattr(state, "drinks", None) is not None or bool(getattr(getattr(state, "options", None), "drinks", False))


def without_drinks(reading: BoardReading) -> BoardReading:
    """A reading with its drinks (and drink places read with doubt) left out."""
    if not reading.pieces.drinks and not any(u.startswith("drink:") for u in reading.unsure):
        return reading
    return reading.model_copy(update={"pieces": reading.pieces.model_copy(update={"drinks": {}}),
                                      "unsure": [u for u in reading.unsure if not u.startswith("drink:")]})


@dataclass(frozen=True)
class Explained:
    """What the search found: ``explanations`` (move sequences, each leaving the read board; the
    shortest found, in the engine's listing order), whether the search ran out of its bounds
    before it was done (``bounded``), and how much it did (``expanded`` states, ``tried`` moves)."""

    explanations: tuple[tuple[Move, ...], ...] = ()
    bounded: bool = False
    expanded: int = 0
    tried: int = 0

    @property
    def verdict(self) -> str:
        """``none``, ``one`` or ``several``."""
        n = len(self.explanations)
        return "none" if n == 0 else "one" if n == 1 else "several"


@dataclass
class Budget:
    """The moves a search may still try (applied and compared): ``tried`` so far, of ``limit``;
    ``bounded`` once it ran out before the search was done."""

    limit: int
    tried: int = 0
    bounded: bool = False

    @property
    def spent(self) -> bool:
        return self.tried >= self.limit

    def tries(self, game: Any, state: Any, moves: Iterable[Move], seen: set) -> Iterator[tuple[Move, Any, Any]]:
        """Each of ``moves`` the engine takes in ``state``, with the state after it and that state's
        key, where it is not ``seen`` yet, until the budget is spent."""
        for move in moves:
            if self.spent:
                self.bounded = True
                return
            self.tried += 1
            try:
                after, _events = game.apply(state, move)
            except IllegalMove:
                continue
            key = state_key(after)
            if key not in seen:
                yield move, after, key


@dataclass(order=True)
class Node:
    """A state a search reached, ordered best first: fewest differences left, fewest moves, found first."""

    distance: int
    depth: int
    order: int
    state: Any = field(compare=False)
    moves: tuple[Move, ...] = field(compare=False)


def acting_moves(game: Any, state: Any, may: Callable[[Move], bool]) -> list[Move]:
    """The moves of every seat that may act now (the game's pending seats, and any seat's moves
    allowed at any time, such as getting off a train), in seat and listing order; no chance."""
    if game.is_over(state):
        return []
    seats = range(len(game.seat_names(state)))
    moves: list[Move] = []
    for seat in seats:
        moves.extend(m for m in game.legal_moves(state, seat) if m.player != CHANCE and may(m))
    return moves


def explain(game: Any, state: Any, board: Pieces, unsure: Iterable[str] = (),
            may: Callable[[Move], bool] = lambda m: True, max_depth: int = MAX_DEPTH,
            max_expanded: int = MAX_EXPANDED, max_tried: int = MAX_TRIED) -> Explained:
    """The move sequences that turn ``state``'s board into ``board`` (see the module). The board
    equal to the game's already is explained by no move: ask :func:`expected` first."""
    unsure = frozenset(unsure)

    def distance(s: Any) -> int:
        return len(differences(expected(s), board, unsure))

    start = Node(distance(state), 0, 0, state, ())
    heap, order = [start], 1
    seen = {state_key(state)}
    found: list[tuple[Move, ...]] = []
    shortest: int | None = None
    expanded = 0
    budget = Budget(max_tried)
    while heap:
        node = heapq.heappop(heap)
        if shortest is not None and node.depth >= shortest:
            continue  # it could only explain with more moves than an explanation found
        if node.depth >= max_depth:
            continue
        if expanded >= max_expanded or budget.spent:
            budget.bounded = True
            break
        expanded += 1
        here = expected(node.state)
        moves = acting_moves(game, node.state, may)
        steps = []  # (move, state) that change nothing on the board
        for move, after, key in budget.tries(game, node.state, moves, seen):
            there = expected(after)
            if there == here:
                steps.append((move, after, key))
                continue
            seen.add(key)
            d = len(differences(there, board, unsure))
            path = node.moves + (move,)
            if d == 0:
                if shortest is None or len(path) < shortest:
                    shortest, found = len(path), []
                if len(path) == shortest and len(found) < MAX_CANDIDATES:
                    found.append(path)
                continue
            if d > node.distance:
                continue  # it takes the board further from the one read: no explanation goes that way
            heapq.heappush(heap, Node(d, len(path), order, after, path))
            order += 1
        if len(steps) <= STEP_CHOICES:
            for move, after, key in steps:
                seen.add(key)
                heapq.heappush(heap, Node(node.distance, node.depth + 1, order, after, node.moves + (move,)))
                order += 1
    return Explained(tuple(found), budget.bounded, expanded, budget.tried)


def state_key(state: Any) -> Any:
    """A state as a set member: the engine's states are trees of tuples (hashable), but a finished
    game keeps its result in a dict; such a state is told apart by its text."""
    try:
        hash(state)
        return state
    except TypeError:
        return repr(state)
