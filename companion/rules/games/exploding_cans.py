"""The exploding-cans game (rule book 002, the game after YUZU; untitled in our copy, so its
id here is ``exploding_cans``): drinks on the 6x6 grid of the six crates.

Each player takes the six drinks of one colour as their supply. The six shape cards lie in
height order with coins above (a drink in the grid scores them) or below (a drink still in the
supply scores them): the stubby can 4 above, the short can 1 below, the tall can 2 below, the
square bottle 3 above, the not-tallest bottle 2 above, the tallest bottle 1 above. In turn each
player places a drink of their supply on an empty square, or moves one of their drinks in the
grid along a row or column to an empty square (jumping only over drinks lower than itself), or
sets off their own short or tall can: every drink around it (the eight squares) leaves the game,
and a can among them goes off as well before it leaves, so explosions can chain. The game ends
when a player places their last drink; then each player scores their supply and their drinks in
the grid by the coins.

The grid is row by row (square ``row * 6 + col``); the six crates (2x3 slots each, as in PURA)
stand two rows of three: ``crate_of`` maps a square to its crate and slot.

>>> s = setup({"names": ["A", "B"]})
>>> s, events = apply(s, Move("place", 0, {"drink": "black-stubby_can", "row": 0, "col": 0}))
>>> s.grid[0], s.turn, scores(s)
('black-stubby_can', 1, (1, -7))
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

from ...drinks import COLOURS, SHAPES
from ..declared import Declared, Kind, Phase
from ..engine import Event, IllegalMove, Move, Pending
from ..options import GameOptions, Items, WholeIn, Whole
from .common import arg_drink, arg_int, seat_names, sort_drinks, top, traits
from .pura_crates import CRATES, SLOTS

NAME = "exploding_cans"
TITLE = "Exploding cans"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 exploding cans"

PLAY, OVER = "play", "over"
SIDE = 6                                   # the grid is SIDE x SIDE squares
SQUARES = SIDE * SIDE
SHAPE_IDS = tuple(s.value for s in SHAPES)  # lowest to tallest: the height order of the jumps
HEIGHT = {s: i for i, s in enumerate(SHAPE_IDS)}
EXPLODING = ("short_can", "tall_can")      # the cans a player may set off
CANS = ("stubby_can", "short_can", "tall_can")
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


class Options(GameOptions):
    players: WholeIn(2, 6) = 2
    colours: Items(str) = ()            # each seat's colour; () = black, white, mint, ... in seat order
    # Coins at each shape card, lowest to tallest: positive above the card (a drink in the grid
    # scores them, one in the supply loses them), negative below (the other way round).
    coins: Items(WholeIn(-100, 100)) = (4, -1, -2, 3, 2, 1)
    # Which destroyed cans go off in a chain (the book says "a can"): every can, the stubby one
    # too, or only the two a player may set off themselves.
    chain: Literal["any_can", "short_and_tall"] = "any_can"
    first_seat: Whole = 0               # who plays first (the book does not say)
    max_turns: Whole = 200              # a bound so that a game always ends (0: none)


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    colours: tuple[str, ...]
    supply: tuple[tuple[str, ...], ...]    # per seat, the drinks not placed yet
    grid: tuple[str | None, ...] = (None,) * SQUARES
    out: tuple[str, ...] = ()              # drinks blown out of the game
    turn: int = 0
    turns: int = 0
    phase: str = PLAY
    last: Mapping[str, Any] | None = None
    end: str | None = None

    def seat_of(self, drink_id: str) -> int:
        return self.colours.index(traits(drink_id)[0])


def crate_of(square: int) -> tuple[int, int]:
    """The crate (0-5: two rows of three) and its slot (0-5: three rows of two) holding ``square``.

    >>> crate_of(0), crate_of(7), crate_of(35)
    ((0, 0), (0, 3), (5, 5))
    """
    r, c = divmod(square, SIDE)
    return (r // 3) * 3 + c // 2, (r % 3) * 2 + c % 2


# The six crates stand two rows of three, never moved: crate k's top-left field (x = column, y = row).
CRATE_PLACES = tuple((2 * (k % 3), 3 * (k // 3), 0) for k in range(CRATES))


def crates_on_table(state: "State") -> tuple[tuple[tuple[int, int, int], ...], dict[tuple[int, int], str]]:
    """The crates and the drinks in their fields (x = column, y = row): the crate camera's side of
    the game (table/crate_watch.py)."""
    return CRATE_PLACES, {(sq % SIDE, sq // SIDE): d for sq, d in enumerate(state.grid) if d is not None}


def crates(grid: tuple[str | None, ...]) -> tuple[tuple[str | None, ...], ...]:
    """The grid as the six crates, slot by slot."""
    found = [[None] * SLOTS for _ in range(CRATES)]
    for sq, d in enumerate(grid):
        k, s = crate_of(sq)
        found[k][s] = d
    return tuple(tuple(c) for c in found)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    colours = tuple(opts.colours) or tuple(c.value for c in COLOURS[:opts.players])
    if len(colours) != opts.players or len(set(colours)) != len(colours) or \
            not set(colours) <= {c.value for c in COLOURS}:
        raise IllegalMove(f"option colours must name {opts.players} different colours, one per player")
    if len(opts.coins) != len(SHAPE_IDS):
        raise IllegalMove(f"option coins must give {len(SHAPE_IDS)} numbers, one per shape card, lowest first")
    if opts.first_seat >= opts.players:
        raise IllegalMove(f"option first_seat must be a seat from 0 to {opts.players - 1}")
    supply = tuple(tuple(f"{c}-{s}" for s in SHAPE_IDS) for c in colours)
    return State(opts, names, colours, supply, turn=opts.first_seat)


# --- scoring ----------------------------------------------------------------------------------

def worth(state: State, drink_id: str, in_grid: bool) -> int:
    """What a drink scores: the coins above its card count for it in the grid, those below in the supply."""
    coins = state.options.coins[HEIGHT[traits(drink_id)[1]]]
    return coins if in_grid else -coins


def scores(state: State) -> tuple[int, ...]:
    """Each seat's points now: its supply and its drinks standing in the grid."""
    points = [sum(worth(state, d, False) for d in supply) for supply in state.supply]
    for p, drinks in enumerate(in_grid(state)):
        points[p] += sum(worth(state, d, True) for d in drinks)
    return tuple(points)


def in_grid(state: State) -> tuple[list[str], ...]:
    """Each seat's drinks standing in the grid, square by square."""
    seat = {c: p for p, c in enumerate(state.colours)}
    found: tuple[list[str], ...] = tuple([] for _ in state.names)
    for d in state.grid:
        if d:
            found[seat[traits(d)[0]]].append(d)
    return found


def winners(state: State) -> tuple[int, ...]:
    return top(scores(state)) if state.phase == OVER else ()


# --- the grid ---------------------------------------------------------------------------------

def _square(move: Move, row: str, col: str) -> int:
    r, c = arg_int(move, row), arg_int(move, col)
    if not (0 <= r < SIDE and 0 <= c < SIDE):
        raise IllegalMove(f"{row!r} and {col!r} must be 0 to {SIDE - 1}, not {r}, {c}")
    return r * SIDE + c


def _rc(square: int) -> dict[str, int]:
    r, c = divmod(square, SIDE)
    return {"row": r, "col": c}


def path_clear(grid: tuple[str | None, ...], frm: int, to: int) -> bool:
    """Whether the drink at ``frm`` may move straight to the empty square ``to``: along a row or
    column, over nothing but drinks lower than itself."""
    if grid[to] is not None or frm == to:
        return False
    (r1, c1), (r2, c2) = divmod(frm, SIDE), divmod(to, SIDE)
    if r1 != r2 and c1 != c2:
        return False
    height = HEIGHT[traits(grid[frm])[1]]
    dr, dc = (r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1)
    r, c = r1 + dr, c1 + dc
    while (r, c) != (r2, c2):
        d = grid[r * SIDE + c]
        if d is not None and HEIGHT[traits(d)[1]] >= height:
            return False
        r, c = r + dr, c + dc
    return True


def destinations(grid: tuple[str | None, ...], frm: int) -> list[int]:
    """The squares the drink at ``frm`` may move to."""
    found = []
    r0, c0 = divmod(frm, SIDE)
    for dr, dc in STEPS:
        r, c = r0 + dr, c0 + dc
        while 0 <= r < SIDE and 0 <= c < SIDE:
            if path_clear(grid, frm, r * SIDE + c):
                found.append(r * SIDE + c)
            r, c = r + dr, c + dc
    return sorted(found)


def blast(grid: tuple[str | None, ...], square: int, chain: tuple[str, ...] = CANS) -> tuple[list[int], list[int]]:
    """Set off the can at ``square``: the cans that went off (in order, the first one first) and
    the squares emptied (every one of them). A destroyed can whose shape is in ``chain`` goes off too.

    >>> g = [None] * 36
    >>> g[0], g[7], g[14], g[21] = "black-short_can", "white-tall_can", "mint-stubby_can", "blue-tallest_bottle"
    >>> blast(tuple(g), 0)
    ([0, 7, 14], [0, 7, 14, 21])
    """
    went_off, emptied, queue = [], {square}, [square]
    while queue:
        sq = queue.pop(0)
        went_off.append(sq)
        r0, c0 = divmod(sq, SIDE)
        for dr, dc in AROUND:
            r, c = r0 + dr, c0 + dc
            n = r * SIDE + c
            if not (0 <= r < SIDE and 0 <= c < SIDE) or grid[n] is None or n in emptied:
                continue
            emptied.add(n)
            if traits(grid[n])[1] in chain:
                queue.append(n)
    return went_off, sorted(emptied)


# --- who acts, and what they may do ---------------------------------------------------------

def _player(state: State) -> list[Pending]:
    return [Pending(state.turn)]


def _waiting(state: State) -> str:
    return f"{state.names[state.turn]} to place, move or set off a drink"


def _own_squares(state: State, seat: int) -> list[int]:
    colour = state.colours[seat]
    return [sq for sq, d in enumerate(state.grid) if d and traits(d)[0] == colour]


def _places(state: State, seat: int) -> list[Move]:
    empty = [sq for sq, d in enumerate(state.grid) if d is None]
    return [Move("place", seat, {"drink": d, **_rc(sq)}) for d in state.supply[seat] for sq in empty]


def _moves(state: State, seat: int) -> list[Move]:
    return [Move("move", seat, {**_rc(sq), "to_row": to // SIDE, "to_col": to % SIDE})
            for sq in _own_squares(state, seat) for to in destinations(state.grid, sq)]


def _explosions(state: State, seat: int) -> list[Move]:
    return [Move("explode", seat, _rc(sq)) for sq in _own_squares(state, seat)
            if traits(state.grid[sq])[1] in EXPLODING]


# --- applying moves ---------------------------------------------------------------------------

def _place(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    d = arg_drink(move)
    if d not in state.supply[p]:
        raise IllegalMove(f"{d} is not in your supply: place one of {', '.join(state.supply[p])}")
    sq = _square(move, "row", "col")
    if state.grid[sq] is not None:
        raise IllegalMove(f"that square holds {state.grid[sq]} already: place on an empty square")
    grid = tuple(d if i == sq else x for i, x in enumerate(state.grid))
    supply = tuple(tuple(x for x in s if x != d) if i == p else s for i, s in enumerate(state.supply))
    state = replace(state, grid=grid, supply=supply, last={"action": "place", "seat": p, "drink": d, **_rc(sq)})
    events = [Event("placed_in_grid", {"seat": p, "drink": d, **_rc(sq)})]
    if not supply[p]:
        return _finish(state, "last_placed", events)
    return _next(state, events)


def _move(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    frm, to = _square(move, "row", "col"), _square(move, "to_row", "to_col")
    d = state.grid[frm]
    if d is None or state.seat_of(d) != p:
        raise IllegalMove("move one of your own drinks: that square does not hold one")
    if not path_clear(state.grid, frm, to):
        raise IllegalMove(f"{d} cannot go there: along its row or column to an empty square, over drinks "
                          "lower than itself only")
    grid = tuple(d if i == to else None if i == frm else x for i, x in enumerate(state.grid))
    args = {**_rc(frm), "to_row": to // SIDE, "to_col": to % SIDE}
    state = replace(state, grid=grid, last={"action": "move", "seat": p, "drink": d, **args})
    return _next(state, [Event("moved_in_grid", {"seat": p, "drink": d, **args})])


def _explode(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    sq = _square(move, "row", "col")
    d = state.grid[sq]
    if d is None or state.seat_of(d) != p or traits(d)[1] not in EXPLODING:
        raise IllegalMove("set off one of your own short or tall cans: that square does not hold one")
    chain = CANS if state.options.chain == "any_can" else EXPLODING
    went_off, emptied = blast(state.grid, sq, chain)
    gone = sort_drinks(state.grid[i] for i in emptied)
    grid = tuple(None if i in emptied else x for i, x in enumerate(state.grid))
    exploded = [state.grid[i] for i in went_off]
    state = replace(state, grid=grid, out=tuple(sort_drinks(state.out + tuple(gone))),
                    last={"action": "explode", "seat": p, "exploded": exploded, "removed": gone})
    return _next(state, [Event("exploded", {"seat": p, "exploded": exploded, "removed": gone})])


def _next(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, turns=state.turns + 1, turn=(state.turn + 1) % len(state.names))
    if state.options.max_turns and state.turns >= state.options.max_turns:
        return _finish(state, "turn_limit", events)
    return state, events


def _finish(state: State, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    if why == "last_placed":
        state = replace(state, turns=state.turns + 1)
    state = replace(state, phase=OVER, end=why)
    return state, events + [Event("game_over", {"winners": list(winners(state)), "scores": list(scores(state)),
                                                "why": why})]


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    points, standing = scores(state), in_grid(state)
    over = state.phase == OVER
    players = [{"seat": p, "name": n, "colour": state.colours[p], "supply": list(state.supply[p]),
                "in_grid": sort_drinks(standing[p]),
                "points": points[p], "turn": not over and state.turn == p} for p, n in enumerate(state.names)]
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": None if over else state.turn, "turns": state.turns, "max_turns": state.options.max_turns,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in GAME.pending(state)],
        "squares": [list(state.grid[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE)],
        "crates": [list(c) for c in crates(state.grid)],
        "shape_coins": dict(zip(SHAPE_IDS, state.options.coins)), "removed": list(state.out),
        "last": dict(state.last) if state.last else None,
        "winners": list(winners(state)), "end": state.end,
        "final": {"why": state.end, "points": list(points)} if over else None, "over": over,
    }


def payouts(state: State) -> dict:
    return {"yen": [0] * len(state.names), "projected": list(scores(state)), "points": list(scores(state)),
            "final": state.phase == OVER, "winners": list(winners(state))}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(PLAY, _waiting, acting=_player,
              ends="when a player places their last drink, or after the last turn"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("place", _place, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_places),
        Kind("move", _move, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_moves),
        Kind("explode", _explode, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_explosions),
    ),
    # No redraw: the estimates forecast final yen, and this game pays none (its points are `projected`).
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names,
    # what a person copies onto the real table: drinks into the grid, moved, blown out of it
    board_events=frozenset({"placed_in_grid", "moved_in_grid", "exploded"}),
    crates=crates_on_table,
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
