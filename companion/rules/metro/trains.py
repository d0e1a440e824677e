"""TOKYO METRO train phase: trains move, stations pay, riders board and get off.

When the action phase ends, the game waits for the first player to start the train phase
(``run_trains``; the dashboard shows preview.py's :func:`train_phase_preview` meanwhile). Then the
trains move in line order (G first), each 5 stops plus one per tempo token on its line, one stop
at a time:

- the direction reverses on reaching a terminal (the train's arrow is turned on arrival);
- entering a stop of a station with a pyramid pays: +200 to the line's value and 200 yen to the
  owner, or +500 to the value (nothing to the owner) when the owner holds a share of the line; a
  line with two stops in one station pays at each of them;
- a train placed by ``start`` whose line still has no shareholder leaves the board when it comes
  back to stop 1 (after paying there); its riders get off there;
- at every stop (the starting stop too) the game asks, in player order, each rider of that train
  who may get off (the train moved at least one stop since they boarded, and a free field touches
  the station) - moves ``alight {field}`` or ``ride_on`` - and each player whose meeple touches the
  station - moves ``board {line}`` or ``skip``. Boarding costs 100 yen, which go to the bank and
  onto the line's value, unless the rider holds a share of the line.
- METRO DRINKS: a paid station with a drink also pays its owner a bonus from the bank
  (stock_column.station_bonus: 100/200/300 by that colour's drinks on the board). Who got off a train may not
  board that train again at that station in the same phase (rules version 1: no train there).

Stops where nobody can decide anything are passed without asking, so a phase without riders is
applied in one move.

Getting off is possible at any time, also in another player's turn and in other phases
(``alight``, a kind of move the game declares ``anytime``): onto a free field touching the station
where the train stands, once it has moved a stop since the rider boarded. Only the riders of the
train moving now wait until the game asks them at a stop, in player order. In the movement phase a
rider whose turn it is stays on (``ride_on``), or gets off and then walks.
"""
from __future__ import annotations

from ..engine import Event, IllegalMove, Move, MoveInfo, Pending
from .board import Line
from .rounds import next_mover, start_next_round
from .stock_column import station_bonus
from .state import (MOVEMENT, TRAINS, RunLog, State, TrainRun, alight_fields, field_arg, nearest_free_fields,
                    quick_move, ride_station, seat_label, set_line, set_seat)


def deciding(state: State) -> list[Pending]:
    """Who the train phase waits for: the first player to start it, then whoever decides at a stop."""
    run = state.run
    return [Pending(state.order[0] if run is None else run.who)]


def awaited(state: State) -> str:
    run = state.run
    if run is None:
        return f"{seat_label(state, state.order[0])}, first in player order, to start the train phase (run_trains)"
    line = state.board.lines[run.line]
    what = f"board train {line.letter}" if run.what == "board" else f"get off train {line.letter} or stay on"
    return f"{seat_label(state, run.who)} to decide whether to {what} at {line.label(state.lines[run.line].train)}"


def _new_run(state: State, line: int) -> TrainRun:
    total = state.options.steps + state.lines[line].tempo if line < len(state.lines) else 0
    return TrainRun(line=line, steps=0, total=total)


def _logged(state: State, **more) -> RunLog:
    """The train phase's log with one more payout, fare or departure."""
    log = state.last_run if state.last_run is not None and state.last_run.round == state.round else RunLog(state.round)
    return log._replace(**{k: getattr(log, k) + v for k, v in more.items()})


# --- starting the trains, and moving them ----------------------------------------------------------

def run_moves(state: State, p: int) -> list[Move]:
    return [quick_move("run_trains", p, {})] if state.run is None else []


def run_trains(state: State, move: Move) -> tuple[State, list[Event]]:
    if state.run is not None:
        raise IllegalMove("the train phase is running already", move)
    state = state._replace(run=_new_run(state, 0), last_run=RunLog(state.round))
    return advance(state, [Event("trains_started", {"round": state.round})])


def advance(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Move trains until someone has a decision to make, or the phase is over."""
    lines = state.board.lines
    n = len(lines)
    while True:
        run = state.run
        li = run.line
        if li >= n:
            state = state._replace(run=None)
            state, more = start_next_round(state)
            return state, events + [Event("trains_done", {})] + more
        ls = state.lines[li]
        if ls.train < 0:
            state = state._replace(run=_new_run(state, li + 1))
            continue
        who, what = _decider(state)
        if who >= 0:
            return state._replace(run=run._replace(who=who, what=what)), events
        if run.leaving:
            state = state._replace(lines=set_line(state, li, train=-1, dir=1),
                                   run=_new_run(state, li + 1), last_run=_logged(state, left=(li,)))
            events.append(Event("train_left", {"line": lines[li].letter}))
            continue
        if run.steps >= run.total:
            state = state._replace(run=_new_run(state, li + 1))
            continue
        state = _step(state, events)


def _barred(state: State, p: int, station: int, line: int) -> bool:
    """Whether seat p got off at this station in this phase the train of ``line`` (under rules
    version 1: any train), so that it may not board it here again."""
    any_train = state.options.reboarding == "any_train"
    return any(q == p and s == station and (any_train or ln == line) for q, s, ln in state.barred)


def _decider(state: State) -> tuple[int, str]:
    run = state.run
    li = run.line
    ls = state.lines[li]
    board = state.board
    station = board.lines[li].stop_station[ls.train]
    fieldset = board.station_fieldsets[station]
    fare = state.options.fare
    for s in state.order:
        if s in run.asked:
            continue
        seat = state.seats[s]
        if seat.riding == li:
            if run.leaving or (seat.moved and alight_fields(state, s, station)):
                return s, "alight"
        elif (not run.leaving and seat.riding < 0 and seat.field in fieldset and not _barred(state, s, station, li)
              and (s in ls.holders or seat.yen >= fare)):
            return s, "board"
    return -1, ""


def next_stop(line: Line, i: int, d: int) -> tuple[int, int]:
    """The stop after stop ``i`` in direction ``d``, and the direction the train faces there (its
    arrow is turned on reaching a terminal)."""
    j = i + d
    if j < 0 or j >= len(line.stops):
        d = -d
        j = i + d
    if j == 0 or j == len(line.stops) - 1:
        d = -d
    return j, d


def stop_payout(state: State, li: int, j: int) -> dict | None:
    """What the train of line ``li`` entering its stop ``j`` pays (the station's owner, the yen to
    the owner, the rise of the line's value), or None where no pyramid stands."""
    line = state.board.lines[li]
    station = line.stop_station[j]
    owner = state.pyramids[station]
    if owner < 0:
        return None
    opts, holder = state.options, owner in state.lines[li].holders
    return {"stop": line.label(j), "station": state.board.stations[station].id, "owner": owner,
            "to_owner": 0 if holder else opts.owner_payout, "value": opts.holder_value if holder else opts.owner_payout}


def _step(state: State, events: list[Event]) -> State:
    run = state.run
    li = run.line
    line, ls = state.board.lines[li], state.lines[li]
    i = ls.train
    j, d = next_stop(line, i, ls.dir)
    value, bank = ls.value, state.bank
    seats = state.seats
    if any(s.riding == li for s in seats):
        seats = tuple(s._replace(moved=True) if s.riding == li else s for s in seats)
    events.append(Event("train_moved", {"line": line.letter, "from": line.label(i), "to": line.label(j), "dir": d}))
    last_run = state.last_run
    pay = stop_payout(state, li, j)
    if pay is not None:
        owner, to_owner = pay["owner"], pay["to_owner"]
        value += pay["value"]
        if to_owner:
            bank -= to_owner
            seats = seats[:owner] + (seats[owner]._replace(yen=seats[owner].yen + to_owner),) + seats[owner + 1:]
        events.append(Event("station_payout", {"line": line.letter, **pay}))
        last_run = _logged(state, payouts=((li, j, owner, to_owner, pay["value"]),))
        bonus = station_bonus(state.drinks, line.stop_station[j]) if state.drinks is not None else None
        if bonus is not None:  # METRO DRINKS: a drink at the station pays its owner from the bank
            colour, yen = bonus
            bank -= yen
            seats = seats[:owner] + (seats[owner]._replace(yen=seats[owner].yen + yen),) + seats[owner + 1:]
            events.append(Event("drink_bonus", {"line": line.letter, "station": pay["station"], "owner": owner,
                                                "colour": colour, "yen": yen}))
            last_run = last_run._replace(bonuses=last_run.bonuses + ((li, j, owner, yen, colour),))
    leaving = j == 0 and not ls.holders
    lines = list(state.lines)
    lines[li] = ls._replace(train=j, dir=d, value=value)
    return state._replace(seats=seats, lines=tuple(lines), bank=bank, last_run=last_run,
                          run=run._replace(steps=run.steps + 1, asked=(), leaving=leaving))


# --- the decisions at a stop ------------------------------------------------------------------------

def _asked(state: State, move: Move, what: str) -> tuple[TrainRun, dict]:
    """The run, and where its train stands, when ``move`` is the decision the phase waits for."""
    run = state.run
    if run is None:
        first = state.order[0]
        raise IllegalMove(f"the train phase has not started: {seat_label(state, first)} starts it (run_trains)", move)
    line = state.board.lines[run.line]
    if run.what != what:
        p = seat_label(state, move.player)
        raise IllegalMove(f"{p} may board train {line.letter} here (board) or not (skip)" if run.what == "board" else
                          f"{p} may get off here (alight) or stay on (ride_on)", move)
    stop = state.lines[run.line].train
    where = {"line": line.letter, "stop": line.label(stop),
             "station": state.board.stations[line.stop_station[stop]].id}
    return run, where


def _decided(run: TrainRun, p: int) -> TrainRun:
    return run._replace(asked=run.asked + (p,), who=-1, what="")


def board_moves(state: State, p: int) -> list[Move]:
    run = state.run
    if run is None or run.what != "board":
        return []
    return [quick_move("board", p, {"line": state.board.lines[run.line].letter})]


def board_info(state: State, move: Move) -> MoveInfo:
    """The fare (nothing for a shareholder of the line); riding earns no yen itself: it carries the
    meeple on to a station where it may get off and build."""
    line = state.board.lines[state.run.line].letter
    if move.player in state.lines[state.run.line].holders:
        return MoveInfo(cost=0, why="why.tokyo_metro.boardShareholder", params={"line": line})
    fare = state.options.fare
    return MoveInfo(cost=fare, why="why.tokyo_metro.board", params={"line": line, "fare_yen": fare})


def board(state: State, move: Move) -> tuple[State, list[Event]]:
    run, where = _asked(state, move, "board")
    p, li = move.player, run.line
    if move.args.get("line", where["line"]) != where["line"]:
        raise IllegalMove(f"the train at this stop is line {where['line']}'s", move)
    ls = state.lines[li]
    fare = board_info(state, move).cost
    state = state._replace(
        seats=set_seat(state, p, field=-1, riding=li, moved=False, yen=state.seats[p].yen - fare),
        lines=set_line(state, li, value=ls.value + fare), bank=state.bank + fare,
        run=_decided(run, p), last_run=_logged(state, fares=((p, li, fare),)))
    return advance(state, [Event("boarded", {"seat": p, "fare": fare, **where})])


def skip_moves(state: State, p: int) -> list[Move]:
    run = state.run
    return [quick_move("skip", p, {})] if run is not None and run.what == "board" else []


def skip(state: State, move: Move) -> tuple[State, list[Event]]:
    run, where = _asked(state, move, "board")
    state = state._replace(run=_decided(run, move.player))
    return advance(state, [Event("skipped", {"seat": move.player, **where})])


def ride_on_moves(state: State, p: int) -> list[Move]:
    """Staying in the train: the movement turn of a rider, or a rider's decision at a stop."""
    run = state.run
    if state.phase == MOVEMENT:
        return [quick_move("ride_on", p, {})] if state.seats[p].riding >= 0 else []
    return [quick_move("ride_on", p, {})] if run is not None and run.what == "alight" and not run.leaving else []


def ride_on(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    if state.phase == MOVEMENT:
        if state.seats[p].riding < 0:
            raise IllegalMove("ride_on is for a meeple in a train; yours is on the board", move)
        return next_mover(state), [Event("rode_on", {"seat": p})]
    run, where = _asked(state, move, "alight")
    if run.leaving:
        raise IllegalMove(f"train {where['line']} leaves the board here: everyone on it gets off", move)
    state = state._replace(run=_decided(run, p))
    return advance(state, [Event("rode_on", {"seat": p, **where})])


# --- getting off ------------------------------------------------------------------------------------

def _getting_off(state: State, p: int) -> str | tuple[int, list[int], bool]:
    """Why seat p cannot get off now (a reason), or (the station where its train stands, the fields
    it may get off onto, whether this is the decision the train phase waits for)."""
    seat = state.seats[p]
    if seat.riding < 0:
        return "your meeple is not in a train"
    run = state.run
    asked = run is not None and run.who == p and run.what == "alight"
    station = ride_station(state, p)
    if asked:
        fields = alight_fields(state, p, station)
        return station, fields or (nearest_free_fields(state, station) if run.leaving else []), True
    if run is not None and run.line == seat.riding:
        return (f"train {state.board.lines[run.line].letter} is moving now: its riders get off when the game asks "
                "them at a stop, in player order")
    if not seat.moved:
        return "you can get off only after the train has moved at least one stop since you boarded"
    return station, alight_fields(state, p, station), False


def alight_moves(state: State, p: int) -> list[Move]:
    if not 0 <= p < len(state.seats) or state.seats[p].riding < 0:
        return []
    found = _getting_off(state, p)
    return [] if isinstance(found, str) else [quick_move("alight", p, {"field": f}) for f in found[1]]


def alight(state: State, move: Move) -> tuple[State, list[Event]]:
    """Getting off a train: at any time (a free move), or when the train phase asks at a stop."""
    p = move.player
    found = _getting_off(state, p)
    if isinstance(found, str):
        raise IllegalMove(found, move)
    station, fields, asked = found
    board = state.board
    f = field_arg(state, move)
    if f not in fields:
        raise IllegalMove(f"get off onto a free field touching {board.stations[station].name}; "
                          f"{board.field_label(f)} is not one", move)
    li = state.seats[p].riding
    line = board.lines[li]
    state = state._replace(seats=set_seat(state, p, field=f, riding=-1, moved=False))
    if state.phase == TRAINS:  # not that train again at this station in this phase
        state = state._replace(barred=state.barred + ((p, station, li),))
    events = [Event("alighted", {"seat": p, "field": list(board.col_row(f)), "line": line.letter,
                                 "stop": line.label(state.lines[li].train), "station": board.stations[station].id})]
    if asked:
        return advance(state._replace(run=_decided(state.run, p)), events)
    return state, events
