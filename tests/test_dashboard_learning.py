"""Learning from the table on the dashboard (issue 26 item 5), in a real browser (Debian's
Chromium via Playwright) against the real `companion serve`: the host corrects a drop the camera
read wrong, and the devices panel says "Learned from 1 correction" (in each language); an undo
takes it back; the host can make the camera forget; a spectator sees the count and no button.

The camera is a photo file of the simulated table with a purple tall can of another copy of the
game, which the table's profile reads as a blue tall can (tests/test_vision_taught.py); the
host has it read as the drop awaited ("read the tray again", through the API).
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from browser_support import call, for_a_person, tap, tap_and_wait
from playwright.sync_api import expect
from server_support import Server

from companion.sim.camera import SIM_SEED
from companion.sim.looks import Look, Placement
from companion.sim.render import Renderer
from waiting import wait_for

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
ODD, READ_AS = "purple-tall_can", "blue-tall_can"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`companion serve` whose camera is the photo (the simulated table's profile), no board."""
    folder = tmp_path_factory.mktemp("learning")
    look = Look.from_seed(SIM_SEED)
    colours = {**look.colours, "purple": 0.3 * look.colours["purple"] + 0.7 * look.colours["blue"]}
    image, _ = Renderer(replace(look, colours=colours)).render([Placement(ODD, 20.0, -10.0, 140.0)],
                                                                 rng=np.random.default_rng(2))
    cv2.imwrite(str(folder / "tray.png"), image)
    with Server(folder / "data", camera=str(folder / "tray.png"), serial="none") as server:
        yield server.url


def drop_awaited(base: str) -> str:
    """A POCARI BET game at its first drop, the purple tall can thrown, in which a reading of a
    blue tall can is put to the host (another thrown drink is blue or a tall can)."""
    for seed in range(1, 200):
        gid = call(base, "POST", "/api/games", {"game": "pocari_bet", "names": ["Aki", "Ben", "Chie"],
                                                "bots": [1, 2], "seed": seed})["id"]
        for _ in range(40):
            view = call(base, "GET", f"/api/games/{gid}/view")
            if view["chance"] and view["chance"]["kind"] == "drop":
                break
            call(base, "POST", f"/api/games/{gid}/moves", {"move": view["moves"][0]["move"]})
        free = set(view["chance"]["thrown"]) | set(view["chance"]["inside"])
        if ODD in view["chance"]["thrown"] and READ_AS not in free and any(
                d != ODD and (d.startswith("blue-") or d.endswith("-tall_can")) for d in free):
            return gid
        call(base, "POST", f"/api/games/{gid}/end")
    raise AssertionError("no seed threw the purple tall can with a look-alike")


def correct_by_hand(table) -> None:
    """The host enters what came out by hand from the question: the purple tall can alone."""
    tap(table, "question-by-hand")
    expect(table.get_by_test_id("tapper")).to_be_visible()
    buttons = table.locator("[data-testid=tapper] [data-testid^=tap-]:not([data-testid=tap-confirm]):not([data-testid=tap-cancel])")
    for i in range(buttons.count()):
        button = buttons.nth(i)
        drink = button.get_attribute("data-testid").removeprefix("tap-")
        if (button.get_attribute("aria-pressed") == "true") != (drink == ODD):
            tap(table, f"tap-{drink}")
    expect(table.get_by_test_id("tap-confirm")).to_have_text("Confirm: 1 came out")
    tap_and_wait(table, "tap-confirm")


def asked(base: str, gid: str, table) -> None:
    call(base, "POST", f"/api/games/{gid}/tray/read")
    expect(table.get_by_test_id("question")).to_be_visible(timeout=60_000)
    q = call(base, "GET", f"/api/games/{gid}/view")["question"]
    assert q["observation"]["source"] == "camera" and q["observation"]["appeared"] == [READ_AS]


def test_the_host_sees_what_corrections_taught_the_camera_and_can_undo_or_forget_it(served, browser):
    base = served
    gid = drop_awaited(base)
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    table.on("pageerror", lambda err: errors.append(str(err)))
    table.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "ok")
    expect(table.get_by_test_id("camera-learned")).to_have_count(0)

    asked(base, gid, table)
    correct_by_hand(table)
    learned = table.get_by_test_id("camera-learned")
    expect(learned).to_have_attribute("data-corrections", "1")
    expect(learned).to_contain_text("Learned from 1 correction")
    tap(table, "lang-de")
    expect(learned).to_contain_text("Aus 1 Korrektur gelernt")
    expect(table.get_by_test_id("camera-forget")).to_have_text("Gelerntes vergessen")
    tap(table, "lang-en")
    for_a_person(table.get_by_test_id("dev-camera"), "/tmp/camera-learned.png")

    # The spectators see what the camera learned, and nothing to press.
    watch = call(base, "GET", f"/api/games/{gid}/spectators")["url"]
    spectator = browser.new_page(host=False, viewport=TABLE_SIZE)
    spectator.goto(watch)
    expect(spectator.get_by_test_id("camera-learned")).to_have_attribute("data-corrections", "1")
    expect(spectator.get_by_test_id("camera-forget")).to_have_count(0)

    # Undo takes back the correction, and what it taught.
    tap_and_wait(table, "undo")
    expect(learned).to_have_count(0)
    assert call(base, "GET", "/api/devices")["camera"]["learned"]["corrections"] == 0

    # Taught again; then forgotten by the host (a second tap), and the camera reads without it.
    asked(base, gid, table)
    correct_by_hand(table)
    expect(learned).to_have_attribute("data-corrections", "1")
    tap(table, "camera-forget")
    expect(table.get_by_test_id("camera-forget")).to_have_text("Tap again: forget them")
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/learned/forget")) as res:
        tap(table, "camera-forget")
    assert res.value.ok
    expect(learned).to_have_count(0)
    wait_for(lambda: call(base, "GET", "/api/devices")["camera"]["learned"]["in_use"] == 0,
             "the camera to read without the looks forgotten")
    assert not errors, errors
