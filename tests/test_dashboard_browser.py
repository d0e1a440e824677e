"""The dashboard in a real browser: Debian's Chromium driven by Playwright against the real app.

One round of POCARI BET on a simulated table, seats 0 and 1 human and seat 2 the computer:
seat 0 plays on its phone page, seat 1 on the shared table page, both by tapping buttons; the
table throws; then what both pages show must equal what the API reports, reached by WebSocket
pushes alone (no reload). Also: the secret card reaches only its owner's phone; the lobby
starts a game; German; the server's refusal in a toast (a turned-up card that a player holds,
on a real table); bad player links; phone-sized layout; the page reconnects to a restarted
server (the real `companion serve`, stopped and started again on the same data).
"""
from __future__ import annotations

import json
import re

import pytest
from browser_support import REPLY_MS, assert_fits, call, for_a_person, pick_testid, shown, tap, tap_and_wait, wait_until
from playwright.sync_api import expect
from server_support import Server

import game_night

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}  # a 10-inch tablet, landscape
PHONE_SIZE = {"width": 390, "height": 844}


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def check_layout(page, what: str) -> None:
    """No sideways scrolling, readable base font, and every move button a real touch target."""
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"{what}: horizontal scroll ({width[0]} > {width[1]} px)"
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 18, what
    buttons = page.locator("[data-testid^=move-], [data-testid=throw]")
    boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
    small = [b for b in boxes if b and (b["height"] < 44 or b["width"] < 44)]
    assert not small, f"{what}: move buttons smaller than 44 px: {small[:3]}"
    assert_fits(page, what)




def test_lobby_starts_a_game(base_url, browser):
    page = browser.new_page(viewport=TABLE_SIZE)
    page.goto(base_url + "/")
    expect(page.get_by_test_id("name-0")).to_have_value("Aki")
    expect(page.get_by_test_id("name-2")).to_have_value("Chie")
    # Each seat names both choices, person and computer, and marks the one chosen.
    expect(page.get_by_test_id("person-0")).to_be_checked()
    expect(page.get_by_test_id("bot-0")).not_to_be_checked()
    expect(page.get_by_test_id("bot-1")).to_be_checked()
    expect(page.get_by_role("radiogroup", name="Who plays seat 2")).to_contain_text("PersonComputer")
    page.get_by_test_id("person-1").check()  # two people, one computer
    expect(page.get_by_test_id("bot-1")).not_to_be_checked()
    page.get_by_test_id("name-1").fill("Bea")
    tap(page, "start-game")
    page.wait_for_url(re.compile(r"/\?game=\w+"))
    expect(page.get_by_test_id("simulated-banner")).to_be_visible()
    gid = page.url.split("game=")[1]
    (game,) = [g for g in call(base_url, "GET", "/api/games") if g["id"] == gid]
    assert game["names"] == ["Aki", "Bea", "Chie"] and game["bots"] == [2] and game["game"] == "pocari_bet"
    page.goto(base_url + "/")
    expect(page.get_by_test_id(f"game-{gid}")).to_be_visible()
    # The game choice links to its "how to play" page, which needs no key and fits a phone.
    tap(page, "gametype-jasmine_tea")
    expect(page.get_by_test_id("lobby-how")).to_have_attribute("href", "/how/jasmine_tea")
    browser.put_away(page)
    how = browser.new_page(viewport=PHONE_SIZE, host=False)
    how.goto(base_url + "/how/jasmine_tea")
    for part in ("aim", "setup", "turn", "end"):
        expect(how.get_by_test_id(f"how-{part}")).to_be_visible()
    expect(how.get_by_test_id("how-kind-bid")).to_contain_text("only the highest bidder pays")
    expect(how.get_by_test_id("how-kind-bid")).to_contain_text("002 JASMINE TEA: VORBEREITUNG")
    check_layout(how, "how to play at 390 px")
    for_a_person(how, "/tmp/dash-how-phone.png", full_page=True)
    tap(how, "lang-de")
    expect(how.get_by_test_id("how-kind-bid")).to_contain_text("nur das höchste wird bezahlt")
    tap(how, "lang-en")
    how.goto(base_url + "/how/no_such_game")
    expect(how.get_by_test_id("how-unknown")).to_be_visible()


def test_one_round_on_table_and_phone(base_url, browser):
    game = call(base_url, "POST", "/api/games",
                {"game": "pocari_bet", "names": ["Aki", "Ben", "Chie"], "bots": [2], "simulated": True, "seed": 7})
    gid, links = game["id"], [p["url"] for p in game["players"]]
    token0 = links[0].split("token=")[1]

    table = browser.new_page(viewport=TABLE_SIZE)
    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    frames = {"table": [], "phone": []}
    estimated = False  # the estimates asked for on the phone in the draft
    errors = []
    for name, page in (("table", table), ("phone", phone)):
        page.on("websocket", lambda ws, name=name: ws.on("framereceived", lambda p, name=name: frames[name].append(p)))
        page.on("pageerror", lambda err, name=name: errors.append(f"{name}: {err}"))
    table.goto(f"{base_url}/?game={gid}")
    phone.goto(links[0])
    for page in (table, phone):
        expect(page.get_by_test_id("phase")).to_be_visible()
        page.evaluate("window.__sameDocument = true")  # gone if the page ever reloads
    expect(table.get_by_test_id("simulated-banner")).to_be_visible()

    # The join panel: a QR code and the link for each person, none for the computer.
    expect(table.get_by_test_id("join-0")).to_have_attribute("href", links[0])
    expect(table.get_by_test_id("join-1")).to_have_attribute("href", links[1])
    assert table.get_by_test_id("join-2").count() == 0
    wait_until(table, "[...document.querySelectorAll('img.qr')].every(i => i.complete && i.naturalWidth > 0)",
               "the join panel's QR codes to load")

    expect(table.get_by_test_id("how-link")).to_have_attribute("href", "/how/pocari_bet")
    checked_secret = taught = False
    told = computer_moves = 0  # the table's feed looked at up to this record; the computer's moves in it
    for _ in range(30):
        view = call(base_url, "GET", f"/api/games/{gid}/view")
        if view["state"]["phase"] == "drop":
            break
        actor = view["state"]["to_act"][0]["actor"]
        assert actor in (0, 1), f"the game waits for {actor!r}: the computer and the simulated table act at once"
        if view["state"]["phase"] == "draft" and not checked_secret:
            # Everyone drew: seat 0's card is on seat 0's phone, and nowhere on the table page.
            secret = call(base_url, "GET", f"/api/games/{gid}/view", token=token0)["state"]["players"][0]["secret"]
            assert secret
            expect(phone.get_by_test_id("secret-card")).to_have_attribute("data-card", secret)
            expect(phone.locator(f'[data-testid=secret-card] svg[data-card="{secret}"]')).to_be_visible()
            assert table.get_by_test_id("secret-card").count() == 0
            assert table.locator(f'[data-card="{secret}"]').count() == 0
            checked_secret = True
        page = phone if actor == 0 else table
        shown(page, view["seq"])
        if actor == 1:  # at the table: what the computer did since is in its feed, in words
            game_night.open_feed(table)
            told, checked = game_night.computer_moves_told(table, view, told)
            computer_moves += checked
        if actor == 0 and view["state"]["phase"] == "draft" and not estimated:
            # The draft on the phone: the snake order in words, and the estimates on the 36 drinks'
            # buttons, each inside its own (they used to spill over the next ones).
            expect(phone.get_by_test_id("draft-order").locator("li")).to_have_count(6)
            expect(phone.get_by_test_id("secret-card-name")).not_to_be_empty()
            tap(phone, "estimate-btn")
            # (an estimate is 2 s of the server's CPU: 20 s and more beside a busy machine's other work)
            expect(phone.locator("[data-testid=estimates].ready")).to_be_visible(timeout=REPLY_MS)
            estimated = True
        if actor == 0:
            check_layout(phone, f"phone, {view['state']['phase']}")
        if actor == 0 and view["state"]["phase"] == "invest" and not taught:
            # Each stake says why it pays what it does; teach mode adds what investing is and its rule.
            expect(phone.get_by_test_id("move-invest-100").get_by_test_id("why")).to_contain_text("per matching drink")
            assert phone.get_by_test_id("teach-invest").count() == 0
            tap(phone, "teach-toggle")
            expect(phone.get_by_test_id("teach-invest")).to_contain_text("Rule book 002 POCARI BET: SPIELABLAUF 4")
            check_layout(phone, "phone, invest, teach mode")
            for_a_person(phone, "/tmp/dash-phone-teach.png", full_page=True)
            tap(phone, "teach-toggle")
            expect(phone.get_by_test_id("teach-invest")).to_have_count(0)
            taught = True
        testid = pick_testid(view)
        tap_and_wait(page, testid)
        after = call(base_url, "GET", f"/api/games/{gid}/view")
        assert after["seq"] > view["seq"], f"tapping {testid} changed nothing"
        shown(table, after["seq"], "the table")
        shown(phone, after["seq"], "the phone")  # the page that did not act learns it by WebSocket
    else:
        pytest.fail("the round did not reach the throw")
    assert checked_secret and taught

    expect(table.get_by_test_id("phase")).to_have_attribute("data-phase", "drop")
    assert estimated, "the phone's draft was never shown with its estimates"
    assert phone.get_by_test_id("throw").count() == 0  # the table throws, not a phone
    check_layout(table, "table, drop")
    tap_and_wait(table, "throw")
    view = call(base_url, "GET", f"/api/games/{gid}/view")
    shown(table, view["seq"], "the table")
    shown(phone, view["seq"], "the phone")

    # Both pages show what the API reports.
    last, yen = view["state"]["last_round"], view["payouts"]["yen"]
    assert last and last["round"] == 1
    for page in (table, phone):
        expect(page.get_by_test_id("round-result")).to_be_visible()
        for seat in range(3):
            paid = page.get_by_test_id(f"paid-{seat}")
            expect(paid).to_have_attribute("data-value", str(last["paid"][seat]))
            assert digits(paid.inner_text()) == str(last["paid"][seat])
            money = page.get_by_test_id(f"player-{seat}-yen")
            expect(money).to_have_attribute("data-value", str(yen[seat]))
            assert digits(money.inner_text()) == str(yen[seat])
        expect(page.get_by_test_id("stuck")).to_be_visible()
    expect(phone.get_by_test_id("my-yen")).to_have_attribute("data-value", str(yen[0]))
    expect(table.get_by_test_id("round")).to_contain_text("2/9")
    assert table.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-testid=player-0-yen]')).fontSize)") >= 28
    for page in (table, phone):
        assert page.evaluate("window.__sameDocument === true"), "a page reloaded"

    # The table page never received a secret card; the phone received its own.
    table_views = [json.loads(f) for f in frames["table"]]
    assert table_views and all(p["secret"] is None for v in table_views for p in v["state"]["players"]
                               if v["state"]["phase"] != "over")
    assert any(json.loads(f)["state"]["players"][0]["secret"] for f in frames["phone"])

    # The computer's moves were told in the feed (all of them, by the feed's route: the METRO game,
    # whose log a finished game gives); the main views kept for a person to look at.
    assert computer_moves, "the table's feed never told a move of the computer"
    game_night.screenshot(table, "pocari-table-round")
    game_night.screenshot(phone, "pocari-phone-round")

    # German, remembered across a reload (seat 0 has the crate now, so it draws first).
    assert view["state"]["to_act"][0]["actor"] == 0
    expect(table.get_by_test_id("phase")).to_have_text("Draw a secret card")
    tap(table, "lang-de")
    expect(table.get_by_test_id("phase")).to_have_text("Geheime Karte ziehen")
    table.reload()
    expect(table.get_by_test_id("phase")).to_have_text("Geheime Karte ziehen")
    tap(table, "lang-en")

    # The table view on a phone-sized screen.
    table.set_viewport_size(PHONE_SIZE)
    expect(table.get_by_test_id("move-draw-colour")).to_be_visible()
    check_layout(table, "table view at 390 px")

    # Player links: none, or a wrong one, say so plainly.
    other = browser.new_page(viewport=PHONE_SIZE)
    other.goto(f"{base_url}/player?game={gid}&token=not-a-token")
    expect(other.get_by_test_id("bad-token")).to_be_visible()
    other.goto(f"{base_url}/player?game={gid}")
    expect(other.get_by_test_id("no-token")).to_be_visible()
    assert not errors, errors


def test_reconnects_after_the_server_restarts(tmp_path, browser):
    with Server(tmp_path / "data") as server:
        base = server.url
        gid = call(base, "POST", "/api/games", {"names": ["Aki", "Ben", "Chie"], "bots": [1, 2], "seed": 1})["id"]
        page = browser.new_page(viewport=TABLE_SIZE)
        page.goto(f"{base}/?game={gid}")
        expect(page.get_by_test_id("move-draw-colour")).to_be_visible()
        expect(page.get_by_test_id("conn")).to_be_hidden()
        server.stop()
        expect(page.get_by_test_id("conn")).to_be_visible()  # "reconnecting"
        server.start()  # the same data on the same port: the game resumes
        # The page tries again after 0.5, 1, 2, 4, then every 8 s.
        expect(page.get_by_test_id("conn")).to_be_hidden()
        seq = call(base, "GET", f"/api/games/{gid}/view")["seq"]
        tap_and_wait(page, "move-draw-colour")
        shown(page, seq + 1)


def test_real_table_pickers(base_url, browser):
    """A table with a real tower: people enter the start player, the turned-up cards, their
    secret card (on the phone) and what came out; an unsure camera reading asks first."""
    game = call(base_url, "POST", "/api/games",
                {"names": ["Aki", "Ben", "Chie"], "bots": [], "simulated": False, "seed": 3})
    gid, links = game["id"], [p["url"] for p in game["players"]]
    tokens = [u.split("token=")[1] for u in links]
    table = browser.new_page(viewport=TABLE_SIZE)
    table.goto(f"{base_url}/?game={gid}")
    assert table.get_by_test_id("simulated-banner").count() == 0
    tap_and_wait(table, "chance-start_player-0")

    phone = browser.new_page(viewport=PHONE_SIZE)
    phone.goto(links[0])
    tap_and_wait(table, "move-draw-shape")
    first = phone.locator("[data-testid^=enter-secret-]").first
    card = first.get_attribute("data-testid").removeprefix("enter-secret-")
    tap_and_wait(phone, f"enter-secret-{card}")
    expect(phone.get_by_test_id("secret-card")).to_have_attribute("data-card", card)
    for seat in (1, 2):
        # the table first shows the move made on another screen: otherwise that move's late
        # update could pass for the reply to this tap (a race a busy machine caught)
        shown(table, call(base_url, "GET", f"/api/games/{gid}/view")["seq"])
        tap_and_wait(table, "move-draw-colour")
        chance = call(base_url, "GET", f"/api/games/{gid}/view", token=tokens[seat])["chance"]
        call(base_url, "POST", f"/api/games/{gid}/moves", {"move": chance["outcomes"][0]["move"]}, token=tokens[seat])

    secrets = {call(base_url, "GET", f"/api/games/{gid}/view", token=tokens[s])["state"]["players"][s]["secret"]
               for s in range(3)}
    colour = next(c for c in ("red", "mint", "white", "purple") if c not in secrets)
    shape = next(s for s in ("tall_can", "short_can", "stubby_can") if s not in secrets)
    shown(table, call(base_url, "GET", f"/api/games/{gid}/view")["seq"])

    # Somebody turns up a card that a player holds as their secret: the server refuses (409), and
    # the table says why in a toast; nothing changes.
    held = next(c for c in secrets if c in ("black", "white", "mint", "blue", "red", "purple"))
    seq = call(base_url, "GET", f"/api/games/{gid}/view")["seq"]
    tap(table, f"turnup-colour-{held}")
    tap(table, f"turnup-shape-{shape}")
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith("/moves")) as res:
        tap(table, "turnup-confirm")
    assert res.value.status == 409, f"{res.value.status} {res.value.text()}"
    expect(table.get_by_test_id("toast")).to_contain_text("cannot both be turned up now")
    expect(table.get_by_test_id("toast")).to_contain_text(res.value.json()["detail"])
    assert call(base_url, "GET", f"/api/games/{gid}/view")["seq"] == seq
    table.locator("[data-testid=toast] .toast-close").click()

    # The right colour instead; the shape stays chosen.
    tap(table, f"turnup-colour-{colour}")
    expect(table.get_by_test_id(f"turnup-shape-{shape}")).to_have_attribute("aria-pressed", "true")
    tap_and_wait(table, "turnup-confirm")
    expect(table.locator(f'[data-testid=faceup] svg[data-drink="{colour}-{shape}"]')).to_be_visible()

    for _ in range(20):  # draft, invest and declare through the API: tested on the simulated table
        view = call(base_url, "GET", f"/api/games/{gid}/view")
        if view["state"]["phase"] == "drop":
            break
        call(base_url, "POST", f"/api/games/{gid}/moves", {"move": view["moves"][0]["move"]})
    shown(table, view["seq"])
    thrown = view["chance"]["thrown"]
    out = sorted(thrown[:2])
    for drink in out:
        tap(table, f"tap-{drink}")
    expect(table.get_by_test_id("tap-confirm")).to_contain_text("2")
    tap_and_wait(table, "tap-confirm")
    view = call(base_url, "GET", f"/api/games/{gid}/view")
    assert view["state"]["last_round"]["drop"]["out"] == out
    shown(table, view["seq"])
    shown_out = table.locator("[data-testid=result-out] svg[data-drink]")
    assert sorted(shown_out.nth(i).get_attribute("data-drink") for i in range(shown_out.count())) == out
    stuck = view["state"]["tower"]["stuck"]
    assert stuck and table.locator("[data-testid=stuck] svg[data-drink]").count() == len(stuck)

    # Someone unsure that a drink fell out enters it as unsure (the camera's own unsure readings
    # come inside the service; only a person's come through the API): the table asks, a person confirms.
    call(base_url, "POST", f"/api/games/{gid}/observations",
         {"source": "person", "appeared": [stuck[0]], "confidence": 0.5})
    expect(table.get_by_test_id("question")).to_be_visible()
    tap_and_wait(table, "question-confirm")
    expect(table.get_by_test_id("question")).to_be_hidden()
    assert stuck[0] not in call(base_url, "GET", f"/api/games/{gid}/view")["state"]["tower"]["stuck"]
