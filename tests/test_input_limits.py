"""Nothing unbounded enters the append-only log (issue 25, defect 5).

Every field a request carries has a bound (names, counts, seats, seeds, ids, tokens, options,
moves, an observation's lists, counts and detail), every game option a range, and the body as a
whole a size: a request over any of them is refused with a 4xx that names what was wrong and
the bound, and nothing is stored. The body limit is checked on the real server over a socket:
a body that declares or sends too much is answered 413 before it is read whole."""
from __future__ import annotations

import json
import select
import socket
import time

import pytest
from api_support import seat, table_client

from companion.observation import MAX_DETAIL_BYTES, MAX_DRINKS, MAX_PASSES
from companion.rules.engine import OPTION_RANGE, IllegalMove
from companion.rules.games import GAMES
from companion.server.requests import (MAX_MOVE_BYTES, MAX_NAME, MAX_OPTIONS, MAX_OPTIONS_BYTES, MAX_SEATS,
                                       MAX_SEED)
from companion.server.body_limit import MAX_BODY_BYTES
from companion.server.json_body import MAX_INT_DIGITS
from server_support import Server


@pytest.fixture
def api(store):
    with table_client(store, raise_server_exceptions=False) as c:
        yield c


def stored(store) -> tuple:
    """Everything the store holds: the games with their settings, and every record."""
    games = [(g.id, g.config) for g in store.games()]
    return games, [store.records(gid) for gid, _ in games]


def refused(r, status: int, *words: str) -> None:
    assert r.status_code == status, f"{r.status_code} {r.text[:300]}"
    text = json.dumps(r.json()["detail"])
    for word in words:
        assert word in text, f"{word!r} not in {text[:400]}"


NEW_GAMES = [  # (body, words the refusal says): each over one bound by a little
    ({"names": ["Aki", "x" * (MAX_NAME + 1), "Chie"]}, [f"at most {MAX_NAME} characters", "names"]),
    ({"names": ["Aki", "", "Chie"]}, ["at least 1 character"]),
    ({"names": ["P"] * (MAX_SEATS + 1)}, [f"at most {MAX_SEATS} items"]),
    ({"bots": [0] * (MAX_SEATS + 1)}, [f"at most {MAX_SEATS} items", "bots"]),
    ({"bots": [MAX_SEATS]}, [f"less than {MAX_SEATS}"]),
    ({"bots": [-1]}, ["greater than or equal to 0"]),
    ({"seed": MAX_SEED + 1}, [f"less than or equal to {MAX_SEED}"]),
    ({"seed": -1}, ["greater than or equal to 0"]),
    ({"seed": 10**4000}, [f"at most {MAX_INT_DIGITS} digits"]),
    ({"game": "g" * 41}, ["at most 40 characters"]),
    ({"options": {f"o{i}": 1 for i in range(MAX_OPTIONS + 1)}}, [f"at most {MAX_OPTIONS} items"]),
    ({"options": {"board": {"x": "y" * MAX_OPTIONS_BYTES}}}, [f"at most {MAX_OPTIONS_BYTES}"]),
    ({"options": {"start_yen": -5}}, ["start_yen", f"at least {OPTION_RANGE[0]} and at most {OPTION_RANGE[1]}"]),
    ({"options": {"start_yen": OPTION_RANGE[1] + 1}}, ["start_yen", f"at most {OPTION_RANGE[1]}"]),
    ({"options": {"stake_step": 0}}, ["stake_step", "at least 100"]),
    ({"options": {"start_yen": 10**4000}}, [f"at most {MAX_INT_DIGITS} digits"]),
    ({"game": "tokyo_metro", "names": ["A", "B"], "options": {"bid_step": 0}}, ["bid_step", "at least 100"]),
    ({"game": "tokyo_metro", "names": ["A", "B"], "options": {"steps": 10**5}}, ["steps", "at most 50"]),
    ({"game": "jasmine_tea", "names": ["A", "B"], "options": {"start_yen": -5}}, ["start_yen", "at least 0"]),
    ({"game": "upside_down_tower", "names": ["A", "B"], "options": {"marker_colours": ["red"] * 37}},
     ["marker_colours", "lists 37 items; at most 36"]),
    ({"game": "melon_soda", "names": ["A", "B"], "options": {"deal": "x" * 41}}, ["deal", "41 characters long; at most 40"]),
    ({"game": "chocolate_milk", "names": ["A", "B"], "options": {"crates_for_sale": -2}},
     ["crates_for_sale", "at least -1"]),
]


@pytest.mark.parametrize("body, words", NEW_GAMES, ids=[json.dumps(b)[:60] for b, _ in NEW_GAMES])
def test_a_new_game_over_a_bound_is_refused_with_the_bound_and_nothing_is_stored(api, store, body, words):
    before = stored(store)
    refused(api.post("/api/games", json=body), 422, *words)
    assert stored(store) == before


def test_a_new_game_at_the_bounds_is_taken(api):
    r = api.post("/api/games", json={"names": ["x" * MAX_NAME, "y", "z"], "seed": MAX_SEED,
                                     "options": {"start_yen": OPTION_RANGE[1], "stake_step": 100}})
    assert r.status_code == 201, r.text
    r = api.post("/api/games", json={"game": "chocolate_milk", "names": ["A", "B"],
                                     "options": {"crates_for_sale": -1}})
    assert r.status_code == 201, r.text


def whole_options(game) -> list[tuple[str, int, int]]:
    """(name, least, most) of each whole-number option of a game but the player count."""
    options = game.options
    return [(name, *options.bounds(name)) for name in options.model_fields
            if name != "players" and options.bounds(name) is not None]


def test_every_option_of_every_game_has_bounds():
    """Each whole-number option is refused below and above its range, with a reason naming the
    option and the bound."""
    for name, game in GAMES.items():
        names = ["A", "B", "C"][:max(2, min(game.players))] if min(game.players) > 1 else ["A"]
        checked = whole_options(game)
        assert checked, f"{name}: no whole-number option found to check"
        for option, least, most in checked:
            for value in (least - 1, most + 1, 10**40):
                with pytest.raises(IllegalMove) as err:
                    game.setup({"names": names, "options": {option: value}})
                assert option in str(err.value) and str(most) in str(err.value), (name, option, value)


def test_moves_and_tokens_over_their_bounds_are_refused(api, store):
    gid = api.post("/api/games", json={"seed": 1}).json()["id"]
    before = stored(store)
    view = api.get(f"/api/games/{gid}/view").json()
    move = view["moves"][0]["move"]
    big = {**move, "args": {**move["args"], "note": "x" * MAX_MOVE_BYTES}}
    refused(api.post(f"/api/games/{gid}/moves", json={"move": big}), 422, f"no move of any game takes more than {MAX_MOVE_BYTES}")
    # A key is compared and never stored: a long one is a wrong one, unread.
    refused(api.post(f"/api/games/{gid}/moves", json={"move": move}, headers=seat("t" * 10_000)), 403, "not valid")
    refused(api.get(f"/api/games/{gid}/view", headers=seat("t" * 10_000)), 403, "not valid")
    assert stored(store) == before
    assert api.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200


OBSERVATIONS = [
    ({"kind": "beams", "passes_in": 10**4000}, [f"at most {MAX_INT_DIGITS} digits"]),
    ({"kind": "beams", "passes_in": MAX_PASSES + 1}, [f"less than or equal to {MAX_PASSES}"]),
    ({"kind": "beams", "passes_out": MAX_PASSES + 1}, [f"less than or equal to {MAX_PASSES}"]),
    ({"appeared": ["red-short_can"] * (MAX_DRINKS + 1)}, [f"at most {MAX_DRINKS} items"]),
    ({"removed": ["red-short_can"] * (MAX_DRINKS + 1)}, [f"at most {MAX_DRINKS} items"]),
    ({"detail": {"notes": "x" * MAX_DETAIL_BYTES}}, [f"at most {MAX_DETAIL_BYTES}"]),
    ({"source": "x" * 1000}, ["'camera', 'sensors', 'sim' or 'person'"]),
]


@pytest.mark.parametrize("body, words", OBSERVATIONS, ids=[json.dumps(b)[:50] for b, _ in OBSERVATIONS])
def test_an_observation_over_a_bound_is_refused_and_nothing_is_stored(api, store, body, words):
    gid = api.post("/api/games", json={"seed": 2}).json()["id"]
    before = stored(store)
    refused(api.post(f"/api/games/{gid}/observations", json=body), 422, *words)
    assert stored(store) == before


def test_a_camera_report_of_a_full_tray_fits_the_detail():
    """The bound leaves room for what the camera really reports: every drink in the tray."""
    from companion.drinks import DRINK_IDS
    from companion.observation import Observation

    detection = {"id": "black-tall_bottle", "color": "black", "shape": "tall_bottle", "x": 1279.5, "y": 719.5,
                 "confidence": 0.987, "unsure": False, "why": "colour and outline agree"}
    detail = {"detections": [detection] * len(DRINK_IDS), "before": list(DRINK_IDS), "unsure": [],
              "notes": ["read twice: black-tall_bottle"]}
    Observation(source="camera", appeared=list(DRINK_IDS), detail=detail)


# --- the body as a whole, on the real server -----------------------------------------------------

def exchange(port: int, head: bytes, chunks, bound: float = 120.0) -> tuple[int, bytes, int]:
    """Send a request head, then body chunks for as long as the server reads them and has not
    answered; the status, the answer, and how many body bytes the server had taken by then."""
    sent, answer, pending = 0, b"", b""
    chunks = iter(chunks)
    deadline = time.monotonic() + bound
    with socket.create_connection(("127.0.0.1", port), timeout=bound) as s:
        s.sendall(head)
        s.setblocking(False)
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < 20:
            left = deadline - time.monotonic()
            assert left > 0, f"no answer within {bound} s after {sent} body bytes: {answer[:200]!r}"
            if not pending:
                pending = next(chunks, b"")
            readable, writable, _ = select.select([s], [s] if pending else [], [], left)
            if readable:
                try:
                    more = s.recv(65536)
                except ConnectionResetError:
                    more = b""
                if not more:
                    break
                answer += more
            elif writable:
                try:
                    n = s.send(pending)
                except (BrokenPipeError, ConnectionResetError):
                    pending = b""
                    continue
                sent, pending = sent + n, pending[n:]
    assert answer, f"the server closed the connection without an answer after {sent} body bytes"
    return int(answer.split(b" ", 2)[1]), answer, sent


def test_a_body_over_the_limit_is_refused_with_413_before_it_is_read_whole(tmp_path):
    with Server(tmp_path / "data") as server:
        # As the host (who may create games): refused for its size, not for who sent it.
        host = "".join(f"{name}: {value}\r\n" for name, value in server.headers().items())
        names = json.dumps({"names": ["A", "x" * 50_000_000, "C"]}).encode()  # the 50 MB name
        head = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{host}"
                f"Content-Length: {len(names)}\r\n\r\n").encode()
        status, answer, sent = exchange(server.port, head, (names[i:i + 65536] for i in range(0, len(names), 65536)))
        assert status == 413 and f"at most {MAX_BODY_BYTES} bytes".encode() in answer, answer[:400]
        assert b"declares" in answer and sent < len(names) // 10, f"{sent} of {len(names)} bytes were sent"

        # Chunked: no length declared, so the server counts, and stops at the limit.
        chunk = b"x" * 65536
        head = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{host}"
                f"Transfer-Encoding: chunked\r\n\r\n").encode()
        framed = (b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(200_000_000 // len(chunk)))
        status, answer, sent = exchange(server.port, head, framed)
        assert status == 413 and b"sent more than" in answer, answer[:400]
        # Of the 200 MB offered, the limit plus what the two sockets' buffers take (loopback buffers
        # grow to a few MB each on a busy machine: 5.3 MB were seen once) before the answer stops it.
        assert sent < 40 * MAX_BODY_BYTES, f"{sent} bytes were sent before the answer"

        # The server goes on, and nothing of either was stored.
        with server.client() as api:
            assert api.get("/api/games").json() == []
            r = api.post("/api/games", json={"names": ["A", "B", "C"]})
            assert r.status_code == 201, r.text
