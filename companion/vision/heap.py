"""Keeping freed frame-sized buffers for the next frame.

Each frame the analysis makes a few dozen temporary arrays of 1 to 3 MB. glibc's malloc
serves blocks that large with fresh mmap pages, or gives the freed top of its heap back to
the system, so every frame paid again for the kernel faulting in zeroed pages: about a third
of segment.analyse's time (docs/performance.md). Raising two of its thresholds keeps such
blocks in the heap and reuses them. The cost is memory held, at most TRIM_ABOVE beyond what
the process uses. Where the C library is not glibc (macOS, musl, Windows) nothing changes.
"""
from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD = -1   # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_ABOVE = 32 * 2**20   # blocks up to this size come from the heap (glibc's own ceiling on 64-bit)
TRIM_ABOVE = 64 * 2**20   # free memory at the heap's top kept for reuse, up to this much

_kept = False


def keep_freed_buffers() -> bool:
    """Ask the C library to keep freed large blocks for reuse; True when it agreed (glibc).
    Safe to call again: once agreed, it is not asked twice."""
    global _kept
    if _kept:
        return True
    try:
        mallopt = ctypes.CDLL(None).mallopt      # the C library the process already uses
    except (OSError, TypeError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    _kept = mallopt(M_MMAP_THRESHOLD, MMAP_ABOVE) == 1 and mallopt(M_TRIM_THRESHOLD, TRIM_ABOVE) == 1
    return _kept
