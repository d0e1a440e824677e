"""Bad input is answered with a 4xx that says what was wrong and what to do, never a 500
(issue 25, defect 6): a player token that is not plain ASCII, on views, moves, estimates and
the WebSocket; NaN, Infinity and numbers too big for a float in a JSON body. The real app
over a real SQLite store; a 500 shows up as a status here, not as a raised exception."""
from __future__ import annotations

import pytest
from api_support import table_client
from starlette.websockets import WebSocketDisconnect


JSON = {"content-type": "application/json"}


@pytest.fixture
def api(store):
    with table_client(store, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def metro(api):
    r = api.post("/api/games", json={"game": "tokyo_metro", "names": ["Aki", "Ben"], "seed": 2})
    assert r.status_code == 201, r.text
    return r.json()["id"]


TOKENS = ["ä", "日本語", "tok\u00e9n-" + "x" * 12, "\U0001F600"]


def with_key(token: str) -> dict:
    """A bearer header carrying ``token`` as raw UTF-8 bytes (httpx would refuse to encode it)."""
    return {"Authorization": f"Bearer {token}".encode("utf-8")}


@pytest.mark.parametrize("token", TOKENS)
def test_a_key_that_is_not_ascii_is_refused_with_a_reason(api, store, metro, token):
    before = len(store.records(metro))
    for what, r in (
            ("the view", api.get(f"/api/games/{metro}/view", headers=with_key(token))),
            ("the estimates", api.get(f"/api/games/{metro}/estimates", params={"playouts": 1}, headers=with_key(token))),
            ("a move", api.post(f"/api/games/{metro}/moves", headers=with_key(token),
                                json={"move": {"kind": "bid", "player": 0, "args": {"amount": 0}}}))):
        assert r.status_code == 403, f"{what}: {r.status_code} {r.text}"
        assert "not valid" in r.json()["detail"] and "ask the host" in r.json()["detail"], what
    with pytest.raises(WebSocketDisconnect) as closed:
        with api.websocket_connect(f"/api/games/{metro}/ws", headers=with_key(token)) as ws:
            ws.receive_json()
    assert closed.value.code == 4403 and "not valid" in closed.value.reason
    assert len(store.records(metro)) == before


NOT_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"]


def bodies(gid):
    """(path, JSON text with X where a number goes), each reaching a different model or field."""
    return [
        ("/api/games", '{"game": "pocari_bet", "names": ["A", "B", "C"], "seed": X}'),
        ("/api/games", '{"game": "pocari_bet", "names": ["A", "B", "C"], "options": {"start_yen": X}}'),
        ("/api/games", '{"names": [X, "B", "C"]}'),
        (f"/api/games/{gid}/moves", '{"move": {"kind": "bid", "player": 0, "args": {"amount": X}}}'),
        (f"/api/games/{gid}/moves", '{"move": {"kind": "bid", "player": X}}'),
        (f"/api/games/{gid}/observations", '{"appeared": ["red-short_can"], "confidence": X}'),
        (f"/api/games/{gid}/observations", '{"appeared": [], "detail": {"width": [1, X]}}'),
        (f"/api/games/{gid}/observations", '{"kind": "beams", "passes_in": X}'),
    ]


@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_nan_and_infinity_in_a_json_body_are_refused_with_a_reason(api, store, metro, number):
    games = len(store.games())
    before = len(store.records(metro))
    for path, body in bodies(metro):
        r = api.post(path, content=body.replace("X", number), headers=JSON)
        assert r.status_code == 422, f"{path} {body} with {number}: {r.status_code} {r.text}"
        (error,) = r.json()["detail"]
        said = error["ctx"]["error"]
        assert error["type"] == "json_invalid" and "finite number" in said and "null" in said, said
        assert (number.lstrip("-") if "e" not in number else "too big") in said, said
    assert len(store.games()) == games and len(store.records(metro)) == before


def test_the_same_bodies_with_plain_numbers_are_still_answered(api, metro):
    """The check looks at the numbers only: the bodies above with 1 in place are no 500 either."""
    for path, body in bodies(metro):
        r = api.post(path, content=body.replace("X", "1"), headers=JSON)
        assert r.status_code < 500, f"{path} {body}: {r.status_code} {r.text}"
