"""The golden-ball runner race in a real browser: the table taps go, the big clock runs on the
service's clock (on the table and on a player's phone), a player taps done on their phone, and the
race's time, stamped by the service, is shown with the winner."""
from __future__ import annotations

import pytest
from browser_support import call, tap_and_wait, wait_until
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VIEW_SHOWN = "() => document.getElementById('app').dataset.seq !== undefined"
# the clock's text as seconds (m:ss.t)
SECONDS = "(el) => { const [m, s] = el.textContent.split(':'); return Number(m) * 60 + Number(s); }"


def test_the_big_clock_runs_from_go_and_the_race_time_is_the_services(base_url, browser):
    created = call(base_url, "POST", "/api/games", {"game": "golden_runner", "names": ["Aki", "Ben", "Chie"],
                                                    "bots": [], "simulated": True, "seed": 1})
    gid, errors = created["id"], []
    table = browser.new_page(viewport={"width": 1280, "height": 800})
    table.on("pageerror", lambda err: errors.append(f"table: {err}"))
    table.goto(f"{base_url}/?game={gid}")
    wait_until(table, VIEW_SHOWN, "the table's first view")
    expect(table.get_by_test_id("race-clock")).to_have_count(0)
    tap_and_wait(table, "move-go")

    clock = table.get_by_test_id("race-time")
    expect(clock).to_be_visible()
    first = clock.evaluate(SECONDS)
    # the clock runs: its text grows (the wait only bounds a hang)
    wait_until(table, f"([el, first]) => ({SECONDS})(el) > first + 0.3", "the big clock to run",
               arg=[clock.element_handle(), first], timeout_ms=30_000)

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.on("pageerror", lambda err: errors.append(f"phone: {err}"))
    phone.goto(created["players"][2]["url"])
    expect(phone.get_by_test_id("race-time")).to_be_visible()
    # the phone's clock counts from the same stamp: it shows at least the time the table showed
    assert phone.get_by_test_id("race-time").evaluate(SECONDS) >= first
    tap_and_wait(phone, "move-done", table=table)

    expect(table.get_by_test_id("game-over")).to_be_visible()
    result = table.get_by_test_id("race-result-1")
    expect(result).to_contain_text("Chie")
    state = call(base_url, "GET", f"/api/games/{gid}/view")["state"]
    elapsed = state["results"][0]["elapsed_ms"]
    assert elapsed >= 300 and state["results"][0]["winners"] == [2]
    expect(result).to_contain_text(f"{elapsed // 60000}:{elapsed // 1000 % 60:02d}.{elapsed // 100 % 10}")
    assert errors == []
