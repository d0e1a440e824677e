"""TOKYO METRO state: the immutable state, a new game, and helpers every phase uses.

The state is a tree of named tuples (small ints, strings and tuples), so that copying a changed
state is cheap and two states compare equal exactly when the game is in the same position. The
static part of the game (board, cards, track, options) is a :class:`~.options.Rules` object
shared by every state of a game and compared by its key.

A round runs through these phases (``PHASES``; game.py declares who acts in each, and the moves)::

    deal      chance: the card columns are filled one card at a time (round 1: as many cards per
              column as players; later rounds: the bottom card of each column is discarded, the
              others slide down and each column gets one new card on top). When a column cannot
              be refilled the game ends and is scored.                            (rounds.py)
    bid       every seat bids in secret for the player order (solo: skipped)       (rounds.py)
    tie_break round 1 only, chance: ties in the bids are broken one seat at a time (rounds.py)
    movement  in player order: place the meeple (round 1) or walk up to 2 fields (3 with a bicycle)
                                                                                   (movement.py)
    actions   in player order: take an action or pass, until everyone has passed
                                                          (action_phase.py, card_actions.py, ...)
    trains    the first player starts the train phase; riders decide at the stops (trains.py)
    drop      METRO DRINKS only, chance: what came out of the tower after a colour card's crate
              was thrown in; then the action phase goes on (vending.py)
    over      final scoring done (scoring.py)
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from ..engine import IllegalMove, Move
from .board import Board
from .options import Options, Rules, rules_of
from .options import rules_for as rules_for  # for scripts and tests
from .stock_column import DrinksState, new_drinks

DEAL, BID, TIE, MOVEMENT, ACTIONS, TRAINS, OVER = (
    "deal", "bid", "tie_break", "movement", "actions", "trains", "over")
PHASES = (DEAL, BID, TIE, MOVEMENT, ACTIONS, TRAINS, OVER)


class Seat(NamedTuple):
    name: str
    yen: int
    discs: int = 3           # action discs the player owns (3 to 6)
    used: int = 0            # discs on action spaces this round
    pyramids: int = 6        # pyramids not yet built
    field: int = -1          # the meeple's field; -1 when off the grid (not placed yet, or riding)
    riding: int = -1         # index of the line whose train the meeple rides; -1 for none
    moved: bool = False      # that train has moved at least one stop since the meeple boarded
    tempo: int = 0           # tempo tokens held, not yet assigned to a line
    bicycle: bool = False
    loans: int = 0
    specs_left: int = 2      # speculation discs still beside the revenue track
    bonus: int = 0           # bid bonus yen beside the order disc
    bid: int = -1            # the secret bid this round; -1 until given
    passed: bool = False
    cards: tuple[str, ...] = ()                     # private action cards (from the card action)
    discounts: tuple[tuple[str, int], ...] = ()     # discount actions holding this seat's discs
    tempo_now: int = 0       # tempo tokens assigned in this turn (no passing after that)


class LineState(NamedTuple):
    value: int = 0
    train: int = -1          # stop index of the train (0 = stop 1); -1: not on the board
    dir: int = 1             # +1: towards higher stop numbers
    tempo: int = 0           # tempo tokens assigned to the line
    specs: tuple[tuple[int, int], ...] = ()   # (seat, stake) per speculation disc
    holders: tuple[int, ...] = ()             # seats holding share #1, #2, ... in that order


class Column(NamedTuple):
    deck: tuple[tuple[str, ...], ...]   # face-down cards by dot group, the group dealt next first
    slots: tuple[str, ...] = ()         # face-up cards, bottom to top
    discard: tuple[str, ...] = ()       # discard pile, bottom to top


class TrainRun(NamedTuple):
    line: int                # index of the line whose train moves now
    steps: int               # stops it moved so far this phase
    total: int               # stops it moves this phase
    asked: tuple[int, ...] = ()                  # seats that decided at the current stop
    leaving: bool = False    # back at stop 1 without a share: it leaves the board after this stop
    who: int = -1            # the seat deciding now
    what: str = ""           # "alight" or "board"


class RunLog(NamedTuple):
    """What the latest train phase did (for the view, once the trains have run): who was paid
    where, who paid a fare, which trains left the board. Started afresh by each ``run_trains``."""

    round: int
    payouts: tuple[tuple[int, int, int, int, int], ...] = ()   # (line, stop index, owner, to_owner, value)
    fares: tuple[tuple[int, int, int], ...] = ()               # (seat, line, fare) per boarding
    left: tuple[int, ...] = ()                                 # lines whose train left the board
    bonuses: tuple[tuple[int, int, int, int, str], ...] = ()   # METRO DRINKS: (line, stop index, owner, yen, colour)


class State(NamedTuple):
    rules: Rules
    phase: str
    round: int
    seats: tuple[Seat, ...]
    order: tuple[int, ...]               # the player order track, first player first
    turn: int                            # index in `order` of the seat to act (movement, actions)
    lines: tuple[LineState, ...]
    pyramids: tuple[int, ...]            # per station: the owner's seat, or -1
    columns: tuple[Column, ...]
    dealing: tuple[int, ...]             # columns still waiting for a card (deal phase)
    occupied: frozenset                  # (card id, action index) whose spaces hold discs
    placed: tuple[tuple[str, int, int], ...]   # (card, action, seat) taken this round, in order; a used
                                               # discount stays listed (its discs moved onto a later action)
    tempo_supply: int
    bicycles: int
    loan_supply: int
    disc_supply: tuple[int, ...]         # per seat: its discs left in the general supply
    bank: int
    ties: tuple[tuple[int, ...], ...] = ()     # tie_break phase: the bid ranking in groups, best first
    run: TrainRun | None = None
    last_bids: tuple | None = None       # the revealed bids of this round (for the view)
    result: Mapping[str, Any] | None = None  # final scoring
    last_run: RunLog | None = None       # the latest train phase, kept until the next one starts
    # Train phase: (seat, station, line) where a seat got off a train in this phase (no boarding
    # that train there again; under rules version 1, no boarding any train there).
    barred: tuple[tuple[int, int, int], ...] = ()
    drinks: DrinksState | None = None    # METRO DRINKS only: the stock column, crates, drinks (vending.py)

    @property
    def board(self) -> Board:
        return self.rules.board

    @property
    def options(self) -> Options:
        return self.rules.options

    @property
    def tower(self):
        """METRO DRINKS: the tower (rules/tower.py) and what is stuck in it, where the table looks for
        it in every tower game (table/observing.py); None in the other METRO games."""
        return self.drinks.tower if self.drinks is not None else None


def start(opts: Options, config: Mapping[str, Any]) -> State:
    """A new game (``config``: ``names``; ``opts``: the options it was checked to)."""
    rules = rules_of(opts)
    o, n = rules.options, rules.players
    names = list(config.get("names") or [f"Player {i + 1}" for i in range(n)])
    if len(names) != n:
        raise IllegalMove(f"give {n} player names, not {len(names)}")
    seats = tuple(Seat(str(name), o.start_yen, discs=o.start_discs, pyramids=o.pyramids,
                       specs_left=o.speculations) for name in names)
    board = rules.board
    columns = tuple(Column(rules.deck.groups(i)) for i in range(len(rules.deck.sets)))
    drinks = None
    if o.drinks:  # METRO DRINKS: the stock column deals after the action-card columns (stock_column.py)
        size = min(len(s.cards) for s in rules.deck.sets)
        if not 6 <= size <= 12:
            raise IllegalMove(f"METRO DRINKS needs action-card sets of 6 to 12 cards (the stock column is as long: "
                              f"its 6 colour cards and up to 6 shape cards); these have {size}")
        drinks = new_drinks(size, len(board.stations), n)
    dealing = tuple(c for c in range(len(columns) + (drinks is not None)) for _ in range(rules.per_column))
    return State(
        rules=rules, phase=DEAL, round=1, seats=seats, order=tuple(range(n)), turn=0,
        lines=tuple(LineState() for _ in board.lines), pyramids=tuple(-1 for _ in board.stations),
        columns=columns, dealing=dealing, occupied=frozenset(), placed=(),
        tempo_supply=o.tempo_tokens, bicycles=o.bicycles, loan_supply=o.loan_tokens,
        disc_supply=tuple(o.extra_discs for _ in range(n)), bank=o.bank_yen - n * o.start_yen, drinks=drinks,
    )


# --- small helpers shared by the phases ---------------------------------------------------------

def quick_move(kind: str, player: int, args: dict) -> Move:
    """A Move of args that are already frozen (ints, text, tuples), made without Move's copy of
    them: listings make hundreds of moves."""
    move = object.__new__(Move)
    object.__setattr__(move, "kind", kind)
    object.__setattr__(move, "player", player)
    object.__setattr__(move, "args", args)
    return move


def set_seat(state: State, p: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[p] = seats[p]._replace(**changes)
    return tuple(seats)


def set_line(state: State, i: int, **changes: Any) -> tuple[LineState, ...]:
    lines = list(state.lines)
    lines[i] = lines[i]._replace(**changes)
    return tuple(lines)


def occupied_fields(state: State, but: int = -1) -> set[int]:
    return {s.field for i, s in enumerate(state.seats) if s.field >= 0 and i != but}


def free_spaces(state: State, line: int) -> int:
    ls = state.lines[line]
    return state.board.lines[line].disc_spaces - ls.tempo - len(ls.specs)


def int_arg(move: Move, name: str) -> int:
    value = move.args.get(name)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalMove(f"'{name}' must be a whole number, not {value!r}", move)
    return value


def str_arg(move: Move, name: str) -> str:
    value = move.args.get(name)
    if not isinstance(value, str):
        raise IllegalMove(f"'{name}' must be text, not {value!r}", move)
    return value


def field_arg(state: State, move: Move, name: str = "field") -> int:
    f = int_arg(move, name)
    board = state.board
    if not 0 <= f < board.n_fields:
        raise IllegalMove(f"field {f} is not on the {board.cols}x{board.rows} grid (fields 0 to {board.n_fields - 1}, "
                          "numbered row by row)", move)
    return f


def line_arg(state: State, move: Move, name: str = "line") -> int:
    letter = str_arg(move, name)
    i = state.board.line_index.get(letter)
    if i is None:
        raise IllegalMove(f"unknown line {letter!r}; lines: {' '.join(state.board.line_index)}", move)
    return i


def seat_label(state: State, p: int) -> str:
    return f"{state.seats[p].name} (seat {p})"


def ride_station(state: State, p: int) -> int:
    """The station where the train that seat p rides stands now."""
    line = state.seats[p].riding
    return state.board.lines[line].stop_station[state.lines[line].train]


def alight_fields(state: State, p: int, station: int) -> list[int]:
    """Free fields touching a station, where a rider may get off."""
    taken = occupied_fields(state, but=p)
    return [f for f in state.board.stations[station].fields if f not in taken and f not in state.board.blocked]


def nearest_free_fields(state: State, station: int) -> list[int]:
    """The free fields closest to a station (for riders of a train leaving a crowded station)."""
    board, taken = state.board, occupied_fields(state)
    frontier, seen = list(board.stations[station].fields), set(board.stations[station].fields)
    while frontier:
        free = sorted(f for f in frontier if f not in taken)
        if free:
            return free
        nxt = []
        for f in frontier:
            for g in board.adjacent[f]:
                if g not in seen:
                    seen.add(g)
                    nxt.append(g)
        frontier = nxt
    return []
