"""YUZU (rule book 002): crates moved and turned, drinks swapped, until a crate holds your colour.

The 36 drinks start sorted by shape, one crate per shape, the six crates in a 6x6 square. Each
player owns colours (two players three each, three players two, four to six players one each,
playing as two teams). A turn: move one crate (turned as you like) under the connectivity rules
(yuzu_crates.py), then swap two pairs of drinks that stand next to each other across a side or a
corner, within a crate or across two. As soon as a crate holds ``win_count`` drinks of one
player's colour, that player (and their team) wins. Blind variant: the colours are drawn face
down (a chance outcome each player enters on their own phone). Solo: sort every crate to one
colour; the score is the turns it took.

>>> s = setup({"names": ["Aki", "Ben"]})
>>> s.phase, s.colours
('move', (('black', 'white', 'mint'), ('blue', 'red', 'purple')))
>>> s, _ = apply(s, Move("move_crate", 0, {"crate": 5, "x": 4, "y": 3, "quarters": 2}))
>>> s.places[5], s.phase
((4, 3, 2), 'swap')
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

from ...drinks import COLOURS, DRINK_IDS, SHAPES
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from ..options import Flag, GameOptions, Items, Players, WholeIn
from .common import arg_int, seat_names, traits
from .pura_crates import CRATES, SLOTS, Crates, swapped
from .tower_turns import to_act
from .yuzu_crates import LENGTH, START, Place, cells, grid, movable, neighbours, normalised, placements, why_not

NAME = "yuzu"
TITLE = "YUZU"
PLAYERS = (1, 2, 3, 4, 5, 6)
RULE = "002 YUZU"

DEAL, MOVE, SWAP, OVER = "deal", "move", "swap", "over"
COLOUR_IDS = tuple(c.value for c in COLOURS)


class Options(GameOptions):
    players: Players = 2
    # The book's aim says six of your colour in a crate, its end says five: the end's number by default.
    win_count: WholeIn(2, 6) = 5
    swaps: WholeIn(0, 4) = 2                # swaps after the crate move, each turn
    touching: Literal["flush", "along"] = "flush"  # how a crate's side must lie against another's (rules-notes)
    blind: Flag = False                     # the blind variant: colours drawn face down
    colours: Items(Items(str)) = ()         # each seat's colours; () = in catalogue order (black, white, ...)
    teams: Items(Items(int)) = ()           # 4-6 players: seats per team; () = every other seat
    max_turns: WholeIn(1, 1000) = 200       # a bound so that a game always ends
    # At the turn limit: "most" -- the colour with the most drinks in one crate wins (ties share);
    # "none" -- nobody wins (solo: lost).
    at_limit: Literal["most", "none"] = "most"


def colours_each(n: int) -> int:
    """How many colours a seat plays: two players three, three players two, more players one."""
    return {1: 0, 2: 3, 3: 2}.get(n, 1)


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    crates: Crates                           # per crate, its drinks in slot order
    places: tuple[Place, ...] = START        # per crate, where it stands (yuzu_crates.py)
    colours: tuple[tuple[str, ...], ...] = ()  # per seat (hidden in the blind variant)
    teams: tuple[tuple[int, ...], ...] = ()
    phase: str = MOVE
    turn: int = 0                            # whose turn
    turns: int = 0                           # turns finished
    swaps_left: int = 0
    winners: tuple[int, ...] = ()
    result: str | None = None                # "won", "lost" (solo), "limit"
    last: Mapping[str, Any] | None = None

    @property
    def n(self) -> int:
        return len(self.names)


def start_crates() -> Crates:
    """One crate per shape, the drinks in colour order in slots 0 to 5."""
    return tuple(tuple(f"{c}-{s.value}" for c in COLOUR_IDS) for s in SHAPES)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    n = opts.players
    names = seat_names(config, n)
    crates = start_crates()
    layout = config.get("layout")
    if layout is not None:
        if not isinstance(layout, (list, tuple)) or sorted(map(str, layout)) != sorted(DRINK_IDS):
            raise IllegalMove("'layout' must list all 36 drink ids, crate by crate, slot by slot")
        crates = tuple(tuple(layout[c * SLOTS:(c + 1) * SLOTS]) for c in range(CRATES))
    state = State(opts, names, crates, teams=_teams(opts, n))
    if n == 1:
        return replace(state, colours=((),))
    if opts.blind:
        if opts.colours:
            raise IllegalMove("the blind variant draws the colours: leave option colours empty")
        return replace(state, phase=DEAL, colours=((),) * n)
    return replace(state, colours=_chosen(opts, n))


def _chosen(opts: Options, n: int) -> tuple[tuple[str, ...], ...]:
    k = colours_each(n)
    chosen = tuple(tuple(c) for c in opts.colours) or tuple(COLOUR_IDS[i * k:(i + 1) * k] for i in range(n))
    flat = [c for cs in chosen for c in cs]
    if len(chosen) != n or any(len(cs) != k for cs in chosen) or len(set(flat)) != len(flat) \
            or not set(flat) <= set(COLOUR_IDS):
        raise IllegalMove(f"option colours must give each of the {n} players {k} different colours")
    return chosen


def _teams(opts: Options, n: int) -> tuple[tuple[int, ...], ...]:
    if n < 4:
        if opts.teams:
            raise IllegalMove("teams are played with four to six players; leave option teams empty")
        return tuple((p,) for p in range(n))
    teams = tuple(tuple(t) for t in opts.teams) or ((tuple(range(0, n, 2))), tuple(range(1, n, 2)))
    if sorted(s for t in teams for s in t) != list(range(n)) or len(teams) != 2 or \
            any(not 2 <= len(t) <= 3 for t in teams):
        raise IllegalMove(f"option teams must make two teams of two or three, each seat 0 to {n - 1} once")
    return teams


# --- who acts, and what they may do ---------------------------------------------------------

def _mover(state: State) -> list[Pending]:
    return [Pending(state.turn)]


def _dealt_to(state: State) -> int:
    """The seat the next colour drawn face down is for (round the table until all have theirs)."""
    return min(range(state.n), key=lambda p: (len(state.colours[p]), p)) if state.n else 0


def _drawer(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=_dealt_to(state))]


def _colours_left(state: State) -> ChanceSpec:
    taken = {c for cs in state.colours for c in cs}
    return uniform(Move("draw", CHANCE, {"colour": c}) for c in COLOUR_IDS if c not in taken)


def _crate_moves(state: State, seat: int) -> list[Move]:
    return [Move("move_crate", seat, {"crate": c, "x": x, "y": y, "quarters": t})
            for k in range(CRATES) for c, x, y, t in placements(state.places, k, state.options.touching)]


def _swap_moves(state: State, seat: int) -> list[Move]:
    at = grid(state.places, state.crates)
    found = []
    for (x, y), (a, sa) in sorted(at.items()):
        for other in ((x + 1, y - 1), (x + 1, y), (x + 1, y + 1), (x, y + 1)):  # each pair once
            if other in at:
                b, sb = at[other]
                found.append(Move("swap", seat, {"a": a, "a_slot": sa, "b": b, "b_slot": sb}))
    return found


# --- applying moves ---------------------------------------------------------------------------

def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    c = move.args.get("colour")
    taken = {x for cs in state.colours for x in cs}
    if c not in COLOUR_IDS or c in taken:
        raise IllegalMove(f"{c!r} is not a colour still to be drawn")
    p = _dealt_to(state)
    colours = tuple(cs + (c,) if k == p else cs for k, cs in enumerate(state.colours))
    state = replace(state, colours=colours)
    if all(len(cs) == colours_each(state.n) for cs in colours):
        state = replace(state, phase=MOVE)
    return state, [Event("drawn", {"seat": p})]


def _bounded(move: Move, name: str, least: int, most: int) -> int:
    v = arg_int(move, name)
    if not least <= v <= most:
        raise IllegalMove(f"{name!r} must be {least} to {most}, not {v}")
    return v


def _move_crate(state: State, move: Move) -> tuple[State, list[Event]]:
    k = _bounded(move, "crate", 0, CRATES - 1)
    x, y = _bounded(move, "x", -LENGTH, CRATES * LENGTH), _bounded(move, "y", -LENGTH, CRATES * LENGTH)
    t = _bounded(move, "quarters", 0, 3)
    refused = why_not(state.places, k, (x, y, t), state.options.touching)
    if refused:
        raise IllegalMove(refused)
    places = normalised(tuple((x, y, t) if i == k else p for i, p in enumerate(state.places)))
    state = replace(state, places=places, phase=SWAP, swaps_left=state.options.swaps,
                    last={"action": "move_crate", "crate": k})
    events = [Event("crate_moved", {"crate": k, "x": x, "y": y, "quarters": t})]
    if not state.options.swaps:
        return _end_turn(state, events)
    return state, events


def _swap(state: State, move: Move) -> tuple[State, list[Event]]:
    a, b = _bounded(move, "a", 0, CRATES - 1), _bounded(move, "b", 0, CRATES - 1)
    sa, sb = _bounded(move, "a_slot", 0, SLOTS - 1), _bounded(move, "b_slot", 0, SLOTS - 1)
    if not neighbours(cells(state.places[a])[sa], cells(state.places[b])[sb]):
        raise IllegalMove("swap two drinks that stand next to each other: across a side or a corner")
    state = replace(state, crates=swapped(state.crates, [(a, sa, b, sb)]), swaps_left=state.swaps_left - 1,
                    last={"action": "swap", "a": a, "a_slot": sa, "b": b, "b_slot": sb})
    events = [Event("drinks_swapped", {"a": a, "a_slot": sa, "b": b, "b_slot": sb,
                                       "drinks": [state.crates[b][sb], state.crates[a][sa]]})]
    won = _reached(state)
    if won:
        return _finish(state, "won", won, events)
    if state.swaps_left == 0:
        return _end_turn(state, events)
    return state, events


def _end_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, turns=state.turns + 1, turn=(state.turn + 1) % state.n, phase=MOVE, swaps_left=0)
    if state.turns >= state.options.max_turns:
        winners = _most(state) if state.options.at_limit == "most" and state.n > 1 else ()
        return _finish(state, "limit" if state.n > 1 else "lost", winners, events)
    return state, events


def colour_counts(crate: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for d in crate:
        c = traits(d)[0]
        counts[c] = counts.get(c, 0) + 1
    return counts


def best_in_a_crate(state: State, colour: str) -> int:
    """The most drinks of ``colour`` standing in one crate."""
    return max(colour_counts(c).get(colour, 0) for c in state.crates)


def sorted_crates(state: State) -> int:
    """How many crates hold drinks of one colour only (the solo aim: all six)."""
    return sum(1 for c in state.crates if len(colour_counts(c)) == 1)


def _team_of(state: State, seat: int) -> tuple[int, ...]:
    return next(t for t in state.teams if seat in t)


def _reached(state: State) -> tuple[int, ...]:
    """The seats that win now: the teams of the seats whose colour fills a crate far enough
    (solo: seat 0 once every crate is sorted)."""
    if state.n == 1:
        return (0,) if sorted_crates(state) == CRATES else ()
    hit = [p for p, cs in enumerate(state.colours)
           if any(best_in_a_crate(state, c) >= state.options.win_count for c in cs)]
    return tuple(sorted({s for p in hit for s in _team_of(state, p)}))


def _most(state: State) -> tuple[int, ...]:
    best = {p: max((best_in_a_crate(state, c) for c in cs), default=0) for p, cs in enumerate(state.colours)}
    top = max(best.values())
    return tuple(sorted({s for p, v in best.items() if v == top for s in _team_of(state, p)}))


def _finish(state: State, result: str, winners: tuple[int, ...], events: list[Event]) -> tuple[State, list[Event]]:
    if result == "won":  # the turn that won counts as played (the solo score counts it)
        state = replace(state, turns=state.turns + 1)
    state = replace(state, phase=OVER, result=result, winners=winners, swaps_left=0)
    return state, events + [Event("game_over", {"result": result, "winners": list(winners),
                                                "turns": state.turns})]


def score(state: State) -> int | None:
    """Solo: the turns it took to sort every crate (fewer is better)."""
    return state.turns if state.n == 1 and state.result == "won" else None


# --- views ----------------------------------------------------------------------------------

def _sees(state: State, viewer: int | None, seat: int) -> bool:
    return not state.options.blind or state.phase == OVER or viewer == seat


def crates_on_table(state: State) -> tuple[tuple[Place, ...], dict[tuple[int, int], str]]:
    """The crates as they stand (moved and turned) and the drinks in their fields: the crate
    camera's side of the game (table/crate_watch.py)."""
    return state.places, {cell: state.crates[k][s] for cell, (k, s) in grid(state.places, state.crates).items()
                          if state.crates[k][s]}


def view(state: State, viewer: int | None) -> dict:
    at = grid(state.places, state.crates)
    width = max((x for x, _ in at), default=-1) + 1
    height = max((y for _, y in at), default=-1) + 1
    rows = [[None] * width for _ in range(height)]
    crate_at = [[None] * width for _ in range(height)]
    for (x, y), (k, s) in at.items():
        rows[y][x], crate_at[y][x] = state.crates[k][s], k
    players = []
    for p, name in enumerate(state.names):
        seen = _sees(state, viewer, p)
        cs = state.colours[p] if p < len(state.colours) else ()
        players.append({"seat": p, "name": name, "yen": 0, "turn": state.phase in (MOVE, SWAP) and state.turn == p,
                        "colours": list(cs) if seen else None, "colours_held": len(cs),
                        "best": max((best_in_a_crate(state, c) for c in cs), default=0) if seen else None,
                        "team": state.teams.index(_team_of(state, p)) if state.n > 1 else 0})
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": state.turn if state.phase in (MOVE, SWAP) else None, "to_act": to_act(GAME.pending(state)),
        "crates": [list(c) for c in state.crates],
        "places": [{"crate": k, "x": x, "y": y, "quarters": t, "movable": movable(state.places, k)}
                   for k, (x, y, t) in enumerate(state.places)],
        "table": rows, "crate_at": crate_at, "swaps_left": state.swaps_left, "turns": state.turns, "max_turns": state.options.max_turns,
        "win_count": state.options.win_count, "sorted_crates": sorted_crates(state),
        "team_seats": [list(t) for t in state.teams] if state.n > 3 else [],
        "last": dict(state.last) if state.last else None, "result": state.result,
        "winners": list(state.winners), "score": score(state), "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [0] * state.n, "score": score(state), "result": state.result,
            "final": state.phase == OVER, "winners": list(state.winners)}


def _swap_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(why="why.yuzu.swap", params={"left": state.swaps_left})


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DEAL, "the colour card drawn face down (entered on the player's phone)", outcomes=_colours_left,
              acting=_drawer, ends="when every player holds their colours"),
        Phase(MOVE, "a crate moved", acting=_mover, ends="with the crate moved (and turned)"),
        Phase(SWAP, "a swap of two drinks next to each other", acting=_mover,
              ends="after the turn's swaps, or when a crate holds enough of a player's colour"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("draw", _draw, f"{RULE}: BLINDE VARIANTE", phases=(DEAL,), chance=True),
        Kind("move_crate", _move_crate, f"{RULE}: Kisten bewegen", phases=(MOVE,), listed=_crate_moves),
        Kind("swap", _swap, f"{RULE}: Getränke tauschen", phases=(SWAP,), listed=_swap_moves, info=_swap_info),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names,
    # no redraw: nobody holds yen, so estimates of the final yen would tell nothing
    board_events=frozenset({"crate_moved", "drinks_swapped"}),
    crates=crates_on_table,
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
