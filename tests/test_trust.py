"""Who may do what at the table (issue 25, the trust model; docs/security.md): the host holds
the keys, a phone acts for its seat alone, a spectator only looks, a stranger on the Wi-Fi gets
nothing; devices report inside the service; another site's page or name is refused. The real
app over a real SQLite store; each refusal also leaves the store as it was."""
from __future__ import annotations

import pytest
from api_support import NOBODY, link_tokens, seat, start_game, table_client, view_of
from starlette.websockets import WebSocketDisconnect

from companion.observation import Observation
from companion.server.app import MAX_SOCKETS_PER_DEVICE
from companion.server.trust import HOST_COOKIE, seat_cookie, watch_cookie
from companion.table.access import Access


def stored(store) -> list:
    return [(g.id, g.status, len(store.raw_records(g.id))) for g in store.games()]


@pytest.fixture
def game(client):
    """A POCARI BET on the simulated table (three people) and its seats' keys."""
    return start_game(client, names=["Aki", "Ben", "Chie"], seed=3)


def spectator_key(client, gid) -> str:
    r = client.get(f"/api/games/{gid}/spectators")
    assert r.status_code == 200, r.text
    return r.json()["url"].split("watch=")[1]


def host_actions(gid: str) -> list[tuple[str, str, dict | None]]:
    """Every action only the host may take, as (method, path, JSON body)."""
    return [("GET", "/api/games", None), ("POST", "/api/games", {"seed": 1}),
            ("PUT", "/api/feed", {"game_id": gid}),
            ("GET", f"/api/games/{gid}/players", None), ("GET", f"/api/games/{gid}/players/0/qr.svg", None),
            ("POST", f"/api/games/{gid}/players/0/revoke", None), ("GET", f"/api/games/{gid}/spectators", None),
            ("GET", f"/api/games/{gid}/spectators/qr.svg", None), ("POST", f"/api/games/{gid}/spectators/revoke", None),
            ("POST", f"/api/games/{gid}/observations", {"source": "person", "appeared": ["red-short_can"]}),
            ("POST", f"/api/games/{gid}/throw", None), ("POST", f"/api/games/{gid}/question/dismiss", None),
            ("POST", f"/api/games/{gid}/tray/read", None),
            ("POST", f"/api/games/{gid}/undo", None), ("POST", f"/api/games/{gid}/end", None),
            ("POST", "/api/camera/learned/forget", None),
            ("GET", "/api/board/calibration", None), ("POST", "/api/board/calibration/photo?source=camera", None),
            ("GET", "/api/board/calibration/photo.jpg", None),
            ("POST", "/api/board/calibration", {"taps": {"otemachi": [1, 2]}})]


def test_a_stranger_on_the_wifi_gets_nothing(client, store, game):
    gid, _ = game
    before = stored(store)
    for method, path, body in host_actions(gid) + [
            ("GET", f"/api/games/{gid}/view", None), ("GET", f"/api/games/{gid}/estimates", None),
            ("GET", f"/api/games/{gid}/feed", None),
            ("POST", f"/api/games/{gid}/moves", {"move": {"kind": "draw", "player": 0, "args": {"deck": "colour"}}}),
            ("GET", f"/api/games/{gid}/log.jsonl", None), ("GET", "/api/devices", None),
            ("GET", "/api/camera.jpg", None)]:
        r = client.request(method, path, json=body, headers=NOBODY)
        assert r.status_code == 403, f"{method} {path}: {r.status_code} {r.text[:200]}"
        assert "host" in r.json()["detail"], f"{method} {path} does not say how to get in: {r.text}"
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=NOBODY) as ws:
            ws.receive_json()
    assert closed.value.code == 4403
    assert client.get("/api/whoami", headers=NOBODY).json() == {"role": None, "seat": None, "game_id": None,
                                                                  "key": "none"}
    assert stored(store) == before
    # Nor does a stranger learn which games exist: an unknown id is a 404 for everyone alike.
    assert client.get("/api/games/nope/view", headers=NOBODY).status_code == 404


def test_a_phone_acts_for_its_own_seat_and_nothing_else(client, store, game):
    gid, tokens = game
    start = view_of(client, gid)["state"]["to_act"][0]["actor"]
    draw = {"kind": "draw", "player": start, "args": {"deck": "colour"}}
    assert client.post(f"/api/games/{gid}/moves", json={"move": draw}, headers=seat(tokens[start])).status_code == 200
    before = stored(store)
    phone = seat(tokens[start])
    for method, path, body in host_actions(gid):
        r = client.request(method, path, json=body, headers=phone)
        assert r.status_code == 403 and "only the host" in r.json()["detail"], f"{method} {path}: {r.text[:200]}"
    other = seat(tokens[(start + 1) % 3])
    r = client.post(f"/api/games/{gid}/moves", json={"move": draw}, headers=other)
    assert r.status_code == 403
    assert stored(store) == before
    mine = client.get(f"/api/games/{gid}/view", headers=phone).json()
    assert mine["viewer"] == start and mine["role"] == "player" and mine["state"]["players"][start]["secret"]
    # A seat's key opens its own game only.
    other_gid, _ = start_game(client, names=["Aki", "Ben", "Chie"], seed=4)
    r = client.get(f"/api/games/{other_gid}/view", headers=phone)
    assert r.status_code == 403 and "not valid" in r.json()["detail"]


def test_a_spectator_sees_the_table_with_no_secret_and_no_button(client, store, game):
    gid, tokens = game
    start = view_of(client, gid)["state"]["to_act"][0]["actor"]
    client.post(f"/api/games/{gid}/moves", json={"move": {"kind": "draw", "player": start, "args": {"deck": "shape"}}},
                headers=seat(tokens[start]))
    secret = view_of(client, gid, tokens[start])["state"]["players"][start]["secret"]
    assert secret
    watcher = seat(spectator_key(client, gid))  # a spectator's key, sent the same way
    seen = client.get(f"/api/games/{gid}/view", headers=watcher).json()
    assert seen["role"] == "spectator" and seen["viewer"] is None
    assert seen["moves"] == [] and seen["composites"] == [] and seen["chance"] is None and not seen["can_undo"]
    assert all(p["secret"] is None for p in seen["state"]["players"])
    assert seen["state"] == view_of(client, gid)["state"], "the spectator sees what the table sees"
    before = stored(store)
    table_move = view_of(client, gid)["moves"][0]["move"]
    assert client.post(f"/api/games/{gid}/moves", json={"move": table_move}, headers=watcher).status_code == 403
    assert client.get(f"/api/games/{gid}/estimates", headers=watcher).status_code == 403
    for method, path, body in host_actions(gid):
        assert client.request(method, path, json=body, headers=watcher).status_code == 403, path
    assert stored(store) == before
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=watcher) as ws:
        pushed = ws.receive_json()
    assert pushed["role"] == "spectator" and pushed["moves"] == [] and secret not in str(pushed["state"]["players"])


def test_a_lost_phone_is_shut_out_and_the_seat_joins_again(client, game):
    gid, tokens = game
    lost = seat(tokens[1])
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=lost) as ws:
        assert ws.receive_json()["viewer"] == 1
        r = client.post(f"/api/games/{gid}/players/1/revoke")
        assert r.status_code == 200, r.text
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
    assert closed.value.code == 4403 and "replaced" in closed.value.reason
    new = r.json()["url"].split("token=")[1]
    assert new != tokens[1]
    assert client.get(f"/api/games/{gid}/view", headers=lost).status_code == 403
    assert client.get(f"/api/games/{gid}/view", headers=seat(new)).json()["viewer"] == 1
    assert link_tokens({"players": client.get(f"/api/games/{gid}/players").json()})[1] == new
    # The other seats keep their keys.
    assert client.get(f"/api/games/{gid}/view", headers=seat(tokens[0])).json()["viewer"] == 0


def test_links_leave_their_key_in_a_cookie_and_the_address_bar_without_it(client, game, store):
    gid, tokens = game
    host_key = Access(store).host_key()
    page = table_client(store)  # a browser: no bearer, cookies only
    page.headers.pop("Authorization")
    with page:
        r = page.get(f"/player?game={gid}&token={tokens[2]}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/player?game={gid}"
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{seat_cookie(gid)}={tokens[2]}") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert page.get(f"/api/games/{gid}/view", params={"as": "player"}).json()["viewer"] == 2
        # The player page reads its seat's key only: never the table's view through another key.
        r = page.get(f"/?host={host_key}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/" and HOST_COOKIE in r.headers["set-cookie"]
        assert page.get(f"/api/games/{gid}/view", params={"as": "player"}).json()["viewer"] == 2
        assert page.get(f"/api/games/{gid}/view").json()["role"] == "host"
        # A wrong link sets nothing and says so.
        fresh = table_client(store)
        fresh.headers.pop("Authorization")
        with fresh:
            r = fresh.get(f"/player?game={gid}&token=guess", follow_redirects=False)
            assert r.headers["location"] == f"/player?game={gid}&refused=1" and "set-cookie" not in r.headers
            r = fresh.get("/?host=guess", follow_redirects=False)
            assert "set-cookie" not in r.headers
            assert fresh.get("/api/games").status_code == 403
            watch = spectator_key(client, gid)
            r = fresh.get(f"/?game={gid}&watch={watch}", follow_redirects=False)
            assert r.headers["location"] == f"/?game={gid}" and watch_cookie(gid) in r.headers["set-cookie"]
            assert fresh.get(f"/api/games/{gid}/view").json()["role"] == "spectator"
            assert fresh.get("/api/whoami", params={"game": gid}).json()["role"] == "spectator"


def test_devices_report_inside_the_service_and_a_forged_report_is_refused(client, store, game):
    gid, _ = game
    before = stored(store)
    forged = {"source": "sensors", "kind": "beams", "passes_in": 3,
              "detail": {"boot_id": "0badf00d", "event_id": 1}}
    for headers in ({}, NOBODY):  # not even the host's key makes an API call the sensor board
        r = client.post(f"/api/games/{gid}/observations", json=forged, headers=headers)
        assert r.status_code == 403, r.text
    r = client.post(f"/api/games/{gid}/observations", json={**forged, "source": "camera"})
    assert r.status_code == 403 and "inside the service" in r.json()["detail"]
    assert stored(store) == before
    assert store.find("$.observation.detail.boot_id", "0badf00d") == []
    # The real path: the devices hand the table their readings (Devices -> Tables.route).
    client.app.state.tables.route(Observation(source="sensors", kind="beams", passes_in=2,
                                              detail={"boot_id": "0badf00d", "event_id": 1}))
    assert view_of(client, gid)["beams"]["since_drop"] == [2, 0]


def test_the_host_chooses_the_game_the_tower_feeds(client, store):
    first, tokens = start_game(client, names=["Aki", "Ben", "Chie"], seed=3)
    second, _ = start_game(client, names=["Aki", "Ben", "Chie"], seed=4)
    assert view_of(client, second)["fed"] and not view_of(client, first)["fed"]
    # A phone's move in the first game does not turn the tower to it.
    start = view_of(client, first)["state"]["to_act"][0]["actor"]
    client.post(f"/api/games/{first}/moves", json={"move": {"kind": "draw", "player": start, "args": {"deck": "colour"}}},
                headers=seat(tokens[start]))
    assert client.app.state.tables.active == second
    assert client.put("/api/feed", json={"game_id": first}).json() == {"game_id": first}
    assert view_of(client, first)["fed"] and not view_of(client, second)["fed"]
    assert [g["fed"] for g in client.get("/api/games").json()] == [False, True]
    assert client.put("/api/feed", json={"game_id": "nope"}).status_code == 404


def test_the_host_ends_a_game_and_nothing_follows(client, store, game):
    gid, tokens = game
    r = client.post(f"/api/games/{gid}/end")
    assert r.status_code == 200 and r.json()["view"]["over"] and r.json()["view"]["ended"]
    assert store.game(gid).status == "finished" and store.records(gid)[-1] == {"type": "end", "by": "table"}
    before = stored(store)
    move = {"kind": "draw", "player": 0, "args": {"deck": "colour"}}
    for r in (client.post(f"/api/games/{gid}/moves", json={"move": move}, headers=seat(tokens[0])),
              client.post(f"/api/games/{gid}/undo"), client.post(f"/api/games/{gid}/end"),
              client.put("/api/feed", json={"game_id": gid})):
        assert r.status_code == 409, r.text
    assert stored(store) == before
    assert client.get(f"/api/games/{gid}/log.jsonl").status_code == 200  # over: the log may leave


def test_another_sites_name_or_page_is_refused(client, store, game):
    gid, _ = game
    before = stored(store)
    r = client.get("/api/games", headers={"Host": "evil.example:8000"})
    assert r.status_code == 400 and "does not answer to the name 'evil.example'" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/undo", headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["detail"]
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/api/games/{gid}/ws", headers={"Origin": "http://evil.example"}) as ws:
            ws.receive_json()
    assert stored(store) == before
    # Its own pages (same origin), its addresses, and localhost are welcome.
    assert client.get("/api/games", headers={"Host": "192.168.1.20:8000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "[::1]:8000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "localhost:8000"}).status_code == 200
    r = client.post(f"/api/games/{gid}/undo", headers={"Origin": "http://127.0.0.1:8000"})
    assert r.status_code != 403


def test_live_views_per_device_are_capped(client, game):
    gid, tokens = game
    opened = []
    try:
        for _ in range(MAX_SOCKETS_PER_DEVICE):
            ws = client.websocket_connect(f"/api/games/{gid}/ws", headers=seat(tokens[0]))
            opened.append(ws.__enter__())
            opened[-1].receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/api/games/{gid}/ws", headers=seat(tokens[0])) as ws:
                ws.receive_json()
        assert closed.value.code == 4429 and "too many" in closed.value.reason
        # Another device (another key) is not held back by this one.
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=seat(tokens[1])) as ws:
            assert ws.receive_json()["viewer"] == 1
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=seat(tokens[0])) as ws:  # closed ones count no more
        assert ws.receive_json()["viewer"] == 0


def test_the_log_of_a_game_set_aside_is_the_hosts_alone(store):
    """A game that cannot be played on keeps every secret in its log: the host may read it as
    stored (to see what went wrong); its players and spectators may not."""
    gid = store.create_game("pocari_bet", {"names": ["Aki", "Ben", "Chie"], "seed": 1})
    store.append(gid, {"type": "no such record"})
    with table_client(store) as host:
        assert host.get(f"/api/games/{gid}/view").status_code == 409
        r = host.get(f"/api/games/{gid}/log.jsonl")
        assert r.status_code == 200 and "no such record" in r.text
        access = Access(store)
        for key in (access.seat_key(gid, 0), access.spectator_key(gid)):
            r = host.get(f"/api/games/{gid}/log.jsonl", headers=seat(key))
            assert r.status_code == 403 and "only the host" in r.json()["detail"], r.text
        assert host.get(f"/api/games/{gid}/log.jsonl", headers=NOBODY).status_code == 403
