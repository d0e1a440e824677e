"""TOKYO METRO card actions on the map and for tokens: move, station, station swap, start a train,
tempo, bicycle, discount. Each kind in one place: the moves it offers for one card action, what
taking it does, and what it costs (actions.py: the frame they share; bank_actions.py: the rest).
"""
from __future__ import annotations

from typing import Iterable

from ..engine import Event, Move, MoveInfo
from . import vending
from .actions import Applied, CardAction, Offer, Taking, ref
from .cards import Action
from .state import State, field_arg, line_arg, occupied_fields, seat_label, set_line, str_arg


# --- move: walk up to the action's fields ----------------------------------------------------------

def _move_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    if o.seat.field < 0:
        return ()
    return [o.move("move", cid, i, field=f) for f in o.reach(a.amount + (1 if o.seat.bicycle else 0))]


def _move(t: Taking) -> Applied:
    state, p = t.state, t.p
    seat = state.seats[p]
    if seat.riding >= 0 or seat.field < 0:
        raise t.fail("your meeple rides a train: get off first to walk")
    f = field_arg(state, t.move)
    steps = t.action.amount + (1 if seat.bicycle else 0)
    taken = occupied_fields(state, but=p)
    if f not in state.board.reachable(seat.field, steps, taken):
        raise t.fail(f"field {state.board.field_label(f)} is not within {steps} orthogonal steps of your meeple "
                     "without entering a field with another meeple")
    if t.move.args.get("builds"):  # METRO DRINKS: a shape card's free builds on the way
        return vending.walk_and_build(t, f, steps, taken)
    return t.done(0, {"field": f}, [Event("moved", {"seat": p, "field": list(state.board.col_row(f)), "card": t.card})])


MOVE = CardAction("move", "Bewegen", _move_moves, _move)


# --- station: a pyramid at a station the meeple touches -----------------------------------------------

def _open_stations(o: Offer) -> list[int]:
    """Stations the seat's meeple touches where it could build (no pyramid there, one in hand)."""
    seat, state = o.seat, o.state
    if seat.field < 0 or seat.pyramids <= 0:
        return []
    return [s for s in state.board.field_stations[seat.field] if state.pyramids[s] < 0]


def _station_cost(state: State, s: int, price: int) -> int:
    """A station costs the printed price (after discounts) once per stop circle."""
    return price * len(state.board.stations[s].circles)


def _station_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    board = o.state.board
    return [o.move("station", cid, i, station=board.stations[s].id, discounts=refs) for s in _open_stations(o)
            for refs in o.priced(a, lambda price: _station_cost(o.state, s, price))]


def _station_arg(t: Taking) -> int:
    """The station the move names, where the seat may build now."""
    state, seat = t.state, t.state.seats[t.p]
    sid = str_arg(t.move, "station")
    board = state.board
    s = board.station_index.get(sid)
    if s is None:
        raise t.fail(f"there is no station {sid!r} on this board")
    if seat.riding >= 0:
        raise t.fail("your meeple rides a train: get off first to build a station")
    if seat.field < 0 or seat.field not in board.station_fieldsets[s]:
        raise t.fail(f"your meeple must stand on a field touching {board.stations[s].name} to build there")
    if state.pyramids[s] >= 0:
        raise t.fail(f"{board.stations[s].name} has a station already ({seat_label(state, state.pyramids[s])}'s "
                     "pyramid): one pyramid per station")
    if seat.pyramids <= 0:
        raise t.fail("you have no pyramid left to build with")
    return s


def _built(state: State, s: int, p: int) -> tuple[int, ...]:
    return state.pyramids[:s] + (p,) + state.pyramids[s + 1:]


def _station(t: Taking) -> Applied:
    state, p = t.state, t.p
    s = _station_arg(t)
    cost = _station_cost(state, s, t.price)
    seat = state.seats[p]
    if cost > seat.yen:
        raise t.fail(f"this station costs {cost} yen ({t.price} x {len(state.board.stations[s].circles)} stop "
                     f"circle(s)); you have {seat.yen}")
    return t.done(cost, {"pyramids": seat.pyramids - 1},
                  [Event("station_built", {"seat": p, "station": state.board.stations[s].id, "cost": cost})],
                  pyramids=_built(state, s, p))


def _station_info(t: Taking) -> MoveInfo:
    s = t.state.board.station_index[t.move.args["station"]]
    stops = len(t.state.board.stations[s].circles)
    return MoveInfo(cost=_station_cost(t.state, s, t.price), why="why.tokyo_metro.station",
                    params={"stop_price": t.price, "stops": stops, "count": stops})


STATION = CardAction("station", "Station", _station_moves, _station, _station_info)


# --- station swap: a station paid with a tempo or bicycle token ----------------------------------------

def _swap_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    tokens = (["tempo"] if o.seat.tempo > 0 else []) + (["bicycle"] if o.seat.bicycle else [])
    board = o.state.board
    return [o.move("station_swap", cid, i, station=board.stations[s].id, token=token)
            for s in _open_stations(o) for token in tokens]


def _station_swap(t: Taking) -> Applied:
    state, p = t.state, t.p
    s = _station_arg(t)
    token = str_arg(t.move, "token")
    seat = state.seats[p]
    if token == "tempo":
        if seat.tempo <= 0:
            raise t.fail("you hold no unassigned tempo token to hand in")
        changes, supply = {"tempo": seat.tempo - 1}, {"tempo_supply": state.tempo_supply + 1}
    elif token == "bicycle":
        if not seat.bicycle:
            raise t.fail("you hold no bicycle to hand in")
        changes, supply = {"bicycle": False}, {"bicycles": state.bicycles + 1}
    else:
        raise t.fail(f"hand in a 'tempo' or a 'bicycle' token, not {token!r}")
    changes["pyramids"] = seat.pyramids - 1
    return t.done(0, changes, [Event("station_built", {"seat": p, "station": state.board.stations[s].id, "token": token})],
                  pyramids=_built(state, s, p), **supply)


STATION_SWAP = CardAction("station_swap", "Stationstausch", _swap_moves, _station_swap)


# --- start: a train onto stop 1 of its line -------------------------------------------------------------

def _start_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    board = o.state.board
    return [o.move("start", cid, i, line=board.lines[li].letter) for li, ls in enumerate(o.state.lines) if ls.train < 0]


def _start(t: Taking) -> Applied:
    state = t.state
    li = line_arg(state, t.move)
    ls, line = state.lines[li], state.board.lines[li]
    if ls.train >= 0:
        raise t.fail(f"the train of line {line.letter} is on the board already")
    value = ls.value + t.action.amount
    return t.done(0, {}, [Event("train_started", {"seat": t.p, "line": line.letter, "stop": line.label(0),
                                                  "value": value})],
                  lines=set_line(state, li, train=0, dir=1, value=value))


START = CardAction("start", "Starten", _start_moves, _start)


# --- tokens: tempo, bicycle, discount ------------------------------------------------------------------

def _tempo_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("tempo", cid, i)] if o.state.tempo_supply > 0 else []


def _tempo(t: Taking) -> Applied:
    state = t.state
    got = min(t.action.amount, state.tempo_supply)
    if got <= 0:
        raise t.fail("no tempo token is left in the supply")
    return t.done(0, {"tempo": state.seats[t.p].tempo + got}, [Event("tempo_taken", {"seat": t.p, "tokens": got})],
                  tempo_supply=state.tempo_supply - got)


TEMPO = CardAction("tempo", "Tempo", _tempo_moves, _tempo)


def _bicycle_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("bicycle", cid, i)] if o.state.bicycles > 0 and not o.seat.bicycle else []


def _bicycle(t: Taking) -> Applied:
    state = t.state
    if state.seats[t.p].bicycle:
        raise t.fail("you have a bicycle already: one at a time")
    if state.bicycles <= 0:
        raise t.fail("no bicycle is left in the supply")
    return t.done(0, {"bicycle": True}, [Event("bicycle_taken", {"seat": t.p})], bicycles=state.bicycles - 1)


BICYCLE = CardAction("bicycle", "Fahrrad", _bicycle_moves, _bicycle)


def _discount_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("discount", cid, i)]


def _discount(t: Taking) -> Applied:
    return t.done(0, {}, [Event("discount_placed", {"seat": t.p, "discount": ref(t.card, t.index),
                                                    "amount": t.action.amount})])


DISCOUNT = CardAction("discount", "Rabatt", _discount_moves, _discount)

ON_THE_MAP = (MOVE, STATION, STATION_SWAP, START, TEMPO, BICYCLE, DISCOUNT)
