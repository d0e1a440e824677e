"""The table's devices in the real app: the simulated sensor board (real protocol over a pty)
and the simulated camera (rendered frames read by the tray watcher) feed a POCARI BET round;
a board that is not there never stops the game."""
from __future__ import annotations

import threading

from api_support import table_client

from companion.table.store import EventStore
from waiting import PATIENCE, wait_for

# A simulated throw waits for the camera in frames (companion/table/devices.py, SETTLE_FRAMES):
# on a busy machine those come slower, and a drop the camera missed is reported only after
# some hundreds of them. This is the backstop for that, not the time a throw takes.
THROW_PATIENCE = 600.0


def to_the_drop(client, gid):
    for _ in range(40):
        v = client.get(f"/api/games/{gid}/view").json()
        if v["state"]["phase"] == "drop":
            return v
        assert client.post(f"/api/games/{gid}/moves", json={"move": v["moves"][0]["move"]}).status_code == 200
    raise AssertionError("never reached the drop")


def test_a_simulated_round_is_counted_by_the_beams_and_read_by_the_camera(tmp_path):
    store = EventStore(tmp_path)
    with table_client(store, camera="sim", serial="sim") as client:
        devices = wait_for(lambda: (d := client.get("/api/devices").json())["sensors"]["state"] == "connected"
                           and d["camera"]["source"] and d,
                           "the simulated board to connect and the simulated camera to open", step=0.1)
        assert devices["sensors"]["firmware"] == "1.0.0" and devices["sensors"]["simulated"]
        assert devices["camera"]["source"]["state"] == "ok" and devices["camera"]["simulated"]
        # No game throws into the tower yet: the camera rests (reads and renders nothing).
        wait_for(lambda: client.get("/api/devices").json()["camera"]["idle"], "the camera to rest in the lobby", step=0.1)

        gid = client.post("/api/games", json={"bots": [1, 2], "seed": 21}).json()["id"]
        frame = wait_for(lambda: (f := client.get("/api/camera.jpg")).status_code == 200 and f,
                         "the first camera frame once a POCARI BET game is in play", step=0.1)
        assert frame.content[:2] == b"\xff\xd8"  # a JPEG
        thrown = to_the_drop(client, gid)["state"]["thrown"]
        r = client.post(f"/api/games/{gid}/throw")
        assert r.status_code == 200 and r.json()["result"] == "thrown"

        def settled():
            v = client.get(f"/api/games/{gid}/view").json()
            return v if v["state"]["round"] == 2 or v["question"] else None

        v = wait_for(settled, "the drop to be read by the camera or questioned", THROW_PATIENCE, step=0.25)
        beams = [r["observation"] for r in store.records(gid)
                 if r["type"] == "observation" and r["observation"]["kind"] == "beams"]
        assert sum(b["passes_in"] for b in beams) == len(thrown)  # every drink counted going in
        assert all(b["source"] == "sensors" and b["detail"]["boot_id"] for b in beams)
        tray = [r["observation"] for r in store.records(gid)
                if r["type"] == "observation" and r["observation"]["kind"] == "tray"]
        if v["question"] is None:  # the camera's reading agreed with the beams and was sure
            assert tray and tray[-1]["source"] == "camera"
            out = v["state"]["last_round"]["drop"]["out"]
            assert sorted(tray[-1]["appeared"]) == sorted(out)
            assert v["beams"]["last_drop"] == [len(thrown), len(out)]
        else:  # a person settles it on the dashboard
            q = v["question"]
            assert q["observation"]["source"] == "camera" and q["reason"]
            move = q.get("move") or {"kind": "drop", "player": "chance", "args": {"out": []}}
            assert client.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200
            assert client.get(f"/api/games/{gid}/view").json()["state"]["round"] == 2


def test_a_board_that_is_not_there_leaves_the_game_playable_by_hand(tmp_path):
    with table_client(EventStore(tmp_path), camera=None, serial=str(tmp_path / "no-such-port")) as client:
        status = wait_for(lambda: (d := client.get("/api/devices").json())["sensors"]["error"] and d,
                          "the link to report the missing port", step=0.1)
        assert status["sensors"]["state"] in ("disconnected", "connecting") and status["camera"] is None
        assert client.get("/api/camera.jpg").status_code == 404
        gid = client.post("/api/games", json={"bots": [1, 2], "seed": 4}).json()["id"]
        to_the_drop(client, gid)
        r = client.post(f"/api/games/{gid}/throw")  # no simulated board or camera: read at once
        assert r.status_code == 200 and r.json()["result"] in ("applied", "question")


def test_a_reading_the_game_doubts_is_read_again_before_anyone_is_asked(monkeypatch):
    """The camera saw two drinks, the game (here: a stand-in for its beams) expected three: the
    tray is read again from the latest still frame before the reading goes to the game; the third
    drink, which landed late, is in the reading again, and the first reading goes along with it."""
    from companion.sim.camera import SimCamera
    from companion.table.devices import Devices
    from companion.vision import sources

    monkeypatch.setattr(sources, "open_source", lambda spec: SimCamera(seed=4, touching=0.0))
    routed, doubted, late_drink_landed = [], [], threading.Event()

    def doubt(obs):
        doubted.append(obs)
        late_drink_landed.wait(PATIENCE)  # the camera's thread holds here while the third drink lands
        return "the exit beam counted 3 drink(s) coming out, the camera saw 2"

    devices = Devices(routed.append, camera="sim", doubt=doubt)
    devices.start()
    try:
        wait_for(devices._tray_read_still, "the camera to read the empty tray")
        camera = devices.source
        camera.drop(["red-tall_can", "blue-stubby_can"])
        wait_for(lambda: doubted, "the first reading of the drop")
        camera.drop(["mint-tallest_bottle"])
        # landed: the camera has shown every frame of its fall (on a busy machine the frame
        # reader may not have come to them yet, and the tray read again would be the old one)
        wait_for(lambda: not camera.script, "the camera to show the third drink's fall")
        late_drink_landed.set()
        obs = wait_for(lambda: routed and routed[0], "the reading again to be routed")
    finally:
        devices.stop()
    assert len(doubted) == 1, "the reading again is routed as it is, not doubted again"
    assert doubted[0].appeared == ["blue-stubby_can", "red-tall_can"]
    assert obs.source == "camera" and obs.detail["reread"] is True
    assert obs.appeared == ["blue-stubby_can", "mint-tallest_bottle", "red-tall_can"]
    assert obs.detail["first_reading"] == {"appeared": ["blue-stubby_can", "red-tall_can"],
                                           "confidence": doubted[0].confidence, "read_again": True,
                                           "why": "the exit beam counted 3 drink(s) coming out, the camera saw 2"}
    assert devices.frames.status()["taken"] > 0 and "timing" in obs.detail


def test_the_camera_rests_while_no_game_that_throws_into_the_tower_is_in_play(tmp_path):
    """The lobby and a TOKYO METRO game have nothing for the camera to read: it reads (and the
    simulated camera renders) no frame then, and wakes when a tower game is in play."""
    with table_client(EventStore(tmp_path), camera="sim", serial=None) as client:
        frames = lambda: client.get("/api/devices").json()["camera"]["frames"]  # noqa: E731
        wait_for(lambda: (f := frames()) and f["idle"], "the camera to rest in the lobby", step=0.05)
        assert frames()["read"] == 0
        client.post("/api/games", json={"bots": [1, 2], "seed": 3})  # POCARI BET, fed by the tower
        read = wait_for(lambda: (f := frames()) and not f["idle"] and f["read"], "frames once POCARI BET is in play",
                        step=0.05)
        # A TOKYO METRO game does not take the tower from the POCARI BET game (the camera reads on);
        # once that game ends, nothing in play throws into the tower: the camera rests.
        metro = client.post("/api/games", json={"game": "tokyo_metro", "names": ["A", "B"], "bots": [1]}).json()["id"]
        pocari = next(g["id"] for g in client.get("/api/games").json() if g["game"] == "pocari_bet")
        assert [g["fed"] for g in client.get("/api/games").json() if g["id"] in (metro, pocari)] == [False, True]
        refused = client.put("/api/feed", json={"game_id": metro})
        assert refused.status_code == 409 and "throws nothing into the tower" in refused.json()["detail"]
        assert not frames()["idle"]
        assert client.post(f"/api/games/{pocari}/end").status_code == 200
        rest = wait_for(lambda: (f := frames())["idle"] and f, "the camera to rest with only TOKYO METRO open", step=0.05)
        # Two more rests prove the reader looked again and still read nothing.
        after = wait_for(lambda: (f := frames())["rested"] >= rest["rested"] + 2 and f, "the camera to rest on", step=0.05)
        assert after["read"] == rest["read"] >= read
        assert client.get(f"/api/games/{metro}/view").json()["tower"] is False
        assert {t["id"]: t["tower"] for t in client.get("/api/game-types").json()} == {
            "pocari_bet": True, "jasmine_tea": True, "melon_soda": True, "vending_poker": True,
            "chocolate_milk": True, "pura": True, "upside_down_tower": False, "lemon_squash": False,
            "tokyo_metro": False, "osaka_metro": False, "metro_drinks": True, "izakaya": False,
            # issue 31's crate games
            "exploding_cans": False, "bottle_square": False, "colour_sort": False, "crate_duel": True,
            "grape_soda": False, "yuzu": False, "genmaicha": False,
            # issue 32's games
            "hidden_cards": False, "bottle_giving": False, "toriatama": False,
            "crate_draft": False, "golden_runner": False, "bottle_bonus": True, "shopping_mall": True,
            "mr_sudsy": True, "vend_machine": True}
