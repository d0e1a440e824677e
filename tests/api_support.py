"""The real app in-process (FastAPI's TestClient over a real SQLite store), as the host's script.

The client carries the host key as ``Authorization: Bearer`` (what a script at the table uses);
``seat(token)`` is the header of a player's key, ``NOBODY`` a request with no key at all.
"""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from fastapi.testclient import TestClient

from companion.server.app import create_app
from companion.sim.camera import open_camera
from companion.sim.table import SIM_TABLE
from companion.table.access import Access
from companion.table.store import EventStore

BASE = "http://127.0.0.1:8000"   # an address: the host names the service answers to (server/guard.py)
NOBODY = {"Authorization": ""}   # no key: a stranger on the Wi-Fi


def table_client(store: EventStore, raise_server_exceptions: bool = True, **options) -> TestClient:
    """A TestClient of ``create_app(store, **options)`` acting as the host (use it in ``with``);
    ``raise_server_exceptions=False`` to see a 500 as the client would. The simulated table is
    wired in as `companion serve` wires it (its computer players, chance, tower and camera)."""
    # TestClient's WebSockets always name the host "testserver": the app is told it is one of its names.
    options.setdefault("names", ("testserver",))
    options.setdefault("automation", SIM_TABLE)
    options.setdefault("open_camera", open_camera)
    return TestClient(create_app(store, **options), base_url=BASE, raise_server_exceptions=raise_server_exceptions,
                      headers={"Authorization": f"Bearer {Access(store).host_key()}"})


def seat(token: str) -> dict:
    """Headers of a request made with a player's key (the token of their join link)."""
    return {"Authorization": f"Bearer {token}"}


def link_tokens(created: dict) -> list[str]:
    """The seat keys in the join links of a ``POST /api/games`` answer, by seat."""
    return [parse_qs(urlparse(p["url"]).query)["token"][0] for p in created["players"]]


def start_game(client: TestClient, **body) -> tuple[str, list[str]]:
    """``POST /api/games`` (the host); the game's id and its seats' keys."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], link_tokens(r.json())


def view_of(client: TestClient, gid: str, token: str | None = None) -> dict:
    """The table view (the host's), or a player's with their seat key."""
    r = client.get(f"/api/games/{gid}/view", headers=seat(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def post_move(client: TestClient, gid: str, move: dict, token: str | None = None):
    """A move by the host (the table) or, with a seat key, by that player's phone: the response."""
    return client.post(f"/api/games/{gid}/moves", json={"move": move}, headers=seat(token) if token else {})
