"""The crate camera's table side (the games' crates hooks, table/crate_moves.py, crate_watch.py) on
real sessions over a real SQLite store: crates read as CrateReadings (built from the fields a game
or a person would leave, turned as a camera might see them) settle, become proposals, questions
or differences, and confirmed proposals are made as any move is."""
from __future__ import annotations

import pytest

from companion.crate_fields import CrateLayout, CrateReading, compare, crate_fields, turned
from companion.rules.engine import Move
from companion.rules.games import GAMES
from companion.sim.table import SIM_TABLE
from companion.table.crate_moves import explain, game_fields
from companion.table.crate_watch import HANDS_STUCK_S, LOST_S
from companion.table.errors import Forbidden, IllegalMove
from companion.table.session import TableSession
from companion.table.watch import SETTLE_S, BadAnswer

GRAPE = GAMES["grape_soda"]
TURN = 1   # the camera sees the game's grid a quarter turn clockwise: the watch has to learn it back (3)


def seen(fields, quarters: int = TURN, unsure=(), choices=None) -> CrateReading:
    """``unsure`` and ``choices`` in the turned grid's fields (as the camera sees them)."""
    return CrateReading.of(turned(fields, quarters), unsure=unsure, choices=choices)


def settle(watch, fields, t0: float, frames: int = 3, **more) -> str | None:
    """The same crates read ``frames`` times over SETTLE_S from ``t0``: what came of it."""
    out = None
    for i in range(frames):
        out = watch.feed(seen(fields, **more), at=t0 + i * SETTLE_S / (frames - 1)) or out
    return out


def after(game, state, *moves):
    for m in moves:
        state, _ = game.apply(state, m)
    return state


def fields_after(session, *moves):
    return game_fields(session.game, after(session.game, session.state, *moves))


def grape(store, **options) -> TableSession:
    return TableSession.create(store, "grape_soda", ["Aki", "Ben"], seed=1, automation=SIM_TABLE,
                               options=options)


# --- the games' hooks ---------------------------------------------------------------------------

def test_grape_soda_fields_move_with_their_crate():
    s = GRAPE.setup({"names": ["A", "B"]})
    s = after(GRAPE, s, Move("place", 0, {"drink": "purple-tall_can", "x": 4, "y": 3}),
              Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}))
    places, drinks = GRAPE.crates(s)
    assert places[5] == (6, 0, 0)
    assert drinks == {(6, 0): "purple-tall_can"}   # slot 0 of crate 5 went along to its new place
    grid = CrateLayout(places, drinks).fields()
    assert len(grid) == 36 and grid[(6, 0)] == "purple-tall_can" and (4, 3) not in grid


def test_yuzu_and_exploding_cans_hooks_agree_with_their_grids():
    yuzu = GAMES["yuzu"]
    s = after(yuzu, yuzu.setup({"names": ["A", "B"]}), Move("move_crate", 0, {"crate": 5, "x": 4, "y": 3, "quarters": 2}))
    places, drinks = yuzu.crates(s)
    assert places == s.places and len(drinks) == 36
    for k, place in enumerate(s.places):   # a turned crate's slot 0 lies where the turn puts it
        assert [drinks[f] for f in crate_fields(place)] == list(s.crates[k])
    cans = GAMES["exploding_cans"]
    s = after(cans, cans.setup({"names": ["A", "B"]}), Move("place", 0, {"drink": "black-stubby_can", "row": 4, "col": 1}))
    places, drinks = cans.crates(s)
    assert drinks == {(1, 4): "black-stubby_can"} and len(CrateLayout(places, drinks).fields()) == 36
    assert GAMES["bottle_square"].crates is None   # its drinks stand on the table, not in crates


@pytest.mark.parametrize("choices, words", [
    ({"0,0": ["red-tall_can", "red-short_can"]}, "read with doubt"),              # not an unsure field
    ({"1,0": ["red-short_can", "red-tall_can"]}, "likeliest drink first"),       # not the field's value first
    ({"1,0": ["red-tall_can", "red-pint"]}, "drink ids"),
    ({"1,0": []}, "1 to 6"),
    ({"1,0": ["red-tall_can"] * 7}, "1 to 6"),
])
def test_a_reading_s_choices_are_checked_and_refused_in_words(choices, words):
    fields = {"0,0": "empty", "1,0": "red-tall_can"}
    assert CrateReading(fields=fields, unsure=["1,0"], choices={"1,0": ["red-tall_can", "red-short_can"]}).choice_sets() \
        == {(1, 0): frozenset({"red-tall_can", "red-short_can"})}
    with pytest.raises(ValueError, match=words):
        CrateReading(fields=fields, unsure=["1,0"], choices=choices)


# --- the search ---------------------------------------------------------------------------------

def test_the_drink_put_in_is_proposed_not_the_one_the_buttons_offer():
    s = GRAPE.setup({"names": ["A", "B"]})
    placed = after(GRAPE, s, Move("place", 0, {"drink": "purple-tallest_bottle", "x": 2, "y": 1}))
    found = explain(GRAPE, s, game_fields(GRAPE, placed), quarters=0)
    assert found.verdict == "one"
    assert found.explanations[0][0].args == {"drink": "purple-tallest_bottle", "x": 2, "y": 1}


def test_a_whole_turn_is_one_explanation_in_either_order_and_the_same_every_time():
    s = GRAPE.setup({"names": ["A", "B"]})
    moves = (Move("place", 0, {"drink": "purple-tall_can", "x": 2, "y": 1}),
             Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}))
    crates = turned(game_fields(GRAPE, after(GRAPE, s, *moves)), TURN)
    first = explain(GRAPE, s, crates, quarters=4 - TURN)
    assert first.verdict == "one" and len(first.explanations[0]) == 2
    assert game_fields(GRAPE, after(GRAPE, s, *first.explanations[0])) == game_fields(GRAPE, after(GRAPE, s, *moves))
    assert explain(GRAPE, s, crates, quarters=4 - TURN) == first
    # not knowing how the camera lies, the 6x6 square looks the same turned half round: two ways
    assert explain(GRAPE, s, crates).verdict == "several"


def test_a_change_no_move_explains_and_a_field_read_with_doubt():
    s = after(GRAPE, GRAPE.setup({"names": ["A", "B"]}), Move("place", 0, {"drink": "purple-tall_can", "x": 0, "y": 0}),
              Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}))
    knocked = dict(game_fields(GRAPE, s))
    knocked[(0, 0)], knocked[(3, 3)] = "empty", "purple-tall_can"   # a drink moved three fields
    assert explain(GRAPE, s, knocked, quarters=0).verdict == "none"
    placed = game_fields(GRAPE, after(GRAPE, s, Move("place", 1, {"drink": "red-short_can", "x": 1, "y": 5})))
    assert explain(GRAPE, s, placed, unsure=[(0, 0)], quarters=0).verdict == "one"


def test_a_drink_whose_colour_alone_is_sure_is_a_question_of_its_shapes():
    """The camera sure of a purple drink in a field, not of its shape (choices: two purple cans):
    both drinks are tried, each a move; a shape already on the grid is no candidate, and a field
    whose choices the game's drink is not among is a difference."""
    s = after(GRAPE, GRAPE.setup({"names": ["A", "B"]}), Move("place", 0, {"drink": "purple-short_can", "x": 0, "y": 0}),
              Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}), Move("place", 1, {"drink": "red-short_can", "x": 1, "y": 5}),
              Move("move_crate", 1, {"crate": 0, "x": 6, "y": 3}))
    placed = game_fields(GRAPE, after(GRAPE, s, Move("place", 0, {"drink": "purple-tall_can", "x": 3, "y": 3})))
    two = {(3, 3): ["purple-tall_can", "purple-tallest_bottle"]}
    found = explain(GRAPE, s, placed, unsure=[(3, 3)], choices=two, quarters=0)
    assert found.verdict == "several"
    assert sorted(m[-1].args["drink"] for m in found.explanations) == ["purple-tall_can", "purple-tallest_bottle"]
    # the short can stands on the grid already: only the tall can is left to have been put in
    found = explain(GRAPE, s, placed, unsure=[(3, 3)], choices={(3, 3): ["purple-tall_can", "purple-short_can"]}, quarters=0)
    assert found.verdict == "one" and found.explanations[0][-1].args["drink"] == "purple-tall_can"
    # read with doubt and no choices, the field may be the empty slot the game has: nothing to explain
    assert compare(game_fields(GRAPE, s), placed, [(3, 3)], quarters=0).differences == ()
    # a sure colour the game's drink is not: a difference
    wrong = dict(game_fields(GRAPE, s))
    short = next(f for f, v in wrong.items() if v == "purple-short_can")
    wrong[short] = "red-tall_can"
    diffs = compare(game_fields(GRAPE, s), wrong, [short], quarters=0,
                    choices={short: ["red-tall_can", "red-tallest_bottle"]}).differences
    assert [(d.field, d.game, d.seen) for d in diffs] == [(short, "purple-short_can", "red-tall_can")]


def test_a_ring_of_doubtful_fields_beyond_the_crates_does_not_hide_a_move():
    """The reader reports the fields round the crates that may or may not be slots as read with
    doubt: the game's crates lie inside them, and a drink put in is still explained (a field beyond
    the crates read surely, or narrowed to some drinks, is a crate the game does not have)."""
    s = GRAPE.setup({"names": ["A", "B"]})
    placed = game_fields(GRAPE, after(GRAPE, s, Move("place", 0, {"drink": "purple-tall_can", "x": 2, "y": 1})))
    ring = {(-1, y): "empty" for y in range(7)} | {(x, 6): "empty" for x in range(6)}
    seen = {**placed, **ring}
    found = explain(GRAPE, s, seen, unsure=ring, quarters=0)
    assert found.verdict == "one" and found.explanations[0][0].args == {"drink": "purple-tall_can", "x": 2, "y": 1}
    assert explain(GRAPE, s, seen, unsure=[], quarters=0).verdict == "none"
    assert explain(GRAPE, s, seen, unsure=ring, quarters=0,
                   choices={(-1, 0): ["red-tall_can", "red-short_can"]}).verdict == "none"


def test_a_turned_yuzu_crate_and_a_chain_of_exploding_cans_are_one_move_each():
    yuzu = GAMES["yuzu"]
    s = yuzu.setup({"names": ["A", "B"]})
    turn = Move("move_crate", 0, {"crate": 5, "x": 4, "y": 3, "quarters": 2})
    found = explain(yuzu, s, turned(game_fields(yuzu, after(yuzu, s, turn)), TURN))   # sorted crates: one way round
    assert found.verdict == "one" and found.explanations[0] == (turn,)
    cans = GAMES["exploding_cans"]
    s = after(cans, cans.setup({"names": ["A", "B"]}),
              Move("place", 0, {"drink": "black-short_can", "row": 2, "col": 2}),
              Move("place", 1, {"drink": "white-tall_can", "row": 3, "col": 3}),
              Move("place", 0, {"drink": "black-tallest_bottle", "row": 0, "col": 5}),
              Move("place", 1, {"drink": "white-stubby_can", "row": 4, "col": 4}))
    boom = Move("explode", 0, {"row": 2, "col": 2})
    gone = game_fields(cans, after(cans, s, boom))
    assert sum(v != "empty" for v in gone.values()) == 1   # the tall can went off too, and took the stubby can
    found = explain(cans, s, gone, quarters=0)
    assert found.verdict == "one" and found.explanations[0] == (boom,)


# --- the watch ----------------------------------------------------------------------------------

def test_a_placed_drink_becomes_a_question_then_the_turn_is_known_and_moves_are_proposals(store):
    session = grape(store)
    watch = session.crate_watch
    assert watch is not None and watch.to_json()["present"] is False
    assert settle(watch, game_fields(GRAPE, session.state), 0.0) == "matches"
    assert watch.quarters is None   # the empty square matches every way round
    turn = (Move("place", 0, {"drink": "purple-tall_can", "x": 1, "y": 1}),
            Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}))
    assert settle(watch, fields_after(session, *turn), 10.0) == "question"
    shown = watch.to_json()
    assert shown["proposal"]["moves"] == [] and len(shown["candidates"]) == 2 and shown["cause"] is None
    right = next(i for i, c in enumerate(shown["candidates"]) if c["moves"][-1]["args"].get("x") == 1
                 or c["moves"][0]["args"].get("x") == 1)
    with pytest.raises(BadAnswer):
        watch.confirm(shown["proposal"]["id"], None, None)
    with pytest.raises(Forbidden):
        watch.confirm(shown["proposal"]["id"], right, 1)
    answer = watch.confirm(shown["proposal"]["id"], right, 0)
    assert answer["result"] == "applied" and session.state.turn == 1
    assert session.records[-1]["by"] == "crates" and session.records[-1]["confirmed"] == "seat 0"
    assert settle(watch, game_fields(GRAPE, session.state), 20.0) == "matches"
    assert watch.quarters == 4 - TURN     # learnt: the crates match one way round only
    # Ben's turn: now one explanation
    ben = (Move("move_crate", 1, {"crate": 0, "x": 6, "y": 3}), Move("place", 1, {"drink": "red-stubby_can", "x": 3, "y": 5}))
    assert settle(watch, fields_after(session, *ben), 30.0) == "proposal"
    proposal = watch.to_json()["proposal"]
    assert proposal["seat"] == 1 and len(proposal["moves"]) == 2
    with pytest.raises(Forbidden):
        watch.dismiss(proposal["id"], 0)
    watch.dismiss(proposal["id"], 1)
    assert watch.to_json()["proposal"] is None and watch.to_json()["cause"] == "board"
    assert settle(watch, fields_after(session, *ben), 40.0) in (None, "differences")   # not proposed again


def test_the_watch_asks_which_shape_when_the_camera_is_sure_of_a_colour_alone(store):
    """Settled readings whose new drink is read with doubt: without choices they match the game
    (the doubtful field may be the empty slot), with choices they become a question of the shapes."""
    session = grape(store)
    watch = session.crate_watch
    watch.quarters = 4 - TURN
    settle(watch, game_fields(GRAPE, session.state), 0.0)
    fields = fields_after(session, Move("place", 0, {"drink": "purple-square_bottle", "x": 3, "y": 4}))
    doubt = [next(f for f, v in turned(fields, TURN).items() if v == "purple-square_bottle")]
    assert settle(watch, fields, 10.0, unsure=doubt) is None      # the same crates as before, as far as known
    choices = {doubt[0]: ["purple-square_bottle", "purple-not_tallest_bottle"]}
    assert settle(watch, fields, 20.0, unsure=doubt, choices=choices) == "question"
    shown = watch.to_json()
    assert shown["choices"] == {f"{doubt[0][0]},{doubt[0][1]}": choices[doubt[0]]}
    drinks = sorted(c["moves"][0]["args"]["drink"] for c in shown["candidates"])
    assert drinks == ["purple-not_tallest_bottle", "purple-square_bottle"]


def test_a_move_made_on_the_dashboard_is_a_to_do_until_the_crates_match(store):
    session = grape(store)
    watch = session.crate_watch
    settle(watch, game_fields(GRAPE, session.state), 0.0)
    before = game_fields(GRAPE, session.state)
    session.submit(Move("move_crate", 0, {"crate": 5, "x": 6, "y": 0}), 0)
    shown = watch.to_json()
    assert shown["matches"] is False and shown["cause"] == "dashboard" and shown["differences"]
    assert settle(watch, before, 10.0) == "differences"        # still the old crates: nothing proposed
    assert settle(watch, game_fields(GRAPE, session.state), 20.0) == "matches"
    assert watch.to_json()["cause"] is None and watch.todo_since is None


def test_auto_applies_a_proposal_and_hands_and_problems(store):
    session = grape(store)
    watch = session.crate_watch
    watch.quarters = 4 - TURN
    settle(watch, game_fields(GRAPE, session.state), 0.0)
    watch.set_auto(True)
    move = Move("place", 0, {"drink": "purple-square_bottle", "x": 3, "y": 4})
    assert settle(watch, fields_after(session, move), 10.0) == "applied"
    assert session.records[-1]["confirmed"] == "auto"
    hand = CrateReading(codes=["hand"])
    assert watch.feed(hand, at=20.0) == "skipped" and watch.problem is None
    watch.feed(hand, at=21.0 + HANDS_STUCK_S)
    assert watch.problem["code"] == "hands"
    watch.feed(CrateReading(codes=["not_calibrated"]), at=60.0)
    assert watch.problem["code"] == "not_calibrated"
    # crates seen but read surely nowhere: said as such once it lasts, not as crates missing
    assert watch.feed(CrateReading(codes=["unclear"]), at=70.0) == "skipped" and watch.problem is None
    watch.feed(CrateReading(codes=["unclear"]), at=71.0 + LOST_S)
    assert watch.problem["code"] == "unclear"
    watch.feed(CrateReading(codes=["no_crates"]), at=72.0 + LOST_S)
    assert watch.problem["code"] == "no_crates"
    # more slots read than the game's crates have: a frame's misreading passes unsaid, a lasting one is said
    settle(watch, game_fields(GRAPE, session.state), 80.0)
    assert watch.problem is None
    assert watch.feed(CrateReading(codes=["too_many"]), at=90.0) == "skipped" and watch.problem is None
    watch.feed(CrateReading(codes=["too_many"]), at=91.0 + LOST_S)
    assert watch.problem["code"] == "too_many"


def test_a_proposal_is_stale_once_the_game_moved(store):
    session = grape(store)
    watch = session.crate_watch
    watch.quarters = 0
    settle(watch, game_fields(GRAPE, session.state), 0.0, quarters=0)
    move = Move("place", 0, {"drink": "purple-short_can", "x": 0, "y": 5})
    assert settle(watch, fields_after(session, move), 10.0, quarters=0) == "proposal"
    pid = watch.to_json()["proposal"]["id"]
    session.submit(Move("move_crate", 0, {"crate": 0, "x": 6, "y": 0}), None)
    with pytest.raises(IllegalMove):
        watch.confirm(pid, None, None)
