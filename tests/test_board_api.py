"""The board camera's routes (server/routes/board.py) on the real app over a real SQLite store:
the board_camera object in the METRO view, confirming and dismissing proposals (the host, or the
seat whose move it is), auto mode, and what is refused. The board is fed as the board camera's
thread feeds it (``Tables.board_route``), with readings of the pieces the players left."""
from __future__ import annotations

import pytest

from companion.board_pieces import BoardReading
from companion.table.board_moves import expected
from companion.table.board_watch import SETTLE_S
from tests.api_support import post_move, seat, start_game, table_client, view_of


@pytest.fixture
def table(store):
    with table_client(store) as client:
        gid, tokens = start_game(client, game="tokyo_metro", names=["Aki", "Ben", "Chie", "Dai"], seed=2)
        for s, token in enumerate(tokens):
            assert post_move(client, gid, {"kind": "bid", "player": s, "args": {"amount": 0}}, token).status_code == 200
        yield client, gid, tokens


def session_of(client, gid):
    return client.app.state.tables.get(gid)


def show(client, pieces, t0: float) -> None:
    """The board camera reads ``pieces`` until they settle."""
    for i in range(3):
        client.app.state.tables.board_route(BoardReading(pieces=pieces, markers=4, pose="locked"),
                                            at=t0 + i * SETTLE_S / 2)


def placed(client, gid):
    """The move the game waits for (a meeple placed) and the board it leaves."""
    session = session_of(client, gid)
    move = session.allowed_moves(None)[0]
    return move, expected(session.game.apply(session.state, move)[0])


def test_the_view_carries_the_board_camera_and_a_phone_confirms_its_own_seats_proposal(table):
    client, gid, tokens = table
    board = client.get(f"/api/games/{gid}/board").json()
    assert board["present"] is False and board["state"] == "off" and board["proposal"] is None
    assert {"simulated", "problem", "markers", "pose", "matches", "cause", "differences", "candidates",
            "auto"} <= set(board)
    move, pieces = placed(client, gid)
    show(client, pieces, 0.0)
    view = view_of(client, gid, tokens[move.player])
    proposal = view["board_camera"]["proposal"]
    assert proposal["moves"] == [move.to_json()] and proposal["seat"] == move.player
    other = tokens[(move.player + 1) % 4]
    r = client.post(f"/api/games/{gid}/board/confirm", json={"proposal": proposal["id"]}, headers=seat(other))
    assert r.status_code == 403 and "own seat" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/board/dismiss", json={"proposal": proposal["id"]}, headers=seat(other))
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/board/confirm", json={"proposal": proposal["id"]},
                    headers=seat(tokens[move.player]))
    assert r.status_code == 200, r.text
    assert r.json()["result"] == "applied" and r.json()["view"]["board_camera"]["matches"] is True
    entry = view_of(client, gid)["feed"][0]
    assert entry["by"] == "board" and entry["confirmed"] == "seat" and entry["confirmed_seat"] == move.player
    # The same proposal again: it is no longer proposed.
    r = client.post(f"/api/games/{gid}/board/confirm", json={"proposal": proposal["id"]})
    assert r.status_code == 409


def test_the_host_dismisses_switches_auto_mode_and_bad_answers_are_refused(table):
    client, gid, tokens = table
    # A new game's board is a to-do until it is set up (value markers at 0): here it is.
    assert client.get(f"/api/games/{gid}/board").json()["cause"] is None   # nothing settled yet
    show(client, expected(session_of(client, gid).state), -10.0)
    move, pieces = placed(client, gid)
    show(client, pieces, 0.0)
    pid = client.get(f"/api/games/{gid}/board").json()["proposal"]["id"]
    for body in ({}, {"proposal": 5}, {"proposal": pid, "candidate": "first"}, {"proposal": pid, "candidate": -1},
                 {"proposal": "x" * 41}, {"proposal": pid, "candidate": 8}):
        r = client.post(f"/api/games/{gid}/board/confirm", json=body)
        assert r.status_code == 422, (body, r.text)
    assert client.post(f"/api/games/{gid}/board/confirm", json={"proposal": "nope"}).status_code == 409
    assert client.post(f"/api/games/{gid}/board/confirm", json={"proposal": pid, "candidate": 3}).status_code == 422
    r = client.post(f"/api/games/{gid}/board/dismiss", json={"proposal": pid})
    assert r.status_code == 200 and r.json()["board_camera"]["cause"] == "board"
    assert r.json()["board_camera"]["proposal"] is None
    assert client.post(f"/api/games/{gid}/board/auto", json={"on": True}, headers=seat(tokens[0])).status_code == 403
    assert client.post(f"/api/games/{gid}/board/auto", json={"on": "yes"}).status_code == 422
    assert client.post(f"/api/games/{gid}/board/auto", json={"on": True}).json()["auto"] is True
    # Auto mode: the next settled board that one move explains is made at once (the meeple set down
    # elsewhere: the board dismissed is not proposed again).
    session = session_of(client, gid)
    before = session.step
    move = session.allowed_moves(None)[1]
    show(client, expected(session.game.apply(session.state, move)[0]), 10.0)
    assert session.step > before and session.records[-1]["confirmed"] == "auto"
    assert view_of(client, gid)["board_camera"]["matches"] is True


def test_a_move_made_on_the_dashboard_shows_as_a_to_do(table):
    client, gid, tokens = table
    session = session_of(client, gid)
    show(client, expected(session.state), 0.0)
    move = session.allowed_moves(None)[0]
    assert post_move(client, gid, move.to_json()).status_code == 200
    board = view_of(client, gid)["board_camera"]
    assert board["cause"] == "dashboard" and board["matches"] is False and len(board["differences"]) == 1
    show(client, expected(session.state), 10.0)
    assert view_of(client, gid)["board_camera"]["matches"] is True


def test_what_is_refused_without_a_board_camera_or_a_metro_game(table):
    client, gid, tokens = table
    r = client.post("/api/sim/board", json={"follow_game": True})
    assert r.status_code == 409 and "--board-camera sim" in r.json()["detail"]
    assert client.post("/api/sim/board", json={"knock": True}, headers=seat(tokens[0])).status_code == 403
    assert client.post("/api/sim/board", json={"set": [{"piece": "cup", "key": "x", "to": 1}]}).status_code == 422
    assert client.post("/api/sim/board", json={"follow_game": True, "hand_frames": 21}).status_code == 422
    assert client.get("/api/board-camera.jpg").status_code == 404
    other, _ = start_game(client, game="pocari_bet", names=["Aki", "Ben", "Chie"])
    r = client.get(f"/api/games/{other}/board")
    assert r.status_code == 404 and "TOKYO METRO" in r.json()["detail"]
    assert "board_camera" not in view_of(client, other)
    assert client.get("/api/games/nosuch/board").status_code == 404


def test_a_proposal_is_pushed_to_the_live_views(table):
    client, gid, tokens = table
    move, pieces = placed(client, gid)
    with client.websocket_connect(f"/api/games/{gid}/ws") as live:
        first = live.receive_json()
        assert first["board_camera"]["proposal"] is None
        show(client, pieces, 0.0)   # no record: the view's rev changes, and the view is sent again
        pushed = live.receive_json()
        while pushed["board_camera"]["proposal"] is None:
            pushed = live.receive_json()
        assert pushed["seq"] == first["seq"] and pushed["rev"] > first["rev"]
        assert pushed["board_camera"]["proposal"]["moves"] == [move.to_json()]
