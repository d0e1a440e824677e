"""The real `companion serve` in its own process, for tests that load it, kill it or restart it."""
from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]  # `companion` is imported from this checkout
START_BOUND = 60.0  # seconds for a server to answer its API: far above the ~1-2 s it takes on a busy machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`companion serve --data DATA` without camera or sensor board, on a free port; its stderr
    is kept beside DATA for the failure messages. Started when made; ready when made."""

    def __init__(self, data: Path, python: str = sys.executable):
        self.data = data
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.err_path = data.parent / f"serve-{self.port}.err"
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen(
            [python, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(data), "--camera", "none", "--serial", "none"],
            stdout=subprocess.DEVNULL, stderr=self.err, text=True, cwd=ROOT)
        try:
            self.wait_ready()
        except BaseException:
            self.stop()   # never leave a server behind that nobody will stop
            raise

    def wait_ready(self, bound: float = START_BOUND) -> None:
        """Poll GET /api/games until it answers 200."""
        deadline = time.monotonic() + bound
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"`companion serve` exited ({self.proc.returncode}) before its API "
                                     f"answered: {self.stderr()}")
            try:
                if httpx.get(self.url + "/api/games", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"`companion serve` did not answer GET /api/games within {bound:.0f} s: "
                                     f"{self.stderr()}")
            time.sleep(0.05)

    def stderr(self) -> str:
        if not self.err.closed:
            self.err.flush()
        return self.err_path.read_text()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing of the process's own runs."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.err.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        if not self.err.closed:
            self.err.close()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
