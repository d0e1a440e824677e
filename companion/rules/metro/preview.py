"""TOKYO METRO: what the (rest of the) train phase will do, for the dashboard to show before the trains run."""
from __future__ import annotations

from .state import TRAINS, State, alight_fields
from .stock_column import station_bonus
from .trains import next_stop, stop_payout


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
            j, d = next_stop(line, i, d)
            i = j
            stops.append(j)
            circle = board.circles[line.stops[j]]
            station = line.stop_station[j]
            path.append({"stop": line.label(j), "station": board.stations[station].id, "circle": circle.id,
                         "x": circle.x, "y": circle.y, "dir": d})
            pay = stop_payout(state, li, j)
            bonus = station_bonus(state.drinks, station) if pay is not None and state.drinks is not None else None
            if bonus is not None:  # METRO DRINKS: the drink at the station pays its owner too
                pay = {**pay, "drink_colour": bonus[0], "drink_bonus": bonus[1]}
                owner_income[pay["owner"]] += bonus[1]
            if pay is not None:
                payouts.append(pay)
                owner_income[pay["owner"]] += pay["to_owner"]
                rise += pay["value"]
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
