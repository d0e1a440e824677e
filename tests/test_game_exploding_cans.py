"""The exploding-cans game (rule book 002, id ``exploding_cans``), one test per rule, driven with
explicit moves. A position is laid out straight into the state (``board``) where a rule needs
drinks standing in certain squares."""

import copy
from dataclasses import replace

import pytest

from companion.rules.engine import IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import exploding_cans as ec


def game(n=2, **options):
    return ec.setup({"names": [f"P{i + 1}" for i in range(n)], "options": options})


def board(state, **squares):
    """The state with drinks standing at squares named like ``r0c1="black-short_can"`` (taken out
    of their owners' supplies)."""
    grid = list(state.grid)
    placed = set()
    for name, d in squares.items():
        r, c = int(name[1]), int(name[3])
        grid[r * 6 + c] = d
        placed.add(d)
    supply = tuple(tuple(x for x in s if x not in placed) for s in state.supply)
    return replace(state, grid=tuple(grid), supply=supply)


def play(state, *moves):
    for m in moves:
        state, _ = ec.apply(state, m)
    return state


def place(seat, drink, row, col):
    return Move("place", seat, {"drink": drink, "row": row, "col": col})


def move(seat, row, col, to_row, to_col):
    return Move("move", seat, {"row": row, "col": col, "to_row": to_row, "to_col": to_col})


def explode(seat, row, col):
    return Move("explode", seat, {"row": row, "col": col})


def assert_illegal(state, m, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        ec.apply(state, m)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


# --- setup ------------------------------------------------------------------------------------

def test_registered_with_a_colour_and_six_drinks_each_an_empty_grid():
    assert GAMES["exploding_cans"] is ec.GAME
    s = game(3)
    assert s.colours == ("black", "white", "mint")
    assert [len(x) for x in s.supply] == [6, 6, 6] and s.supply[1][0] == "white-stubby_can"
    assert s.grid == (None,) * 36 and ec.pending(s) == [Pending(0)]


def test_options_that_cannot_be_played_are_refused_with_what_to_change():
    with pytest.raises(IllegalMove, match="colours"):
        game(2, colours=["red", "red"])
    with pytest.raises(IllegalMove, match="first_seat"):
        game(2, first_seat=2)
    with pytest.raises(IllegalMove, match="coins"):
        game(2, coins=[1, 2])


def test_the_grid_is_six_crates_of_two_by_three():
    assert ec.crate_of(0) == (0, 0) and ec.crate_of(5) == (2, 1) and ec.crate_of(18) == (3, 0)
    assert sorted(ec.crate_of(sq) for sq in range(36)) == [(k, s) for k in range(6) for s in range(6)]


# --- scoring: the worked examples ----------------------------------------------------------------

def test_supply_scores_coins_below_minus_coins_above():
    """Worked example: 002 the exploding-cans game, Spielende und Wertung
    A stubby can left in the supply scores -4 (four coins above its card), a tall can +2 (two below)."""
    s = game()
    assert ec.worth(s, "black-stubby_can", in_grid=False) == -4
    assert ec.worth(s, "black-tall_can", in_grid=False) == 2
    assert ec.scores(s) == (-4 + 1 + 2 - 3 - 2 - 1,) * 2


def test_grid_scores_coins_above_minus_coins_below():
    """Worked example: 002 the exploding-cans game, Spielende und Wertung
    A tallest bottle in the grid scores +1, a short can in the grid -1."""
    s = game()
    assert ec.worth(s, "white-tallest_bottle", in_grid=True) == 1
    assert ec.worth(s, "white-short_can", in_grid=True) == -1
    s = board(s, r0c0="white-tallest_bottle", r5c5="white-short_can")
    assert ec.scores(s)[1] == 1 - 1 + (-4 + 2 - 3 - 2)


def test_a_drink_blown_out_of_the_game_scores_nothing():
    s = board(game(), r0c0="black-short_can", r0c1="white-stubby_can")
    s = play(s, explode(0, 0, 0))
    assert s.out == ("black-short_can", "white-stubby_can")
    assert ec.scores(s) == (2 - 3 - 2 - 1 - 4, 1 + 2 - 3 - 2 - 1)


# --- placing --------------------------------------------------------------------------------

def test_place_from_own_supply_on_an_empty_square_then_the_next_player():
    s = play(game(), place(0, "black-square_bottle", 2, 3))
    assert s.grid[15] == "black-square_bottle" and "black-square_bottle" not in s.supply[0]
    assert ec.pending(s) == [Pending(1)]
    assert len(ec.legal_moves(s, 1)) == 6 * 35
    assert_illegal(s, place(1, "white-tall_can", 2, 3), "empty square")
    assert_illegal(s, place(1, "black-tall_can", 0, 0), "not in your supply")
    assert_illegal(s, place(1, "white-tall_can", 6, 0), "0 to 5")
    assert_illegal(s, place(0, "black-tall_can", 0, 0), "turn")


def test_the_game_ends_when_a_player_places_their_last_drink():
    s = board(game(), r0c0="black-stubby_can", r0c1="black-short_can", r0c2="black-tall_can",
              r0c3="black-square_bottle", r0c4="black-not_tallest_bottle")
    s = play(s, place(0, "black-tallest_bottle", 0, 5))
    assert ec.is_over(s) and s.end == "last_placed"
    assert ec.scores(s) == (4 - 1 - 2 + 3 + 2 + 1, -7)
    assert ec.payouts(s)["winners"] == [0] and ec.payouts(s)["projected"] == [7, -7]
    assert ec.pending(s) == []


def test_a_turn_limit_ends_a_game_of_endless_moves():
    s = board(game(max_turns=2), r0c0="black-tall_can", r5c5="white-tall_can")
    s = play(s, move(0, 0, 0, 1, 0), move(1, 5, 5, 4, 5))
    assert ec.is_over(s) and s.end == "turn_limit" and ec.payouts(s)["winners"] == [0, 1]


# --- moving ---------------------------------------------------------------------------------

def test_move_along_a_row_or_column_any_distance_to_an_empty_square():
    s = board(game(), r2c2="black-tall_can")
    assert ec.destinations(s.grid, 14) == sorted([2, 8, 20, 26, 32, 12, 13, 15, 16, 17])
    s2 = play(s, move(0, 2, 2, 5, 2))
    assert s2.grid[32] == "black-tall_can" and s2.grid[14] is None
    assert_illegal(s, move(0, 2, 2, 3, 3), "row or column")


def test_a_drink_jumps_only_over_lower_drinks():
    """The tallest bottle clears a not-tallest bottle and a stubby can; a tall can not a square
    bottle nor another tall can; the stubby can jumps over nothing."""
    s = board(game(), r0c0="black-tallest_bottle", r0c1="white-not_tallest_bottle", r0c2="white-stubby_can",
              r1c0="black-tall_can", r2c0="white-tall_can", r1c1="black-square_bottle",
              r5c0="black-stubby_can", r5c1="white-stubby_can")
    assert ec.path_clear(s.grid, 0, 3)
    s2 = play(s, move(0, 0, 0, 0, 5))
    assert s2.grid[5] == "black-tallest_bottle"
    assert_illegal(s, move(0, 1, 0, 3, 0), "lower than itself")  # over a tall can of another colour
    assert_illegal(s, move(0, 1, 0, 1, 2), "lower than itself")  # over a square bottle
    assert ec.destinations(s.grid, 30) == [18, 24]                 # the stubby can jumps nothing, not even r2c0


def test_a_tallest_bottle_cannot_jump_another_tallest_bottle():
    s = board(game(), r0c0="black-tallest_bottle", r0c1="white-tallest_bottle")
    assert_illegal(s, move(0, 0, 0, 0, 2), "lower than itself")
    assert ec.destinations(s.grid, 0) == [6, 12, 18, 24, 30]


def test_only_your_own_drinks_move():
    s = board(game(), r0c0="white-tall_can")
    assert_illegal(s, move(0, 0, 0, 1, 0), "your own")
    assert_illegal(s, move(0, 3, 3, 1, 3), "your own")


# --- explosions -------------------------------------------------------------------------------

def test_an_explosion_removes_the_eight_squares_around_and_the_can():
    s = board(game(), r2c2="black-short_can", r1c1="white-square_bottle", r1c3="black-tallest_bottle",
              r3c2="white-not_tallest_bottle", r4c4="white-tallest_bottle")
    s, events = ec.apply(s, explode(0, 2, 2))
    assert s.grid.count(None) == 35 and s.grid[28] == "white-tallest_bottle"
    assert sorted(s.out) == sorted(["black-short_can", "white-square_bottle", "black-tallest_bottle",
                                    "white-not_tallest_bottle"])
    assert events[0].kind == "exploded" and events[0].data["exploded"] == ["black-short_can"]


def test_a_destroyed_can_goes_off_too_a_chain():
    s = board(game(3), r0c0="black-tall_can", r1c1="white-short_can", r2c2="mint-stubby_can",
              r3c3="black-square_bottle", r5c5="mint-short_can")
    s, events = ec.apply(s, explode(0, 0, 0))
    assert events[0].data["exploded"] == ["black-tall_can", "white-short_can", "mint-stubby_can"]
    assert s.grid[21] is None and s.grid[35] == "mint-short_can"


def test_option_chain_short_and_tall_leaves_the_stubby_can_a_dud():
    s = board(game(3, chain="short_and_tall"), r0c0="black-tall_can", r1c1="white-short_can",
              r2c2="mint-stubby_can", r3c3="black-square_bottle")
    s = play(s, explode(0, 0, 0))
    assert s.grid[21] == "black-square_bottle" and "mint-stubby_can" in s.out


def test_only_your_own_short_or_tall_can_may_be_set_off():
    s = board(game(), r0c0="black-stubby_can", r0c2="white-short_can", r0c4="black-square_bottle")
    for col in (0, 2, 4, 5):
        assert_illegal(s, explode(0, 0, col), "own short or tall can")
    assert not [m for m in ec.legal_moves(s, 0) if m.kind == "explode"]
    s = board(s, r3c3="black-tall_can")
    assert [m.args for m in ec.legal_moves(s, 0) if m.kind == "explode"] == [{"row": 3, "col": 3}]


def test_a_move_missing_an_argument_is_refused():
    s = game()
    assert_illegal(s, Move("place", 0, {"drink": "black-tall_can", "row": 0}), "'col'")
    assert_illegal(s, Move("move", 0, {"row": 0, "col": 0, "to_row": "x", "to_col": 1}), "whole number")


def test_view_shows_the_grid_the_crates_and_points():
    s = play(game(), place(0, "black-stubby_can", 5, 5))
    v = ec.view(s, None)
    assert v["squares"][5][5] == "black-stubby_can" and v["crates"][5][5] == "black-stubby_can"
    assert [p["points"] for p in v["players"]] == [1, -7] and v["players"][1]["turn"]
    assert v["shape_coins"]["stubby_can"] == 4


def test_a_drink_never_moves_onto_another_nor_stays_put():
    s = board(game(), r0c0="black-tallest_bottle", r0c3="white-stubby_can")
    assert_illegal(s, move(0, 0, 0, 0, 3), "empty square")
    assert_illegal(s, move(0, 0, 0, 0, 0), "empty square")
    assert 3 not in ec.destinations(s.grid, 0) and 4 in ec.destinations(s.grid, 0)


def test_the_last_placement_tells_the_scores_and_winners_in_its_event():
    s = board(game(), r1c0="white-stubby_can", r1c1="white-short_can", r1c2="white-tall_can",
              r1c3="white-square_bottle", r1c4="white-not_tallest_bottle")
    s = replace(s, turn=1)
    s, events = ec.apply(s, place(1, "white-tallest_bottle", 5, 5))
    assert events[-1].kind == "game_over"
    assert events[-1].data == {"winners": [1], "scores": [-7, 7], "why": "last_placed"}
    assert ec.view(s, 0)["final"] == {"why": "last_placed", "points": [-7, 7]}
