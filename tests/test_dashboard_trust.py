"""The trust model on the dashboard (issue 25): the host link turns a tablet into the table, a
join link turns a phone into its seat (and leaves the address bar without the key), a
spectator link shows the table with nothing to press, a lost phone is shut out by a new link,
the host ends a game, and a busy server's answer reaches the player as a toast. Real
`companion serve`, real Chromium; pages are strangers unless a test gives them the host key."""
from __future__ import annotations

import threading
import urllib.error

from browser_support import call, tap, tap_and_wait, wait_until
from playwright.sync_api import expect
from server_support import HOST_KEYS

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}


def new_game(base: str, **body) -> dict:
    return call(base, "POST", "/api/games", {"game": "pocari_bet", "names": ["Aki", "Ben", "Chie"], "seed": 3, **body})


def test_the_host_link_turns_a_tablet_into_the_table(base_url, browser):
    tablet = browser.new_page(host=False, viewport=TABLE_SIZE)
    tablet.goto(base_url + "/")
    expect(tablet.get_by_test_id("need-host")).to_be_visible()   # a stranger learns how to get in, nothing more
    assert tablet.get_by_test_id("new-game").count() == 0
    tablet.goto(f"{base_url}/?host={HOST_KEYS[base_url]}")
    expect(tablet.get_by_test_id("new-game")).to_be_visible()
    assert "host=" not in tablet.url, "the key stays in the address bar"
    assert any(c["name"] == "ttc_host" and c["httpOnly"] for c in tablet.context.cookies())
    assert "ttc_host" not in tablet.evaluate("document.cookie"), "a script of the page can read the key"
    tablet.goto(f"{base_url}/?host=not-the-key")
    expect(tablet.get_by_test_id("new-game")).to_be_visible()    # a wrong link takes nothing away


def test_phones_spectators_a_lost_phone_and_the_end(base_url, browser):
    gid = new_game(base_url)["id"]
    table = browser.new_page(viewport=TABLE_SIZE)
    table.goto(f"{base_url}/?game={gid}")
    expect(table.get_by_test_id("join")).to_be_visible()
    expect(table.get_by_test_id("fed")).to_be_visible()
    ben = table.get_by_test_id("join-1").get_attribute("href")

    phone = browser.new_page(host=False, viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    phone.goto(ben)
    expect(phone.locator("#me-name")).to_have_text("Ben")
    assert "token" not in phone.url, f"the seat's key stays in the address bar: {phone.url}"
    phone.reload()
    expect(phone.locator("#me-name")).to_have_text("Ben")        # the key lives on in the cookie

    watch = table.get_by_test_id("watch-link").get_attribute("href")
    spectator = browser.new_page(host=False, viewport=TABLE_SIZE)
    spectator.goto(watch)
    expect(spectator.get_by_test_id("spectator-badge")).to_be_visible()
    assert "watch" not in spectator.url
    actor = call(base_url, "GET", f"/api/games/{gid}/view")["state"]["to_act"][0]["actor"]
    expect(spectator.get_by_test_id("who")).to_contain_text(["Aki", "Ben", "Chie"][actor])
    for testid in ("undo", "join", "lobby-link", "end-game", "feed-here", "fed"):
        expect(spectator.get_by_test_id(testid)).to_have_count(0)
    assert table.locator("[data-testid^=move-]").count() > 0
    assert spectator.locator("[data-testid^=move-]").count() == 0, "a spectator is offered moves"
    spectator.goto(f"{base_url}/")
    expect(spectator.get_by_test_id("need-host")).to_be_visible()  # no lobby for a spectator
    spectator.goto(f"{base_url}/?game={gid}")                      # the cookie still shows the game
    expect(spectator.get_by_test_id("spectator-badge")).to_be_visible()

    # Ben's phone is lost: a new link for seat 1 shuts the old phone out at once.
    tap(table, "revoke-1")
    tap(table, "revoke-1")                                          # the second tap confirms
    expect(phone.get_by_test_id("bad-token")).to_be_visible()
    expect(table.get_by_test_id("join-1")).not_to_have_attribute("href", ben)
    again = table.get_by_test_id("join-1").get_attribute("href")
    found = browser.new_page(host=False, viewport=PHONE_SIZE)
    found.goto(again)
    expect(found.locator("#me-name")).to_have_text("Ben")
    phone.goto(ben)                                                 # the old link opens nothing
    expect(phone.get_by_test_id("bad-token")).to_be_visible()
    try:
        call(base_url, "GET", f"/api/games/{gid}/view", token=ben.split("token=")[1])
        raise AssertionError("the replaced key still opens the game")
    except urllib.error.HTTPError as exc:
        assert exc.code == 403

    # The host ends the game: every page shows it ended, and no move is offered any more.
    tap(table, "end-game")
    tap_and_wait(table, "end-game")
    for page in (table, spectator, found):
        expect(page.get_by_test_id("ended")).to_be_visible()
    assert table.locator("[data-testid^=move-]").count() == 0


def test_a_busy_server_says_so_in_a_toast(base_url, browser):
    """Estimates beyond what the server runs at once are answered 429: the player's phone shows
    the server's words and the button comes back (issue 25, defect 4)."""
    created = call(base_url, "POST", "/api/games", {"game": "tokyo_metro", "names": ["Aki", "Ben", "Chie"], "seed": 5})
    gid = created["id"]
    links = [p["url"] for p in created["players"]]
    keys = [url.split("token=")[1] for url in links]
    phone = browser.new_page(host=False, viewport=PHONE_SIZE)
    phone.goto(links[0])
    expect(phone.get_by_test_id("estimate-btn")).to_be_enabled()

    stop = threading.Event()

    def keep_busy(n: int) -> None:  # other phones keep the estimates full (each a new question)
        asked = 0
        while not stop.is_set():
            playouts = 2000 - (asked * 7 + n) % 1500
            asked += 1
            try:
                call(base_url, "GET", f"/api/games/{gid}/estimates?playouts={playouts}", token=keys[1 + n % 2])
            except urllib.error.HTTPError:
                stop.wait(0.02)

    # Each tap of this phone is made a new question (playouts 1-400, which the others never ask),
    # so an answer the server keeps cannot stand in for the busy answer on the next tap; the
    # server itself answers every one of them.
    asked = iter(range(400, 0, -1))
    def ask_anew(route) -> None:
        url = route.request.url
        route.continue_(url=f"{url}{'&' if '?' in url else '?'}playouts={next(asked)}")

    phone.route("**/estimates*", ask_anew)
    busy = [threading.Thread(target=keep_busy, args=(n,), daemon=True) for n in range(6)]
    for thread in busy:
        thread.start()
    try:
        toast = phone.get_by_test_id("toast")
        for _ in range(20):  # a tap may slip into the moment a slot frees: ask again from a fresh page
            phone.get_by_test_id("estimate-btn").click()
            try:
                expect(toast.first).to_contain_text("busy", timeout=5000)
                break
            except AssertionError:
                phone.reload()
                expect(phone.get_by_test_id("estimate-btn")).to_be_enabled()
        expect(toast.first).to_contain_text("ask again")
        expect(phone.get_by_test_id("estimate-btn")).to_be_enabled()    # the button is back
    finally:
        stop.set()
        for thread in busy:
            thread.join(120)


def test_join_warns_on_loopback_and_shows_the_codes_full_screen(base_url, browser):
    # The tests' server listens on 127.0.0.1 alone: the join links point there, phones cannot
    # open them, and the host is told so (issue 28); before the first move the panel leads.
    gid = new_game(base_url)["id"]
    table = browser.new_page(viewport=TABLE_SIZE)
    table.goto(f"{base_url}/?game={gid}")
    join = table.locator(".col-side > [data-testid=join]:first-child")
    expect(join).to_be_visible()
    expect(table.get_by_test_id("join-warning")).to_contain_text("--public-url")
    # The page draws itself anew as the links arrive: wait for the panel as it settles, not one look.
    wait_until(table, """(half) => {
        const el = document.querySelector('.col-side > [data-testid=join]:first-child');
        return el && el.getBoundingClientRect().height > 0 && el.getBoundingClientRect().top < half;
    }""", "the join panel near the top of the table view", arg=TABLE_SIZE["height"] / 2)

    tap(table, "show-codes")
    codes = table.get_by_test_id("join-codes")
    expect(codes).to_be_visible()
    for testid in ("code-0", "code-1", "code-2", "code-watch"):
        expect(codes.get_by_test_id(testid)).to_be_visible()
    expect(codes.get_by_test_id("code-1")).to_contain_text("Ben")
    expect(codes.get_by_test_id("join-warning")).to_be_visible()
    size = codes.bounding_box()
    assert size["width"] >= TABLE_SIZE["width"] - 1 and size["height"] >= TABLE_SIZE["height"] - 1
    qr = codes.get_by_test_id("code-0").locator("img").bounding_box()
    assert qr["width"] >= 250, f"the codes are not shown large: {qr}"
    tap(table, "join-codes-close")
    expect(codes).to_have_count(0)
    tap(table, "show-codes")
    expect(table.get_by_test_id("join-codes")).to_be_visible()
    table.keyboard.press("Escape")
    expect(table.get_by_test_id("join-codes")).to_have_count(0)

    view = call(base_url, "GET", f"/api/games/{gid}/view")   # the first move: the panel steps aside
    call(base_url, "POST", f"/api/games/{gid}/moves", {"move": view["moves"][0]["move"]})
    expect(table.locator(".col-side > [data-testid=join]:last-child")).to_be_visible()
