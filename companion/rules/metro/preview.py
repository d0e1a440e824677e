"""TOKYO METRO: what the (rest of the) train phase will do, for the dashboard to show before the trains run."""
from __future__ import annotations

from .state import TRAINS, State, alight_fields, place_fields, place_id, stop_place
from .stock_column import station_bonus
from .trains import leaves_at, next_stop, stop_payout
from .vehicles import positions


def train_phase_preview(state: State) -> dict:
    """What the (rest of the) train phase will do: each train's path and every payout it triggers,
    where each rider could get off, and where each meeple could board. Riders' choices do not change
    paths or payouts; fares (100 per rider without a share) add to the line values on top."""
    board, opts = state.board, state.options
    run = state.run if state.phase == TRAINS else None
    first = run.line if run is not None else 0
    trains, value_rise, owner_income = [], {}, [0] * len(state.seats)
    paths: dict[tuple[int, int], list[int]] = {}  # (line, vehicle): its stops this phase
    for li in range(first, len(board.lines)):
        ls, line = state.lines[li], board.lines[li]
        if ls.train < 0:
            continue
        if run is not None and li == run.line:
            steps = 0 if run.leaving else run.total - run.steps
        else:
            steps = opts.steps + ls.tempo
        rise = 0
        for v, start, d in positions(line, ls):   # a pair of trams or buses: each its own path
            i = start
            path, payouts, stops, leaves = [], [], [i], False
            for _ in range(steps):
                j, d = next_stop(line, i, d)
                i = j
                stops.append(j)
                circle = board.circles[line.stops[j]]
                path.append({"stop": line.label(j), "station": place_id(board, stop_place(board, li, j)),
                             "small_stop": circle.station < 0, "circle": circle.id, "x": circle.x, "y": circle.y,
                             "dir": d})
                pay = stop_payout(state, li, j)
                bonus = (station_bonus(state.drinks, line.stop_station[j])
                         if pay is not None and state.drinks is not None else None)
                if bonus is not None:  # METRO DRINKS: the drink at the station pays its owner too
                    pay = {**pay, "drink_colour": bonus[0], "drink_bonus": bonus[1]}
                    owner_income[pay["owner"]] += bonus[1]
                if pay is not None:
                    payouts.append(pay)
                    owner_income[pay["owner"]] += pay["to_owner"]
                    rise += pay["value"]
                if v == 0 and leaves_at(state, li, j):
                    leaves = True
                    break
            start_circle = board.circles[line.stops[start]]
            trains.append({"line": line.letter, "colour": line.colour, "vehicle": line.vehicle, "vehicle_index": v,
                           "from": line.label(start), "x": start_circle.x, "y": start_circle.y,
                           "dir": ls.second_dir if v else ls.dir, "steps": steps, "path": path, "payouts": payouts,
                           "value_rise": sum(p["value"] for p in payouts), "leaves": leaves,
                           "riders": [p for p, s in enumerate(state.seats) if s.riding == li and s.vehicle == v]})
            paths[(li, v)] = stops
        value_rise[line.letter] = rise
    riders, boarding = [], []
    for p, seat in enumerate(state.seats):
        if seat.riding >= 0 and (seat.riding, seat.vehicle) in paths:
            li = seat.riding
            line = board.lines[li]
            stops = paths[(li, seat.vehicle)] if seat.moved else paths[(li, seat.vehicle)][1:]
            choices = []
            for j in stops:
                place = stop_place(board, li, j)
                fields = alight_fields(state, p, place)
                choices.append({"stop": line.label(j), "station": place_id(board, place),
                                "fields": [list(board.col_row(f)) for f in fields]})
            riders.append({"seat": p, "line": line.letter, "vehicle_index": seat.vehicle, "choices": choices})
        elif seat.riding < 0 and seat.field >= 0:
            for (li, v), stops in paths.items():
                line = board.lines[li]
                for j in stops:
                    place = stop_place(board, li, j)
                    if seat.field in place_fields(board, place):
                        boarding.append({"seat": p, "line": line.letter, "vehicle_index": v, "stop": line.label(j),
                                         "station": place_id(board, place),
                                         "fare": 0 if p in state.lines[li].holders else opts.fare})
    return {"trains": trains, "value_rise": value_rise, "owner_income": owner_income,
            "riders": riders, "boarding": boarding}
