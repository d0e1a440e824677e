"""`companion serve` forked from a process that has imported it already: a server started in
a quarter of the CPU.

Why: the suite starts some seventy servers, and each spent about 1.6 s of CPU (and more of the
wall clock on a busy machine) importing FastAPI, NumPy, OpenCV, numba and the project before it
served a request (docs/performance.md, 2026-12-03). A helper process per test process imports
all that once; each server is a fork of it that runs `companion.cli.main(["serve", ...])` as
`python -m companion.cli serve ...` would: the same code, its own process, its own port, data,
environment, working folder and log, killed and restarted like any other (tests/server_support.py
uses it through `spawn`, which gives a Popen-like handle). The helper imports nothing of the
tests'; nothing the project reads at import time depends on the environment (only `os.environ`
at run time, which each fork is given anew).

TTC_SERVER_FORK=0 turns it off: every server is then `python -m companion.cli` of its own.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What `companion serve` imports before it serves (companion/cli.py's serve path).
PRELOAD = ("uvicorn", "companion.cli", "companion.table.store", "companion.server.app",
           "companion.server.live_protocol", "companion.server.slow_clients", "companion.sim.board_source",
           "companion.sim.camera", "companion.sim.crate_camera", "companion.sim.landing_camera",
           "companion.sim.table", "companion.table.access", "companion.server.reach")


def enabled() -> bool:
    return os.environ.get("TTC_SERVER_FORK", "1") != "0"


# --- in the helper process ------------------------------------------------------------------------

def _die_with_parent(sig: int = signal.SIGTERM) -> None:
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, sig)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _serve_in_child(request: dict) -> None:
    """In the fork: become `python -m companion.cli ARGV` with its own folder, environment and log."""
    code = 1
    try:
        _die_with_parent()           # the helper ends with the test process, and its servers with it
        os.chdir(request["cwd"])
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [sys.executable, "-m", "companion.cli", *request["argv"]]
        from companion import cli

        code = cli.main(request["argv"]) or 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _status(pid: int) -> int | None:
    """The exit code of a fork (as Popen.returncode: minus the signal that ended it), None while it runs."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return _ended.get(pid, -255)
    if done == 0:
        return None
    _ended[pid] = os.waitstatus_to_exitcode(status)
    return _ended[pid]


_ended: dict[int, int] = {}


def helper() -> None:
    """The helper's loop: one JSON request a line on stdin, one answer a line on stdout."""
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    answers = sys.stdout
    answers.write("ready\n")
    answers.flush()
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "start":
            answers.flush()          # nothing buffered to be written twice
            pid = os.fork()
            if pid == 0:
                _serve_in_child(request)
            answers.write(json.dumps({"pid": pid}) + "\n")
        elif request["op"] == "poll":
            answers.write(json.dumps({"code": _status(request["pid"])}) + "\n")
        answers.flush()


# --- in the test process --------------------------------------------------------------------------

class _Helper:
    """The helper of this test process, started when first needed; one request at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen | None = None

    def ask(self, request: dict) -> dict:
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests"),
                                                                                    os.environ.get("PYTHONPATH")]))}
                self.proc = subprocess.Popen([sys.executable, "-c", "import server_fork; server_fork.helper()"],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env,
                                             text=True, preexec_fn=_die_with_parent)
                if self.proc.stdout.readline().strip() != "ready":
                    raise RuntimeError(f"the server helper did not start (exit {self.proc.wait()})")
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError(f"the server helper ended (exit {self.proc.wait()})")
            return json.loads(answer)


_helper = _Helper()


class Forked:
    """A forked server, handled as a subprocess.Popen is (what tests/server_support.py uses of it)."""

    def __init__(self, argv: list[str], log: Path, cwd: Path):
        self.args = [sys.executable, "-m", "companion.cli", *argv]
        self.pid = _helper.ask({"op": "start", "argv": argv, "log": str(log), "cwd": str(cwd),
                                "env": dict(os.environ)})["pid"]
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = _helper.ask({"op": "poll", "pid": self.pid})["code"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(0.02)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


def spawn(argv: list[str], log: Path, cwd: Path):
    """`python -m companion.cli ARGV` with stdout and stderr appended to ``log``: a fork of the
    helper (or, with TTC_SERVER_FORK=0, a process of its own)."""
    if not enabled():
        with open(log, "ab") as out:
            return subprocess.Popen([sys.executable, "-m", "companion.cli", *argv], stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=subprocess.STDOUT, cwd=cwd, preexec_fn=_die_with_parent)
    return Forked(argv, log, cwd)
