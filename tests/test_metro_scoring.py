"""TOKYO METRO end scoring: the rule book's worked examples, speculation, values over 6,000, loans,
the tie-break; and the end of a game driven through the engine."""
import pytest

from companion.rules.engine import IllegalMove, Move
from companion.rules.metro import game as metro
from companion.rules.metro.scoring import final, half_up, share_payouts
from companion.rules.metro.state import ACTIONS, OVER, TRAINS
from test_metro_support import (apply, check_invariants, deal_all, new_game, to_actions, total_yen, with_line,
                                with_seat)


def scored(state, letter="G"):
    result = final(state)
    return result, next(r for r in result["lines"] if r["line"] == letter)


def game_with(holders=(), specs=(), value=2900, n=4):
    state = deal_all(new_game(n))
    return with_line(state, "G", value=value, holders=tuple(holders), specs=tuple(specs), train=0)


# --- the rule book's worked example: a line worth 2,900 ------------------------------------------------

def test_one_holder_takes_the_whole_value():
    """Worked example: 000 TOKYO METRO, Aktienauszahlungen. One holder of a line worth 2,900 gets 2,900."""
    _, g = scored(game_with(holders=[2]))
    assert [s["paid"] for s in g["shares"]] == [2900]


def test_two_holders_take_the_two_numbers_beside_the_value():
    """Worked example: 000 TOKYO METRO, Aktienauszahlungen. Two holders: 2,000 and 900."""
    _, g = scored(game_with(holders=[1, 3]))
    assert [(s["seat"], s["share"], s["paid"]) for s in g["shares"]] == [(1, 1, 2000), (3, 2, 900)]


def test_three_holders_half_rounded_up_then_the_two_numbers_beside_the_rest():
    """Worked example: 000 TOKYO METRO, Aktienauszahlungen. Three holders: 1,500, 1,000 and 400."""
    _, g = scored(game_with(holders=[0, 1, 2]))
    assert [s["paid"] for s in g["shares"]] == [1500, 1000, 400]


def test_four_holders_each_take_half_of_what_is_left_the_last_the_rest():
    """Worked example: 000 OSAKA METRO, Endwertung (vier Aktien). A line worth 2,000 with four
    holders pays 1,000, 500, 300 (half of 500, rounded up to 100) and the 200 left."""
    from companion.rules.metro.cards import default_track
    assert share_payouts(default_track(), 2000, 4) == [1000, 500, 300, 200]


def test_half_rounds_up_to_the_next_100():
    assert half_up(2900) == 1500 and half_up(2800) == 1400 and half_up(100) == 100 and half_up(0) == 0


def test_share_payouts_never_pay_more_than_the_value():
    from companion.rules.metro.cards import default_track
    track = default_track()
    for value in range(0, 15_001, 100):
        for k in (1, 2, 3, 4):
            pays = share_payouts(track, value, k)
            assert len(pays) == k and sum(pays) == value and all(p >= 0 for p in pays), (value, k, pays)


# --- speculation -----------------------------------------------------------------------------------------

def test_speculation_pays_up_to_twice_the_stake_capped_by_the_lower_number():
    state = game_with(holders=[0], specs=[(1, 300), (2, 500)])
    result, g = scored(state)
    assert g["speculation_cap"] == 900
    assert [(s["seat"], s["paid"]) for s in g["speculations"]] == [(1, 600), (2, 900)]
    # the value then falls by what was paid, and the shares pay from what is left
    assert g["value_after_speculation"] == 2900 - 1500
    assert [s["paid"] for s in g["shares"]] == [1400]
    # the stakes come back on top
    assert result["speculation"][1:3] == [600, 900] and result["stakes_returned"][1:3] == [300, 500]
    assert result["totals"][1] == state.seats[1].yen + 600 + 300


def test_two_speculations_of_one_player_on_one_line_each_pay():
    _, g = scored(game_with(holders=[0], specs=[(1, 500), (1, 500)]))
    assert [s["paid"] for s in g["speculations"]] == [900, 900]
    assert g["value_after_speculation"] == 1100


def test_speculation_and_share_of_the_same_line_are_both_worthless():
    _, g = scored(game_with(holders=[0, 1], specs=[(1, 300)]))
    assert g["speculations"][0]["paid"] == 0
    assert g["shares"][1] == {"seat": 1, "share": 2, "paid": 0, "void": True}
    assert g["shares"][0]["paid"] == 2900     # the one valid holder takes the whole value


def test_values_over_6000_add_the_top_rows_numbers():
    from companion.rules.metro.cards import default_track
    track = default_track()
    top, rest = track.numbers(6000), track.numbers(1300)
    _, g = scored(game_with(holders=[0, 1], value=7300))
    assert [s["paid"] for s in g["shares"]] == [top[0] + rest[0], top[1] + rest[1]]
    _, g = scored(game_with(holders=[0], specs=[(1, 2000)], value=7300))
    assert g["speculation_cap"] == top[1] + rest[1]
    assert g["speculations"][0]["paid"] == min(4000, top[1] + rest[1])
    view = metro.view(game_with(holders=[0], value=7300), None)
    assert view["lines"][0]["over_6000"] is True


# --- loans, the winner ------------------------------------------------------------------------------------

def test_each_loan_costs_1500_at_the_end():
    state = with_seat(game_with(), 2, loans=2, yen=5000)
    result, _ = scored(state)
    assert result["loans"][2] == 3000 and result["totals"][2] == 2000


def test_a_tie_goes_to_the_player_further_left_on_the_order_track():
    state = deal_all(new_game(3))
    state = state._replace(order=(2, 0, 1))
    result = final(state)
    assert result["totals"] == [2000, 2000, 2000]
    assert result["winner"] == 2 and result["ranking"] == [2, 0, 1]


def test_the_game_ends_with_the_scoring_applied_and_yen_conserved():
    state = to_actions(new_game(2))
    state = with_line(state, "G", holders=(0, 1), value=2900, train=0)
    state = with_line(state, "M", value=1000, train=0, specs=((1, 300),))
    state = with_seat(state, 1, yen=state.seats[1].yen - 300, specs_left=1)
    state = with_seat(state, 0, loans=1, yen=state.seats[0].yen + 1000)
    state = state._replace(bank=state.bank - 1000, loan_supply=7)
    check_invariants(state)
    rounds = state.rules.rounds
    while state.phase != OVER:
        if state.phase == ACTIONS:
            state = apply(state, Move("pass", state.order[state.turn], {}))
        elif state.phase == TRAINS:
            state = apply(state, metro.legal_moves(state, metro.pending(state)[0].actor)[-1])
        else:
            who = metro.pending(state)[0].actor
            state = apply(state, metro.legal_moves(state, who)[0])
    assert state.round == rounds
    result = state.result
    assert [s.yen for s in state.seats] == result["totals"]
    assert total_yen(state) == state.options.bank_yen
    g = result["lines"][0]
    assert g["line"] == "G" and len(g["shares"]) == 2
    assert result["loans"] == [1500, 0]
    assert metro.payouts(state)["final"] is True and metro.payouts(state)["winners"] == [result["winner"]]
    assert result["speculation"][1] == 300 and result["stakes_returned"][1] == 300   # capped: low(1000) = 300
    with pytest.raises(IllegalMove, match="over"):
        metro.apply(state, Move("pass", 0, {}))


def test_payouts_project_the_end_scoring_during_the_game():
    state = game_with(holders=[0, 1, 2])
    payouts = metro.payouts(state)
    assert payouts["final"] is False
    assert payouts["projected"][:3] == [s.yen + p for s, p in zip(state.seats, [1500, 1000, 400])]
