"""LEMON SQUASH, one test per rule, driven with explicit moves (chance included)."""

import copy
import json

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import lemon_squash as ls

ORDER = ("tall_can", "stubby_can", "tallest_bottle", "square_bottle", "not_tallest_bottle")


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def game(n=3, order=None, cards=ORDER, **options):
    """Units placed farthest first in ``order`` (default 0, 1, 2, ...), then the knock-down order."""
    state = ls.setup({"names": [f"P{i + 1}" for i in range(n)], "options": options})
    order = order or list(range(len(state.units)))
    state, _ = ls.apply(state, chance("start_order", order=tuple(order)))
    for s in cards[:4]:
        state, _ = ls.apply(state, chance("order_card", shape=s))
    return state


def play(state, *moves):
    for m in moves:
        state, _ = ls.apply(state, m)
    return state


def flick(state, result, drink=None):
    who = ls.pending(state)[0].actor
    args = {"result": result} if drink is None else {"result": result, "drink": drink}
    return play(state, Move("flick", who, args))


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        ls.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


# --- setup ------------------------------------------------------------------------------------

def test_registered():
    assert GAMES["lemon_squash"] is ls.GAME


def test_setup_a_colour_each_five_drinks_in_the_arena_500_yen():
    state = ls.setup({"names": ["A", "B", "C"]})
    assert [u.colour for u in state.units] == ["black", "white", "mint"]
    assert [u.yen for u in state.units] == [500] * 3
    assert len(state.arena) == 15 and not any(d.endswith("-short_can") for d in state.arena)
    assert state.phase == ls.ORDER and ls.pending(state) == [Pending(CHANCE)]


def test_start_order_is_whose_short_can_landed_farthest():
    state = ls.setup({"names": ["A", "B", "C"]})
    assert [m.args["unit"] for m, _ in ls.chance(state).outcomes] == [0, 1, 2]
    state = play(state, chance("farthest", unit=2))
    assert [m.args["unit"] for m, _ in ls.chance(state).outcomes] == [0, 1]
    assert_illegal(state, chance("farthest", unit=2), "not placed in the order yet")
    state = play(state, chance("farthest", unit=0))  # the last one follows by itself
    assert state.start_order == (2, 0, 1) and state.phase == ls.SHUFFLE


def test_start_order_as_one_observation():
    state = play(ls.setup({"names": ["A", "B"]}), chance("start_order", order=(1, 0)))
    assert state.start_order == (1, 0)
    assert_illegal(ls.setup({"names": ["A", "B"]}), chance("start_order", order=(1, 1)), "every player or team")


def test_knock_down_order_from_the_shuffled_shape_cards_without_the_short_can():
    state = play(ls.setup({"names": ["A", "B"]}), chance("start_order", order=(0, 1)))
    assert sorted(m.args["shape"] for m, _ in ls.chance(state).outcomes) == sorted(ls.TARGET_SHAPES)
    assert "short_can" not in ls.TARGET_SHAPES
    assert_illegal(state, chance("order_card", shape="short_can"), "still to be laid")
    state = game(2)
    assert state.cards == ORDER and state.phase == ls.PLAY


# --- flicking -----------------------------------------------------------------------------------

def test_turns_follow_the_start_order():
    state = game(3, order=[2, 0, 1])
    seen = []
    for _ in range(6):
        seen.append(ls.pending(state)[0].actor)
        state = flick(state, "miss")
    assert seen == [2, 0, 1, 2, 0, 1] and state.round == 3


def test_knocking_over_the_next_shape_of_any_colour_takes_it():
    state = game(2)
    # the first target is a tall can; the other player's colour counts the same
    moves = ls.legal_moves(state, 0)
    assert {m.args.get("drink") for m in moves if m.args["result"] == "hit"} == {"black-tall_can", "white-tall_can"}
    state = flick(state, "hit", "white-tall_can")
    assert state.units[0].collected == ("white-tall_can",) and "white-tall_can" not in state.arena
    assert ls.target(state, 0) == "stubby_can" and ls.target(state, 1) == "tall_can"


def test_knocking_over_a_wrong_drink_is_a_foul_not_a_take():
    state = game(2)
    assert_illegal(state, Move("flick", 0, {"result": "hit", "drink": "black-stubby_can"}), "not the drink needed next")
    state = flick(state, "foul")
    # 100 to the bank: 500 - 100 = 400; nothing taken
    assert state.units[0].yen == 400 and state.units[0].collected == () and state.bank == -1000 + 100


def test_out_of_yen_stand_the_drinks_back_up_and_take_500():
    state = game(2, start_yen=100)
    state = flick(state, "hit", "black-tall_can")
    state = flick(state, "miss")
    state = flick(state, "foul")  # 100 - 100 = 0: the tall can goes back, 500 again
    assert state.units[0].yen == 500 and state.units[0].collected == ()
    assert "black-tall_can" in state.arena


def test_the_first_to_take_all_five_in_order_wins():
    state = game(2)
    for shape in ORDER:
        state = flick(state, "hit", f"white-{shape}")
        if state.phase == ls.OVER:
            break
        state = flick(state, "miss")
    assert state.phase == ls.OVER and state.winners == (0,) and state.end == "all_five"
    assert ls.payouts(state)["final"] is True and ls.payouts(state)["winners"] == [0]


def test_teams_from_seven_players_share_a_colour_and_flick_in_turn():
    state = game(7)
    assert [u.seats for u in state.units] == [(0, 1), (2, 3), (4, 5), (6,)]
    assert len(state.arena) == 20
    seen = []
    for _ in range(8):
        seen.append(ls.pending(state)[0].actor)
        state = flick(state, "miss")
    assert seen == [0, 2, 4, 6, 1, 3, 5, 6]
    v = ls.view(state, None)
    assert v["teams"] is True and v["players"][1]["unit"] == 0 and v["players"][1]["yen"] == 500


def test_teams_option_and_colours():
    state = game(4, teams=[[0, 2], [1, 3]], colours=["red", "blue"])
    assert [(u.seats, u.colour) for u in state.units] == [((0, 2), "red"), ((1, 3), "blue")]
    with pytest.raises(IllegalMove, match="exactly one team"):
        ls.setup({"names": list("ABCD"), "options": {"teams": [[0, 1], [1, 2, 3]]}})
    with pytest.raises(IllegalMove, match="make teams"):
        ls.setup({"names": list("ABCDEFG"), "options": {"teams_from": 13}})


def test_round_limit_the_furthest_along_wins():
    state = game(2, max_rounds=1)
    state = flick(state, "miss")
    state = flick(state, "hit", "black-tall_can")
    assert state.phase == ls.OVER and state.end == "round_limit" and state.winners == (1,)


@pytest.mark.parametrize("n", [1, 13])
def test_two_to_twelve_players(n):
    with pytest.raises(IllegalMove, match="2 to 12 players"):
        ls.setup({"names": [str(i) for i in range(n)]})


# --- illegal moves, JSON, views ------------------------------------------------------------------

def test_illegal_moves_change_nothing():
    state = game(3)
    assert_illegal(state, Move("flick", 1, {"result": "miss"}), "not p2's turn")
    assert_illegal(state, Move("flick", 0, {"result": "bounce"}), "miss, hit, foul")
    assert_illegal(state, Move("flick", 0, {"result": "hit"}), "needs 'drink'")
    assert_illegal(state, chance("farthest", unit=0), "no 'farthest' outcome")
    state = flick(state, "hit", "black-tall_can")
    assert_illegal(state, Move("flick", 1, {"result": "hit", "drink": "black-tall_can"}), "not standing")


@pytest.mark.parametrize("move", [
    chance("farthest", unit=1), chance("start_order", order=(2, 0, 1)), chance("order_card", shape="tall_can"),
    Move("flick", 0, {"result": "hit", "drink": "red-tall_can"}), Move("flick", 1, {"result": "foul"}),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_view_has_what_a_dashboard_needs():
    state = flick(game(3, order=[1, 2, 0]), "hit", "mint-tall_can")
    v = ls.view(state, None)
    assert v["knock_order"] == list(ORDER) and v["start_order"] == [1, 2, 0]
    assert v["units"][1]["collected"] == ["mint-tall_can"] and v["units"][1]["next_shape"] == "stubby_can"
    assert v["units"][1]["place"] == 1 and v["turn"] == 2 and v["turn_unit"] == 2
    assert "mint-tall_can" not in v["arena"] and v["players"][2]["colour"] == "mint"
    json.dumps(v)
    assert ls.move_info(state, Move("flick", 2, {"result": "foul"})).cost == 100


def test_module_doctests():
    import doctest

    result = doctest.testmod(ls)
    assert result.failed == 0 and result.attempted > 0
