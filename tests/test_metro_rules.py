"""TOKYO METRO rules one by one: setup, rounds, card columns, bids, movement, every action, passing.

Positions are reached the way a table plays them (chance deals, bids, placements) and then,
where a test needs a particular card face up or a meeple at a particular station, by replacing
that part of the state (see test_metro_support).
"""
import pytest

from companion.rules.engine import CHANCE, ChanceChoice, Move, Pending
from companion.rules.metro import game as metro
from companion.rules.metro.state import ACTIONS, BID, DEAL, MOVEMENT, OVER, TIE, TRAINS
from test_metro_support import (apply, assert_illegal, bid_all, break_ties, chance, check_invariants, deal_all,
                                line, new_game, station_index, to_actions, with_cards, with_line,
                                with_seat, with_turn)


def act(state, p, kind, card, action=0, **args):
    return apply(state, Move(kind, p, {"card": card, "action": action, **args}))


def ready(n=2, **cards):
    """Round 1's action phase with the given cards face up (column name -> card ids)."""
    state = to_actions(new_game(n))
    columns = {"GM": 0, "HT": 1, "CY": 2, "ZN": 3, "AI": 4, "SE": 5}
    for name, ids in cards.items():
        state = with_cards(state, columns[name], tuple(ids))
    return state


def pass_all(state):
    while state.phase == ACTIONS:
        state = apply(state, Move("pass", state.order[state.turn], {}))
    return state


def at_station(state, p, sid, k=0):
    """Seat p's meeple on the k-th field touching station ``sid`` (other meeples moved off it)."""
    s = station_index(state, sid)
    f = state.board.stations[s].fields[k]
    for q, seat in enumerate(state.seats):
        if q != p and seat.field == f:
            state = with_seat(state, q, field=state.board.field(0, 0) + q)
    return with_seat(state, p, field=f, riding=-1)


# --- setup ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_by_player_count(n):
    state = new_game(n)
    o = state.options
    assert [s.yen for s in state.seats] == [2000] * n
    assert all(s.discs == 3 and s.pyramids == 6 and s.specs_left == 2 and s.field == -1 for s in state.seats)
    assert state.disc_supply == (3,) * n
    assert (state.tempo_supply, state.loan_supply, state.bicycles) == (12, 8, 4)
    assert state.bank == o.bank_yen - 2000 * n
    assert all(ls.value == 0 and ls.train == -1 for ls in state.lines)
    assert state.phase == DEAL and len(state.dealing) == 6 * n
    assert metro.pending(state) == [Pending(CHANCE)]
    state = deal_all(state)
    assert all(len(c.slots) == n for c in state.columns)
    assert state.phase == BID
    check_invariants(state)


@pytest.mark.parametrize("n, rounds", [(5, 5), (4, 6), (3, 7), (2, 8), (1, 8)])
def test_rounds_emerge_from_the_card_columns(n, rounds):
    state = new_game(n)
    assert state.rules.rounds == rounds
    # Everyone bids 0 and passes at once: the game ends when a column cannot be refilled.
    state = to_actions(state, bids=[0] * n)
    seen = {1}
    while state.phase != OVER:
        if state.phase == ACTIONS:
            state = pass_all(state)
        elif state.phase == TRAINS:
            state = apply(state, Move("run_trains", state.order[0], {}))
        elif state.phase == DEAL:
            state = deal_all(state)
            seen.add(state.round)
        elif state.phase == BID:
            state = break_ties(bid_all(state, [0] * n))
        elif state.phase == MOVEMENT:
            p = state.order[state.turn]
            state = apply(state, Move("walk", p, {"field": state.seats[p].field}))
    assert max(seen) == rounds == state.round
    assert all(not any(c.deck) for c in state.columns)
    assert state.result is not None


def test_the_deal_turns_up_one_dot_cards_first_one_at_a_time():
    state = new_game(4)
    spec = metro.chance(state)
    assert isinstance(spec, ChanceChoice)
    outcomes = [m for m, _ in spec.outcomes]
    assert [m.args["card"] for m in outcomes] == ["GM1", "GM2", "GM3"]
    assert all(m.args["column"] == 0 for m in outcomes)
    assert_illegal(state, chance("deal", column=0, card="GM4"), "1-dot cards first")
    assert_illegal(state, chance("deal", column=1, card="HT1"), "column 0")
    for card in ("GM2", "GM3", "GM1"):
        state = apply(state, chance("deal", column=0, card=card))
    # the fourth card of the column comes from the 2-dot cards
    assert [m.args["card"] for m, _ in metro.chance(state).outcomes] == ["GM4", "GM5", "GM6"]
    state = apply(state, chance("deal", column=0, card="GM5"))
    assert state.columns[0].slots == ("GM2", "GM3", "GM1", "GM5")  # bottom to top, in the order dealt


def test_refill_discards_the_bottom_card_slides_the_rest_and_adds_one_on_top():
    state = to_actions(new_game(2))
    before = [c.slots for c in state.columns]
    state = pass_all(state)
    state = apply(state, Move("run_trains", state.order[0], {}))
    assert state.phase == DEAL and state.round == 2 and state.dealing == tuple(range(6))
    for c, col in enumerate(state.columns):
        assert col.discard == before[c][:1]
        assert col.slots == before[c][1:]
    state = deal_all(state)
    for c, col in enumerate(state.columns):
        assert col.slots[:-1] == before[c][1:] and len(col.slots) == 2
    view = metro.view(state, None)
    assert view["columns"][0]["discard"] == 1 and view["columns"][0]["discard_top"]["id"] == before[0][0]


# --- bids ----------------------------------------------------------------------------------------------

def test_bids_are_secret_until_everyone_has_bid():
    state = deal_all(new_game(3))
    assert {w.actor for w in metro.pending(state)} == {0, 1, 2}
    state, events = metro.apply(state, Move("bid", 1, {"amount": 500}))
    assert events[0].to_json() == {"kind": "bid", "seat": 1, "secret": True}
    assert {w.actor for w in metro.pending(state)} == {0, 2}
    table = metro.view(state, None)
    assert [p["has_bid"] for p in table["players"]] == [False, True, False]
    assert all(p["bid"] is None for p in table["players"])
    assert metro.view(state, 1)["players"][1]["bid"] == 500
    assert metro.view(state, 0)["players"][1]["bid"] is None
    assert_illegal(state, Move("bid", 1, {"amount": 100}), "has bid already")


def test_highest_bid_goes_first_and_all_bids_go_to_the_bank():
    state = deal_all(new_game(3))
    bank = state.bank
    state = bid_all(state, [200, 700, 0])
    assert state.order == (1, 0, 2)
    assert [s.yen for s in state.seats] == [1800, 1300, 2000]
    assert state.bank == bank + 900
    assert state.phase == MOVEMENT and metro.pending(state) == [Pending(1)]


@pytest.mark.parametrize("amount, words", [(2100, "0 to 2000"), (150, "steps of 100"), (-100, "0 to")])
def test_illegal_bids(amount, words):
    state = deal_all(new_game(2))
    assert_illegal(state, Move("bid", 0, {"amount": amount}), words)


def test_round_one_ties_are_broken_at_random_one_seat_at_a_time():
    state = deal_all(new_game(4))
    state = bid_all(state, [300, 300, 300, 500])
    assert state.phase == TIE
    spec = metro.chance(state)
    assert sorted(m.args["seat"] for m, _ in spec.outcomes) == [0, 1, 2]
    assert_illegal(state, chance("tie_break", seat=3), "not in it")
    state = apply(state, chance("tie_break", seat=2))
    assert sorted(m.args["seat"] for m, _ in metro.chance(state).outcomes) == [0, 1]
    state = apply(state, chance("tie_break", seat=0))
    assert state.phase == MOVEMENT and state.order == (3, 2, 0, 1)


def test_later_ties_swap_the_tied_players_relative_places():
    state = to_actions(new_game(4))       # order 0, 1, 2, 3
    state = pass_all(state)
    state = apply(state, Move("run_trains", state.order[0], {}))
    state = deal_all(state)
    state = bid_all(state, [100, 0, 100, 0])   # 0 and 2 tie, 1 and 3 tie
    assert state.order == (2, 0, 3, 1)


def test_three_tied_players_reverse_their_order_after_round_one():
    state = to_actions(new_game(3))
    state = pass_all(state)
    state = apply(state, Move("run_trains", state.order[0], {}))
    state = bid_all(deal_all(state), [0, 0, 0])
    assert state.order == (2, 1, 0)


def test_the_bid_bonus_adds_to_the_next_bid_and_returns_to_the_bank():
    state = ready(3, ZN=("ZN1",))
    bank = state.bank
    state = act(state, 0, "bid_bonus", "ZN1", 1)
    assert state.seats[0].bonus == 200 and state.bank == bank - 200
    state = pass_all(state)
    state = apply(state, Move("run_trains", state.order[0], {}))
    state = deal_all(state)
    bank, yen = state.bank, [s.yen for s in state.seats]
    state = bid_all(state, [0, 100, 0])
    assert state.order[0] == 0          # 0 + 200 beats 100
    # each pays its own bid from its yen (seat 0 bid 0); the 200 bonus goes back to the bank
    assert [s.yen for s in state.seats] == [yen[0], yen[1] - 100, yen[2]]
    assert state.seats[0].bonus == 0
    assert state.bank == bank + 300
    check_invariants(state)


def test_solo_has_no_bidding_and_eight_rounds():
    state = new_game(1)
    assert state.rules.solo and state.rules.per_column == 2 and state.rules.rounds == 8
    state = deal_all(state)
    assert state.phase == MOVEMENT and state.order == (0,)


# --- movement ------------------------------------------------------------------------------------------

def test_round_one_places_meeples_in_the_start_area_on_free_fields():
    state = bid_all(deal_all(new_game(2)), [100, 0])
    board = state.board
    inside = board.start_fields[0]
    outside = board.field(0, 0)
    assert {m.kind for m in metro.legal_moves(state, 0)} == {"place"}
    assert len(metro.legal_moves(state, 0)) == len(board.start_fields)
    assert_illegal(state, Move("place", 0, {"field": outside}), "start area")
    assert_illegal(state, Move("place", 1, {"field": inside}), "turn")
    state = apply(state, Move("place", 0, {"field": inside}))
    assert_illegal(state, Move("place", 1, {"field": inside}), "another meeple")
    assert len(metro.legal_moves(state, 1)) == len(board.start_fields) - 1


def round_two_movement(n=2):
    state = to_actions(new_game(n))
    state = pass_all(state)
    state = apply(state, Move("run_trains", state.order[0], {}))
    state = bid_all(deal_all(state), [100 * (n - p) for p in range(n)])
    assert state.phase == MOVEMENT
    return state


def test_walking_two_fields_orthogonally_three_with_a_bicycle():
    state = round_two_movement()
    board = state.board
    state = with_seat(state, 0, field=board.field(10, 8))
    state = with_seat(state, 1, field=board.field(20, 2))
    fields = {m.args["field"] for m in metro.legal_moves(state, 0)}
    assert fields == set(board.reachable(board.field(10, 8), 2, set()))
    assert board.field(10, 8) in fields                       # staying put is allowed
    assert board.field(11, 9) in fields and board.field(12, 8) in fields
    assert board.field(12, 9) not in fields and board.field(13, 8) not in fields
    assert_illegal(state, Move("walk", 0, {"field": board.field(13, 8)}), "within 2")
    biked = with_seat(state, 0, bicycle=True)
    assert board.field(13, 8) in {m.args["field"] for m in metro.legal_moves(biked, 0)}


def test_walking_never_enters_or_crosses_another_meeple():
    state = round_two_movement()
    board = state.board
    state = with_seat(state, 0, field=board.field(10, 8))
    state = with_seat(state, 1, field=board.field(11, 8))
    assert_illegal(state, Move("walk", 0, {"field": board.field(11, 8)}), "another meeple")
    # (12, 8) is two steps away only through the other meeple; around it takes 4
    assert_illegal(state, Move("walk", 0, {"field": board.field(12, 8)}), "without crossing")


def test_movement_goes_in_player_order_then_the_action_phase():
    state = round_two_movement(3)
    first, second, third = state.order
    assert metro.pending(state) == [Pending(first)]
    assert_illegal(state, Move("walk", second, {"field": state.seats[second].field}), "turn to move")
    for p in state.order:
        state = apply(state, Move("walk", p, {"field": state.seats[p].field}))
    assert state.phase == ACTIONS and metro.pending(state) == [Pending(first)]


# --- the action phase: availability, discs, order -------------------------------------------------------

def test_an_action_needs_a_disc_on_each_space_and_empty_spaces():
    """Worked example: 000 TOKYO METRO, Aktionsphase. With only 2 action discs left, an action with
    3 spaces cannot be chosen."""
    state = ready(2, HT=("HT2",), GM=("GM1",))
    state = with_seat(at_station(state, 0, "otemachi"), 0, used=1)
    assert_illegal(state, Move("station", 0, {"card": "HT2", "action": 0, "station": "otemachi"}),
                   "needs 3 action disc(s)", "2 left")
    state = act(state, 0, "tempo", "GM1", 1)
    assert_illegal(state, Move("tempo", 1, {"card": "GM1", "action": 1}), "taken this round")


def test_two_actions_of_one_card_are_independent():
    state = ready(2, GM=("GM1",))
    state = act(state, 0, "tempo", "GM1", 1)
    f = state.seats[1].field
    state = act(state, 1, "move", "GM1", 0, field=f)      # the other player takes the card's other action
    assert ("GM1", 0) in state.occupied and ("GM1", 1) in state.occupied


def test_the_card_and_action_must_match_the_move():
    state = ready(2, GM=("GM1",))
    assert_illegal(state, Move("invest", 0, {"card": "GM1", "action": 1, "line": "G"}), "is tempo, not invest")
    assert_illegal(state, Move("tempo", 0, {"card": "GM1", "action": 5}), "no action 5")
    assert_illegal(state, Move("tempo", 0, {"card": "CY9", "action": 0}), "not face up")
    assert_illegal(state, Move("tempo", 0, {"card": "XX", "action": 0}), "no action card")


def test_turns_go_round_in_player_order_skipping_players_who_passed():
    state = ready(3, GM=("GM1", "GM7", "GM8"))
    a, b, c = state.order
    assert_illegal(state, Move("pass", b, {}), "turn")
    state = act(state, a, "tempo", "GM1", 1)
    state = apply(state, Move("pass", b, {}))
    state = act(state, c, "tempo", "GM7")
    assert metro.pending(state) == [Pending(a)]
    state = act(state, a, "tempo", "GM8", 1)
    assert metro.pending(state) == [Pending(c)]        # b passed: skipped


def test_passing_pays_100_per_unplaced_disc_and_the_phase_ends_when_all_passed():
    state = ready(2, GM=("GM1",))
    state = act(state, 0, "tempo", "GM1", 1)
    yen0, yen1 = state.seats[0].yen, state.seats[1].yen
    state, events = metro.apply(state, Move("pass", 1, {}))
    assert state.seats[1].yen == yen1 + 300 and events[0].data["yen"] == 300
    state = apply(state, Move("pass", 0, {}))
    assert state.seats[0].yen == yen0 + 200
    assert state.phase == TRAINS and not state.occupied and all(s.used == 0 and not s.passed for s in state.seats)


def test_with_no_disc_left_the_only_move_is_to_pass():
    state = with_seat(ready(2, GM=("GM1",)), 0, used=3)
    assert [m.kind for m in metro.legal_moves(state, 0)] == ["pass"]


# --- move ----------------------------------------------------------------------------------------------

def test_move_action_walks_its_fields_plus_one_with_a_bicycle():
    state = ready(2, GM=("GM2",))
    board = state.board
    state = with_seat(with_seat(state, 0, field=board.field(10, 8)), 1, field=board.field(0, 0))
    fields = {m.args["field"] for m in metro.legal_moves(state, 0) if m.kind == "move"}
    assert board.field(13, 8) in fields and board.field(14, 8) not in fields
    biked = with_seat(state, 0, bicycle=True)
    assert board.field(14, 8) in {m.args["field"] for m in metro.legal_moves(biked, 0) if m.kind == "move"}
    assert_illegal(state, Move("move", 0, {"card": "GM2", "action": 0, "field": board.field(14, 8)}), "within 3")
    state = act(state, 0, "move", "GM2", field=board.field(13, 8))
    assert state.seats[0].field == board.field(13, 8)


def test_a_meeple_in_a_train_cannot_walk():
    state = ready(2, GM=("GM2",))
    state = with_line(state, "G", train=3)
    state = with_seat(state, 0, field=-1, riding=0, moved=False)
    assert not [m for m in metro.legal_moves(state, 0) if m.kind == "move"]
    assert_illegal(state, Move("move", 0, {"card": "GM2", "action": 0, "field": 5}), "get off first")


# --- station, station swap -----------------------------------------------------------------------------

def test_station_costs_the_printed_cost_times_the_stations_circles():
    state = ready(2, HT=("HT4",))
    state = at_station(state, 0, "otemachi")
    assert len(state.board.stations[station_index(state, "otemachi")].circles) == 3
    yen = state.seats[0].yen
    state = act(state, 0, "station", "HT4", station="otemachi")
    assert state.seats[0].yen == yen - 900 and state.seats[0].pyramids == 5
    assert state.pyramids[station_index(state, "otemachi")] == 0


def test_station_needs_the_meeple_touching_it_and_no_pyramid_there():
    state = ready(2, HT=("HT4", "HT8"))
    state = at_station(state, 0, "otemachi")
    assert_illegal(state, Move("station", 0, {"card": "HT4", "action": 0, "station": "shibuya"}), "touching")
    assert_illegal(state, Move("station", 0, {"card": "HT4", "action": 0, "station": "atlantis"}), "no station")
    state = act(state, 0, "station", "HT4", station="otemachi")
    state = at_station(state, 1, "otemachi", 1)
    assert_illegal(state, Move("station", 1, {"card": "HT8", "action": 0, "station": "otemachi"}), "one pyramid per station")


def test_station_needs_a_pyramid_and_the_money():
    state = at_station(ready(2, HT=("HT4",)), 0, "otemachi")
    assert_illegal(with_seat(state, 0, pyramids=0), Move("station", 0, {"card": "HT4", "action": 0, "station": "otemachi"}),
                   "no pyramid")
    poor = with_seat(state, 0, yen=800)
    poor = poor._replace(bank=poor.bank + 1200)
    assert_illegal(poor, Move("station", 0, {"card": "HT4", "action": 0, "station": "otemachi"}), "900 yen")
    assert not [m for m in metro.legal_moves(poor, 0) if m.kind == "station"]


def test_station_swap_pays_with_a_tempo_or_bicycle_token():
    state = ready(2, HT=("HT6",), GM=("GM1",))
    state = at_station(state, 0, "otemachi")
    assert_illegal(state, Move("station_swap", 0, {"card": "HT6", "action": 0, "station": "otemachi", "token": "tempo"}),
                   "no unassigned tempo")
    state = state._replace(bicycles=state.bicycles - 1)
    state = with_seat(state, 0, bicycle=True)
    yen = state.seats[0].yen
    state = act(state, 0, "station_swap", "HT6", station="otemachi", token="bicycle")
    assert state.seats[0].yen == yen and not state.seats[0].bicycle and state.bicycles == 4
    assert state.pyramids[station_index(state, "otemachi")] == 0
    check_invariants(state)


# --- invest, start --------------------------------------------------------------------------------------

def test_invest_takes_the_next_share_raises_the_value_and_places_the_train():
    state = ready(3, CY=("CY3", "CY5", "CY8"))
    state = act(state, 0, "invest", "CY3", line="G")
    g = line(state, "G")
    assert g.holders == (0,) and g.value == 1200 and g.train == 0 and g.dir == 1
    state = act(state, 1, "invest", "CY5", line="G")
    assert line(state, "G").value == 1200 + 1300 and state.seats[1].yen == 2000 - 100 * 2 - 1300
    state = act(state, 2, "invest", "CY8", line="G")           # share #3: 800 + 600
    assert line(state, "G").holders == (0, 1, 2) and line(state, "G").value == 2500 + 1400


def test_invest_surcharges_cannot_be_discounted():
    state = ready(2, CY=("CY8",), AI=("AI4",))
    state = with_line(state, "M", holders=(1,), train=0, value=800)
    state = act(state, 0, "discount", "AI4")                   # 300 off, 2 discs
    state = apply(state, Move("pass", 1, {}))
    yen = state.seats[0].yen
    state = act(state, 0, "invest", "CY8", line="M", discounts=("AI4/0",))
    assert state.seats[0].yen == yen - (800 - 300 + 300)
    assert line(state, "M").value == 800 + 800


@pytest.mark.parametrize("setup, words", [
    (lambda s: with_line(s, "G", holders=(0,), train=0), "one share per line"),
    (lambda s: with_line(s, "G", holders=(1, 2, 3), train=0), "all 3 shares"),
    (lambda s: with_line(with_seat(s, 0, specs_left=1), "G", specs=((0, 100),), value=500), "speculate on"),
    (lambda s: with_seat(s, 0, yen=500), "you have 500"),
])
def test_invest_preconditions(setup, words):
    state = ready(4, CY=("CY3",))
    state = setup(state)
    state = state._replace(bank=state.bank + (2000 - state.seats[0].yen) - sum(st for _, st in line(state, "G").specs))
    assert_illegal(state, Move("invest", 0, {"card": "CY3", "action": 0, "line": "G"}), words)


def test_start_places_a_train_at_stop_one_and_raises_the_value():
    state = ready(2, SE=("SE1",))
    state, events = metro.apply(state, Move("start", 0, {"card": "SE1", "action": 0, "line": "Z"}))
    z = line(state, "Z")
    assert z.train == 0 and z.dir == 1 and z.value == 300 and z.holders == ()
    assert state.seats[0].yen == 2000 - 200       # start is free (the 200 was the round-1 bid)
    state2 = with_turn(ready(2, SE=("SE2",)), 0)
    state2 = with_line(state2, "Z", train=4)
    assert_illegal(state2, Move("start", 0, {"card": "SE2", "action": 0, "line": "Z"}), "on the board already")


# --- tempo ---------------------------------------------------------------------------------------------

def test_tempo_takes_tokens_as_many_as_are_left():
    state = ready(2, GM=("GM4",))
    state = state._replace(tempo_supply=1)
    state = with_seat(state, 1, tempo=11)
    state = act(state, 0, "tempo", "GM4")
    assert state.seats[0].tempo == 1 and state.tempo_supply == 0
    check_invariants(state)
    empty = ready(2, GM=("GM7",))._replace(tempo_supply=0)
    empty = with_seat(empty, 1, tempo=12)
    assert_illegal(empty, Move("tempo", 0, {"card": "GM7", "action": 0}), "no tempo token")


def test_tempo_tokens_are_assigned_before_an_action_never_in_a_passing_turn():
    state = ready(2, GM=("GM1",), ZN=("ZN3",))
    state = state._replace(tempo_supply=10)
    state = with_seat(state, 0, tempo=2)
    kinds = {m.kind for m in metro.legal_moves(state, 0)}
    assert "assign_tempo" in kinds
    state = apply(state, Move("assign_tempo", 0, {"line": "H"}))
    state = apply(state, Move("assign_tempo", 0, {"line": "H"}))   # more than one in a turn
    assert line(state, "H").tempo == 2 and state.seats[0].tempo == 0
    assert metro.pending(state) == [Pending(0)]                    # still seat 0's turn
    assert "pass" not in {m.kind for m in metro.legal_moves(state, 0)}
    assert_illegal(state, Move("pass", 0, {}), "never assigned in a turn in which you pass")
    state = act(state, 0, "bid_bonus", "ZN3")
    assert metro.pending(state) == [Pending(1)]


def test_tempo_needs_an_empty_disc_space_shared_with_speculations():
    state = ready(2, ZN=("ZN3",))
    state = state._replace(tempo_supply=10)
    state = with_seat(with_seat(state, 0, tempo=1), 1, specs_left=1)
    state = with_line(state, "C", tempo=1, specs=((1, 0), (1, 0)))  # 1 token + 2 discs: no space left
    state = with_seat(state, 1, specs_left=0)
    assert "C" not in {m.args["line"] for m in metro.legal_moves(state, 0) if m.kind == "assign_tempo"}
    assert_illegal(state, Move("assign_tempo", 0, {"line": "C"}), "no empty disc space")


def test_tempo_makes_the_train_move_one_more_stop_each():
    state = ready(2)
    state = with_line(state, "G", train=0, dir=1, tempo=2, holders=(0,), value=1000)
    state = pass_all(state)
    state = apply(state, Move("run_trains", state.order[0], {}))
    assert line(state, "G").train == 7


# --- bicycle, discount ----------------------------------------------------------------------------------

def test_bicycle_one_at_a_time_while_the_supply_lasts():
    state = ready(2, GM=("GM3", "GM5"))
    state = act(state, 0, "bicycle", "GM3")
    assert state.seats[0].bicycle and state.bicycles == 3
    state = apply(state, Move("pass", 1, {}))
    assert_illegal(state, Move("bicycle", 0, {"card": "GM5", "action": 1}), "one at a time")
    empty = with_seat(ready(2, GM=("GM3",)), 1, bicycle=True)._replace(bicycles=0)
    assert_illegal(empty, Move("bicycle", 0, {"card": "GM3", "action": 0}), "no bicycle")


def test_discount_lowers_a_later_printed_cost_and_frees_the_discount_action():
    state = ready(2, AI=("AI1", "AI8"), HT=("HT4",))
    state = at_station(state, 0, "otemachi")
    state = act(state, 0, "discount", "AI1")                       # 200 off
    state = apply(state, Move("pass", 1, {}))
    assert state.seats[0].discounts == (("AI1", 0),)
    yen = state.seats[0].yen
    state = act(state, 0, "station", "HT4", station="otemachi", discounts=("AI1/0",))
    assert state.seats[0].yen == yen - (300 - 200) * 3             # discount before the circles multiply
    assert ("AI1", 0) not in state.occupied and state.seats[0].discounts == ()
    assert state.seats[0].used == 2                                 # the discount's disc sits on the station
    # the lifted discount action may be taken again this round
    state = act(state, 0, "discount", "AI1")
    assert ("AI1", 0) in state.occupied
    check_invariants(state)


def test_discounts_never_push_a_cost_below_zero_and_only_apply_to_printed_costs():
    state = ready(2, AI=("AI7", "AI8"), ZN=("ZN2",))
    state = act(state, 0, "discount", "AI7")                       # 400 off
    state = apply(state, Move("pass", 1, {}))
    state = with_seat(state, 0, loans=1)
    state = state._replace(loan_supply=7)
    assert_illegal(state, Move("repay", 0, {"card": "ZN2", "action": 1, "discounts": ("AI7/0",)}), "printed yen cost")
    assert_illegal(state, Move("action_disc", 0, {"card": "AI8", "action": 0, "discounts": ("AI1/0",)}),
                   "not a discount action holding your discs")
    yen = state.seats[0].yen
    with_more = with_seat(state, 0, discs=4)._replace(disc_supply=(2, 3))
    with_more = act(with_more, 0, "action_disc", "AI8", discounts=("AI7/0",))
    assert with_more.seats[0].yen == yen - 400


# --- bid bonus, loans ------------------------------------------------------------------------------------

def test_loan_and_repayment():
    state = ready(2, ZN=("ZN2", "ZN5"))
    bank = state.bank
    state = act(state, 0, "loan", "ZN2")
    assert state.seats[0].yen == 1800 + 1000 and state.seats[0].loans == 1 and state.loan_supply == 7
    assert state.bank == bank - 1000
    state = act(state, 1, "loan", "ZN5")
    state = act(state, 0, "repay", "ZN2", 1)
    assert state.seats[0].yen == 1800 and state.seats[0].loans == 0 and state.loan_supply == 7


def test_loan_needs_a_token_and_repay_needs_a_loan_and_1000():
    state = ready(2, ZN=("ZN2",))
    assert_illegal(state, Move("repay", 0, {"card": "ZN2", "action": 1}), "no loan")
    no_tokens = with_seat(state, 1, loans=8)._replace(loan_supply=0)
    assert_illegal(no_tokens, Move("loan", 0, {"card": "ZN2", "action": 0}), "no loan token")
    poor = with_seat(with_seat(state, 0, loans=1, yen=900), 1, loans=0)._replace(loan_supply=7)
    assert_illegal(poor, Move("repay", 0, {"card": "ZN2", "action": 1}), "you have 900")


# --- speculate ------------------------------------------------------------------------------------------

def test_speculation_stakes_at_least_the_lower_number_on_a_line_worth_100():
    state = ready(2, ZN=("ZN1", "ZN7"))
    assert_illegal(state, Move("speculate", 0, {"card": "ZN1", "action": 0, "line": "G", "stake": 300}), "at least 100")
    state = with_line(state, "G", value=2900, train=0, holders=(1,))
    stakes = sorted(m.args["stake"] for m in metro.legal_moves(state, 0) if m.kind == "speculate" and m.args["line"] == "G")
    assert stakes[0] == 900                                        # the lower number beside 2,900
    assert_illegal(state, Move("speculate", 0, {"card": "ZN1", "action": 0, "line": "G", "stake": 800}), "least stake")
    yen = state.seats[0].yen
    state = act(state, 0, "speculate", "ZN1", line="G", stake=1200)   # more than the minimum is fine
    assert line(state, "G").specs == ((0, 1200),) and state.seats[0].yen == yen - 1200
    assert state.seats[0].specs_left == 1
    check_invariants(state)


def test_speculation_never_on_a_line_you_hold_a_share_of_and_two_per_game():
    state = ready(2, ZN=("ZN1", "ZN7", "ZN9"))
    state = with_line(state, "G", value=1000, train=0, holders=(0,))
    assert_illegal(state, Move("speculate", 0, {"card": "ZN1", "action": 0, "line": "G", "stake": 300}), "hold a share")
    state = with_line(state, "M", value=1000, train=0)
    state = act(state, 0, "speculate", "ZN1", line="M", stake=300)
    state = apply(state, Move("pass", 1, {}))
    state = act(state, 0, "speculate", "ZN7", line="M", stake=300)    # the same line twice is allowed
    assert line(state, "M").specs == ((0, 300), (0, 300))
    state = with_seat(state, 0, used=0)
    assert_illegal(state, Move("speculate", 0, {"card": "ZN9", "action": 1, "line": "M", "stake": 300}), "both speculation discs")


def test_speculation_needs_an_empty_disc_space():
    state = ready(2, ZN=("ZN1",))
    state = with_line(state, "M", value=1000, train=0, tempo=3)
    state = state._replace(tempo_supply=9)
    assert_illegal(state, Move("speculate", 0, {"card": "ZN1", "action": 0, "line": "M", "stake": 300}), "no empty disc space")


# --- action disc, card ---------------------------------------------------------------------------------

def test_action_disc_adds_a_disc_usable_this_round_up_to_six():
    state = ready(2, AI=("AI8",), GM=("GM1",))
    state = act(state, 0, "action_disc", "AI8")
    assert state.seats[0].discs == 4 and state.disc_supply[0] == 2 and state.seats[0].yen == 1800 - 800
    assert state.seats[0].discs - state.seats[0].used == 3
    six = with_seat(ready(2, AI=("AI8",)), 0, discs=6)._replace(disc_supply=(0, 3))
    assert_illegal(six, Move("action_disc", 0, {"card": "AI8", "action": 0}), "the most allowed")


def test_card_takes_the_top_of_a_discard_pile_for_its_owner_alone():
    state = ready(2, AI=("AI6",))
    assert_illegal(state, Move("card", 0, {"card": "AI6", "action": 0, "column": 0}), "empty")
    cols = list(state.columns)
    cols[0] = cols[0]._replace(deck=((), ("GM4", "GM5", "GM6"), ("GM7", "GM8", "GM9")), slots=("GM1",),
                               discard=("GM2", "GM3"))
    state = state._replace(columns=tuple(cols))
    check_invariants(state)
    state = act(state, 0, "card", "AI6", column=0)
    assert state.seats[0].cards == ("GM3",) and state.columns[0].discard == ("GM2",)
    assert state.seats[0].yen == 1800 - 300
    # only the owner may use it, and already this round
    f = state.seats[1].field
    assert_illegal(state, Move("move", 1, {"card": "GM3", "action": 1, "field": f}), "only its owner")
    state = apply(state, Move("pass", 1, {}))
    state = act(state, 0, "bicycle", "GM3")
    assert state.seats[0].bicycle
    view = metro.view(state, None)
    assert view["players"][0]["cards"][0]["id"] == "GM3"
    assert view["columns"][0]["discard_top"]["id"] == "GM2"
    check_invariants(state)


# --- getting off a train outside the train phase ----------------------------------------------------------

def test_a_rider_may_get_off_in_their_own_turn_after_the_train_moved():
    state = ready(2, GM=("GM1",))
    state = with_line(state, "G", train=5, dir=1, holders=(1,), value=500)
    state = with_seat(state, 0, field=-1, riding=0, moved=False)
    assert "alight" not in {m.kind for m in metro.legal_moves(state, 0)}
    s = state.board.lines[0].stop_station[5]
    f = state.board.stations[s].fields[0]
    assert_illegal(state, Move("alight", 0, {"field": f}), "at least one stop")
    state = with_seat(state, 0, moved=True)
    state = apply(state, Move("alight", 0, {"field": f}))
    assert state.seats[0].field == f and state.seats[0].riding == -1
    assert metro.pending(state) == [Pending(0)]              # a free move: still seat 0's turn
