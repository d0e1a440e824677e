"""The table's devices on the dashboard, in a real browser (Debian's Chromium via Playwright).

- With the simulated camera and the simulated sensor board (a real serial link over a pty), a
  round of POCARI BET is played on the table view up to the throw: the devices panel shows the
  camera working and the board connected with its firmware, the live camera picture loads and
  keeps refreshing, the throw is read by the devices ("Reading the tray…"), and the page shows
  the drop's result with its beam counts, or a question that a person settles with the
  correction list, after which the round moves on.
- Without devices: the panel says there is no camera and no board, and the game goes by hand.
- A question carrying camera detections (made deterministic by posting the observation): each
  drink with its confidence and unsure mark, swapped, added, removed, confirmed as the drop move;
  and dismissed. In English and German, at 390 px.
- A lost camera, a refused board and a silent board (the devices' answers replaced in the browser):
  each said plainly, with how the game goes on.
"""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser_support import call, chromium, pick_testid, served
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
SHOTS = Path("/tmp")  # screenshots of the panel, for a person to look at


@pytest.fixture
def sim_url(tmp_path):
    with served(tmp_path, camera="sim", serial="sim") as url:
        yield url


@pytest.fixture
def plain_url(tmp_path):
    with served(tmp_path, camera=None, serial=None) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def watch(page, name: str, errors: list[str], allow: tuple[str, ...] = ()) -> None:
    page.on("pageerror", lambda err: errors.append(f"{name}: {err}"))
    page.on("response", lambda r: errors.append(f"{name}: {r.status} {r.url}")
            if r.status >= 400 and not any(a in f"{r.status}" for a in allow) else None)
    page.on("console", lambda msg: errors.append(f"{name}: {msg.text}")
            if msg.type == "error" and not any(a in msg.text for a in allow) else None)


def shown_seq(page, seq: int, timeout: float = 8000) -> None:
    page.wait_for_function("n => Number(document.getElementById('app').dataset.seq) >= n", arg=seq, timeout=timeout)


def new_game(base: str, seed: int, simulated: bool = True) -> dict:
    return call(base, "POST", "/api/games", {"game": "pocari_bet", "names": ["Aki", "Ben", "Chie"], "bots": [1, 2],
                                             "simulated": simulated, "seed": seed})


def to_the_drop(base: str, gid: str) -> dict:
    """Seat 0's moves through the API (the computers and the simulated table do the rest)."""
    for _ in range(40):
        view = call(base, "GET", f"/api/games/{gid}/view")
        if view["chance"] and view["chance"]["kind"] == "drop":
            return view
        call(base, "POST", f"/api/games/{gid}/moves", {"move": view["moves"][0]["move"]})
    raise AssertionError("the round did not reach the throw")




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

def test_devices_read_a_throw(sim_url, browser):
    base = sim_url
    game = new_game(base, seed=7)
    gid = game["id"]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    table.goto(f"{base}/?game={gid}")

    # The devices panel: the camera works (simulated), the board is connected with its firmware.
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "ok", timeout=15000)
    expect(table.get_by_test_id("camera-simulated")).to_be_visible()
    expect(table.get_by_test_id("sensors-state")).to_have_attribute("data-state", "connected", timeout=15000)
    expect(table.get_by_test_id("sensors-firmware")).to_have_attribute("data-firmware", "1.0.0")
    expect(table.get_by_test_id("sensors-firmware")).to_contain_text("1.0.0")
    expect(table.get_by_test_id("sensors-heartbeat")).to_contain_text(re.compile(r"heartbeat [\d.]+ s ago"))
    for beam in ("in", "out"):
        expect(table.get_by_test_id(f"beam-{beam}")).to_have_attribute("data-blocked", re.compile("true|false"))
    expect(table.get_by_test_id("simulated-banner")).to_contain_text("simulated camera and sensor board")
    assert table.get_by_test_id("devices-byhand").count() == 0  # nothing is lost

    # The live picture loads, and keeps being refreshed (~3 a second).
    table.wait_for_function("""() => { const i = document.querySelector('[data-testid=camera-image]');
        return i && i.complete && i.naturalWidth > 0 && i.dataset.state === 'ok'; }""", timeout=10000)
    first = table.get_by_test_id("camera-image").get_attribute("data-ts")
    table.wait_for_function("""ts => { const i = document.querySelector('[data-testid=camera-image]');
        return i.dataset.ts !== ts && i.complete && i.naturalWidth > 0; }""", arg=first, timeout=3000)
    assert table.evaluate("document.querySelector('[data-testid=camera-image]').src").startswith(f"{base}/api/camera.jpg?ts=")

    # Seat 0 plays on the table view up to the throw; the computers play at once.
    for _ in range(30):
        view = call(base, "GET", f"/api/games/{gid}/view")
        if view["chance"] and view["chance"]["kind"] == "drop":
            break
        shown_seq(table, view["seq"])
        testid = pick_testid(view)
        with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as res:
            table.get_by_test_id(testid).click()
        assert res.value.ok, f"{testid}: {res.value.status}"
    else:
        pytest.fail("the round did not reach the throw")
    shown_seq(table, view["seq"])
    thrown = view["chance"]["thrown"]
    table.screenshot(path=str(SHOTS / "devices-table-drop.png"), full_page=True)

    # The throw: the devices read it a few seconds later; until then the page says so.
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/throw")) as res:
        table.get_by_test_id("throw").click()
    assert res.value.json()["result"] == "thrown"
    expect(table.get_by_test_id("who")).to_have_text("Reading the tray…")
    expect(table.get_by_test_id("reading")).to_be_visible()
    assert drinks_in(table, "thrown-reading") == thrown
    table.screenshot(path=str(SHOTS / "devices-table-reading.png"), full_page=True)
    outcome = table.locator("[data-testid=question], [data-testid=round-result]").first
    expect(outcome).to_be_visible(timeout=30000)
    expect(table.get_by_test_id("reading")).to_be_hidden()

    view = call(base, "GET", f"/api/games/{gid}/view")
    if view["question"]:
        # The camera misread or missed a drink: settle it with the correction list.
        q = view["question"]
        table.screenshot(path=str(SHOTS / "devices-table-question.png"), full_page=True)
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
                table.get_by_test_id(f"fix-{i}").click()
                free = table.locator("[data-testid=fix-picker] [data-testid^=fix-pick-]:enabled:not([data-testid=fix-pick-cancel])")
                if free.count():
                    free.first.click()
                else:
                    table.get_by_test_id("fix-pick-cancel").click()
                    table.get_by_test_id(f"fix-remove-{i}").click()
                    continue
            i += 1
        expect(table.get_by_test_id("fix-blocked")).to_have_count(0)
        out = sorted(rows.nth(i).get_attribute("data-drink") for i in range(rows.count()))
        assert set(out) <= set(thrown)
        with table.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves")) as req:
            table.get_by_test_id("fix-confirm").click()
        assert req.value.post_data_json == {"move": {"kind": "drop", "player": "chance", "args": {"out": out}}}
        expect(table.get_by_test_id("round-result")).to_be_visible()
        view = call(base, "GET", f"/api/games/{gid}/view")
        assert view["question"] is None and view["state"]["last_round"]["drop"]["out"] == out
    # The drop's result, with the beam counts of that drop.
    last = view["state"]["last_round"]
    assert last["round"] == 1 and view["state"]["round"] == 2, "the round did not move on"
    shown_seq(table, view["seq"])
    assert sorted(drinks_in(table, "result-out")) == sorted(last["drop"]["out"])
    beams = view["beams"]["last_drop"]
    assert beams and beams[0] == len(thrown), beams
    counts = table.get_by_test_id("beam-counts")
    expect(counts).to_have_attribute("data-in", str(beams[0]))
    expect(counts).to_have_attribute("data-out", str(beams[1]))
    expect(counts).to_contain_text(f"Beams: {beams[0]} in, {beams[1]} out")
    expect(table.get_by_test_id("sensors-totals")).to_have_attribute("data-in", re.compile(r"[1-9]\d*"))
    table.locator("[data-testid=devices]").screenshot(path=str(SHOTS / "devices-panel.png"))
    no_raw_keys(table, "table with devices")
    table.get_by_test_id("lang-de").click()
    expect(table.get_by_test_id("camera-state")).to_have_text("läuft")
    expect(table.get_by_test_id("sensors-state")).to_have_text("verbunden")
    expect(table.get_by_test_id("beam-counts")).to_contain_text(f"Lichtschranken: {beams[0]} hinein, {beams[1]} heraus")
    no_raw_keys(table, "table with devices, DE")
    table.get_by_test_id("lang-en").click()
    table.screenshot(path=str(SHOTS / "devices-table-result.png"), full_page=True)

    # A phone: one line for the devices, the beam counts with the result.
    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    watch(phone, "phone", errors)
    phone.goto(game["players"][0]["url"])
    expect(phone.get_by_test_id("line-camera")).to_have_attribute("data-state", "ok")
    expect(phone.get_by_test_id("line-sensors")).to_have_attribute("data-state", "connected")
    expect(phone.get_by_test_id("line-sensors")).to_contain_text("Sensors: connected")
    expect(phone.get_by_test_id("beam-counts")).to_contain_text(f"{beams[0]} in, {beams[1]} out")
    check_layout(phone, "phone with devices", TAPPABLE)
    phone.screenshot(path=str(SHOTS / "devices-phone.png"), full_page=True)

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
    view = to_the_drop(base, gid)
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
    table.locator("[data-testid=devices]").screenshot(path=str(SHOTS / "devices-panel-none.png"))

    # The simulated throw is settled at once: no "Reading the tray…", no beam counts.
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/throw")) as res:
        table.get_by_test_id("throw").click()
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
            mine = call(base, "GET", f"/api/games/{rid}/view?token={tokens[0]}")
            call(base, "POST", f"/api/games/{rid}/moves", {"move": mine["chance"]["outcomes"][0]["move"], "token": tokens[0]})
    else:
        pytest.fail("the real-tower round did not reach the drop")
    table.goto(f"{base}/?game={rid}")
    expect(table.get_by_test_id("tapper")).to_be_visible()
    out = sorted(v["chance"]["thrown"][:2])
    for drink in out:
        table.get_by_test_id(f"tap-{drink}").click()
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/observations")) as res:
        table.get_by_test_id("tap-confirm").click()
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
    """A camera's observation: (drink, confidence, unsure, x) for each drink it read."""
    dets = [{"id": d, "color": d.split("-")[0], "shape": d.split("-")[1], "x": x, "y": 300.0, "confidence": c,
             "unsure": u, "why": "outline fits no drink" if u else ""} for d, c, u, x in appeared]
    return {"source": "camera", "appeared": sorted(d for d, *_ in appeared), "confidence": min(c for _, c, _, _ in appeared),
            "detail": {"detections": dets, "before": [], "unsure": [d for d, _, u, _ in appeared if u], "notes": []}}


def test_correct_a_misread_drink(plain_url, browser):
    base = plain_url
    game = new_game(base, seed=11)
    gid = game["id"]
    view = to_the_drop(base, gid)
    thrown = view["chance"]["thrown"]
    candidates = sorted(set(thrown) | set(view["chance"]["inside"]))
    wrong = next(f"{c}-{s}" for c in ("black", "white", "mint", "blue", "red", "purple")
                 for s in ("stubby_can", "short_can", "tall_can", "square_bottle") if f"{c}-{s}" not in candidates)
    right, kept, missed = thrown[0], thrown[1], thrown[2]
    errors: list[str] = []
    table = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    watch(table, "table", errors)
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("throw")).to_be_visible()

    # A question is set aside with Dismiss (logged); the drop is still to be entered.
    call(base, "POST", f"/api/games/{gid}/observations", camera_report([(kept, 0.5, True, 100.0)]))
    expect(table.get_by_test_id("question")).to_be_visible()
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/question/dismiss")) as res:
        table.get_by_test_id("question-dismiss").click()
    assert res.value.ok
    expect(table.get_by_test_id("question")).to_be_hidden()
    expect(table.get_by_test_id("throw")).to_be_visible()
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
    table.get_by_test_id("question").screenshot(path=str(SHOTS / "devices-fix-before.png"))

    # German too.
    no_raw_keys(table, "correction")
    table.get_by_test_id("lang-de").click()
    expect(table.get_by_test_id("question")).to_contain_text("Was die Kamera sah")
    expect(table.get_by_test_id("fix-unsure-0")).to_have_text("unsicher")
    no_raw_keys(table, "correction, DE")
    table.get_by_test_id("lang-en").click()

    # One tap on the misread drink, one on the right one; add the one it missed; confirm.
    table.get_by_test_id("fix-0").click()
    picker = table.get_by_test_id("fix-picker")
    offered = picker.locator("[data-testid^=fix-pick-]:not([data-testid=fix-pick-cancel])")
    assert sorted(offered.nth(i).get_attribute("data-testid").removeprefix("fix-pick-")
                  for i in range(offered.count())) == candidates
    expect(table.get_by_test_id(f"fix-pick-{kept}")).to_be_disabled()  # already in the list
    check_layout(table, "drink picker at 390 px", TAPPABLE)
    table.get_by_test_id(f"fix-pick-{right}").click()
    expect(row0).to_have_attribute("data-drink", right)
    expect(row0).to_have_attribute("data-changed", "true")
    expect(row0).to_contain_text("was ")
    table.get_by_test_id("fix-add").click()
    table.get_by_test_id(f"fix-pick-{missed}").click()
    expect(table.get_by_test_id("fix-row-2")).to_have_attribute("data-drink", missed)
    expect(table.get_by_test_id(f"fix-pick-{missed}")).to_be_disabled()  # the picker stays open for more
    table.get_by_test_id("fix-pick-cancel").click()  # "Done"
    expect(table.get_by_test_id("fix-picker")).to_have_count(0)
    table.get_by_test_id("fix-remove-2").click()  # no: that one did not come out after all
    expect(table.get_by_test_id("fix-row-2")).to_have_count(0)
    out = sorted([right, kept])
    expect(table.get_by_test_id("fix-confirm")).to_be_enabled()
    expect(table.get_by_test_id("fix-confirm")).to_have_text("Confirm: 2 came out")
    table.get_by_test_id("question").screenshot(path=str(SHOTS / "devices-fix-after.png"))
    with table.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves")) as req:
        table.get_by_test_id("fix-confirm").click()
    assert req.value.post_data_json == {"move": {"kind": "drop", "player": "chance", "args": {"out": out}}}
    expect(table.get_by_test_id("round-result")).to_be_visible()
    after = call(base, "GET", f"/api/games/{gid}/view")
    assert after["question"] is None and after["state"]["round"] == 2
    assert after["state"]["last_round"]["drop"]["out"] == out
    assert sorted(drinks_in(table, "result-out")) == out
    assert not errors, errors


# --- lost, refused, silent: said plainly --------------------------------------------------------

LOST = {"camera": {"spec": "0", "error": None, "simulated": False,
                   "source": {"state": "lost", "spec": "0", "granted": {}, "frames": 812,
                              "error": "the camera stopped delivering frames (unplugged?)"},
                   "watcher": {"state": "still", "message": None, "frames": 812, "skipped": 0, "observations": 3,
                               "in_tray": [], "last_read": None}},
        "sensors": {"state": "refused", "port": "/dev/ttyACM0", "firmware": "2.0.0", "protocol": 2, "boot_id": "0badc0de",
                    "last_heartbeat": None, "beams": {"in": False, "out": False}, "totals": {"in": 0, "out": 0},
                    "error": "the board speaks protocol version 2; this companion speaks version 1: update the firmware",
                    "simulated": False, "colour_sensor": False, "link": {}}}
DARK = {"camera": {**LOST["camera"], "source": {**LOST["camera"]["source"], "state": "ok", "error": None},
                   "watcher": {**LOST["camera"]["watcher"], "state": "bad_frame",
                               "message": "the frame is too dark to read (mean level 4 of 255)", "in_tray": ["red-tall_can"]}},
        "sensors": {**LOST["sensors"], "state": "connected", "firmware": "1.0.0", "protocol": 1, "last_heartbeat": 0.4,
                    "beams": {"in": True, "out": False}, "totals": {"in": 12, "out": 9}, "error": None}}
SILENT = {**DARK, "sensors": {**DARK["sensors"], "state": "disconnected", "last_heartbeat": 4.2,
                              "error": "no heartbeat for 3.2 s: the board stopped talking"}}


def test_lost_refused_and_silent_devices(plain_url, browser):
    base = plain_url
    game = new_game(base, seed=5)
    gid = game["id"]
    to_the_drop(base, gid)
    answer = {"body": LOST}
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors, allow=("404",))  # no camera frame on this server
    for page in (table,):
        page.route("**/api/devices", lambda route: route.fulfill(status=200, content_type="application/json",
                                                                 body=json.dumps(answer["body"])))
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "lost")
    expect(table.get_by_test_id("camera-error")).to_have_text("the camera stopped delivering frames (unplugged?)")
    expect(table.get_by_test_id("devices-byhand")).to_contain_text("The game goes on by hand")
    expect(table.get_by_test_id("sensors-state")).to_have_attribute("data-state", "refused")
    expect(table.get_by_test_id("sensors-error")).to_contain_text("protocol version 2")
    expect(table.get_by_test_id("chip-sensors").locator(".dev-bad")).to_have_count(1)
    expect(table.get_by_test_id("camera-image-none")).to_be_visible()  # this server has no frame to show
    # The manual pickers stay usable: the throw, and entering the drop by hand.
    expect(table.get_by_test_id("drop-byhand")).to_contain_text("by hand")
    table.get_by_test_id("drop-by-hand").click()
    expect(table.get_by_test_id("tapper")).to_be_visible()
    table.get_by_test_id("tap-cancel").click()
    expect(table.get_by_test_id("throw")).to_be_enabled()
    table.locator("[data-testid=devices]").screenshot(path=str(SHOTS / "devices-panel-lost.png"))
    no_raw_keys(table, "devices lost")
    table.get_by_test_id("lang-de").click()
    expect(table.get_by_test_id("camera-state")).to_have_text("verloren")
    expect(table.get_by_test_id("sensors-state")).to_have_text("abgelehnt")
    expect(table.get_by_test_id("devices-byhand")).to_contain_text("von Hand")
    no_raw_keys(table, "devices lost, DE")
    table.get_by_test_id("lang-en").click()

    # The camera is back but sees a dark frame; the board is back, a drink in its input beam.
    answer["body"] = DARK
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "trouble", timeout=6000)
    expect(table.get_by_test_id("camera-message")).to_have_text("the frame is too dark to read (mean level 4 of 255)")
    expect(table.get_by_test_id("devices-byhand")).to_contain_text("The game goes on by hand")
    expect(table.get_by_test_id("sensors-state")).to_have_text("connected")
    expect(table.get_by_test_id("beam-in")).to_have_attribute("data-blocked", "true")
    expect(table.get_by_test_id("beam-out")).to_have_attribute("data-blocked", "false")
    expect(table.get_by_test_id("sensors-totals")).to_have_text("Counted so far: 12 in, 9 out")
    table.locator("[data-testid=devices]").screenshot(path=str(SHOTS / "devices-panel-dark.png"))

    # The board stops talking: disconnected, with why.
    answer["body"] = SILENT
    expect(table.get_by_test_id("sensors-state")).to_have_text("disconnected", timeout=6000)
    expect(table.get_by_test_id("sensors-error")).to_contain_text("stopped talking")
    expect(table.get_by_test_id("sensors-heartbeat")).to_contain_text("4.2 s ago")
    table.locator("[data-testid=devices]").screenshot(path=str(SHOTS / "devices-panel-silent.png"))

    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True)
    watch(phone, "phone", errors)
    phone.route("**/api/devices", lambda route: route.fulfill(status=200, content_type="application/json",
                                                              body=json.dumps(LOST)))
    phone.goto(game["players"][0]["url"])
    expect(phone.get_by_test_id("line-camera")).to_contain_text("Camera: lost")
    expect(phone.get_by_test_id("line-sensors")).to_contain_text("Sensors: refused")
    expect(phone.get_by_test_id("line-byhand")).to_contain_text("by hand")
    check_layout(phone, "phone, devices lost", TAPPABLE)
    phone.screenshot(path=str(SHOTS / "devices-phone-lost.png"), full_page=True)
    assert not errors, errors
