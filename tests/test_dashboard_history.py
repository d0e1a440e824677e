"""The history page in Chromium against the real `companion serve`: reached from the lobby, it
lists the games played in this test (one to its end, one ended early), draws the wins chart and
the tower's 6 x 6 grid of drinks, switches to German, replays a downloaded log, and fits a phone
(390 x 844) without sideways scroll. Screenshots at tablet and phone size: /tmp/history-*.png."""
from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import call, for_a_person, tap, wait_until
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp")
READY = "() => document.getElementById('app').dataset.ready === '1'"


def test_the_history_lists_the_games_played_and_draws_its_charts(browser, base_url):
    done = call(base_url, "POST", "/api/games", {"game": "pocari_bet", "names": ["Aki", "Ben", "Chie"],
                                                 "bots": [0, 1, 2], "seed": 3})["id"]
    ended = call(base_url, "POST", "/api/games", {"game": "pocari_bet", "names": ["Aki", "Dai", "Emi"],
                                                  "bots": [1, 2], "seed": 4})["id"]
    call(base_url, "POST", f"/api/games/{ended}/end")
    log = call(base_url, "GET", f"/api/games/{done}/log.jsonl", raw=True)

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base_url + "/")
    tap(page, "history-link")                       # the lobby's way in
    wait_until(page, READY, "the history page's data")
    expect(page.get_by_test_id(f"history-game-{done}")).to_contain_text("★")
    expect(page.get_by_test_id(f"history-game-{ended}")).to_contain_text("ended early")
    assert page.get_by_test_id(f"history-log-{done}").get_attribute("href") == f"/api/games/{done}/log.jsonl"
    assert page.locator("[data-testid=chart-wins] g.bar").count() == 3   # Aki, Ben, Chie: the finished game's
    cells = page.locator("[data-testid=chart-drinks] g.cell")
    assert cells.count() == 36
    expect(page.get_by_test_id("tower-simulated")).to_have_attribute("aria-checked", "true")  # no real drop yet
    assert page.locator("[data-testid=chart-drinks] g.cell rect:not([fill='#e8e3d4'])").count() > 0
    page.get_by_test_id("replay-file").set_input_files(
        {"name": f"pocari_bet-{done}.jsonl", "mimeType": "application/x-ndjson", "buffer": log.encode()})
    expect(page.get_by_test_id("replay-result")).to_contain_text("played to the end")
    for_a_person(page, str(SHOTS / "history-tablet.png"), full_page=True)

    tap(page, "lang-de")
    expect(page.locator("h1")).to_have_text("Verlauf und Statistik")
    expect(page.get_by_test_id(f"history-game-{ended}")).to_contain_text("vorzeitig beendet")

    page.set_viewport_size({"width": 390, "height": 844})
    tap(page, "lang-en")
    expect(page.locator("h1")).to_have_text("History and statistics")
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, f"the history page is {wide} px wide on a 390 px phone: it scrolls sideways"
    for_a_person(page, str(SHOTS / "history-phone.png"), full_page=True)
