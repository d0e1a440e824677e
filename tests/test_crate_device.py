"""The crate camera's thread (table/crate_device.py) over the real simulated crate camera and a real
table: frames read, settled, proposed; the simulated players' hands; a move made on the dashboard
copied onto the simulated crates; a camera that cannot be opened shown as a problem, never a crash.

The reader here reads the simulated camera's own truth (what it shows now, turned a quarter as a
camera may see the grid, a hand as the code ``hand``): this file checks the table's side of the
crate camera; the reader is checked on rendered frames by tests/test_crate_reader.py, and the
whole pipeline (renderer, reader, table, dashboard) by tests/test_dashboard_crates.py."""
from __future__ import annotations

import time

import pytest

from companion.crate_fields import CrateReading, turned
from companion.rules.engine import Move
from companion.sim.crate_camera import open_crate_camera
from companion.sim.table import SIM_TABLE
from companion.table.crate_device import CrateDevice
from companion.table.tables import Tables

pytestmark = pytest.mark.vision
WAIT_S = 60.0   # a hang guard, not a timing: the loop is read at 8 frames a second


class TruthReader:
    """Reads what the simulated camera shows now (its truth), a quarter turn round. ``doubt``: drinks
    read with their shape in doubt, each -> the choices reported for it (itself first)."""

    def __init__(self, device: CrateDevice, doubt: dict[str, list[str]] | None = None):
        self.device = device
        self.doubt = doubt or {}
        self.crates_told: list = []         # how many crates the device said stand there, frame by frame

    def read(self, frame, crates: int | None = None) -> CrateReading:
        self.crates_told.append(crates)
        camera = self.device.source
        if camera.status()["hand"]:
            return CrateReading(codes=["hand"])
        fields = turned(camera.truth()["fields"], 1)
        choices = {f: self.doubt[v] for f, v in fields.items() if v in self.doubt}
        return CrateReading.of(fields, unsure=choices, choices=choices)


def until(what: str, check) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"waited {WAIT_S:.0f} s for {what}, in vain")


@pytest.fixture
def table(store, tmp_path):
    tables = Tables(store, automation=SIM_TABLE)
    device = CrateDevice(tables, "sim:1", open_camera=open_crate_camera, data_dir=tmp_path,
                         make_reader=lambda calibration: TruthReader(device), calibrate=lambda photo: "calibrated",
                         follow_s=0.2, fps=8.0)
    tables.use_crate_camera(device)
    device.start()
    try:
        yield tables, device
    finally:
        device.stop()


def test_crates_changed_by_hand_are_proposed_and_a_dashboard_move_is_copied_onto_them(table):
    tables, device = table
    session = tables.create("grape_soda", ["Aki", "Ben"], seed=1)
    watch = session.crate_watch
    until("the empty square to match", lambda: watch.matches is True)
    assert watch.to_json()["state"] == "reading" and device.status()["calibrated"] is True
    assert device.reader.crates_told[-1] == 6           # the game's six crates, told to the reader
    # Aki takes the crate at the bottom right to the top right and puts a can into the first crate
    device.sim_hands([{"kind": "put", "field": "1,1", "drink": "purple-short_can"},
                      {"kind": "move", "crate": 5, "x": 6, "y": 0}])
    until("a question or a proposal", lambda: watch.proposal is not None)
    proposal = watch.to_json()
    mine = {("place", 1, 1), ("move_crate", 6, 0)}
    options = proposal["candidates"] or [{"moves": proposal["proposal"]["moves"]}]
    pick = next(i for i, c in enumerate(options) if {(m["kind"], m["args"]["x"], m["args"]["y"]) for m in c["moves"]} == mine)
    watch.confirm(proposal["proposal"]["id"], pick if proposal["candidates"] else None, 0)
    assert session.state.turn == 1 and session.state.layout[5] == (6, 0)
    until("the crates to match the game", lambda: watch.matches is True and watch.quarters is not None)
    # Ben's turn made on the dashboard: a to-do, then the simulated players copy it over
    session.submit(Move("move_crate", 1, {"crate": 0, "x": 8, "y": 0}), None)
    session.submit(Move("place", 1, {"drink": "red-tall_can", "x": 2, "y": 5}), None)
    assert watch.cause == "dashboard"
    until("the simulated crates to follow the dashboard", lambda: watch.matches is True)
    assert device.source.layout.drinks == dict(session.game.crates(session.state)[1])
    assert watch.cause is None and session.state.turn == 0


def test_a_camera_that_cannot_be_opened_is_a_problem_not_a_crash(store, tmp_path):
    tables = Tables(store, automation=SIM_TABLE)
    device = CrateDevice(tables, str(tmp_path / "no-such-video.mp4"), data_dir=tmp_path, fps=8.0)
    tables.use_crate_camera(device)
    device.start()
    try:
        session = tables.create("yuzu", ["Aki", "Ben"], seed=1)
        until("the camera's error", lambda: device.error is not None)
        shown = session.crate_watch.to_json()
        assert shown["present"] is True and shown["state"] == "problem"
        assert shown["problem"]["code"] == "camera_error"
        assert session.view(None)["crate_camera"]["problem"]["code"] == "camera_error"
    finally:
        device.stop()


def test_a_real_camera_reads_with_the_hosts_calibration_once_a_good_one_is_written(store, tmp_path):
    import cv2

    from companion.sim.crate_camera import SimCrateCamera
    from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, calibrate_crates

    camera = SimCrateCamera(seed=1)   # a photo of the crates as a real camera's source (an image file)
    photo = tmp_path / "crates.png"
    cv2.imwrite(str(photo), camera.read())
    (tmp_path / "crate-calibration.json").write_text("{not json", encoding="utf-8")
    tables = Tables(store, automation=SIM_TABLE)
    device = CrateDevice(tables, str(photo), data_dir=tmp_path, fps=8.0)
    tables.use_crate_camera(device)
    device.start()
    try:
        session = tables.create("grape_soda", ["Aki", "Ben"], seed=1)
        until("the refusal shown", lambda: session.crate_watch.to_json()["state"] == "problem")
        problem = session.crate_watch.to_json()["problem"]
        assert problem["code"] == "calibrate" and "refused" in problem["params"]["detail"]
        calibrate_crates(camera.calibration_photo(CALIBRATION_LAYOUT)).save(tmp_path / "crate-calibration.json")
        until("the crates read", lambda: device.status()["calibrated"] and device.read_frames > 0)
        assert session.crate_watch.to_json()["problem"] is None
    finally:
        device.stop()
