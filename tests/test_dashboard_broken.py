"""The lobby shows a game set aside as such, with the server's message as plain text and no
way in; the other games stay listed as usual (issue 25, defect 7). Debian's Chromium driven by
Playwright against the real app over a real SQLite file holding a game with a bad record."""
from __future__ import annotations

import json
import sqlite3

import pytest
from browser_support import call
from playwright.sync_api import expect

from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.session import TableSession
from companion.table.store import EventStore
from server_support import Server

pytestmark = pytest.mark.browser

ODD_TYPE = '<img src=x onerror="document.body.dataset.hacked=1">'


def test_the_lobby_shows_a_game_set_aside_and_why(tmp_path, browser):
    data = tmp_path / "data"
    with EventStore(data) as store:
        good = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], seed=1, automation=SIM_TABLE).id
        bad = TableSession.create(store, "jasmine_tea", ["Dai", "Emi"], seed=2, automation=SIM_TABLE).id
    con = sqlite3.connect(data / EventStore.FILE_NAME)  # a record written past the store
    con.execute("INSERT INTO records (game_id, seq, at, body) VALUES (?, 1, '2025-01-01T00:00:00+00:00', ?)",
                (bad, json.dumps({"type": ODD_TYPE})))
    con.commit()
    con.close()
    with Server(data) as server:
        url = server.url
        listed = {g["id"]: g for g in call(url, "GET", "/api/games")}
        message = listed[bad]["broken"]["message"]
        assert ODD_TYPE in message
        page = browser.new_page()
        page.goto(url + "/")
        item = page.get_by_test_id(f"broken-{bad}")
        expect(item).to_be_visible()
        expect(page.get_by_test_id(f"broken-message-{bad}")).to_have_text(message)  # as text, tags and all
        expect(item).to_contain_text("Set aside")
        assert item.locator("img").count() == 0 and page.evaluate("document.body.dataset.hacked") is None
        assert item.locator(f"a[href='/?game={bad}']").count() == 0  # no way into it
        expect(item.locator("a.broken-log")).to_have_attribute("href", f"/api/games/{bad}/log.jsonl")
        expect(page.get_by_test_id(f"game-{good}")).to_be_visible()
        browser.put_away(page)
