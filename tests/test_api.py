"""The REST and WebSocket API over the real app and a real SQLite store."""
from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import parse_qs, urlparse

import pytest
from api_support import post_move as move
from api_support import seat, start_game
from api_support import view_of as view

from companion.drinks import CARD_IDS
from companion.observation import Observation
from companion.rules.games import GAMES


def new_game(client, **body):
    return start_game(client, **{"names": ["Aki", "Ben", "Chie"], "seed": 3, **body})


def test_openapi_documents_the_game_routes(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}/moves", "/api/games/{game_id}/observations",
                 "/api/games/{game_id}/view", "/api/games/{game_id}/undo"):
        assert path in paths


def test_new_game_on_the_simulated_table_waits_for_the_first_draw(client):
    gid, _ = new_game(client)
    v = view(client, gid)
    assert v["simulated"] is True
    assert v["state"]["phase"] == "draw"  # the simulated table chose the start player
    start = v["state"]["to_act"][0]["actor"]
    assert {m["move"]["args"]["deck"] for m in v["moves"]} == {"colour", "shape"}
    assert all(m["move"]["player"] == start for m in v["moves"])


def test_secret_card_reaches_only_its_owner(client):
    gid, tokens = new_game(client)
    start = view(client, gid)["state"]["to_act"][0]["actor"]
    assert move(client, gid, {"kind": "draw", "player": start, "args": {"deck": "colour"}}).status_code == 200
    mine = view(client, gid, tokens[start])["state"]["players"][start]
    assert mine["secret"] in CARD_IDS and mine["has_secret"]
    for viewer in [None] + [t for s, t in enumerate(tokens) if s != start]:
        players = view(client, gid, viewer)["state"]["players"]
        assert all(p["secret"] is None for p in players if p["seat"] != (None if viewer is None else tokens.index(viewer)))
    assert players[start]["has_secret"] is True


def test_illegal_move_is_refused_with_the_reason_and_nothing_is_stored(client, store):
    gid, tokens = new_game(client)
    before = len(store.records(gid))
    start = view(client, gid)["state"]["to_act"][0]["actor"]
    other = (start + 1) % 3
    r = move(client, gid, {"kind": "draw", "player": other, "args": {"deck": "colour"}})
    assert r.status_code == 409 and "turn" in r.json()["detail"]
    r = move(client, gid, {"kind": "draw", "player": start, "args": {"deck": "hats"}})
    assert r.status_code == 409 and "colour" in r.json()["detail"]
    r = move(client, gid, {"kind": "draw", "player": "seven"})
    assert r.status_code == 409 and "seat" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/moves", json={"nonsense": 1})
    assert r.status_code == 422
    assert len(store.records(gid)) == before


def test_a_phone_acts_only_for_its_own_seat(client):
    gid, tokens = new_game(client)
    start = view(client, gid)["state"]["to_act"][0]["actor"]
    other = tokens[(start + 1) % 3]
    r = move(client, gid, {"kind": "draw", "player": start, "args": {"deck": "shape"}}, token=other)
    assert r.status_code == 403
    r = move(client, gid, {"kind": "draw", "player": start, "args": {"deck": "shape"}}, token="forged")
    assert r.status_code == 403
    assert client.get(f"/api/games/{gid}/view", headers=seat("forged")).status_code == 403
    assert move(client, gid, {"kind": "draw", "player": start, "args": {"deck": "shape"}},
                token=tokens[start]).status_code == 200


def test_computer_seats_cannot_be_played_by_people(client):
    gid, _ = new_game(client, bots=[0, 1, 2])
    v = view(client, gid)
    assert v["over"] and v["payouts"]["final"]  # three computers play to the end at once
    gid, _ = new_game(client, bots=[1, 2], seed=11)
    v = view(client, gid)
    assert [p["actor"] for p in v["state"]["to_act"]] == [0]
    r = move(client, gid, {"kind": "draw", "player": 1, "args": {"deck": "shape"}})
    assert r.status_code == 403 and "computer" in r.json()["detail"]  # refused for the seat, not the turn


def play_to_drop(client, gid):
    for _ in range(50):
        v = view(client, gid)
        if v["state"]["phase"] == "drop":
            return v
        r = move(client, gid, v["moves"][0]["move"])
        assert r.status_code == 200, r.text
    raise AssertionError("never reached the drop")


def test_a_round_through_the_simulated_tower_pays_out(client):
    gid, _ = new_game(client)
    v = play_to_drop(client, gid)
    assert len(v["state"]["thrown"]) == 7
    yen_before = [p["yen"] for p in v["state"]["players"]]
    r = client.post(f"/api/games/{gid}/throw")
    assert r.status_code == 200 and r.json()["result"] == "applied"
    v = view(client, gid)
    result = v["state"]["last_round"]
    assert v["state"]["round"] == 2
    assert [b + p for b, p in zip(yen_before, result["paid"])] == [p["yen"] for p in v["state"]["players"]]
    assert set(result["drop"]["out"]) | set(v["state"]["tower"]["stuck"]) >= set(result["drop"]["thrown"])


def test_observation_of_the_drop_is_applied_and_a_bad_one_becomes_a_question(client, store):
    gid, _ = new_game(client, simulated=False, seed=5)
    obs = client.post(f"/api/games/{gid}/observations", json={"appeared": ["red-short_can"]})
    assert obs.status_code == 200 and obs.json()["result"] == "question"  # nothing is in the tower
    assert view(client, gid)["question"]["kind"] == "contradiction"
    r = client.post(f"/api/games/{gid}/observations", json={"appeared": ["lemon-can"]})
    assert r.status_code == 422 and "unknown drink" in r.text
    # A real table: a person supplies the start player, then cards, then the drop.
    v = view(client, gid)
    assert v["chance"]["kind"] == "choice"
    assert move(client, gid, v["chance"]["outcomes"][0]["move"]).status_code == 200
    assert view(client, gid)["question"] is None


def test_low_confidence_observation_asks_a_person(client):
    gid, tokens = new_game(client, simulated=False)
    v = view(client, gid)
    move(client, gid, v["chance"]["outcomes"][0]["move"])  # start player: seat 0
    for player in (0, 1, 2):
        assert move(client, gid, {"kind": "draw", "player": player, "args": {"deck": "colour"}}).status_code == 200
        # the secret card is entered on that player's phone, never by the table
        card = view(client, gid, tokens[player])["chance"]["outcomes"][0]["move"]
        assert move(client, gid, card).status_code == 403
        assert move(client, gid, card, token=tokens[player]).status_code == 200
    # turn up: the table is offered every pair, so those naming a drawn card are refused
    offered = [o["move"] for o in view(client, gid)["chance"]["outcomes"]]
    assert len(offered) == 36
    assert offered[0]["args"] == {"colour": "black", "shape": "stubby_can"}
    assert move(client, gid, offered[0]).status_code == 409  # black was drawn as a secret
    assert offered[6]["args"] == {"colour": "white", "shape": "stubby_can"}
    assert move(client, gid, offered[6]).status_code == 200
    v = play_to_drop(client, gid)
    thrown = v["state"]["thrown"]
    # the camera reports inside the service, the way Devices hands its readings to the table
    client.app.state.tables.route(Observation(source="camera", appeared=thrown[:3], confidence=0.4))
    assert view(client, gid)["state"]["phase"] == "drop"
    q = view(client, gid)["question"]
    assert q["kind"] == "confirm"
    assert move(client, gid, q["move"]).status_code == 200
    v = view(client, gid)
    assert v["state"]["round"] == 2 and v["question"] is None
    assert sorted(v["state"]["last_round"]["drop"]["out"]) == sorted(thrown[:3])


def test_a_drop_the_exit_beam_contradicts_needs_the_hosts_override(client, store):
    gid, tokens = new_game(client, bots=[1, 2], seed=7)
    thrown = play_to_drop(client, gid)["state"]["thrown"]
    # the board's count for this drop, as a person may enter it: all in, two out
    r = client.post(f"/api/games/{gid}/observations",
                    json={"source": "person", "kind": "beams", "passes_in": len(thrown), "passes_out": 2})
    assert r.status_code == 200 and r.json()["result"] == "counted"
    assert view(client, gid)["chance"]["seen"]
    one = {"kind": "drop", "player": "chance", "args": {"out": thrown[:1]}}
    before = len(store.records(gid))
    r = move(client, gid, one)
    assert r.status_code == 409 and "exit beam counted 2" in r.json()["detail"] and "override_beams" in r.json()["detail"]
    assert len(store.records(gid)) == before
    # only the host overrides the beam: a player's phone (and a spectator) is refused before anything
    r = client.post(f"/api/games/{gid}/moves", json={"move": one, "override_beams": True}, headers=seat(tokens[0]))
    assert r.status_code == 403 and "only the host" in r.json()["detail"]
    watch = client.get(f"/api/games/{gid}/spectators").json()["url"].split("watch=")[1]
    r = client.post(f"/api/games/{gid}/moves", json={"move": one, "override_beams": True}, headers=seat(watch))
    assert r.status_code == 403
    assert client.post(f"/api/games/{gid}/moves", json={"move": one, "override_beams": "yes"}).status_code == 422
    assert len(store.records(gid)) == before
    r = client.post(f"/api/games/{gid}/moves", json={"move": one, "override_beams": True})
    assert r.status_code == 200 and r.json()["view"]["state"]["last_round"]["drop"]["out"] == thrown[:1]
    assert store.records(gid)[before]["override"] == {"beams": [len(thrown), 2]}
    assert r.json()["view"]["beams"]["last_drop"] == [len(thrown), 2]


def test_openapi_documents_the_override_and_reading_the_tray_again(client):
    doc = client.get("/openapi.json").json()
    field = doc["components"]["schemas"]["MoveIn"]["properties"]["override_beams"]
    assert field["type"] == "boolean" and field["default"] is False and "host" in field["description"]
    post = doc["paths"]["/api/games/{game_id}/moves"]["post"]
    assert "override_beams" in post["responses"]["409"]["description"]
    read = doc["paths"]["/api/games/{game_id}/tray/read"]["post"]
    assert {"200", "403", "404", "409"} <= set(read["responses"]) and read["security"]


def test_reading_the_tray_again_needs_a_camera(client):
    gid, tokens = new_game(client, bots=[1, 2], seed=7)
    play_to_drop(client, gid)
    r = client.post(f"/api/games/{gid}/tray/read")
    assert r.status_code == 409 and "no camera" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/tray/read", headers=seat(tokens[0]))
    assert r.status_code == 403


def test_undo_appends_and_restores_the_previous_state(client, store):
    gid, _ = new_game(client)
    before = view(client, gid)
    first = before["moves"][0]["move"]
    move(client, gid, first)
    n = len(store.records(gid))
    r = client.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200
    assert len(store.records(gid)) == n + 1 and store.records(gid)[-1]["type"] == "undo"
    assert view(client, gid)["state"] == before["state"]


def test_unknown_game_and_bad_config_are_clear_errors(client):
    assert client.get("/api/games/nope/view").status_code == 404
    r = client.post("/api/games", json={"game": "chess"})
    assert r.status_code == 422 and "pocari_bet" in r.json()["detail"]
    r = client.post("/api/games", json={"names": ["A", "B"]})
    assert r.status_code == 422 and "3" in r.json()["detail"]
    r = client.post("/api/games", json={"options": {"rounds": 4, "colour": 1}})
    assert r.status_code == 422 and "colour" in r.json()["detail"]


def test_websocket_pushes_each_viewers_view_after_every_change(client):
    gid, tokens = new_game(client)
    start = view(client, gid)["state"]["to_act"][0]["actor"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as table, \
            client.websocket_connect(f"/api/games/{gid}/ws", headers=seat(tokens[start])) as phone:
        assert table.receive_json()["viewer"] is None
        assert phone.receive_json()["viewer"] == start
        move(client, gid, {"kind": "draw", "player": start, "args": {"deck": "colour"}})
        seen_table, seen_phone = table.receive_json(), phone.receive_json()
        assert seen_phone["state"]["players"][start]["secret"] in CARD_IDS
        assert seen_table["state"]["players"][start]["secret"] is None
        assert seen_table["seq"] > 0


def test_websocket_with_a_forged_token_is_closed(client):
    from starlette.websockets import WebSocketDisconnect

    gid, _ = new_game(client)
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=seat("forged")) as ws:
            ws.receive_json()


def test_player_links_and_qr_codes(client):
    gid, tokens = new_game(client, bots=[2])
    players = client.get(f"/api/games/{gid}/players").json()
    assert [p["bot"] for p in players] == [False, False, True]
    r = client.get(f"/api/games/{gid}/players/0/qr.svg")
    assert r.status_code == 200 and '<svg xmlns="http://www.w3.org/2000/svg"' in r.text
    assert client.get(f"/api/games/{gid}/players/9/qr.svg").status_code == 404


def test_the_log_with_its_secret_cards_is_downloadable_only_after_the_game(client):
    gid, _ = new_game(client)
    assert client.get(f"/api/games/{gid}/log.jsonl").status_code == 409
    gid, _ = new_game(client, bots=[0, 1, 2])
    r = client.get(f"/api/games/{gid}/log.jsonl")
    assert r.status_code == 200 and r.text.startswith('{"config"')


def test_a_stake_sent_as_a_float_is_taken_as_whole_yen(client):
    gid, _ = new_game(client)
    for _ in range(50):
        v = view(client, gid)
        if v["state"]["phase"] == "invest":
            break
        move(client, gid, v["moves"][0]["move"])
    seat = v["moves"][0]["move"]["player"]
    r = move(client, gid, {"kind": "invest", "player": seat, "args": {"amount": 200.0}})
    assert r.status_code == 200
    yen = view(client, gid)["state"]["players"][seat]["yen"]
    assert yen == 800 and isinstance(yen, int)


def test_a_question_can_be_dismissed_and_that_is_logged(client, store):
    gid, _ = new_game(client, simulated=False)
    client.post(f"/api/games/{gid}/observations", json={"appeared": ["red-short_can"]})
    assert view(client, gid)["question"] is not None
    r = client.post(f"/api/games/{gid}/question/dismiss")
    assert r.status_code == 200 and r.json()["view"]["question"] is None
    assert store.records(gid)[-1]["type"] == "dismiss"
    assert client.post(f"/api/games/{gid}/question/dismiss").status_code == 409


def test_on_a_real_table_the_table_enters_a_computer_players_card(client):
    gid, tokens = new_game(client, simulated=False, bots=[1, 2])
    v = view(client, gid)
    move(client, gid, v["chance"]["outcomes"][0]["move"])  # start player: seat 0 (a person)
    move(client, gid, {"kind": "draw", "player": 0, "args": {"deck": "shape"}})
    assert view(client, gid)["chance"] is None  # seat 0's card is entered on seat 0's phone
    card = view(client, gid, tokens[0])["chance"]["outcomes"][0]["move"]
    assert move(client, gid, card, token=tokens[0]).status_code == 200
    v = view(client, gid)  # the computer (seat 1) drew: the table enters its card
    assert v["state"]["phase"] == "secret" and v["chance"]["secret"] is True
    assert move(client, gid, v["chance"]["outcomes"][0]["move"]).status_code == 200


def test_a_sealed_bid_is_made_on_the_phone_and_never_shown_to_the_table(client):
    r = client.post("/api/games", json={"game": "jasmine_tea", "names": ["A", "B"], "seed": 1})
    gid = r.json()["id"]
    tokens = [parse_qs(urlparse(p["url"]).query)["token"][0] for p in r.json()["players"]]
    v = view(client, gid)
    assert v["state"]["phase"] == "bid"
    assert not any(m["move"]["kind"] == "bid" for m in v["moves"])  # not offered to the table
    r = move(client, gid, {"kind": "bid", "player": 0, "args": {"amount": 300}})
    assert r.status_code == 403 and "phone" in r.json()["detail"]
    mine = view(client, gid, tokens[0])
    bid = next(m["move"] for m in mine["moves"] if m["move"]["kind"] == "bid" and m["move"]["args"]["amount"] == 300)
    assert move(client, gid, bid, token=tokens[0]).status_code == 200
    table, other = view(client, gid), view(client, gid, tokens[1])
    for seen in (table, other):
        assert "300" not in json.dumps(seen["events"]) and seen["state"]["players"][0]["bid"] is None
        assert seen["state"]["players"][0]["has_bid"] is True
    assert view(client, gid, tokens[0])["state"]["players"][0]["bid"] == 300


def test_estimates_of_the_final_yen_for_a_players_moves(client):
    gid, tokens = new_game(client, game="tokyo_metro", bots=[1, 2])
    assert view(client, gid)["state"]["phase"] == "bid"
    r = client.get(f"/api/games/{gid}/estimates", params={"playouts": 40}, headers=seat(tokens[0]))
    assert r.status_code == 200, r.text
    est = r.json()
    assert est["method"] == "random playouts" and est["playouts"] == 40 and est["viewer"] == 0
    (mine,) = est["seats"]
    offered = [m["move"] for m in view(client, gid, tokens[0])["moves"]]
    assert mine["seat"] == 0 and [m["move"] for m in mine["moves"]] == offered
    assert all({"n", "mean", "sd", "low", "high"} <= set(m) for m in mine["moves"])
    # The same log gives the same answer; the table is offered no (secret) bid, so nothing.
    assert client.get(f"/api/games/{gid}/estimates", params={"playouts": 40}, headers=seat(tokens[0])).json() == est
    assert client.get(f"/api/games/{gid}/estimates").json()["seats"] == []
    # Default playouts; documented in the OpenAPI document.
    assert client.get(f"/api/games/{gid}/estimates", headers=seat(tokens[0])).json()["requested"] == 200
    assert "/api/games/{game_id}/estimates" in client.get("/openapi.json").json()["paths"]


def test_estimates_refuse_bad_input_clearly(client, monkeypatch):
    gid, tokens = new_game(client, game="tokyo_metro", bots=[1, 2])
    r = client.get(f"/api/games/{gid}/estimates", headers=seat("forged"))
    assert r.status_code == 403 and "not valid" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}/estimates", params={"playouts": 0}).status_code == 422
    assert client.get(f"/api/games/{gid}/estimates", params={"playouts": 100_000}).status_code == 422
    r = client.get("/api/games/nope/estimates")
    assert r.status_code == 404 and "no game" in r.json()["detail"]
    # POCARI BET as a game that could not draw its hidden cards again
    monkeypatch.setitem(GAMES, "pocari_bet", replace(GAMES["pocari_bet"], redraw=None))
    pocari, _ = new_game(client)
    r = client.get(f"/api/games/{pocari}/estimates")
    assert r.status_code == 404 and "offers no estimates" in r.json()["detail"]
