"""Checks of the game night around the rules (issue 28), made on the pages of the browser games
that play a POCARI BET game and a four-player TOKYO METRO game at tablet and phone size
(tests/test_dashboard_browser.py, tests/test_dashboard_metro.py): the feed tells every computer
move in words, on the page and by the feed's route; the history lists the games played; the
main views are saved as screenshots for a person to look at (build/screenshots/, not committed).
Each check looks at pages the game has open anyway.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from browser_support import call, for_a_person, tap
from playwright.sync_api import expect

SHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save what ``page`` shows as build/screenshots/NAME-<width>.png (for a person to look at;
    with TTC_SCREENSHOTS=1 only: browser_support.for_a_person)."""
    path = SHOTS / f"{name}-{page.viewport_size['width']}.png"
    for_a_person(page, path, full_page=full_page)
    return path


def open_feed(page) -> None:
    """Open the "What happened" panel (it keeps the view's latest entries on show, not three)."""
    more = page.get_by_test_id("feed-more")
    if more.count() and more.first.get_attribute("aria-expanded") == "false":
        tap(page, "feed-more")


def computer_moves_told(page, view: dict, since: int) -> tuple[int, int]:
    """Every computer move the view's feed holds after record ``since`` is on ``page`` (the table
    view, the feed opened) in words: the computer named, what it did said (no raw ids); answers
    the newest seq looked at and how many computer moves were looked at. (The view carries the latest entries; that none is missing at all
    is :func:`every_computer_move_in_feed`'s to check, by the feed's route.)"""
    feed = view.get("feed") or []
    newest = max((e["seq"] for e in feed), default=since)
    checked = 0
    for e in feed:
        if e["seq"] <= since or e["by"] != "computer":
            continue
        checked += 1
        entry = page.get_by_test_id(f"feed-{e['seq']}")
        expect(entry).to_have_count(1)
        expect(entry).to_contain_text("(computer)")
        text = entry.inner_text()
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"feed entry {e['seq']} shows an id as is: {text!r}"
        # more than the name: what the computer did, in words
        assert not text.strip().endswith("(computer)"), f"feed entry {e['seq']} names the computer alone: {text!r}"
        if any(ev.get("on_board") for ev in e.get("events", [])):
            expect(entry.get_by_test_id("on-board")).to_be_visible()
    return newest, checked


def records_of(base: str, gid: str) -> list[dict]:
    """The game's records, as its log file holds them (the header left out)."""
    return [json.loads(line) for line in call(base, "GET", f"/api/games/{gid}/log.jsonl", raw=True).splitlines()[1:]]


def every_computer_move_in_feed(base: str, gid: str, records: list[dict]) -> int:
    """The feed's route (the table's, paged) has an entry for each record a computer seat made;
    answers their number."""
    entries, before = [], None
    while True:
        page = call(base, "GET", f"/api/games/{gid}/feed" + (f"?before={before}" if before else ""))
        entries += page["entries"]
        before = page["next"]
        if before is None:
            break
    told = {e["seq"] for e in entries if e["by"] == "computer"}
    made = {seq for seq, r in enumerate(records, start=1) if r.get("by") == "bot"}
    assert made and made <= told, f"computer moves missing from the feed: {sorted(made - told)[:10]}"
    return len(made)


def history_lists(page, base: str, gid: str, winner: str | None = None) -> None:
    """The history page (the host's) lists game ``gid``, with its winner's name when it has one."""
    page.goto(f"{base}/history")
    row = page.get_by_test_id(f"history-game-{gid}")
    expect(row).to_be_visible()
    if winner:
        expect(row).to_contain_text(winner)
