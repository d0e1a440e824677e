"""The tray watcher on the simulated camera and on a video file standing in for a USB camera:
drops give `appeared`, a hand gives `removed`, bad frames and a vanishing camera never crash."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observation import Observation
from companion.sim.camera import SimCamera
from companion.vision.profile import Profile, ProfileError
from companion.vision.sources import FrameSource, open_source
from companion.vision.tray import TrayWatcher
from waiting import wait_for

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
    sim = open_source("sim")
    assert sim.read().shape == (720, 1280, 3) and sim.status()["state"] == "ok"


def test_a_usb_index_that_does_not_exist_reports_lost():
    src = open_source("97")
    try:
        wait_for(lambda: src.status()["state"] != "opening", "the first attempt to open camera 97")
        assert src.read() is None
        st = src.status()
        assert st["state"] == "lost" and "not available" in st["error"]
    finally:
        src.close()
