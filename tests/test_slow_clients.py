"""A client that sends its request very slowly is cut off instead of holding the service
(issue 25, request timeouts): the headers of a request must arrive whole in time
(server/slow_clients.py, uvicorn's own protocol extended), and so must each part of a body
(server/body_limit.py, 408). The real app behind the real uvicorn, on a port of its own."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
import uvicorn

from companion.server import slow_clients
from companion.server.app import create_app
from companion.server.body_limit import BodyLimit
from server_support import free_port
from waiting import wait_for


@pytest.fixture
def served(store, monkeypatch):
    """`create_app` under uvicorn with the companion's protocol, its header deadline made short."""
    monkeypatch.setattr(slow_clients, "HEADER_SECONDS", 0.5)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="warning",
                                           http=slow_clients.PatientH11, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, "uvicorn to start")
    yield port
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
    with socket.create_connection(("127.0.0.1", served)) as silent, \
            socket.create_connection(("127.0.0.1", served)) as slow:
        slow.sendall(b"GET /api/game-types HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        began = time.monotonic()
        assert closed_within(silent, 30) and closed_within(slow, 30)
        assert time.monotonic() - began < 20, "closed, but not by the header deadline"


def test_a_prompt_client_is_answered_and_kept_alive_as_before(served):
    with socket.create_connection(("127.0.0.1", served)) as sock:
        for _ in range(2):  # two requests on one connection, each well within the deadline
            sock.sendall(b"GET /api/game-types HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.settimeout(30)
            answer = sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            time.sleep(0.3)  # below the deadline, counted again from each answer


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
    asyncio.run(BodyLimit(app, patience=0.2)(scope, stalled, send))
    assert not reached
    assert sent[0]["status"] == 408 and b"stopped arriving" in sent[1]["body"]
