"""The tray watcher: from a stream of frames, notice a drop (or a hand), wait until the tray is
still again, and report which drinks appeared and which were taken away.

It compares the drinks it reads in the new still tray with those of the last still tray.
Drinks that tumble in give ``appeared``; a hand that takes drinks out gives ``removed``
(and nothing appeared). A drink that was merely pushed keeps its identity. Frames that
cannot be read (too dark, overexposed, another size) are skipped and reported in
``status()``; they never raise.

A frame is read only when it is whole and still: a frame the camera delivered half drawn (a
band of rows without any texture or noise, or rows repeated, that the empty tray does not
have) is passed over, and the tray is still when ``still_frames`` frames in a row (or, with
``still_s``, three frames over that many seconds) differ neither from the frame before nor
from the first of them (a drink that creeps a little each frame moves by the first's measure).
The watcher is fed whatever frame is newest (``vision.sources.LatestFrame``): on a busy machine
it sees fewer frames, never older ones. Each reading says how late it is (``timing``).
"""
from __future__ import annotations

import json
import logging
import time

import cv2
import numpy as np

from ..observation import MAX_DETAIL_BYTES, Observation
from .drinks import DEFAULT_SCORER, identify_analysis, scorer_hook
from .segment import FrameError, analyse
from .profile import Profile, ProfileError
from .taught import measured_look

log = logging.getLogger("companion.vision")

MOTION_GRID = (160, 90)
MOTION_LEVEL = 10.0        # grey levels (of 255, after normalising the brightness) that count as change
MOTION_FRACTION = 0.0015   # share of the grid that must change to call the frame "moving"
SAME_PLACE_PX = 25.0       # a drink read at the same spot before and after is the same drink
FLAT_ROW = 0.75            # a row whose every channel varies less than this (std, levels) has no texture
PARTIAL_ROWS = 2           # that many sampled rows (8 px apart) in a row, flat or repeated: a partial frame
BLOCKED_READS = 3          # a still tray read as blocked (a hand?) this many times in a row is read as it is
PARTIAL_SAY = 10           # this many half-drawn frames in a row: the camera's trouble is shown
DETAIL_ROOM = 2048         # bytes of an observation's detail left for what the devices add (first reading, timing)


class TrayWatcher:
    def __init__(self, profile: Profile, still_frames: int = 4, still_s: float | None = None,
                 scorer: str = DEFAULT_SCORER):
        """``still_frames``: frames in a row the tray must stay still before it is read;
        ``still_s``: or three frames spanning at least this many seconds (frames come slowly on
        a busy machine, and waiting for ``still_frames`` of them would make the reading late);
        ``scorer``: how the pieces are named (``drinks.SCORERS``)."""
        if not isinstance(profile, Profile):
            raise ProfileError("TrayWatcher needs a drink profile (companion.vision.profile.Profile)")
        self.profile = profile
        self._hook = scorer_hook(scorer)
        self.still_frames = max(1, int(still_frames))
        self.still_s = still_s
        self._prev_small: np.ndarray | None = None
        self._anchor: np.ndarray | None = None      # the first frame of the current still run
        self._anchor_at = 0.0
        self._still = 0
        self._changed = True            # nothing settled yet: the first still tray is the baseline
        self._baseline: list[dict] | None = None
        self._prior: list[dict] | None = None       # the tray before the last report of drinks that appeared
        self._rereading = False
        self._moved_since_ask = False
        self._blocked = 0
        self._last: list[dict] = []
        self._message: str | None = None
        self._state = "waiting"
        self._bg_flat: np.ndarray | None = None
        self.frames = 0
        self.skipped = 0
        self.partial = 0
        self._partial_run = 0
        self.observations = 0
        self._last_time: float | None = None
        self._timing: dict | None = None

    # --- public ---------------------------------------------------------------------------

    def feed(self, frame, at: float | None = None) -> Observation | None:
        """Look at the next frame; ``at``: when the camera gave it (``time.monotonic()``; now when
        not given). An Observation when a still tray shows a change, else None."""
        self.frames += 1
        if frame is None:
            return None
        at = time.monotonic() if at is None else float(at)
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
        if self._partial(frame):
            # Half drawn (a stream that lost part of a frame, a camera that hands over its buffer
            # early): never read, never the measure of motion; the tray must be still again after it.
            self.partial += 1
            self._partial_run += 1
            if self._partial_run >= PARTIAL_SAY:  # not a passing glitch: say so, as for a dark frame
                return self._skip(f"the camera delivers frames with parts missing ({self._partial_run} in a row): "
                                  "a weak stream or a loose cable?")
            self._still = 0
            return None
        self._partial_run = 0
        norm = gray * (128.0 / max(level, 1.0))
        moving = True
        if self._prev_small is not None:
            moving = _moved(norm, self._prev_small) or (self._anchor is not None and _moved(norm, self._anchor))
        self._prev_small = norm
        if moving:
            self._still = 0
            self._anchor, self._anchor_at = norm, at
            self._changed = True
            self._moved_since_ask = True
            self._blocked = 0
            self._state = "moving"
            return None
        self._still += 1
        if not self._changed or not self._settled(at):
            self._state = "still" if not self._changed else "settling"
            return None
        # the tray has been still for long enough after a change: read it
        try:
            an = analyse(frame, self.profile)
            dets = identify_analysis(an, self.profile, self._hook)
        except FrameError as exc:
            return self._skip(str(exc))
        except Exception as exc:  # a fault of the reader on this frame: the next still frame is tried
            log.exception("tray watcher: reading a frame failed")
            return self._skip(f"a frame could not be read ({type(exc).__name__}: {exc}); trying the next one")
        big = self.profile.stats.get("max_area", 1e9) * 2.5
        blocked = any(d["_f"]["area"] > big and d["unsure"] for d in dets)
        if blocked and self._blocked + 1 < BLOCKED_READS:
            self._blocked += 1
            self._message = "something that is not a drink is in the tray (a hand?); waiting until it is gone"
            self._state = "blocked"
            self._still = 0
            return None
        # A large blob that stays still through several readings is no passing hand: it is read
        # as it is (unsure), so that a person is asked rather than the drop never being read.
        dets = [_public(d) for d in dets]
        done = time.monotonic()
        self._timing = {"late_s": round(done - at, 3), "after_still_s": round(done - self._anchor_at, 3)}
        self._changed = False
        self._blocked = 0
        self._message = None
        self._last = dets
        self._last_time = time.time()
        self._state = "still"
        if self._baseline is None and not self._rereading:
            self._baseline = dets
            log.info("tray watcher: the tray holds %d drink(s) at start", len(dets))
            return None
        before = self._baseline if self._baseline is not None else []
        obs = self._compare(before, dets, blocked=blocked)
        if self._rereading:
            self._rereading = False
            obs = obs or Observation(source="camera", kind="tray", confidence=0.5, detail={
                "detections": _with_looks(dets), "before": [d["id"] for d in before], "unsure": [],
                "notes": ["read again: no drink in the tray that was not there before the drop"],
                "ask": "read again, the tray shows no drink that was not there before the drop: "
                       "was it emptied, or did nothing come out?"})
            obs.detail["reread"] = True
        elif obs is not None and obs.appeared:
            self._prior = before     # what a reading again compares with
        self._baseline = dets
        if obs is not None:
            obs.detail["timing"] = dict(self._timing)
            self.observations += 1
        return obs

    def reread(self) -> None:
        """Read the tray again at the next still, whole frame (at once when the tray has stayed
        still since), as the last drop: compared with the tray before it, and reported even when
        nothing is new (``detail.reread``). Asked when a reading disagrees with the beams, or by
        a person who set a question aside."""
        # No report since the watcher started (a restart after the drop): everything in the tray.
        self._baseline = self._prior if self._prior is not None else []
        self._changed = True
        self._rereading = True
        self._moved_since_ask = False

    def status(self) -> dict:
        return {"state": self._state, "message": self._message, "frames": self.frames, "skipped": self.skipped,
                "partial": self.partial, "observations": self.observations, "in_tray": [d["id"] for d in self._last],
                "last_read": self._last_time, "timing": dict(self._timing) if self._timing else None}

    def last_detections(self) -> list[dict]:
        return [dict(d) for d in self._last]

    def reset(self) -> None:
        """Forget the tray's contents: the next still tray is the new baseline."""
        self._baseline = None
        self._prior = None
        self._changed = True
        self._still = 0

    # --- inside ---------------------------------------------------------------------------

    def _settled(self, at: float) -> bool:
        """Whether the tray has been still long enough to be read: ``still_frames`` frames, or
        three frames over ``still_s`` seconds; one frame when a reading again was asked and the
        tray has not moved since."""
        if self._rereading and not self._moved_since_ask:
            return self._still >= 1
        if self._still >= self.still_frames:
            return True
        return self.still_s is not None and self._still >= 2 and at - self._anchor_at >= self.still_s

    def _partial(self, frame: np.ndarray) -> bool:
        """Whether the frame was delivered half drawn: rows (every 8th, every 4th pixel) without
        any texture or noise, or repeating the row above, over PARTIAL_ROWS sampled rows in a
        row, where the empty tray has texture (a black border the camera always shows is no
        sign). A sensor's noise alone gives every real row some spread."""
        rows = frame[::8, ::4]
        flat = rows.std(axis=1).max(axis=1) < FLAT_ROW
        flat[1:] |= np.all(rows[1:] == rows[:-1], axis=(1, 2))
        if self._bg_flat is None or len(self._bg_flat) != len(flat):
            bg = self.profile.background
            if bg is None:
                self._bg_flat = np.zeros(len(flat), bool)
            else:
                full = cv2.resize(bg, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_LINEAR)
                self._bg_flat = full[::8, ::4].std(axis=1).max(axis=1) < FLAT_ROW
        bad = flat & ~self._bg_flat
        run = 0
        for b in bad:
            run = run + 1 if b else 0
            if run >= PARTIAL_ROWS:
                return True
        return False

    def _skip(self, message: str) -> None:
        self.skipped += 1
        self._still = 0
        if message != self._message:
            log.warning("tray watcher: %s", message)
        self._message = message
        self._state = "bad_frame"
        return None

    def _compare(self, before: list[dict], after: list[dict], blocked: bool = False) -> Observation | None:
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
        ask = None
        if blocked:
            conf = min(conf, 0.3)
            ask = "something larger than a drink lay still in the tray: check what came out"
            notes.append("something larger than a drink stayed in the tray: read as it is")
        # Which readings are new in this tray (a second reading of one drink included), for the
        # table to weigh each of them (table/reconcile.py).
        fresh = {id(d) for d in appeared} | {id(d) for d in dup if not any(
            b["id"] == d["id"] and math_dist(b, d) < SAME_PLACE_PX for b in before)}
        after = _with_looks([{**d, "new": id(d) in fresh} for d in after])
        detail = {"detections": after, "before": [d["id"] for d in before],
                  "unsure": [d["id"] for d in involved if d["unsure"]], "notes": notes}
        if ask:
            detail["ask"] = ask   # a doubt of the whole reading: the table asks a person
        return Observation(source="camera", kind="tray", appeared=ids_a, removed=ids_r,
                           confidence=round(float(conf), 3), detail=detail)


def _moved(norm: np.ndarray, other: np.ndarray) -> bool:
    """Whether two brightness-normalised motion grids differ by more than the camera's flicker."""
    return float(np.mean(np.abs(norm - other) > MOTION_LEVEL)) > MOTION_FRACTION


def math_dist(a: dict, b: dict) -> float:
    return float(np.hypot(a["x"] - b["x"], a["y"] - b["y"]))


def _with_looks(detections: list[dict]) -> list[dict]:
    """The readings with the looks of the new ones alone (only a reading of this drop can be
    corrected), and with none when they would make the detail more than an observation keeps
    (``MAX_DETAIL_BYTES``: a drop of a dozen drinks keeps them with room to spare; 36 new
    drinks with long reasons keep their readings without their looks)."""
    out = [d if d.get("new") else {k: v for k, v in d.items() if k != "look"} for d in detections]
    if len(json.dumps(out)) > MAX_DETAIL_BYTES - DETAIL_ROOM:
        out = [{k: v for k, v in d.items() if k != "look"} for d in out]
    return out


def _public(d: dict) -> dict:
    out = {"id": f"{d['color']}-{d['shape']}", "color": d["color"], "shape": d["shape"], "x": d["x"], "y": d["y"],
           "confidence": d["confidence"], "unsure": d["unsure"], "why": d.get("_why", "")}
    # What the piece measured, for the table to teach the camera with when a person says what
    # the drink really was (vision/taught.py); not for a fitted outline, whose features are those
    # of the piece it replaced, not of the drink.
    if d.get("_f") and not d.get("_fitted"):
        out["look"] = measured_look(d["_f"])
    return out
