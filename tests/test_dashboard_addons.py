"""The add-ons' items on the dashboard (rule book 002, Mr. Sudsy's laundromat): at a real table a
detergent bottle thrown into the tower is drawn and entered by taps like a drink; one that sticks
is listed in the stuck panel (and never offered as falling out on its own), and the next bottle may
push it out."""
from __future__ import annotations

from browser_support import assert_fits, call, tap, tap_and_wait
from playwright.sync_api import expect

TABLE_SIZE = {"width": 1280, "height": 800}


def test_a_bottle_is_tapped_in_and_out_of_the_tower_and_shown_while_stuck(base_url, browser):
    created = call(base_url, "POST", "/api/games", {"game": "mr_sudsy", "names": ["Aki", "Ben"], "bots": [],
                                                     "simulated": False, "seed": 1})
    gid = created["id"]
    call(base_url, "POST", f"/api/games/{gid}/moves", {"move": {"kind": "visit", "player": "chance",
                                                                "args": {"seat": 0}}})
    table = browser.new_page(viewport=TABLE_SIZE)
    table.goto(f"{base_url}/?game={gid}")
    tap_and_wait(table, "move-buy-detergent-1")
    # The bottle is the one thing that can come out: drawn, named, tapped like a drink.
    bottle = table.get_by_test_id("tap-detergent-1")
    expect(bottle.locator("svg.detergent")).to_have_attribute("aria-label", "detergent bottle 1")
    expect(table.get_by_test_id("tapper")).to_contain_text("Tap every bottle that came out")
    tap_and_wait(table, "tap-confirm")                                   # nothing came out: it stuck
    stuck = table.get_by_test_id("stuck")
    expect(stuck.locator('[data-drink="detergent-1"]')).to_have_count(1)
    expect(table.get_by_test_id("spill-open")).to_have_count(0)          # a bottle never falls out on its own
    tap_and_wait(table, "move-buy-detergent-2")
    table.get_by_test_id("tap-detergent-1").click()                      # pushed out by the second bottle
    table.get_by_test_id("tap-detergent-2").click()
    tap_and_wait(table, "tap-confirm")
    view = call(base_url, "GET", f"/api/games/{gid}/view")
    assert view["state"]["players"][0]["bottles"] == ["detergent-1", "detergent-2"]
    assert view["state"]["tower"]["stuck"] == [] and view["state"]["players"][0]["yen"] == 600
    expect(stuck.locator("[data-drink]")).to_have_count(0)
    tap(table, "lang-ja")
    expect(table.get_by_test_id("move-use-detergent-1")).to_contain_text("使う")
    assert_fits(table, "Mr. Sudsy's table view")
