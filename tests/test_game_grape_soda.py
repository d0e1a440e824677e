"""GRAPE SODA (rule book 002): the crates moved on the grid, drinks placed, moved and jumped over."""
from dataclasses import replace

import pytest

from companion.rules.engine import IllegalMove, Move
from companion.rules.games import grape_soda as g
from companion.rules.games.grape_soda_grid import START, connected, targets

P, R = "purple", "red"  # seat 0 and seat 1 colours by default


def game(**options):
    return g.setup({"names": ["Ann", "Bo"], "options": options})


def stand(state, *drinks):
    """``state`` with drinks (id, x, y) standing on the grid and gone from their owners' supply."""
    for d, x, y in drinks:
        state = g._put(state, x, y, d)
        state = replace(state, seats=tuple(replace(s, supply=tuple(e for e in s.supply if e != d))
                                           for s in state.seats))
    return state


def play(state, kind, seat, **args):
    state, _ = g.apply(state, Move(kind, seat, args))
    return state


def refused(state, kind, seat, match, **args):
    before = (state, g.legal_moves(state, seat))
    with pytest.raises(IllegalMove, match=match):
        g.apply(state, Move(kind, seat, args))
    assert (state, g.legal_moves(state, seat)) == before  # a refused move changes nothing


def test_setup_is_a_6x6_square_of_crates_and_one_colour_each():
    s = game()
    assert s.layout == START and len(g.view(s, None)["crate_grid"]) == 6
    assert all(len(row) == 6 and set(row) == {""} for row in g.view(s, None)["crate_grid"])
    assert [x.colour for x in s.seats] == [P, R] and all(len(x.supply) == 6 for x in s.seats)
    assert g.pending(s)[0].actor == 0


def test_crate_moves_keep_the_group_example():
    """Worked example: 002 GRAPE SODA, Eine Kiste bewegen (picture). A crate is set down elsewhere,
    never turned, touching another along a side; the drinks in it go along; a move that would split
    the group, overlap a crate or join by a corner only is refused."""
    s = stand(game(), ("purple-stubby_can", 4, 3))          # slot 0 of crate 5
    s = play(s, "move_crate", 0, crate=5, x=6, y=0)         # beside crate 2, on the right
    assert s.layout[5] == (6, 0) and s.at(6, 0) == "purple-stubby_can"
    assert (4, 3) not in g.fields(s.layout)                 # a gap now: no field
    s = play(s, "place", 0, drink="purple-short_can", x=0, y=0)
    # crate 2 alone holds crate 5 to the others: lifting it would split the group
    assert targets(s.layout, 2) == []
    refused(s, "move_crate", 1, "cannot stand", crate=2, x=4, y=3)
    refused(s, "move_crate", 1, "cannot stand", crate=0, x=1, y=0)     # overlaps crate 1
    refused(s, "move_crate", 1, "cannot stand", crate=0, x=-2, y=-3)   # a corner only
    refused(s, "move_crate", 1, "cannot stand", crate=0, x=0, y=0)     # its own place
    refused(s, "move_crate", 1, "too far off", crate=0, x=99, y=0)
    assert connected(s.layout)


def test_placing_keeps_clear_of_other_colours_diagonals_too():
    s = stand(game(), ("red-stubby_can", 2, 2))
    refused(s, "place", 0, "touches a drink of another colour", drink="purple-stubby_can", x=3, y=3)
    refused(s, "place", 0, "taken", drink="purple-stubby_can", x=2, y=2)
    refused(s, "place", 0, "not in your supply", drink="red-short_can", x=5, y=5)
    refused(s, "place", 0, "not a field", drink="purple-stubby_can", x=6, y=0)
    s = play(s, "place", 0, drink="purple-tall_can", x=4, y=4)
    assert s.at(4, 4) == "purple-tall_can" and "purple-tall_can" not in s.seats[0].supply
    refused(s, "place", 0, "already", drink="purple-short_can", x=5, y=5)  # one drink a turn
    s = play(s, "move_crate", 0, crate=0, x=6, y=0)
    assert s.turn == 1 and not s.crate_moved and not s.drink_done
    allowed = {(m.args["x"], m.args["y"]) for m in g.legal_moves(s, 1) if m.kind == "place"}
    assert (2, 3) in allowed and not {(3, 3), (3, 4), (3, 5), (4, 3), (5, 5)} & allowed


def test_a_jump_over_a_line_of_other_colours_takes_them():
    s = stand(game(), ("purple-stubby_can", 0, 0), ("red-stubby_can", 1, 1), ("red-short_can", 2, 2))
    s = play(s, "step", 0, fx=0, fy=0, tx=3, ty=3)
    assert s.at(3, 3) == "purple-stubby_can" and s.at(1, 1) is None and s.at(2, 2) is None
    assert s.seats[0].taken == ("red-stubby_can", "red-short_can")


def test_jumps_refused_over_own_colour_gaps_and_onto_drinks():
    s = stand(game(), ("purple-stubby_can", 0, 0), ("purple-short_can", 1, 0), ("red-stubby_can", 1, 1),
              ("red-short_can", 0, 2), ("red-tall_can", 0, 1))
    refused(s, "step", 0, "own colour", fx=0, fy=0, tx=2, ty=0)
    refused(s, "step", 0, "lands on a free field", fx=0, fy=0, tx=0, ty=2)
    refused(s, "step", 0, "no gap", fx=0, fy=0, tx=3, ty=3)          # (2, 2) is empty
    refused(s, "step", 0, "along a line", fx=0, fy=0, tx=1, ty=2)
    refused(s, "step", 0, "no drink of your colour", fx=1, fy=1, tx=2, ty=2)
    s = play(s, "step", 0, fx=1, fy=0, tx=2, ty=1)                   # one field, diagonally
    assert s.at(2, 1) == "purple-short_can" and s.seats[0].taken == ()


def test_the_crate_may_move_first_and_the_drink_second():
    s = play(game(), "move_crate", 0, crate=5, x=6, y=0)
    refused(s, "move_crate", 0, "moved a crate this turn already", crate=0, x=6, y=3)
    assert {m.kind for m in g.legal_moves(s, 0)} == {"place"}
    s = play(s, "place", 0, drink="purple-stubby_can", x=0, y=0)
    assert s.turn == 1


def test_taking_the_needed_number_wins_at_once():
    s = stand(game(win_counts=[2]), ("purple-stubby_can", 0, 0), ("red-stubby_can", 0, 1),
              ("red-short_can", 0, 2))
    s = play(s, "step", 0, fx=0, fy=0, tx=0, ty=3)
    assert g.is_over(s) and s.winners == (0,) and s.end == "taken"
    assert g.payouts(s)["projected"] == [2, 0] and g.payouts(s)["final"]


def test_after_the_last_round_the_most_taken_wins_ties_share():
    s = game(max_rounds=1)
    s = play(play(s, "place", 0, drink="purple-stubby_can", x=0, y=0), "move_crate", 0, crate=5, x=6, y=0)
    s = play(play(s, "place", 1, drink="red-stubby_can", x=1, y=5), "move_crate", 1, crate=5, x=4, y=3)
    assert g.is_over(s) and s.winners == (0, 1) and s.end == "rounds"


def test_a_turn_with_no_drink_to_place_or_move_skips_that_part():
    s = game()
    s = replace(s, turn=1, seats=(replace(s.seats[0], supply=()), s.seats[1]))  # Ann has nothing to play
    s = play(s, "place", 1, drink="red-stubby_can", x=5, y=5)
    assert s.turn == 1 and s.drink_done and not s.crate_moved  # Bo still owes the crate
    s, events = g.apply(s, Move("move_crate", 1, {"crate": 0, "x": 6, "y": 0}))
    assert s.turn == 0 and s.drink_done and not s.crate_moved
    assert "no_drink_move" in [e.kind for e in events]
    assert {m.kind for m in g.legal_moves(s, 0)} == {"move_crate"}


def test_options_that_cannot_be_played_are_refused():
    with pytest.raises(IllegalMove, match="different colours"):
        g.setup({"names": ["A", "B"], "options": {"colours": [1, 1]}})
    with pytest.raises(IllegalMove, match="first_player"):
        g.setup({"names": ["A", "B"], "options": {"first_player": 3}})
    s = g.setup({"names": list("ABC"), "options": {"players": 3, "colours": [0, 1, 2], "first_player": 2}})
    assert [x.colour for x in s.seats] == ["black", "white", "mint"] and s.turn == 2
    assert s.options.to_win(3) == 4 and g.Options().to_win(6) == 3


def test_one_jump_takes_a_line_of_two_other_colours():
    s = g.setup({"names": ["A", "B", "C"], "options": {"players": 3}})
    s = stand(s, ("purple-stubby_can", 5, 5), ("red-stubby_can", 4, 4), ("blue-stubby_can", 3, 3))
    assert [x.colour for x in s.seats] == ["purple", "red", "blue"]
    s = play(s, "step", 0, fx=5, fy=5, tx=2, ty=2)
    assert s.seats[0].taken == ("red-stubby_can", "blue-stubby_can") and s.at(2, 2) == "purple-stubby_can"
