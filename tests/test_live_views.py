"""The live views under the real server protocol (uvicorn with the companion's WebSocket protocol,
server/live_protocol.py): devices that negotiate compression and devices that do not all read
every view, each device of a viewer the same text (compressed once for all of them); a replaced
key closes its sockets and no other."""
from __future__ import annotations

import json
import threading
import time
from contextlib import ExitStack

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from api_support import link_tokens
from companion.server.app import create_app
from companion.server.live_protocol import LightDeflate
from companion.sim.table import SIM_TABLE
from companion.table.access import Access
from server_support import free_port
from waiting import wait_for


@pytest.fixture
def served(store):
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(store, automation=SIM_TABLE), host="127.0.0.1", port=port,
                                           log_level="warning", ws=LightDeflate, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, "uvicorn to start")
    yield f"127.0.0.1:{port}", Access(store).host_key()
    server.should_exit = True
    thread.join(30)


def test_every_device_reads_every_view_compressed_or_not(served):
    address, key = served
    host = {"Authorization": f"Bearer {key}"}
    api = httpx.Client(base_url=f"http://{address}", headers=host, timeout=60)
    created = api.post("/api/games", json={"game": "tokyo_metro", "names": ["Aki", "Ben", "Chie", "Dai"], "seed": 5})
    gid, tokens = created.json()["id"], link_tokens(created.json())
    url = f"ws://{address}/api/games/{gid}/ws"
    with ExitStack() as stack:
        def device(path: str = "", **options):
            return stack.enter_context(connect(url + path, max_size=2 ** 24, **options))

        table = [device(additional_headers=host) for _ in range(3)]
        plain = device(additional_headers=host, compression=None)
        phones = [device("?as=player", additional_headers={"Authorization": f"Bearer {t}"}) for t in tokens]
        assert table[0].response.headers.get("sec-websocket-extensions", "").startswith("permessage-deflate")
        assert "server_no_context_takeover" in table[0].response.headers["sec-websocket-extensions"]
        assert "sec-websocket-extensions" not in plain.response.headers
        devices = [*table, plain, *phones]
        first = {json.loads(ws.recv(timeout=60))["seq"] for ws in devices}
        assert len(first) == 1
        seq = first.pop()
        for _ in range(12):   # moves of the seats to act, from their phones
            for seat, token in enumerate(tokens):
                view = api.get(f"/api/games/{gid}/view", params={"as": "player"},
                               headers={"Authorization": f"Bearer {token}"}).json()
                if view["moves"]:
                    r = api.post(f"/api/games/{gid}/moves", json={"move": view["moves"][0]["move"]},
                                 headers={"Authorization": f"Bearer {token}"})
                    assert r.status_code == 200, r.text
                    seq = r.json()["view"]["seq"]
                    break
            texts = []
            for who, ws in enumerate(devices):
                seen = {}
                while seen.get("seq", -1) < seq:
                    text = ws.recv(timeout=60)
                    seen = json.loads(text)
                texts.append(text)
                assert seen["seq"] == seq and seen["viewer"] == (who - 4 if who >= 4 else None)
                assert seen["role"] == ("player" if who >= 4 else "host")
            # One view per viewer, the feed of the night in it: every table device the same text;
            # each phone its own (its sealed bid in full, the others' as secret moves).
            assert len(set(texts[:4])) == 1 and len(set(texts[4:])) == 4
            for who, text in enumerate(texts[4:]):
                assert all(e["seat"] == who for e in json.loads(text)["feed"]
                           if e.get("move", {}).get("kind") == "bid")
    api.close()


def test_a_replaced_key_closes_its_live_views(served):
    address, key = served
    host = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=f"http://{address}", headers=host, timeout=60) as api:
        created = api.post("/api/games", json={"names": ["Aki", "Ben", "Chie"], "seed": 3})
        gid, tokens = created.json()["id"], link_tokens(created.json())
        url = f"ws://{address}/api/games/{gid}/ws?as=player"
        with connect(url, additional_headers={"Authorization": f"Bearer {tokens[1]}"}) as lost, \
                connect(url, additional_headers={"Authorization": f"Bearer {tokens[2]}"}) as kept:
            assert json.loads(lost.recv(timeout=60))["viewer"] == 1
            assert json.loads(kept.recv(timeout=60))["viewer"] == 2
            assert api.post(f"/api/games/{gid}/players/1/revoke").status_code == 200
            with pytest.raises(ConnectionClosed) as closed:
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    lost.recv(timeout=60)
            assert closed.value.rcvd.code == 4403
            kept.ping().wait(60)   # the other phone's view stays open
