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
