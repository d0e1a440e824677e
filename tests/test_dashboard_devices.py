"""The table's devices on the dashboard, in a real browser (Debian's Chromium via Playwright),
against the real `companion serve` with its devices chosen by its options.

- With the simulated camera and the simulated sensor board (a real serial link over a pty), a
  round of POCARI BET is played on the table view up to the throw: the devices panel shows the
  camera working and the board connected with its firmware, the live camera picture loads and
  keeps refreshing, the throw is read by the devices ("Reading the tray…"): the camera reads the
  drop and the beams count it, and the page shows the drop's result with its beam counts, or a
  question that a person settles with the correction list, after which the round moves on.
- Without devices: the panel says there is no camera and no board, and the game goes by hand.
- A question carrying camera detections (made deterministic by posting the observation): each
  drink with its confidence and unsure mark, swapped, added, removed, confirmed as the drop move;
  and dismissed. In English and German, at 390 px.
- A lost camera (a camera that cannot be opened), a refused board (one that speaks another protocol
  version), a camera that sees only a dark frame, a board with a drink in its beam, and a board that
  stops talking: the server in each of those states, each said plainly, with how the game goes on.
"""
from __future__ import annotations

import json
import re
import time
import urllib.error
from pathlib import Path

import cv2
import numpy as np
import pytest
from browser_support import (REPLY_MS, call, for_a_person, pick_testid, pocari_with_computers, shown, tap, tap_and_wait,
                             to_the_drop, wait_until)
from playwright.sync_api import expect
from server_support import SIM_PROFILE, Server

from companion.sensors.simboard import SimBoard
from companion.table.store import EventStore

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
SHOTS = Path("/tmp")  # screenshots of the panel, for a person to look at


@pytest.fixture
def sim_server(tmp_path):
    """The simulated camera and board; the store's folder too, to read what was recorded."""
    with Server(tmp_path / "data", camera="sim", serial="sim") as server:
        yield server.url, tmp_path / "data"


@pytest.fixture(scope="module")
def plain_url(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("plain") / "data", camera="none", serial="none") as server:
        yield server.url


def watch(page, name: str, errors: list[str], allow: tuple[str, ...] = ()) -> None:
    page.on("pageerror", lambda err: errors.append(f"{name}: {err}"))
    page.on("response", lambda r: errors.append(f"{name}: {r.status} {r.url}")
            if r.status >= 400 and not any(a in f"{r.status}" for a in allow) else None)
    page.on("console", lambda msg: errors.append(f"{name}: {msg.text}")
            if msg.type == "error" and not any(a in msg.text for a in allow) else None)


new_game = pocari_with_computers




def check_layout(page, what: str, selector: str) -> None:
    """No sideways scrolling; every tappable thing under `selector` a real touch target."""
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"{what}: horizontal scroll ({width[0]} > {width[1]} px)"
    small = page.evaluate("""sel => [...document.querySelectorAll(sel)]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.dataset.testid || e.className || e.tagName, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n} ${r.width}x${r.height}`)""", selector)
    assert not small, f"{what}: smaller than a 44 px touch target: {small[:4]}"


TAPPABLE = ("#app button, #app summary")


def no_raw_keys(page, what: str) -> None:
    """Every word through the catalogue: no key of the devices' block shown as is."""
    raw = page.evaluate(r"(document.body.textContent.match(/\b(?:dev|fix)\.[A-Za-z_.]+|\{[a-z_]+\}/) || [null])[0]")
    assert raw is None, f"{what}: {raw!r} shown as is"


def drinks_in(page, testid: str) -> list[str]:
    svgs = page.locator(f"[data-testid={testid}] svg[data-drink]")
    return [svgs.nth(i).get_attribute("data-drink") for i in range(svgs.count())]


# --- the simulated camera and sensor board ------------------------------------------------------

def test_devices_read_a_throw(sim_server, browser):
    base, data = sim_server
    game = new_game(base, seed=7)
    gid = game["id"]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    table.goto(f"{base}/?game={gid}")

    # The devices panel: the camera works (simulated), the board is connected with its firmware.
    # (The first frames and the board's greeting may take the busy server some seconds.)
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "ok", timeout=REPLY_MS)
    expect(table.get_by_test_id("camera-simulated")).to_be_visible()
    expect(table.get_by_test_id("sensors-state")).to_have_attribute("data-state", "connected", timeout=REPLY_MS)
    expect(table.get_by_test_id("sensors-firmware")).to_have_attribute("data-firmware", "1.0.0")
    expect(table.get_by_test_id("sensors-firmware")).to_contain_text("1.0.0")
    expect(table.get_by_test_id("sensors-heartbeat")).to_contain_text(re.compile(r"heartbeat [\d.]+ s ago"))
    for beam in ("in", "out"):
        expect(table.get_by_test_id(f"beam-{beam}")).to_have_attribute("data-blocked", re.compile("true|false"))
    expect(table.get_by_test_id("simulated-banner")).to_contain_text("simulated camera and sensor board")
    assert table.get_by_test_id("devices-byhand").count() == 0  # nothing is lost

    # The live picture loads, and keeps being refreshed (a new picture after the first).
    wait_until(table, """() => { const i = document.querySelector('[data-testid=camera-image]');
        return i && i.complete && i.naturalWidth > 0 && i.dataset.state === 'ok'; }""", "the camera picture to load")
    first = table.get_by_test_id("camera-image").get_attribute("data-ts")
    wait_until(table, """ts => { const i = document.querySelector('[data-testid=camera-image]');
        return i.dataset.ts !== ts && i.complete && i.naturalWidth > 0; }""", "a newer camera picture", first)
    assert table.evaluate("document.querySelector('[data-testid=camera-image]').src").startswith(f"{base}/api/camera.jpg?ts=")

    # Seat 0 plays on the table view up to the throw; the computers play at once.
    for _ in range(30):
        view = call(base, "GET", f"/api/games/{gid}/view")
        if view["chance"] and view["chance"]["kind"] == "drop":
            break
        shown(table, view["seq"])
        tap_and_wait(table, pick_testid(view))
    else:
        pytest.fail("the round did not reach the throw within 30 moves")
    shown(table, view["seq"])
    thrown = view["chance"]["thrown"]
    for_a_person(table, str(SHOTS / "devices-table-drop.png"), full_page=True)

    # The throw: the devices read it some seconds later; until then the page says so.
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/throw")) as res:
        tap(table, "throw")
    assert res.value.json()["result"] == "thrown"
    expect(table.get_by_test_id("who")).to_have_text("Reading the tray…")
    expect(table.get_by_test_id("reading")).to_be_visible()
    assert drinks_in(table, "thrown-reading") == thrown
    for_a_person(table, str(SHOTS / "devices-table-reading.png"), full_page=True)
    # The camera reads the drop once the drinks have landed and the tray stood still for a few
    # frames (some 15 frames; the server gives it 300 before it reports the drop itself, counted in
    # frames, so however busy the machine): wait for that, bounded only against a hang.
    outcome = table.locator("[data-testid=question], [data-testid=round-result]").first
    expect(outcome).to_be_visible(timeout=4 * REPLY_MS)
    expect(table.get_by_test_id("reading")).to_be_hidden()

    # Read by the devices, not reported by the simulation: the beams counted every drink thrown
    # in, and the camera's reading of the tray decided the drop (or asked about it).
    with EventStore(data) as store:
        records = store.records(gid)
    beams = [r["observation"] for r in records if r["type"] == "observation" and r["observation"]["kind"] == "beams"]
    assert sum(b["passes_in"] for b in beams) == len(thrown) and all(b["source"] == "sensors" for b in beams), beams
    tray = [r["observation"] for r in records if r["type"] == "observation" and r["observation"]["kind"] == "tray"]
    assert [t["source"] for t in tray] == ["camera"], f"the drop was not read by the camera: {tray}"

    view = call(base, "GET", f"/api/games/{gid}/view")
    if view["question"]:
        # The camera misread or missed a drink: settle it with the correction list.
        q = view["question"]
        for_a_person(table, str(SHOTS / "devices-table-question.png"), full_page=True)
        expect(table.get_by_test_id("question-reason")).to_have_text(q["reason"])
        rows = table.locator("[data-testid^=fix-row-]")
        expect(rows.first).to_be_visible()
        assert sorted(rows.nth(i).get_attribute("data-drink") for i in range(rows.count())) == \
            sorted(d["id"] for d in q["observation"]["detail"]["detections"] if d["id"] in q["observation"]["appeared"])
        for i in range(rows.count()):
            expect(table.get_by_test_id(f"fix-conf-{i}")).to_contain_text("% sure")
            unsure = rows.nth(i).get_attribute("data-unsure") == "true"
            assert table.get_by_test_id(f"fix-unsure-{i}").count() == int(unsure)
        # Swap each drink that cannot have come out for one that could, or remove it.
        i = 0
        while i < rows.count():
            if table.get_by_test_id(f"fix-problem-{i}").count():
                tap(table, f"fix-{i}")
                free = table.locator("[data-testid=fix-picker] [data-testid^=fix-pick-]:enabled:not([data-testid=fix-pick-cancel])")
                if free.count():
                    tap(table, free.first)
                else:
                    tap(table, "fix-pick-cancel")
                    tap(table, f"fix-remove-{i}")
                    continue
            i += 1
        expect(table.get_by_test_id("fix-blocked")).to_have_count(0)
        out = sorted(rows.nth(i).get_attribute("data-drink") for i in range(rows.count()))
        assert set(out) <= set(thrown)
        # A list the exit beam contradicts goes only through the override, a step of its own.
        counted = view["beams"]["since_drop"][1]
        with table.expect_request(lambda r: r.method == "POST" and r.url.split("?")[0].endswith("/moves")) as req:
            tap(table, "fix-confirm")
            if len(out) != counted:
                expect(table.get_by_test_id("override")).to_be_visible()
                tap(table, "override-confirm")
        sent = {"move": {"kind": "drop", "player": "chance", "args": {"out": out}}}
        assert req.value.post_data_json == (sent if len(out) == counted else {**sent, "override_beams": True})
        expect(table.get_by_test_id("round-result")).to_be_visible()
        view = call(base, "GET", f"/api/games/{gid}/view")
        assert view["question"] is None and view["state"]["last_round"]["drop"]["out"] == out
    # The drop's result, with the beam counts of that drop.
    last = view["state"]["last_round"]
    assert last["round"] == 1 and view["state"]["round"] == 2, "the round did not move on"
    shown(table, view["seq"])
    assert sorted(drinks_in(table, "result-out")) == sorted(last["drop"]["out"])
    beams = view["beams"]["last_drop"]
    assert beams and beams[0] == len(thrown), beams
    counts = table.get_by_test_id("beam-counts")
    expect(counts).to_have_attribute("data-in", str(beams[0]))
    expect(counts).to_have_attribute("data-out", str(beams[1]))
    expect(counts).to_contain_text(f"Beams: {beams[0]} in, {beams[1]} out")
    expect(table.get_by_test_id("sensors-totals")).to_have_attribute("data-in", re.compile(r"[1-9]\d*"))
    for_a_person(table.locator("[data-testid=devices]"), str(SHOTS / "devices-panel.png"))
    no_raw_keys(table, "table with devices")
    tap(table, "lang-de")
    expect(table.get_by_test_id("camera-state")).to_have_text("läuft")
    expect(table.get_by_test_id("sensors-state")).to_have_text("verbunden")
    expect(table.get_by_test_id("beam-counts")).to_contain_text(f"Lichtschranken: {beams[0]} hinein, {beams[1]} heraus")
    no_raw_keys(table, "table with devices, DE")
    tap(table, "lang-en")
    for_a_person(table, str(SHOTS / "devices-table-result.png"), full_page=True)

    # A phone: one line for the devices, the beam counts with the result.
    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    watch(phone, "phone", errors)
    phone.goto(game["players"][0]["url"])
    expect(phone.get_by_test_id("line-camera")).to_have_attribute("data-state", "ok")
    expect(phone.get_by_test_id("line-sensors")).to_have_attribute("data-state", "connected")
    expect(phone.get_by_test_id("line-sensors")).to_contain_text("Sensors: connected")
    expect(phone.get_by_test_id("beam-counts")).to_contain_text(f"{beams[0]} in, {beams[1]} out")
    check_layout(phone, "phone with devices", TAPPABLE)
    for_a_person(phone, str(SHOTS / "devices-phone.png"), full_page=True)

    # The table view on a phone-sized screen: no sideways scroll, the panel's folds tappable.
    table.set_viewport_size(PHONE_SIZE)
    check_layout(table, "table view with devices at 390 px", "[data-testid=devices] summary, [data-testid=devices] button")
    assert not errors, errors


# --- no devices: the game goes by hand -------------------------------------------------------

def test_no_devices_by_hand(plain_url, browser):
    base = plain_url
    devices = call(base, "GET", "/api/devices")
    assert devices["camera"] is None and devices["sensors"] is None
    game = new_game(base, seed=3)
    gid = game["id"]
    to_the_drop(base, gid)
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "none")
    expect(table.get_by_test_id("camera-state")).to_have_text("none")
    expect(table.get_by_test_id("sensors-state")).to_have_attribute("data-state", "none")
    expect(table.get_by_test_id("devices-byhand")).to_contain_text("No camera and no sensor board")
    assert table.get_by_test_id("camera-image").count() == 0
    expect(table.get_by_test_id("simulated-banner")).to_contain_text("No camera or real tower is used")
    assert table.get_by_test_id("drop-by-hand").count() == 0  # the throw is read at once
    for_a_person(table.locator("[data-testid=devices]"), str(SHOTS / "devices-panel-none.png"))

    # The simulated throw is settled at once: no "Reading the tray…", no beam counts.
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/throw")) as res:
        tap(table, "throw")
    assert res.value.json()["result"] in ("applied", "question")
    expect(table.get_by_test_id("round-result").or_(table.get_by_test_id("question"))).to_be_visible()
    assert table.get_by_test_id("reading").count() == 0
    assert table.get_by_test_id("beam-counts").count() == 0

    # A real tower without devices: people tap what came out.
    real = new_game(base, seed=5, simulated=False)
    rid, tokens = real["id"], [p["url"].split("token=")[1] for p in real["players"]]
    for _ in range(60):
        v = call(base, "GET", f"/api/games/{rid}/view")
        if v["chance"] and v["chance"]["kind"] == "drop":
            break
        if v["chance"] and v["chance"]["kind"] == "choice":
            for outcome in v["chance"]["outcomes"]:  # a card turned up must not be one somebody holds
                try:
                    call(base, "POST", f"/api/games/{rid}/moves", {"move": outcome["move"]})
                    break
                except urllib.error.HTTPError as exc:
                    assert exc.code == 409, exc
        elif v["moves"]:
            call(base, "POST", f"/api/games/{rid}/moves", {"move": v["moves"][0]["move"]})
        else:  # seat 0 enters the card it drew on its phone
            mine = call(base, "GET", f"/api/games/{rid}/view", token=tokens[0])
            call(base, "POST", f"/api/games/{rid}/moves", {"move": mine["chance"]["outcomes"][0]["move"]}, token=tokens[0])
    else:
        pytest.fail("the real-tower round did not reach the drop")
    table.goto(f"{base}/?game={rid}")
    expect(table.get_by_test_id("tapper")).to_be_visible()
    out = sorted(v["chance"]["thrown"][:2])
    for drink in out:
        tap(table, f"tap-{drink}")
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/observations")) as res:
        tap(table, "tap-confirm")
    assert res.value.ok
    expect(table.get_by_test_id("round-result")).to_be_visible()
    assert sorted(drinks_in(table, "result-out")) == out

    phone = browser.new_page(viewport=PHONE_SIZE)
    watch(phone, "phone", errors)
    phone.goto(game["players"][0]["url"])
    expect(phone.get_by_test_id("line-camera")).to_contain_text("Camera: none")
    expect(phone.get_by_test_id("line-sensors")).to_contain_text("Sensors: none")
    assert not errors, errors


# --- correcting a misread drink, and dismissing a question ---------------------------------------

def camera_report(appeared: list[tuple[str, float, bool, float]]) -> dict:
    """A camera's account of the tray, (drink, confidence, unsure, x) for each drink it read, as the
    host's API takes it: entered as a person's (only the service's own camera reports as the camera)."""
    dets = [{"id": d, "color": d.split("-")[0], "shape": d.split("-")[1], "x": x, "y": 300.0, "confidence": c,
             "unsure": u, "why": "outline fits no drink" if u else ""} for d, c, u, x in appeared]
    return {"source": "person", "appeared": sorted(d for d, *_ in appeared), "confidence": min(c for _, c, _, _ in appeared),
            "detail": {"detections": dets, "before": [], "unsure": [d for d, _, u, _ in appeared if u], "notes": []}}


def test_correct_a_misread_drink(plain_url, browser):
    base = plain_url
    game = new_game(base, seed=11)
    gid = game["id"]
    view = to_the_drop(base, gid)
    thrown = view["chance"]["thrown"]
    candidates = sorted(set(thrown) | set(view["chance"]["inside"]))
    # a drink like none that could have come out (neither its colour nor its shape): the game has
    # no guess for it (table/reconcile.py), so a person swaps it (test_dashboard_drop: the guess)
    wrong = next(f"{c}-{s}" for c in ("black", "white", "mint", "blue", "red", "purple")
                 for s in ("stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle")
                 if not any(d.startswith(f"{c}-") or d.endswith(f"-{s}") for d in candidates))
    right, kept, missed = thrown[0], thrown[1], thrown[2]
    errors: list[str] = []
    table = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    watch(table, "table", errors)
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("throw")).to_be_visible()

    # A question is set aside with Dismiss (logged); the drop is still to be entered, by hand (the
    # drinks were thrown already: no throwing them again; no camera here to read the tray again).
    call(base, "POST", f"/api/games/{gid}/observations", camera_report([(kept, 0.5, True, 100.0)]))
    expect(table.get_by_test_id("question")).to_be_visible()
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/question/dismiss")) as res:
        tap(table, "question-dismiss")
    assert res.value.ok
    expect(table.get_by_test_id("question")).to_be_hidden()
    expect(table.get_by_test_id("drop-by-hand")).to_be_visible()
    assert table.get_by_test_id("throw").count() == 0 and table.get_by_test_id("drop-reread").count() == 0
    assert call(base, "GET", f"/api/games/{gid}/view")["question"] is None

    # The camera read `kept` surely and something that was never thrown unsurely (left of it).
    call(base, "POST", f"/api/games/{gid}/observations",
         camera_report([(kept, 0.97, False, 800.0), (wrong, 0.42, True, 200.0)]))
    expect(table.get_by_test_id("question")).to_have_attribute("data-kind", "contradiction")
    row0, row1 = table.get_by_test_id("fix-row-0"), table.get_by_test_id("fix-row-1")
    expect(row0).to_have_attribute("data-drink", wrong)  # left to right, as in the picture
    expect(row1).to_have_attribute("data-drink", kept)
    expect(table.get_by_test_id("fix-conf-0")).to_have_text("42 % sure")
    expect(table.get_by_test_id("fix-unsure-0")).to_have_text("unsure")
    expect(table.get_by_test_id("fix-conf-1")).to_have_text("97 % sure")
    assert table.get_by_test_id("fix-unsure-1").count() == 0
    expect(table.get_by_test_id("fix-problem-0")).to_be_visible()
    expect(table.get_by_test_id("fix-confirm")).to_be_disabled()
    check_layout(table, "correction at 390 px", TAPPABLE)
    for_a_person(table.get_by_test_id("question"), str(SHOTS / "devices-fix-before.png"))

    # German too.
    no_raw_keys(table, "correction")
    tap(table, "lang-de")
    expect(table.get_by_test_id("question")).to_contain_text("Was gesehen wurde")
    expect(table.get_by_test_id("fix-unsure-0")).to_have_text("unsicher")
    no_raw_keys(table, "correction, DE")
    tap(table, "lang-en")

    # One tap on the misread drink, one on the right one; add the one it missed; confirm.
    tap(table, "fix-0")
    picker = table.get_by_test_id("fix-picker")
    offered = picker.locator("[data-testid^=fix-pick-]:not([data-testid=fix-pick-cancel])")
    assert sorted(offered.nth(i).get_attribute("data-testid").removeprefix("fix-pick-")
                  for i in range(offered.count())) == candidates
    expect(table.get_by_test_id(f"fix-pick-{kept}")).to_be_disabled()  # already in the list
    check_layout(table, "drink picker at 390 px", TAPPABLE)
    tap(table, f"fix-pick-{right}")
    expect(row0).to_have_attribute("data-drink", right)
    expect(row0).to_have_attribute("data-changed", "true")
    expect(row0).to_contain_text("was ")
    tap(table, "fix-add")
    tap(table, f"fix-pick-{missed}")
    expect(table.get_by_test_id("fix-row-2")).to_have_attribute("data-drink", missed)
    expect(table.get_by_test_id(f"fix-pick-{missed}")).to_be_disabled()  # the picker stays open for more
    tap(table, "fix-pick-cancel")  # "Done"
    expect(table.get_by_test_id("fix-picker")).to_have_count(0)
    tap(table, "fix-remove-2")  # no: that one did not come out after all
    expect(table.get_by_test_id("fix-row-2")).to_have_count(0)
    out = sorted([right, kept])
    expect(table.get_by_test_id("fix-confirm")).to_be_enabled()
    expect(table.get_by_test_id("fix-confirm")).to_have_text("Confirm: 2 came out")
    for_a_person(table.get_by_test_id("question"), str(SHOTS / "devices-fix-after.png"))
    with table.expect_request(lambda r: r.method == "POST" and r.url.split("?")[0].endswith("/moves")) as req:
        tap(table, "fix-confirm")
    assert req.value.post_data_json == {"move": {"kind": "drop", "player": "chance", "args": {"out": out}}}
    expect(table.get_by_test_id("round-result")).to_be_visible()
    after = call(base, "GET", f"/api/games/{gid}/view")
    assert after["question"] is None and after["state"]["round"] == 2
    assert after["state"]["last_round"]["drop"]["out"] == out
    assert sorted(drinks_in(table, "result-out")) == out
    assert not errors, errors


# --- lost, refused, dark, silent: said plainly ----------------------------------------------------

def dark_image(path: Path) -> Path:
    """A photo of the tray with the lights off, at the size the drink profile expects."""
    width, height = json.loads(SIM_PROFILE.read_text())["image_size"]
    cv2.imwrite(str(path), np.full((height, width, 3), 2, np.uint8))
    return path


def devices_now(base: str, want, what: str) -> dict:
    """Poll the server's /api/devices until ``want(answer)``: what the devices do takes a moment
    (a board's greeting, the first frames); the bound is far above that, against a hang."""
    deadline = time.monotonic() + REPLY_MS / 1000
    while True:
        answer = call(base, "GET", "/api/devices")
        if want(answer):
            return answer
        if time.monotonic() > deadline:
            pytest.fail(f"the server's devices never showed {what} within {REPLY_MS // 1000} s: {answer}")
        time.sleep(0.1)


# The devices panel showing a silent board, all in one look (the panel is redrawn every 2 s):
# disconnected, because "the board stopped talking", its last heartbeat seconds ago (late), no
# beams; or "connecting" once the link has reopened the port.
SILENT_SHOWN = r"""() => {
  const state = document.querySelector('[data-testid=sensors-state]');
  if (!state) return false;
  if (state.dataset.state === 'connecting') return 'connecting';
  const why = document.querySelector('[data-testid=sensors-error]');
  const beat = document.querySelector('[data-testid=sensors-heartbeat]');
  return state.dataset.state === 'disconnected' && !!why && why.textContent.includes('the board stopped talking')
    && !!beat && beat.classList.contains('late') && /heartbeat [\d.]+ s ago/.test(beat.textContent)
    && !document.querySelector('[data-testid=beam-in]') && 'disconnected';
}"""


def test_lost_refused_dark_and_silent_devices(tmp_path, browser):
    errors: list[str] = []

    # A camera that cannot be opened (nothing at that path) and a board that speaks protocol
    # version 2 (its firmware is newer than this companion).
    newer_board = SimBoard(link=tmp_path / "newer-board", version=2)
    newer_board.start()
    try:
        with Server(tmp_path / "data-lost", camera=str(tmp_path / "tray-camera.mjpg"),
                    serial=str(newer_board.path)) as server:
            base = server.url
            lost = devices_now(base, lambda d: d["sensors"]["state"] == "refused" and d["camera"]["source"],
                               "the board refused and the camera tried")
            game = new_game(base, seed=5)
            gid = game["id"]
            to_the_drop(base, gid)
            table = browser.new_page(viewport=TABLE_SIZE)
            watch(table, "table", errors, allow=("404",))  # no camera frame on this server
            table.goto(f"{base}/?game={gid}")
            expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "lost")
            expect(table.get_by_test_id("camera-error")).to_have_text(lost["camera"]["source"]["error"])
            expect(table.get_by_test_id("camera-error")).to_contain_text("tray-camera.mjpg: no such file")
            expect(table.get_by_test_id("devices-byhand")).to_contain_text("The game goes on by hand")
            expect(table.get_by_test_id("sensors-state")).to_have_attribute("data-state", "refused")
            expect(table.get_by_test_id("sensors-error")).to_contain_text("the board speaks protocol version 2")
            expect(table.get_by_test_id("chip-sensors").locator(".dev-bad")).to_have_count(1)
            expect(table.get_by_test_id("camera-image-none")).to_be_visible()  # this camera never gave a frame
            # The manual pickers stay usable: the throw, and entering the drop by hand.
            expect(table.get_by_test_id("drop-byhand")).to_contain_text("by hand")
            tap(table, "drop-by-hand")
            expect(table.get_by_test_id("tapper")).to_be_visible()
            tap(table, "tap-cancel")
            expect(table.get_by_test_id("throw")).to_be_enabled()
            for_a_person(table.locator("[data-testid=devices]"), str(SHOTS / "devices-panel-lost.png"))
            no_raw_keys(table, "devices lost")
            tap(table, "lang-de")
            expect(table.get_by_test_id("camera-state")).to_have_text("verloren")
            expect(table.get_by_test_id("sensors-state")).to_have_text("abgelehnt")
            expect(table.get_by_test_id("devices-byhand")).to_contain_text("von Hand")
            no_raw_keys(table, "devices lost, DE")
            tap(table, "lang-en")

            phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True)
            watch(phone, "phone", errors, allow=("404",))
            phone.goto(game["players"][0]["url"])
            expect(phone.get_by_test_id("line-camera")).to_contain_text("Camera: lost")
            expect(phone.get_by_test_id("line-sensors")).to_contain_text("Sensors: refused")
            expect(phone.get_by_test_id("line-byhand")).to_contain_text("by hand")
            check_layout(phone, "phone, devices lost", TAPPABLE)
            for_a_person(phone, str(SHOTS / "devices-phone-lost.png"), full_page=True)
            browser.put_away(phone)
            browser.put_away(table)
    finally:
        newer_board.stop()

    # A camera that sees only a dark tray, and a board with a drink held in its input beam that
    # counted 3 drinks in and 2 out before any game was started.
    board = SimBoard(link=tmp_path / "board")
    board.set_blocked("in", True)
    for beam in ("in", "in", "in", "out", "out"):
        board.drop(beam)
    board.start()
    try:
        with Server(tmp_path / "data-dark", camera=str(dark_image(tmp_path / "dark-tray.png")),
                    serial=str(board.path)) as server:
            base = server.url
            # (No game yet: the passes are counted, and recorded nowhere; the camera rests.)
            devices_now(base, lambda d: d["sensors"]["state"] == "connected" and d["sensors"]["link"]["delivered"] == 5
                        and d["camera"]["idle"], "the board connected with its 5 passes delivered, the camera resting")
            gid = new_game(base, seed=5)["id"]
            devices_now(base, lambda d: d["camera"]["watcher"] and d["camera"]["watcher"]["state"] == "bad_frame",
                        "the camera reading frames once a POCARI BET game is in play")
            to_the_drop(base, gid)
            table = browser.new_page(viewport=TABLE_SIZE)
            watch(table, "table", errors)
            table.goto(f"{base}/?game={gid}")
            expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "trouble")
            expect(table.get_by_test_id("camera-message")).to_have_text(
                re.compile(r"^the frame is too dark to read \(mean level \d+ of 255\)$"))
            expect(table.get_by_test_id("devices-byhand")).to_contain_text("The game goes on by hand")
            expect(table.get_by_test_id("sensors-state")).to_have_text("connected")
            expect(table.get_by_test_id("beam-in")).to_have_attribute("data-blocked", "true")
            expect(table.get_by_test_id("beam-out")).to_have_attribute("data-blocked", "false")
            expect(table.get_by_test_id("sensors-totals")).to_have_text("Counted so far: 3 in, 2 out")
            expect(table.get_by_test_id("camera-image")).to_be_visible()  # the dark picture itself
            for_a_person(table.locator("[data-testid=devices]"), str(SHOTS / "devices-panel-dark.png"))

            # The board stops talking (a hung board): after three missed heartbeats the link says it
            # is disconnected, and why. (Ten seconds on it reopens the port and waits for the board,
            # "connecting": should the page not have asked in between, the board talks again and
            # stops again; the page must show the disconnected board.)
            for _ in range(5):
                board.muted = True
                state = wait_until(table, SILENT_SHOWN, "the silent board shown as disconnected (or reconnecting)")
                if state == "disconnected":
                    break
                seen = table.get_by_test_id("dev-sensors").inner_text()
                board.muted = False
                expect(table.get_by_test_id("sensors-state")).to_have_attribute("data-state", "connected",
                                                                                timeout=REPLY_MS)
            else:
                pytest.fail("a silent board was never shown as disconnected, with why and its late heartbeat (5 "
                            f"tries; each time the page showed it only once the link was reopening the port): {seen!r}")
            expect(table.get_by_test_id("chip-sensors").locator(".dev-bad")).to_have_count(1)
            for_a_person(table.locator("[data-testid=devices]"), str(SHOTS / "devices-panel-silent.png"))
            browser.put_away(table)
    finally:
        board.stop()
    assert not errors, errors
