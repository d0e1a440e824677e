"""YUZU (rule book 002), one test per rule, driven with explicit moves (chance included)."""

import copy
from dataclasses import replace

import pytest

from companion.drinks import DRINK_IDS
from companion.rules.engine import CHANCE, IllegalMove, Move, Pending
from companion.rules.games import yuzu, yuzu_crates

ROW = tuple((2 * k, 0, 0) for k in range(6))   # six upright crates side by side in one row


def game(n=2, layout=None, **options):
    config = {"names": [f"P{i}" for i in range(n)], "options": {"players": n, **options}}
    if layout is not None:
        config["layout"] = list(layout)
    return yuzu.setup(config)


def move_crate(seat, crate, x, y, turn):
    return Move("move_crate", seat, {"crate": crate, "x": x, "y": y, "quarters": turn})


def swap(seat, a, a_slot, b, b_slot):
    return Move("swap", seat, {"a": a, "a_slot": a_slot, "b": b, "b_slot": b_slot})


def play(state, *moves):
    for m in moves:
        state, _ = yuzu.apply(state, m)
    return state


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        yuzu.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before


# Crate 0 holds four black drinks; crate 1's slot 0 (the cell right of crate 0's slot 1) a fifth.
NEAR_BLACK = ["black-stubby_can", "red-stubby_can", "black-short_can", "black-tall_can", "black-square_bottle",
              "white-stubby_can", "black-not_tallest_bottle"]
NEAR_BLACK += sorted((d for d in DRINK_IDS if d not in NEAR_BLACK), key=lambda d: d.split("-")[::-1])  # by shape


def test_start_sorts_the_drinks_by_shape_one_crate_each_in_a_6x6_square():
    s = game()
    assert [{d.split("-")[1] for d in c} for c in s.crates] == [{sh} for sh in (
        "stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle")]
    cells = {c for p in s.places for c in yuzu_crates.cells(p)}
    assert cells == {(x, y) for x in range(6) for y in range(6)}
    assert s.phase == yuzu.MOVE and yuzu.pending(s) == [Pending(0)]


@pytest.mark.parametrize("n, each", [(2, 3), (3, 2), (4, 1), (6, 1)])
def test_colours_per_player_count_and_teams_from_four(n, each):
    s = game(n)
    assert all(len(cs) == each for cs in s.colours)
    assert len({c for cs in s.colours for c in cs}) == n * each
    assert len(s.teams) == (2 if n >= 4 else n)


def test_worked_example_a_crate_that_holds_the_group_together_may_neither_move_nor_turn():
    """Worked example: 002 YUZU, Kisten bewegen (picture). With the crates in one row, a crate in the
    middle would split the group when lifted: it may not move, not even turn in place; the crate at
    the end may move and turn."""
    s = replace(game(), places=ROW)
    assert_illegal(s, move_crate(0, 2, 4, 0, 2), "split")
    assert_illegal(s, move_crate(0, 2, 4, 3, 0), "split")
    assert not [m for m in yuzu.legal_moves(s, 0) if m.args["crate"] in (1, 2, 3, 4)]
    turned = play(s, move_crate(0, 5, 10, 0, 2))
    assert turned.places[5] == (10, 0, 2) and turned.crates == s.crates
    assert yuzu_crates.cells(turned.places[5])[0] == (11, 2)   # slot 0 now at the far corner
    below = play(s, move_crate(0, 0, 2, 3, 0))                  # the end crate under its neighbour
    assert below.places[0] == (0, 3, 0) and below.places[1] == (0, 0, 0)   # shifted to the top-left


def test_a_crate_goes_long_side_to_long_side_and_short_to_short():
    s = game()
    assert_illegal(s, move_crate(0, 5, 6, 0, 1), "same length")       # lying: its long side at an upright's short
    assert_illegal(s, move_crate(0, 5, 6, 1, 0), "exactly")           # shifted by one under "flush"
    assert play(s, move_crate(0, 5, 6, 0, 0)).places[5] == (6, 0, 0)  # long to long, side on side
    along = game(touching="along")
    assert play(along, move_crate(0, 5, 6, 1, 0)).places[5] == (6, 1, 0)
    assert_illegal(s, move_crate(0, 5, 0, 6, 1), "same length")      # lying under crate 3: 3 wide against 2
    # with every crate upright, no crate can lie down: a lying crate's sides never meet one of their length
    assert {m.args["quarters"] for m in yuzu.legal_moves(s, 0)} == {0, 2}


def test_a_crate_must_move_and_not_onto_another():
    s = game()
    assert_illegal(s, move_crate(0, 5, 4, 3, 0), "must move")
    assert_illegal(s, move_crate(0, 5, 2, 3, 0), "already stands")
    assert_illegal(s, move_crate(0, 5, 40, 3, 0), "'x'")
    assert_illegal(s, move_crate(1, 5, 6, 0, 0), "not")               # not seat 1's turn
    assert_illegal(s, swap(0, 0, 0, 0, 1), "not")                     # the crate first


def test_swaps_are_between_neighbours_across_a_side_or_a_corner_then_the_turn_passes():
    s = play(game(), move_crate(0, 5, 4, 3, 2))
    assert s.phase == yuzu.SWAP and s.swaps_left == 2
    assert_illegal(s, swap(0, 0, 0, 0, 5), "next to each other")      # same crate, two rows apart
    assert_illegal(s, swap(0, 0, 0, 2, 0), "next to each other")      # crates apart
    a = play(s, swap(0, 0, 3, 1, 4))                                  # diagonal across two crates
    assert a.crates[0][3] == s.crates[1][4] and a.crates[1][4] == s.crates[0][3] and a.swaps_left == 1
    b = play(a, swap(0, 0, 0, 0, 1))
    assert b.phase == yuzu.MOVE and b.turn == 1 and b.turns == 1
    assert len(yuzu.legal_moves(s, 0)) == 110                        # 6x6: 2*30 sides + 2*25 corners


def test_five_of_a_players_colour_in_a_crate_wins_at_once():
    s = play(game(layout=NEAR_BLACK), move_crate(0, 5, 4, 3, 2))
    over, events = yuzu.apply(s, swap(0, 0, 1, 1, 0))
    assert over.phase == yuzu.OVER and over.winners == (0,) and over.result == "won"
    assert events[-1].kind == "game_over" and yuzu.payouts(over)["winners"] == [0]
    six = play(game(layout=NEAR_BLACK, win_count=6), move_crate(0, 5, 4, 3, 2), swap(0, 0, 1, 1, 0))
    assert six.phase == yuzu.SWAP


def test_in_teams_the_whole_team_wins_and_an_unowned_colour_wins_nobody():
    s = play(game(4, layout=NEAR_BLACK), move_crate(0, 5, 4, 3, 2), swap(0, 0, 1, 1, 0))
    assert s.winners == (0, 2)                                       # black is seat 0's, teams 0+2 and 1+3
    nobody = play(game(4, layout=NEAR_BLACK, colours=[["white"], ["mint"], ["blue"], ["red"]]),
                  move_crate(0, 5, 4, 3, 2), swap(0, 0, 1, 1, 0))
    assert nobody.phase == yuzu.SWAP


def test_solo_ends_when_every_crate_holds_one_colour_scored_by_turns():
    by_colour = [f"{c}-{sh}" for c in ("black", "white", "mint", "blue", "red", "purple")
                 for sh in ("stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle",
                            "tallest_bottle")]
    s = game(1, layout=by_colour)
    s = play(s, move_crate(0, 5, 4, 3, 2), swap(0, 0, 1, 1, 0))
    assert s.phase == yuzu.SWAP and yuzu.sorted_crates(s) == 4
    s2, _ = yuzu.apply(s, swap(0, 0, 1, 1, 0))                        # swapped back: all sorted again
    assert s2.phase == yuzu.OVER and s2.result == "won" and yuzu.payouts(s2)["score"] == 1
    lost = play(game(1, max_turns=1), move_crate(0, 5, 4, 3, 2), swap(0, 0, 0, 0, 1), swap(0, 0, 0, 0, 1))
    assert lost.result == "lost" and lost.winners == ()


def test_at_the_turn_limit_the_colour_with_most_in_one_crate_wins():
    s = play(game(layout=NEAR_BLACK, max_turns=1), move_crate(0, 5, 4, 3, 2),
             swap(0, 5, 0, 5, 1), swap(0, 5, 0, 5, 1))
    assert s.phase == yuzu.OVER and s.result == "limit" and s.winners == (0,)   # four black in crate 0
    none = play(game(layout=NEAR_BLACK, max_turns=1, at_limit="none"), move_crate(0, 5, 4, 3, 2),
                swap(0, 5, 0, 5, 1), swap(0, 5, 0, 5, 1))
    assert none.winners == ()


def test_blind_colours_are_drawn_face_down_each_seen_by_its_owner_alone():
    s = game(3, blind=True)
    assert s.phase == yuzu.DEAL and yuzu.pending(s) == [Pending(CHANCE, secret_for=0)]
    for c in ("red", "blue", "mint", "white", "black", "purple"):
        s = play(s, Move("draw", CHANCE, {"colour": c}))
    assert s.phase == yuzu.MOVE and s.colours == (("red", "white"), ("blue", "black"), ("mint", "purple"))
    assert yuzu.view(s, 1)["players"][1]["colours"] == ["blue", "black"]
    assert yuzu.view(s, 1)["players"][0]["colours"] is None and yuzu.view(s, None)["players"][2]["best"] is None
    assert_illegal(game(3, blind=True), Move("draw", CHANCE, {"colour": "gold"}), "not a colour")


def test_option_combinations_that_cannot_be_played_are_refused():
    for bad, words in (({"players": 2, "colours": [["red"], ["blue"]]}, "3 different colours"),
                       ({"players": 2, "teams": [[0], [1]]}, "four to six"),
                       ({"players": 4, "teams": [[0, 1, 2, 3]]}, "two teams"),
                       ({"players": 2, "blind": True, "colours": [["red"] * 3] * 2}, "blind")):
        with pytest.raises(IllegalMove) as err:
            yuzu.setup({"names": [f"P{i}" for i in range(bad["players"])], "options": bad})
        assert words in err.value.reason
