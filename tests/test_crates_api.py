"""The crate camera's routes (server/routes/crates.py) on the real app over a real SQLite store: the
crate_camera object in a crate game's view, confirming a proposal (the seat whose move it is, not
another), what is refused, and the simulated players' hands (POST /api/sim/crates) on the real
simulated crate camera. The crates are fed as the crate camera's thread feeds them
(``Tables.crate_route``), with readings of the fields the players left."""
from __future__ import annotations

import pytest

from companion.crate_fields import CrateReading
from companion.rules.engine import Move
from companion.sim.crate_camera import open_crate_camera
from companion.table.crate_moves import game_fields
from companion.table.watch import SETTLE_S
from tests.api_support import seat, start_game, table_client, view_of


@pytest.fixture
def table(store):
    with table_client(store) as client:
        gid, tokens = start_game(client, game="grape_soda", names=["Aki", "Ben"], seed=2)
        yield client, gid, tokens


def show(client, fields, t0: float) -> None:
    """The crate camera reads ``fields`` until they settle."""
    for i in range(3):
        client.app.state.tables.crate_route(CrateReading.of(fields), at=t0 + i * SETTLE_S / 2)


def test_a_phone_confirms_its_own_seats_proposal_and_no_other(table):
    client, gid, tokens = table
    crates = client.get(f"/api/games/{gid}/crates").json()
    assert crates["present"] is False and crates["state"] == "off" and crates["proposal"] is None
    session = client.app.state.tables.get(gid)
    session.crate_watch.quarters = 0   # the camera's grid lies as the game's
    move = Move("place", 0, {"drink": "purple-tall_can", "x": 0, "y": 0})
    show(client, game_fields(session.game, session.game.apply(session.state, move)[0]), 0.0)
    proposal = view_of(client, gid, tokens[0])["crate_camera"]["proposal"]
    assert proposal["moves"] == [move.to_json()] and proposal["seat"] == 0
    r = client.post(f"/api/games/{gid}/crates/confirm", json={"proposal": proposal["id"]}, headers=seat(tokens[1]))
    assert r.status_code == 403 and "own seat" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/crates/confirm", json={"proposal": "nope"}, headers=seat(tokens[0]))
    assert r.status_code == 409
    r = client.post(f"/api/games/{gid}/crates/confirm", json={"proposal": proposal["id"]}, headers=seat(tokens[0]))
    assert r.status_code == 200, r.text
    assert r.json()["view"]["state"]["crate_grid"][0][0] == "purple-tall_can"
    assert session.records[-1]["by"] == "crates"
    r = client.post(f"/api/games/{gid}/crates/auto", json={"on": True}, headers=seat(tokens[0]))
    assert r.status_code == 403   # the host's switch
    assert client.post(f"/api/games/{gid}/crates/auto", json={"on": True}).json()["crate_camera"]["auto"] is True


def test_a_game_without_crates_and_a_table_without_a_crate_camera_say_so(table):
    client, _gid, _tokens = table
    other, _ = start_game(client, game="bottle_square", names=["A", "B"], seed=1)
    r = client.get(f"/api/games/{other}/crates")
    assert r.status_code == 404 and "grid of crates" in r.json()["detail"]
    r = client.post("/api/sim/crates", json={"changes": [{"kind": "take", "field": "0,0"}]})
    assert r.status_code == 409 and "--crate-camera sim" in r.json()["detail"]
    assert client.get("/api/crate-camera.jpg").status_code == 404


def test_the_simulated_hands_change_the_simulated_crates_and_refuse_what_cannot_be(store):
    with table_client(store, crate_camera="sim", open_crate_camera=open_crate_camera) as client:
        start_game(client, game="grape_soda", names=["Aki", "Ben"], seed=2)
        put = {"kind": "put", "field": "1,1", "drink": "purple-tall_can"}
        r = client.post("/api/sim/crates", json={"changes": [put, {"kind": "move", "crate": 0, "x": 6, "y": 0}]})
        assert r.status_code == 200, r.text
        fields = r.json()["fields"]
        assert len(fields) == 36 and list(fields.values()).count("purple-tall_can") == 1
        assert r.json()["crates"][0] == [6, 0, 0]   # crate 0 went to the right end of the top row
        assert fields["7,1"] == "purple-tall_can"   # its drink went along
        again = client.post("/api/sim/crates", json={"changes": [{"kind": "put", "field": "7,1", "drink": "red-tall_can"}]})
        assert again.status_code == 422 and "take it out first" in again.json()["detail"]
        gap = client.post("/api/sim/crates", json={"changes": [{"kind": "take", "field": "0,0"}]})
        assert gap.status_code == 422 and "in no crate" in gap.json()["detail"]
        on_top = client.post("/api/sim/crates", json={"changes": [{"kind": "move", "crate": 1, "x": 0, "y": 3}]})
        assert on_top.status_code == 422 and "on another crate" in on_top.json()["detail"]
        bad = client.post("/api/sim/crates", json={"changes": [{"kind": "put", "field": "1,1", "drink": "purple"}]})
        assert bad.status_code == 422
        status = client.get("/api/devices").json()["crate_camera"]["source"]
        assert status["fields"]["7,1"] == "purple-tall_can"
