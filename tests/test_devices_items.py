"""A detergent bottle thrown into the simulated tower on a table with the simulated camera and
sensor board (rule book 002, Mr. Sudsy's laundromat): the beams count it, the camera (which draws
drinks alone) is not shown it, and the simulated table reports what fell out."""
from __future__ import annotations

from api_support import table_client
from waiting import wait_for

from companion.table.store import EventStore


def test_a_simulated_throw_of_a_bottle_is_counted_by_the_beams_and_reported_as_it_fell(tmp_path):
    """The simulated camera draws drinks alone: a bottle's throw skips it (the beams still count it)."""
    store = EventStore(tmp_path)
    with table_client(store, camera="sim", serial="sim") as client:
        wait_for(lambda: client.get("/api/devices").json()["sensors"]["state"] == "connected",
                 "the simulated board to connect", step=0.1)
        gid = client.post("/api/games", json={"game": "mr_sudsy", "names": ["Aki"], "seed": 4}).json()["id"]
        view = client.get(f"/api/games/{gid}/view").json()            # the visit is drawn by the simulated table
        buy = next(m["move"] for m in view["moves"] if m["move"]["kind"] == "buy")
        assert client.post(f"/api/games/{gid}/moves", json={"move": buy}).status_code == 200
        r = client.post(f"/api/games/{gid}/throw")
        assert r.status_code == 200 and r.json()["read_by"] == "sensors", r.text
        v = wait_for(lambda: (v := client.get(f"/api/games/{gid}/view").json())["state"]["phase"] == "shop" and v,
                     "the bottle's drop to be reported", 120, step=0.1)
        tray = [x["observation"] for x in store.records(gid) if x["type"] == "observation"
                and x["observation"]["kind"] == "tray"]
        beams = [x["observation"] for x in store.records(gid) if x["type"] == "observation"
                 and x["observation"]["kind"] == "beams"]
        assert [t["source"] for t in tray] == ["sim"] and set(tray[0]["appeared"]) <= {"detergent-1"}
        assert sum(b["passes_in"] for b in beams) == 1
        assert (v["state"]["players"][0]["bottles"] == ["detergent-1"]) == (tray[0]["appeared"] == ["detergent-1"])
