"""Undo keeps secrets: a sealed bid or a secret card taken back is told in full to its owner
only; the table view, the other phones and the WebSockets learn that a secret move was taken
back, and nothing of it (issue 25, defect 1). The real app over a real SQLite store."""
from __future__ import annotations

import json
import queue
import threading
import pytest
from api_support import post_move, seat, start_game
from api_support import view_of as view


def new_game(client, game, names, **body):
    return start_game(client, game=game, names=names, seed=5, **body)


def move(client, gid, m, token=None):
    r = post_move(client, gid, m, token)
    assert r.status_code == 200, r.text
    return r.json()


class Socket:
    """A dashboard's WebSocket, read on a thread so that a missing push fails the test in time."""

    def __init__(self, ws):
        self.ws, self.got = ws, queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            while True:
                self.got.put(self.ws.receive_json())
        except Exception as exc:  # closed at the end of the test
            self.got.put(exc)

    def until(self, seq: int, what: str, timeout: float = 10.0) -> dict:
        """The first pushed view at log length ``seq`` or later."""
        while True:
            try:
                item = self.got.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no WebSocket push within {timeout} s: {what}") from None
            if isinstance(item, Exception):
                raise AssertionError(f"the WebSocket closed while waiting for {what}: {item!r}")
            if item["seq"] >= seq:
                return item


def bid_then_undo(client, gid, tokens, owner):
    """The owner bids from their phone; the table takes it back."""
    bid = next(m["move"] for m in view(client, gid, tokens[owner])["moves"]
               if m["move"]["kind"] == "bid" and m["move"]["args"]["amount"] > 0)
    move(client, gid, bid, tokens[owner])
    return bid, json.dumps(bid["args"]["amount"])


def secret_card_then_undo(client, gid, tokens, owner):
    """POCARI BET on a real table: the owner draws and enters their secret card on their phone."""
    v = view(client, gid)
    start = next(m["move"] for m in v["chance"]["outcomes"] if m["move"]["args"]["seat"] == owner)
    move(client, gid, start)
    move(client, gid, {"kind": "draw", "player": owner, "args": {"deck": "colour"}}, tokens[owner])
    chance = view(client, gid, tokens[owner])["chance"]
    assert chance["secret"] is True
    card = chance["outcomes"][-1]["move"]
    move(client, gid, card, tokens[owner])
    assert view(client, gid, tokens[owner])["state"]["players"][owner]["secret"] == card["args"]["card"]
    return card, json.dumps(card["args"]["card"])


def blind_colour_then_undo(client, gid, tokens, owner):
    """YUZU, blind: each colour card is entered on its drawer's phone, seat 0 first."""
    for p in range(owner + 1):
        chance = view(client, gid, tokens[p])["chance"]
        assert chance["secret"] is True
        drawn = chance["outcomes"][-1]["move"]
        move(client, gid, drawn, tokens[p])
    assert view(client, gid, tokens[owner])["state"]["players"][owner]["colours"] == [drawn["args"]["colour"]]
    return drawn, json.dumps(drawn["args"]["colour"])


GAMES = {
    "yuzu": ({"simulated": False, "options": {"blind": True, "players": 3}}, blind_colour_then_undo),
    "tokyo_metro": ({}, bid_then_undo),
    "jasmine_tea": ({}, bid_then_undo),
    "upside_down_tower": ({}, bid_then_undo),
    "pocari_bet": ({"simulated": False}, secret_card_then_undo),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_undone_secret_move_is_told_to_its_owner_alone(client, game):
    body, secret_move = GAMES[game]
    gid, tokens = new_game(client, game, ["Aki", "Ben", "Chie"], **body)
    owner, other = 1, 2
    url = f"/api/games/{gid}/ws"
    with client.websocket_connect(url) as t, client.websocket_connect(url, headers=seat(tokens[owner])) as o, \
            client.websocket_connect(url, headers=seat(tokens[other])) as p:
        table, mine, theirs = Socket(t), Socket(o), Socket(p)
        for ws in (table, mine, theirs):
            ws.until(0, "the first view")
        secret, told = secret_move(client, gid, tokens, owner)

        r = client.post(f"/api/games/{gid}/undo")
        assert r.status_code == 200, r.text
        seq = r.json()["view"]["seq"]
        undone_for_others = [{"kind": "undone", "secret": True, "seat": owner}]
        assert r.json()["events"] == undone_for_others, "the REST reply of /undo"
        assert r.json()["view"]["events"] == undone_for_others, "the table view in the /undo reply"

        for who, token, ws in (("the table", None, table), ("another phone", tokens[other], theirs)):
            for how, seen in (("REST", view(client, gid, token)), ("WebSocket", ws.until(seq, f"{who}'s push"))):
                assert seen["events"] == undone_for_others, f"{who} over {how}"
                assert told not in json.dumps(seen["events"]), f"{who} over {how} learnt the secret"
                # The feed of the night: the secret move and its undo, without the move, to them.
                undo = seen["feed"][0]
                assert undo["type"] == "undo" and undo["secret"] and undo["seat"] == owner, f"{who} over {how}"
                made = [e for e in seen["feed"] if e["seq"] in undo["takes_back"]]
                assert made and all("move" not in e for e in made + [undo]), f"{who} over {how} learnt the secret"
        for how, seen in (("REST", view(client, gid, tokens[owner])), ("WebSocket", mine.until(seq, "the owner's push"))):
            assert seen["events"] == [{"kind": "undone", "move": secret}], f"the owner over {how}"
            assert seen["feed"][0]["move"] == secret, f"the owner's feed over {how}"

    # The log, which holds every secret, stays on the server while the game runs.
    r = client.get(f"/api/games/{gid}/log.jsonl")
    assert r.status_code == 409 and "secret" in r.json()["detail"]


def test_an_undone_public_move_is_still_told_to_everyone(client):
    gid, tokens = new_game(client, "pocari_bet", ["Aki", "Ben", "Chie"])
    start = view(client, gid)["state"]["to_act"][0]["actor"]
    draw = {"kind": "draw", "player": start, "args": {"deck": "shape"}}
    move(client, gid, draw)  # the simulated table then chooses the secret card
    r = client.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200 and r.json()["events"] == [{"kind": "undone", "move": draw}]
    for token in [None, *tokens]:
        assert view(client, gid, token)["events"] == [{"kind": "undone", "move": draw}]
