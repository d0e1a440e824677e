"""What the table types in by hand, on the dashboard (typed_entry.js): the scores of a game played
beside the companion (BOTTLE BONUS's TOKYO JUTAKU yen) with a box per player, a bad number refused
in words on the page before anything is sent, the winners following the typed scores; a Vend
Machine damage beyond the offered buttons, to the unit and from a hit (a refusal of the server shown
in its toast); and the shopping mall's
"a good fell out" as a two-step picker (whose crate, then which good)."""
from __future__ import annotations

import json

import pytest
from browser_support import call, tap, tap_and_wait, wait_until
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
VIEW_SHOWN = "() => document.getElementById('app').dataset.seq !== undefined"


def new_game(base, game, names, **options):
    return call(base, "POST", "/api/games", {"game": game, "names": names, "bots": [], "simulated": False,
                                            "seed": 3, "options": options})["id"]


def chance(base, gid, kind, **args):
    call(base, "POST", f"/api/games/{gid}/moves", {"move": {"kind": kind, "player": "chance", "args": args}})


def view_of(base, gid):
    return call(base, "GET", f"/api/games/{gid}/view")


def open_table(browser, base, gid, errors):
    page = browser.new_page(viewport=TABLE_SIZE)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{base}/?game={gid}")
    wait_until(page, VIEW_SHOWN, "the table's first view")
    return page


def test_bottle_bonus_ends_with_typed_scores_and_a_bad_number_is_refused_on_the_page(base_url, browser):
    gid, errors = new_game(base_url, "bottle_bonus", ["Aki", "Ben", "Chie"]), []
    table = open_table(browser, base_url, gid, errors)
    entry = table.get_by_test_id("typed-end")
    expect(entry).to_contain_text("TOKYO JUTAKU")
    expect(table.get_by_test_id("chance-end")).to_be_visible()            # the plain end stays a choice
    for seat, name in enumerate(["Aki", "Ben", "Chie"]):                  # a box per player, named
        expect(entry.get_by_label(name)).to_have_attribute("max", "1000000")
    error = table.get_by_test_id("typed-end-error")

    table.get_by_test_id("typed-end-input-0").fill("1200")
    table.get_by_test_id("typed-end-input-2").fill("900")
    table.get_by_test_id("lang-de").click()                              # a redraw keeps what was typed
    expect(entry).to_contain_text("Beenden mit den Yen")
    expect(table.get_by_test_id("typed-end-input-0")).to_have_value("1200")
    table.get_by_test_id("lang-en").click()
    expect(entry).to_contain_text("End with each player's")
    tap(table, "typed-end-confirm")                                       # Ben's box is blank
    expect(error).to_have_text("Type a number for Ben.")
    table.get_by_test_id("typed-end-input-1").fill("2000001")
    tap(table, "typed-end-confirm")                                       # beyond the engine's bound
    expect(error).to_contain_text("Ben: the number must be from 0 to 1,000,000")
    table.get_by_test_id("typed-end-input-1").fill("12.5")
    tap(table, "typed-end-confirm")
    expect(error).to_contain_text("Ben: a whole number")
    assert view_of(base_url, gid)["state"]["phase"] == "build"          # nothing was sent

    table.get_by_test_id("typed-end-input-1").fill("1500")
    tap_and_wait(table, "typed-end-confirm")
    st = view_of(base_url, gid)["state"]
    assert st["over"] and st["winners"] == [1] and [p["score"] for p in st["players"]] == [1200, 1500, 900]
    expect(table.get_by_test_id("winners")).to_contain_text("Ben")
    expect(table.get_by_test_id("final-1")).to_have_attribute("data-value", "1500")
    expect(table.get_by_test_id("final-2")).to_have_attribute("data-value", "900")
    assert not errors, errors


def test_vend_machine_takes_and_deals_a_damage_of_seven(base_url, browser):
    gid, errors = new_game(base_url, "vend_machine", ["Aki", "Ben"], chain=0, hp=20), []
    chance(base_url, gid, "drafted", seat=0)
    table = open_table(browser, base_url, gid, errors)
    expect(table.get_by_test_id("chance-damage-3")).to_be_visible()       # the buttons stop at 3
    expect(table.get_by_test_id("chance-damage-7")).to_have_count(0)
    table.get_by_test_id("typed-damage-input-0").fill("21")
    tap(table, "typed-damage-confirm")
    expect(table.get_by_test_id("typed-damage-error")).to_contain_text("from 1 to 20")
    # Should the server still refuse (here: the amount rewritten on its way, past the bound), its
    # words are the toast and nothing changes.
    def past_the_bound(route):
        body = json.loads(route.request.post_data)
        body["move"]["args"]["amount"] = 21
        route.continue_(post_data=json.dumps(body))
    table.route("**/moves*", past_the_bound)
    table.get_by_test_id("typed-damage-input-0").fill("5")
    table.get_by_test_id("typed-damage-confirm").click()
    expect(table.get_by_test_id("toast").last).to_contain_text("1 to 20, not 21")
    table.unroute("**/moves*")
    assert view_of(base_url, gid)["state"]["vend_unit"]["hp"] == 20
    table.get_by_test_id("typed-damage-input-0").fill("7")
    tap_and_wait(table, "typed-damage-confirm")
    assert view_of(base_url, gid)["state"]["vend_unit"]["hp"] == 13

    # A shot that hits Ben's party for 7 (set up through the API: activate, collect, fire, out).
    chance(base_url, gid, "activate")
    call(base_url, "POST", f"/api/games/{gid}/moves", {"move": {"kind": "collect", "player": 0, "args": {"crate": "red"}}})
    drink = view_of(base_url, gid)["state"]["vend_unit"]["ammo"][0]
    chance(base_url, gid, "activate")
    call(base_url, "POST", f"/api/games/{gid}/moves", {"move": {"kind": "fire", "player": 0, "args": {"drinks": [drink]}}})
    chance(base_url, gid, "drop", out=[drink])
    hit = f"typed-hit-{drink}-1"
    expect(table.get_by_test_id(hit)).to_contain_text("Ben")
    table.get_by_test_id(f"{hit}-input-0").fill("7")
    tap_and_wait(table, f"{hit}-confirm")
    st = view_of(base_url, gid)["state"]
    assert [p["damage"] for p in st["players"]] == [0, 7] and st["hits"] == 1 and st["phase"] == "battle"
    assert not errors, errors


def test_the_mall_fell_out_picker_takes_whose_crate_then_which_good(base_url, browser):
    gid, errors = new_game(base_url, "shopping_mall", ["Aki", "Ben"], shelves="sorted", skill=True), []
    view = view_of(base_url, gid)
    if view["state"]["phase"] == "start":
        chance(base_url, gid, **{"kind": view["chance"]["outcomes"][0]["move"]["kind"],
                                 **view["chance"]["outcomes"][0]["move"]["args"]})
        view = view_of(base_url, gid)
    seat = view["state"]["to_act"][0]["actor"]
    for shopper in (seat, 1 - seat):       # each takes a good at d5; then it is the first one's turn again
        call(base_url, "POST", f"/api/games/{gid}/moves",
             {"move": {"kind": "enter", "player": shopper, "args": {"point": "d5"}}})
        take = next(m["move"] for m in view_of(base_url, gid)["moves"] if m["move"]["kind"] == "take")
        call(base_url, "POST", f"/api/games/{gid}/moves", {"move": take})
    st = view_of(base_url, gid)["state"]
    assert len(st["players"][seat]["crate"]) == 1 and st["to_act"][0]["actor"] == seat
    good = st["players"][seat]["crate"][0]

    table = open_table(browser, base_url, gid, errors)
    picker = table.get_by_test_id("sm-fell-out")
    expect(picker.get_by_test_id(f"sm-lose-first-{seat}")).to_be_visible()
    tap(table, f"sm-lose-first-{seat}")
    expect(picker.locator("[data-testid^=move-lose-]")).to_have_count(1)
    tap_and_wait(table, picker.get_by_test_id(f"move-lose-{good}"))
    assert view_of(base_url, gid)["state"]["players"][seat]["crate"] == []
    expect(table.get_by_test_id("sm-fell-out")).to_have_count(0)
    assert not errors, errors
