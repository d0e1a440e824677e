"""Waiting for an event, not for a length of time.

``wait_for(condition, what, timeout)`` polls ``condition`` until it is true and returns its
value. The timeout is only a backstop against a hang: it is far above what the event takes
even on a busy two-core machine (the defaults: a minute), so reaching it means the event did
not happen, and the failure says which event that was. Nothing here sleeps for a fixed time
and then looks whether something (did not) happen: a test that must show that nothing more
arrives waits for a barrier that proves everything before it was processed (see
test_sensors_link.py and test_firmware_simavr.py).
"""
from __future__ import annotations

import time
from typing import Callable, TypeVar

T = TypeVar("T")

PATIENCE = 60.0  # seconds: the backstop for anything in-process (threads, ptys, simavr)
PROCESS_PATIENCE = 120.0  # seconds: the backstop for anything that starts a Python process


def wait_for(condition: Callable[[], T], what: str, timeout: float = PATIENCE, step: float = 0.01) -> T:
    """Poll ``condition()`` until it returns something true and return that; after ``timeout``
    seconds raise an AssertionError that names ``what`` was waited for."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}; it did not happen")
        time.sleep(step)
