"""IZAKAYA in a real browser: a short two-player game (one action phase) played through the
dashboard to the final scoring. The simulated table draws the first turn order, each player bids
on their own phone, the table taps the action discs; the town shows the claim, the drinks at the corners with their
prices and the building's storeys, and the final standings show what the payouts score."""
from __future__ import annotations

import pytest
from browser_support import assert_fits, call, tap_and_wait, wait_until
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
VIEW_SHOWN = "() => document.getElementById('app').dataset.seq !== undefined"


def phone(browser, url, errors):
    page = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    page.on("pageerror", lambda err: errors.append(f"phone: {err}"))
    page.goto(url)
    expect(page.get_by_test_id("me")).to_be_visible()
    return page


def test_a_short_izakaya_game_to_the_final_scoring(base_url, browser):
    created = call(base_url, "POST", "/api/games", {
        "game": "izakaya", "names": ["Aki", "Ben"], "bots": [], "simulated": True, "seed": 3,
        # white at 200 and blue at 300 (the rule book's example); one action phase, then the end
        "options": {"max_rounds": 1, "colour_row": ["black", "mint", "white", "red", "blue", "purple"]}})
    gid, errors = created["id"], []
    table = browser.new_page(viewport=TABLE_SIZE)
    table.on("pageerror", lambda err: errors.append(f"table: {err}"))
    table.goto(f"{base_url}/?game={gid}")
    wait_until(table, VIEW_SHOWN, "the table's first view")
    expect(table.get_by_test_id("iz-grid")).to_be_visible()
    expect(table.get_by_test_id("iz-pot")).to_contain_text("1,500")

    # (the simulated table draws the turn order discs; the bids decide the order anyway)
    phones = [phone(browser, created["players"][seat]["url"], errors) for seat in (0, 1)]
    tap_and_wait(phones[0], "move-bid-200", table=table)     # Aki first, Ben pays nothing
    tap_and_wait(phones[1], "move-bid-0", table=table)
    expect(table.get_by_test_id("iz-pot")).to_contain_text("200")

    for move in ("move-claim-0-1",          # Aki claims plot 0
                 "move-drink-white-5",      # Ben: a white drink where four cards meet
                 "move-build-0-0-2",        # Aki: two storeys on plot 0
                 "move-drink-blue-6",       # Ben: blue, at a corner of cards 1 and 2
                 "move-build-0-0-3",        # Aki: the third storey
                 "move-price-black-white"):  # Ben: white rises to 300
        tap_and_wait(table, move)

    expect(table.get_by_test_id("game-over")).to_be_visible()
    # Plot 0 touches only corner 5 (white, now 300): 3 storeys x 300 = 900, plus Aki's 800 yen.
    pay = call(base_url, "GET", f"/api/games/{gid}/view")["payouts"]
    assert pay["buildings"] == [900, 0] and pay["projected"] == [1700, 1000]
    expect(table.get_by_test_id("final-0")).to_contain_text("1,700")
    expect(table.get_by_test_id("final-1")).to_contain_text("1,000")
    expect(table.get_by_test_id("winners")).to_contain_text("Aki")
    town = table.get_by_test_id("iz-grid")
    expect(town.locator("[data-testid=iz-card-0]")).to_have_attribute("data-storeys", "3")
    expect(town.locator("[data-testid=iz-card-0]")).to_have_attribute("data-owner", "0")
    expect(town.locator("[data-testid=iz-claim-0-1]")).to_have_attribute("data-seat", "0")
    expect(town.locator("[data-testid=iz-corner-5]")).to_have_attribute("data-price", "300")
    expect(town.locator("[data-testid=iz-corner-6]")).to_have_attribute("data-drink", "blue-stubby_can")
    for page in phones:
        expect(page.get_by_test_id("game-over")).to_be_visible()
        assert_fits(page, "an IZAKAYA phone at the end")
    assert not errors, errors
