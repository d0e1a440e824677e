"""The crate camera on the dashboard, in a real browser (issue 31's done-when): GRAPE SODA played to
the end by changing the simulated crates alone, and a YUZU move proposed from the crates.

The real `companion serve --crate-camera sim:1` in a process of its own: the simulated crate camera
renders the crates, the crate reader (vision/crates.py) reads every frame from the calibration it
made of the simulated calibration crate, the table settles the readings and proposes moves. The
test is the hands at the table (POST /api/sim/crates: a drink put in or taken out, a crate moved)
and the people, who confirm what the crates show on the host's tablet (Ben: on his phone).

GRAPE SODA with ``win_counts`` (1, ...): the first drink taken wins, so that the game ends after
four turns (a drink each, a step next to the other's, the jump that takes it) instead of the
dozens a game to five takes; every kind of GRAPE SODA move shows on the crates on the way: a whole
turn at once (a crate and a drink, two moves: the first is a question, as the camera does not
know yet which way round the empty square lies), a crate alone, a drink alone, a step, and the
winning jump (applied by the host's auto mode, without a tap).

Played twice (the fixture's params): ``reader``, the whole pipeline as above, and ``table``, the
same app served in this process with a reader that reads the simulated camera's truth: the
table's side and the dashboard alone.
"""
from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from urllib.error import HTTPError

import pytest
import uvicorn
from browser_support import call, shown, tap
from playwright.sync_api import expect
from server_support import HOST_KEYS, Server

from companion.server.app import create_app
from companion.sim.crate_camera import open_crate_camera
from companion.sim.table import SimTable
from companion.table.access import Access
from companion.table.store import EventStore
from tests.test_crate_device import TruthReader   # reads the simulated camera's truth, a quarter turn round

pytestmark = pytest.mark.browser

# crates read and settled, a move proposed: a few seconds alone. A bound, not a wait: the suite
# starts with this module while the rendered tables are still being built, and there the served
# reader's first reading once took over 30 s (56th session), so the bound is wide
REPLY_MS = 120_000
TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
ASKED = "[data-testid=crates-proposal], [data-testid=crates-question]"
# the truth reader sure of the red tall can's colour only, as the crate reader often is of a drink
DOUBTED = {"red-tall_can": ["red-tall_can", "red-short_can"]}


class InProcess:
    """The real app with the truth reader, served by uvicorn in a thread of this process."""

    def __init__(self, data: Path):
        self.store = EventStore(data)
        app = create_app(self.store, automation=SimTable(), crate_camera="sim:1", open_crate_camera=open_crate_camera,
                         make_crate_reader=lambda calibration: TruthReader(app.state.crate_device, doubt=DOUBTED))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"
        HOST_KEYS[self.url] = Access(self.store).host_key()

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        HOST_KEYS.pop(self.url, None)
        self.store.close()


# The whole pipeline (the reader on the rendered crates) is what the issue asks for. It runs in the
# suite since the 54th session: with the grid set right by the aligner and the game's crate count
# told (vision/crates.py ALIGN, COUNT_SLOTS) the moved crate is read surely and the game is played
# to the end; before, its fields were read with doubt and the turn was asked as the drink alone.


@pytest.fixture(scope="module", params=["reader", "table"])
def crate_server(request, tmp_path_factory):
    """``reader``: `companion serve --crate-camera sim:1`, the crate reader reading the rendered
    crates; ``table``: the same app in this process with the truth reader."""
    if request.param == "reader":
        with Server(tmp_path_factory.mktemp("crates") / "data", options=("--crate-camera", "sim:1")) as server:
            yield server
        return
    served = InProcess(tmp_path_factory.mktemp("crates-table") / "data")
    try:
        yield served
    finally:
        served.close()


def hands(base: str, **body) -> dict:
    """The simulated players' hands on the simulated crates (a refusal says why)."""
    body.setdefault("hand_frames", 2)
    try:
        return call(base, "POST", "/api/sim/crates", body)
    except HTTPError as exc:
        raise AssertionError(f"POST /api/sim/crates {body}: {exc.code} {exc.read().decode()}") from None


def crates_of(base: str, gid: str) -> dict:
    return call(base, "GET", f"/api/games/{gid}/crates")


def wait_for(page, base: str, gid: str, css: str, what: str) -> None:
    try:
        page.wait_for_selector(css, state="visible", timeout=REPLY_MS)
    except Exception:
        # the device's own counts too (frames read, given again, failed; the source; calibrated):
        # a run that once never matched the empty square at the suite's busy start (58th session)
        # showed only a view that had not changed since the start
        device = call(base, "GET", "/api/devices")["crate_camera"]
        raise AssertionError(f"{what}: the crate camera says {crates_of(base, gid)}; its device: {device}") from None


def as_set(moves: list[dict]) -> set:
    return {(m["kind"], tuple(sorted(m["args"].items()))) for m in moves}


def confirm(page, base: str, gid: str, moves: list[dict], changes: list[dict]) -> dict:
    """Change the crates as ``moves`` do, wait for the page to ask, answer with those moves."""
    seq = call(base, "GET", f"/api/games/{gid}/view")["seq"]
    hands(base, changes=changes)
    wait_for(page, base, gid, ASKED, f"no proposal for {moves} after the crates changed by {changes}")
    cc = crates_of(base, gid)
    options = [c["moves"] for c in cc["candidates"]] if cc["candidates"] else [cc["proposal"]["moves"]]
    pick = next((i for i, c in enumerate(options) if as_set(c) == as_set(moves)), None)
    assert pick is not None, f"{moves} is not among {options}"
    button = f"crates-pick-{pick}" if cc["candidates"] else "crates-confirm"
    with page.expect_response(lambda r: r.request.method == "POST" and "/crates/confirm" in r.url) as res:
        tap(page, button)
    assert res.value.ok, f"confirm {moves}: {res.value.status} {res.value.text()}"
    view = res.value.json()["view"]
    assert view["seq"] == seq + len(moves)
    shown(page, view["seq"])
    return cc


def test_grape_soda_played_to_the_end_by_the_crates(crate_server, browser):
    base = crate_server.url
    created = call(base, "POST", "/api/games", {"game": "grape_soda", "names": ["Aki", "Ben"], "simulated": True,
                                                "seed": 1, "options": {"win_counts": [1]}})
    gid = created["id"]
    page = browser.new_page(viewport=TABLE_SIZE)
    page.goto(f"{base}/?game={gid}")
    wait_for(page, base, gid, "[data-testid=crates-matches]", "the empty square never matched")
    expect(page.get_by_test_id("crates-state")).to_have_attribute("data-state", "reading")

    # Aki: a crate and a drink in one go; the camera does not know the square's way round yet
    first = confirm(page, base, gid, [
        {"kind": "place", "player": 0, "args": {"drink": "purple-short_can", "x": 1, "y": 1}},
        {"kind": "move_crate", "player": 0, "args": {"crate": 5, "x": 6, "y": 0}}],
        [{"kind": "put", "field": "1,1", "drink": "purple-short_can"}, {"kind": "move", "crate": 5, "x": 6, "y": 0}])
    assert first["candidates"], "the empty square turned half round looks the same: a question"
    wait_for(page, base, gid, "[data-testid=crates-matches]", "the crates never matched Aki's turn")
    # Ben, on his phone: the crate first, then the drink (each settles and is proposed on its own)
    phone = browser.new_page(host=False, viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    phone.goto(created["players"][1]["url"])
    confirm(phone, base, gid, [{"kind": "move_crate", "player": 1, "args": {"crate": 5, "x": 4, "y": 3}}],
            [{"kind": "move", "crate": 5, "x": 4, "y": 3}])
    asked = confirm(phone, base, gid, [{"kind": "place", "player": 1, "args": {"drink": "red-tall_can", "x": 3, "y": 1}}],
                    [{"kind": "put", "field": "3,1", "drink": "red-tall_can"}])
    if isinstance(crate_server, InProcess):
        # the camera sure of a red drink, not of its shape: a question of the two, and the
        # dashboard names the field's choices
        assert list(asked["choices"].values()) == [DOUBTED["red-tall_can"]]
        assert sorted(c["moves"][0]["args"]["drink"] for c in asked["candidates"]) == ["red-short_can", "red-tall_can"]
        expect(page.get_by_test_id("crates-choices")).to_have_attribute("data-n", "1")
    # Aki steps next to Ben's can (and moves the crate back)
    confirm(page, base, gid, [
        {"kind": "move_crate", "player": 0, "args": {"crate": 5, "x": 6, "y": 0}},
        {"kind": "step", "player": 0, "args": {"fx": 1, "fy": 1, "tx": 2, "ty": 1}}],
        [{"kind": "move", "crate": 5, "x": 6, "y": 0}, {"kind": "take", "field": "1,1"},
         {"kind": "put", "field": "2,1", "drink": "purple-short_can"}])
    # Ben jumps over it: the host's auto mode makes the move without a tap, and Ben has won
    with page.expect_response(lambda r: "/crates/auto" in r.url) as res:
        tap(page, "crates-auto")
    assert res.value.ok
    hands(base, changes=[{"kind": "take", "field": "3,1"}, {"kind": "take", "field": "2,1"},
                         {"kind": "put", "field": "1,1", "drink": "red-tall_can"}])
    deadline = time.monotonic() + REPLY_MS / 1000
    while not call(base, "GET", f"/api/games/{gid}/view")["over"] and time.monotonic() < deadline:
        time.sleep(0.2)
    view = call(base, "GET", f"/api/games/{gid}/view")
    assert view["over"] and view["state"]["winners"] == [1], crates_of(base, gid)
    assert view["state"]["players"][1]["taken"] == ["purple-short_can"]
    moves = [r for r in call(base, "GET", f"/api/games/{gid}/log.jsonl", raw=True).splitlines()[1:]]
    assert len(moves) == 7 and all('"by": "crates"' in m for m in moves)
    assert '"confirmed": "auto"' in moves[-1] and '"confirmed": "table"' in moves[0]
    assert '"confirmed": "seat 1"' in moves[2] and '"confirmed": "seat 1"' in moves[3]


# The crate reader doubts the heights of a crate full of tall drinks (the turned crate holds tall
# cans, the one beside it bottles): the drinks swapped by the turn are read with doubt and match
# what the game had, so nothing is proposed. Played with the truth reader alone until the heights
# hold (issue 31).
@pytest.mark.parametrize("crate_server", ["table"], indirect=True)
def test_a_yuzu_crate_turned_is_proposed(crate_server, browser):
    base = crate_server.url
    page = browser.new_page(viewport=TABLE_SIZE)
    # YUZU: the crates start sorted by shape; the hands copy the new game's crates, then turn one
    yuzu = call(base, "POST", "/api/games", {"game": "yuzu", "names": ["Aki", "Ben"], "simulated": True, "seed": 1})
    yid = yuzu["id"]
    hands(base, follow_game=True)
    page.goto(f"{base}/?game={yid}")
    wait_for(page, base, yid, "[data-testid=crates-matches]", "YUZU's crates never matched")
    confirm(page, base, yid, [{"kind": "move_crate", "player": 0, "args": {"crate": 5, "x": 4, "y": 3, "quarters": 2}}],
            [{"kind": "move", "crate": 5, "x": 4, "y": 3, "turn": 2}])
    assert call(base, "GET", f"/api/games/{yid}/view")["state"]["phase"] == "swap"
