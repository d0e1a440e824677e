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

# Every option of every game has bounds, so that no setting makes a game that cannot be played
# or shown (a stake step of 0, a bid step of 1 yen listing thousands of bids) and nothing
# unbounded enters a game's settings, which are kept for ever. A whole number lies in
# OPTION_RANGE unless the game's ``Options.BOUNDS`` (name -> (least, most)) says otherwise; a
# text has at most OPTION_TEXT characters; a list at most OPTION_ITEMS items (the 36 drinks are
# the longest list a game needs), lists within lists alike.
OPTION_RANGE = (0, 100_000)
OPTION_TEXT = 40
OPTION_ITEMS = 36


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
    typed: tuple[Typed, ...] = ()
    kind: Literal["choice"] = "choice"


@dataclass(frozen=True)
class Typed:
    """A chance move whose number(s) the table types rather than picks (a game played beside the
    companion ends with its scores; a hit deals more damage than the buttons offer): the move
    ``kind`` with ``base`` args and ``arg`` set to a whole number from ``least`` to ``most``, or,
    with ``per_seat``, to a list of such numbers, one per seat in seat order. A ChanceChoice
    lists these beside its ``offer``; the dashboard draws an entry for each and the engine still
    checks what arrives."""

    kind: str
    arg: str
    least: int
    most: int
    per_seat: bool = False
    base: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"kind": self.kind, "arg": self.arg, "min": self.least, "max": self.most,
                "per_seat": self.per_seat, "base": _jsonable(self.base)}


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
    """What the dashboard shows on a move's button: what it costs and could pay, and why.

    ``why`` names the dashboard's catalogue text that says how the two figures come about
    (``why.<game>.<name>``, or ``why.<name>`` for what several games share) and ``params`` fills
    its slots: a station's price per stop and its stops, "only the highest bid pays". The words
    live in the catalogues (EN, DE, ...), never here; "" when there is nothing to say.
    """

    cost: int = 0
    pays_up_to: int = 0
    why: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        """The figures and the explanation as a view's move carries them."""
        return {"cost": self.cost, "pays_up_to": self.pays_up_to,
                "why": {"key": self.why, "params": _jsonable(self.params)} if self.why else None}


@dataclass(frozen=True)
class Composite:
    """One list-taking move a seat could compose now (see ``Game.composite_moves``).

    ``to_json()`` is what ``composite_moves`` returns: the fields set, JSON-ready.
    """

    kind: str
    pick: Mapping[str, Any]
    base: Mapping[str, Any] = field(default_factory=dict)
    amounts: Mapping[str, Any] | None = None
    coins: Mapping[str, Any] | None = None
    price: Mapping[str, int] | None = None
    each: Mapping[str, int] | None = None
    pays: Mapping[str, int] | None = None

    def to_json(self) -> dict:
        return {k: _jsonable(v) for k, v in self.__dict__.items() if v is not None}


class Game(Protocol):
    """The surface every game module offers (module-level functions).

    Optional: ``composite_moves(state, seat) -> list[dict]``. ``legal_moves`` lists a move
    that takes lists (buy 1 to 3 drinks, bet on several cards) in its single-item form
    only, or not at all where there would be hundreds; this describes the bigger forms
    ``apply`` accepts, so that a dashboard can offer a picker. Each item (see
    :class:`Composite`)::

        {"kind": "buy_drinks",                 # the move kind composed
         "base": {},                           # args fixed as given
         "pick": {"arg": "drinks",             # the list arg the picked items fill, in the order picked
                  "from": ["red-tall_can", ...],  # what may be picked, each item at most once
                  "min": 1, "max": 3,          # how many items
                  "within": [[...], ...],      # optional: all picked items from one of these groups
                  "shows": [...]},             # optional: per item of "from", the drinks or cards it
                                               # stands for (a slot's drink; null: empty), to draw it
         "amounts": {"arg": "amounts", "min": 100, "step": 100, "max_total": 600},
                                               # optional: one amount per picked item, same order
         "coins": {"arg": "coins", "have": {"1000": 1, "500": 2, "100": 3}},
                                               # optional: paid with coins listed in the arg
                                               # (no change is given; paying more is allowed)
         "price": {"1": 100, "2": 400, "3": 900},  # optional: yen it costs by how many are picked
         "each": {"red-tall_can": 100, ...},   # optional: yen it costs per picked item (summed)
         "pays": {"1": 300, "2": 600}}         # optional: yen it pays by how many are picked

    When ``pick.arg`` is a list of arg names (paired lists, such as two crates' slots), each
    item of ``from`` is a list with one value per arg name. A move with ``amounts`` costs
    their sum. Every composition of ``min`` to ``max`` items (from one group when ``within``
    is given; amounts of at least ``min`` in ``step``s adding up to at most ``max_total``;
    enough coins to pay, a coin to spare included: no change is given, but paying too much is
    allowed, though not in a game stored under rules version 1) is accepted by ``apply``; more
    than ``max`` items are refused. ``apply`` still checks everything: a refusal gives its
    reason. The table session adds the seat as ``player`` and sends the list as the view's
    ``composites``.
    """

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
    # optional: def composite_moves(self, state: Any, seat: int) -> list[dict]: ...


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
