"""What the browser tests share: the real app served by uvicorn in a thread on a free port,
Debian's Chromium driven by Playwright, and a small JSON client for setting up games."""
from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import sync_playwright

from companion.server.app import create_app
from companion.table.store import EventStore

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps dialling out of this closed network.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(data_dir: Path, port: int | None = None, **devices) -> tuple[uvicorn.Server, threading.Thread, str]:
    """The real app on ``data_dir`` (``devices``: create_app's camera/serial), started and ready."""
    app = create_app(EventStore(data_dir), **devices)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port or free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{server.config.port}"


def stop_server(server: uvicorn.Server, thread: threading.Thread) -> None:
    server.should_exit = True
    thread.join(15)


@contextmanager
def served(data_dir: Path, **devices):
    server, thread, url = start_server(data_dir, **devices)
    try:
        yield url
    finally:
        stop_server(server, thread)


@contextmanager
def chromium():
    """Debian's Chromium; never skipped: the tests fail plainly when it is missing."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium (or: apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def call(base: str, method: str, path: str, body: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())

def pick_testid(view: dict) -> str:
    """A reasonable move among the legal ones, as the testid of its button."""
    moves = view["moves"]
    kind = moves[0]["move"]["kind"]
    if kind == "draw":
        return "move-draw-colour"
    if kind == "pick":
        return f"move-pick-{moves[0]['move']['args']['drink']}"
    if kind == "invest":
        return "move-invest-200"
    if kind == "declare":
        best = max(moves, key=lambda m: m["pays_up_to"])
        return f"move-declare-{best['move']['args']['kind']}"
    raise AssertionError(f"unexpected move kind {kind}")
