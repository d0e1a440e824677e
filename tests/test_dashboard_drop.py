"""A drop the table can trust, on the dashboard in a real browser (Debian's Chromium via
Playwright) against the real `companion serve`, with the simulated camera (issue 26, items 4, 7).

- A question about a drop shows the game's likely answer preselected: a reading of a drink that
  cannot have come out is shown as the one drink in the tower like it, marked as the game's
  guess. "Enter by hand" offers every drink that could have come out (thrown in, stuck inside),
  the likely ones chosen. A list the exit beam contradicts is not sent: a second, plainly worded
  step (the override) must be confirmed, and it is logged with the drop.
- A question set aside ("Dismiss") leaves drinks that were thrown in already: the table offers to
  read the tray again or to enter it by hand, never to throw again. Reading again has the camera
  read its latest still frame; what it saw comes back as a question to settle by hand.

The questions are made deterministic by posting a camera's account as the host (a person's, with
the camera's detections); the reading again is the service's own camera.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import call, for_a_person, pocari_with_computers, tap, tap_and_wait, to_the_drop
from playwright.sync_api import expect
from server_support import Server

from companion.drinks import DRINK_IDS
from companion.table.store import EventStore

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
SHOTS = Path("/tmp")  # screenshots of the panels, for a person to look at


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`companion serve` with the simulated camera and no sensor board; its store's folder."""
    data = tmp_path_factory.mktemp("drop") / "data"
    with Server(data, camera="sim", serial="none") as server:
        yield server.url, data


def watch(page, errors: list[str], allow: tuple[int, ...] = ()) -> None:
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 and r.status not in allow else None)
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)


def new_game(base: str, seed: int) -> str:
    return pocari_with_computers(base, seed)["id"]


def camera_report(readings: list[tuple[str, float, bool, float]]) -> dict:
    """A camera's account of the tray, (drink, confidence, unsure, x) each, as the host's API takes
    it: entered as a person's (only the service's own camera reports as the camera)."""
    dets = [{"id": d, "color": d.split("-")[0], "shape": d.split("-")[1], "x": x, "y": 300.0, "confidence": c,
             "unsure": u, "why": "outline fits no drink" if u else "", "new": True} for d, c, u, x in readings]
    return {"source": "person", "appeared": sorted({d for d, *_ in readings}),
            "confidence": min(0.5 if u else c for _, c, u, _ in readings),
            "detail": {"detections": dets, "before": [], "unsure": [d for d, _, u, _ in readings if u], "notes": []}}


def one_like(candidates: list[str]) -> tuple[str, str]:
    """A drink that cannot have come out, and the one candidate sharing its colour or shape."""
    for drink in DRINK_IDS:
        colour, shape = drink.split("-")
        alike = [c for c in candidates if c.startswith(colour + "-") or c.endswith("-" + shape)]
        if drink not in candidates and len(alike) == 1:
            return drink, alike[0]
    raise AssertionError(f"no drink with exactly one look-alike among {candidates}")


def offered(page) -> dict[str, bool]:
    """The tapper's drinks, and whether each is chosen."""
    buttons = page.locator("[data-testid=tapper] [data-testid^=tap-]:not([data-testid=tap-confirm]):not([data-testid=tap-cancel])")
    return {buttons.nth(i).get_attribute("data-testid").removeprefix("tap-"): buttons.nth(i).get_attribute("aria-pressed") == "true"
            for i in range(buttons.count())}


def test_the_likely_answer_is_preselected_and_a_count_the_beam_contradicts_needs_the_override(served, browser):
    base, data = served
    gid = new_game(base, seed=7)
    view = to_the_drop(base, gid)
    thrown, inside = view["chance"]["thrown"], view["chance"]["inside"]
    candidates = sorted(set(thrown + inside))
    wrong, right = one_like(candidates)
    sure = next(c for c in candidates if c != right)
    extra = next(c for c in candidates if c not in (sure, right))
    # the board counted every drink in, and two out
    call(base, "POST", f"/api/games/{gid}/observations",
         {"source": "person", "kind": "beams", "passes_in": len(thrown), "passes_out": 2})
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, errors)
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("drop-seen")).to_be_visible()       # thrown already: no "Throw" button
    assert table.get_by_test_id("throw").count() == 0

    # The camera read `sure` surely, and unsurely a drink that cannot have come out (left of it).
    call(base, "POST", f"/api/games/{gid}/observations",
         camera_report([(sure, 0.97, False, 800.0), (wrong, 0.45, True, 200.0)]))
    question = table.get_by_test_id("question")
    expect(question).to_have_attribute("data-kind", "contradiction")
    row0, row1 = table.get_by_test_id("fix-row-0"), table.get_by_test_id("fix-row-1")
    expect(row0).to_have_attribute("data-drink", right)               # the game's guess, preselected
    expect(row0).to_have_attribute("data-read", wrong)
    expect(table.get_by_test_id("fix-guess-0")).to_contain_text("the game's guess: the camera read")
    expect(row1).to_have_attribute("data-drink", sure)
    expect(table.get_by_test_id("fix-confirm")).to_have_text("Confirm: 2 came out")
    expect(table.get_by_test_id("fix-confirm")).to_be_enabled()
    expect(table.get_by_test_id("fix-count")).to_contain_text("the exit beam counted 2")
    for_a_person(question, str(SHOTS / "drop-question-likely.png"))

    # Enter by hand: every drink that could have come out, the likely answer chosen.
    tap(table, "question-by-hand")
    expect(table.get_by_test_id("tapper")).to_be_visible()
    assert offered(table) == {d: d in (sure, right) for d in candidates}
    expect(table.get_by_test_id("tap-confirm")).to_have_text("Confirm: 2 came out")
    for_a_person(question, str(SHOTS / "drop-by-hand.png"))

    # One more drink than the beam counted: confirming it takes the override, a step of its own.
    tap(table, f"tap-{extra}")
    expect(table.get_by_test_id("tap-confirm")).to_have_text("Confirm: 3 came out")
    seq = call(base, "GET", f"/api/games/{gid}/view")["seq"]
    tap(table, "tap-confirm")
    override = table.get_by_test_id("override")
    expect(override).to_be_visible()
    expect(table.get_by_test_id("override-reason")).to_have_text(
        "Your list has 3 drink(s); the exit beam counted 2 coming out of this drop.")
    expect(table.get_by_test_id("override-confirm")).to_have_text("The beam is wrong: 3 came out")
    assert call(base, "GET", f"/api/games/{gid}/view")["seq"] == seq, "the list was sent without the override"
    for_a_person(override, str(SHOTS / "drop-override.png"))
    tap(table, "lang-de")
    expect(table.get_by_test_id("override-confirm")).to_have_text("Die Schranke irrt: 3 kamen heraus")
    expect(table.get_by_test_id("override-reason")).to_contain_text("die Ausgabe-Schranke zählte 2")
    tap(table, "lang-en")
    tap(table, "override-cancel")                                     # back: the list as it was
    expect(table.get_by_test_id("tapper")).to_be_visible()
    assert offered(table) == {d: d in (sure, right, extra) for d in candidates}
    tap(table, "tap-confirm")
    out = sorted([sure, right, extra])
    with table.expect_request(lambda r: r.method == "POST" and r.url.split("?")[0].endswith("/moves")) as req:
        tap_and_wait(table, "override-confirm")
    assert req.value.post_data_json == {"move": {"kind": "drop", "player": "chance", "args": {"out": out}},
                                        "override_beams": True}
    expect(table.get_by_test_id("round-result")).to_be_visible()
    after = call(base, "GET", f"/api/games/{gid}/view")
    assert after["question"] is None and after["state"]["last_round"]["drop"]["out"] == out
    with EventStore(data) as store:
        drop = [r for r in store.records(gid) if r["type"] == "move" and r["move"]["kind"] == "drop"][-1]
    assert drop["override"] == {"beams": [len(thrown), 2]}
    assert not errors, errors


def test_after_dismiss_the_thrown_drinks_are_read_again_or_entered_by_hand(served, browser):
    base, _ = served
    gid = new_game(base, seed=11)
    view = to_the_drop(base, gid)
    thrown = view["chance"]["thrown"]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, errors)
    table.goto(f"{base}/?game={gid}")
    expect(table.get_by_test_id("camera-state")).to_have_attribute("data-state", "ok")
    expect(table.get_by_test_id("throw")).to_be_visible()

    # A reading is put to the table and set aside.
    call(base, "POST", f"/api/games/{gid}/observations", camera_report([(thrown[0], 0.5, True, 300.0)]))
    expect(table.get_by_test_id("question")).to_be_visible()
    tap_and_wait(table, "question-dismiss")
    expect(table.get_by_test_id("question")).to_be_hidden()
    # The drinks are in the tower's tray already: read again, or by hand; never thrown again.
    expect(table.get_by_test_id("drop-seen")).to_be_visible()
    expect(table.get_by_test_id("drop-reread")).to_be_visible()
    expect(table.get_by_test_id("drop-by-hand")).to_be_visible()
    assert table.get_by_test_id("throw").count() == 0
    for_a_person(table.get_by_test_id("action"), str(SHOTS / "drop-seen.png"))

    # Read again: the camera reads its latest still frame (the simulated tray is empty: the
    # simulated tower was never thrown into), and says so in a question.
    with table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/tray/read")) as res:
        tap(table, "drop-reread")
    assert res.value.ok and res.value.json()["result"] == "reading"
    question = table.get_by_test_id("question")
    expect(question).to_be_visible(timeout=60_000)
    q = call(base, "GET", f"/api/games/{gid}/view")["question"]
    assert q["observation"]["source"] == "camera" and q["observation"]["detail"]["reread"] is True
    assert q["observation"]["appeared"] == [] and "read again" in q["reason"]
    # the devices panel says how late the reading was
    expect(table.get_by_test_id("camera-timing")).to_contain_text("s after the tray was still")

    # Settled by hand from the camera's question: nothing preselected, two drinks chosen.
    tap(table, "question-by-hand")
    assert offered(table) == {d: False for d in sorted(set(thrown + view["chance"]["inside"]))}
    out = sorted(thrown[:2])
    for drink in out:
        tap(table, f"tap-{drink}")
    tap_and_wait(table, "tap-confirm")
    expect(table.get_by_test_id("round-result")).to_be_visible()
    assert call(base, "GET", f"/api/games/{gid}/view")["state"]["last_round"]["drop"]["out"] == out
    assert not errors, errors
