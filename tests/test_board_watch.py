"""The board camera's table side (table/board_watch.py, table/board_moves.py) on real TOKYO METRO
sessions over a real SQLite store: boards read as BoardReadings (built from the pieces the game
or a person would leave, as the reader gives them) settle, become proposals, questions or
differences, and confirmed proposals are made as any move is."""
from __future__ import annotations

import pytest

from companion.board_pieces import BoardReading, Pieces
from companion.rules.engine import Move
from companion.sim.table import SIM_TABLE
from companion.table.board_moves import explain, expected
from companion.table.board_watch import HANDS_STUCK_S, LOST_S, SETTLE_S, BadAnswer
from companion.table.errors import Forbidden, IllegalMove
from companion.table.session import TableSession

SEED = 2
COLOURS = ("red", "blue", "yellow", "green", "purple")


def new_game(store) -> TableSession:
    """A four-seat TOKYO METRO game past its bids (the simulated table deals; each phone bids)."""
    session = TableSession.create(store, "tokyo_metro", ["Aki", "Ben", "Chie", "Dai"], seed=SEED,
                                  automation=SIM_TABLE)
    bid_all(session)
    return session


def bid_all(session) -> None:
    for seat in range(len(session.config["names"])):
        session.submit(Move("bid", seat, {"amount": 0}), viewer=seat)


def to_actions(session) -> None:
    while session.state.phase == "movement":
        session.submit(session.allowed_moves(None)[0], None)
    assert session.state.phase == "actions"


def board_after(session, move) -> Pieces:
    return expected(session.game.apply(session.state, move)[0])


def reading(pieces: Pieces, **more) -> BoardReading:
    return BoardReading(pieces=pieces, markers=4, pose="locked", **more)


def settle(watch, pieces: Pieces, t0: float, frames: int = 3, **more) -> str | None:
    """The same board read ``frames`` times over SETTLE_S from ``t0``: what came of it (the latest
    frame that did something)."""
    out = None
    for i in range(frames):
        out = watch.feed(reading(pieces, **more), at=t0 + i * SETTLE_S / (frames - 1)) or out
    return out


def unique(session, kind: str):
    """Play harmless actions until the seat to act has a ``kind`` move no other move explains too."""
    for _ in range(30):
        for move in session.allowed_moves(None):
            if move.kind == kind and explain(session.game, session.state, board_after(session, move)).verdict == "one":
                return move
        harmless = [m for m in session.allowed_moves(None) if m.kind in ("invest", "tempo", "bid_bonus", "loan")]
        session.submit(harmless[0], None)
    raise AssertionError(f"no unique {kind} move came up")


def test_a_meeple_placed_on_the_board_becomes_a_proposal_that_its_seat_confirms(store):
    session = new_game(store)
    watch = session.board_watch
    assert settle(watch, expected(session.state), 0.0) == "matches"
    place = session.allowed_moves(None)[0]
    assert place.kind == "place"
    assert settle(watch, board_after(session, place), 10.0) == "proposal"
    shown = watch.to_json()
    proposal = shown["proposal"]
    assert proposal["moves"] == [place.to_json()] and proposal["seat"] == place.player
    assert shown["candidates"] is None and shown["matches"] is False and shown["cause"] is None
    assert shown["differences"] == [{"piece": "meeple", "key": ["red", "blue", "yellow", "green"][place.player],
                                     "game": None, "board": f"field:{place.args['field']}"}]
    assert 10.0 + SETTLE_S == pytest.approx(proposal["settled_at"]) and proposal["proposed_at"] >= proposal["settled_at"]
    with pytest.raises(Forbidden):   # another seat's phone
        watch.confirm(proposal["id"], None, (place.player + 1) % 4)
    with pytest.raises(IllegalMove):
        watch.confirm("nope", None, place.player)
    answer = watch.confirm(proposal["id"], None, place.player)
    assert answer["result"] == "applied"
    assert session.records[-1]["by"] == "board" and session.records[-1]["confirmed"] == f"seat {place.player}"
    assert watch.to_json()["matches"] is True and watch.to_json()["proposal"] is None
    entry = session.view(None)["feed"][0]
    assert entry["by"] == "board" and entry["confirmed"] == "seat" and entry["confirmed_seat"] == place.player
    session.undo()   # a confirmed proposal is taken back as any move is
    assert session.state.seats[place.player].field == -1


def test_the_table_chooses_how_long_a_board_must_stay_the_same_to_settle(store):
    """`companion serve --board-settle-s`: three frames in a row still, over the table's time."""
    watch = new_game(store).board_watch
    watch.settle_s = SETTLE_S / 2
    board = expected(watch.session.state)
    assert [watch.feed(reading(board), at=t) for t in (0.0, 0.1, 0.2)] == [None, None, None]
    assert watch.feed(reading(board), at=SETTLE_S / 2) == "matches"


def test_a_pyramid_and_a_train_started_are_proposed_and_several_explanations_are_a_question(store):
    session = new_game(store)
    to_actions(session)
    watch = session.board_watch
    # The first seat to act can start the G line's train with one card only: a proposal.
    start = unique(session, "start")
    assert settle(watch, board_after(session, start), 0.0) == "proposal"
    assert watch.to_json()["proposal"]["moves"] == [start.to_json()]
    watch.confirm(watch.proposal.id, None, None)   # the host
    assert session.records[-1]["confirmed"] == "table" and watch.matches
    # A station two action cards can build: a question with both candidates.
    station = next(m for m in session.allowed_moves(None) if m.kind == "station")
    assert settle(watch, board_after(session, station), 10.0) == "question"
    shown = watch.to_json()
    assert shown["proposal"]["moves"] == [] and len(shown["candidates"]) >= 2
    assert {c["moves"][0]["args"]["station"] for c in shown["candidates"]} == {station.args["station"]}
    with pytest.raises(BadAnswer):
        watch.confirm(shown["proposal"]["id"], None, None)   # which one?
    with pytest.raises(BadAnswer):
        watch.confirm(shown["proposal"]["id"], 99, None)
    pick = next(i for i, c in enumerate(shown["candidates"]) if c["moves"] == [station.to_json()])
    watch.confirm(shown["proposal"]["id"], pick, None)
    assert expected(session.state).pyramids[station.args["station"]] == ["red", "blue", "yellow", "green"][station.player]
    assert watch.matches is True


def test_a_pyramid_one_card_alone_builds_is_proposed(store):
    session = new_game(store)
    to_actions(session)
    built = unique(session, "station")
    watch = session.board_watch
    assert settle(watch, board_after(session, built), 0.0) == "proposal"
    assert watch.to_json()["proposal"]["moves"] == [built.to_json()]


def test_a_walk_in_round_two_is_proposed(store):
    session = new_game(store)
    for _ in range(200):   # play round 1 out: everyone passes, the trains run
        if session.state.round == 2 and session.state.phase == "movement":
            break
        pending = session.game.pending(session.state)[0].actor
        if session.state.phase == "bid":
            session.submit(Move("bid", pending, {"amount": 0}), viewer=pending)
            continue
        moves = session.allowed_moves(None)
        session.submit(next((m for m in moves if m.kind == "pass"), moves[0]), None)
    walk = next(m for m in session.allowed_moves(None) if m.kind == "walk")
    watch = session.board_watch
    assert settle(watch, board_after(session, walk), 0.0) == "proposal"
    assert watch.to_json()["proposal"]["moves"] == [walk.to_json()]


def test_no_explanation_and_a_knock_are_differences_until_the_board_is_fixed(store):
    session = new_game(store)
    watch = session.board_watch
    place = session.allowed_moves(None)[0]
    session.submit(place, None)
    session.submit(session.allowed_moves(None)[0], None)
    game = expected(session.state)
    assert settle(watch, game, 0.0) == "matches"
    # A knock: a meeple a field aside and a pyramid that no seat could have built now.
    colour, spot = next(iter(game.meeples.items()))
    knocked = game.model_copy(update={"meeples": {**game.meeples, colour: f"field:{int(spot.split(':')[1]) + 3}"},
                                      "pyramids": {"otemachi": "purple"}})
    assert settle(watch, knocked, 10.0) == "differences"
    shown = watch.to_json()
    assert shown["cause"] == "board" and shown["proposal"] is None and shown["matches"] is False
    assert {(d["piece"], d["key"]) for d in shown["differences"]} == {("meeple", colour), ("pyramid", "otemachi")}
    assert settle(watch, game, 20.0) == "matches"
    assert watch.to_json()["differences"] == [] and watch.to_json()["cause"] is None


def test_a_move_made_on_the_dashboard_is_a_to_do_until_the_board_shows_it(store):
    session = new_game(store)
    watch = session.board_watch
    unchanged = expected(session.state)
    assert settle(watch, unchanged, 0.0) == "matches"
    before = session.step
    place = session.allowed_moves(None)[0]
    session.submit(place, None)   # tapped on the table view
    assert session.step > before
    shown = watch.to_json()
    assert shown["matches"] is False and shown["cause"] == "dashboard"
    assert [d["board"] for d in shown["differences"]] == [None] and watch.todo_since is not None
    # The unchanged board read again is still the to-do: nothing is proposed from it.
    assert settle(watch, unchanged, 5.0) == "differences"
    assert watch.to_json()["cause"] == "dashboard"
    assert settle(watch, expected(session.state), 10.0) == "matches"
    assert watch.to_json()["cause"] is None and watch.todo_since is None


def test_auto_mode_makes_a_proposal_at_once(store):
    session = new_game(store)
    watch = session.board_watch
    watch.set_auto(True)
    place = session.allowed_moves(None)[0]
    assert settle(watch, board_after(session, place), 0.0) == "applied"
    assert session.records[-1]["confirmed"] == "auto" and watch.matches is True
    assert session.view(None)["feed"][0]["confirmed"] == "auto"


def test_frames_with_hands_or_a_lost_pose_are_not_taken_and_a_hand_that_stays_is_a_problem(store):
    session = new_game(store)
    watch = session.board_watch
    place = session.allowed_moves(None)[0]
    board = board_after(session, place)
    t = 0.0
    for i in range(6):   # a hand between every two frames: no run of three usable frames
        watch.feed(reading(board), at=t)
        assert watch.feed(reading(board, hands=True), at=t + 0.2) == "skipped"
        t += 0.4
    assert watch.proposal is None and watch.settled is None
    for i in range(6):   # the pose lost: not taken either
        assert watch.feed(BoardReading(pieces=board, markers=1, pose="lost"), at=t + i * 0.5) == "skipped"
    assert watch.proposal is None
    assert watch.to_json()["problem"] is None   # no board camera here: problems show with one
    assert watch.problem == {"code": "pose_lost", "params": {"markers": 1}}
    t += 10
    for i in range(int(HANDS_STUCK_S) + 3):   # a hand that never leaves
        watch.feed(reading(board, hands=True), at=t + i)
    assert watch.problem["code"] == "hands" and watch.proposal is None
    t += HANDS_STUCK_S + 10
    assert settle(watch, board, t) == "proposal"   # it left: the board settles
    assert watch.problem is None
    assert LOST_S < HANDS_STUCK_S


def test_a_new_games_board_is_a_to_do_until_it_is_set_up(store):
    session = TableSession.create(store, "tokyo_metro", ["Aki", "Ben"], seed=SEED, automation=SIM_TABLE)
    watch = session.board_watch
    assert settle(watch, Pieces(), 0.0) == "differences"   # an empty board: the value markers are to be set
    shown = watch.to_json()
    assert shown["cause"] == "dashboard" and {d["piece"] for d in shown["differences"]} == {"value"}
    assert settle(watch, expected(session.state), 10.0) == "matches" and watch.todo_since is None


def test_a_spot_read_with_doubt_is_left_out(store):
    session = new_game(store)
    watch = session.board_watch
    game = expected(session.state)
    odd = game.model_copy(update={"pyramids": {"otemachi": "blue"}})
    assert settle(watch, odd, 0.0, unsure=["station:otemachi"]) == "matches"


def test_a_one_move_change_is_searched_one_step_deep_and_the_same_each_time(store):
    # How much the search does, not how long it takes (that is benchmarks/board_proposal.py's):
    # a station built is explained by trying the table's legal moves once, from the one state.
    session = new_game(store)
    to_actions(session)
    station = next(m for m in session.allowed_moves(None) if m.kind == "station")
    board = board_after(session, station)
    first = explain(session.game, session.state, board)
    assert first == explain(session.game, session.state, board)
    assert first.verdict == "several"
    assert not first.bounded and first.expanded == 1, first
    assert first.tried <= len(session.allowed_moves(None)), first


def test_a_train_run_with_riders_deciding_at_stops_is_explained_as_one_sequence():
    """Trains moved through several stops at once, riders boarding and staying on: the moves that
    change nothing on the board (skip, ride_on) are found as steps on the way."""
    import random

    from companion.rules.engine import CHANCE
    from companion.rules.metro.game import GAME

    rng, state, checked = random.Random(7), GAME.setup({"names": ["A", "B", "C", "D"]}), 0
    while not GAME.is_over(state) and checked < 12:
        actor = GAME.pending(state)[0].actor
        if state.phase == "trains" and actor != CHANCE:
            after, moves = state, []
            while len(moves) < 3 and GAME.pending(after) and GAME.pending(after)[0].actor != CHANCE \
                    and after.phase == "trains":
                move = rng.choice(GAME.legal_moves(after, GAME.pending(after)[0].actor))
                moves.append(move)
                after = GAME.apply(after, move)[0]
            if len(moves) >= 2 and expected(after) != expected(state):
                found = explain(GAME, state, expected(after))
                assert found.explanations and len(found.explanations[0]) <= len(moves)
                assert expected(GAME.apply(state, found.explanations[0][0])[0]) is not None
                checked += 1
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state, actor)))[0]
    assert checked >= 3


def test_a_place_read_with_doubt_is_named_and_not_taken_for_a_match(store):
    # The new meeple stands where the camera is unsure: nothing is proposed from it, and the view
    # names the place, so that a person taps the move instead of trusting "matches".
    session = new_game(store)
    watch = session.board_watch
    place = session.allowed_moves(None)[0]
    spot = board_after(session, place).meeples[COLOURS[place.player]]
    assert settle(watch, board_after(session, place), 0.0, unsure=[spot]) == "matches"
    shown = watch.to_json()
    assert shown["proposal"] is None and shown["unsure"] == [spot]
    assert settle(watch, board_after(session, place), 10.0) == "proposal"   # read clearly: proposed
    assert watch.to_json()["unsure"] == []


def test_a_piece_of_no_players_colour_is_shown_by_its_code(store):
    session = new_game(store)
    watch = session.board_watch
    words = "A piece at field:200 matches no player's colour."
    watch.feed(reading(expected(session.state), problems=[words], codes={"unknown_colour": words}), at=0.0)
    assert watch.problem == {"code": "unknown_colour", "params": {"detail": words}}   # (shown when a camera is there)


def test_a_table_started_on_a_store_with_an_open_metro_game_takes_it_with_its_settle_time(store):
    # a restart (or a crash) with a TOKYO METRO game open: the table adopts it before the board
    # camera's settle time is given, and takes that time for it afterwards
    from companion.table.tables import Tables

    game = new_game(store)
    tables = Tables(store)
    assert game.id in tables.sessions and tables.board_active == game.id
    tables.use_board_camera(None, settle_s=SETTLE_S / 3)
    assert tables.sessions[game.id].board_watch.settle_s == pytest.approx(SETTLE_S / 3)
