"""Learning from the table (issue 26 item 5) in the real app, with a real camera reading a real
rendered photo: the host's confirmed correction of a drop the camera read wrong teaches the
camera that drink's look, the next reading names it right, and taking the correction back (an
undo) or forgetting the learned looks makes it read as before. What it learned outlives a restart.

The camera is a photo file (`--camera PHOTO`, read as a still tray over and over) of the
simulated table with one purple tall can from another copy of the game, its plastic nearer
blue: the table's profile (`calibration/sim-profile.json`) reads it as a blue tall can
(tests/test_vision_taught.py). "Read the tray again" has the camera read it as the drop awaited.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from api_support import NOBODY, seat, start_game, table_client

from companion.sim.camera import SIM_SEED
from companion.sim.looks import Look, Placement
from companion.sim.render import Renderer
from companion.table.looks import LookBook
from companion.table.store import EventStore
from waiting import wait_for

ODD, READ_AS = "purple-tall_can", "blue-tall_can"
PROFILE = str(Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json")


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    look = Look.from_seed(SIM_SEED)
    colours = {**look.colours, "purple": 0.3 * look.colours["purple"] + 0.7 * look.colours["blue"]}
    image, _ = Renderer(replace(look, colours=colours)).render([Placement(ODD, 20.0, -10.0, 140.0)],
                                                                 rng=np.random.default_rng(2))
    path = tmp_path_factory.mktemp("learning") / "tray.png"
    cv2.imwrite(str(path), image)
    return str(path)


def learned(client) -> dict:
    return client.get("/api/devices").json()["camera"]["learned"]


def in_use(client, n: int) -> dict:
    """Wait until the camera reads with ``n`` taught looks (its thread takes a change in at its
    next frame)."""
    return wait_for(lambda: (got := learned(client))["in_use"] == n and got, f"the camera to read with {n} taught look(s)")


def read_tray(client, gid: str, store: EventStore) -> dict:
    """Have the camera read the tray as the drop awaited; the observation record it made."""
    before = len(store.records(gid))
    assert client.post(f"/api/games/{gid}/tray/read").json()["result"] == "reading"
    found = wait_for(lambda: [r for r in store.records(gid)[before:] if r["type"] == "observation"],
                     "the camera's reading of the tray", step=0.05)
    assert found[0]["observation"]["source"] == "camera"
    return found[0]


def a_drop_asked_about(client, store) -> tuple[str, list[str]]:
    """A POCARI BET game (a person in seat 0, computers in 1 and 2) at its first drop, in which
    the purple tall can was thrown, and a reading of a blue tall can (which was not, and is not
    inside) is put to the host: besides the purple one another thrown drink is blue or a tall
    can, so the game cannot settle which it was. The game's seats' keys."""
    for seed in range(1, 200):
        gid, keys = start_game(client, game="pocari_bet", names=["Aki", "Ben", "Chie"], bots=[1, 2], seed=seed)
        for _ in range(40):
            view = client.get(f"/api/games/{gid}/view").json()
            if view["chance"] and view["chance"]["kind"] == "drop":
                break
            assert client.post(f"/api/games/{gid}/moves", json={"move": view["moves"][0]["move"]}).status_code == 200
        free = set(view["chance"]["thrown"]) | set(view["chance"]["inside"])
        alike = [d for d in free if d != ODD and (d.startswith("blue-") or d.endswith("-tall_can"))]
        if ODD in view["chance"]["thrown"] and READ_AS not in free and alike:
            return gid, keys
        client.post(f"/api/games/{gid}/end")
    raise AssertionError("no seed threw the purple tall can with a look-alike")


def test_a_confirmed_correction_changes_the_next_reading_and_undo_reverts_it(tmp_path, photo):
    store = EventStore(tmp_path)
    with table_client(store, camera=photo, profile=PROFILE) as client:
        assert learned(client)["corrections"] == 0
        gid, keys = a_drop_asked_about(client, store)

        # The camera reads the purple can as blue; the game cannot say which drink it was: asked.
        seen = read_tray(client, gid, store)
        assert seen["observation"]["appeared"] == [READ_AS] and seen["question"] is not None
        detection = seen["observation"]["detail"]["detections"][0]
        assert detection["id"] == READ_AS and "look" in detection     # (sure or, since the set network
        # learned from more looks, doubted: either way the host's answer teaches the camera)

        # A player's phone cannot answer for the tower, so it cannot teach the camera either.
        drop = {"kind": "drop", "player": "chance", "args": {"out": [ODD]}}
        assert client.post(f"/api/games/{gid}/moves", json={"move": drop}, headers=seat(keys[0])).status_code == 403
        assert learned(client)["corrections"] == 0

        # The host confirms what came out: the camera learns the purple can's look.
        assert client.post(f"/api/games/{gid}/moves", json={"move": drop}).status_code == 200
        move = next(r for r in store.records(gid) if r["type"] == "move" and r["move"]["kind"] == "drop")
        assert [(t["drink"], t["read"]) for t in move["taught"]] == [(ODD, READ_AS)]
        assert move["taught"][0]["look"] == detection["look"]
        got = in_use(client, 1)
        assert (got["corrections"], got["looks"], got["drinks"]) == (1, 1, {ODD: 1})

        # Undone: what it taught is taken back, and the camera reads the can as blue again.
        assert client.post(f"/api/games/{gid}/undo").status_code == 200
        assert in_use(client, 0)["corrections"] == 0
        again = read_tray(client, gid, store)
        assert again["observation"]["appeared"] == [READ_AS] and again["question"] is not None

        # Confirmed again; the next reading of the tray names the purple can.
        assert client.post(f"/api/games/{gid}/moves", json={"move": drop}).status_code == 200
        in_use(client, 1)
        for _ in range(40):
            view = client.get(f"/api/games/{gid}/view").json()
            if view["chance"] and view["chance"]["kind"] == "drop":
                break
            assert client.post(f"/api/games/{gid}/moves", json={"move": view["moves"][0]["move"]}).status_code == 200
        assert read_tray(client, gid, store)["observation"]["appeared"] == [ODD]

    # What it learned is kept beside the store, and read with after a restart.
    assert LookBook(tmp_path).books, "the learned looks were not written"
    with table_client(store, camera=photo, profile=PROFILE) as client:
        assert in_use(client, 1)["corrections"] == 1
        # The host alone makes the camera forget; then it reads with its profile alone again.
        for headers in (NOBODY, seat(keys[0])):
            assert client.post("/api/camera/learned/forget", headers=headers).status_code == 403
        assert learned(client)["corrections"] == 1
        answer = client.post("/api/camera/learned/forget")
        assert answer.status_code == 200 and answer.json()["learned"]["corrections"] == 0
        in_use(client, 0)
    store.close()
