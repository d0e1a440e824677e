"""METRO DRINKS on the board camera's table side (table/board_moves.py, board_watch.py): a drink
the camera sees at a station (by its colour) becomes the build move(s) the engine checks; a
drink missing or extra is a difference; another game leaves the camera's drinks out. Real
metro_drinks states, positions set up as tests/test_metro_drinks.py sets them up."""
from __future__ import annotations

from companion.board_pieces import BoardReading, Pieces
from companion.rules.metro.game import GAME as tokyo
from companion.table.board_moves import drinks_in_play, expected, explain, without_drinks
from test_metro_drinks import at_field, new, owning, red_holder, stations_near, to_actions, with_drinks
from test_metro_drinks import game as drinks_game


def _position(supply=None):
    """Seat 0 (red) at a field touching a station of its own; its supply the red crate or ``supply``."""
    state = red_holder(to_actions(new(3)))
    (s, f), = stations_near(state, 1)
    state = owning(at_field(state, 0, f), [s], 0)
    if supply is not None:
        state = with_drinks(state, supplies=(tuple(supply),) + state.drinks.supplies[1:])
    return state, state.board.stations[s].id


def _seen(state, drinks):
    game = expected(state)
    return game.model_copy(update={"drinks": {**game.drinks, **drinks}})


def test_a_drink_of_the_one_red_in_the_supply_is_proposed_as_that_build():
    state, sid = _position(["red-tall_can", "blue-short_can"])
    board = _seen(state, {sid: "red"})
    found = explain(drinks_game, state, board)
    assert found.verdict == "one"
    (move,), = found.explanations
    assert (move.kind, move.player, move.args) == ("vend", 0, {"station": sid, "drink": "red-tall_can"})
    after, _ = drinks_game.apply(state, move)
    assert expected(after).drinks == {sid: "red-tall_can"}


def test_several_drinks_of_the_colour_make_a_question_of_which_one():
    state, sid = _position()          # the whole red crate: six shapes
    found = explain(drinks_game, state, _seen(state, {sid: "red"}))
    assert found.verdict == "several"
    assert {(m.kind, m.args["station"], m.args["drink"].split("-")[0]) for (m,) in found.explanations} \
        == {("vend", sid, "red")}
    assert len({m.args["drink"] for (m,) in found.explanations}) == len(found.explanations) > 1


def test_a_drink_of_a_colour_nobody_can_build_there_explains_nothing():
    state, sid = _position(["red-tall_can"])
    found = explain(drinks_game, state, _seen(state, {sid: "blue"}))
    assert found.verdict == "none"


def test_a_missing_or_other_drink_is_a_difference():
    from companion.board_pieces import differences
    state, sid = _position(["red-tall_can"])
    state, _ = drinks_game.apply(state, next(m for m in drinks_game.legal_moves(state, 0) if m.kind == "vend"))
    game = expected(state)
    assert game.drinks == {sid: "red-tall_can"}
    assert differences(game, _seen(state, {sid: "red"})) == []
    missing = differences(game, game.model_copy(update={"drinks": {}}))
    assert [(d.piece, d.key, d.game, d.board) for d in missing] == [("drink", sid, "red-tall_can", None)]
    other = differences(game, _seen(state, {sid: "mint"}))
    assert [(d.piece, d.board) for d in other] == [("drink", "mint")]


def test_another_game_leaves_the_cameras_drinks_out():
    plain = tokyo.setup({"names": ["Ann", "Ben"]})
    assert not drinks_in_play(plain) and drinks_in_play(new(3))
    assert expected(plain).drinks == {}
    reading = BoardReading(pieces=Pieces(drinks={"ueno": "red"}), unsure=["drink:ginza", "station:ueno"], pose="locked")
    bare = without_drinks(reading)
    assert bare.pieces.drinks == {} and bare.unsure == ["station:ueno"]
    assert without_drinks(bare) is bare


def test_a_plain_games_watch_takes_no_news_from_drinks_on_the_board(store):
    """A drink stood on the board of a TOKYO METRO game (or read by mistake) is no difference."""
    from companion.sim.table import SIM_TABLE
    from companion.table.session import TableSession
    from test_board_watch import settle
    session = TableSession.create(store, "tokyo_metro", ["Aki", "Ben"], seed=2, automation=SIM_TABLE)
    board = expected(session.state)
    with_a_drink = board.model_copy(update={"drinks": {"ueno": "red"}})
    assert settle(session.board_watch, with_a_drink, 0.0, unsure=["drink:ginza"]) == "matches"


def test_metro_drinks_on_the_tokyo_board_has_a_board_watch_osaka_has_none(store):
    """The board camera reads METRO DRINKS played on the Tokyo board (its layout is the Tokyo
    board's); OSAKA METRO's board has no layout yet."""
    from companion.sim.table import SIM_TABLE
    from companion.table.session import TableSession
    drinks = TableSession.create(store, "metro_drinks", ["Aki", "Ben"], seed=2, automation=SIM_TABLE)
    assert drinks.board_watch is not None and drinks.board_watch._drinks
    osaka = TableSession.create(store, "osaka_metro", ["Aki", "Ben"], seed=2, automation=SIM_TABLE)
    assert osaka.board_watch is None
