"""LEMON SQUASH (rule book 002): flick the drinks over in order.

Six crates make an arena; each player takes the drinks of one colour, keeps the short
can as the one they flick and stands the other five in the arena. Everyone throws
their short can into the tower at once; whose lands farthest from the tower plays
first, and so on (a distance observation: an order of players). The five shape cards
without the short can are shuffled into a row: the order in which drinks must be
knocked over, for everyone; only the shape counts, not the colour. In turn each player
flicks: knocking over exactly the drink they need next takes it; knocking over another
drink or several costs 100 yen (and a player who runs out of yen stands their drinks
back up and takes 500 again). The first to take all five in order wins. With seven or
more players, teams share a colour and flick in turn. The companion keeps the order and
the money; what each flick did is entered by the player or the table.

>>> s = setup({"names": ["A", "B", "C"]})
>>> s.phase, [u.colour for u in s.units]
('order', ['black', 'white', 'mint'])
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import COLOURS, SHAPES, Shape
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from ..options import GameOptions, Items, Players, Whole
from .common import arg_drink, arg_list, arg_text, seat_names, set_at, top

NAME = "lemon_squash"
TITLE = "LEMON SQUASH"
PLAYERS = tuple(range(2, 13))
RULE = "002 LEMON SQUASH"

ORDER, SHUFFLE, PLAY, OVER = "order", "shuffle", "play", "over"
TARGET_SHAPES = tuple(s.value for s in SHAPES if s is not Shape.SHORT_CAN)
RESULTS = ("miss", "hit", "foul")


class Options(GameOptions):
    players: Players = 3
    start_yen: Whole = 500
    foul: Whole = 100
    restart_yen: Whole = 500
    teams_from: Whole = 7              # from this many players on, teams share a colour
    teams: Items(Items(int)) = ()      # seats per team, e.g. [[0, 1], [2, 3], ...]; () = pairs in seat order
    colours: Items(str) = ()           # the colour of each player or team; () = black, white, mint, ...
    max_rounds: Whole = 50             # a bound so that a game always ends (0: none)


@dataclass(frozen=True)
class Unit:
    """A player, or a team that shares one colour, one set of drinks and one purse."""

    seats: tuple[int, ...]
    colour: str
    yen: int
    collected: tuple[str, ...] = ()
    flicks: int = 0                  # turns taken (team members flick in turn)

    @property
    def flicker(self) -> int:
        return self.seats[self.flicks % len(self.seats)]


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    units: tuple[Unit, ...]
    bank: int = 0
    phase: str = ORDER
    start_order: tuple[int, ...] = ()    # units, farthest first
    cards: tuple[str, ...] = ()          # the shape cards, left to right: the knock-down order
    arena: frozenset[str] = frozenset()  # drinks standing in the arena
    turn: int = 0                        # index into start_order
    round: int = 1
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()        # winning seats
    winning_units: tuple[int, ...] = ()
    end: str | None = None

    def unit_of(self, seat: int) -> int:
        return next(u for u, x in enumerate(self.units) if seat in x.seats)

    @property
    def current(self) -> int:
        return self.start_order[self.turn]


def _make_units(opts: Options) -> tuple[tuple[int, ...], ...]:
    n = opts.players
    if opts.teams:
        teams = tuple(tuple(t) for t in opts.teams)
        flat = sorted(s for t in teams for s in t)
        if flat != list(range(n)) or any(not t for t in teams):
            raise IllegalMove(f"option teams must put each seat 0 to {n - 1} in exactly one team")
    elif n >= opts.teams_from:
        teams = tuple(tuple(range(i, min(i + 2, n))) for i in range(0, n, 2))
    else:
        teams = tuple((p,) for p in range(n))
    if len(teams) > len(COLOURS):
        raise IllegalMove(f"at most {len(COLOURS)} players or teams (one colour each); make teams")
    return teams


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    teams = _make_units(opts)
    colours = tuple(opts.colours) or tuple(c.value for c in COLOURS[:len(teams)])
    if len(colours) != len(teams) or len(set(colours)) != len(colours) or \
            not set(colours) <= {c.value for c in COLOURS}:
        raise IllegalMove(f"option colours must name {len(teams)} different colours, one per player or team")
    units = tuple(Unit(t, c, opts.start_yen) for t, c in zip(teams, colours))
    arena = frozenset(f"{c}-{s}" for c in colours for s in TARGET_SHAPES)
    return State(opts, names, units, bank=-opts.start_yen * len(units), arena=arena)


# --- who acts -------------------------------------------------------------------------------

def flicker(state: State) -> list[Pending]:
    return [Pending(state.units[state.current].flicker)]


def _waiting_to_flick(state: State) -> str:
    return f"{state.names[state.units[state.current].flicker]} to flick"


def target(state: State, u: int) -> str | None:
    """The shape unit ``u`` must knock over next."""
    k = len(state.units[u].collected)
    return state.cards[k] if k < len(state.cards) else None


def _flicks(state: State, seat: int) -> list[Move]:
    shape = target(state, state.current)
    hits = [Move("flick", seat, {"result": "hit", "drink": d}) for d in sorted(state.arena)
            if d.split("-", 1)[1] == shape]
    return [Move("flick", seat, {"result": "miss"})] + hits + [Move("flick", seat, {"result": "foul"})]


def _places_left(state: State) -> ChanceSpec:
    left = [u for u in range(len(state.units)) if u not in state.start_order]
    return uniform(Move("farthest", CHANCE, {"unit": u}) for u in left)


def _cards_left(state: State) -> ChanceSpec:
    left = [s for s in TARGET_SHAPES if s not in state.cards]
    return uniform(Move("order_card", CHANCE, {"shape": s}) for s in left)


# --- applying moves ---------------------------------------------------------------------------

def _farthest(state: State, move: Move) -> tuple[State, list[Event]]:
    u = move.args.get("unit")
    left = [x for x in range(len(state.units)) if x not in state.start_order]
    if u not in left or isinstance(u, bool):
        raise IllegalMove(f"'unit' must be one not placed in the order yet: {left}, not {u!r}")
    order = state.start_order + (u,)
    events = [Event("farthest", {"unit": u, "place": len(order)})]
    if len(order) == len(state.units) - 1:   # the last one is known
        order += tuple(x for x in left if x != u)
    state = replace(state, start_order=order)
    if len(order) == len(state.units):
        state = replace(state, phase=SHUFFLE)
        events.append(Event("start_order", {"order": list(order)}))
    return state, events


def _start_order(state: State, move: Move) -> tuple[State, list[Event]]:
    order = arg_list(move, "order")
    if sorted(order) != list(range(len(state.units))) or state.start_order:
        raise IllegalMove(f"'order' must list every player or team 0 to {len(state.units) - 1} once, farthest "
                          "first, before any single place was entered")
    state = replace(state, start_order=tuple(order), phase=SHUFFLE)
    return state, [Event("start_order", {"order": list(order)})]


def _order_card(state: State, move: Move) -> tuple[State, list[Event]]:
    s = move.args.get("shape")
    left = [x for x in TARGET_SHAPES if x not in state.cards]
    if s not in left:
        raise IllegalMove(f"'shape' must be a shape card still to be laid: {', '.join(left)}; not {s!r}")
    cards = state.cards + (s,)
    if len(cards) == len(TARGET_SHAPES) - 1:
        cards += tuple(x for x in left if x != s)
    state = replace(state, cards=cards)
    events = [Event("order_card", {"shape": s, "place": len(state.cards)})]
    if len(cards) == len(TARGET_SHAPES):
        state = replace(state, phase=PLAY, turn=0)
        events.append(Event("knock_order", {"shapes": list(cards)}))
    return state, events


def _flick(state: State, move: Move) -> tuple[State, list[Event]]:
    o = state.options
    u = state.current
    unit = state.units[u]
    result = arg_text(move, "result", RESULTS)
    events = []
    if result == "hit":
        d = arg_drink(move)
        shape = target(state, u)
        if d not in state.arena:
            raise IllegalMove(f"{d} is not standing in the arena")
        if d.split("-", 1)[1] != shape:
            raise IllegalMove(f"{d} is not the drink needed next: knock over a {shape} (any colour); knocking "
                              "over another drink is a foul")
        unit = replace(unit, collected=unit.collected + (d,))
        state = replace(state, arena=state.arena - {d})
        events.append(Event("knocked", {"unit": u, "seat": move.player, "drink": d, "progress": len(unit.collected)}))
    elif result == "foul":
        pay = min(o.foul, unit.yen)
        unit = replace(unit, yen=unit.yen - pay)
        state = replace(state, bank=state.bank + pay)
        events.append(Event("foul", {"unit": u, "seat": move.player, "paid": pay}))
        if unit.yen <= 0:
            state = replace(state, arena=state.arena | set(unit.collected), bank=state.bank - o.restart_yen)
            events.append(Event("restart", {"unit": u, "returned": list(unit.collected), "yen": o.restart_yen}))
            unit = replace(unit, collected=(), yen=o.restart_yen)
    else:
        events.append(Event("missed", {"unit": u, "seat": move.player}))
    unit = replace(unit, flicks=unit.flicks + 1)
    state = replace(state, units=set_at(state.units, u, collected=unit.collected, yen=unit.yen, flicks=unit.flicks),
                    last={"unit": u, "seat": move.player, "result": result, "drink": move.args.get("drink")})
    if len(unit.collected) == len(TARGET_SHAPES):
        return _finish(state, (u,), "all_five", events)
    turn = state.turn + 1
    if turn >= len(state.units):
        turn, state = 0, replace(state, round=state.round + 1)
        if o.max_rounds and state.round > o.max_rounds:
            return _finish(state, None, "round_limit", events)
    return replace(state, turn=turn), events


def _finish(state: State, units: tuple[int, ...] | None, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    if units is None:
        best = top({u: len(x.collected) for u, x in enumerate(state.units)})
        units = top({u: state.units[u].yen for u in best}, best)
    seats = tuple(sorted(s for u in units for s in state.units[u].seats))
    state = replace(state, phase=OVER, winners=seats, winning_units=units, end=why)
    return state, events + [Event("game_over", {"winners": list(seats), "units": list(units), "why": why})]


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    current = state.current if state.phase == PLAY else None
    units = [{
        "unit": u, "seats": list(x.seats), "names": [state.names[s] for s in x.seats], "colour": x.colour,
        "yen": x.yen, "collected": list(x.collected), "progress": len(x.collected),
        "next_shape": target(state, u) if state.cards else None, "flicker": x.flicker, "turn": u == current,
        "place": state.start_order.index(u) + 1 if u in state.start_order else None,
    } for u, x in enumerate(state.units)]
    players = []
    for p, name in enumerate(state.names):
        u = state.unit_of(p)
        players.append({"seat": p, "name": name, "unit": u, "colour": state.units[u].colour,
                        "yen": state.units[u].yen, "collected": list(state.units[u].collected),
                        "turn": current is not None and state.units[u].flicker == p and u == current})
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "max_rounds": state.options.max_rounds,
        "players": players, "units": units, "teams": any(len(x.seats) > 1 for x in state.units),
        "bank": state.bank, "start_order": list(state.start_order), "knock_order": list(state.cards),
        "turn": state.units[current].flicker if current is not None else None, "turn_unit": current,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in GAME.pending(state)],
        "arena": sorted(state.arena), "tower": {"stuck": []},
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "winning_units": list(state.winning_units), "end": state.end,
        "final": {"why": state.end, "progress": [len(x.collected) for x in state.units],
                  "yen": [x.yen for x in state.units]} if state.phase == OVER else None,
        "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [state.units[state.unit_of(p)].yen for p in range(len(state.names))],
            "progress": [len(x.collected) for x in state.units],
            "final": state.phase == OVER, "winners": list(state.winners)}


def _flick_info(state: State, move: Move) -> MoveInfo:
    if move.args.get("result") == "foul":
        return MoveInfo(cost=state.options.foul, why="why.lemon_squash.foul")
    return MoveInfo()


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(ORDER, "whose short can landed farthest from the tower (next in the order)", outcomes=_places_left,
              ends="when every player or team has a place (the last one is known)"),
        Phase(SHUFFLE, "the next shape card of the knock-down order", outcomes=_cards_left,
              ends="when the five shape cards lie in a row"),
        Phase(PLAY, _waiting_to_flick, acting=flicker,
              ends="when a player or team has taken all five in order, or after the last round"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("farthest", _farthest, f"{RULE}: VORBEREITUNG", phases=(ORDER,), chance=True),
        Kind("start_order", _start_order, f"{RULE}: VORBEREITUNG", phases=(ORDER,), chance=True),
        Kind("order_card", _order_card, f"{RULE}: VORBEREITUNG", phases=(SHUFFLE,), chance=True),
        Kind("flick", _flick, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_flicks, info=_flick_info),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names, redraw=nothing_hidden,
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"restart"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
