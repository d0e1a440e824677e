"""OSAKA METRO (rule book 000, OSAKA METRO EXPANSION) and the modular card sets in the engine:
the options that pick each system's files, one round fewer, the flat share surcharge, the new
actions (sell, copy, invest_disc), pairs of trams and buses with small stops, trains that stay,
the four-holder split and the set-aside yen at the end. The book's worked examples are here as
tests; a property test plays random games of OSAKA METRO and of both modular combinations.

The Osaka data used is tests/metro_osaka_data.py's (Tokyo's board with a pair of trams, a pair of
buses, small stops and lines of 1 and 4 shares; five sets of eight cards with the Osaka kinds),
and the real Osaka files where the installation has them.
"""
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import engine
from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.metro import game as metro
from companion.rules.metro.board import DATA
from companion.rules.metro.rounds import finish
from companion.rules.metro.scoring import share_payouts
from companion.rules.metro.state import ACTIONS, OVER, TRAINS
from metro_osaka_data import osaka_files
from test_metro_support import (NAMES, apply, assert_illegal, check_invariants, line, to_actions,
                                total_yen, with_cards, with_line, with_seat, with_turn)
from test_metro_trains import OPTIONS as SMALL, PARK, make_board

OSAKA = metro.OSAKA


def osaka(n=4, **options):
    return OSAKA.setup({"names": NAMES[:n], "options": {**osaka_files(), **options}})


def act(state, p, kind, card, action=0, **args):
    return apply(state, Move(kind, p, {"card": card, "action": action, **args}))


def ready(n=4, cards=("GM1", "GM2"), column=0):
    """Round 1's action phase of the Osaka test data with the given cards face up in a column."""
    return with_cards(to_actions(osaka(n)), column, tuple(cards))


def card_with(state, kind):
    """(card id, action index) of the first action of this kind in the deck."""
    return next((c.id, i) for c in state.rules.deck.cards.values() for i, a in enumerate(c.actions) if a.kind == kind)


def last_stop(state, letter):
    return len(state.board.lines[state.board.line_index[letter]].stops) - 1


def showing(state, kind):
    """The state with a card holding a ``kind`` action face up (in its column), and that action."""
    cid, i = card_with(state, kind)
    col = next(k for k, s in enumerate(state.rules.deck.sets) if cid in s.cards)
    return with_cards(state, col, (cid,)), cid, i


# --- options, rounds, modular sets -----------------------------------------------------------------

@pytest.mark.parametrize("n, rounds", [(5, 4), (4, 5), (3, 6), (2, 7)])
def test_osaka_cards_make_one_round_fewer(n, rounds):
    """Worked example: 000 OSAKA METRO, Aktionskarten (one round fewer).
    8-card sets instead of 9: 4 rounds for 5 players, 5 for 4, and so on."""
    assert osaka(n).rules.rounds == rounds
    tokyo = metro.setup({"names": NAMES[:n]})
    assert tokyo.rules.rounds == rounds + 1


def test_the_rules_know_the_system_the_card_set_and_whether_trains_stay():
    tokyo = metro.setup({"names": NAMES[:3]}).rules
    assert (tokyo.system, tokyo.card_set, tokyo.osaka_cards, tokyo.trains_stay) == ("tokyo", "tokyo", False, False)
    both = osaka(3).rules
    assert (both.system, both.card_set, both.osaka_cards, both.trains_stay) == ("osaka", "osaka", True, True)
    # Tokyo's board with Osaka's cards: trains stay (a sale can leave a line without shareholders).
    mixed = metro.setup({"names": NAMES[:3], "options": {"card_set": "osaka", "action_cards": osaka_files()["action_cards"]}})
    assert (mixed.rules.system, mixed.rules.card_set, mixed.rules.trains_stay) == ("tokyo", "osaka", True)
    assert mixed.board.name == tokyo.board.name
    # Osaka's board with Tokyo's cards: the start action exists, and trains stay.
    files = osaka_files(cards_too=False)
    rev = OSAKA.setup({"names": NAMES[:3], "options": {**files, "card_set": "tokyo"}})
    assert (rev.rules.system, rev.rules.card_set, rev.rules.osaka_cards, rev.rules.trains_stay) == (
        "osaka", "tokyo", False, True)
    assert any(a.kind == "start" for c in rev.rules.deck.cards.values() for a in c.actions)
    assert rev.rules.rounds == 7 and rev.board.lines[0].vehicles == 2
    view = metro.view(mixed, None)
    assert (view["system"], view["card_set"], view["trains_stay"]) == ("tokyo", "osaka", True)


def test_osaka_metro_plays_the_osaka_files_by_default():
    state = OSAKA.setup({"names": NAMES[:4]})
    rules = state.rules
    assert rules.system == "osaka" and rules.osaka_cards and rules.trains_stay and rules.rounds == 5
    assert {ln.vehicles for ln in rules.board.lines} == {1, 2}
    assert {ln.shares for ln in rules.board.lines} <= {1, 2, 3, 4}
    assert all(s[k] == 300 for s in rules.stock.surcharges for k in range(1, len(s)))
    with_tokyo_cards = OSAKA.setup({"names": NAMES[:4], "options": {"card_set": "tokyo"}})
    assert with_tokyo_cards.rules.rounds == 6 and with_tokyo_cards.rules.trains_stay
    # The system option picks the same files under the tokyo_metro id; the table's own file wins.
    same = metro.setup({"names": NAMES[:4], "options": {"system": "osaka"}})
    assert same.board is state.board and same.rules.deck is rules.deck
    table_cards = json.loads((DATA / "osaka_action_cards.json").read_text(encoding="utf-8"))
    own = OSAKA.setup({"names": NAMES[:4], "options": {"action_cards": table_cards}})
    assert own.board is state.board and own.rules.deck is not rules.deck and own.rules.card_set == "osaka"


# --- share purchases -----------------------------------------------------------------------------------

def test_share_four_costs_the_flat_surcharge_and_the_value_rises_by_what_was_paid():
    state, cid, i = showing(ready(4), "invest")
    state = with_turn(with_line(state, "G", holders=(1, 2, 3), value=1500, train=0, second=last_stop(state, "G"),
                                second_dir=-1), 0)
    price, yen = state.rules.deck.cards[cid].actions[i].amount, state.seats[0].yen
    state = act(state, 0, "invest", cid, i, line="G")
    assert line(state, "G").holders == (1, 2, 3, 0) and line(state, "G").value == 1500 + price + 300
    assert state.seats[0].yen == yen - price - 300


# --- invest_disc ---------------------------------------------------------------------------------------

def test_invest_disc_boxes_a_second_disc_pays_only_the_surcharge_and_places_both_trams():
    state, cid, i = showing(ready(4), "invest_disc")
    state = with_turn(state, 0)
    g = state.board.line_index["G"]
    moves = [m for m in metro.legal_moves(state, 0) if m.kind == "invest_disc"]
    assert {m.args["line"] for m in moves} == set(state.board.line_index)
    yen = state.seats[0].yen
    state, events = metro.apply(state, Move("invest_disc", 0, {"card": cid, "action": i, "line": "G"}))
    seat = state.seats[0]
    assert (seat.discs, seat.boxed, seat.used, seat.yen) == (2, 1, 1, yen)   # share #1: no surcharge
    ls = state.lines[g]
    assert ls.holders == (0,) and ls.value == 0
    assert (ls.train, ls.dir, ls.second, ls.second_dir) == (0, 1, len(state.board.lines[g].stops) - 1, -1)
    assert [e.kind for e in events][:3] == ["disc_boxed", "invested", "train_placed"]
    check_invariants(state)
    # The next share of G through invest_disc costs its 300 surcharge, which the value rises by.
    state = with_turn(state._replace(occupied=frozenset()), 1)
    yen = state.seats[1].yen
    state = act(state, 1, "invest_disc", cid, i, line="G")
    assert line(state, "G").value == 300 and state.seats[1].yen == yen - 300


def test_invest_disc_needs_a_spare_disc_and_keeps_the_invest_limits():
    state, cid, i = showing(ready(4), "invest_disc")
    state = with_turn(with_seat(state, 0, used=2), 0)       # one free disc: the one placed on the card
    assert not [m for m in metro.legal_moves(state, 0) if m.kind == "invest_disc"]
    assert_illegal(state, Move("invest_disc", 0, {"card": cid, "action": i, "line": "G"}), "one more action disc")
    state = with_seat(state, 0, used=0)
    state = with_line(state, "M", holders=(0,), train=0)
    assert_illegal(state, Move("invest_disc", 0, {"card": cid, "action": i, "line": "M"}), "one share per line")


# --- sell: the book's renumbering example -----------------------------------------------------------------

def test_selling_share_one_moves_the_others_up_and_sets_the_payout_aside():
    """Worked example: 000 OSAKA METRO, Verkaufen.
    Share #1 sold while others hold #2 and #3: they become #1 and #2, #3 returns to the supply."""
    state, cid, i = showing(ready(4), "sell")
    state = with_line(state, "T", holders=(0, 1, 2), value=2000, train=3, specs=((3, 500),))
    state = with_seat(state, 3, yen=state.seats[3].yen - 500, specs_left=1)
    state = with_turn(state, 0)
    bank, yen = state.bank, state.seats[0].yen
    info = metro.move_info(state, Move("sell", 0, {"card": cid, "action": i, "line": "T"}))
    assert info.pays_up_to == 1000 and info.cost == 0        # half of 2000, rounded up: #1 of three holders
    state = act(state, 0, "sell", cid, i, line="T")
    assert line(state, "T").holders == (1, 2)                # #2 -> #1, #3 -> #2
    assert line(state, "T").value == 1000 and line(state, "T").specs == ((3, 500),)
    assert state.seats[0].set_aside == 1000 and state.seats[0].yen == yen and state.bank == bank - 1000
    assert metro.view(state, None)["players"][0]["set_aside"] == 1000
    view_t = next(ln for ln in metro.view(state, None)["lines"] if ln["letter"] == "T")
    assert [s["holder"] for s in view_t["shares"]] == [1, 2, None]
    check_invariants(state)
    # The returned share can be bought again, by the seller too.
    state = with_turn(state._replace(occupied=frozenset()), 0)
    assert any(m.kind in ("invest", "invest_disc") and m.args["line"] == "T" for m in metro.legal_moves(state, 0))


def test_selling_needs_a_share_of_that_line():
    state, cid, i = showing(ready(4), "sell")
    state = with_turn(with_line(state, "T", holders=(1,), value=800, train=0), 0)
    assert not [m for m in metro.legal_moves(state, 0) if m.kind == "sell"]
    assert_illegal(state, Move("sell", 0, {"card": cid, "action": i, "line": "T"}), "no share of line T")


def test_a_sold_out_line_keeps_its_train_on_tokyos_board_with_osakas_cards():
    """Modular: Tokyo board + Osaka cards; the only holder sells, the train comes back to stop 1
    and stays on the board."""
    opts = {"card_set": "osaka", "action_cards": osaka_files()["action_cards"]}
    state = to_actions(metro.setup({"names": NAMES[:2], "options": opts}))
    state, cid, i = showing(state, "sell")
    state = with_turn(with_line(state, "G", holders=(0,), value=600, train=2, dir=-1), 0)
    state = act(state, 0, "sell", cid, i, line="G")
    assert line(state, "G").holders == () and state.seats[0].set_aside == 600
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    state, events = metro.apply(state, Move("run_trains", state.order[0], {}))
    assert "train_left" not in [e.kind for e in events]
    assert line(state, "G").train >= 0


def test_a_started_train_without_shares_stays_on_osakas_board_with_tokyos_cards():
    files = osaka_files(cards_too=False)
    state = to_actions(OSAKA.setup({"names": NAMES[:2], "options": {**files, "card_set": "tokyo"}}))
    state, cid, i = showing(state, "start")
    state = with_turn(state, 0)
    state = act(state, 0, "start", cid, i, line="T")
    assert line(state, "T").train == 0 and not line(state, "T").holders
    state = with_line(state, "T", train=2, dir=-1)            # comes back to T1 this train phase
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    state, events = metro.apply(state, Move("run_trains", state.order[0], {}))
    assert ("T2", "T1") in [(e.data["from"], e.data["to"]) for e in events if e.kind == "train_moved"]
    assert "train_left" not in [e.kind for e in events] and line(state, "T").train >= 0


# --- copy ----------------------------------------------------------------------------------------------

def test_a_copy_right_takes_an_action_taken_this_round_in_a_later_turn():
    state = to_actions(osaka(2))
    copy_card, ci = card_with(state, "copy")
    invest_card, ii = card_with(state, "invest")
    cols = {c: k for k, s in enumerate(state.rules.deck.sets) for c in s.cards}
    state = with_cards(state, cols[copy_card], (copy_card,))
    state = with_cards(state, cols[invest_card], (invest_card,))
    state = with_turn(state, 0)
    price, yen = state.rules.deck.cards[copy_card].actions[ci].amount, state.seats[0].yen
    state = act(state, 0, "copy", copy_card, ci)
    assert state.seats[0].copies == ((copy_card, ci),) and state.seats[0].yen == yen - price
    assert metro.view(state, None)["copy_rights"] == [{"seat": 0, "copy": f"{copy_card}/{ci}"}]
    state = act(state, 1, "invest", invest_card, ii, line="T")
    copied = [m for m in metro.legal_moves(state, 0) if m.args.get("copy")]
    assert copied and {m.args["card"] for m in copied} == {invest_card}
    cost = state.rules.deck.cards[invest_card].actions[ii].amount + 300   # share #2 of T
    state, events = metro.apply(state, Move("invest", 0, {"card": invest_card, "action": ii, "line": "T",
                                                          "copy": f"{copy_card}/{ci}"}))
    assert line(state, "T").holders == (1, 0) and state.seats[0].yen == yen - price - cost
    assert state.seats[0].copies == () and (copy_card, ci) not in state.occupied    # the copy disc moved on
    assert "copied" in [e.kind for e in events]
    check_invariants(state)
    # Without a copy right a taken action stays taken.
    assert_illegal(state, Move("invest", 1, {"card": invest_card, "action": ii, "line": "G"}), "taken this round")


def test_copy_rights_end_with_the_action_phase_and_name_only_own_rights():
    state = to_actions(osaka(2))
    copy_card, ci = card_with(state, "copy")
    cols = {c: k for k, s in enumerate(state.rules.deck.sets) for c in s.cards}
    state = with_turn(with_cards(state, cols[copy_card], (copy_card,)), 0)
    state = act(state, 0, "copy", copy_card, ci)
    assert_illegal(state, Move("copy", 1, {"card": copy_card, "action": ci}), "taken this round")
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    assert state.phase == TRAINS and state.seats[0].copies == ()


# --- trams, buses, small stops --------------------------------------------------------------------------

def pair_board():
    """The train tests' board with line G a pair of trams and a small stop between g2 and big-1."""
    board = copy.deepcopy(make_board())    # make_board shares its stop lists with the train tests
    board["small_stops"] = [{"id": "tiny", "x": 4.0, "y": 3.0, "fields": [[3, 2], [4, 2]]}]
    g = board["lines"][0]
    g["stops"].insert(2, "tiny")
    g.update(vehicle="tram", vehicles=2)
    return board


def pair_waiting(n=2):
    opts = {**SMALL, "board": pair_board(), "system": "osaka", "revenue_track": osaka_files()["revenue_track"]}
    state = to_actions(OSAKA.setup({"names": NAMES[:n], "options": opts}))
    for p in range(n):
        state = with_seat(state, p, field=state.board.field(*PARK[p]))
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    return state


def test_both_trams_move_together_each_paying_its_stations_and_small_stops_pay_nothing():
    state = pair_waiting()
    last = len(state.board.lines[0].stops) - 1                      # G: g1 g2 tiny big-1 big-2 g5 cross g7
    state = with_line(state, "G", holders=(0,), train=0, dir=1, second=last, second_dir=-1, value=0)
    pyramids = list(state.pyramids)
    for sid in ("g7", "g5", "g2"):
        pyramids[state.board.station_index[sid]] = 1
    state = state._replace(pyramids=tuple(pyramids), seats=tuple(
        s._replace(pyramids=s.pyramids - 3) if p == 1 else s for p, s in enumerate(state.seats)))
    yen = state.seats[1].yen
    state, events = metro.apply(state, Move("run_trains", state.order[0], {}))
    moves = [(e.data["vehicle"], e.data["from"], e.data["to"]) for e in events if e.kind == "train_moved"
             and e.data["line"] == "G"]
    assert moves[:4] == [(0, "G1", "G2"), (1, "G8", "G7"), (0, "G2", "G3"), (1, "G7", "G6")]
    assert len(moves) == 10                                          # 5 steps, two trams
    assert (line(state, "G").train, line(state, "G").second) == (5, 2)
    paid = [(e.data["vehicle"], e.data["stop"]) for e in events if e.kind == "station_payout"]
    # Tram 0 pays at G2 (g2) and G6 (g5); tram 1 at G6; the small stop G3 never pays; G7 (cross)
    # has no pyramid.
    assert paid == [(0, "G2"), (1, "G6"), (0, "G6")]
    assert state.seats[1].yen == yen + 600 and line(state, "G").value == 600
    view = metro.view(state, None)
    g = view["lines"][0]
    assert g["vehicle"] == "tram" and [v["stop"] for v in g["vehicles"]] == ["G6", "G3"]
    assert g["train"] == g["vehicles"][0] and g["vehicles"][1]["small_stop"]
    assert [(p["vehicle"], p["vehicle_index"]) for p in view["last_run"]["payouts"]] == [
        ("tram", 0), ("tram", 1), ("tram", 0)]
    check_invariants(state)


def test_riders_board_and_get_off_at_a_small_stop_and_decide_in_player_order_across_both_trams():
    state = pair_waiting()
    last = len(state.board.lines[0].stops) - 1
    state = with_line(state, "G", holders=(0,), train=1, dir=1, second=last, second_dir=-1)
    state = with_seat(state, 0, field=state.board.field(3, 2))        # touches the small stop G3
    state = with_seat(state, 1, field=-1, riding=0, vehicle=1, moved=True)   # in the second tram
    assert state.order == (0, 1)
    state, _ = metro.apply(state, Move("run_trains", 0, {}))
    assert (state.run.who, state.run.vehicle, line(state, "G").second) == (1, 1, last)   # the starting stop first
    state = apply(state, Move("ride_on", 1, {}))
    # Step 1: tram 0 reaches the small stop G3 (seat 0 may board), tram 1 reaches G7 (seat 1 may get
    # off): seat 0 decides first, in player order.
    assert (state.run.who, state.run.what, state.run.vehicle) == (0, "board", 0)
    assert metro.legal_moves(state, 0)[0].args == {"line": "G", "vehicle": 0}
    assert_illegal(state, Move("board", 0, {"line": "G", "vehicle": 1}), "vehicle 0")
    state = apply(state, Move("board", 0, {"line": "G", "vehicle": 0}))
    assert (state.seats[0].riding, state.seats[0].vehicle, state.seats[0].yen) == (0, 0, state.seats[0].yen)
    assert (state.run.who, state.run.what, state.run.vehicle) == (1, "alight", 1)
    check_invariants(state)
    # Seat 1 rides on to the small stop G3 (step 5) and gets off onto a field touching that circle.
    while not (state.run.who == 1 and line(state, "G").second == 2):
        state = apply(state, Move("ride_on", state.run.who, {}))
        assert state.phase == TRAINS
    assert state.run.who == 1 and line(state, "G").second == 2
    fields = [m.args["field"] for m in metro.legal_moves(state, 1) if m.kind == "alight"]
    assert fields and set(fields) <= {state.board.field(3, 2), state.board.field(4, 2)}
    state, events = metro.apply(state, Move("alight", 1, {"field": fields[0]}))
    alighted = next(e for e in events if e.kind == "alighted")
    assert alighted.data["stop"] == "G3" and alighted.data["station"] == "tiny"
    assert state.seats[1].riding == -1 and state.seats[1].field == fields[0]
    check_invariants(state)


def test_both_buses_may_share_a_stop_and_the_preview_shows_both_paths():
    state = pair_waiting()
    state = with_line(state, "G", holders=(0,), train=3, dir=1, second=3, second_dir=-1)
    preview = metro.train_phase_preview(state)
    g = [t for t in preview["trains"] if t["line"] == "G"]
    assert [t["vehicle_index"] for t in g] == [0, 1] and g[0]["from"] == g[1]["from"] == "G4"
    assert any(step["small_stop"] for step in g[1]["path"])
    state, events = metro.apply(state, Move("run_trains", state.order[0], {}))
    check_invariants(state)


# --- the end: four holders and set-aside yen -------------------------------------------------------------

def test_four_holders_split_two_thousand_and_the_set_aside_yen_join_the_totals():
    """The book: T worth 2,000 with all 4 shares held pays 1,000 / 500 / 300 / 200; a sale's set-
    aside yen are added after the payouts, before the loans."""
    state = to_actions(osaka(4))
    state = with_line(state, "G", holders=(2, 0, 3, 1), value=2000, train=0, second=last_stop(state, "G"),
                      second_dir=-1)
    state = with_seat(state, 1, set_aside=700, loans=1)
    state = state._replace(bank=state.bank - 700)
    assert total_yen(state) == state.options.bank_yen
    result = metro.payouts(state)["scoring"]
    g = next(r for r in result["lines"] if r["line"] == "G")
    assert [(s["seat"], s["paid"]) for s in g["shares"]] == [(2, 1000), (0, 500), (3, 300), (1, 200)]
    assert result["set_aside"] == [0, 700, 0, 0]
    assert result["totals"][1] == state.seats[1].yen + 200 + 700 - 1500
    over, _ = finish(state, "test")
    assert over.phase == OVER and over.seats[1].set_aside == 0 and total_yen(over) == state.options.bank_yen
    assert share_payouts(state.rules.track, 2000, 4) == [1000, 500, 300, 200]


def test_a_played_game_ends_with_the_four_holder_split():
    """Worked example: 000 OSAKA METRO, scoring with four shares.
    A random OSAKA game up to its last train phase, then line G set to 2,000 with four holders
    and no pyramids to pay: the real end of the game pays 1,000 / 500 / 300 / 200."""
    rng = random.Random(3)
    state = osaka(4)
    while not (state.round == state.rules.rounds and state.phase == TRAINS):
        who = metro.pending(state)[0].actor
        if who == CHANCE:
            state = apply(state, rng.choice([m for m, _ in metro.chance(state).outcomes]))
        else:
            moves = metro.legal_moves(state, who)
            passing = [m for m in moves if m.kind in ("pass", "skip", "ride_on", "run_trains")]
            state = apply(state, rng.choice(passing or moves))
    seats = tuple(s._replace(pyramids=state.options.pyramids) for s in state.seats)
    lines = tuple(ls._replace(specs=()) for ls in state.lines)
    state = state._replace(pyramids=tuple(-1 for _ in state.pyramids), seats=seats, lines=lines)
    state = with_line(state, "G", holders=(3, 2, 1, 0), value=2000, train=0, second=last_stop(state, "G"),
                      second_dir=-1, specs=())
    state = apply(state, Move("run_trains", state.order[0], {}))
    while state.phase != OVER:
        who = state.run.who
        state = apply(state, next(m for m in metro.legal_moves(state, who) if m.kind in ("skip", "ride_on")))
    g = next(r for r in state.result["lines"] if r["line"] == "G")
    assert [(s["seat"], s["paid"]) for s in g["shares"]] == [(3, 1000), (2, 500), (1, 300), (0, 200)]


# --- random games: OSAKA METRO and both modular combinations ------------------------------------------------

SETUPS = st.sampled_from([
    ("osaka", 4, {}),                      # the installed Osaka files
    ("osaka", 5, {}),
    ("osaka_test_data", 2, {"start_yen": 6000, "bank_yen": 120_000}),   # a pair of trams on a 4-share line
    ("tokyo+osaka_cards", 3, {}),
    ("osaka+tokyo_cards", 3, {}),
])


def configure(kind, n, extra):
    names = NAMES[:n]
    if kind == "osaka":
        return OSAKA, {"names": names, "options": extra}
    if kind == "osaka_test_data":
        return OSAKA, {"names": names, "options": {**osaka_files(), **extra}}
    if kind == "tokyo+osaka_cards":
        return metro.GAME, {"names": names, "options": {"card_set": "osaka", **extra}}
    return OSAKA, {"names": names, "options": {"card_set": "tokyo", **extra}}


def play(game, config, seed):
    rng = random.Random(seed)
    state = game.setup(config)
    moves = []
    while not game.is_over(state):
        who = game.pending(state)[0].actor
        if who == CHANCE:
            move = rng.choice([m for m, _ in game.chance(state).outcomes])
        else:
            options = game.legal_moves(state, who)
            kinds = sorted({m.kind for m in options})
            kind = rng.choice([k for k in kinds if k != "pass"] or kinds) if rng.random() < 0.8 else rng.choice(kinds)
            move = rng.choice([m for m in options if m.kind == kind])
            info = game.move_info(state, move)
            assert 0 <= info.cost <= state.seats[who].yen and info.pays_up_to >= 0, (move, info)
        state, events = game.apply(state, move)
        moves.append(move)
        check_invariants(state)
        assert len(moves) < 4000
    return state, moves


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=SETUPS, seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_invariants(setup, seed):
    """Random games of OSAKA METRO and both modular combinations: yen (seats, bank, set-aside) and
    pieces conserved after every move, the end scored, replay deterministic through JSON."""
    game, config = configure(*setup)
    state, moves = play(game, config, seed)
    assert state.phase == OVER and state.round == state.rules.rounds
    assert [s.yen for s in state.seats] == state.result["totals"]
    assert total_yen(state) == state.options.bank_yen and not any(s.set_aside for s in state.seats)
    log = [Move.from_json(m) for m in json.loads(json.dumps([m.to_json() for m in moves]))]
    again, _ = engine.replay(game, json.loads(json.dumps(config)), log)
    assert again == state and game.view(again, None) == game.view(state, None)


def test_junk_osaka_moves_are_refused_and_change_nothing():
    state, cid, i = showing(ready(4), "sell")
    state = with_turn(state, 0)
    for bad in ({"card": cid, "action": i, "line": "Q"}, {"card": cid, "action": i, "line": 3},
                {"card": cid, "action": i, "line": "T", "copy": "nope/0"}):
        with pytest.raises(IllegalMove):
            metro.apply(state, Move("sell", 0, bad))
    assert_illegal(state, Move("copy", 0, {"card": cid, "action": i}), "not copy")


# --- the hints, the computer players, the doctests ------------------------------------------------------

def test_the_hints_redraw_osaka_decks_and_computer_players_finish_an_osaka_game():
    """estimate.py's redraw keeps the 1-dot/2-dot groups and what the viewer sees; a playout from it
    ends; sim/players.py's greedy player plays osaka_metro to the end with listed moves only."""
    from companion.rules.estimate import play_out
    from companion.rules.metro.estimate import determinize
    from companion.sim.players import STRATEGIES, bot_move

    rng = random.Random(4)
    state = osaka(3)
    while not (state.round == 2 and state.phase == ACTIONS):
        who = OSAKA.pending(state)[0].actor
        moves = [m for m, _ in OSAKA.chance(state).outcomes] if who == CHANCE else OSAKA.legal_moves(state, who)
        state = apply(state, rng.choice(moves))
    det = determinize(state, 1, random.Random(7))
    assert OSAKA.view(det, 1) == OSAKA.view(state, 1)
    assert [[len(g) for g in c.deck] for c in det.columns] == [[len(g) for g in c.deck] for c in state.columns]
    check_invariants(det)
    assert play_out(OSAKA, det, random.Random(7)).phase == OVER

    assert STRATEGIES["osaka_metro"] is STRATEGIES["tokyo_metro"] is STRATEGIES["metro_drinks"]
    state, k = osaka(3), 0
    while not OSAKA.is_over(state):
        actor = OSAKA.pending(state)[0].actor
        moves = OSAKA.legal_moves(state, actor)
        move = bot_move(OSAKA, state, moves, f"osaka:{k}")
        assert move in moves
        state, k = apply(state, move), k + 1
    assert state.phase == OVER


def test_doctests():
    import doctest
    from companion.rules.metro import copying, osaka_actions, pieces, systems, vehicles
    for module in (systems, vehicles, osaka_actions, copying, pieces):
        assert doctest.testmod(module).failed == 0, module.__name__


# --- at the table --------------------------------------------------------------------------------------

def test_a_table_of_computers_plays_osaka_metro_to_the_end_without_a_board_camera(store):
    """The real table session (SQLite, the simulated table) plays OSAKA METRO to the final scoring;
    the board camera, whose layout is Tokyo's board, does not follow it; the pieces it would
    expect (pieces.on_board) list a pair's second vehicle."""
    from companion.rules.metro.pieces import on_board
    from companion.sim.table import SIM_TABLE
    from companion.table.log import read_jsonl
    from companion.table.session import TableSession

    session = TableSession.create(store, "osaka_metro", NAMES[:3], bots=[0, 1, 2], seed=5, automation=SIM_TABLE)
    assert session.board_watch is None
    state = session.state
    assert state.phase == OVER and state.rules.system == "osaka"
    view = session.view(None)
    assert view["over"] and view["state"]["trains_stay"] and "set_aside" in view["state"]["result"]
    assert read_jsonl(session.log_jsonl().splitlines()).state == state
    pairs = [ln.letter for ln, ls in zip(state.board.lines, state.lines) if ln.vehicles == 2 and ls.second >= 0]
    assert set(on_board(state)["second_vehicles"]) == set(pairs)
