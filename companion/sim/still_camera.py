"""What the simulated board and crate cameras share: a ``FrameSource`` over a rendered scene
that a device thread reads while the table or a test changes the scene (one call at a time),
with a script of hand frames to show first, and a still scene drawn once and shown as a few
noisy copies in turn (a camera read at 4-10 frames a second then costs next to nothing).

A subclass sets ``renderer`` (with ``sensor(clean, rng)`` and ``exposure(rng)``), ``rng`` (where
things stand and hands reach) and ``frame_rng`` (each frame's noise and exposure: a stream of its
own, so that the scene after a change does not depend on how many frames were read before it),
and says how a script entry and the still scene are drawn (:meth:`StillSceneCamera._script_frame`,
:meth:`StillSceneCamera._still_frame`: the clean picture, before the sensor's noise).

``fresh_noise = True`` makes it a real camera's way: every frame of a still scene gets noise of
its own and none repeats (for the tests and benchmarks of table/frame_gate.py; a frame then
costs the sensor's noise, some tens of ms).
"""
from __future__ import annotations

import functools
import threading

import numpy as np

from ..vision.sources import FrameSource

STILL_COPIES = 3               # noisy copies of a still scene shown in turn


def locked(method):
    """The camera is read by its device thread while the table or a test changes its scene:
    one at a time."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)
    return run


class StillSceneCamera(FrameSource):
    def __init__(self, spec: str):
        super().__init__(spec)
        self._lock = threading.RLock()
        self.script: list = []                 # hand frames still to show
        self.resting_hand = None               # a hand that stays over the scene
        self._still: list[np.ndarray] = []
        self._clean: np.ndarray | None = None
        self.fresh_noise = False               # True: no copies, every frame noisy anew (a real camera)

    def _script_frame(self, entry) -> np.ndarray:
        """The clean picture of one script entry (a hand passing)."""
        raise NotImplementedError

    def _still_frame(self) -> np.ndarray:
        """The clean picture of the still scene."""
        raise NotImplementedError

    def _changed(self) -> None:
        self._clean, self._still = None, []

    @locked
    def lift_hand(self) -> None:
        self.resting_hand = None
        self._changed()

    @locked
    def read(self) -> np.ndarray:
        self.frames += 1
        if self.script:
            return self.renderer.sensor(self._script_frame(self.script.pop(0)), self.frame_rng)
        if self.fresh_noise:
            if self._clean is None:
                self._clean = self._still_frame()
            return self.renderer.sensor(self._clean, self.frame_rng)
        if len(self._still) < STILL_COPIES:
            if self._clean is None:
                self._clean = self._still_frame()
            self._still.append(self.renderer.sensor(self._clean, self.frame_rng))
            if len(self._still) == STILL_COPIES:
                self._clean = None                     # the copies are all that is needed now
            return self._still[-1].copy()
        return self._still[self.frames % STILL_COPIES].copy()
