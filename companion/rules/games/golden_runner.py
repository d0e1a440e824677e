"""The golden-ball runner race (rule book 002; no title in our copy): a real-time race.

One player is the magic golden-ball runner: with one hand, one coin at a time, they lay an
unbroken trail of 100-yen coins from the 5,000-yen note (the start line) to a 500-yen coin lying
two 1,000-yen notes' lengths per player away. Everyone else, at the same time, fills their crate
with six drinks, one of each colour and one of each shape, one drink at a time. Whoever finishes
first wins; at five to seven players the crate players form two teams, and one full crate wins
for the whole team.

The table taps "go" and each side taps "done"; the service stamps both moments with its clock
(``Kind.clocked``: the moves carry ``at_ms``), so the race's time is the service's, and the
dashboard shows a big clock. A crate player may list the six drinks with "done": then they are
checked (one of each colour and shape). Several races may be run, the runner's role passing on
each time; each race won scores a point.

>>> s = setup({"names": ["A", "B", "C"]})
>>> s, _ = apply(s, Move("go", 0, {"at_ms": 1000}))
>>> s, events = apply(s, Move("done", 2, {"at_ms": 61_500}))
>>> events[0].data["winners"], events[0].data["elapsed_ms"], s.phase
([2], 60500, 'over')
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import COLOURS, DRINK_IDS, SHAPES
from ..declared import Declared, Kind, Phase
from ..engine import Event, IllegalMove, Move, Pending
from ..options import GameOptions, Items, WholeIn
from .common import seat_names, top, traits
from .tower_turns import to_act

NAME = "golden_runner"
TITLE = "The golden-ball runner race"
PLAYERS = (2, 3, 4, 5, 6, 7)
RULE = "002 The golden-ball runner race"

READY, RACE, OVER = "ready", "race", "over"
MAX_MS = 10 ** 13          # a clock stamp (ms since 1970) is below this for the next centuries


class Options(GameOptions):
    players: WholeIn(2, 7) = 3
    runner: WholeIn(0, 6) = 0          # the first race's runner (the book: one player chosen)
    races: WholeIn(1, 9) = 1           # races run, the runner's role passing on each time
    teams_from: WholeIn(3, 8) = 5      # from this many players on the crate players form two teams
    teams: Items(Items(int)) = ()      # the two teams' seats for the first race; () = the crate players alternately


@dataclass(frozen=True)
class Race:
    """One race run: the runner, the winners (seats), the winning side and its time."""

    runner: int
    winners: tuple[int, ...]
    side: str                 # "runner" or "crates"
    elapsed_ms: int | None    # None: a moment was not stamped (a move made outside the table)


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    phase: str = READY
    race: int = 0                       # races run so far
    started_ms: int | None = None       # the stamp of this race's "go"
    races: tuple[Race, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def runner(self) -> int:
        return (self.options.runner + self.race) % self.n


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    if opts.runner >= opts.players:
        last = opts.players - 1
        raise IllegalMove(f"option runner must be a seat from 0 to {last}")
    state = State(opts, names)
    teams(state)   # IllegalMove for teams that do not fit
    return state


def teams(state: State) -> tuple[tuple[int, ...], ...]:
    """The crate players' sides: each alone, or (from ``teams_from`` players on) two teams."""
    crates = [p for p in range(state.n) if p != state.runner]
    o = state.options
    if state.n < o.teams_from:
        return tuple((p,) for p in crates)
    if not o.teams:
        return tuple(crates[0::2]), tuple(crates[1::2])
    given = tuple(tuple(t) for t in o.teams)
    # the teams named hold for the first race; later races shift them with the runner's role
    shift = state.race % state.n
    moved = tuple(tuple((p + shift) % state.n for p in t) for t in given)
    if len(given) != 2 or sorted(p for t in moved for p in t) != sorted(crates):
        example = [crates[0::2], crates[1::2]]
        raise IllegalMove(f"option teams must split every player but the runner into two teams, e.g. {example}")
    return moved


def side_of(state: State, seat: int) -> tuple[int, ...]:
    """The seats that win with ``seat``: the runner alone, or the seat's team."""
    if seat == state.runner:
        return (seat,)
    return next(t for t in teams(state) if seat in t)


def _stamp(move: Move) -> int | None:
    at = move.args.get("at_ms")
    if at is None:
        return None
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < MAX_MS:
        raise IllegalMove("'at_ms' is the table's clock in milliseconds, a whole number (the table sets it)", move)
    return at


# --- who acts ---------------------------------------------------------------------------------

def _starter(state: State) -> list[Pending]:
    return [Pending(state.runner)]


def _everyone(state: State) -> list[Pending]:
    return [Pending(p) for p in range(state.n)]


def _waiting_go(state: State) -> str:
    name = state.names[state.runner]
    return f"the race to start ({name} runs)"


# --- the moves --------------------------------------------------------------------------------

def _gos(state: State, seat: int) -> list[Move]:
    return [Move("go", seat, {})]


def _go(state: State, move: Move) -> tuple[State, list[Event]]:
    at = _stamp(move)
    state = replace(state, phase=RACE, started_ms=at)
    return state, [Event("race_started", {"race": state.race + 1, "runner": state.runner, "at_ms": at})]


def _dones(state: State, seat: int) -> list[Move]:
    return [Move("done", seat, {})]


def full_crate(drinks: list[str]) -> bool:
    """Six drinks, one of each colour and one of each shape."""
    colours = {traits(d)[0] for d in drinks}
    shapes = {traits(d)[1] for d in drinks}
    return len(drinks) == len(COLOURS) == len(colours) and len(shapes) == len(SHAPES)


def _done(state: State, move: Move) -> tuple[State, list[Event]]:
    p, at = move.player, _stamp(move)
    drinks = move.args.get("drinks")
    if drinks is not None:
        if p == state.runner:
            raise IllegalMove("the runner lays coins, not drinks: tap done without drinks", move)
        if not isinstance(drinks, (list, tuple)) or not all(d in DRINK_IDS for d in drinks) or not full_crate(list(drinks)):
            raise IllegalMove("a full crate holds six drinks, one of each colour and one of each shape: "
                              "check the crate (or tap done without listing them)", move)
    winners = side_of(state, p)
    elapsed = at - state.started_ms if at is not None and state.started_ms is not None else None
    race = Race(state.runner, winners, "runner" if p == state.runner else "crates", elapsed)
    state = replace(state, races=state.races + (race,), race=state.race + 1, started_ms=None)
    events = [Event("race_won", {"race": state.race, "seat": p, "winners": list(winners), "side": race.side,
                                 "elapsed_ms": elapsed})]
    if state.race < state.options.races:
        return replace(state, phase=READY), events
    scores = points(state)
    state = replace(state, phase=OVER, winners=top(scores))
    return state, events + [Event("game_over", {"winners": list(state.winners), "points": scores})]


def points(state: State) -> list[int]:
    """A point per race won, for every seat on the winning side."""
    return [sum(p in r.winners for r in state.races) for p in range(state.n)]


# --- views ------------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    sides = teams(state) if state.phase != OVER else ()
    players = [{"seat": p, "name": state.names[p], "points": points(state)[p],
                "role": "runner" if p == state.runner and state.phase != OVER else "crate",
                "team": next((i for i, t in enumerate(sides) if p in t), None) if len(sides) == 2 else None}
               for p in range(state.n)]
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "to_act": to_act(GAME.pending(state)),
        "runner": state.runner if state.phase != OVER else None,
        "race": state.race + (state.phase != OVER), "races_to_run": state.options.races,
        "started_ms": state.started_ms,
        "results": [{"race": i + 1, "runner": r.runner, "winners": list(r.winners), "side": r.side,
                     "elapsed_ms": r.elapsed_ms} for i, r in enumerate(state.races)],
        "winners": list(state.winners), "over": state.phase == OVER,
        "final": {"points": points(state)} if state.phase == OVER else None,
    }


def payouts(state: State) -> dict:
    return {"yen": [0] * state.n, "projected": points(state), "points": points(state),
            "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(READY, _waiting_go, acting=_starter, ends="with go: the race runs"),
        Phase(RACE, "the first side to finish (tap done)", acting=_everyone,
              ends="with the first done: the next race, or the end"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("go", _go, f"{RULE}: SPIELABLAUF", phases=(READY,), listed=_gos, clocked=True),
        Kind("done", _done, f"{RULE}: SPIELABLAUF", phases=(RACE,), listed=_dones, clocked=True),
    ),
    # no estimates: a race is won at the table
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names,
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
