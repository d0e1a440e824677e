"""The real `companion serve` in a process of its own: the one way the tests start it (the API
and CLI tests, the crash campaign, the browser tests).

A process of its own, not a thread of pytest: its work (TOKYO METRO's playouts, the simulated
camera) never waits for the test's Python under one GIL, on a busy machine least of all, and a
test can kill it as a power cut would. Its devices are chosen as a person would choose them: by
`companion serve`'s options (`--camera`, `--serial`).

Kept free of pytest and Playwright: benchmarks/crash_campaign.py runs it outside pytest.
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from server_fork import Forked, spawn
from waiting import PROCESS_PATIENCE

ROOT = Path(__file__).resolve().parents[1]  # `companion` is imported from this checkout
SIM_PROFILE = ROOT / "calibration" / "sim-profile.json"
PORT_TRIES = 5         # free ports tried when another process takes the chosen one first
REQUEST_BOUND = 60.0   # seconds a request may take: far above the slowest on a busy machine
STOP_BOUND = 30.0      # seconds to exit after a signal (a shutdown takes well under one)
# The line `companion serve` prints for the host (the trust model): the key in it, as a bearer,
# makes an API call a host's; as the cookie `ttc_host`, a page the host's.
HOST_LINE = re.compile(r"^\s*host:\s+\S*[?&]host=([A-Za-z0-9_-]+)\s*$", re.M)
# The base URL of every running server of this test process that printed a host key -> that key,
# the newest last: browser_support.call and the `browser` fixture (conftest.py) act as the host.
HOST_KEYS: dict[str, str] = {}
# The base URL of every running server of this test process -> it (for thread_dump).
RUNNING: dict[str, "Server"] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def authorization(key: str | None) -> dict[str, str]:
    """The header that carries ``key`` as the bearer; none without a key."""
    return {"Authorization": f"Bearer {key}"} if key else {}


class Server:
    """`companion serve --data DATA` on 127.0.0.1, started when made and ready when made (it
    listens on its port and its API answers); a context manager that stops it.

    ``port``: that one (else a free one, another if a process takes it first); ``camera`` and
    ``serial``: the serve options (`none`, `sim`, a file, a port); a camera other than the
    simulated one gets the simulated table's drink profile unless ``profile`` says; ``options``:
    more serve options. Its stdout and stderr go to a file beside DATA (a pipe nobody reads could
    fill up and stall it), which every failure message quotes."""

    def __init__(self, data: Path, port: int | None = None, *, camera: str = "none", serial: str = "none",
                 profile: str | Path | None = None, options: tuple[str, ...] = ()):
        self.data = Path(data)
        self.data.mkdir(parents=True, exist_ok=True)
        if profile is None and camera not in ("none", "sim") and not camera.startswith("sim:"):
            profile = SIM_PROFILE
        self.options = ["--camera", camera, "--serial", serial, *(["--profile", str(profile)] if profile else []),
                        *options]
        self.any_port = port is None  # may move to another port: only until it first runs (a restart keeps it)
        self.port = port or free_port()
        self.proc: subprocess.Popen | Forked | None = None
        self.host_key: str | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.data.parent / f"{self.data.name}-serve-{self.port}.log"

    def output(self) -> str:
        """All the server said on this port, restarts included (stdout and stderr)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def start(self) -> "Server":
        """Start it and wait until it is ready; called again, restart it (stopped first if it
        runs) on the same data, port and options: a page reconnects to the same URL."""
        self.stop()
        for _ in range(PORT_TRIES):
            command = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                       "--port", str(self.port), "--data", str(self.data), *self.options]
            # Forked from a helper that imported the server once (tests/server_fork.py); its log
            # appended: a restart's failure shows the run before.
            self.proc = spawn(command[3:], self.log_path, ROOT)
            try:
                if self._wait_ready(command):
                    HOST_KEYS.pop(self.url, None)  # re-registered as the newest
                    RUNNING[self.url] = self
                    if self.host_key:
                        HOST_KEYS[self.url] = self.host_key
                    self.any_port = False
                    return self
            except BaseException:
                self.stop()  # never leave a server behind that nobody will stop
                raise
            if not self.any_port:
                break
            self.port = free_port()  # another process took the free port first: try another one
        raise AssertionError(f"`companion serve` found port {self.port} taken ({' '.join(command)}):\n"
                             f"{self.output()[-3000:]}")

    def _wait_ready(self, command: list[str]) -> bool:
        """Wait until this process listens on the port (an answer there is then ours, not another
        process's that took the same free port) and GET /api/game-types answers 200; False when
        it exited because the port was taken."""
        deadline = time.monotonic() + PROCESS_PATIENCE
        while True:
            if self.proc.poll() is not None:
                if "address already in use" in self.output().lower():
                    return False
                raise AssertionError(f"`companion serve` exited with {self.proc.returncode} before it answered "
                                     f"({' '.join(command)}):\n{self.output()[-3000:]}")
            if _listens(self.proc.pid, self.port):
                found = HOST_LINE.findall(self.output())  # printed before it listens; the last: this run's
                self.host_key = found[-1] if found else None
                try:
                    if httpx.get(self.url + "/api/game-types", headers=self.headers(), timeout=10).status_code == 200:
                        return True
                except httpx.HTTPError:
                    pass
            if time.monotonic() > deadline:
                raise AssertionError(f"`companion serve` did not listen and answer GET {self.url}/api/game-types "
                                     f"within {PROCESS_PATIENCE:.0f} s ({' '.join(command)}):\n{self.output()[-3000:]}")
            time.sleep(0.05)

    def thread_dump(self, wait: float = 5.0) -> str:
        """Every thread's stack in the running server, as `kill -USR1` makes it write them to its
        log (companion/cli.py): for a failure message when the server seems to hang."""
        if self.proc is None or self.proc.poll() is not None:
            return "(the server is not running)"
        before = len(self.output())
        self.proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + wait
        last = None
        while time.monotonic() < deadline:
            said = self.output()[before:]
            # faulthandler writes the thread that took the signal last: once it is there and
            # the log has stopped growing, the dump is whole
            if "Current thread 0x" in said and said == last:
                return said
            last = said
            time.sleep(0.1)
        return self.output()[before:] or "(no thread dump came)"

    def headers(self) -> dict[str, str]:
        """The host's headers: its key as the bearer (none while serve prints no key)."""
        return authorization(self.host_key)

    def client(self, **options) -> httpx.Client:
        """An httpx client of this server's API, as the host, with a patient timeout (a busy
        machine may answer slowly; a dead server fails at once). Made again after a restart."""
        options.setdefault("timeout", REQUEST_BOUND)
        return httpx.Client(base_url=self.url, headers=self.headers(), **options)

    def kill(self) -> None:
        """SIGKILL, as a power cut: no shutdown, no flush."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        """SIGTERM (uvicorn shuts down and the devices stop), then SIGKILL if it does not exit."""
        self._end(signal.SIGTERM)

    def _end(self, sig: int) -> None:
        HOST_KEYS.pop(self.url, None)
        RUNNING.pop(self.url, None)
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(sig)
        try:
            self.proc.wait(STOP_BOUND)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(STOP_BOUND)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself holds a listening TCP socket on 127.0.0.1:``port``."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        lines = Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return False
    for line in lines:
        parts = line.split()
        local, state, inode = parts[1], parts[3], parts[9]
        if state == "0A" and int(local.split(":")[1], 16) == port and inode in inodes:
            return True
    return False


def thread_dump(url: str) -> str:
    """The thread dump (Server.thread_dump) of the running server at ``url``, if this process runs it."""
    server = RUNNING.get(url)
    return server.thread_dump() if server is not None else f"(no server of this test process at {url})"
