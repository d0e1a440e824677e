"""TOKYO METRO state: options, the immutable state, setup, and the round's flow.

The state is a tree of named tuples (small ints, strings and tuples), so that copying a changed
state is cheap and two states compare equal exactly when the game is in the same position. The
static part of the game (board, cards, track, options) is a :class:`Rules` object shared by every
state of a game and compared by its key.

A round runs through these phases (``PHASES``)::

    deal      chance: the card columns are filled one card at a time (round 1: as many cards per
              column as players; later rounds: the bottom card of each column is discarded, the
              others slide down and each column gets one new card on top). When a column cannot
              be refilled the game ends and is scored.
    bid       every seat bids in secret for the player order (solo: skipped)
    tie_break round 1 only, chance: ties in the bids are broken one seat at a time
    movement  in player order: place the meeple (round 1) or walk up to 2 fields (3 with a bicycle)
    actions   in player order: take an action or pass, until everyone has passed (actions.py)
    trains    the first player starts the train phase; riders decide at the stops (trains.py)
    over      final scoring done (scoring.py)
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, NamedTuple

from ..engine import CHANCE, OPTION_RANGE, Event, IllegalMove, Move, uniform
from . import scoring
from ._schema import DataError
from .board import Board, default_board, load_board
from .cards import (Deck, RevenueTrack, StockCards, default_deck, default_stock, default_track, load_deck,
                    load_stock, load_track)

DEAL, BID, TIE, MOVEMENT, ACTIONS, TRAINS, OVER = (
    "deal", "bid", "tie_break", "movement", "actions", "trains", "over")
PHASES = (DEAL, BID, TIE, MOVEMENT, ACTIONS, TRAINS, OVER)


@dataclass(frozen=True)
class Options:
    """The rule book's numbers, and named choices where it is silent (docs/rules-notes.md)."""

    players: int | None = None          # default: the number of names given (4 without names)
    start_yen: int = 2000
    bank_yen: int = 73_500              # the yen tiles in the box; the bank may still go below 0
    start_discs: int = 3
    max_discs: int = 6
    extra_discs: int = 3                # discs per colour in the general supply
    pyramids: int = 6
    speculations: int = 2
    tempo_tokens: int = 12
    loan_tokens: int = 8
    bicycles: int = 4
    loan: int = 1000
    loan_end_cost: int = 1500
    steps: int = 5                      # stops a train moves per train phase, before tempo
    fare: int = 100
    owner_payout: int = 200             # to a station's owner without a share of the line (and to the value)
    holder_value: int = 500             # to the line's value when the owner holds a share
    walk: int = 2
    pass_bonus: int = 100               # per action disc not placed when passing
    bid_step: int = 100
    speculation_offer_up_to: int = 900  # legal_moves offers stakes up to this (apply takes any)
    cards_per_column: int | None = None  # default: the number of players (2 in the solo game)
    board: Mapping[str, Any] | None = None          # a board file's data instead of the default
    action_cards: Mapping[str, Any] | None = None   # an action card file's data
    stock_cards: Mapping[str, Any] | None = None
    revenue_track: Mapping[str, Any] | None = None

    # Every whole-number option lies in OPTION_RANGE (rules/engine.py) unless named here:
    # the counts of pieces and steps stay near the box's (a train running 100,000 stops, a bid
    # step of 1 yen listing thousands of bids, would make a game nobody can play or show).
    BOUNDS = {"players": (1, 5), "cards_per_column": (1, 36), "start_discs": (0, 20), "max_discs": (0, 20),
              "extra_discs": (0, 20), "pyramids": (0, 50), "speculations": (0, 20), "tempo_tokens": (0, 100),
              "loan_tokens": (0, 100), "bicycles": (0, 20), "steps": (0, 50), "walk": (0, 20),
              "bid_step": (100, 10_000), "bank_yen": (0, 10_000_000)}   # a bank may be set well above the box's

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "Options":
        given = dict(config.get("options") or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - known)
        if unknown:
            raise IllegalMove(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        for name, value in given.items():
            if name in ("board", "action_cards", "stock_cards", "revenue_track"):
                if value is not None and not isinstance(value, Mapping):
                    raise IllegalMove(f"option {name} must be the file's JSON object, not {value!r}")
            elif name not in ("players", "cards_per_column") or value is not None:
                least, most = cls.BOUNDS.get(name, OPTION_RANGE)
                if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
                    shown = repr(value) if len(repr(value)) <= 20 else (
                        f"a number of {len(str(value))} digits" if isinstance(value, int) else "a long value")
                    raise IllegalMove(f"option {name} must be a whole number of at least {least} and at most "
                                      f"{most}, not {shown}")
        return cls(**given)


@dataclass(frozen=True, eq=False)
class Rules:
    """The static part of a game: options, board, cards, track. Equal when built from equal options."""

    key: str
    options: Options
    players: int
    board: Board
    deck: Deck
    stock: StockCards
    track: RevenueTrack
    per_column: int

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Rules) and self.key == other.key)

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def rounds(self) -> int:
        """Rounds the columns allow: one for the first layout, one more per card left in the
        smallest column (5/6/7/8 rounds for 5/4/3/2 players with the default deck)."""
        return 1 + min(len(s.cards) for s in self.deck.sets) - self.per_column


_RULES: dict[str, Rules] = {}


def rules_for(config: Mapping[str, Any]) -> Rules:
    opts = Options.from_config(config)
    names = config.get("names")
    players = opts.players if opts.players is not None else (len(names) if names else 4)
    if players not in (1, 2, 3, 4, 5):
        raise IllegalMove(f"TOKYO METRO is played by 2 to 5 players, or alone (solo); not {players}")
    key = json.dumps({**asdict(opts), "players": players}, sort_keys=True, default=str)
    cached = _RULES.get(key)
    if cached is not None:
        return cached
    try:
        board = default_board() if opts.board is None else load_board(opts.board, "option board")
        deck = default_deck(board) if opts.action_cards is None else load_deck(opts.action_cards, board, "option action_cards")
        stock = default_stock(board) if opts.stock_cards is None else load_stock(opts.stock_cards, board, "option stock_cards")
        track = default_track() if opts.revenue_track is None else load_track(opts.revenue_track, "option revenue_track")
    except DataError as exc:
        raise IllegalMove(f"this data does not validate: {exc}") from None
    per_column = opts.cards_per_column or (2 if players == 1 else players)
    short = [s.id for s in deck.sets if len(s.cards) < per_column]
    if short:
        raise IllegalMove(f"card set(s) {', '.join(short)} have fewer than the {per_column} cards a column needs")
    if len(board.start_fields) < players:
        raise IllegalMove("the board's start area has fewer fields than there are players")
    rules = Rules(key, opts, players, board, deck, stock, track, per_column)
    _RULES[key] = rules
    return rules


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
    barred: tuple[tuple[int, int], ...] = ()    # (seat, station): alighted there this phase
    who: int = -1            # the seat deciding now
    what: str = ""           # "alight" or "board"


class RunLog(NamedTuple):
    """What the latest train phase did (for the view, once the trains have run): who was paid
    where, who paid a fare, which trains left the board. Started afresh by each ``run_trains``."""

    round: int
    payouts: tuple[tuple[int, int, int, int, int], ...] = ()   # (line, stop index, owner, to_owner, value)
    fares: tuple[tuple[int, int, int], ...] = ()               # (seat, line, fare) per boarding
    left: tuple[int, ...] = ()                                 # lines whose train left the board


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

    @property
    def board(self) -> Board:
        return self.rules.board

    @property
    def options(self) -> Options:
        return self.rules.options


def setup(config: Mapping[str, Any]) -> State:
    rules = rules_for(config)
    o, n = rules.options, rules.players
    names = list(config.get("names") or [f"Player {i + 1}" for i in range(n)])
    if len(names) != n:
        raise IllegalMove(f"give {n} player names, not {len(names)}")
    seats = tuple(Seat(str(name), o.start_yen, discs=o.start_discs, pyramids=o.pyramids,
                       specs_left=o.speculations) for name in names)
    board = rules.board
    columns = tuple(Column(rules.deck.groups(i)) for i in range(len(rules.deck.sets)))
    dealing = tuple(c for c in range(len(columns)) for _ in range(rules.per_column))
    return State(
        rules=rules, phase=DEAL, round=1, seats=seats, order=tuple(range(n)), turn=0,
        lines=tuple(LineState() for _ in board.lines), pyramids=tuple(-1 for _ in board.stations),
        columns=columns, dealing=dealing, occupied=frozenset(), placed=(),
        tempo_supply=o.tempo_tokens, bicycles=o.bicycles, loan_supply=o.loan_tokens,
        disc_supply=tuple(o.extra_discs for _ in range(n)), bank=o.bank_yen - n * o.start_yen,
    )


# --- small helpers shared by the phases ---------------------------------------------------------

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


def holds_share(state: State, p: int, line: int) -> bool:
    return p in state.lines[line].holders


def free_spaces(state: State, line: int) -> int:
    ls = state.lines[line]
    return state.board.lines[line].disc_spaces - ls.tempo - len(ls.specs)


def seat_arg(state: State, move: Move) -> int:
    p = move.player
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(state.seats):
        raise IllegalMove(f"there is no seat {p!r} (seats 0 to {len(state.seats) - 1})", move)
    return p


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


# --- deal / refill --------------------------------------------------------------------------------

def deal_outcomes(state: State) -> list[Move]:
    column = state.dealing[0]
    group = next(g for g in state.columns[column].deck if g)
    return [Move("deal", CHANCE, {"column": column, "card": c}) for c in group]


def deal_spec(state: State):
    return uniform(deal_outcomes(state))


def apply_deal(state: State, move: Move) -> tuple[State, list[Event]]:
    column = state.dealing[0]
    given = int_arg(move, "column")
    if given != column:
        raise IllegalMove(f"the next card goes to column {column} ({state.rules.deck.sets[column].id}), "
                          f"not column {given}", move)
    card = str_arg(move, "card")
    col = state.columns[column]
    group_index = next(i for i, g in enumerate(col.deck) if g)
    group = col.deck[group_index]
    if card not in group:
        raise IllegalMove(f"{card!r} cannot be turned up in column {column} now: the deck deals its "
                          f"{state.rules.deck.cards[group[0]].dots}-dot cards first, of which are left: "
                          f"{', '.join(group)}", move)
    deck = list(col.deck)
    deck[group_index] = tuple(c for c in group if c != card)
    columns = list(state.columns)
    columns[column] = col._replace(deck=tuple(deck), slots=col.slots + (card,))
    state = state._replace(columns=tuple(columns), dealing=state.dealing[1:])
    events = [Event("dealt", {"column": column, "card": card})]
    if not state.dealing:
        state, more = _after_deal(state)
        events += more
    return state, events


def _after_deal(state: State) -> tuple[State, list[Event]]:
    if state.rules.solo:
        bonus = state.seats[0].bonus
        state = state._replace(seats=set_seat(state, 0, bonus=0), bank=state.bank + bonus)
        return _start_movement(state), [Event("phase", {"phase": MOVEMENT, "round": state.round})]
    return state._replace(phase=BID), [Event("phase", {"phase": BID, "round": state.round})]


def start_next_round(state: State) -> tuple[State, list[Event]]:
    """After the train phase: the refill of the card columns, or the end of the game."""
    empty = [state.rules.deck.sets[i].id for i, c in enumerate(state.columns) if not any(c.deck)]
    if empty:
        return finish(state, f"column(s) {', '.join(empty)} cannot be refilled")
    columns = tuple(c._replace(slots=c.slots[1:], discard=c.discard + c.slots[:1]) for c in state.columns)
    state = state._replace(phase=DEAL, round=state.round + 1, columns=columns,
                           dealing=tuple(range(len(columns))), run=None, last_bids=None, turn=0)
    return state, [Event("round", {"round": state.round}),
                   Event("discarded", {"cards": [c.discard[-1] for c in columns if c.discard]})]


def finish(state: State, why: str) -> tuple[State, list[Event]]:
    result = scoring.final(state)
    seats = tuple(s._replace(yen=result["totals"][p], bonus=0) for p, s in enumerate(state.seats))
    lines = tuple(ls._replace(specs=tuple((p, 0) for p, _ in ls.specs)) for ls in state.lines)
    paid_out = sum(result["totals"]) - sum(s.yen for s in state.seats)
    stakes = sum(st for ls in state.lines for _, st in ls.specs)
    bonuses = sum(s.bonus for s in state.seats)
    bank = state.bank - paid_out + stakes + bonuses
    state = state._replace(phase=OVER, seats=seats, lines=lines, bank=bank, result=result, run=None)
    return state, [Event("game_over", {"why": why, "ranking": result["ranking"], "totals": result["totals"]})]


# --- bids -----------------------------------------------------------------------------------------

def bid_moves(state: State, p: int) -> list[Move]:
    seat = state.seats[p]
    if seat.bid >= 0:
        return []
    step = state.options.bid_step
    return [Move("bid", p, {"amount": a}) for a in range(0, seat.yen + 1, step)]


def apply_bid(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_arg(state, move)
    seat = state.seats[p]
    if seat.bid >= 0:
        raise IllegalMove(f"{seat_label(state, p)} has bid already this round", move)
    amount = int_arg(move, "amount")
    step = state.options.bid_step
    if amount < 0 or amount % step or amount > seat.yen:
        raise IllegalMove(f"a bid is 0 to {seat.yen} yen (what you have) in steps of {step}, not {amount}", move)
    state = state._replace(seats=set_seat(state, p, bid=amount))
    events = [Event("bid", {"seat": p, "secret": True})]
    if all(s.bid >= 0 for s in state.seats):
        state, more = _reveal(state)
        events += more
    return state, events


def _reveal(state: State) -> tuple[State, list[Event]]:
    seats = state.seats
    totals = [s.bid + s.bonus for s in seats]
    position = {p: i for i, p in enumerate(state.order)}
    ranked = sorted(range(len(seats)), key=lambda p: (-totals[p], position[p]))
    groups: list[tuple[int, ...]] = []
    for p in ranked:
        if groups and totals[groups[-1][0]] == totals[p]:
            groups[-1] += (p,)
        else:
            groups.append((p,))
    paid = sum(s.bid for s in seats) + sum(s.bonus for s in seats)
    bids = tuple((s.bid, s.bonus) for s in seats)
    new_seats = tuple(s._replace(yen=s.yen - s.bid, bid=-1, bonus=0) for s in seats)
    state = state._replace(seats=new_seats, bank=state.bank + paid, last_bids=bids)
    event = Event("bids", {"bids": [b for b, _ in bids], "bonus": [x for _, x in bids], "totals": totals})
    if state.round == 1 and any(len(g) > 1 for g in groups):
        return state._replace(phase=TIE, ties=tuple(groups)), [event, Event("phase", {"phase": TIE})]
    # Later rounds: tied players swap their relative places (three or more: their order reverses).
    order = tuple(p for g in groups for p in reversed(g))
    state = _start_movement(state._replace(order=order))
    return state, [event, Event("order", {"order": list(order)})]


def tie_spec(state: State):
    group = next(g for g in state.ties if len(g) > 1)
    return uniform(Move("tie_break", CHANCE, {"seat": p}) for p in group)


def apply_tie(state: State, move: Move) -> tuple[State, list[Event]]:
    k = next(i for i, g in enumerate(state.ties) if len(g) > 1)
    group = state.ties[k]
    p = int_arg(move, "seat")
    if p not in group:
        raise IllegalMove(f"the tie to break is between seats {', '.join(map(str, group))}; seat {p} is not in it", move)
    ties = state.ties[:k] + ((p,), tuple(q for q in group if q != p)) + state.ties[k + 1:]
    state = state._replace(ties=ties)
    events = [Event("tie_break", {"seat": p, "place": k + 1})]
    if all(len(g) == 1 for g in ties):
        order = tuple(g[0] for g in ties)
        state = _start_movement(state._replace(order=order, ties=()))
        events.append(Event("order", {"order": list(order)}))
    return state, events


# --- movement -------------------------------------------------------------------------------------

def _start_movement(state: State) -> State:
    return state._replace(phase=MOVEMENT, turn=0)


def movement_moves(state: State, p: int) -> list[Move]:
    seat = state.seats[p]
    board = state.board
    if seat.riding >= 0:
        moves = [Move("ride_on", p, {})]
        if seat.moved:
            moves += [Move("alight", p, {"field": f}) for f in alight_fields(state, p, ride_station(state, p))]
        return moves
    taken = occupied_fields(state, but=p)
    if seat.field < 0:
        return [Move("place", p, {"field": f}) for f in board.start_fields if f not in taken]
    steps = state.options.walk + (1 if seat.bicycle else 0)
    return [Move("walk", p, {"field": f}) for f in board.reachable(seat.field, steps, taken)]


def apply_movement(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_arg(state, move)
    current = state.order[state.turn]
    if p != current:
        raise IllegalMove(f"it is {seat_label(state, current)}'s turn to move, not {seat_label(state, p)}'s", move)
    seat = state.seats[p]
    board = state.board
    kind = move.kind
    if kind == "alight":
        return apply_alight(state, move)
    if kind == "ride_on":
        if seat.riding < 0:
            raise IllegalMove("ride_on is for a meeple in a train; yours is on the board", move)
        return _next_mover(state), [Event("rode_on", {"seat": p})]
    if seat.riding >= 0:
        raise IllegalMove(f"your meeple rides train {board.lines[seat.riding].letter}: get off first (alight) "
                          "or stay on (ride_on)", move)
    f = field_arg(state, move)
    taken = occupied_fields(state, but=p)
    if kind == "place":
        if seat.field >= 0:
            raise IllegalMove("your meeple is on the board already; walk instead", move)
        if f not in board.start_fields:
            raise IllegalMove(f"in round 1 the meeple is placed inside the marked start area; field "
                              f"{board.field_label(f)} is outside it", move)
        if f in taken:
            raise IllegalMove(f"field {board.field_label(f)} holds another meeple", move)
    elif kind == "walk":
        if seat.field < 0:
            raise IllegalMove("place your meeple first (round 1)", move)
        steps = state.options.walk + (1 if seat.bicycle else 0)
        if f not in board.reachable(seat.field, steps, taken):
            raise IllegalMove(f"field {board.field_label(f)} is not within {steps} orthogonal steps of your meeple "
                              "without crossing another meeple (movement rules)", move)
    else:
        raise IllegalMove(f"in the movement phase the moves are place, walk, ride_on and alight, not {kind}", move)
    state = state._replace(seats=set_seat(state, p, field=f))
    return _next_mover(state), [Event("moved" if kind == "walk" else "placed",
                                      {"seat": p, "field": list(board.col_row(f))})]


def _next_mover(state: State) -> State:
    if state.turn + 1 < len(state.order):
        return state._replace(turn=state.turn + 1)
    return state._replace(phase=ACTIONS, turn=0)


def apply_alight(state: State, move: Move) -> tuple[State, list[Event]]:
    """Getting off a train outside the train phase (a free move in one's own turn)."""
    p = seat_arg(state, move)
    seat = state.seats[p]
    if seat.riding < 0:
        raise IllegalMove("your meeple is not in a train", move)
    if not seat.moved:
        raise IllegalMove("you can get off only after the train has moved at least one stop since you boarded", move)
    f = field_arg(state, move)
    station = ride_station(state, p)
    if f not in alight_fields(state, p, station):
        raise IllegalMove(f"get off onto a free field touching {state.board.stations[station].name}; "
                          f"{state.board.field_label(f)} is not one", move)
    line = seat.riding
    state = state._replace(seats=set_seat(state, p, field=f, riding=-1, moved=False))
    return state, [Event("alighted", {"seat": p, "line": state.board.lines[line].letter,
                                      "station": state.board.stations[station].id,
                                      "field": list(state.board.col_row(f))})]
