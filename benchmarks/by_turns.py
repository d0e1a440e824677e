"""Timing several readers on the same input by turns (benchmarks/board_drinks_speed.py,
board_frame_speed.py): each call once per round, ``repeats`` rounds, so that other load on the
machine falls on all alike; CPU time of this process, the median per call.

>>> medians = by_turns([lambda: sum(range(1000)), lambda: None], repeats=3)
>>> medians.shape, bool((medians >= 0).all())
((2,), True)
"""
from __future__ import annotations

import time

import numpy as np


def by_turns(calls, repeats: int) -> np.ndarray:
    """The median CPU seconds of each of ``calls`` (no arguments) over ``repeats`` rounds."""
    runs = np.zeros((len(calls), repeats))
    for r in range(repeats):
        for i, call in enumerate(calls):
            t0 = time.process_time()
            call()
            runs[i, r] = time.process_time() - t0
    return np.median(runs, axis=1)
