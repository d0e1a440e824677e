"""A game as one declaration; the engine does the rest for every game alike.

A game module says what its rule-book section says, and nothing else:

- its **options** (a :class:`~companion.rules.options.GameOptions` model) and how a game
  **starts** (``start(options, config) -> state``);
- its **phases**: who acts in each (``acting``), what the game waits for in words, the chance
  outcomes it awaits (``outcomes``), and what ends the phase;
- for each **kind of move**, one :class:`Kind` that holds how the move is listed for a seat
  (``listed``), composed from lists (``compose``), checked and applied (``apply``, which raises
  IllegalMove with a reason), and described (``info``: cost, payout and why; ``owner_info``: the
  same as the maker knows it, with their secrets), the rule it follows,
  and its flags: made by chance, secret, held for a person, possible at any time;
- how the state is shown (``view``, with the viewer's secrets only) and scored (``payouts``);
- for estimates, how to draw again what a viewer cannot see (``redraw``).

:class:`Declared` turns that into the surface the table session uses (``setup``, ``pending``,
``legal_moves``, ``apply``, ``chance``, ``view``, ``payouts``, ``move_info``, ``is_over``,
``composite_moves``, ``estimate``): routing of a move to its kind, refusals worded alike for
every game (not your turn, not now, malformed), who a secret belongs to, random playouts.
docs/adding-a-game.md walks through a whole game.

>>> from companion.rules.games import lemon_squash
>>> game = lemon_squash.GAME
>>> state = game.setup({"names": ["Aki", "Ben"]})
>>> game.pending(state)
[Pending(actor='chance', secret_for=None)]
>>> game.apply(state, Move("flick", 0, {"result": "miss"}))
Traceback (most recent call last):
...
companion.rules.engine.IllegalMove: it is not Aki's turn; the game waits for whose short can landed farthest from the tower (next in the order)
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Callable, Iterable, Mapping, Sequence

from .choices import Choice, offered
from .engine import CHANCE, Actor, ChanceChoice, ChanceSpec, Composite, Event, IllegalMove, Move, MoveInfo, Pending
from .estimate import estimate_final
from .options import GameOptions

State = Any
DROP_KIND = "drop"  # the kind of the chance move that enters a drop of the tower (ChanceDrop.move_kind)
Applied = tuple[State, list[Event]]


@dataclass(frozen=True)
class Kind:
    """One kind of move: where it may be made, and how it is listed, applied and described.

    ``phases``: the phases in which it is made (a seat's move by a seat the game waits for, a
    chance outcome while the game waits for chance). ``anytime``: in any phase but the end, by
    chance (a drink falling out of the tower on its own) or by any seat (getting off a train).
    ``listed(state, seat)``: the moves of this kind the seat may make now (a kind with none
    listed, such as a chance outcome, leaves it out). ``compose(state, seat)``: the list-taking
    forms a dashboard offers as a picker (engine.Composite). ``apply(state, move)``: checks the
    arguments (IllegalMove with a reason a person can act on) and returns the new state and events.
    """

    name: str
    apply: Callable[[State, Move], Applied]
    rule: str
    phases: tuple[str, ...] = ()
    listed: Callable[[State, int], Iterable[Move]] | None = None
    compose: Callable[[State, int], Iterable[Composite]] | None = None
    info: Callable[[State, Move], MoveInfo] | None = None
    # What the move costs and could pay as its maker alone knows it (with their secret card): the
    # engine asks it only for the maker's own view, so no other screen learns the secret from it.
    owner_info: Callable[[State, Move], MoveInfo] | None = None
    chance: bool = False       # an outcome the table supplies (an observation or a person's entry)
    secret: bool = False       # made on the player's own phone; others learn only that it was made
    held: bool = False         # a computer player's move that waits for a person's tap on the table
    anytime: bool = False
    # A real-time game's kind whose moment counts (the start of a race, a player done): the table
    # stamps the move with its clock when it is made (``args["at_ms"]``, the service's wall clock
    # in milliseconds), so the rules read times as data and stay without a clock of their own.
    clocked: bool = False
    # A secret kind's events that everyone may know all the same (the last sealed bid opens every
    # bid at once and names the winner); its other events reach its owner alone (table/feed.py).
    open_events: tuple[str, ...] = ()


@dataclass(frozen=True)
class Phase:
    """A phase: what the game waits for (``waiting``, in words, or a function of the state), who
    acts (``acting``: the seats, or chance when ``outcomes`` lists what chance may bring), and
    what ends it (``ends``, in words: the kinds' ``apply`` moves the game on)."""

    name: str
    waiting: str | Callable[[State], str]
    acting: Callable[[State], list[Pending]] | None = None
    outcomes: Callable[[State], ChanceSpec | None] | None = None
    ends: str = ""

    def who(self, state: State) -> list[Pending]:
        if self.acting is not None:
            return self.acting(state)
        return [Pending(CHANCE)] if self.outcomes is not None else []

    def awaited(self, state: State) -> str:
        return self.waiting(state) if callable(self.waiting) else self.waiting


def nothing_hidden(state: State, viewer: int | None, rng: random.Random) -> State:
    """``redraw`` of a game in which every viewer sees everything that decides the result."""
    return state


@dataclass(frozen=True, eq=False, repr=False)
class Declared:
    """A game made from its declaration (see the module's docstring)."""

    name: str
    title: str
    players: tuple[int, ...]
    options: type[GameOptions]
    start: Callable[[GameOptions, Mapping[str, Any]], State]
    phases: tuple[Phase, ...]
    kinds: tuple[Kind, ...]
    view_of: Callable[[State, int | None], dict]
    payouts_of: Callable[[State], dict]
    seat_names: Callable[[State], Sequence[str]]
    phase_of: Callable[[State], str] = attrgetter("phase")
    over: str = "over"
    redraw: Callable[[State, int | None, random.Random], State] | None = None
    policy: Callable[[State, Actor, random.Random], Move] | None = None
    playout_cost: Callable[[State], int] = lambda state: 1
    # The order a seat's moves are listed in, where the game's table has one (default: by kind, as declared).
    listing: Callable[[State, list[Move]], list[Move]] | None = None
    # The choice a move makes, for spreading an estimate's playouts over the choices evenly
    # (TOKYO METRO: one per card action; by default one per kind of move).
    group: Callable[[Move], str] = attrgetter("kind")
    # The events that change the physical board or pieces (a station built, a train placed, drinks
    # put into a crate): when the computer or the simulated table made the move, a person copies
    # it onto the real table; the feed of the night marks them (table/feed.py).
    board_events: frozenset[str] = frozenset()
    # The crates as they stand on the table, for the games played on a grid of crates (the crate
    # camera, table/crate_watch.py): each crate's place (x, y of its top-left field, quarter turns
    # clockwise; as in yuzu_crates.py) and field (x, y) -> drink id of the slots that hold one.
    # None: the game's crates are not followed by the camera.
    crates: Callable[[State], tuple[tuple[tuple[int, int, int], ...], Mapping[tuple[int, int], str]]] | None = None
    # The dashboard catalogue holding the game's words (static/i18n/<lang>/<catalogue>.json), when
    # it shares one with the games of the same engine ("" : its own, named as the game): the METRO
    # games share tokyo_metro.json, as their kinds of move are the same.
    catalogue: str = ""
    # The options the lobby offers as choices when the game is started (choices.py): which board,
    # which cards. The others keep their defaults unless the API sets them.
    choices: tuple[Choice, ...] = ()
    _phases: Mapping[str, Phase] = field(init=False, repr=False)
    _kinds: Mapping[str, Kind] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names) or self.over not in names:
            raise ValueError(f"{self.name}: phases must be named once each, the end ({self.over!r}) among them")
        for kind in self.kinds:
            unknown = set(kind.phases) - set(names)
            if unknown or not (kind.phases or kind.anytime) or not kind.rule:
                raise ValueError(f"{self.name}: move kind {kind.name!r} needs known phases (or anytime) and its rule")
        offered(self.options, self.choices)  # ValueError: a choice the options cannot take
        object.__setattr__(self, "_phases", {p.name: p for p in self.phases})
        object.__setattr__(self, "_kinds", {k.name: k for k in self.kinds})

    def __repr__(self) -> str:
        return f"<game {self.name}>"

    # --- the surface ------------------------------------------------------------------------

    def setup(self, config: Mapping[str, Any]) -> State:
        """A new game from ``config`` (``names``, ``options``): IllegalMove says what is wrong."""
        return self.start(self.options.from_config(config, self.title, self.players), config)

    def is_over(self, state: State) -> bool:
        return self.phase_of(state) == self.over

    def pending(self, state: State) -> list[Pending]:
        """Whom the game waits for now: seats, or chance (with the seat a secret outcome is for)."""
        if self.is_over(state):
            return []
        return self._phases[self.phase_of(state)].who(state)

    def chance(self, state: State) -> ChanceSpec | None:
        """The chance outcome awaited now (listed with odds, or a drop of the tower), if any."""
        phase = self._phases[self.phase_of(state)]
        return phase.outcomes(state) if phase.outcomes is not None and not self.is_over(state) else None

    def legal_moves(self, state: State, actor: Actor) -> list[Move]:
        """The moves ``actor`` may make now: chance's listed outcomes, or a seat's moves of every
        kind its phase allows (and of the kinds allowed at any time)."""
        if self.is_over(state):
            return []
        if actor == CHANCE:
            spec = self.chance(state)
            return [m for m, _ in spec.outcomes] if isinstance(spec, ChanceChoice) else []
        acting = actor in self._actors(state)
        moves: list[Move] = []
        for kind in self._seat_kinds(state, acting):
            if kind.listed is not None:
                moves.extend(kind.listed(state, actor))
        return self.listing(state, moves) if self.listing is not None and moves else moves

    def composite_moves(self, state: State, seat: int) -> list[dict]:
        """The list-taking moves ``seat`` could compose now (engine.Composite, as JSON)."""
        if self.is_over(state):
            return []
        found: list[dict] = []
        for kind in self._seat_kinds(state, seat in self._actors(state)):
            if kind.compose is not None:
                found.extend(c.to_json() if isinstance(c, Composite) else dict(c) for c in kind.compose(state, seat))
        return found

    def apply(self, state: State, move: Move) -> Applied:
        """The new state and what happened; IllegalMove (the state untouched) when not allowed now."""
        if self.is_over(state):
            raise IllegalMove("the game is over", move)
        try:
            return self._route(state, move).apply(state, move)
        except IllegalMove as exc:
            if exc.move is None:
                exc.move = move
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:  # malformed arguments
            raise IllegalMove(f"the {move.kind!r} move is malformed: {exc}", move) from None

    def move_info(self, state: State, move: Move, viewer: int | None = None) -> MoveInfo:
        """What a move costs and could pay, and why, for its button as ``viewer`` sees it (nothing
        known: zeros). Only the move's own maker (``viewer == move.player``) gets what their
        secrets add (the kind's ``owner_info``); the table and the other seats get the same
        figures whatever the secret is."""
        kind = self._kinds.get(move.kind)
        if kind is None:
            return MoveInfo()
        own = kind.owner_info is not None and viewer is not None and viewer == move.player
        describe = kind.owner_info if own else kind.info
        if describe is None:
            return MoveInfo()
        try:
            return describe(state, move)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return MoveInfo()

    def rule_of(self, kind: str) -> str:
        """The rule-book section a kind of move follows ("" for a kind the game does not know)."""
        found = self._kinds.get(kind)
        return found.rule if found is not None else ""

    def view(self, state: State, viewer: int | None) -> dict:
        """The state as ``viewer`` (a seat, or None for the shared table view) may see it."""
        return self.view_of(state, viewer)

    def payouts(self, state: State) -> dict:
        return self.payouts_of(state)

    # --- what the table session asks of every game --------------------------------------------

    @property
    def secret_kinds(self) -> frozenset[str]:
        """Kinds a player makes in secret (a sealed bid): on their own phone only."""
        return frozenset(k.name for k in self.kinds if k.secret)

    @property
    def clocked_kinds(self) -> frozenset[str]:
        """Kinds the table stamps with its clock when they are made (``Kind.clocked``)."""
        return frozenset(k.name for k in self.kinds if k.clocked)

    @property
    def held_kinds(self) -> frozenset[str]:
        """A computer player's kinds held for a person's tap (the trains run after everyone saw them)."""
        return frozenset(k.name for k in self.kinds if k.held)

    def secret_owner(self, before: State, move: Move) -> int | None:
        """The seat ``move`` (made in state ``before``) is a secret of, or None when everyone may
        know it: a secret kind is its maker's; a chance outcome awaited for one seat alone (the
        card a player drew) is that seat's."""
        if move.player == CHANCE:
            return next((p.secret_for for p in self.pending(before) if p.actor == CHANCE), None)
        kind = self._kinds.get(move.kind)
        return move.player if kind is not None and kind.secret else None

    def open_events(self, move: Move) -> frozenset[str]:
        """The events of a secret ``move`` that everyone may know (its kind's ``open_events``)."""
        kind = self._kinds.get(move.kind)
        return frozenset(kind.open_events) if kind is not None else frozenset()

    @property
    def words(self) -> str:
        """The name of the dashboard catalogue with the game's words (``catalogue`` or the name)."""
        return self.catalogue or self.name

    @property
    def lobby_choices(self) -> list[dict]:
        """The lobby's choices: ``{"option", "values", "default"}`` each (choices.py)."""
        return offered(self.options, self.choices)

    @property
    def uses_tower(self) -> bool:
        """Whether the game throws drinks into the tower and waits for what comes out (a chance kind
        named ``drop``, the kind every ChanceDrop names): only then have the tower's camera over
        the tray and its beams anything to read, and a simulated table a tower to simulate.
        TOKYO METRO, LEMON SQUASH (cans flicked at the tower) and the upside-down tower's
        landings await none."""
        return any(k.chance and k.name == DROP_KIND for k in self.kinds)

    @property
    def offers_estimates(self) -> bool:
        """Whether hints can be estimated without telling a viewer what they cannot see."""
        return self.redraw is not None

    def estimate(self, state: State, seat: int, moves: Sequence[Move], rng: random.Random,
                 playouts: int = 200, viewer: int | None = None) -> dict:
        """The expected final yen of ``seat`` after each of ``moves``, from random playouts with
        what ``viewer`` cannot see drawn again (rules/estimate.py)."""
        return estimate_final(self, state, seat, moves, rng, playouts, viewer)

    def estimate_cost(self, state: State) -> int:
        return max(1, self.playout_cost(state))

    # --- routing ----------------------------------------------------------------------------

    def _actors(self, state: State) -> list[Actor]:
        return [p.actor for p in self.pending(state)]

    def _seat_kinds(self, state: State, acting: bool) -> list[Kind]:
        phase = self.phase_of(state)
        return [k for k in self.kinds if not k.chance and (k.anytime or (acting and phase in k.phases))]

    def _route(self, state: State, move: Move) -> Kind:
        """The kind that applies ``move`` now, or IllegalMove saying why none does."""
        phase = self._phases[self.phase_of(state)]
        kind = self._kinds.get(move.kind)
        waiting = phase.awaited(state)
        if move.player == CHANCE:
            if kind is not None and kind.chance and (kind.anytime or (
                    phase.name in kind.phases and CHANCE in self._actors(state))):
                return kind
            raise IllegalMove(f"no {move.kind!r} outcome is awaited now; the game waits for {waiting}", move)
        names = self.seat_names(state)
        p = move.player
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(names):
            raise IllegalMove(f"there is no seat {p!r}", move)
        if kind is not None and kind.anytime and not kind.chance:
            return kind
        if p not in self._actors(state):
            raise IllegalMove(f"it is not {names[p]}'s turn; the game waits for {waiting}", move)
        if kind is None or kind.chance or phase.name not in kind.phases:
            kinds = sorted(k.name for k in self.kinds if phase.name in k.phases and not k.chance)
            raise IllegalMove(f"now is the time to {' or '.join(kinds) or 'wait'}, not to {move.kind}", move)
        return kind

    # --- for tests and modules that used the module-level surface ----------------------------

    def surface(self) -> tuple[Callable, ...]:
        """``setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
        composite_moves``: a game module offers them at module level, as python-chess does."""
        return (self.setup, self.pending, self.legal_moves, self.apply, self.chance, self.view, self.payouts,
                self.move_info, self.is_over, self.composite_moves)
