"""The bottle-taking square with neutral colours (rule book 002; no title in our copy).

All 36 drinks stand in a 6x6 square, drawn at random; an empty crate marks its bottom edge. Each
player owns colours (two players three each, three players two each, four to six one each; the
colours nobody owns are neutral). In turn a player picks three drinks next to each other in a row
or a column, two of them in the colour of another player (never a neutral colour in the majority),
and gives any two of the three to that player. The drinks left slide towards the crate, then to
the left, until the square has no gaps. When nobody can take any more, each player scores their
drinks: +1 for each bottle or stubby can of their own colours; a short can -1 and a tall can -2,
made up by the bottles and stubby cans of other colours. The most points win. No money changes
hands. The grid, the slide and the score are in bottle_square_grid.py.

>>> s = setup({"names": ["A", "B"], "layout": list(DRINK_IDS)})
>>> s.phase, s.colours
('play', (('black', 'mint', 'red'), ('white', 'blue', 'purple')))
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

from ...drinks import DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, Pending, uniform
from ..options import Flag, GameOptions, Items, WholeIn
from .bottle_square_grid import (COLOUR_IDS, SIZE, Grid, empty, in_a_line, lines, majority, points, slid,
                                 where)
from .common import arg_drinks, clockwise, seat_names, sort_drinks, top

NAME = "bottle_square"
TITLE = "The bottle-taking square"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 The bottle-taking square"

FILL, PLAY, OVER = "fill", "play", "over"
GIVEN = 2  # drinks given away of the three taken


class Options(GameOptions):
    players: WholeIn(2, 6) = 2
    # The colours of each seat; () = dealt in turn from black, white, mint, blue, red, purple
    # (the book lets the players choose, as many each as the number of players says).
    colours: Items(Items(str)) = ()
    first_player: WholeIn(0, 5) = 0       # the book does not say who starts
    majority_by: Literal["colour", "player"] = "colour"  # two of one colour, or two of one player's colours
    take_own: Flag = False                # may a player take three where their own colour has the majority
    slide: Literal["rows", "columns"] = "rows"  # after the push to the crate: rows to the left, or empty columns closed


def colours_each(players: int) -> int:
    """How many colours each player owns (rule book: VORBEREITUNG)."""
    return {2: 3, 3: 2}.get(players, 1)


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    colours: tuple[tuple[str, ...], ...]      # per seat
    grid: Grid = empty()
    phase: str = FILL
    turn: int = 0
    taken: tuple[tuple[str, ...], ...] = ()   # per seat: the drinks given to them
    turns: int = 0
    passed: tuple[int, ...] = ()              # seats skipped since the last take (no line to take)
    winners: tuple[int, ...] = ()
    last: Mapping[str, Any] | None = None

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def owner(self) -> dict[str, int]:
        return {c: p for p, cs in enumerate(self.colours) for c in cs}


def _colours(opts: Options) -> tuple[tuple[str, ...], ...]:
    n, k = opts.players, colours_each(opts.players)
    if not opts.colours:
        return tuple(tuple(COLOUR_IDS[p + i * n] for i in range(k)) for p in range(n))
    given = tuple(tuple(cs) for cs in opts.colours)
    flat = [c for cs in given for c in cs]
    if len(given) != n or any(len(cs) != k for cs in given) or len(set(flat)) != len(flat) \
            or not set(flat) <= set(COLOUR_IDS):
        raise IllegalMove(f"option colours must give each of the {n} players {k} different colours "
                          f"({', '.join(COLOUR_IDS)}), no colour twice")
    return given


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    if opts.first_player >= opts.players:
        raise IllegalMove(f"option first_player must be a seat from 0 to {opts.players - 1}")
    state = State(opts, names, _colours(opts), turn=opts.first_player, taken=((),) * opts.players)
    layout = config.get("layout")
    if layout is not None:
        if not isinstance(layout, (list, tuple)) or sorted(map(str, layout)) != sorted(DRINK_IDS):
            raise IllegalMove("'layout' must list all 36 drink ids, row by row from the far edge, left to right")
        grid = tuple(tuple(layout[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
        state, _ = _begin(replace(state, grid=grid), [])
    return state


# --- what may be taken ----------------------------------------------------------------------

def takes(state: State, seat: int) -> list[Move]:
    """Every take open to ``seat``: a line of three, and which two of it to give."""
    moves = []
    owner, o = state.owner, state.options
    for cells in lines(state.grid):
        drinks = [state.grid[r][c] for r, c in cells]
        to, _ = majority(drinks, owner, o.majority_by)
        if to is None or (to == seat and not o.take_own):
            continue
        for keep in drinks:
            moves.append(Move("take", seat, {"line": drinks, "give": [d for d in drinks if d != keep]}))
    return moves


def can_take(state: State, seat: int) -> bool:
    return bool(takes(state, seat))


def _acting(state: State) -> list[Pending]:
    return [Pending(state.turn)]


def _waiting(state: State) -> str:
    return f"{state.names[state.turn]} to take three in a line"


def _drinks_left(state: State) -> ChanceSpec:
    placed = set(where(state.grid))
    return uniform(Move("place", CHANCE, {"drink": d}) for d in DRINK_IDS if d not in placed)


# --- applying moves ---------------------------------------------------------------------------

def _place(state: State, move: Move) -> tuple[State, list[Event]]:
    d = move.args.get("drink")
    placed = where(state.grid)
    if d not in DRINK_IDS or d in placed:
        raise IllegalMove(f"{d!r} is not a drink still to be placed in the square")
    r, c = divmod(len(placed), SIZE)
    grid = tuple(tuple(d if (i, j) == (r, c) else x for j, x in enumerate(row)) for i, row in enumerate(state.grid))
    events = [Event("placed", {"drink": d, "row": r, "col": c})]
    state = replace(state, grid=grid)
    if len(placed) + 1 == SIZE * SIZE:
        return _begin(state, events)
    return state, events


def _begin(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Play begins with the first player who can take (or the game is over at once)."""
    return _next_turn(replace(state, phase=PLAY), state.turn, events)


def _next_turn(state: State, first: int, events: list[Event]) -> tuple[State, list[Event]]:
    """The turn goes to the first seat from ``first`` on (clockwise) who can take; a seat that
    cannot is passed over; when nobody can, the game ends."""
    passed = []
    for p in clockwise(first, state.n):
        if can_take(state, p):
            if passed:
                events = events + [Event("passed", {"seats": passed})]
            return replace(state, turn=p, passed=tuple(passed)), events
        passed.append(p)
    return _finish(state, events)


def _take(state: State, move: Move) -> tuple[State, list[Event]]:
    o = state.options
    line = arg_drinks(move, "line")
    give = arg_drinks(move, "give")
    cells = where(state.grid)
    missing = [d for d in line if d not in cells]
    if len(line) != 3 or missing:
        raise IllegalMove("'line' must name three drinks standing in the square"
                          + (f"; not in it: {', '.join(missing)}" if missing else ""))
    if not in_a_line([cells[d] for d in line]):
        raise IllegalMove("the three drinks must stand next to each other in one row or one column")
    if len(give) != GIVEN or not set(give) <= set(line):
        raise IllegalMove("'give' must name two of the three drinks in 'line'")
    to, why = majority(line, state.owner, o.majority_by)
    if to is None:
        raise IllegalMove("a neutral colour has the majority of those three: pick three where a player's colour has it"
                          if why == "neutral" else "no player's colour has two of those three: pick three where one has")
    if to == move.player and not o.take_own:
        raise IllegalMove("your own colour has the majority of those three: pick three where another player's has it")
    grid = tuple(tuple(None if d in give else d for d in row) for row in state.grid)
    grid = slid(grid, o.slide)
    taken = tuple(tuple(sort_drinks(t + tuple(give))) if p == to else t for p, t in enumerate(state.taken))
    kept = next(d for d in line if d not in give)
    state = replace(state, grid=grid, taken=taken, turns=state.turns + 1,
                    last={"seat": move.player, "to_seat": to, "line": list(line), "given": list(give), "kept": kept})
    events = [Event("given", {"seat": move.player, "to_seat": to, "drinks": list(give), "kept": kept}),
              Event("slid", {"left": len(where(grid))})]
    return _next_turn(state, (move.player + 1) % state.n, events)


def scores(state: State) -> list[int]:
    return [points(t, set(cs)) for t, cs in zip(state.taken, state.colours)]


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    winners = top(scores(state))
    state = replace(state, phase=OVER, winners=winners, passed=())
    return state, events + [Event("game_over", {"winners": list(winners), "points": scores(state)})]


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    playing = state.phase == PLAY
    pts = scores(state)
    players = [{"seat": p, "name": state.names[p], "colours": list(state.colours[p]), "taken": list(state.taken[p]),
                "points": pts[p], "turn": playing and state.turn == p} for p in range(state.n)]
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": state.turn if playing else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in GAME.pending(state)],
        "square": [list(row) for row in state.grid], "left": len(where(state.grid)),
        "neutral": [c for c in COLOUR_IDS if c not in state.owner],
        "turns": state.turns, "passed": list(state.passed),
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "final": {"points": pts} if state.phase == OVER else None,
    }


def payouts(state: State) -> dict:
    return {"yen": [0] * state.n, "projected": scores(state), "points": scores(state),
            "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(FILL, "the next drink drawn for the square (row by row from the far edge, left to right)",
              outcomes=_drinks_left, ends="when all 36 drinks stand in the square (or the table gave the layout)"),
        Phase(PLAY, _waiting, acting=_acting, ends="when no player can take three any more"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("place", _place, f"{RULE}: VORBEREITUNG", phases=(FILL,), chance=True),
        Kind("take", _take, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=takes),
    ),
    # no estimates: no yen change hands, and the points are not what a playout estimates
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names,
    # what a person copies onto the real table: a drink stood in the square, two handed over, the slide
    board_events=frozenset({"placed", "given", "slid"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
