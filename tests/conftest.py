"""Shared fixtures: a real SQLite store in a temporary folder and the real FastAPI app."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from companion.server.app import create_app
from companion.table.store import EventStore


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def client(store):
    with TestClient(create_app(store)) as c:
        yield c


# --- the dashboard in a real browser (tests/browser_support.py) --------------------------------

@pytest.fixture
def base_url(tmp_path):
    """The real app served over HTTP on a free port, with its own store."""
    from browser_support import served      # Playwright is loaded only by the browser tests

    with served(tmp_path) as url:
        yield url


@pytest.fixture
def browser():
    """Debian's headless Chromium, driven by Playwright."""
    from browser_support import chromium

    with chromium() as b:
        yield b

