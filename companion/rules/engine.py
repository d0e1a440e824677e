"""The shape every game shares: moves, events, chance, and the Game protocol.

A game is a module with a small surface (see :class:`Game`). Its state is an
immutable value: ``apply`` returns a new state and the events that say what
happened, so undo is "drop the last move" and replay is a fold over the log.

Moves are small values that round-trip through JSON:

>>> m = Move("invest", 1, {"amount": 200})
>>> Move.from_json(m.to_json()) == m
True

Chance is an actor of its own, as in OpenSpiel: a drop of the tower or a card
turned up is a move by ``CHANCE``. A real table supplies it from an observation
or a person's tap; the simulated table samples it from :func:`Game.chance`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping, Protocol, Union

CHANCE = "chance"
Actor = Union[int, str]  # a seat index, or CHANCE


class IllegalMove(ValueError):
    """A move the rules do not allow now; ``reason`` is for a person to read."""

    def __init__(self, reason: str, move: "Move | None" = None):
        super().__init__(reason)
        self.reason = reason
        self.move = move


@dataclass(frozen=True)
class Move:
    kind: str
    player: Actor
    args: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", _freeze(self.args))

    def to_json(self) -> dict:
        return {"kind": self.kind, "player": self.player, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Any) -> "Move":
        """Read a move from JSON; an IllegalMove that says what is malformed."""
        if not isinstance(data, Mapping):
            raise IllegalMove("a move must be an object with kind, player and args")
        kind, player, args = data.get("kind"), data.get("player"), data.get("args", {})
        if not isinstance(kind, str) or not kind:
            raise IllegalMove("a move needs a 'kind' (text)")
        if not (player == CHANCE or (isinstance(player, int) and not isinstance(player, bool))):
            raise IllegalMove(f"'player' must be a seat number or {CHANCE!r}, not {player!r}")
        if not isinstance(args, Mapping):
            raise IllegalMove("'args' must be an object")
        return cls(kind, player, _freeze(args))

    def __hash__(self) -> int:
        return hash((self.kind, self.player, repr(sorted(self.args.items()))))


def _freeze(args: Mapping[str, Any]) -> dict:
    # JSON lists become tuples so that equal moves compare equal however they arrived.
    return {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log and the dashboard: ``kind`` plus data."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"kind": self.kind, **_jsonable(self.data)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items) if isinstance(value, (set, frozenset)) else items
    return value


@dataclass(frozen=True)
class Pending:
    """Someone the game waits for. ``secret_for`` marks a chance outcome that only
    that player may see and supply (the card they drew, entered on their phone)."""

    actor: Actor
    secret_for: int | None = None


@dataclass(frozen=True)
class ChanceChoice:
    """A chance move with listed outcomes and their probabilities.

    ``offer`` is what a person at a real table is asked to pick from when listing
    the possible outcomes would give a secret away (the cards left in a deck tell
    which cards the players drew); None means the outcomes themselves.
    """

    outcomes: tuple[tuple[Move, float], ...]
    offer: tuple[Move, ...] | None = None
    kind: Literal["choice"] = "choice"


@dataclass(frozen=True)
class ChanceDrop:
    """A drop of the tower: any subset of ``candidates`` may come out.

    The odds depend on the physical tower, so the engine lists only what could
    come out; the simulated table's tower model supplies the odds. ``thrown`` is
    what goes in with this drop, ``inside`` what was already stuck.
    """

    move_kind: str
    thrown: tuple[str, ...]
    inside: tuple[str, ...]
    kind: Literal["drop"] = "drop"

    @property
    def candidates(self) -> tuple[str, ...]:
        return self.thrown + self.inside


ChanceSpec = Union[ChanceChoice, ChanceDrop]


@dataclass(frozen=True)
class MoveInfo:
    """What the dashboard shows on a move's button: what it costs and could pay."""

    cost: int = 0
    pays_up_to: int = 0


class Game(Protocol):
    """The surface every game module offers (module-level functions)."""

    NAME: str
    PLAYERS: tuple[int, ...]  # the seat counts the game supports

    def setup(self, config: Mapping[str, Any]) -> Any: ...
    def pending(self, state: Any) -> list[Pending]: ...
    def legal_moves(self, state: Any, actor: Actor) -> list[Move]: ...
    def apply(self, state: Any, move: Move) -> tuple[Any, list[Event]]: ...
    def chance(self, state: Any) -> ChanceSpec | None: ...
    def view(self, state: Any, viewer: int | None) -> dict: ...
    def payouts(self, state: Any) -> dict: ...
    def move_info(self, state: Any, move: Move) -> MoveInfo: ...
    def is_over(self, state: Any) -> bool: ...


def uniform(moves: Iterable[Move]) -> ChanceChoice:
    moves = tuple(moves)
    return ChanceChoice(tuple((m, 1 / len(moves)) for m in moves))


def replay(game: Game, config: Mapping[str, Any], moves: Iterable[Move]) -> tuple[Any, list[Event]]:
    """Fold moves over a fresh setup; raises IllegalMove at the first bad one."""
    state, events = game.setup(config), []
    for move in moves:
        state, new = game.apply(state, move)
        events.extend(new)
    return state, events
