"""The tray watcher on the simulated camera and on a video file standing in for a USB camera:
drops give `appeared`, a hand gives `removed`, bad frames and a vanishing camera never crash.
A reading is made from a still, whole frame only (never a half-drawn one, never a drink still
creeping), from the newest frame when the watcher is slower than the camera, and again on request."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observation import Observation
from companion.sim.camera import SimCamera, open_camera
from companion.sim.looks import Hand, Placement
from companion.vision.profile import Profile, ProfileError
from companion.vision.sources import FrameSource, LatestFrame, open_source
from companion.vision.tray import TrayWatcher
from waiting import PATIENCE, wait_for

PROFILE = Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json"


@pytest.fixture(scope="module")
def profile() -> Profile:
    return Profile.load(PROFILE)


def run(cam: FrameSource, watcher: TrayWatcher, frames: int) -> list[Observation]:
    out = []
    for _ in range(frames):
        obs = watcher.feed(cam.read())
        if obs is not None:
            out.append(obs)
    return out


def test_drop_then_hand(profile):
    cam = SimCamera(seed=4, touching=0.0)
    w = TrayWatcher(profile, still_frames=3)
    assert run(cam, w, 5) == []                     # the empty tray is the baseline
    cam.drop(["red-tall_can", "blue-stubby_can", "mint-tallest_bottle"])
    seen = []
    for _ in range(16):
        obs = w.feed(cam.read())
        seen.append(w.status()["state"])
        if obs:
            break
    assert "moving" in seen                         # the drop was noticed while it happened
    assert obs is not None and obs.source == "camera" and obs.kind == "tray"
    assert obs.appeared == ["blue-stubby_can", "mint-tallest_bottle", "red-tall_can"] and obs.removed == []
    assert obs.confidence >= 0.8
    assert {d["id"] for d in obs.detail["detections"]} == set(obs.appeared)
    assert run(cam, w, 6) == []                     # a still tray reports nothing new
    cam.take_out(["blue-stubby_can"])
    obs = run(cam, w, 16)
    assert len(obs) == 1 and obs[0].removed == ["blue-stubby_can"] and obs[0].appeared == []
    assert sorted(d["id"] for d in w.last_detections()) == ["mint-tallest_bottle", "red-tall_can"]


def test_second_drop_reports_only_the_new_drinks(profile):
    cam = SimCamera(seed=9, touching=0.0)
    w = TrayWatcher(profile, still_frames=3)
    run(cam, w, 4)
    cam.drop(["white-square_bottle"])
    assert [o.appeared for o in run(cam, w, 12)] == [["white-square_bottle"]]
    cam.drop(["purple-short_can", "black-not_tallest_bottle"])
    assert [o.appeared for o in run(cam, w, 12)] == [["black-not_tallest_bottle", "purple-short_can"]]


def test_bad_frames_are_skipped_with_a_message(profile):
    cam = SimCamera(seed=2)
    w = TrayWatcher(profile, still_frames=2)
    run(cam, w, 3)
    frame = cam.read()
    assert w.feed((frame * 0.03).astype(np.uint8)) is None
    assert w.status()["state"] == "bad_frame" and "too dark" in w.status()["message"]
    assert w.feed(np.full_like(frame, 255)) is None
    assert "overexposed" in w.status()["message"]
    assert w.feed(cv2.resize(frame, (640, 480))) is None
    assert "640x480" in w.status()["message"]
    assert w.feed(None) is None and w.feed("not a frame") is None
    # and it goes on working
    cam.drop(["red-short_can"])
    assert [o.appeared for o in run(cam, w, 12)] == [["red-short_can"]]
    assert w.status()["skipped"] >= 4


def test_watcher_needs_a_profile():
    with pytest.raises(ProfileError):
        TrayWatcher({"not": "a profile"})


def write_video(path: Path, frames: list[np.ndarray]) -> None:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (w, h))
    assert out.isOpened()
    for f in frames:
        out.write(f)
    out.release()


def test_video_file_as_camera_then_it_ends(profile, tmp_path):
    cam = SimCamera(seed=6, touching=0.0)
    frames = [cam.read() for _ in range(4)]
    cam.drop(["purple-tallest_bottle", "red-stubby_can"])
    frames += [cam.read() for _ in range(12)]
    video = tmp_path / "tray.avi"
    write_video(video, frames)
    src = open_source(str(video))
    assert src.status()["state"] == "ok" and src.status()["granted"]["width"] == 1280
    w = TrayWatcher(profile, still_frames=3)
    got = []
    for _ in range(len(frames) + 5):        # read past the end: the camera "disappears"
        frame = src.read()
        obs = w.feed(frame)
        if obs:
            got.append(obs)
    assert [o.appeared for o in got] == [["purple-tallest_bottle", "red-stubby_can"]]
    st = src.status()
    assert st["state"] == "lost" and "ended" in st["error"]
    assert src.read() is None
    src.close()


def test_sources_never_raise_for_missing_cameras(tmp_path):
    missing = open_source(str(tmp_path / "gone.avi"))
    assert missing.read() is None and missing.status()["state"] == "lost"
    assert "no such file" in missing.status()["error"]
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"\x00" * 1000)
    src = open_source(str(junk))
    assert src.read() is None and src.status()["state"] == "lost"
    img_path = tmp_path / "still.png"
    cv2.imwrite(str(img_path), np.zeros((72, 128, 3), np.uint8))
    still = open_source(str(img_path))
    assert still.read().shape == (72, 128, 3) and still.status()["state"] == "ok"
    sim = open_camera("sim")  # the simulated camera: wired in by the composition root, not by vision
    assert sim.read().shape == (720, 1280, 3) and sim.status()["state"] == "ok"
    assert open_source("sim").status()["state"] == "lost", "vision alone does not know the simulated camera"


def test_a_usb_index_that_does_not_exist_reports_lost():
    src = open_source("97")
    try:
        wait_for(lambda: src.status()["state"] != "opening", "the first attempt to open camera 97")
        assert src.read() is None
        st = src.status()
        assert st["state"] == "lost" and "not available" in st["error"]
    finally:
        src.close()


# --- a reading made from a still, whole frame only; the newest frame; reading again ------------------

def half_drawn(frame: np.ndarray, how: str) -> np.ndarray:
    """The frame as a camera or stream may deliver it when the frame is cut short: its lower part
    grey (a JPEG decoder's fill), black, or the last row it got repeated down to the bottom."""
    out = frame.copy()
    cut = frame.shape[0] // 2
    if how == "grey":
        out[cut:] = 128
    elif how == "black":
        out[cut:] = 0
    else:
        out[cut:] = frame[cut - 1]
    return out


def test_a_half_drawn_frame_is_never_read(profile):
    cam = SimCamera(seed=4, touching=0.0)
    w = TrayWatcher(profile, still_frames=3)
    run(cam, w, 4)
    drinks = ["red-tall_can", "blue-stubby_can", "mint-tallest_bottle"]
    cam.drop(drinks)
    while cam.script:                                # the drop as it lands: motion, no reading
        assert w.feed(cam.read()) is None
    landed = cam.read()
    for how in ("grey", "black", "repeated"):
        cut = half_drawn(landed, how)
        # The same half frame again and again is "still" to a motion test: it must not be read.
        for _ in range(6):
            assert w.feed(cut.copy()) is None, f"a {how} half frame was read"
    assert w.status()["partial"] == 18 and w.status()["observations"] == 0
    assert w.status()["state"] == "bad_frame" and "parts missing (18 in a row)" in w.status()["message"]
    # Whole frames of the settled tray: read, all three drinks.
    obs = run(cam, w, 6)
    assert [o.appeared for o in obs] == [sorted(drinks)] and w.status()["state"] == "still"
    assert set(obs[0].detail["timing"]) == {"late_s", "after_still_s"}


def test_a_drink_that_creeps_is_not_read_until_it_stops(profile):
    # 0.1 mm a frame is below the frame-to-frame motion threshold: only the comparison with the
    # first frame of the still run sees that it moves
    cam = SimCamera(seed=4, touching=0.0)
    rng = np.random.default_rng(3)
    resting = Placement("red-tall_can", -40.0, 10.0, 30.0)

    def frame(x: float) -> np.ndarray:
        return cam.renderer.render([resting, Placement("blue-short_can", x, -10.0, 80.0)], rng=rng)[0]

    w = TrayWatcher(profile, still_frames=4)
    alone = cam.renderer.render([resting], rng=rng)[0]
    for _ in range(6):
        w.feed(alone.copy())                                    # the baseline: one can
    assert w.status()["in_tray"] == ["red-tall_can"]
    for k in range(14):
        assert w.feed(frame(30.0 + 0.1 * k)) is None, f"read while the can was still creeping (frame {k})"
    stopped = frame(31.4)
    got = [w.feed(stopped.copy()) for _ in range(8)]
    assert [o.appeared for o in got if o] == [["blue-short_can"]], w.status()


def test_reading_again_reads_the_latest_still_frame_as_the_last_drop(profile):
    cam = SimCamera(seed=9, touching=0.0)
    w = TrayWatcher(profile, still_frames=3)
    run(cam, w, 4)
    cam.drop(["white-square_bottle", "red-short_can"])
    first = run(cam, w, 12)
    assert [o.appeared for o in first] == [["red-short_can", "white-square_bottle"]]
    assert not first[0].detail.get("reread")
    # asked again while the tray stays still: the very next frame is read, as the same drop
    w.reread()
    again = w.feed(cam.read())
    assert again is not None and again.detail["reread"] is True
    assert again.appeared == ["red-short_can", "white-square_bottle"] and again.detail["before"] == []
    # a drink that lands late (after the first reading) is in the reading again
    w.reread()
    cam.drop(["purple-stubby_can"])
    got = run(cam, w, 12)
    assert [o.appeared for o in got] == [["purple-stubby_can", "red-short_can", "white-square_bottle"]]
    assert got[0].detail["reread"] is True
    # nothing new in the tray since before the drop: said so, and put to a person
    cam.take_out(cam.in_tray())
    run(cam, w, 14)
    w.reread()
    empty = w.feed(cam.read())
    assert empty.appeared == [] and empty.detail["reread"] and "ask" in empty.detail and empty.confidence <= 0.5


def test_something_large_lying_still_is_read_in_the_end_and_asked_about(profile):
    cam = SimCamera(seed=4, touching=0.0)
    rng = np.random.default_rng(5)
    resting = [Placement("red-tall_can", -40.0, 10.0, 30.0)]
    w = TrayWatcher(profile, still_frames=2)
    for _ in range(3):
        w.feed(cam.renderer.render(resting, rng=rng)[0])
    hand = cam.renderer.render(resting + [Placement("blue-short_can", 30.0, -10.0, 80.0)], rng=rng,
                               hand=Hand(0.0, 20.0, 90.0))[0]
    states, got = [], None
    for _ in range(12):
        got = w.feed(hand.copy())
        states.append(w.status()["state"])
        if got:
            break
    assert "blocked" in states, states                     # it waited first, as for a passing hand
    assert got is not None and got.confidence <= 0.3 and got.detail["ask"]


class Replay(FrameSource):
    """A camera that gives frames as fast as it is read: ``before`` over and over until ``go``
    is set, then ``landing`` once each, then ``after`` over and over."""

    def __init__(self, before, landing, after):
        super().__init__("replay")
        self.before, self.landing, self.after = before, list(landing), after
        self.go = threading.Event()
        self._set("ok")

    def read(self):
        self.frames += 1
        if not self.go.is_set():
            return self.before[self.frames % len(self.before)]
        if self.landing:
            return self.landing.pop(0)
        return self.after[self.frames % len(self.after)]


class Gate(FrameSource):
    """A camera that gives a frame (its number, as a tiny image) each time the test opens the gate."""

    def __init__(self):
        super().__init__("gate")
        self.gate = threading.Semaphore(0)
        self.closed = False

    def read(self):
        if not self.gate.acquire(timeout=0.05) or self.closed:
            return None
        self.frames += 1
        return np.full((4, 4, 3), self.frames % 256, np.uint8)


def test_a_slow_reader_takes_the_newest_frame_and_skips_the_rest():
    source = Gate()
    reader = LatestFrame(source)
    try:
        for _ in range(5):
            source.gate.release()
        wait_for(lambda: reader.read == 5, "the camera's five frames")
        got = reader.take(timeout=PATIENCE)
        assert got.seq == 5 and int(got.image[0, 0, 0]) == 5     # the newest, not the oldest
        assert reader.skipped == 4 and reader.taken == 1
        assert reader.take(timeout=0.01) is None                # each frame is handed out once
        source.gate.release()
        assert reader.take(timeout=PATIENCE).seq == 6 and reader.skipped == 4
    finally:
        source.closed = True
        reader.close()


def test_a_busy_watcher_skips_frames_and_reads_the_newest_still_frame(profile):
    cam = SimCamera(seed=4, touching=0.0)
    before = [cam.read() for _ in range(3)]
    drinks = ["red-tall_can", "blue-stubby_can", "mint-tallest_bottle"]
    cam.drop(drinks)
    landing = []
    while cam.script:
        landing.append(cam.read())
    after = [cam.read() for _ in range(3)]
    source = Replay(before, landing, after)
    reader = LatestFrame(source, fps=200)                      # a camera far faster than the watcher
    w = TrayWatcher(profile, still_frames=4, still_s=0.2)
    taken, obs = [], None
    try:
        for turn in range(400):
            frame = reader.take(timeout=PATIENCE)
            taken.append(frame.seq)
            if turn == 5:
                source.go.set()                                # the drop lands now
            obs = w.feed(frame.image, at=frame.at)
            if obs is not None:
                break
            time.sleep(0.03)                                   # a busy machine: each turn takes long
        else:
            pytest.fail(f"no reading in 400 turns: {w.status()}")
    finally:
        reader.close()
    assert obs.appeared == sorted(drinks)
    # made from a frame of the settled tray (never one of the drop in motion), taken newest first
    assert any(frame.image is a for a in after)
    assert taken == sorted(set(taken)) and reader.skipped > 0 and max(b - a for a, b in zip(taken, taken[1:])) > 1
    timing = obs.detail["timing"]
    assert 0 <= timing["late_s"] <= timing["after_still_s"] < 60     # how late: measured, and bounded
    assert w.status()["timing"] == timing


def test_a_fault_of_the_reader_on_one_frame_skips_it_and_the_next_is_read(profile, monkeypatch):
    from companion.vision import tray

    cam = SimCamera(seed=9, touching=0.0)
    w = TrayWatcher(profile, still_frames=2)
    run(cam, w, 3)
    read = tray.identify_analysis
    faults = iter([IndexError("a fault in the reader")])

    def once_faulty(an, prof, *more):
        fault = next(faults, None)
        if fault is not None:
            raise fault
        return read(an, prof, *more)

    monkeypatch.setattr(tray, "identify_analysis", once_faulty)
    cam.drop(["white-square_bottle"])
    got = run(cam, w, 14)
    assert [o.appeared for o in got] == [["white-square_bottle"]]
    assert w.status()["skipped"] == 1
