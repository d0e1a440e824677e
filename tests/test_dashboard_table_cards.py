"""The table's own METRO cards in Chromium against the real `companion serve`: the host enters a
set with a fault and reads it under its file, fixes it, sees the board on the map and the numbers,
saves it, picks it in the lobby for a TOKYO METRO game and sees the game play it."""
from __future__ import annotations

import json
import re

import pytest
from browser_support import call, tap, wait_until
from playwright.sync_api import expect

from companion.rules.metro.board import DATA, read_json
from companion.rules.metro.corrections import FORMAT

pytestmark = pytest.mark.browser

READY = "() => document.getElementById('app').dataset.ready === '1'"


def test_the_host_enters_checks_saves_and_plays_the_tables_own_cards(browser, base_url):
    stock = read_json(DATA / "stock_cards.json")
    stock["cards"] = [c for c in stock["cards"] if (c["line"], c["number"]) != ("G", 3)]
    wrong = {"format": FORMAT, "version": 1, "lines": {"Q": {"shares": 2}}}
    right = {"format": FORMAT, "version": 1, "lines": {"G": {"shares": 2}}}

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(base_url + "/table-cards")
    wait_until(page, READY, "the table cards page")
    page.get_by_test_id("tc-name").fill("Our box")
    page.get_by_test_id("tc-text-board_corrections").fill(json.dumps(wrong))
    page.get_by_test_id("tc-text-stock_cards").fill(json.dumps(stock))
    tap(page, "tc-check")
    expect(page.get_by_test_id("tc-message")).to_have_attribute("data-kind", "bad")
    fault = page.get_by_test_id("tc-faults-board_corrections")
    expect(fault).to_contain_text("/lines/Q")
    expect(fault).to_contain_text("no line 'Q'")
    expect(page.get_by_test_id("tc-preview")).to_have_count(0)

    page.get_by_test_id("tc-text-board_corrections").fill(json.dumps(right))
    tap(page, "tc-check")
    expect(page.get_by_test_id("tc-message")).to_have_attribute("data-kind", "good")
    expect(page.get_by_test_id("tc-fault")).to_have_count(0)
    preview = page.get_by_test_id("tc-preview")
    expect(preview.get_by_test_id("metro-map")).to_be_visible()
    expect(preview.get_by_test_id("metro-map")).to_have_attribute("data-lines", "12")
    expect(page.get_by_test_id("tc-line-G")).to_have_attribute("data-shares", "2")
    expect(page.get_by_test_id("tc-line-G")).to_contain_text("0 · 300")
    expect(page.get_by_test_id("tc-ids")).to_contain_text("shibuya")

    tap(page, "tc-save")
    expect(page.get_by_test_id("tc-message")).to_contain_text("Our box")
    saved = call(base_url, "GET", "/api/table-cards/sets")["sets"]
    set_id = next(s["id"] for s in saved if s["name"] == "Our box")
    expect(page.get_by_test_id(f"tc-set-{set_id}")).to_be_visible()

    try:
        page.goto(base_url + "/")
        tap(page, "gametype-tokyo_metro")
        tap(page, f"table-cards-{set_id}")
        tap(page, "start-game")
        page.wait_for_url(re.compile(r"/\?game=\w+"))
        expect(page.get_by_test_id("map-cards-from")).to_have_attribute("data-set", "Our box")
        expect(page.get_by_test_id("map-cards-from")).to_contain_text("Our box")
        gid = page.url.split("game=")[1]
        view = call(base_url, "GET", f"/api/games/{gid}/view")["state"]
        assert [len(ln["shares"]) for ln in view["lines"][:2]] == [2, 3]
    finally:
        call(base_url, "DELETE", f"/api/table-cards/sets/{set_id}")
