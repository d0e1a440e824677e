"""TOKYO METRO train phase: trains move, stations pay, riders board and get off.

When the action phase ends, the game waits for the first player to start the train phase
(``run_trains``; the dashboard shows :func:`train_phase_preview` meanwhile). Then the trains move
in line order (G first), each 5 stops plus one per tempo token on its line, one stop at a time:

- the direction reverses on reaching a terminal (the train's arrow is turned on arrival);
- entering a stop of a station with a pyramid pays: +200 to the line's value and 200 yen to the
  owner, or +500 to the value (nothing to the owner) when the owner holds a share of the line; a
  line with two stops in one station pays at each of them;
- a train placed by ``start`` whose line still has no shareholder leaves the board when it comes
  back to stop 1 (after paying there); its riders get off there;
- at every stop (the starting stop too) the game asks, in player order, each rider of that train
  who may get off (the train moved at least one stop since they boarded, and a free field touches
  the station) - moves ``alight {field}`` or ``ride_on`` - and each player whose meeple touches the
  station and who did not get off there earlier in this phase - moves ``board {line}`` or ``skip``.
  Boarding costs 100 yen, which go to the bank and onto the line's value, unless the rider holds a
  share of the line.

Stops where nobody can decide anything are passed without asking, so a phase without riders is
applied in one move.
"""
from __future__ import annotations

from ..engine import Event, IllegalMove, Move
from .state import (TRAINS, RunLog, State, TrainRun, alight_fields, field_arg, nearest_free_fields, seat_arg, seat_label,
                    set_line, set_seat, start_next_round)


def _mk(kind: str, player: int, args: dict) -> Move:
    move = object.__new__(Move)
    object.__setattr__(move, "kind", kind)
    object.__setattr__(move, "player", player)
    object.__setattr__(move, "args", args)
    return move


def _new_run(state: State, line: int, barred: tuple) -> TrainRun:
    total = state.options.steps + state.lines[line].tempo if line < len(state.lines) else 0
    return TrainRun(line=line, steps=0, total=total, barred=barred)


def _logged(state: State, **more) -> RunLog:
    """The train phase's log with one more payout, fare or departure."""
    log = state.last_run if state.last_run is not None and state.last_run.round == state.round else RunLog(state.round)
    return log._replace(**{k: getattr(log, k) + v for k, v in more.items()})


def start(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_arg(state, move)
    first = state.order[0]
    if state.run is not None:
        raise IllegalMove("the train phase is running already", move)
    if p != first:
        raise IllegalMove(f"{seat_label(state, first)}, first in player order, starts the train phase", move)
    state = state._replace(run=_new_run(state, 0, ()), last_run=RunLog(state.round))
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
            state = state._replace(run=_new_run(state, li + 1, run.barred))
            continue
        who, what = _decider(state)
        if who >= 0:
            return state._replace(run=run._replace(who=who, what=what)), events
        if run.leaving:
            state = state._replace(lines=set_line(state, li, train=-1, dir=1),
                                   run=_new_run(state, li + 1, run.barred), last_run=_logged(state, left=(li,)))
            events.append(Event("train_left", {"line": lines[li].letter}))
            continue
        if run.steps >= run.total:
            state = state._replace(run=_new_run(state, li + 1, run.barred))
            continue
        state = _step(state, events)


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
        elif (not run.leaving and seat.riding < 0 and seat.field in fieldset and (s, station) not in run.barred
              and (s in ls.holders or seat.yen >= fare)):
            return s, "board"
    return -1, ""


def _step(state: State, events: list[Event]) -> State:
    run = state.run
    li = run.line
    line, ls = state.board.lines[li], state.lines[li]
    i, d = ls.train, ls.dir
    j = i + d
    if j < 0 or j >= len(line.stops):
        d = -d
        j = i + d
    if j == 0 or j == len(line.stops) - 1:
        d = -d  # the arrow is turned on reaching a terminal
    value, bank = ls.value, state.bank
    seats = state.seats
    if any(s.riding == li for s in seats):
        seats = tuple(s._replace(moved=True) if s.riding == li else s for s in seats)
    events.append(Event("train_moved", {"line": line.letter, "from": line.label(i), "to": line.label(j), "dir": d}))
    station = line.stop_station[j]
    owner = state.pyramids[station]
    last_run = state.last_run
    if owner >= 0:
        opts = state.options
        if owner in ls.holders:
            value += opts.holder_value
            events.append(Event("station_payout", {"line": line.letter, "stop": line.label(j),
                                                   "station": state.board.stations[station].id, "owner": owner,
                                                   "to_owner": 0, "value": opts.holder_value}))
            last_run = _logged(state, payouts=((li, j, owner, 0, opts.holder_value),))
        else:
            value += opts.owner_payout
            bank -= opts.owner_payout
            seats = list(seats)
            seats[owner] = seats[owner]._replace(yen=seats[owner].yen + opts.owner_payout)
            seats = tuple(seats)
            events.append(Event("station_payout", {"line": line.letter, "stop": line.label(j),
                                                   "station": state.board.stations[station].id, "owner": owner,
                                                   "to_owner": opts.owner_payout, "value": opts.owner_payout}))
            last_run = _logged(state, payouts=((li, j, owner, opts.owner_payout, opts.owner_payout),))
    leaving = j == 0 and not ls.holders
    lines = list(state.lines)
    lines[li] = ls._replace(train=j, dir=d, value=value)
    return state._replace(seats=seats, lines=tuple(lines), bank=bank, last_run=last_run,
                          run=run._replace(steps=run.steps + 1, asked=(), leaving=leaving))


def _alight_options(state: State, p: int) -> list[int]:
    run = state.run
    station = state.board.lines[run.line].stop_station[state.lines[run.line].train]
    fields = alight_fields(state, p, station)
    if not fields and run.leaving:
        fields = nearest_free_fields(state, station)
    return fields


def decision_moves(state: State, p: int) -> list[Move]:
    run = state.run
    if run is None:
        return [_mk("run_trains", p, {})] if p == state.order[0] else []
    if p != run.who:
        return []
    if run.what == "board":
        return [_mk("board", p, {"line": state.board.lines[run.line].letter}), _mk("skip", p, {})]
    moves = [_mk("alight", p, {"field": f}) for f in _alight_options(state, p)]
    if not run.leaving:
        moves.append(_mk("ride_on", p, {}))
    return moves


def apply_train_phase(state: State, move: Move) -> tuple[State, list[Event]]:
    if move.kind == "run_trains":
        return start(state, move)
    p = seat_arg(state, move)
    run = state.run
    if run is None:
        first = state.order[0]
        raise IllegalMove(f"the train phase has not started: {seat_label(state, first)} starts it (run_trains)", move)
    if p != run.who:
        raise IllegalMove(f"the train phase waits for {seat_label(state, run.who)} to decide whether to "
                          f"{'board' if run.what == 'board' else 'get off'}", move)
    board = state.board
    li = run.line
    line, ls = board.lines[li], state.lines[li]
    station = line.stop_station[ls.train]
    where = {"line": line.letter, "stop": line.label(ls.train), "station": board.stations[station].id}
    asked = run.asked + (p,)
    kind = move.kind
    if run.what == "board":
        if kind == "skip":
            state = state._replace(run=run._replace(asked=asked, who=-1, what=""))
            return advance(state, [Event("skipped", {"seat": p, **where})])
        if kind != "board":
            raise IllegalMove(f"{seat_label(state, p)} may board train {line.letter} here (board) or not (skip)", move)
        if move.args.get("line", line.letter) != line.letter:
            raise IllegalMove(f"the train at this stop is line {line.letter}'s", move)
        seat = state.seats[p]
        fare = 0 if p in ls.holders else state.options.fare
        state = state._replace(
            seats=set_seat(state, p, field=-1, riding=li, moved=False, yen=seat.yen - fare),
            lines=set_line(state, li, value=ls.value + fare), bank=state.bank + fare,
            run=run._replace(asked=asked, who=-1, what=""), last_run=_logged(state, fares=((p, li, fare),)))
        return advance(state, [Event("boarded", {"seat": p, "fare": fare, **where})])
    if kind == "ride_on":
        if run.leaving:
            raise IllegalMove(f"train {line.letter} leaves the board here: everyone on it gets off", move)
        state = state._replace(run=run._replace(asked=asked, who=-1, what=""))
        return advance(state, [Event("rode_on", {"seat": p, **where})])
    if kind != "alight":
        raise IllegalMove(f"{seat_label(state, p)} may get off here (alight) or stay on (ride_on)", move)
    f = field_arg(state, move)
    options = _alight_options(state, p)
    if f not in options:
        raise IllegalMove(f"get off onto a free field touching {board.stations[station].name}; "
                          f"{board.field_label(f)} is not one", move)
    state = state._replace(seats=set_seat(state, p, field=f, riding=-1, moved=False),
                           run=run._replace(asked=asked, who=-1, what="", barred=run.barred + ((p, station),)))
    return advance(state, [Event("alighted", {"seat": p, "field": list(board.col_row(f)), **where})])


# --- the preview ------------------------------------------------------------------------------------

def train_phase_preview(state: State) -> dict:
    """What the (rest of the) train phase will do: each train's path and every payout it triggers,
    where each rider could get off, and where each meeple could board. Riders' choices do not change
    paths or payouts; fares (100 per rider without a share) add to the line values on top."""
    board, opts = state.board, state.options
    run = state.run if state.phase == TRAINS else None
    first = run.line if run is not None else 0
    trains, value_rise, owner_income = [], {}, [0] * len(state.seats)
    paths: dict[int, list[int]] = {}
    for li in range(first, len(board.lines)):
        ls, line = state.lines[li], board.lines[li]
        if ls.train < 0:
            continue
        if run is not None and li == run.line:
            steps = 0 if run.leaving else run.total - run.steps
        else:
            steps = opts.steps + ls.tempo
        i, d = ls.train, ls.dir
        path, payouts, stops, leaves = [], [], [i], False
        rise = 0
        for _ in range(steps):
            j = i + d
            if j < 0 or j >= len(line.stops):
                d = -d
                j = i + d
            if j == 0 or j == len(line.stops) - 1:
                d = -d
            i = j
            stops.append(j)
            circle = board.circles[line.stops[j]]
            station = line.stop_station[j]
            path.append({"stop": line.label(j), "station": board.stations[station].id, "circle": circle.id,
                         "x": circle.x, "y": circle.y, "dir": d})
            owner = state.pyramids[station]
            if owner >= 0:
                holder = owner in ls.holders
                to_owner = 0 if holder else opts.owner_payout
                value = opts.holder_value if holder else opts.owner_payout
                payouts.append({"stop": line.label(j), "station": board.stations[station].id, "owner": owner,
                                "to_owner": to_owner, "value": value})
                owner_income[owner] += to_owner
                rise += value
            if j == 0 and not ls.holders:
                leaves = True
                break
        start_circle = board.circles[line.stops[ls.train]]
        trains.append({"line": line.letter, "colour": line.colour, "from": line.label(ls.train),
                       "x": start_circle.x, "y": start_circle.y, "dir": ls.dir, "steps": steps,
                       "path": path, "payouts": payouts, "value_rise": rise, "leaves": leaves,
                       "riders": [p for p, s in enumerate(state.seats) if s.riding == li]})
        value_rise[line.letter] = rise
        paths[li] = stops
    riders, boarding = [], []
    for p, seat in enumerate(state.seats):
        if seat.riding >= 0 and seat.riding in paths:
            li = seat.riding
            line = board.lines[li]
            stops = paths[li] if seat.moved else paths[li][1:]
            choices = []
            for j in stops:
                station = line.stop_station[j]
                fields = alight_fields(state, p, station)
                choices.append({"stop": line.label(j), "station": board.stations[station].id,
                                "fields": [list(board.col_row(f)) for f in fields]})
            riders.append({"seat": p, "line": line.letter, "choices": choices})
        elif seat.riding < 0 and seat.field >= 0:
            for li, stops in paths.items():
                line = board.lines[li]
                for j in stops:
                    station = line.stop_station[j]
                    if seat.field in board.station_fieldsets[station]:
                        boarding.append({"seat": p, "line": line.letter, "stop": line.label(j),
                                         "station": board.stations[station].id,
                                         "fare": 0 if p in state.lines[li].holders else opts.fare})
    return {"trains": trains, "value_rise": value_rise, "owner_income": owner_income,
            "riders": riders, "boarding": boarding}
