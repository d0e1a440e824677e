"""Heavy work off the request threads: a few workers, a short queue, and a busy answer beyond.

An estimate of the final yen plays a few hundred games (1-2 s of CPU). Run in FastAPI's thread
pool and queued behind one lock, forty of them at once held every thread of the pool, and every
other request (views, moves, the game list) waited behind them for over a minute. Here such work
runs on its own small pool: at most ``workers`` jobs run and ``waiting`` more wait; a request
beyond that is turned away at once with :class:`Busy` (the app answers 429 with Retry-After),
and the request itself holds no thread while its job waits or runs (an ``async`` endpoint awaits
the job's future). The same question asked while it is being answered shares that answer.

On the table's 2-core machine one worker is right: the work is pure Python, so a second one
would only share the one interpreter lock, and the API's own threads need it too.
"""
from __future__ import annotations

import asyncio
import math
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Hashable

ESTIMATE_WORKERS = 1   # estimates computed at once
ESTIMATE_WAITING = 2   # estimates waiting for a worker; one more is answered 429


class Busy(Exception):
    """No room for more heavy work now; ask again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int, what: str, running: int, waiting: int):
        super().__init__(f"the companion is busy with {running} {what} and {waiting} more waiting "
                         f"(at most {running + waiting} at a time); ask again in {retry_after} s")
        self.retry_after = retry_after


class BoundedWork:
    """A small pool for heavy jobs with a bound on the jobs running and waiting."""

    def __init__(self, what: str, workers: int, waiting: int, typical_seconds: float = 1.5):
        self.what, self.workers, self.limit = what, workers, workers + waiting
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=what.replace(" ", "-"))
        self._jobs: dict[Hashable, Future] = {}
        self._lock = threading.Lock()
        self._seconds = typical_seconds  # a running mean of a job's duration, for Retry-After

    @property
    def in_flight(self) -> int:
        with self._lock:
            return len(self._jobs)

    def submit(self, key: Hashable, fn: Callable[[], Any]) -> Future:
        """The future of ``fn()``, started when a worker is free; the future of the same ``key``
        if that question is being answered already; Busy when the pool is full."""
        with self._lock:
            if key in self._jobs:
                return self._jobs[key]
            if len(self._jobs) >= self.limit:
                retry = max(1, math.ceil(self._seconds * len(self._jobs) / self.workers))
                raise Busy(retry, self.what, min(self.workers, len(self._jobs)),
                           max(0, len(self._jobs) - self.workers))
            future = self._pool.submit(self._timed, fn)
            self._jobs[key] = future
        future.add_done_callback(lambda _f: self._forget(key))
        return future

    async def run(self, key: Hashable, fn: Callable[[], Any]) -> Any:
        """``submit`` and await the answer without holding a thread meanwhile."""
        return await asyncio.wrap_future(self.submit(key, fn))

    def _timed(self, fn: Callable[[], Any]) -> Any:
        began = time.monotonic()
        try:
            return fn()
        finally:
            self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - began)

    def _forget(self, key: Hashable) -> None:
        with self._lock:
            self._jobs.pop(key, None)

    def close(self) -> None:
        """Stop taking work; jobs not started are dropped, a running one finishes."""
        self._pool.shutdown(wait=False, cancel_futures=True)
