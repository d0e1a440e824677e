"""GRAPE SODA (rule book 002): drinks on a grid of movable crates, taken by jumping over them.

The six crates stand as a 6x6 square; each player has the six drinks of one colour. On a turn a
player must move one crate (lifted and set down elsewhere, never turned, the crates kept one
group; the drinks in it travel along) and, before or after that, either place a drink from their
supply on an empty field that touches no drink of another colour (sideways or diagonally), or
move one of their drinks a field in any of the eight directions, or jump along a line over one or
more drinks of other colours (none of their own) onto the free field beyond, taking those drinks.
Whoever has taken the number of drinks the player count asks for wins at once. Our copy of the
book lacks that table: ``win_counts`` (docs/rules-notes.md). The grid is in grape_soda_grid.py.

>>> s = setup({"names": ["Ann", "Bo"]})
>>> s, _ = apply(s, Move("place", 0, {"drink": "purple-stubby_can", "x": 0, "y": 0}))
>>> s, _ = apply(s, Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}))
>>> s.turn, s.layout[5]
(1, (6, 0))
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import CARD_IDS, DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import Event, IllegalMove, Move, Pending
from ..options import GameOptions, Items, Players, Whole, WholeIn
from .common import arg_drink, arg_int, seat_names, set_at, sort_drinks, top, traits
from .grape_soda_grid import START, STEPS, Layout, fields, moved, normalised, size, targets
from .pura_crates import CRATES, SLOTS

NAME = "grape_soda"
TITLE = "GRAPE SODA"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 GRAPE SODA"
COLOURS = CARD_IDS[:6]
PLAY, OVER = "play", "over"


class Options(GameOptions):
    players: Players = 2
    # Drinks to take to win, for 2, 3, 4, 5 and 6 players: the book names a table our copy lacks.
    win_counts: Items(WholeIn(1, 30)) = (5, 4, 4, 3, 3)
    first_player: WholeIn(0, 5) = 0     # the book: whoever last drank GRAPE SODA
    # Seat colours in seat order; () = purple, red, blue, mint, white, black.
    colours: Items(WholeIn(0, 5)) = ()
    max_rounds: Whole = 60              # a bound so that every game ends (0: none); most taken wins then

    def to_win(self, n: int) -> int:
        counts = tuple(self.win_counts)
        return counts[min(n - 2, len(counts) - 1)] if counts else 5


DEFAULT_COLOURS = (5, 4, 3, 2, 1, 0)   # indexes into COLOURS: purple first (it is GRAPE SODA)


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str
    supply: tuple[str, ...]            # drinks not yet placed
    taken: tuple[str, ...] = ()        # drinks of other colours jumped over


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    layout: Layout = START
    slots: tuple[tuple[str | None, ...], ...] = ((None,) * SLOTS,) * CRATES
    phase: str = PLAY
    turn: int = 0
    round: int = 1
    crate_moved: bool = False
    drink_done: bool = False
    winners: tuple[int, ...] = ()
    end: str | None = None             # "taken" or "rounds"
    last: Mapping[str, Any] | None = None

    def at(self, x: int, y: int) -> str | None:
        c, s = fields(self.layout)[(x, y)]
        return self.slots[c][s]


def colour_of(drink_id: str) -> str:
    return traits(drink_id)[0]


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    n = len(names)
    if n not in PLAYERS:
        raise IllegalMove(f"GRAPE SODA is for 2 to 6 players, not {n}")
    picks = tuple(opts.colours) or DEFAULT_COLOURS[:n]
    if len(picks) != n or len(set(picks)) != n:
        raise IllegalMove(f"'colours' must name {n} different colours (0 to 5), one per seat, or none")
    if opts.first_player >= n:
        raise IllegalMove(f"'first_player' must be a seat from 0 to {n - 1}")
    seats = tuple(Seat(nm, COLOURS[c], tuple(d for d in DRINK_IDS if colour_of(d) == COLOURS[c]))
                  for nm, c in zip(names, picks))
    return State(opts, seats, turn=opts.first_player)


# --- what may be done -------------------------------------------------------------------------

def _acting(state: State) -> list[Pending]:
    return [Pending(state.turn)]


def _field(state: State, move: Move, xn: str, yn: str) -> tuple[int, int]:
    x, y = arg_int(move, xn), arg_int(move, yn)
    if (x, y) not in fields(state.layout):
        w, h = size(state.layout)
        raise IllegalMove(f"({x}, {y}) is not a field of the crates (the grid is {w} across, {h} down; "
                          "a gap between crates is no field)")
    return x, y


def _may_place_at(state: State, colour: str, x: int, y: int) -> bool:
    grid = fields(state.layout)
    if state.at(x, y) is not None:
        return False
    for dx, dy in STEPS:
        if (x + dx, y + dy) in grid:
            d = state.at(x + dx, y + dy)
            if d is not None and colour_of(d) != colour:
                return False
    return True


def _places(state: State, seat: int) -> list[Move]:
    me = state.seats[seat]
    if state.drink_done or not me.supply:
        return []
    first = sort_drinks(me.supply)[0]  # any drink of the supply may go; the buttons offer one
    return [Move("place", seat, {"drink": first, "x": x, "y": y})
            for (x, y) in sorted(fields(state.layout), key=lambda f: (f[1], f[0]))
            if _may_place_at(state, me.colour, x, y)]


def _path(state: State, colour: str, fx: int, fy: int, tx: int, ty: int) -> list[tuple[int, int]] | str:
    """The fields jumped over on the way from (fx, fy) to (tx, ty), or why the way is not allowed."""
    dx, dy = tx - fx, ty - fy
    n = max(abs(dx), abs(dy))
    if n == 0 or dx not in (0, n, -n) or dy not in (0, n, -n):
        return "a drink moves along a line: sideways, up, down or diagonally"
    grid = fields(state.layout)
    if state.at(tx, ty) is not None:
        return f"({tx}, {ty}) is taken: a drink lands on a free field"
    sx, sy = dx // n, dy // n
    over = [(fx + sx * k, fy + sy * k) for k in range(1, n)]
    for f in over:
        d = state.at(*f) if f in grid else None
        if d is None:
            return "a drink moves one field, or jumps over a line of drinks with no gap onto the field just beyond"
        if colour_of(d) == colour:
            return "a drink never jumps over a drink of its own colour"
    return over


def _steps(state: State, seat: int) -> list[Move]:
    if state.drink_done:
        return []
    colour, grid, found = state.seats[seat].colour, fields(state.layout), []
    for (fx, fy) in sorted(grid, key=lambda f: (f[1], f[0])):
        d = state.at(fx, fy)
        if d is None or colour_of(d) != colour:
            continue
        for sx, sy in STEPS:
            k = 1
            while (fx + sx * k, fy + sy * k) in grid:
                tx, ty = fx + sx * k, fy + sy * k
                if not isinstance(_path(state, colour, fx, fy, tx, ty), str):
                    found.append(Move("step", seat, {"fx": fx, "fy": fy, "tx": tx, "ty": ty}))
                if state.at(tx, ty) is None:
                    break
                k += 1
    return found


def _crate_moves(state: State, seat: int) -> list[Move]:
    if state.crate_moved:
        return []
    return [Move("move_crate", seat, {"crate": c, "x": x, "y": y})
            for c in range(CRATES) for x, y in targets(state.layout, c)]


# --- applying moves ---------------------------------------------------------------------------

def _place(state: State, move: Move) -> tuple[State, list[Event]]:
    p, me = move.player, state.seats[move.player]
    if state.drink_done:
        raise IllegalMove("you have placed or moved a drink this turn already: move a crate")
    d = arg_drink(move)
    if d not in me.supply:
        raise IllegalMove(f"{d} is not in your supply: place a drink of your colour not yet on the grid")
    x, y = _field(state, move, "x", "y")
    if state.at(x, y) is not None:
        raise IllegalMove(f"({x}, {y}) is taken: place the drink on an empty field")
    if not _may_place_at(state, me.colour, x, y):
        raise IllegalMove(f"({x}, {y}) touches a drink of another colour: a new drink keeps clear of them, "
                          "diagonals too")
    state = _put(state, x, y, d)
    state = replace(state, seats=set_at(state.seats, p, supply=tuple(e for e in me.supply if e != d)))
    return _after(replace(state, drink_done=True, last={"action": "place", "drink": d, "x": x, "y": y}),
                  [Event("placed", {"seat": p, "drink": d, "x": x, "y": y})])


def _put(state: State, x: int, y: int, d: str | None) -> State:
    c, s = fields(state.layout)[(x, y)]
    return replace(state, slots=tuple(tuple(d if (i, j) == (c, s) else v for j, v in enumerate(cr))
                                      for i, cr in enumerate(state.slots)))


def _step(state: State, move: Move) -> tuple[State, list[Event]]:
    p, me = move.player, state.seats[move.player]
    if state.drink_done:
        raise IllegalMove("you have placed or moved a drink this turn already: move a crate")
    fx, fy = _field(state, move, "fx", "fy")
    tx, ty = _field(state, move, "tx", "ty")
    d = state.at(fx, fy)
    if d is None or colour_of(d) != me.colour:
        raise IllegalMove(f"no drink of your colour stands on ({fx}, {fy})")
    over = _path(state, me.colour, fx, fy, tx, ty)
    if isinstance(over, str):
        raise IllegalMove(over)
    taken = [state.at(*f) for f in over]
    state = _put(_put(state, fx, fy, None), tx, ty, d)
    for f in over:
        state = _put(state, *f, None)
    state = replace(state, seats=set_at(state.seats, p, taken=me.taken + tuple(taken)), drink_done=True,
                    last={"action": "step", "drink": d, "fx": fx, "fy": fy, "tx": tx, "ty": ty, "taken": taken})
    events = [Event("stepped", {"seat": p, "drink": d, "fx": fx, "fy": fy, "tx": tx, "ty": ty})]
    if taken:
        events.append(Event("jumped", {"seat": p, "drinks": taken, "total": len(me.taken) + len(taken)}))
    if len(me.taken) + len(taken) >= state.options.to_win(len(state.seats)):
        return _finish(state, (p,), "taken", events)
    return _after(state, events)


def _move_crate(state: State, move: Move) -> tuple[State, list[Event]]:
    if state.crate_moved:
        raise IllegalMove("you have moved a crate this turn already: place or move a drink")
    c = arg_int(move, "crate")
    if not 0 <= c < CRATES:
        raise IllegalMove(f"'crate' must be a crate from 0 to {CRATES - 1}, not {c}")
    x, y = arg_int(move, "x"), arg_int(move, "y")
    if abs(x) > 20 or abs(y) > 20:
        raise IllegalMove(f"({x}, {y}) is too far off: set the crate down beside the others")
    if (x, y) not in targets(state.layout, c):
        raise IllegalMove(f"crate {c} cannot stand at ({x}, {y}): set it down elsewhere, touching another crate "
                          "along a side, overlapping none, so that all six stay one group")
    state = replace(state, layout=normalised(moved(state.layout, c, (x, y))), crate_moved=True,
                    last={"action": "move_crate", "crate": c, "x": x, "y": y})
    return _after(state, [Event("crate_moved", {"seat": move.player, "crate": c, "x": x, "y": y})])


def _after(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Ends the turn once the crate and the drink are done (a part no move can do is skipped)."""
    p = state.turn
    if not state.drink_done and not (_places(state, p) or _steps(state, p)):
        state = replace(state, drink_done=True)
        events = events + [Event("no_drink_move", {"seat": p})]
    if not (state.crate_moved and state.drink_done):
        return state, events
    n = len(state.seats)
    nxt = (p + 1) % n
    rnd = state.round + (nxt == state.options.first_player)
    if state.options.max_rounds and rnd > state.options.max_rounds:
        counts = [len(s.taken) for s in state.seats]
        return _finish(state, top(counts), "rounds", events)
    state = replace(state, turn=nxt, round=rnd, crate_moved=False, drink_done=False)
    return _after(state, events) if not (_places(state, nxt) or _steps(state, nxt)) else (state, events)


def _finish(state: State, winners: tuple[int, ...], why: str, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, phase=OVER, winners=tuple(winners), end=why)
    return state, events + [Event("game_over", {"winners": list(winners), "why": why})]


# --- views ------------------------------------------------------------------------------------

def grid_rows(state: State) -> list[list[str | None]]:
    """The grid row by row: a drink id, "" for an empty field, None for no field (a gap)."""
    w, h = size(state.layout)
    grid = fields(state.layout)
    return [[(state.at(x, y) or "") if (x, y) in grid else None for x in range(w)] for y in range(h)]


def view(state: State, viewer: int | None) -> dict:
    need = state.options.to_win(len(state.seats))
    turn = state.turn if state.phase == PLAY else None
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "max_rounds": state.options.max_rounds,
        "players": [{"seat": p, "name": s.name, "colour": s.colour, "supply": list(s.supply),
                     "taken": list(s.taken), "turn": p == turn}
                    for p, s in enumerate(state.seats)],
        "turn": turn, "to_win": need,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in GAME.pending(state)],
        "crate_grid": grid_rows(state), "crate_places": [list(p) for p in state.layout],
        "crate_slots": [list(c) for c in state.slots],
        "crate_moved": state.crate_moved, "drink_done": state.drink_done,
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "end": state.end, "over": state.phase == OVER,
    }


def crates_on_table(state: State) -> tuple[tuple[tuple[int, int, int], ...], dict[tuple[int, int], str]]:
    """The crates as they stand (never turned) and the drinks in their fields: the crate camera's
    side of the game (table/crate_watch.py)."""
    return (tuple((x, y, 0) for x, y in state.layout),
            {f: d for f, (c, s) in fields(state.layout).items() if (d := state.slots[c][s]) is not None})


def payouts(state: State) -> dict:
    return {"yen": [0] * len(state.seats), "projected": [len(s.taken) for s in state.seats],
            "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

def _waiting(state: State) -> str:
    name = state.seats[state.turn].name
    if not state.crate_moved and not state.drink_done:
        return f"{name} to move a crate and to place or move a drink"
    if not state.crate_moved:
        return f"{name} to move a crate"
    return f"{name} to place or move a drink"


GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(PLAY, _waiting, acting=_acting,
              ends="when a player has taken the drinks needed to win, or after the last round"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("move_crate", _move_crate, f"{RULE}: EINE KISTE BEWEGEN", phases=(PLAY,), listed=_crate_moves),
        Kind("place", _place, f"{RULE}: STELLEN ODER BEWEGEN", phases=(PLAY,), listed=_places),
        Kind("step", _step, f"{RULE}: STELLEN ODER BEWEGEN", phases=(PLAY,), listed=_steps),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: tuple(s.name for s in state.seats),
    # No estimates: the game pays no yen, and an estimate of final yen would say nothing.
    board_events=frozenset({"placed", "stepped", "crate_moved"}),
    crates=crates_on_table,
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
