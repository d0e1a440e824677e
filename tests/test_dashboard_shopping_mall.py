"""The shopping mall in a real browser: the plan is drawn and marked approximate, a walk is a tap on a
reachable point of the plan (as well as a button), the shopper's marker stands there after it, a good
taken leaves its card; the phone of the shopper fits its screen; at the vending machine its crate of
black drinks goes through the (simulated) tower."""
from __future__ import annotations

import pytest
from browser_support import assert_fits, call, tap_and_wait, wait_until
from playwright.sync_api import expect

from companion.rules.games.mall_plan import PLANS

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
VIEW_SHOWN = "() => document.getElementById('app').dataset.seq !== undefined"
PLAN = PLANS["approximate"]


def steps(a, b):
    """Steps along the plan's lines from point ``a`` to ``b``."""
    seen, frontier, k = {a}, {a}, 0
    while b not in frontier:
        frontier = {q for p in frontier for q in PLAN.neighbours[p]} - seen
        seen |= frontier
        k += 1
    return k


def turn_towards(base, gid, target, shopper):
    """The shopper whose turn it is walks as near ``target`` as a turn goes, then passes (by the API),
    unless it is ``shopper`` and they arrived."""
    view = call(base, "GET", f"/api/games/{gid}/view")
    walk = min((m["move"] for m in view["moves"] if m["move"]["kind"] in ("move", "enter")),
               key=lambda m: steps(m["args"]["point"], target))
    call(base, "POST", f"/api/games/{gid}/moves", {"move": walk})
    seat = walk["player"]
    if walk["args"]["point"] != target or seat != shopper:
        call(base, "POST", f"/api/games/{gid}/moves", {"move": {"kind": "pass", "player": seat, "args": {}}})
    return seat


def test_a_walk_tapped_on_the_plan_and_a_good_taken(base_url, browser):
    created = call(base_url, "POST", "/api/games", {
        "game": "shopping_mall", "names": ["Aki", "Ben"], "bots": [], "simulated": True, "seed": 3,
        "options": {"shelves": "sorted"}})
    gid, errors = created["id"], []
    table = browser.new_page(viewport=TABLE_SIZE)
    table.on("pageerror", lambda err: errors.append(f"table: {err}"))
    table.goto(f"{base_url}/?game={gid}")
    wait_until(table, VIEW_SHOWN, "the table's first view")
    plan = table.get_by_test_id("sm-plan")
    expect(plan).to_have_attribute("data-approximate", "true")
    expect(table.get_by_test_id("sm-approximate")).to_be_visible()
    if call(base_url, "GET", f"/api/games/{gid}/view")["state"]["phase"] == "start":
        tap_and_wait(table, table.locator("[data-testid^=chance-]").first)   # who starts

    view = call(base_url, "GET", f"/api/games/{gid}/view")
    seat = view["state"]["to_act"][0]["actor"]
    assert view["state"]["phase"] == "move" and "d5" in view["state"]["reachable"]
    expect(table.get_by_test_id("move-enter-d5")).to_be_visible()          # the button, named like the point
    tap_and_wait(table, "sm-reach-d5")                                     # the point itself
    state = call(base_url, "GET", f"/api/games/{gid}/view")["state"]
    assert state["phase"] == "shop" and state["players"][seat]["standing"] == "d5"
    expect(table.locator(f"[data-testid=sm-shopper-{seat}]")).to_have_attribute("data-at", "d5")
    expect(table.locator("[data-testid=sm-card-r3_4]")).to_have_attribute("data-goods", "4")

    tap_and_wait(table, "move-take-r3_4-magazine")
    expect(table.locator("[data-testid=sm-card-r3_4]")).to_have_attribute("data-goods", "3")
    state = call(base_url, "GET", f"/api/games/{gid}/view")["state"]
    assert state["players"][seat]["crate"] == ["magazine#1"] and state["phase"] == "move"

    other = 1 - seat   # the next shopper's phone: the plan with the points to tap, within 390 px
    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    phone.on("pageerror", lambda err: errors.append(f"phone: {err}"))
    phone.goto(created["players"][other]["url"])
    expect(phone.get_by_test_id("me")).to_be_visible()
    expect(phone.get_by_test_id("sm-reach-d5")).to_be_visible()
    assert_fits(phone, "the shopper's phone while walking")

    # To the vending machine: the black drinks tipped through the tower, what came out in the crate.
    machine = PLAN.vending[0]
    for _ in range(12):
        turn_towards(base_url, gid, machine, seat)
        if call(base_url, "GET", f"/api/games/{gid}/view")["state"]["phase"] == "shop":
            break
    state = call(base_url, "GET", f"/api/games/{gid}/view")["state"]
    assert state["phase"] == "shop" and state["players"][seat]["standing"] == machine
    shown = table.locator("[data-testid=move-use_machine]")
    expect(shown).to_be_visible()
    tap_and_wait(table, "move-use_machine")
    tap_and_wait(table, "throw")                       # the simulated tower decides what comes out
    state = call(base_url, "GET", f"/api/games/{gid}/view")["state"]
    got = [d for d in state["players"][seat]["crate"] if d.startswith("black-")]
    assert len(got) + len(state["machine"]) == 6 and state["phase"] == "move"
    expect(table.get_by_test_id("sm-machine")).to_have_attribute("data-drinks", str(len(state["machine"])))
    assert not errors, errors
