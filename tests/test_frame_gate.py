"""A camera's frame that shows nothing new is not read again (table/frame_gate.py): the board
camera's thread with the real simulated board camera made to behave as a real one (fresh noise on
every frame, so no frame ever repeats) and the real board reader. On a still board the reader
reads a frame every REREAD_S at most while the frames flow; a pyramid set down is read at once and
becomes the proposal. A frame given again bit for bit (a simulated still scene's copies) keeps its
reading for REREAD_S, then is read again (table/camera_device.py)."""
from __future__ import annotations

import doctest
import time

import numpy as np

from companion.sim.board_source import open_board_camera
from companion.sim.table import SIM_TABLE
from companion.table import frame_gate
from companion.table.board_device import BoardDevice
from companion.table.camera_device import CameraDevice
from companion.table.tables import Tables
from tests.test_board_device import wait_for
from tests.test_board_watch import COLOURS, bid_all, to_actions, unique


def test_the_gates_examples():
    assert doctest.testmod(frame_gate).failed == 0


def test_a_still_board_seen_by_a_real_camera_is_read_seldom_and_a_new_pyramid_at_once(store, tmp_path):
    tables = Tables(store, automation=SIM_TABLE)
    session = tables.create("tokyo_metro", ["Aki", "Ben", "Chie", "Dai"], seed=2)
    bid_all(session)
    to_actions(session)
    station = unique(session, "station")

    def real_camera(spec):
        camera = open_board_camera(spec)
        camera.fresh_noise = True          # as a real camera: no two frames alike
        return camera

    device = BoardDevice(tables, "sim", open_camera=real_camera, data_dir=tmp_path, follow_s=0.2, fps=8)
    tables.use_board_camera(device, settle_s=0.3)
    watch = session.board_watch
    device.start()
    try:
        assert wait_for(lambda: watch.matches is True), (device.status(), watch.to_json())
        # the board stands still: frames keep coming, hardly any is read (one every REREAD_S, and
        # one more for the window's ends; counted against the time taken, however busy the machine)
        before, began = device.status(), time.monotonic()
        assert wait_for(lambda: device.status()["unchanged"] - before["unchanged"] >= 12), device.status()
        after, took = device.status(), time.monotonic() - began
        assert after["repeated"] == before["repeated"], "a real camera's frames never repeat bit for bit"
        reads = after["read"] - before["read"]
        assert reads <= 2 + took / frame_gate.REREAD_S, (reads, took, after)
        # a pyramid set down is seen at once, and proposed
        read_before = device.status()["read"]
        device.sim_hands([{"piece": "pyramid", "key": station.args["station"], "to": COLOURS[station.player]}])
        assert wait_for(lambda: watch.proposal is not None), (device.status(), watch.to_json())
        assert watch.to_json()["proposal"]["moves"] == [station.to_json()]
        assert device.status()["read"] > read_before
    finally:
        device.stop()


class _CountingReader:
    """Says how many times it has read: a reader whose readings change as it reads (as the crate
    reader's camera does, learnt from its frames' grids)."""

    def __init__(self):
        self.reads = 0

    def read(self, image):
        self.reads += 1
        return self.reads


def test_a_frame_given_again_is_read_again_once_the_gate_would_read_it():
    device = CameraDevice(tables=None, spec="sim")
    device.reader = _CountingReader()
    copies = [np.full((48, 64, 3), v, np.uint8) for v in (10, 90)]     # a still scene's two copies, in turn
    seen = [device._read(copies[k % 2], at=0.5 * k) for k in range(4)]
    assert seen == [1, 2, 1, 2] and device.repeated_frames == 2, "copies within the gate's time: their readings"
    later = device._read(copies[0], at=frame_gate.REREAD_S + 0.5)
    assert later == 3, "a copy read long ago is read again: the reader may read it better now"
