"""The board camera's thread (table/board_device.py) with the real simulated board camera
(sim/board_camera.py) and the real board reader (vision/board_read.py): the simulated players
set the board up as the game has it (a second after, as on `make run`), and a pyramid set on the
simulated board becomes the board camera's proposal."""
from __future__ import annotations

import time

import pytest

from companion.sim.board_source import open_board_camera
from companion.sim.table import SIM_TABLE
from companion.table.board_device import BoardDevice, SimBoardError
from companion.table.tables import Tables
from tests.test_board_watch import COLOURS, bid_all, to_actions, unique


def wait_for(done, seconds: float = 40.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return True
        time.sleep(0.05)
    return done()


def test_a_pyramid_set_on_the_simulated_board_becomes_a_proposal(store, tmp_path):
    tables = Tables(store, automation=SIM_TABLE)
    session = tables.create("tokyo_metro", ["Aki", "Ben", "Chie", "Dai"], seed=2)
    bid_all(session)
    to_actions(session)
    station = unique(session, "station")   # the seat to act can build it with one card only
    device = BoardDevice(tables, "sim", open_camera=open_board_camera, data_dir=tmp_path, follow_s=0.2, fps=8)
    tables.use_board_camera(device, settle_s=0.3)   # a faster pace than the default (`--board-fps`, ...)
    watch = session.board_watch
    device.start()
    try:
        # The simulated players set the board up as the game has it: the board camera sees it match.
        assert wait_for(lambda: watch.matches is True), (device.status(), watch.to_json())
        shown = watch.to_json()
        assert shown["present"] and shown["simulated"] and shown["state"] == "reading" and shown["pose"] == "locked"
        device.sim_hands([{"piece": "pyramid", "key": station.args["station"], "to": COLOURS[station.player]}])
        assert wait_for(lambda: watch.proposal is not None), watch.to_json()
        proposal = watch.to_json()["proposal"]
        # proposed once settled (how soon: benchmarks/board_proposal.py, the 1 s target; a timed
        # assertion here failed only for want of CPU on a loaded machine)
        assert proposal["moves"] == [station.to_json()] and proposal["proposed_at"] >= proposal["settled_at"]
        status = device.status()
        assert device.frame_jpeg() is not None and status["read"] > 3 and status["fps"] == 8
        # the still scene's copies, given again, are not read again
        assert wait_for(lambda: device.status()["repeated"] > 0), device.status()
    finally:
        device.stop()


def test_a_missing_camera_or_calibration_shows_as_a_problem_and_the_game_goes_on(store, tmp_path):
    import cv2
    import numpy as np

    from companion.vision.sources import open_source

    tables = Tables(store, automation=SIM_TABLE)
    session = tables.create("tokyo_metro", ["Aki", "Ben"], seed=3)
    watch = session.board_watch
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 200, np.uint8))
    for spec, code in (("/no/such/board.png", "camera_error"), (str(photo), "calibrate")):
        device = BoardDevice(tables, spec, open_camera=open_source, data_dir=tmp_path)
        tables.board_camera = device
        device.start()
        try:
            assert wait_for(lambda: (watch.to_json()["problem"] or {}).get("code") == code, 20.0), watch.to_json()
            assert watch.to_json()["state"] == "problem" and watch.to_json()["present"] is True
        finally:
            device.stop()
    bid_all(session)   # the game goes on by taps
    assert session.state.phase == "movement"


def test_the_simulated_players_hands_on_the_simulated_board(store, tmp_path):
    """The sim route's hands (no thread: the simulated camera opened as the device opens it)."""
    tables = Tables(store, automation=SIM_TABLE)
    tables.create("tokyo_metro", ["Aki", "Ben"], seed=3)
    device = BoardDevice(tables, "sim", open_camera=open_board_camera, data_dir=tmp_path)
    device.source = open_board_camera("sim")
    camera = device.simulated_camera()
    device.sim_hands([], follow_game=True)
    assert camera.pieces.values == {k: 0 for k in camera.layout.lanes}
    camera.script.clear()   # (the hand setting the board up)
    device.sim_hands([{"piece": "value", "key": "G", "to": 300}], hand=True)
    assert camera.pieces.values["G"] == 300 and camera.resting_hand is not None and len(camera.script) == 4
    camera.script.clear()
    device.sim_hands([{"piece": "value", "key": "G", "to": 500}], hand_frames=2)   # a quicker hand
    assert camera.pieces.values["G"] == 500 and len(camera.script) == 2
    assert device.sim_hands([])["result"] == "changed" and camera.resting_hand is None
    with pytest.raises(SimBoardError):
        device.sim_hands([{"piece": "pyramid", "key": "nowhere", "to": "red"}])
