"""MELON SODA, one test per rule, driven with explicit moves (chance included)."""

import copy
import json
from dataclasses import replace

import pytest

from companion.drinks import COLOURS
from companion.rules.engine import CHANCE, ChanceDrop, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import melon_soda as ms


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def game(n=3, start=0, **options):
    return ms.setup({"names": [f"P{i + 1}" for i in range(n)], "start_player": start, "options": options})


def play(state, *moves):
    for m in moves:
        state, _ = ms.apply(state, m)
    return state


def yen(state):
    return [s.yen for s in state.seats]


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        ms.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def with_seat(state, p, **changes):
    """A state with seat p's holdings set directly (drinks moved from the box)."""
    seats = list(state.seats)
    seats[p] = replace(seats[p], **changes)
    return replace(state, seats=tuple(seats))


# --- setup ------------------------------------------------------------------------------------

def test_registered():
    assert GAMES["melon_soda"] is ms.GAME


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_six_drinks_one_per_colour_and_1000_yen(n):
    state = game(n)
    assert yen(state) == [1000] * n
    for s in state.seats:
        assert len(s.supply) == 6 and s.crate == () and s.beside == ()
        assert sorted(d.split("-")[0] for d in s.supply) == sorted(c.value for c in COLOURS)
        # the companion's deal gives everyone one of every shape too
        assert len({d.split("-")[1] for d in s.supply}) == 6
    dealt = [d for s in state.seats for d in s.supply]
    assert len(set(dealt)) == 6 * n and len(state.box) == 36 - 6 * n


@pytest.mark.parametrize("n", [1, 7])
def test_setup_two_to_six_players(n):
    with pytest.raises(IllegalMove, match="2 to 6 players"):
        ms.setup({"names": [str(i) for i in range(n)]})


def test_random_deal_by_chance_then_random_start_player():
    state = ms.setup({"names": ["A", "B"], "options": {"deal": "random"}})
    assert state.phase == ms.DEAL and ms.pending(state) == [Pending(CHANCE)]
    spec = ms.chance(state)
    assert [m.args["drink"] for m, _ in spec.outcomes] == [f"black-{s}" for s in
                                                            ("stubby_can", "short_can", "tall_can", "square_bottle",
                                                             "not_tallest_bottle", "tallest_bottle")]
    assert_illegal(state, chance("deal", drink="white-tall_can"), "black drink")
    for _ in range(12):
        state = play(state, ms.chance(state).outcomes[-1][0])
    assert state.phase == ms.START
    assert all(len(s.supply) == 6 for s in state.seats)
    assert [m for m, _ in ms.chance(state).outcomes] == [chance("start_player", seat=0), chance("start_player", seat=1)]
    state = play(state, chance("start_player", seat=1))
    assert state.phase == ms.TURN and state.player == 1


# --- turns ------------------------------------------------------------------------------------

def test_add_a_drink_or_100_yen_then_the_player_to_the_left():
    state = game(3, start=2)
    d = state.seats[2].supply[0]
    state, events = ms.apply(state, Move("add_drink", 2, {"drink": d}))
    assert state.pot == (d,) and d not in state.seats[2].supply and state.player == 0
    state = play(state, Move("add_yen", 0))
    assert state.pot_yen == 100 and yen(state) == [900, 1000, 1000] and state.player == 1


def test_take_keeps_the_yen_throws_the_drinks_and_starts_a_new_pot_with_a_drink():
    state = game(3)
    a, b = state.seats[0].supply[0], state.seats[1].supply[0]
    refill = state.seats[2].supply[0]
    state = play(state, Move("add_drink", 0, {"drink": a}), Move("add_drink", 1, {"drink": b}))
    state = play(state, Move("add_yen", 2), Move("add_yen", 0), Move("add_yen", 1))
    refill = state.seats[2].supply[1]
    state, events = ms.apply(state, Move("take", 2, {"add": refill}))
    # seat 2 keeps the pot's 300 yen: 900 + 300 = 1200
    assert yen(state)[2] == 1200 and state.phase == ms.DROP
    spec = ms.chance(state)
    assert isinstance(spec, ChanceDrop) and spec.thrown == (a, b)
    state = play(state, chance("drop", out=(a,)))
    assert state.seats[2].crate == (a,)
    assert state.tower.inside == {b}
    assert state.pot == (refill,) and state.pot_yen == 0 and refill not in state.seats[2].supply
    assert state.player == 0 and state.phase == ms.TURN


def test_take_requires_a_drink_to_start_the_new_pot():
    state = game(2)
    state = play(state, Move("add_yen", 0))
    state = with_seat(state, 1, supply=())  # (moved aside for the test; drinks are not counted here)
    assert not [m for m in ms.legal_moves(state, 1) if m.kind == "take"]
    assert_illegal(state, Move("take", 1, {"add": "yen"}), "start the new one with a drink")
    assert_illegal(state, Move("take", 1, {"add": "red-tall_can"}), "only with a drink left in your supply")


def test_refill_with_yen_option():
    state = play(game(2, refill_with_yen=True), Move("add_yen", 0))
    state, _ = ms.apply(state, Move("take", 1, {"add": "yen"}))
    # seat 1 takes 100 and starts the new pot with 100: 1000 + 100 - 100 = 1000
    assert yen(state) == [900, 1000] and state.pot_yen == 100 and state.pot == ()


def test_cannot_take_an_empty_pot():
    state = game(2)
    assert not [m for m in ms.legal_moves(state, 0) if m.kind == "take"]
    assert_illegal(state, Move("take", 0, {"add": state.seats[0].supply[0]}), "pot is empty")


def test_drinks_out_with_a_full_crate_go_beside_it():
    state = game(3)
    full = tuple(sorted(state.box))[:6]
    state = replace(with_seat(state, 1, crate=full), box=state.box - set(full))
    a = state.seats[0].supply[0]
    state = play(state, Move("add_drink", 0, {"drink": a}), Move("take", 1, {"add": state.seats[1].supply[0]}))
    state = play(state, chance("drop", out=(a,)))
    assert state.seats[1].crate == full and state.seats[1].beside == (a,)
    assert state.phase == ms.TURN and state.player == 2


def test_more_out_than_free_slots_the_taker_chooses_which_go_in():
    state = game(3)
    five = tuple(sorted(state.box))[:5]
    state = replace(with_seat(state, 1, crate=five), box=state.box - set(five))
    a, b = state.seats[0].supply[:2]
    state = play(state, Move("add_drink", 0, {"drink": a}), Move("add_yen", 1), Move("add_yen", 2),
                 Move("add_drink", 0, {"drink": b}))
    state = play(state, Move("take", 1, {"add": state.seats[1].supply[0]}), chance("drop", out=(a, b)))
    assert state.phase == ms.PLACE and ms.pending(state) == [Pending(1)]
    assert ms.legal_moves(state, 1) == [Move("to_crate", 1, {"drink": a}), Move("to_crate", 1, {"drink": b})]
    assert_illegal(state, Move("to_crate", 1, {"drink": "red-tall_can"}), "did not just come out")
    state = play(state, Move("to_crate", 1, {"drink": b}))
    assert state.seats[1].crate == five + (b,) and state.seats[1].beside == (a,)
    assert state.phase == ms.TURN and state.player == 2


def test_stuck_drinks_go_to_whoever_pushes_them_out():
    state = game(2)
    a, b = state.seats[0].supply[:2]
    state = play(state, Move("add_drink", 0, {"drink": a}), Move("take", 1, {"add": state.seats[1].supply[0]}),
                 chance("drop", out=()))
    assert state.tower.inside == {a}
    state = play(state, Move("take", 0, {"add": b}))
    assert set(ms.chance(state).candidates) == {state.thrown[0], a}
    state = play(state, chance("drop", out=(a,)))
    assert a in state.seats[0].crate


def test_spilled_drink_goes_back_to_the_pot():
    state = game(2)
    a = state.seats[0].supply[0]
    state = play(state, Move("add_drink", 0, {"drink": a}), Move("take", 1, {"add": state.seats[1].supply[0]}),
                 chance("drop", out=()))
    state = play(state, chance("spill", out=(a,)))
    assert a in state.pot and not state.tower.inside
    assert_illegal(state, chance("spill", out=(a,)), "stuck inside")


# --- the end -----------------------------------------------------------------------------------

def test_end_when_all_but_one_crate_is_full():
    state = game(3)
    six, six2 = tuple(sorted(state.box))[:6], tuple(sorted(state.box))[6:12]
    state = with_seat(with_seat(state, 1, crate=six), 2, crate=six2)
    state = replace(state, box=state.box - set(six) - set(six2))
    state, events = ms.apply(state, Move("add_yen", 0))
    assert state.phase == ms.OVER and state.final["reason"] == "crates_full"


def test_end_when_a_player_has_no_yen_and_no_drinks():
    state = game(3)
    last = state.seats[0].supply[0]
    state = with_seat(state, 0, yen=0, supply=(last,))
    state = play(state, Move("add_drink", 0, {"drink": last}))
    # seat 0 has neither yen nor supply drinks: the game ends at once
    assert state.phase == ms.OVER and state.final["reason"] == "broke"


def test_end_when_only_one_player_has_supply_drinks():
    state = game(3)
    state = with_seat(state, 1, supply=())
    state = replace(state, box=state.box | set(game(3).seats[1].supply))
    state = play(state, Move("add_drink", 0, {"drink": state.seats[0].supply[0]}))
    assert state.phase == ms.TURN
    state = with_seat(state, 0, supply=())
    state = replace(state, box=state.box | set(state.seats[0].supply) | set(game(3).seats[0].supply[1:]))
    state = play(state, Move("add_yen", 1))
    assert state.phase == ms.OVER and state.final["reason"] == "supplies_empty"


def test_scoring_distinct_colours_and_shapes_times_players_times_100_minus_penalties():
    state = game(3)
    crate = ("red-tall_can", "red-short_can", "blue-tall_can", "mint-stubby_can")  # 3 colours, 3 shapes
    state = with_seat(state, 0, crate=crate, beside=("white-tall_can",), supply=state.seats[0].supply[:1])
    sc = ms.score(state, 0)
    # (3 colours + 3 shapes) x 3 players x 100 = 1800
    # 2 empty slots + 1 beside + 1 unused supply drink = 4 x -100 = -400
    assert sc["bonus"] == 1800 and sc["penalty"] == 400
    assert ms.payouts(state)["projected"][0] == 1000 + 1800 - 400


def test_final_scores_and_winner():
    state = game(2)
    s0 = ("red-tall_can", "blue-short_can", "mint-stubby_can", "white-square_bottle", "black-tallest_bottle",
          "purple-not_tallest_bottle")
    state = with_seat(state, 0, crate=s0)
    state = with_seat(state, 1, crate=s0[:1])
    state, events = ms.apply(state, Move("add_yen", 0))
    # seat 0: 900 + (6 + 6) x 2 x 100 = 3300, minus 6 unused supply drinks = 2700
    # seat 1: 1000 + (1 + 1) x 2 x 100 = 1400, minus 5 empty slots and 6 supply drinks = 300
    assert state.final["totals"] == [2700, 300]
    assert state.winners == (0,)
    assert ms.payouts(state)["final"] is True
    assert events[-1].kind == "game_over"


def test_tie_shares_the_win():
    state = game(2)
    state = with_seat(state, 0, supply=())
    state = with_seat(state, 1, supply=(), yen=900)
    state, _ = ms.apply(state, Move("add_yen", 0))
    # both: 900 + 0 bonus - 6 empty slots x 100 = 300
    assert state.final["totals"] == [300, 300] and state.winners == (0, 1)


# --- estimates ---------------------------------------------------------------------------------

def test_estimates_of_the_final_yen_for_each_move():
    """Everything that decides the result lies open, so any viewer is estimated from the table as it is."""
    import random

    state = game(3)
    moves = ms.legal_moves(state, 0)
    est = ms.GAME.estimate(state, 0, moves, random.Random(1), playouts=12, viewer=0)
    assert ms.GAME.offers_estimates and est["playouts"] == 12
    assert [m["move"] for m in est["moves"]] == [m.to_json() for m in moves]
    assert sum(m["n"] for m in est["moves"]) == 12 and est["overall"]["mean"] is not None


# --- illegal moves, JSON, views ------------------------------------------------------------------

def test_illegal_moves_change_nothing():
    state = game(3)
    assert_illegal(state, Move("add_yen", 1), "not p2's turn")
    assert_illegal(state, Move("add_drink", 0, {"drink": "red"}), "drink id")
    assert_illegal(state, Move("add_drink", 0, {"drink": state.seats[1].supply[0]}), "not in your supply")
    assert_illegal(state, Move("to_crate", 0, {"drink": "red-tall_can"}), "not to to_crate")
    assert_illegal(state, chance("drop", out=()), "no 'drop' outcome")
    assert_illegal(game(2, start_yen=0), Move("add_yen", 0), "costs 100")


@pytest.mark.parametrize("move", [
    Move("add_drink", 0, {"drink": "red-tall_can"}), Move("add_yen", 1), Move("take", 0, {"add": "red-tall_can"}),
    Move("take", 0, {"add": "yen"}), Move("to_crate", 1, {"drink": "blue-short_can"}),
    chance("deal", drink="black-tall_can"), chance("start_player", seat=1), chance("drop", out=("red-tall_can",)),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_view_has_what_a_dashboard_needs():
    state = game(3)
    d = state.seats[0].supply[0]
    state = play(state, Move("add_drink", 0, {"drink": d}), Move("add_yen", 1))
    v = ms.view(state, 2)
    assert v["pot"] == {"yen": 100, "drinks": [d]}
    assert v["turn"] == 2 and v["players"][2]["turn"] is True
    p0 = v["players"][0]
    assert p0["supply"] == list(state.seats[0].supply) and p0["crate"] == [] and p0["crate_free"] == 6
    assert "tower" in v and v["tower"]["stuck"] == []
    json.dumps(v)
    assert ms.move_info(state, Move("take", 2, {"add": state.seats[2].supply[0]})).pays_up_to == 100
    assert ms.move_info(state, Move("add_yen", 2)).cost == 100


def test_module_doctests():
    import doctest

    result = doctest.testmod(ms)
    assert result.failed == 0 and result.attempted > 0
