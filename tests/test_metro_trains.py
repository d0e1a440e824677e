"""The TOKYO METRO train phase on a small test board, and on the default board.

The test board (12 x 6 fields; circles sit on field corners, touching up to 4 fields)::

    G:  g1 - g2 - big/1 - big/2 - g5 - cross - g7     (G has stops 3 and 4 in station "big")
    T:  t1 - big/1 - big/2 - t4                       (the rule book's H6-H7 / T6-T7 case)
    M:  m1 - m2 - cross                               (shares circle "cross" with G)
    H:  h1 - h2                                       (two stops: it reverses at every step)
"""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.engine import Move, Pending
from companion.rules.metro import game as metro, playout
from companion.rules.metro.state import ACTIONS, DEAL, TRAINS
from test_metro_support import (NAMES, apply, assert_illegal, bid_all, check_invariants, deal_all, line, new_game,
                                to_actions, with_line, with_seat, with_turn)

COLS, ROWS = 12, 6
POINTS = {"g1": (1, 1), "g2": (3, 1), "big-1": (5, 1), "big-2": (6, 1), "g5": (8, 1), "cross": (10, 1),
          "g7": (11, 3), "t1": (5, 3), "t4": (6, 3), "m1": (10, 5), "m2": (9, 3), "h1": (1, 4), "h2": (3, 4)}
STATIONS = {"west": ["g1"], "g2": ["g2"], "big": ["big-1", "big-2"], "g5": ["g5"], "cross": ["cross"],
            "g7": ["g7"], "t1": ["t1"], "t4": ["t4"], "m1": ["m1"], "m2": ["m2"], "h1": ["h1"], "h2": ["h2"]}
LINES = {"G": ["g1", "g2", "big-1", "big-2", "g5", "cross", "g7"], "M": ["m1", "m2", "cross"],
         "H": ["h1", "h2"], "T": ["t1", "big-1", "big-2", "t4"]}
PARK = [(0, 5), (11, 5), (4, 5)]   # fields touching no circle


def corner_fields(x, y):
    return [[c, r] for r in (y - 1, y) for c in (x - 1, x) if 0 <= c < COLS and 0 <= r < ROWS]


def make_board():
    return {
        "format": "tokyo-table-companion/metro-board", "version": 1, "name": "test board",
        "grid": {"cols": COLS, "rows": ROWS}, "start_area": {"col": 0, "row": 0, "cols": COLS, "rows": ROWS},
        "lines": [{"letter": k, "name": k, "colour": "#123456", "shares": 3, "disc_spaces": 3, "stops": v}
                  for k, v in LINES.items()],
        "stations": [{"id": sid, "name": sid.title(), "circles": [
            {"id": c, "x": POINTS[c][0], "y": POINTS[c][1], "fields": corner_fields(*POINTS[c])} for c in circles]}
            for sid, circles in STATIONS.items()],
    }


def make_deck():
    def cards(prefix):
        return [{"id": f"{prefix}{i}", "dots": 1, "actions": [{"kind": "discount", "spaces": 1, "amount": 100}]}
                for i in range(1, 4)]
    return {"format": "tokyo-table-companion/metro-action-cards", "version": 1,
            "sets": [{"id": "GM", "colours": ["G", "M"], "cards": cards("X")},
                     {"id": "HT", "colours": ["H", "T"], "cards": cards("Y")}]}


def make_stock():
    return {"format": "tokyo-table-companion/metro-stock-cards", "version": 1,
            "cards": [{"line": k, "number": n, "surcharge": 300 * (n - 1)} for k in LINES for n in (1, 2, 3)]}


OPTIONS = {"board": make_board(), "action_cards": make_deck(), "stock_cards": make_stock()}


def trains_waiting(n=2, rules=1, **options):
    """The test board's round 1 (under rules version ``rules``), every meeple parked away from the
    lines, waiting for run_trains."""
    state = to_actions(metro.setup({"names": NAMES[:n], "options": {**OPTIONS, **options}, "rules": rules}))
    for p in range(n):
        state = with_seat(state, p, field=state.board.field(*PARK[p]))
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    assert state.phase == TRAINS and state.run is None
    return state


def F(state, col, row):
    return state.board.field(col, row)


def sid(state, station):
    return state.board.station_index[station]


def with_pyramid(state, station, owner):
    pyramids = list(state.pyramids)
    pyramids[sid(state, station)] = owner
    seats = list(state.seats)
    seats[owner] = seats[owner]._replace(pyramids=seats[owner].pyramids - 1)
    return state._replace(pyramids=tuple(pyramids), seats=tuple(seats))


def run(state):
    return metro.apply(state, Move("run_trains", state.order[0], {}))


def moved(events, letter):
    return [(e.data["from"], e.data["to"]) for e in events if e.kind == "train_moved" and e.data["line"] == letter]


# --- movement ------------------------------------------------------------------------------------------

def test_the_first_player_starts_the_train_phase():
    state = trains_waiting()
    assert metro.pending(state) == [Pending(state.order[0])]
    assert [m.kind for m in metro.legal_moves(state, state.order[0])] == ["run_trains"]
    assert_illegal(state, Move("run_trains", state.order[1], {}), "first in player order")


def test_a_train_moves_five_stops_and_reverses_at_the_terminal_mid_move():
    state = with_line(trains_waiting(), "G", train=4, dir=1, holders=(0,), value=1000)
    state, events = run(state)
    assert moved(events, "G") == [("G5", "G6"), ("G6", "G7"), ("G7", "G6"), ("G6", "G5"), ("G5", "G4")]
    assert line(state, "G").train == 3 and line(state, "G").dir == -1


def test_a_two_stop_line_reverses_at_every_step():
    state = with_line(trains_waiting(), "H", train=0, dir=1, holders=(1,))
    state, events = run(state)
    assert moved(events, "H") == [("H1", "H2"), ("H2", "H1"), ("H1", "H2"), ("H2", "H1"), ("H1", "H2")]
    assert line(state, "H").train == 1 and line(state, "H").dir == -1


def test_trains_move_in_line_order_and_trains_off_the_board_do_not_move():
    state = trains_waiting()
    state = with_line(with_line(state, "T", train=0, holders=(0,)), "G", train=0, holders=(1,))
    state, events = run(state)
    order = [e.data["line"] for e in events if e.kind == "train_moved"]
    assert order == ["G"] * 5 + ["T"] * 5
    assert line(state, "M").train == -1 and line(state, "H").train == -1


def test_two_trains_may_stand_on_the_same_stop_and_each_pays_there():
    state = trains_waiting()
    state = with_line(state, "G", train=0, dir=1, holders=(1,))     # g1 -> ... -> cross (G6) after 5
    state = with_line(state, "M", train=0, dir=1, holders=(1,))     # m1 -> m2 -> cross (M3) ...
    state = with_pyramid(state, "cross", 0)
    yen = state.seats[0].yen
    state, events = run(state)
    g, m = line(state, "G"), line(state, "M")
    assert state.board.lines[0].stops[g.train] == state.board.lines[1].stops[2]   # G stands on "cross"
    payouts = [(e.data["line"], e.data["stop"]) for e in events if e.kind == "station_payout"]
    # G enters cross at its 5th step; M (3 stops: m1 m2 cross m2 m1 m2) at its 2nd
    assert payouts == [("G", "G6"), ("M", "M3")]
    assert state.seats[0].yen == yen + 400
    assert (g.value, m.value) == (200, 200)


def test_a_line_with_two_stops_in_one_station_pays_at_each():
    """Worked example: 000 TOKYO METRO, Zugphase (Sonderfall). A line with several stops in one
    station (the book names H6-H7 and T6-T7) pays at each one; here on the test board's T2-T3."""
    state = trains_waiting()
    state = with_line(state, "T", train=0, dir=1, holders=(1,))     # t1 -> big/1 -> big/2 -> t4 -> big/2 -> big/1
    state = with_pyramid(state, "big", 0)
    yen = state.seats[0].yen
    state, events = run(state)
    stops = [e.data["stop"] for e in events if e.kind == "station_payout"]
    assert stops == ["T2", "T3", "T3", "T2"]
    assert state.seats[0].yen == yen + 800 and line(state, "T").value == 800


def test_payout_is_200_to_the_owner_or_500_to_the_value_when_the_owner_holds_a_share():
    state = trains_waiting()
    state = with_line(state, "G", train=0, dir=1, holders=(0,), value=1000)   # seat 0 holds a G share
    state = with_line(state, "T", train=0, dir=1, holders=(1,))
    state = with_pyramid(state, "g2", 0)
    state = with_pyramid(state, "t4", 0)
    yen, bank = state.seats[0].yen, state.bank
    state, events = run(state)
    # G enters g2 once (owner holds G: +500 to G, nothing to the owner); T enters t4 once (+200 and 200)
    assert line(state, "G").value == 1000 + 500
    assert line(state, "T").value == 200
    assert state.seats[0].yen == yen + 200 and state.bank == bank - 200
    check_invariants(state)


def test_a_started_train_without_a_share_leaves_when_back_at_stop_one():
    state = with_line(trains_waiting(), "H", train=1, dir=-1, value=300)   # started, nobody holds H
    state = with_pyramid(state, "h1", 0)
    yen = state.seats[0].yen
    state, events = run(state)
    assert moved(events, "H") == [("H2", "H1")]
    assert [e.kind for e in events if e.data.get("line") == "H"][-1] == "train_left"
    assert line(state, "H").train == -1 and line(state, "H").value == 500
    assert state.seats[0].yen == yen + 200          # it paid at stop 1 before leaving


def test_a_train_with_a_share_stays_on_the_board():
    state = with_line(trains_waiting(), "H", train=1, dir=-1, value=300, holders=(0,))
    state, _ = run(state)
    assert line(state, "H").train >= 0


# --- riders ------------------------------------------------------------------------------------------------

def rider_setup():
    """Seat 0 stands by g1 (touching G1), seat 1 by h1; G's train at G1 heading on, nobody holds G."""
    state = trains_waiting()
    state = with_line(state, "G", train=0, dir=1, holders=(1,), value=500)
    state = with_seat(state, 0, field=F(state, 0, 0))          # touches circle g1 only
    return state


def test_boarding_at_the_starting_stop_costs_100_into_the_line_unless_holding_a_share():
    state = rider_setup()
    state, _ = run(state)
    assert metro.pending(state) == [Pending(0)] and state.run.what == "board"
    assert {m.kind for m in metro.legal_moves(state, 0)} == {"board", "skip"}
    assert metro.move_info(state, Move("board", 0, {"line": "G"})).cost == 100
    bank, yen = state.bank, state.seats[0].yen
    state, events = metro.apply(state, Move("board", 0, {"line": "G"}))
    assert state.seats[0].riding == 0 and state.seats[0].field == -1
    assert state.seats[0].yen == yen - 100 and state.bank == bank + 100
    assert line(state, "G").value >= 600
    check_invariants(state)


def test_a_rider_gets_off_after_at_least_one_stop_on_a_free_field_touching_the_station():
    state = rider_setup()
    state, _ = run(state)
    state, events = metro.apply(state, Move("board", 0, {"line": "G"}))
    # next stop G2: the rider may get off (the train moved one stop)
    assert state.run.what == "alight" and metro.pending(state) == [Pending(0)]
    fields = sorted(m.args["field"] for m in metro.legal_moves(state, 0) if m.kind == "alight")
    assert fields == sorted(F(state, c, r) for c, r in corner_fields(3, 1))
    assert "ride_on" in {m.kind for m in metro.legal_moves(state, 0)}
    assert_illegal(state, Move("alight", 0, {"field": F(state, 0, 5)}), "touching")
    state = apply(state, Move("ride_on", 0, {}))               # stay on to big/1 (G3)
    assert state.run.what == "alight"
    target = F(state, 5, 0)                                    # touches big/2 only: any circle of the station counts
    assert target in [m.args["field"] for m in metro.legal_moves(state, 0) if m.kind == "alight"]
    state, events = metro.apply(state, Move("alight", 0, {"field": target}))
    assert state.seats[0].field == target and state.seats[0].riding == -1
    # alighted at "big" (G3): G goes on to big/2 (G4), which seat 0 touches, and seat 0 is not asked
    # to board there again in this phase; nobody else has a choice, so the phase ends
    assert [e.data["to"] for e in events if e.kind == "train_moved"] == ["G4", "G5", "G6"]
    assert state.run is None and state.phase == DEAL
    check_invariants(state)


def test_no_reboarding_at_the_station_where_one_got_off_in_the_same_phase():
    """Rules version 1 (games stored before the correction): after getting off, no train at all
    is boarded at that station in the same train phase."""
    state = trains_waiting()
    state = with_line(state, "G", train=1, dir=1, holders=(1,), value=500)      # G2 -> big/1 ... G7 -> G6
    state = with_line(state, "T", train=0, dir=1, holders=(1,))                 # T passes big later
    state = with_seat(state, 0, field=-1, riding=0, moved=True)
    state, _ = run(state)
    assert state.run.what == "alight"             # at the starting stop G2, the rider may get off
    state = apply(state, Move("ride_on", 0, {}))
    state = apply(state, Move("alight", 0, {"field": F(state, 4, 0)}))          # off at big (G3)
    # T reaches big/1 and big/2: seat 0 touches big but got off there this phase -> not asked
    while state.phase == TRAINS and state.run is not None:
        assert state.run.who != 0, "asked to board where they got off"
        state = apply(state, metro.legal_moves(state, state.run.who)[-1])
    # in the next train phase boarding there is allowed again
    assert state.phase == DEAL
    state = deal_all(state)
    state = bid_all(state, [0, 0])
    for p in state.order:
        state = apply(state, Move("walk", p, {"field": state.seats[p].field}))
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    state, _ = run(state)
    asked = set()
    while state.phase == TRAINS and state.run is not None:
        asked.add((state.run.who, state.run.what, state.board.lines[state.run.line].letter))
        state = apply(state, metro.legal_moves(state, state.run.who)[-1])
    assert (0, "board", "T") in asked


def test_decisions_at_one_stop_are_made_in_player_order():
    state = trains_waiting(3)
    state = with_line(state, "G", train=0, dir=1, holders=(2,))
    state = with_seat(state, 0, field=F(state, 1, 0))     # both touch g1
    state = with_seat(state, 1, field=F(state, 0, 1))
    state = state._replace(order=(1, 0, 2))
    state, _ = run(state)
    assert state.run.who == 1
    state = apply(state, Move("skip", 1, {}))
    assert state.run.who == 0 and state.run.what == "board"


def test_several_meeples_ride_one_train_and_may_stay_on_between_rounds():
    state = trains_waiting(3)
    state = with_line(state, "G", train=0, dir=1, holders=(2,))
    state = with_seat(state, 0, field=F(state, 1, 0))
    state = with_seat(state, 1, field=F(state, 0, 1))
    state = state._replace(order=(0, 1, 2))
    state, _ = run(state)
    state = apply(state, Move("board", 0, {"line": "G"}))
    state = apply(state, Move("board", 1, {"line": "G"}))
    while state.phase == TRAINS:
        state = apply(state, next(m for m in metro.legal_moves(state, state.run.who) if m.kind in ("ride_on", "skip")))
    assert [s.riding for s in state.seats[:2]] == [0, 0]
    assert metro.view(state, None)["lines"][0]["riders"] == [0, 1]
    check_invariants(state)


def test_a_share_holder_rides_free():
    state = rider_setup()
    state = with_line(state, "G", holders=(0,))
    state, _ = run(state)
    yen, value = state.seats[0].yen, line(state, "G").value
    state = apply(state, Move("board", 0, {"line": "G"}))
    assert state.seats[0].yen == yen and line(state, "G").value == value


def test_riders_of_a_leaving_train_get_off_at_stop_one():
    state = with_line(trains_waiting(), "H", train=1, dir=-1, value=300)
    state = with_seat(state, 0, field=-1, riding=2, moved=False)
    state, _ = run(state)
    # at the start stop H2 the rider has not moved yet; at H1 the train leaves and the rider must get off
    assert state.run.what == "alight" and state.run.leaving
    kinds = {m.kind for m in metro.legal_moves(state, 0)}
    assert kinds == {"alight"}
    assert_illegal(state, Move("ride_on", 0, {}), "leaves the board")
    f = metro.legal_moves(state, 0)[0].args["field"]
    state = apply(state, Move("alight", 0, {"field": f}))
    assert state.seats[0].field == f and line(state, "H").train == -1
    check_invariants(state)


def test_preview_lists_paths_payouts_and_riders_choices_matching_the_phase():
    state = trains_waiting()
    state = with_line(state, "G", train=4, dir=1, holders=(1,), value=1000)
    state = with_line(state, "T", train=0, dir=1, holders=(0,))
    state = with_line(state, "H", train=1, dir=-1, value=300)
    state = with_pyramid(state, "big", 0)
    state = with_pyramid(state, "h1", 1)
    state = with_seat(state, 1, field=-1, riding=0, moved=True)
    preview = metro.train_phase_preview(state)
    g = next(t for t in preview["trains"] if t["line"] == "G")
    assert [p["stop"] for p in g["path"]] == ["G6", "G7", "G6", "G5", "G4"]
    assert [p["dir"] for p in g["path"]] == [1, -1, -1, -1, -1]
    assert g["payouts"] == [{"stop": "G4", "station": "big", "owner": 0, "to_owner": 200, "value": 200}]
    t = next(t for t in preview["trains"] if t["line"] == "T")
    assert [p["stop"] for p in t["payouts"]] == ["T2", "T3", "T3", "T2"] and all(p["to_owner"] == 0 for p in t["payouts"])
    h = next(t for t in preview["trains"] if t["line"] == "H")
    assert h["leaves"] and [p["stop"] for p in h["path"]] == ["H1"]
    assert preview["owner_income"] == [200, 200]
    (rider,) = preview["riders"]
    assert rider["seat"] == 1 and rider["line"] == "G"
    assert [c["stop"] for c in rider["choices"]] == ["G5", "G6", "G7", "G6", "G5", "G4"]
    assert all(c["fields"] for c in rider["choices"])
    # the phase does what the preview said
    yen = [s.yen for s in state.seats]
    state, events = run(state)
    while state.phase == TRAINS:
        state, more = metro.apply(state, next(m for m in metro.legal_moves(state, state.run.who)
                                              if m.kind in ("ride_on", "skip")))
        events += more
    paid = [(e.data["line"], e.data["stop"]) for e in events if e.kind == "station_payout"]
    assert paid == [(tr["line"], p["stop"]) for tr in preview["trains"] for p in tr["payouts"]]
    assert [s.yen - y for s, y in zip(state.seats, yen)] == preview["owner_income"]


def test_preview_lists_where_meeples_could_board():
    state = rider_setup()
    preview = metro.train_phase_preview(state)
    assert {"seat": 0, "line": "G", "vehicle_index": 0, "stop": "G1", "station": "west", "fare": 100} in preview["boarding"]


def test_decisions_refuse_the_wrong_player_and_wrong_moves():
    state = rider_setup()
    state, _ = run(state)
    assert_illegal(state, Move("board", 1, {"line": "G"}), "waits for")
    assert_illegal(state, Move("ride_on", 0, {}), "board")
    assert_illegal(state, Move("board", 0, {"line": "M"}), "line g")


def test_train_phase_on_the_default_board_with_every_train_running():
    state = to_actions(new_game(4))
    for ln in state.board.lines:
        state = with_line(state, ln.letter, train=0, dir=1, holders=(ln.index % 4,), value=500)
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    state, events = run(state)
    while state.phase == TRAINS:
        state, more = metro.apply(state, metro.legal_moves(state, state.run.who)[-1])
        events += more
    assert all(ls.train == 5 for ls in state.lines)
    assert len([e for e in events if e.kind == "train_moved"]) == 60
    check_invariants(state)


# --- what the last train phase paid (the view's last_run) -----------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10_000))
def test_last_run_says_what_each_train_phase_paid_as_its_events_did(players, seed):
    rng = random.Random(seed)
    state = metro.setup({"names": ["A", "B", "C", "D", "E"][:players]})
    events: list = []
    phases = 0
    while state.phase != "over":
        was = state.phase, state.round
        state, new = metro.apply(state, playout.policy_move(metro.GAME, state, rng))
        if was[0] == TRAINS:
            events += new
        if was[0] == TRAINS and (state.phase != TRAINS or state.round != was[1]):
            phases += 1
            last = metro.view(state, None)["last_run"]
            assert last["round"] == was[1] and last["done"]
            pays = [e.data for e in events if e.kind == "station_payout"]
            assert [(p["line"], p["stop"], p["owner"], p["to_owner"], p["value"]) for p in last["payouts"]] == \
                [(p["line"], p["stop"], p["owner"], p["to_owner"], p["value"]) for p in pays]
            income = [0] * players
            for p in pays:
                income[p["owner"]] += p["to_owner"]
            assert last["owner_income"] == income
            boarded = [e.data for e in events if e.kind == "boarded"]
            assert [(f["seat"], f["line"], f["fare"]) for f in last["fares"]] == \
                [(b["seat"], b["line"], b["fare"]) for b in boarded]
            assert last["left"] == [e.data["line"] for e in events if e.kind == "train_left"]
            events = []
    assert phases == state.rules.rounds


# --- corrected in rules version 2 (docs/rules-notes.md) ----------------------------------------------------

def riding(state, p, letter, stop, moved=True):
    """Seat p rides the train of line ``letter``, which stands at stop index ``stop``."""
    state = with_line(state, letter, train=stop, dir=1, holders=(1,), value=500)
    return with_seat(state, p, field=-1, riding=state.board.line_index[letter], moved=moved)


def test_a_rider_may_change_trains_at_an_interchange_in_one_train_phase():
    """000 TOKYO METRO, Zugphase: a player may ride several trains in one round; what waits for the
    following train phase is boarding again the train one got off, at that station. Seat 0 leaves
    G at "big" and boards T there; G, entering "big" again at its next stop, does not ask it."""
    state = trains_waiting(rules=2)
    state = with_line(state, "T", train=0, dir=1, holders=(1,))                 # T passes big after G
    state = riding(state, 0, "G", 1)                                            # G2 -> big/1 (G3) -> big/2 ...
    state, _ = run(state)
    state = apply(state, Move("ride_on", 0, {}))                                # at the starting stop G2
    state, events = metro.apply(state, Move("alight", 0, {"field": F(state, 4, 0)}))   # off at big (G3)
    assert "G4" in [e.data["to"] for e in events if e.kind == "train_moved"]    # big/2: not asked by G
    assert (state.run.who, state.run.what, state.board.lines[state.run.line].letter) == (0, "board", "T")
    state = apply(state, Move("board", 0, {"line": "T"}))
    assert state.seats[0].riding == state.board.line_index["T"]
    check_invariants(state)


def test_a_rider_may_get_off_at_any_time_also_in_another_players_turn():
    """000 TOKYO METRO, Zugphase: a rider may stay in a train between rounds and get off at any
    time, also during another phase: here in the other player's action turn, and during the bids
    once its own bid is in. The train must have moved a stop since the rider boarded."""
    state = with_turn(riding(to_actions(new_game(2, **OPTIONS)), 0, "G", 2), 1)
    assert metro.pending(state) == [Pending(1)]
    offered = [m for m in metro.legal_moves(state, 0)]
    assert offered and {m.kind for m in offered} == {"alight"}
    after = apply(state, offered[0])
    assert after.seats[0].field == offered[0].args["field"] and after.seats[0].riding == -1
    assert metro.pending(after) == [Pending(1)]                               # still the other's turn
    check_invariants(after)
    assert_illegal(with_seat(state, 0, moved=False), offered[0], "at least one stop")

    bids = apply(riding(deal_all(new_game(2, **OPTIONS)), 0, "G", 2), Move("bid", 0, {"amount": 0}))
    after = apply(bids, next(m for m in metro.legal_moves(bids, 0) if m.kind == "alight"))
    assert after.phase == "bid" and after.seats[0].riding == -1 and metro.pending(after) == [Pending(1)]


def test_in_the_train_phase_a_standing_trains_rider_gets_off_at_once_the_moving_trains_when_asked():
    """000 TOKYO METRO, Zugphase: getting off is allowed at any time, but at a stop the decisions
    are made in player order: the riders of the train moving now get off when the game asks them.
    Who got off a standing train is not asked to board it at that station in the same phase."""
    state = trains_waiting(3, rules=2)
    state = riding(state, 0, "T", 0)                       # T stands at t1 while G moves
    state = riding(state, 1, "G", 0)
    state = with_seat(state, 2, field=-1, riding=state.board.line_index["G"], moved=True)
    state, _ = run(state)
    assert (state.run.who, state.run.what) == (1, "alight")    # G's riders, in order, at its starting stop
    assert not [m for m in metro.legal_moves(state, 2) if m.kind == "alight"]
    assert_illegal(state, Move("alight", 2, {"field": F(state, 0, 0)}), "moving now", "asks")
    off = next(m for m in metro.legal_moves(state, 0) if m.kind == "alight")
    state, events = metro.apply(state, off)
    assert state.seats[0].riding == -1 and (state.run.who, state.run.what) == (1, "alight")
    assert events[0].data["station"] == "t1"
    while state.phase == TRAINS and state.run is not None:
        assert state.run.who != 0, "asked to board T where it got off T"
        state = apply(state, next(m for m in metro.legal_moves(state, state.run.who) if m.kind in ("ride_on", "skip")))
    check_invariants(state)

