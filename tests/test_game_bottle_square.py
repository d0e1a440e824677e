"""The bottle-taking square with neutral colours (rule book 002, id bottle_square): one test per
rule, driven with explicit moves (chance included) on small squares written out by hand."""

import copy
from dataclasses import replace

import pytest

from companion.drinks import DRINK_IDS
from companion.rules.engine import CHANCE, IllegalMove, Move, Pending
from companion.rules.games import GAMES, bottle_square as bs
from companion.rules.games.bottle_square_grid import lines, points, slid

COLOUR = {"K": "black", "W": "white", "M": "mint", "B": "blue", "R": "red", "P": "purple"}
SHAPE = {"s": "stubby_can", "c": "short_can", "t": "tall_can", "q": "square_bottle", "n": "not_tallest_bottle",
         "b": "tallest_bottle"}


def d(code: str) -> str:
    """'Rb' -> 'red-tallest_bottle'."""
    return f"{COLOUR[code[0]]}-{SHAPE[code[1]]}"


def square(*rows: str) -> tuple:
    """A 6x6 grid from the rows nearest the crate (the last given is the bottom row): codes
    separated by spaces, '.' for an empty cell; missing cells are empty."""
    out = [[None] * 6 for _ in range(6)]
    for r, row in enumerate(rows, start=6 - len(rows)):
        for c, code in enumerate(row.split()):
            out[r][c] = None if code == "." else d(code)
    return tuple(tuple(row) for row in out)


def game(players=2, grid=None, turn=0, **options):
    state = bs.setup({"names": [f"P{i}" for i in range(players)], "layout": list(DRINK_IDS),
                      "options": {"players": players, **options}})
    return replace(state, grid=grid, turn=turn) if grid is not None else state


def take(seat, line, give):
    return Move("take", seat, {"line": [d(x) for x in line.split()], "give": [d(x) for x in give.split()]})


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        bs.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before


# --- VORBEREITUNG -----------------------------------------------------------------------------

@pytest.mark.parametrize("players, each, neutral", [(2, 3, 0), (3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)])
def test_colours_per_player_count_and_the_rest_neutral(players, each, neutral):
    """002 bottle square, VORBEREITUNG: 2 players 3 colours, 3 players 2, 4-6 one each; the rest neutral."""
    s = game(players)
    assert all(len(cs) == each for cs in s.colours)
    assert len({c for cs in s.colours for c in cs}) == players * each
    assert len(bs.view(s, None)["neutral"]) == neutral


def test_chosen_colours_are_an_option_and_a_bad_choice_is_refused():
    s = bs.setup({"names": ["A", "B", "C"], "options": {"players": 3, "colours": [["red", "blue"], ["mint", "white"],
                                                                                    ["black", "purple"]]}})
    assert s.colours[0] == ("red", "blue")
    for bad in ([["red"], ["mint"], ["black"]], [["red", "red"], ["mint", "white"], ["black", "purple"]],
                [["red", "gold"], ["mint", "white"], ["black", "purple"]]):
        with pytest.raises(IllegalMove, match="colours"):
            bs.setup({"names": ["A", "B", "C"], "options": {"players": 3, "colours": bad}})


def test_chance_stands_the_drinks_row_by_row_then_play_begins():
    """002 bottle square, VORBEREITUNG: all drinks at random in a 6x6 square (one chance move each)."""
    s = bs.setup({"names": ["A", "B"]})
    assert s.phase == bs.FILL and bs.pending(s) == [Pending(CHANCE)]
    assert len(bs.chance(s).outcomes) == 36
    s, events = bs.apply(s, Move("place", CHANCE, {"drink": "red-tall_can"}))
    assert s.grid[0][0] == "red-tall_can" and events[0].data == {"drink": "red-tall_can", "row": 0, "col": 0}
    assert_illegal(s, Move("place", CHANCE, {"drink": "red-tall_can"}), "not a drink still to be placed")
    for x in DRINK_IDS:
        if x != "red-tall_can":
            s, _ = bs.apply(s, Move("place", CHANCE, {"drink": x}))
    assert s.phase == bs.PLAY and s.grid[0][1] == DRINK_IDS[0] and bs.pending(s) == [Pending(0)]


def test_a_layout_must_hold_all_36_drinks():
    with pytest.raises(IllegalMove, match="36"):
        bs.setup({"names": ["A", "B"], "layout": list(DRINK_IDS[:35])})


# --- SPIELABLAUF ------------------------------------------------------------------------------

def test_three_in_a_line_two_given_to_the_majority_colour_then_the_slide():
    """002 bottle square, SPIELABLAUF: two of three go to the player whose colour has two of them;
    the rest slide to the crate, then left; the player to the left goes on."""
    s = game(grid=square("Rb Pn . Kt", "Wb Wc Kq Ms Ks Bt"))   # seat 0: black mint red; seat 1: white blue purple
    s, events = bs.apply(s, take(0, "Wb Wc Kq", "Wb Wc"))
    assert s.taken == ((), (d("Wc"), d("Wb")))
    assert events[0].data == {"seat": 0, "to_seat": 1, "drinks": [d("Wb"), d("Wc")], "kept": d("Kq")}
    assert s.grid == square("Kt", "Rb Pn Kq Ms Ks Bt")   # Rb and Pn fell to the crate, Kt slid left
    assert s.turn == 1


def test_any_two_of_the_three_may_be_given_not_only_the_majority_colour():
    s = game(grid=square("Wb Wc Kq"))
    s, _ = bs.apply(s, take(0, "Wb Wc Kq", "Wc Kq"))
    assert set(s.taken[1]) == {d("Wc"), d("Kq")}


def test_a_take_from_a_column_counts_as_a_line():
    s = game(grid=square("Bq", "Bt", "Kc"))
    s, _ = bs.apply(s, take(0, "Bq Kc Bt", "Bq Bt"))
    assert s.grid == square("Kc") and set(s.taken[1]) == {d("Bq"), d("Bt")}


def test_refused_takes_change_nothing():
    s = game(grid=square("Kb . Kq", "Wb Wc Rq Ks"))
    assert_illegal(s, take(0, "Wb Wc Ks", "Wb Wc"), "next to each other")      # not adjacent
    assert_illegal(s, take(0, "Kb Wc Rq", "Kb Wc"), "next to each other")      # not in one row
    assert_illegal(s, take(0, "Wb Wc Rq", "Wb Pn"), "two of the three")
    assert_illegal(s, take(0, "Wb Wc Rq", "Wb"), "two of the three")
    assert_illegal(s, take(0, "Wb Wc Pn", "Wb Wc"), "standing in the square", "purple-not_tallest_bottle")
    assert_illegal(s, take(0, "Wc Rq Ks", "Wc Rq"), "no player's colour has two")
    assert_illegal(s, take(1, "Wb Wc Rq", "Wb Wc"), "turn")
    assert_illegal(s, Move("take", 0, {"line": "Wb", "give": []}), "list")


def test_own_colour_in_the_majority_is_refused_unless_the_option_allows_it():
    """002 bottle square, SPIELABLAUF: two of the three must be another player's colour."""
    s = game(grid=square("Kb Kc Wq"))
    assert_illegal(s, take(0, "Kb Kc Wq", "Kb Wq"), "your own colour")
    assert bs.legal_moves(s, 0) == []
    s = game(grid=square("Kb Kc Wq"), take_own=True)
    s, _ = bs.apply(s, take(0, "Kb Kc Wq", "Kb Wq"))
    assert set(s.taken[0]) == {d("Kb"), d("Wq")}


def test_a_neutral_colour_in_the_majority_is_refused():
    """002 bottle square, SPIELABLAUF: never three where a neutral colour has the majority."""
    s = game(4, grid=square("Rb Rc Kq Ws"))   # four players: black white mint blue; red and purple neutral
    assert_illegal(s, take(0, "Rb Rc Kq", "Rb Rc"), "neutral colour")
    assert bs.legal_moves(s, 0) == []


def test_majority_by_player_counts_two_colours_of_one_player():
    s = game(grid=square("Kb Mc Wq"))   # black and mint: both seat 0's, one of each
    assert_illegal(s, take(1, "Kb Mc Wq", "Kb Mc"), "turn")
    s = replace(s, turn=1)
    assert_illegal(s, take(1, "Kb Mc Wq", "Kb Mc"), "no player's colour has two")
    s = replace(s, options=s.options.model_copy(update={"majority_by": "player"}))
    s, _ = bs.apply(s, take(1, "Kb Mc Wq", "Kb Mc"))
    assert set(s.taken[0]) == {d("Kb"), d("Mc")}


def test_listed_takes_are_every_line_and_every_pair_to_give():
    s = game(grid=square("Wb Wc Kq Ms"))
    moves = bs.legal_moves(s, 0)
    assert len(moves) == 3 and all(len(m.args["give"]) == 2 for m in moves)
    for m in moves:
        bs.apply(s, m)


# --- the slide --------------------------------------------------------------------------------

def test_the_slide_rows_or_columns():
    """The slide: to the crate, then each row to the left ('rows'), or empty columns closed ('columns')."""
    a, c, x = "red-tall_can", "blue-short_can", "mint-stubby_can"
    grid = ((None, None, None), (None, None, x), (a, None, c))
    assert slid(grid, "rows") == ((None, None, None), (x, None, None), (a, c, None))
    assert slid(grid, "columns") == ((None, None, None), (None, x, None), (a, c, None))
    assert len(lines(slid(grid, "columns"))) == 0


# --- SPIELENDE UND WERTUNG ----------------------------------------------------------------------

def test_scoring_own_bottles_plus_one_cans_minus_made_up_by_other_bottles():
    """Worked example: 002 bottle square, SPIELZIEL: own bottles and stubby can +1; another colour's
    0 but making up minus points; the short can -1 (one to make up), the tall can -2 (two)."""
    own = {"red"}
    assert points([d("Rb"), d("Rs"), d("Rq"), d("Rn")], own) == 4
    assert points([d("Bb"), d("Ks")], own) == 0
    assert points([d("Bc")], own) == -1
    assert points([d("Bc"), d("Kq")], own) == 0                 # a short can made up by one bottle
    assert points([d("Rt"), d("Kq")], own) == -1                # a tall can needs two
    assert points([d("Rt"), d("Kq"), d("Ms")], own) == 0
    assert points([d("Rt"), d("Kq"), d("Ms"), d("Wb")], own) == 0  # nothing beyond making up
    assert points([d("Rb"), d("Bt")], own) == -1                # own bottles count +1 beside the minus


def test_a_player_who_cannot_take_is_passed_over_and_the_game_ends_when_nobody_can():
    """002 bottle square, SPIELENDE: the game ends when no player may take any more."""
    # three players: seat 0 black blue, seat 1 white red, seat 2 mint purple
    s = game(3, grid=square("Wb Wc Rq Mb Ms"))
    s, events = bs.apply(s, take(0, "Rq Mb Ms", "Mb Ms"))
    assert s.grid == square("Wb Wc Rq")
    assert s.turn == 2 and [e.data for e in events if e.kind == "passed"] == [{"seats": [1]}]  # white is seat 1's
    s, events = bs.apply(s, take(2, "Wb Wc Rq", "Wb Wc"))
    assert bs.is_over(s) and events[-1].kind == "game_over"
    pay = bs.payouts(s)
    assert pay["points"] == [0, 0, 2] and pay["projected"] == pay["points"] and pay["winners"] == [2]
    assert pay["yen"] == [0, 0, 0] and pay["final"] is True
    assert bs.view(s, None)["final"] == {"points": [0, 0, 2]}


def test_a_tie_shares_the_win():
    s = game(grid=square("Wb Wc Kq"))
    s, _ = bs.apply(s, take(0, "Wb Wc Kq", "Wc Kq"))   # seat 1: short can made up by the black bottle: 0
    assert bs.is_over(s) and bs.payouts(s)["winners"] == [0, 1]


def test_first_player_is_an_option():
    s = bs.setup({"names": ["A", "B", "C"], "layout": list(DRINK_IDS), "options": {"players": 3, "first_player": 2}})
    assert s.turn == 2 and bs.pending(s) == [Pending(2)]
    with pytest.raises(IllegalMove, match="first_player"):
        bs.setup({"names": ["A", "B"], "options": {"first_player": 3}})


def test_registered_with_the_games():
    assert GAMES["bottle_square"] is bs.GAME
    assert not bs.GAME.uses_tower
