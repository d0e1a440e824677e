"""The tray watcher: from a stream of frames, notice a drop (or a hand), wait until the tray is
still again, and report which drinks appeared and which were taken away.

It compares the drinks it reads in the new still tray with those of the last still tray.
Drinks that tumble in give ``appeared``; a hand that takes drinks out gives ``removed``
(and nothing appeared). A drink that was merely pushed keeps its identity. Frames that
cannot be read (too dark, overexposed, another size) are skipped and reported in
``status()``; they never raise.
"""
from __future__ import annotations

import logging
import time

import cv2
import numpy as np

from ..observation import Observation
from .drinks import identify_analysis
from .segment import FrameError, analyse
from .profile import Profile, ProfileError

log = logging.getLogger("companion.vision")

MOTION_GRID = (160, 90)
MOTION_LEVEL = 10.0        # grey levels (of 255, after normalising the brightness) that count as change
MOTION_FRACTION = 0.0015   # share of the grid that must change to call the frame "moving"
SAME_PLACE_PX = 25.0       # a drink read at the same spot before and after is the same drink


class TrayWatcher:
    def __init__(self, profile: Profile, still_frames: int = 4):
        if not isinstance(profile, Profile):
            raise ProfileError("TrayWatcher needs a drink profile (companion.vision.profile.Profile)")
        self.profile = profile
        self.still_frames = max(1, int(still_frames))
        self._prev_small: np.ndarray | None = None
        self._still = 0
        self._changed = True            # nothing settled yet: the first still tray is the baseline
        self._baseline: list[dict] | None = None
        self._last: list[dict] = []
        self._message: str | None = None
        self._state = "waiting"
        self.frames = 0
        self.skipped = 0
        self.observations = 0
        self._last_time: float | None = None

    # --- public ---------------------------------------------------------------------------

    def feed(self, frame) -> Observation | None:
        self.frames += 1
        if frame is None:
            return None
        w, h = self.profile.image_size
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            return self._skip("the camera delivered something that is not a colour frame")
        if frame.shape[1] != w or frame.shape[0] != h:
            return self._skip(f"the frame is {frame.shape[1]}x{frame.shape[0]}, the profile expects {w}x{h}; "
                              "set the camera to that size or calibrate again")
        small = cv2.resize(frame, MOTION_GRID, interpolation=cv2.INTER_AREA)
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        level = float(gray.mean())
        if level < 12:
            return self._skip(f"the frame is too dark to read (mean level {level:.0f} of 255)")
        if float(np.mean(gray >= 250)) > 0.5:
            return self._skip("the frame is overexposed")
        norm = gray * (128.0 / max(level, 1.0))
        moving = True
        if self._prev_small is not None:
            d = np.abs(norm - self._prev_small)
            moving = float(np.mean(d > MOTION_LEVEL)) > MOTION_FRACTION
        self._prev_small = norm
        if moving:
            self._still = 0
            self._changed = True
            self._state = "moving"
            return None
        self._still += 1
        if self._still < self.still_frames or not self._changed:
            self._state = "still" if not self._changed else "settling"
            return None
        # the tray has been still for long enough after a change: read it
        try:
            an = analyse(frame, self.profile)
        except FrameError as exc:
            return self._skip(str(exc))
        dets = identify_analysis(an, self.profile)
        big = self.profile.stats.get("max_area", 1e9) * 2.5
        if any(d["_f"]["area"] > big and d["unsure"] for d in dets):
            self._message = "something that is not a drink is in the tray (a hand?); waiting until it is gone"
            self._state = "blocked"
            self._still = 0
            return None
        dets = [_public(d) for d in dets]
        self._changed = False
        self._message = None
        self._last = dets
        self._last_time = time.time()
        self._state = "still"
        if self._baseline is None:
            self._baseline = dets
            log.info("tray watcher: the tray holds %d drink(s) at start", len(dets))
            return None
        obs = self._compare(self._baseline, dets)
        self._baseline = dets
        if obs is not None:
            self.observations += 1
        return obs

    def status(self) -> dict:
        return {"state": self._state, "message": self._message, "frames": self.frames, "skipped": self.skipped,
                "observations": self.observations, "in_tray": [d["id"] for d in self._last],
                "last_read": self._last_time}

    def last_detections(self) -> list[dict]:
        return [dict(d) for d in self._last]

    def reset(self) -> None:
        """Forget the tray's contents: the next still tray is the new baseline."""
        self._baseline = None
        self._changed = True
        self._still = 0

    # --- inside ---------------------------------------------------------------------------

    def _skip(self, message: str) -> None:
        self.skipped += 1
        self._still = 0
        if message != self._message:
            log.warning("tray watcher: %s", message)
        self._message = message
        self._state = "bad_frame"
        return None

    def _compare(self, before: list[dict], after: list[dict]) -> Observation | None:
        b_ids = {d["id"] for d in before}
        a_ids = {d["id"] for d in after}
        appeared = [d for d in after if d["id"] not in b_ids]
        removed = [d for d in before if d["id"] not in a_ids]
        notes = []
        # the same drink read differently at the same place is not a change
        for a in list(appeared):
            twin = next((r for r in removed if math_dist(a, r) < SAME_PLACE_PX), None)
            if twin is not None:
                appeared.remove(a)
                removed.remove(twin)
                notes.append(f"{twin['id']} at ({a['x']:.0f}, {a['y']:.0f}) now reads as {a['id']}")
        # one drink can be in the tray only once: two readings of one id leave one unsure
        seen, dup = set(), []
        for d in sorted(after, key=lambda d: -d["confidence"]):
            if d["id"] in seen:
                dup.append(d)
            seen.add(d["id"])
        if not appeared and not removed and not dup:
            return None
        ids_a = sorted({d["id"] for d in appeared})
        ids_r = sorted({d["id"] for d in removed})
        involved = appeared + removed
        conf = min([d["confidence"] for d in involved] + [1.0])
        if any(d["unsure"] for d in involved):
            conf = min(conf, 0.5)
        if dup:
            conf = min(conf, 0.4)
            notes.append("read twice: " + ", ".join(d["id"] for d in dup))
        detail = {"detections": after, "before": [d["id"] for d in before],
                  "unsure": [d["id"] for d in involved if d["unsure"]], "notes": notes}
        return Observation(source="camera", kind="tray", appeared=ids_a, removed=ids_r,
                           confidence=round(float(conf), 3), detail=detail)


def math_dist(a: dict, b: dict) -> float:
    return float(np.hypot(a["x"] - b["x"], a["y"] - b["y"]))


def _public(d: dict) -> dict:
    return {"id": f"{d['color']}-{d['shape']}", "color": d["color"], "shape": d["shape"], "x": d["x"], "y": d["y"],
            "confidence": d["confidence"], "unsure": d["unsure"], "why": d.get("_why", "")}
