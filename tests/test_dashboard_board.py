"""The board camera on the dashboard, in a real browser (issue 29's done-when): a four-player
TOKYO METRO game played by changing the simulated board alone.

The real `companion serve --board-camera sim` in a process of its own; the host's tablet (the
table view) and Ben's phone (seat 1). The test plays the people at the table through the first
round, the train phase included: for every move that shows on the board it works out the board
after the move with the rules engine (the game's records folded, the move applied, ``on_board``)
and changes the simulated board to that (POST /api/sim/board), as hands would; the board camera
reads it, the dashboard proposes the move (or asks which, when two cards offer the same action),
and the player confirms it: Ben on his phone, the others on the tablet. What shows on the board:
meeples placed, stations built (a pyramid), a train started (the train at its first stop and the
line's value marker up the revenue track), a share bought (the value marker up), the trains run
(trains moved, a value marker moved by a station's payout), meeples boarding a train (beside the
revenue track, the fare on the value) and getting off it. Moves that never show on the board are
tapped as usual: the bids (secret; the bids of the phones the test does not open go through the
API with those seats' keys), the passes and a seat's start of the train phase when no train is on
the board; the share cards themselves lie beside the board (their purchase shows only as the
value marker). On the way: a proposal seen on a phone whose move it is not (no buttons; the panel
fits the phone), dismissed on the tablet and then tapped; a knock that moves pieces, caught by
the "board vs game" list (each difference in words, its place lit on the map) and put right; a
move made on the dashboard whose "to do on the board" list is then done on the simulated board
and ticked off; the auto mode; the feed saying who confirmed the board's moves; the host's
picture; the panel in German and Japanese.

The board camera runs at a test's pace (BOARD_PACE: `--board-fps`, `--board-settle-s`) and the
hands pass in HAND_FRAMES frames: the same readings, settling and proposals, in less time.
"""
from __future__ import annotations

import json
import re
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from urllib.error import HTTPError

import pytest
from browser_support import assert_fits, call, move_testid, shown, tap, wait_until
from playwright.sync_api import expect
from server_support import Server

import game_night

from companion.rules.engine import Move
from companion.rules.metro.pieces import on_board
from companion.table.log import fold
from companion.table.store import EventStore

pytestmark = pytest.mark.browser

SHOWN_JS = "css => [...document.querySelectorAll(css)].some(el => el.getClientRects().length > 0)"
REPLY_MS = 20_000  # a board read and settled, a move proposed: about a second (far more on a busy machine)
TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
NAMES = ["Aki", "Ben", "Chie", "Dai"]
PHONE_SEAT = 1
COLOURS = ("red", "blue", "yellow", "green", "purple")  # seat 0..4 (companion/board_pieces.py)
SEED = 3
MAX_STEPS = 80
ASKED = "[data-testid=board-proposal], [data-testid=board-question]"   # a proposal, or a question
MATCHES = "[data-testid=board-matches]"
# The board camera's pace (`companion serve --board-fps --board-settle-s`): read twice as often
# as by default and settled over half the time (three readings in a row still), so a hand's
# change is proposed in about a second instead of two; what is proposed and checked is the same.
BOARD_PACE = ("--board-fps", "8", "--board-settle-s", "0.3")
HAND_FRAMES = 2   # a hand over the board in two frames as it changes pieces (reaching in, drawing back)


@pytest.fixture(scope="module")
def board_server(tmp_path_factory):
    """`companion serve --board-camera sim`: the simulated board camera over a rendered board."""
    with Server(tmp_path_factory.mktemp("board") / "data", options=("--board-camera", "sim", *BOARD_PACE)) as server:
        yield server


# --- the board a state shows, and the hands that make it so ---------------------------------------

def folded(data: Path, gid: str):
    """The game as its log folds (the rules engine's state). The log route gives it out once the
    game is over (it holds the secret cards): the table's store is read instead, read-only, as
    the host's machine holds it."""
    with closing(sqlite3.connect(f"file:{data / EventStore.FILE_NAME}?mode=ro", uri=True, timeout=30)) as con:
        game, config = con.execute("SELECT game, CAST(config AS BLOB) FROM games WHERE id=?", (gid,)).fetchone()
        rows = con.execute("SELECT CAST(body AS BLOB) FROM records WHERE game_id=? ORDER BY seq", (gid,)).fetchall()
    return fold(game, json.loads(bytes(config)), [json.loads(bytes(body)) for (body,) in rows])


def pieces_by_colour(state) -> dict:
    """on_board(state) with seats as the colours on the board."""
    b = on_board(state)
    return {"pyramids": {sid: COLOURS[seat] for sid, seat in b["pyramids"].items()},
            "meeples": {COLOURS[seat]: place for seat, place in b["meeples"].items()},
            "trains": dict(b["trains"]), "values": dict(b["values"])}


def changes(before: dict, after: dict) -> list[dict]:
    """What hands change on the board to go from ``before`` to ``after``, piece by piece."""
    out = []
    for piece, group in (("pyramid", "pyramids"), ("meeple", "meeples"), ("train", "trains"), ("value", "values")):
        for key in sorted(set(before[group]) | set(after[group])):
            if before[group].get(key) != after[group].get(key):
                out.append({"piece": piece, "key": key, "to": after[group].get(key)})
    return out


def board_after(data: Path, gid: str, move: dict) -> tuple[list[dict], dict]:
    """The pieces that change when ``move`` is made now, and the board after it."""
    f = folded(data, gid)
    state, _ = f.game.apply(f.state, Move.from_json(move))
    before, after = pieces_by_colour(f.state), pieces_by_colour(state)
    return changes(before, after), after


def sim(base: str, **body) -> dict:
    """The simulated players' hands on the simulated board (a refusal says why)."""
    body.setdefault("hand_frames", HAND_FRAMES)
    try:
        return call(base, "POST", "/api/sim/board", body)
    except HTTPError as exc:
        raise AssertionError(f"POST /api/sim/board {body}: {exc.code} {exc.read().decode()}") from None


def board_state(base: str, gid: str) -> dict:
    return call(base, "GET", f"/api/games/{gid}/board")


def panel_text(page) -> str:
    """What the board camera's panel says on a page (for a failure's message)."""
    return page.evaluate("""() => { const el = document.querySelector('[data-testid=board-camera]');
      const app = document.getElementById('app');
      return `view ${app.dataset.seq} rev ${app.dataset.rev}: ` + (el ? el.innerText : 'no panel'); }""")


def appears(page, css: str) -> None:
    """Wait until an element ``css`` selects shows on ``page``, looking every 50 ms (``wait_until``;
    ``expect`` looks only every half second once it has waited a while: up to half a second lost
    per board change), then ``expect`` it visible."""
    wait_until(page, SHOWN_JS, f"{css} to show", arg=css, timeout_ms=REPLY_MS)
    expect(page.locator(css).first).to_be_visible()


def shows(page, css: str, base: str, gid: str, what: str) -> None:
    """Wait for an element ``css`` selects on ``page``; a failure says ``what`` and what the board
    camera and the page said."""
    try:
        appears(page, css)
    except AssertionError:
        raise AssertionError(f"{what}: the board camera says {board_state(base, gid)}; the page shows "
                             f"{panel_text(page)!r}") from None


class Table:
    """The game, its pages and the people at the table."""

    def __init__(self, server: Server, gid: str, table, phone, tokens: list[str]):
        self.base, self.data, self.gid = server.url, server.data, gid
        self.table, self.phone, self.tokens = table, phone, tokens
        self.by_board = self.tapped = self.questions = self.on_phone = 0
        self.log: list[str] = []   # each move: its kind, and how it was made
        self.kinds: set[str] = set()   # the kinds of move made on the board

    def view(self, seat: int | None = None) -> dict:
        return call(self.base, "GET", f"/api/games/{self.gid}/view", token=None if seat is None else self.tokens[seat])

    def page_of(self, seat: int):
        return self.phone if seat == PHONE_SEAT else self.table

    def post(self, seat: int, move: dict) -> dict:
        """A move from a seat's own phone that the test does not open (a secret bid)."""
        try:
            return call(self.base, "POST", f"/api/games/{self.gid}/moves", {"move": move}, token=self.tokens[seat])
        except HTTPError as exc:
            raise AssertionError(f"{move}: {exc.code} {exc.read().decode()}") from None

    def tap_move(self, seat: int, move: dict) -> dict:
        """Tap a move on the seat's page; wait for the table. Answers the view after it."""
        page = self.page_of(seat)
        testid = move_testid(move)
        shown(page, self.view(seat if page is self.phone else None)["seq"])
        if not page.get_by_test_id(testid).count() and "card" in move["args"]:
            tap(page, f"group-{move['args']['card']}-{move['args']['action']}")
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith("/moves")) as res:
            tap(page, testid)
        assert res.value.ok, f"{testid}: {res.value.status} {res.value.text()}"
        view = res.value.json()["view"]
        shown(self.table, view["seq"])
        self.tapped += 1
        self.log.append(f"{move['kind']} tapped")
        return view

    def play(self, move: dict) -> dict:
        """Make ``move`` the way the table makes it: on the board when it changes the board (the
        player confirms the proposal), else tapped (a bid, a pass)."""
        if board_after(self.data, self.gid, move)[0]:
            return self.by_hands(move)
        return self.tap_move(move["player"], move)

    def by_hands(self, move: dict) -> dict:
        """Make ``move`` on the simulated board; wait for the dashboard to propose it and confirm
        it on the mover's page (the tablet for everyone but Ben). Answers the view after it."""
        seat = move["player"]
        page = self.page_of(seat)
        setting, _ = board_after(self.data, self.gid, move)
        assert setting, f"{move} changes nothing on the board"
        before = self.view()["seq"]
        sim(self.base, set=setting)
        t_set = time.monotonic()
        # A proposal, or a question when several moves explain the board (the same station built
        # with either of two cards): the person picks the one they made.
        asked = page.locator(ASKED)
        shows(page, ASKED, self.base, self.gid, f"no proposal for {move} after the board was set {setting}")
        t_asked = time.monotonic() - t_set
        bc = board_state(self.base, self.gid)
        expect(asked).to_have_attribute("data-proposal", bc["proposal"]["id"])
        if bc["candidates"] and len(bc["candidates"]) > 1:
            pick = next(i for i, c in enumerate(bc["candidates"]) if c["moves"] == [move])
            button = f"board-pick-{pick}"
            expect(page.get_by_test_id(f"board-candidate-{pick}")).to_contain_text(move["args"].get("card", ""))
            self.questions += 1
        else:
            assert bc["proposal"]["moves"] == [move], (move, bc)
            button = "board-confirm"
        with page.expect_response(lambda r: r.request.method == "POST" and "/board/confirm" in r.url) as res:
            tap(page, button)
        assert res.value.ok, f"confirm {move}: {res.value.status} {res.value.text()}"
        after = self.view()
        assert after["seq"] > before, f"confirming {move} made no move"
        shown(self.table, after["seq"])
        self.by_board += 1
        self.on_phone += page is self.phone
        self.kinds.add(move["kind"])
        # (the server's clock is the same monotonic clock: how long the board camera took, and the page)
        self.log.append(f"{move['kind']} by the board{' (a question)' if button != 'board-confirm' else ''}"
                        f"{' on the phone' if page is self.phone else ''}: proposed "
                        f"{bc['proposal']['proposed_at'] - t_set:.1f} s after the hands, shown {t_asked:.1f} s: "
                        f"{setting}")
        return after


# --- what each person does ------------------------------------------------------------------------

def field_move(view: dict, moves: list[dict]) -> dict:
    """A place or walk onto a field touching a station nobody has built on (else the first)."""
    board = view["state"]["board"]
    cols = board["grid"]["cols"]
    built = {p["station"] for p in view["state"]["pyramids"]}
    free = {tuple(f) for s in board["stations"] if s["id"] not in built for c in s["circles"] for f in c["fields"]}
    here = {tuple(p["meeple"]) for p in view["state"]["players"] if p["meeple"]}
    fields = [m for m in moves if (m["args"]["field"] % cols, m["args"]["field"] // cols) not in here]
    return next((m for m in fields if (m["args"]["field"] % cols, m["args"]["field"] // cols) in free),
                (fields or moves)[0])


# The actions the players take, in the order the test has each taken once (a kind not taken yet
# first), each of them seen on the board: a station built (a pyramid), a train started (the train
# at its first stop, the line's value marker up the revenue track), a share bought (the value
# marker up; the train placed when it was not yet). Then they pass (a tap: nothing changes on the
# board). Speculating, tokens, loans and private cards never show on the board: not taken here.
BOARD_ACTIONS = ("station", "start", "invest")
RUN_STOPS = 5   # the stops a train moves in the train phase (no tempo token on its line)


def paying_first(view: dict, moves: list[dict]) -> list[dict]:
    """``moves`` with those first whose line's train, run from its first stop, passes a station
    with a pyramid (the run moves its value marker too)."""
    board = view["state"]["board"]
    built = {p["station"] for p in view["state"]["pyramids"]}
    station_of = {c["id"]: s["id"] for s in board["stations"] for c in s["circles"]}
    paying = {line["letter"] for line in board["lines"]
              if any(station_of.get(stop["circle"]) in built for stop in line["stops"][1:RUN_STOPS + 1])}
    return sorted(moves, key=lambda m: m["args"].get("line") not in paying)


def action_move(view: dict, moves: list[dict], made: set) -> dict:
    """An action that shows on the board of a kind not taken yet (BOARD_ACTIONS; a train that pays
    when it runs first), else pass."""
    seat = moves[0]["player"]
    money = view["state"]["players"][seat]["yen"]
    costs = {move_testid(m["move"]): m.get("cost", 0) for m in view["moves"]}
    fit = [m for m in moves if m["kind"] in BOARD_ACTIONS and m["kind"] not in made
           and not m["args"].get("discounts") and costs.get(move_testid(m), 0) <= money - 300]
    for kind in BOARD_ACTIONS:
        found = paying_first(view, [m for m in fit if m["kind"] == kind])
        if found:
            return found[0]
    return next(m for m in moves if m["kind"] == "pass")


def stop_move(moves: list[dict], boarded: bool) -> dict:
    """At a train's stop: a rider gets off when it may; one meeple boards the train (it rides
    beside the revenue track), the others let it go."""
    for kind in ("alight", *(() if boarded else ("board",)), "ride_on", "skip"):
        for m in moves:
            if m["kind"] == kind:
                return m
    raise AssertionError(f"no decision at the stop among {moves}")


def test_a_metro_game_played_on_the_simulated_board(board_server, browser):
    started = time.monotonic()
    base = board_server.url
    created = call(base, "POST", "/api/games", {"game": "tokyo_metro", "names": NAMES, "simulated": True, "seed": SEED})
    gid = created["id"]
    tokens = [p["url"].split("token=")[1] for p in created["players"]]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    phone = browser.new_page(host=False, viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    for name, page in (("table", table), ("phone", phone)):
        page.on("pageerror", lambda err, name=name: errors.append(f"{name}: {err}"))
        page.on("console", lambda msg, name=name: errors.append(f"{name}: {msg.text}")
                if msg.type == "error" and "board-camera.jpg" not in (msg.location or {}).get("url", "") else None)
    table.goto(f"{base}/?game={gid}")
    phone.goto(created["players"][PHONE_SEAT]["url"])
    game = Table(board_server, gid, table, phone, tokens)

    # The board camera's panel on both pages; its state in words; the host's picture of the board.
    for page in (table, phone):
        expect(page.get_by_test_id("board-camera")).to_be_visible()
        expect(page.get_by_test_id("board-state")).not_to_be_empty()
    expect(table.get_by_test_id("board-simulated")).to_be_visible()
    expect(table.get_by_test_id("board-picture")).to_be_visible()
    expect(phone.get_by_test_id("board-picture")).to_be_hidden()
    sim(base, follow_game=True)  # the board laid out as the game begins
    appears(table, MATCHES)

    knocked = todo_done = dismissed = auto_done = False
    made: set = set()
    first_round = None
    for _ in range(MAX_STEPS):
        view = game.view()
        st = view["state"]
        first_round = first_round or st["round"]
        if st["round"] > first_round and knocked and todo_done:
            break
        pending = {}
        for seat in range(len(NAMES)):
            mine = [m["move"] for m in game.view(seat)["moves"]]
            if mine:
                pending[seat] = mine
        assert pending, f"round {st['round']}, phase {st['phase']}: nobody to move"
        seat, moves = next(iter(pending.items()))
        kinds = {m["kind"] for m in moves}
        if "bid" in kinds:
            for s, ms in pending.items():  # every seat bids at once, secretly, on its own phone
                low = min((m for m in ms if m["kind"] == "bid"), key=lambda m: m["args"]["amount"])
                if s == PHONE_SEAT:
                    game.tap_move(s, low)
                else:
                    game.post(s, low)
            continue
        if kinds & {"place", "walk"}:
            move = field_move(view, [m for m in moves if m["kind"] in ("place", "walk")])
            if not dismissed and seat != PHONE_SEAT:
                # The board shows Aki's (or another's) move: Ben's phone shows the proposal without
                # buttons, fitting the phone. Dismissed on the tablet, the board's differences show
                # instead; the move is then tapped (the board shows it already): they match.
                setting, _ = board_after(board_server.data, gid, move)
                sim(base, set=setting)
                appears(phone, "[data-testid=board-proposal]")
                expect(phone.get_by_test_id("board-wait")).to_contain_text(NAMES[seat])
                expect(phone.get_by_test_id("board-confirm")).to_have_count(0)
                assert_fits(phone, "the board camera's proposal on the phone")
                game_night.screenshot(phone, "board-proposal", full_page=False)
                expect(table.get_by_test_id("board-proposal")).to_contain_text(NAMES[seat])
                tap(table, "board-dismiss")
                expect(table.get_by_test_id("board-proposal")).to_have_count(0, timeout=REPLY_MS)
                expect(table.get_by_test_id("board-diffs")).to_be_visible()
                game.tap_move(seat, move)
                appears(table, MATCHES)
                dismissed = True
                continue
            if not auto_done and seat != PHONE_SEAT:
                # The host's auto mode: a move the board shows that one legal move explains is made
                # at once, no tap; the feed says so. Then off again. (Ben's meeple is placed on the
                # board and confirmed on his phone.)
                panel = table.get_by_test_id("board-camera")
                tap(table, "board-auto")
                expect(panel).to_have_attribute("data-auto", "true")
                sim(base, set=board_after(board_server.data, gid, move)[0])
                wait_until(table, "n => Number(document.getElementById('app').dataset.seq) > n",
                           "the auto mode to make the move the board shows", arg=view["seq"], timeout_ms=REPLY_MS)
                after = game.view()
                entry = max(after["feed"], key=lambda e: e["seq"])
                assert entry["confirmed"] == "auto" and entry["move"] == move, entry
                expect(table.get_by_test_id(f"feed-{entry['seq']}").get_by_test_id("feed-confirmed")).to_contain_text(
                    "auto mode")
                tap(table, "board-auto")
                expect(panel).to_have_attribute("data-auto", "false")
                game.by_board += 1
                game.kinds.add(move["kind"])
                game.log.append(f"{move['kind']} by the board, made by the auto mode")
                auto_done = True
                continue
            if not todo_done and seat != PHONE_SEAT and auto_done:
                # A move made on the dashboard: the board camera lists what to do on the board
                # (its place lit on the map); done there, the item is ticked off.
                cols = st["board"]["grid"]["cols"]
                col, row = move["args"]["field"] % cols, move["args"]["field"] // cols
                setting, _ = board_after(board_server.data, gid, move)
                was = pieces_by_colour(folded(board_server.data, gid).state)["meeples"].get(COLOURS[seat])
                after = game.tap_move(seat, move)
                # (the simulated players copy it onto the board by themselves 1.5 s later: the view
                # the tap answered says what was to do then)
                assert after["board_camera"]["cause"] == "dashboard", after["board_camera"]
                assert {"piece": "meeple", "key": COLOURS[seat], "game": f"field:{move['args']['field']}",
                        "board": was} in after["board_camera"]["differences"], (
                    after["board_camera"], [(e.get("by"), e.get("confirmed"), e.get("move")) for e in after["feed"]])
                appears(table, "[data-testid=board-todo]")
                item = table.get_by_test_id(f"board-todo-meeple-{COLOURS[seat]}")
                expect(item).to_contain_text(f"the {COLOURS[seat]} meeple")
                expect(item).to_contain_text(f"{col}·{row}")
                item.hover()
                expect(table.get_by_test_id("map-highlight")).to_have_attribute("data-field", f"{col},{row}")
                sim(base, set=setting)
                appears(table, f"[data-testid=board-todo-meeple-{COLOURS[seat]}][data-done=true]")
                expect(item).to_have_attribute("data-done", "true")
                expect(table.get_by_test_id("board-matches")).to_be_visible()
                todo_done = True
                continue
            game.play(move)
            continue
        if "run_trains" in kinds:  # the trains run: moved on the board (a tap when none is on it)
            game.play(next(m for m in moves if m["kind"] == "run_trains"))
            continue
        if kinds & {"skip", "ride_on", "board", "alight"}:
            game.play(stop_move(moves, "board" in game.kinds))
            continue
        move = action_move(view, moves, made)
        if move["kind"] in BOARD_ACTIONS:
            made.add(move["kind"])
        game.play(move)
        if move["kind"] in BOARD_ACTIONS and not knocked:
            knock(game)
            knocked = True
    else:
        pytest.fail(f"the round did not end in {MAX_STEPS} steps")
    assert game.by_board >= 5 and game.on_phone >= 2 and knocked and todo_done and dismissed and auto_done, (
        game.by_board, game.on_phone, knocked, todo_done, dismissed, auto_done)
    # Every kind of move that shows on the board was made on it: meeples placed, a station built, a
    # train started, a share bought, the trains run (a value marker moved by a station's payout),
    # meeples boarding the train (beside the revenue track) and getting off it.
    assert {"place", *BOARD_ACTIONS, "run_trains", "board", "alight"} <= game.kinds, (game.kinds, game.log)

    # What happened says which moves the board camera saw, and who confirmed them.
    game_night.open_feed(table)
    expect(table.get_by_test_id("feed-confirmed").first).to_contain_text("seen by the board camera, confirmed by")

    # The host's picture of the board.
    expect(table.get_by_test_id("board-image")).to_have_attribute("data-state", "ok")
    # In German and Japanese too: every word from the catalogues.
    for lang, title in (("de", "Die Brettkamera"), ("ja", "ボードカメラ")):
        tap(table, f"lang-{lang}")
        expect(table.get_by_test_id("board-camera")).to_contain_text(title)
        raw = table.get_by_test_id("board-camera").inner_text()
        assert "metro.board." not in raw and not re.search(r"\{[a-z_]+\}", raw), raw
    tap(table, "lang-en")
    assert not errors, errors
    print(f"board game: {game.by_board} moves by the board ({game.on_phone} on the phone, {game.questions} questions), "
          f"{game.tapped} taps, {time.monotonic() - started:.1f} s")
    print("\n".join(game.log))


def knock(game: Table) -> None:
    """Someone knocks the board: pieces move. The "board vs game" list says each difference in
    words and lights its place on the map; the hands put the board right."""
    table, base, gid = game.table, game.base, game.gid
    knocked = sim(base, knock=True)["knocked"]
    assert knocked, "a knock that moved nothing"
    diffs = table.get_by_test_id("board-diffs")
    shows(table, f"[data-testid=board-diffs], {ASKED}", base, gid, f"the knock {knocked} was not caught")
    if not diffs.count():
        # A meeple knocked a field on may look like a walk somebody made: nobody did, it is dismissed.
        tap(table, "board-dismiss")
        appears(table, "[data-testid=board-diffs]")
    expect(table.get_by_test_id("board-camera")).to_have_attribute("data-cause", "board")
    listed = board_state(base, gid)["differences"]
    assert listed, "a knock that moved nothing"
    first = listed[0]
    item = table.get_by_test_id(f"board-diff-{first['piece']}-{first['key']}")
    expect(item).to_be_visible()
    expect(item).not_to_contain_text("None")
    item.hover()
    light = table.get_by_test_id("map-highlight")
    expect(light).to_have_count(1)
    game_night.screenshot(table, "board-vs-game")
    expect(game.phone.get_by_test_id("board-diffs")).to_be_visible()
    assert_fits(game.phone, "the board-vs-game list on the phone")
    if first["piece"] == "pyramid":
        expect(light).to_have_attribute("data-station", first["key"])
    sim(base, follow_game=True)
    appears(table, MATCHES)
    expect(diffs).to_have_count(0)
