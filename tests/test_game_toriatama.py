"""TORIATAMA (rule book 002): drinks travel middle -> right fist -> left fist -> crate; claims on a
take open a fist; nobody's screen shows a closed fist; the end at six in a crate and the score of
different colours and shapes."""
from __future__ import annotations

import pytest

from companion.rules.engine import IllegalMove, Move
from companion.rules.games import toriatama as g


def take(s, seat, drink):
    s, _ = g.apply(s, Move("take", seat, {"drink": drink}))
    return s


def test_a_take_goes_into_the_right_fist_and_no_screen_shows_it():
    """002 TORIATAMA, SPIELABLAUF: take a drink into the right fist and name it; no looking."""
    s = g.setup({"names": ["Aki", "Ben"]})
    s, events = g.apply(s, Move("take", 0, {"drink": "red-tall_can"}))
    assert s.seats[0].right == "red-tall_can" and events[0].data == {"seat": 0, "drink": "red-tall_can"}
    for viewer in (None, 0, 1):                       # the owner may not look either
        assert g.view(s, viewer)["players"][0]["right_fist"] == "held"
    assert g.view(s, 0)["taken"] == {"seat": 0, "drink": "red-tall_can"}   # said aloud: everyone heard it
    with pytest.raises(IllegalMove):
        g.apply(s, Move("take", 0, {"drink": "red-short_can"}))          # Ben's turn now
    with pytest.raises(IllegalMove):
        g.apply(s, Move("take", 1, {"drink": "red-tall_can"}))           # not in the middle any more
    practice = g.setup({"names": ["Aki", "Ben"], "options": {"show_fists": True}})
    practice = take(practice, 0, "red-tall_can")
    assert g.view(practice, 1)["players"][0]["right_fist"] == "red-tall_can"


def test_from_the_second_round_the_fists_move_on_before_the_take():
    """002 TORIATAMA, SPIELABLAUF: after one full round, right to left and left to the crate first."""
    s = g.setup({"names": ["Aki", "Ben"]})
    s = take(s, 0, "red-tall_can")
    s = take(s, 1, "blue-tall_can")
    s = take(s, 0, "mint-stubby_can")
    assert (s.seats[0].right, s.seats[0].left, s.seats[0].crate) == ("mint-stubby_can", "red-tall_can", ())
    s = take(s, 1, "white-short_can")
    s = take(s, 0, "black-square_bottle")
    assert (s.seats[0].right, s.seats[0].left, s.seats[0].crate) == \
        ("black-square_bottle", "mint-stubby_can", ("red-tall_can",))


def start_with_fists():
    """Aki holds red-tall_can (left) and mint-stubby_can (right); Ben blue-tall_can (left) and
    white-short_can (right); Ben has just taken white-short_can."""
    s = g.setup({"names": ["Aki", "Ben"]})
    for seat, d in ((0, "red-tall_can"), (1, "blue-tall_can"), (0, "mint-stubby_can"), (1, "white-short_can")):
        s = take(s, seat, d)
    return s


def test_a_right_claim_sends_the_new_drink_back_and_may_move_the_shown_one_on():
    """002 TORIATAMA, SPIELABLAUF: "I have a tall can": the fist opened holds one, the taker puts back."""
    s = g.setup({"names": ["Aki", "Ben"]})
    s = take(s, 0, "red-tall_can")
    s = take(s, 1, "blue-tall_can")
    # Aki remembers her tall can: both claims on Ben's blue tall can name its traits only
    assert sorted(m.args["trait"] for m in g.legal_moves(s, 0) if m.kind == "claim") == ["blue", "tall_can"]
    with pytest.raises(IllegalMove):
        g.apply(s, Move("claim", 0, {"hand": "right", "trait": "red"}))    # red is not the new drink's
    with pytest.raises(IllegalMove):
        g.apply(s, Move("claim", 1, {"hand": "right", "trait": "blue"}))   # the taker cannot claim
    s, events = g.apply(s, Move("claim", 0, {"hand": "right", "trait": "tall_can"}))
    assert events[0].data["correct"] is True and events[0].data["drink"] == "red-tall_can"
    assert s.seats[1].right is None and "blue-tall_can" in s.middle and s.phase == g.ADVANCE
    s, _ = g.apply(s, Move("advance", 0, {"on": True}))
    assert (s.seats[0].right, s.seats[0].left) == (None, "red-tall_can") and s.phase == g.PLAY


def test_a_wrong_claim_sends_the_opened_fists_drink_back():
    s = start_with_fists()
    # Aki opens her right fist (mint stubby can) claiming white: wrong, it goes back to the middle
    s, events = g.apply(s, Move("claim", 0, {"hand": "right", "trait": "white"}))
    assert events[0].data["correct"] is False and s.seats[0].right is None and "mint-stubby_can" in s.middle
    assert s.seats[1].right == "white-short_can"       # the take stands
    with pytest.raises(IllegalMove):
        g.apply(s, Move("claim", 0, {"hand": "left", "trait": "short_can"}))   # one claim a take


def test_a_left_fist_shown_right_may_go_into_the_crate_or_stay():
    s = start_with_fists()
    with pytest.raises(IllegalMove):
        g.apply(s, Move("claim", 0, {"hand": "left", "trait": "blue"}))        # not a trait of the new drink
    s = take(s, 0, "purple-tall_can")     # Aki's turn: her fists move on (red tall can into the crate)
    assert s.seats[0].crate == ("red-tall_can",)
    s, _ = g.apply(s, Move("claim", 1, {"hand": "left", "trait": "tall_can"}))   # Ben's left: blue tall can
    assert s.phase == g.ADVANCE and "purple-tall_can" in s.middle
    s, _ = g.apply(s, Move("advance", 1, {"on": True}))
    assert s.seats[1].crate == ("blue-tall_can",) and s.seats[1].left is None


def test_six_in_a_crate_ends_the_game_fists_go_in_left_first_and_each_different_trait_scores():
    """002 TORIATAMA, SPIELENDE, WERTUNG: fists emptied, the excess back, a point per colour and shape."""
    s = g.setup({"names": ["Aki", "Ben"]})
    aki = ["red-tall_can", "red-short_can", "blue-stubby_can", "mint-square_bottle", "white-tallest_bottle",
           "black-not_tallest_bottle", "purple-short_can", "purple-tall_can"]
    ben = ["blue-tall_can", "blue-short_can", "blue-square_bottle", "blue-tallest_bottle", "blue-not_tallest_bottle",
           "mint-tall_can", "mint-short_can", "white-stubby_can"]
    for a, b in zip(aki, ben):
        s = take(s, 0, a)
        if g.is_over(s):
            break
        s = take(s, 1, b)
    assert g.is_over(s)
    # Aki's 8th turn moved her fists on first: the sixth drink went into her crate and the game
    # ended before she took; her left fist (a 7th drink) no longer fits and goes back
    assert s.seats[0].crate == tuple(aki[:6]) and aki[6] in s.middle and aki[7] in s.middle
    # Ben: five in the crate, the left fist fills the sixth place, the right fist goes back
    assert s.seats[1].crate == tuple(ben[:6]) and ben[6] in s.middle
    # Aki: 5 colours + 6 shapes; Ben: 2 colours (blue, mint) + 5 shapes
    assert g.payouts(s)["points"] == [11, 7] and s.winners == (0,)


def test_a_tie_on_points_goes_to_the_fuller_crate():
    """002 TORIATAMA, WERTUNG: equal points: the most drinks wins."""
    s = g.setup({"names": ["Aki", "Ben"]})
    seats = (g.Seat("Aki", crate=("red-tall_can", "blue-short_can")),
             g.Seat("Ben", crate=("mint-tall_can", "mint-short_can", "black-tall_can")))
    done, _ = g._finish(g.State(s.options, seats), [])
    # Aki: 2 colours + 2 shapes; Ben: 2 colours + 2 shapes with three drinks: Ben wins
    assert [g.points(x.crate) for x in done.seats] == [4, 4] and done.winners == (1,)
