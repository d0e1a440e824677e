"""The analysis's frame-sized temporaries are reused from frame to frame (vision/heap.py),
not faulted in afresh: the page faults were a third of segmentation's time."""
from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

# A frame's worth of temporaries at the working scale (640x360 float32 BGR), as analyse
# makes them, freed all together at the frame's end; then the page faults of five more frames.
FRAMES = """
import resource, sys
import numpy as np
from companion.vision.heap import keep_freed_buffers
if sys.argv[1] == "keep":
    assert keep_freed_buffers()
def frame():
    temporaries = [np.ones((360, 640, 3), np.float32) for _ in range(8)]
    return sum(float(t[0, 0, 0]) for t in temporaries)
frame()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    frame()
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 5)
"""


def faults_per_frame(mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", FRAMES, mode], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    return float(out.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the C library is not glibc: nothing to tune")
def test_a_frames_temporaries_are_reused_not_faulted_in_again():
    # by default glibc gives the freed 22 MB back, and each frame faults ~5,400 pages in again
    assert faults_per_frame("default") > 3000
    assert faults_per_frame("keep") < 100

