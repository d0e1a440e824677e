"""A client that sends its request very slowly is cut off instead of holding the service
(issue 25, request timeouts): the headers of a request must arrive whole in time
(server/slow_clients.py, uvicorn's own protocol extended), and so must each part of a body
(server/body_limit.py, 408). The real app behind the real uvicorn, on a port of its own."""
from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import uvicorn
from api_support import link_tokens
from websockets.sync.client import connect

from companion.server import slow_clients
from companion.server.app import create_app
from companion.sim.table import SIM_TABLE
from companion.server.body_limit import BodyLimit
from companion.table.access import Access
from server_support import free_port
from waiting import wait_for


@pytest.fixture
def served(store, monkeypatch):
    """`create_app` under uvicorn with the companion's protocol, its header deadline made short."""
    monkeypatch.setattr(slow_clients, "HEADER_SECONDS", 0.5)
    port = free_port()
    app = create_app(store, automation=SIM_TABLE)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           http=slow_clients.PatientH11, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, "uvicorn to start")
    yield port, Access(store).host_key()
    server.should_exit = True
    thread.join(30)


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` (a read gives no bytes) within ``seconds``."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except (TimeoutError, socket.timeout):
        return False
    except ConnectionResetError:
        return True


def test_a_connection_whose_headers_trickle_is_closed(served):
    port, _ = served
    with socket.create_connection(("127.0.0.1", port)) as silent, \
            socket.create_connection(("127.0.0.1", port)) as slow:
        slow.sendall(b"GET /api/game-types HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        began = time.monotonic()
        assert closed_within(silent, 30) and closed_within(slow, 30)
        assert time.monotonic() - began < 20, "closed, but not by the header deadline"


def test_a_prompt_client_is_answered_and_kept_alive_as_before(served):
    port, _ = served
    with socket.create_connection(("127.0.0.1", port)) as sock:
        for _ in range(2):  # two requests on one connection, each well within the deadline
            sock.sendall(b"GET /api/game-types HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.settimeout(30)
            answer = sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            time.sleep(0.3)  # below the deadline, counted again from each answer


def test_a_live_view_outlives_the_header_deadline(served):
    """A WebSocket is a connection whose one request was answered by an upgrade: no header
    deadline may close it (it did, 20 s after every page opened its live view)."""
    port, host_key = served
    api = httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {host_key}"}, timeout=30)
    created = api.post("/api/games", json={"seed": 3}).json()
    gid, key = created["id"], link_tokens(created)[0]
    with connect(f"ws://127.0.0.1:{port}/api/games/{gid}/ws",
                 additional_headers={"Authorization": f"Bearer {key}"}, open_timeout=30) as ws:
        first = json.loads(ws.recv(timeout=30))
        time.sleep(3 * slow_clients.HEADER_SECONDS)
        move = api.get(f"/api/games/{gid}/view").json()["moves"][0]["move"]
        assert api.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200
        assert json.loads(ws.recv(timeout=30))["seq"] > first["seq"], "the live view saw no push"
    api.close()


def test_a_body_that_stops_arriving_is_answered_408():
    reached = []

    async def app(scope, receive, send):  # what the body would have reached
        reached.append(scope)

    sent = []

    async def stalled() -> dict:
        await asyncio.sleep(3600)
        return {}

    async def send(message) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": [(b"content-length", b"100")]}
    # A thread of its own: a browser test on this worker may have left Playwright's event loop
    # running in the main thread, where asyncio.run() refuses to start another.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, BodyLimit(app, patience=0.2)(scope, stalled, send)).result()
    assert not reached
    assert sent[0]["status"] == 408 and b"stopped arriving" in sent[1]["body"]
