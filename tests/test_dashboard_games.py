"""Every registered game, played to the end through the dashboard in a real browser.

For each game in ``companion.rules.games.GAMES`` (so a game registered later is covered without
touching this file): the lobby creates it on a simulated table with the fewest seats the game
allows, every seat a person but the last one a computer (a solo game's single seat is the
computer); then the table view is driven by tapping the first offered button (a move, a chance
outcome, the throw) until the game-over panel shows; a secret move (a sealed bid), which only
the player's own phone offers, is tapped there. Every person's phone follows along.
No console errors, no catalogue key or unfilled {slot} on screen, in English and in German.
"""
from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from browser_support import chromium
from playwright.sync_api import expect

from companion.rules.games import GAMES

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
MAX_TAPS = 600
MAX_SECONDS = 120

# What the player taps: the first enabled move, chance outcome, secret card or throw button.
TAPPABLE = ", ".join(f"#app [data-testid{sel}]:enabled" for sel in
                     ("^='move-'", "^='chance-'", "^='enter-secret-'", "='throw'"))
# Text that must never reach the screen: a catalogue key, or a {slot} nobody filled.
RAW = (r"\b(?:move|phase|game|field|chance|pick|kind|value|last|lobby|result|act|money|over|player|pocari)"
       r"\.[a-z_]+\b|\{[a-z_]+\}")
SNAPSHOT = """([raw, tappable]) => {
  const app = document.getElementById('app');
  const bad = document.body.textContent.match(new RegExp(raw));  // textContent: no layout needed
  const phase = document.querySelector('[data-testid=phase]');
  const toast = document.querySelector('[data-testid=toast]');
  const snap = { seq: app.dataset.seq || null, over: !!document.querySelector('[data-testid=game-over]'),
                 phase: phase ? phase.dataset.phase : null, raw: bad ? bad[0] : null,
                 toast: toast ? toast.innerText : null, button: null,
                 wide: document.documentElement.scrollWidth > document.documentElement.clientWidth };
  const button = document.querySelector(tappable);
  if (button) {  // where a finger would tap it, and whether that point is really the button
    button.scrollIntoView({ block: 'center' });
    const r = button.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    snap.button = { testid: button.dataset.testid, x, y, onTop: !!hit && hit.closest('button') === button,
                    small: r.width < 44 || r.height < 44 };
  }
  return snap;
}"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def call(base: str, path: str):
    with urllib.request.urlopen(base + path, timeout=10) as res:
        return json.loads(res.read())


def watch(page, name: str, errors: list[str]) -> None:
    page.on("pageerror", lambda err: errors.append(f"{name}: {err}"))
    page.on("console", lambda msg: errors.append(f"{name}: {msg.text}") if msg.type == "error" else None)


def create_in_lobby(page, base: str, game: str) -> tuple[str, int]:
    """Start `game` through the lobby: fewest seats, all people but the last (a computer)."""
    page.goto(base + "/")
    choice = page.get_by_test_id(f"gametype-{game}")
    expect(choice).to_be_visible()
    assert not re.search(RAW, choice.inner_text()), f"untranslated game name: {choice.inner_text()!r}"
    choice.click()
    expect(choice).to_have_attribute("aria-checked", "true")
    allowed = sorted(GAMES[game].PLAYERS)
    seats = allowed[0]
    if len(allowed) > 1:
        page.get_by_test_id(f"seats-{seats}").click()
    for i in range(seats):
        page.get_by_test_id(f"bot-{i}").set_checked(i == seats - 1)
    assert page.locator("[data-testid^=name-]").count() == seats
    expect(page.get_by_test_id("simulated")).to_be_checked()
    page.get_by_test_id("start-game").click()
    page.wait_for_url(re.compile(r"/\?game=\w+"))
    gid = page.url.split("game=")[1]
    info = next(g for g in call(base, "/api/games") if g["id"] == gid)
    assert info["game"] == game and info["bots"] == [seats - 1] and len(info["names"]) == seats
    return gid, seats


def snapshot(page) -> dict:
    return page.evaluate(SNAPSHOT, [RAW, TAPPABLE])


def wait_for_change(page, seq) -> None:
    page.wait_for_function("s => document.getElementById('app').dataset.seq !== s", arg=seq, timeout=10000)


def play_to_the_end(table, phones, game: str) -> int:
    """Tap the first offered button on the table view (or, for a secret move such as a sealed
    bid, which only its player's phone offers, on that phone) until the game is over."""
    started = time.monotonic()
    table.wait_for_function("() => document.getElementById('app').dataset.seq !== undefined")
    phases = set()
    for taps in range(MAX_TAPS + 1):
        snap = snapshot(table)
        phases.add(snap["phase"])
        assert not snap["raw"], f"{game}, phase {snap['phase']}: {snap['raw']!r} shown as is"
        if snap["over"]:
            return taps
        if taps == MAX_TAPS or time.monotonic() - started > MAX_SECONDS:
            pytest.fail(f"{game} did not finish within {taps} taps / {MAX_SECONDS} s: "
                        f"stuck in phase {snap['phase']!r} (phases seen: {sorted(filter(None, phases))})")
        page, button, seq = table, snap["button"], snap["seq"]
        for phone in phones if button is None else ():
            phone.wait_for_function("n => Number(document.getElementById('app').dataset.seq) >= n",
                                    arg=int(snap["seq"]), timeout=10000)  # the phone is up to date
            mine = snapshot(phone)
            assert not mine["wide"], f"{game}, phone, phase {mine['phase']!r}: the phone scrolls sideways"
            assert not mine["raw"], f"{game}, phone, phase {mine['phase']}: {mine['raw']!r} shown as is"
            if mine["button"]:
                page, button, seq = phone, mine["button"], mine["seq"]
                break
        if button is None:
            who = table.get_by_test_id("who")
            pytest.fail(f"{game}: nothing to tap in phase {snap['phase']!r}: {who.inner_text() if who.count() else '?'}")
        assert button["onTop"], f"{game}: {button['testid']} is covered by something else"
        assert not button["small"], f"{game}: {button['testid']} is smaller than a 44 px touch target"
        assert not snap["wide"], f"{game}, phase {snap['phase']!r}: the table view scrolls sideways"
        page.mouse.click(button["x"], button["y"])  # a tap where the button is (fewer round trips than a locator)
        try:
            try:
                wait_for_change(page, seq)
            except Exception:
                # The page may have redrawn between the snapshot and the tap (a push from another
                # client), moving the button: tap it once more by its test id before failing.
                page.get_by_test_id(button["testid"]).first.click(timeout=5000)
                wait_for_change(page, seq)
            if page is not table:
                wait_for_change(table, snap["seq"])  # the table learns it by WebSocket
        except Exception:
            pytest.fail(f"{game}, phase {snap['phase']!r}: tapping {button['testid']} changed nothing "
                        f"({snapshot(page)['toast'] or 'no message'})")
    raise AssertionError("unreachable")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_play_every_game_to_the_end(game, base_url, browser):
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    gid, seats = create_in_lobby(table, base_url, game)
    expect(table.get_by_test_id("simulated-banner")).to_be_visible()

    phones = []  # every person's phone follows the game by WebSocket pushes (and makes secret moves)
    for link in call(base_url, f"/api/games/{gid}/players"):
        if not link["bot"]:
            phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
            watch(phone, f"phone {link['seat']}", errors)
            phone.goto(link["url"])
            expect(phone.get_by_test_id("me")).to_be_visible()
            phones.append(phone)

    taps = play_to_the_end(table, phones, game)
    view = call(base_url, f"/api/games/{gid}/view")
    assert view["over"], f"{game}: the page shows the game over, the API does not"
    expect(table.get_by_test_id("winners")).to_be_visible()
    for seat in range(seats):
        expect(table.get_by_test_id(f"final-{seat}")).to_be_visible()
    for phone in phones:
        expect(phone.get_by_test_id("game-over")).to_be_visible()
        assert not snapshot(phone)["raw"], f"{game}, phone: {snapshot(phone)['raw']!r} shown as is"

    # German: every word through the catalogue too.
    table.get_by_test_id("lang-de").click()
    expect(table.get_by_test_id("game-over")).to_contain_text("Spielende")
    assert not snapshot(table)["raw"], f"{game}, DE: {snapshot(table)['raw']!r} shown as is"
    table.get_by_test_id("lang-en").click()
    assert not errors, f"{game} ({taps} taps): {errors}"
    for page in (table, *phones):
        page.close()


def test_real_table_generic_pickers(base_url, browser):
    """A game without a renderer of its own on a table with a real tower: who starts is picked
    from generic chance buttons, and what came out of the tower is tapped drink by drink."""
    game = "melon_soda"
    if game not in GAMES:
        pytest.fail(f"{game} is not registered: pick another game for the real-table pickers")
    body = json.dumps({"game": game, "names": ["Aki", "Ben"], "bots": [1], "simulated": False, "seed": 5}).encode()
    req = urllib.request.Request(base_url + "/api/games", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        gid = json.loads(res.read())["id"]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    table.goto(f"{base_url}/?game={gid}")
    expect(table.get_by_test_id("phase")).to_be_visible()
    assert table.get_by_test_id("simulated-banner").count() == 0
    chance = call(base_url, f"/api/games/{gid}/view")["chance"]
    assert chance and chance["kind"] == "choice" and chance["outcomes"][0]["move"]["kind"] == "start_player", chance
    expect(table.get_by_test_id("choice")).to_contain_text("Aki starts")
    snap = snapshot(table)
    table.get_by_test_id("chance-start_player-0").click()
    wait_for_change(table, snap["seq"])
    for _ in range(60):  # tap the first move until the tower is to be read
        view = call(base_url, f"/api/games/{gid}/view")
        if view["chance"] and view["chance"]["kind"] == "drop":
            break
        snap = snapshot(table)
        assert snap["button"], f"nothing to tap in phase {snap['phase']!r}"
        table.mouse.click(snap["button"]["x"], snap["button"]["y"])
        wait_for_change(table, snap["seq"])
    else:
        pytest.fail("no throw into the tower came up")
    thrown = view["chance"]["thrown"]
    expect(table.get_by_test_id("tapper")).to_be_visible()
    out = sorted(thrown[:1])
    table.get_by_test_id(f"tap-{out[0]}").click()
    expect(table.get_by_test_id("tap-confirm")).to_contain_text("1")
    snap = snapshot(table)
    table.get_by_test_id("tap-confirm").click()
    wait_for_change(table, snap["seq"])
    after = call(base_url, f"/api/games/{gid}/view")["state"]
    assert after["last_take"]["drop"]["out"] == out
    shown = table.locator("[data-testid=last-result] [data-testid=result-out] svg[data-drink]")
    assert [shown.nth(i).get_attribute("data-drink") for i in range(shown.count())] == out
    assert not snapshot(table)["raw"]
    assert not errors, errors
