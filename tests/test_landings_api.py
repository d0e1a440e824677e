"""The landing camera's routes (server/routes/landings.py) on the real app over a real SQLite store,
with the real simulated landing camera and its device thread read by the truth reader: the
landing_camera object in a game's view, the simulated table laying out what its chance decided,
a scene set by POST /api/sim/landings proposed and confirmed, what is refused (in words) and the
routes' bounds in /openapi.json."""
from __future__ import annotations

import doctest

import pytest

from companion.sim import landing_camera
from companion.sim.landing_camera import open_landing_camera
from tests.api_support import seat, start_game, table_client, view_of
from tests.waiting import wait_for


def truth_reader(_calibration, source):
    return source.truth_reader()


@pytest.fixture
def landing_table(store):
    with table_client(store, landing_camera="sim", open_landing_camera=open_landing_camera,
                      make_landing_reader=truth_reader) as client:
        yield client


def proposed(client, gid, *, other_than=None):
    def ready():
        lc = client.get(f"/api/games/{gid}/landings").json()
        p = lc.get("proposal")
        return lc if p and p["id"] != other_than else None
    return wait_for(ready, "the landing camera's proposal")


def test_the_simulated_table_lays_out_its_chance_and_the_host_confirms_it(landing_table):
    client = landing_table
    gid, tokens = start_game(client, game="lemon_squash", names=["Aki", "Ben", "Chi"], seed=3)
    lc = proposed(client, gid)
    assert lc["present"] and lc["simulated"] and lc["state"] == "reading"
    assert lc["waiting"]["kind"] == "farthest"
    assert [d["drink"] for d in lc["differences"]] == ["black-short_can", "white-short_can", "mint-short_can"]
    by_distance = sorted(lc["differences"], key=lambda d: -d["distance_mm"])
    colours = ["black", "white", "mint"]
    expected = [colours.index(d["drink"].split("-")[0]) for d in by_distance]
    assert [m["args"]["unit"] for m in lc["proposal"]["moves"]] == expected[:2]
    # a phone does not confirm the table's outcomes
    r = client.post(f"/api/games/{gid}/landings/confirm", json={"proposal": lc["proposal"]["id"]},
                    headers=seat(tokens[0]))
    assert r.status_code == 403
    # the players lay the cans out again: a new proposal for the new scene
    r = client.post("/api/sim/landings", json={"drinks": [
        {"drink": "black-short_can", "distance_mm": 400}, {"drink": "white-short_can", "distance_mm": 120},
        {"drink": "mint-short_can", "distance_mm": 260}]})
    assert r.status_code == 200, r.text
    assert [x["distance_mm"] for x in r.json()["landings"]] == [400, 120, 260]
    status = client.get("/api/devices").json()["landing_camera"]
    assert status["simulated"] and status["source"]["drinks"] == ["black-short_can", "white-short_can",
                                                                  "mint-short_can"]
    lc = proposed(client, gid, other_than=lc["proposal"]["id"])
    assert [m["args"]["unit"] for m in lc["proposal"]["moves"]] == [0, 2]
    seq = view_of(client, gid)["seq"]
    r = client.post(f"/api/games/{gid}/landings/confirm", json={"proposal": lc["proposal"]["id"], "candidate": 5})
    assert r.status_code == 422 and "no candidate 5" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/landings/confirm", json={"proposal": "0123456789ab"})
    assert r.status_code == 409 and "the landing camera proposes nothing by that id" in r.json()["detail"]
    assert view_of(client, gid)["seq"] == seq   # nothing changed
    r = client.post(f"/api/games/{gid}/landings/confirm", json={"proposal": lc["proposal"]["id"]})
    assert r.status_code == 200, r.text
    assert r.json()["view"]["state"]["start_order"] == [0, 2, 1]
    idle = view_of(client, gid)["landing_camera"]
    assert idle["waiting"] is None and idle["state"] == "resting"   # the order is known: nothing to read
    picture = wait_for(lambda: (r := client.get("/api/landing-camera.jpg")).status_code == 200 and r,
                       "the landing camera's picture")
    assert picture.headers["content-type"] == "image/jpeg"


def test_what_the_simulated_landings_refuse_says_what_to_do(landing_table):
    client = landing_table
    start_game(client, game="lemon_squash", names=["Aki", "Ben"], seed=1)
    cases = [
        ({"drinks": [{"drink": "red-short_can", "spot": "slot", "distance_mm": 200}]}, "leave it out"),
        ({"drinks": [{"drink": "red-short_can"}, {"drink": "red-short_can", "spot": "outside"}]}, "named twice"),
        ({"drinks": [{"drink": "red"}]}, None),
        ({"drinks": [{"drink": "red-short_can", "distance_mm": 5000}]}, None),
        ({"drinks": [{"drink": "red-short_can", "spot": "roof"}]}, None),
        ({"drinks": [], "hand_frames": 99}, None),
        ({"drinks": [], "colour": "red"}, None),
    ]
    for body, words in cases:
        r = client.post("/api/sim/landings", json=body)
        assert r.status_code == 422, (body, r.text)
        if words:
            assert words in r.json()["detail"], r.text
    assert client.post("/api/sim/landings", json={"drinks": [], "hand": True}).status_code == 200


def test_a_game_not_scored_by_landings_and_a_table_without_the_camera_say_so(store):
    with table_client(store) as client:
        gid, _ = start_game(client, game="lemon_squash", names=["Aki", "Ben"], seed=1)
        lc = client.get(f"/api/games/{gid}/landings").json()
        assert lc["present"] is False and lc["state"] == "off"
        assert view_of(client, gid)["state"]["phase"] != "order"   # no camera: the simulated table drew the order
        other, _ = start_game(client, game="bottle_square", names=["A", "B"], seed=1)
        r = client.get(f"/api/games/{other}/landings")
        assert r.status_code == 404 and "where it lands" in r.json()["detail"]
        r = client.post("/api/sim/landings", json={"drinks": []})
        assert r.status_code == 409 and "--landing-camera sim" in r.json()["detail"]
        assert client.get("/api/landing-camera.jpg").status_code == 404


def test_the_routes_and_their_bounds_are_in_the_openapi_document(store):
    with table_client(store) as client:
        doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    for p in ("/api/games/{game_id}/landings", "/api/games/{game_id}/landings/confirm",
              "/api/games/{game_id}/landings/dismiss", "/api/games/{game_id}/landings/auto",
              "/api/landing-camera.jpg", "/api/sim/landings"):
        assert p in paths, p
    body = doc["components"]["schemas"]["SimLandingsIn"]["properties"]
    assert body["drinks"]["maxItems"] == 36
    want = doc["components"]["schemas"]["LandingWant"]["properties"]
    assert any(x.get("maximum") == 3000 for x in want["distance_mm"]["anyOf"])


def test_the_simulated_landing_cameras_examples():
    result = doctest.testmod(landing_camera)
    assert result.failed == 0 and result.attempted > 0


class BrokenReader:
    def read(self, frame, asked):
        raise RuntimeError("the reader broke")


def test_a_failing_reader_is_a_problem_shown_and_the_game_goes_on_by_taps(store):
    with table_client(store, landing_camera="sim", open_landing_camera=open_landing_camera,
                      make_landing_reader=lambda _cal, _source: BrokenReader()) as client:
        gid, _ = start_game(client, game="lemon_squash", names=["Aki", "Ben"], seed=1)
        lc = wait_for(lambda: (x := client.get(f"/api/games/{gid}/landings").json())["state"] == "problem" and x,
                      "the broken reader shown as a problem")
        assert lc["problem"]["code"] == "camera_error" and "the reader broke" in lc["problem"]["params"]["detail"]
        r = client.post(f"/api/games/{gid}/moves", json={"move": {"kind": "farthest", "player": "chance",
                                                                  "args": {"unit": 1}}})
        assert r.status_code == 200, r.text
        assert view_of(client, gid)["state"]["start_order"] == [1, 0]
