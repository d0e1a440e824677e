"""The dashboard's catalogues in a real browser: a page fetches its language's common catalogue
and its game's once each, and each other language's once when it is chosen (back and forth
fetches nothing again), and the plural forms it picks from are those the catalogues' test
expects; a game's catalogue that cannot be fetched falls back to English, and
with no catalogue of its own at all the game is still drawn. A Japanese browser gets the table
in Japanese (words, yen, drinks' names, <html lang>), and the three-way toggle fits a phone.
The files themselves (same keys in every language, plural forms, slots):
tests/test_i18n_catalogues.py.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from browser_support import pocari_with_computers, tap
from playwright.sync_api import expect
from test_i18n_catalogues import LANGS, PLURAL_FORMS

pytestmark = pytest.mark.browser
# Fresh pages (tests/conftest.py): these tests count the catalogues' requests (an HTTP cache kept
# from an earlier test would change the count) and add init scripts, which no page can shed.
REUSE_PAGES = False

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
GERMAN = "localStorage.setItem('ttc.lang', 'de')"  # before the page's own scripts


# A catalogue's address: beside the page's scripts, at their version's address (/static/v/<version>/,
# companion/server/routes/static_version.py), or the plain /static/ one.
CATALOGUE = re.compile(r"/static/(?:v/[^/]+/)?i18n/(.+)$")


def catalogue_requests(page) -> Counter:
    seen: Counter = Counter()
    page.on("request", lambda req: seen.update([m[1]]) if (m := CATALOGUE.search(req.url.split("?")[0])) else None)
    return seen


def test_each_catalogue_is_fetched_once(base_url, browser):
    gid = pocari_with_computers(base_url, seed=5)["id"]
    page = browser.new_page(viewport=TABLE_SIZE)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
    fetched = catalogue_requests(page)
    page.goto(f"{base_url}/?game={gid}")
    faceup = page.get_by_test_id("faceup").locator("h2")
    expect(faceup).to_have_text("Turned-up cards")              # POCARI BET's own words
    expect(page.get_by_test_id("lobby-link")).to_contain_text("Lobby")  # the shell's
    assert fetched == Counter({"en/common.json": 1, "en/pocari_bet.json": 1}), fetched
    for lang, words in (("de", "Aufgedeckte Karten"), ("en", "Turned-up cards"), ("de", "Aufgedeckte Karten")):
        tap(page, f"lang-{lang}")
        expect(faceup).to_have_text(words)
        expect(page.get_by_test_id(f"lang-{lang}")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("lobby-link")).to_contain_text("Übersicht")
    assert fetched == Counter({"en/common.json": 1, "en/pocari_bet.json": 1,
                               "de/common.json": 1, "de/pocari_bet.json": 1}), fetched
    page.reload()  # the language chosen is kept
    expect(faceup).to_have_text("Aufgedeckte Karten")
    assert not errors, errors
    # The plural forms the catalogues' test asks of each language are the browser's.
    forms = page.evaluate("(langs) => langs.map((l) => new Intl.PluralRules(l).resolvedOptions().pluralCategories)",
                          LANGS)
    assert {lang: set(f) for lang, f in zip(LANGS, forms)} == PLURAL_FORMS


def test_a_missing_game_catalogue_falls_back(base_url, browser):
    gid = pocari_with_computers(base_url, seed=6)["id"]

    # German missing: the game's words in English, the rest in German.
    page = browser.new_page(viewport=TABLE_SIZE)
    page.add_init_script(GERMAN)
    page.route(re.compile(r"/static/(v/[^/]+/)?i18n/de/pocari_bet\.json$"), lambda route: route.fulfill(status=404, body="missing"))
    fetched = catalogue_requests(page)
    page.goto(f"{base_url}/?game={gid}")
    expect(page.get_by_test_id("faceup").locator("h2")).to_have_text("Turned-up cards")
    expect(page.get_by_test_id("lobby-link")).to_contain_text("Übersicht")
    assert fetched == Counter({"de/common.json": 1, "de/pocari_bet.json": 1, "en/pocari_bet.json": 1}), fetched

    # No catalogue for the game in any language: the game is still drawn and played.
    page = browser.new_page(viewport=TABLE_SIZE)
    page.add_init_script(GERMAN)
    page.route(re.compile(r"/static/(v/[^/]+/)?i18n/[^/]+/pocari_bet\.json$"), lambda route: route.fulfill(status=404, body="missing"))
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{base_url}/?game={gid}")
    expect(page.get_by_test_id("faceup").locator("h2")).to_have_text("faceup.title")
    expect(page.get_by_test_id("lobby-link")).to_contain_text("Übersicht")
    expect(page.get_by_test_id("phase")).to_be_visible()
    tap(page, "lang-en")
    expect(page.get_by_test_id("lobby-link")).to_contain_text("Lobby")
    assert not errors, errors


def test_japanese_for_a_japanese_browser_and_by_the_toggle(base_url, browser):
    gid = pocari_with_computers(base_url, seed=7)["id"]
    page = browser.new_page(viewport=PHONE_SIZE, locale="ja-JP")  # no language chosen yet: the browser's
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{base_url}/?game={gid}")
    faceup = page.get_by_test_id("faceup").locator("h2")
    expect(faceup).to_have_text("めくられたカード")                       # POCARI BET's own words
    expect(page.get_by_test_id("lobby-link")).to_contain_text("ロビー")   # the shell's
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_test_id("lang-ja")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("player-0-yen")).to_have_text(re.compile(r"^￥[\d,]+$"))  # ja-JP's yen
    expect(page.locator("svg[aria-label='色の山札']").first).to_be_attached()           # drawn things' names
    # The three buttons sit in one row inside the phone's width.
    boxes = [page.get_by_test_id(f"lang-{lang}").bounding_box() for lang in LANGS]
    assert len({round(b["y"]) for b in boxes}) == 1, boxes
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= PHONE_SIZE["width"] and b["height"] >= 44 for b in boxes), boxes

    tap(page, "lang-en")
    expect(faceup).to_have_text("Turned-up cards")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("player-0-yen")).to_have_text(re.compile(r"^¥[\d,]+$"))
    tap(page, "lang-ja")
    expect(faceup).to_have_text("めくられたカード")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert not errors, errors


def test_a_refusal_is_toasted_in_the_pages_language(base_url, browser):
    """The server's refusal (companion/server/messages/) in the dashboard's language: api.js says
    the language with every request; switched to Japanese, then English, the same refusal comes
    in Japanese, then in English."""
    gid = pocari_with_computers(base_url, seed=7)["id"]
    page = browser.new_page(viewport=TABLE_SIZE)
    page.add_init_script(GERMAN)
    page.goto(f"{base_url}/?game={gid}")
    expect(page.get_by_test_id("lobby-link")).to_contain_text("Übersicht")
    # (the page's own api.js, at its scripts' address: another copy of the module would not know
    # the language the page chose)
    move = """(gid) => import(new URL("api.js", document.querySelector("script[type=module]").src).href)
        .then((m) => m.api.move(gid, {kind: "no_such_move", player: 0, args: {}})).catch(() => null)"""
    refusals = []
    for lang in ("de", "ja", "en"):
        tap(page, f"lang-{lang}")
        expect(page.get_by_test_id(f"lang-{lang}")).to_have_attribute("aria-pressed", "true")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/moves")) as answer:
            page.evaluate(move, gid)
        assert answer.value.status == 409
        refusals.append(answer.value.json())
        expect(page.get_by_test_id("toast").last).to_contain_text(refusals[-1]["detail"])
    german, japanese, english = refusals
    assert german["detail_en"] == japanese["detail_en"] == english["detail"] and "detail_en" not in english
    assert len({german["detail"], japanese["detail"], english["detail"]}) == 3
