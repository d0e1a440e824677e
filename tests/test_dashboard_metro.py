"""TOKYO METRO on the dashboard, in a real browser: Debian's Chromium driven by Playwright against
the real app (uvicorn in a thread).

A 2-player game on a simulated table, seat 0 a person (the table view and seat 0's phone), seat 1
the computer. The test sees the board drawn as an SVG map (12 lines, every station, the revenue
track); bids on the phone; places the meeple by tapping a field on the map; builds a station and
starts a train through it with the move buttons; passes into the train phase; checks that the
preview lists every payout the run will trigger (and draws the paths); runs the trains with one
tap and sees them glide to where the API says they stand, and the yen change as the API reports.
A rider's (or boarder's) decision is taken on the phone. English and German, no console errors,
no sideways scrolling on the phone.
"""
from __future__ import annotations

import re
import time

import pytest
from browser_support import call, chromium, served
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}  # a 10-inch tablet, landscape
PHONE_SIZE = {"width": 390, "height": 844}
SEED = 1
MAX_ROUNDS = 4
# Text that must never reach the screen: a catalogue key, or a {slot} nobody filled.
RAW = r"\b(?:move|phase|game|field|chance|pick|kind|value|metro|money|player|result)\.[a-zA-Z_.]+\b|\{[a-z_]+\}"


@pytest.fixture
def base_url(tmp_path):
    with served(tmp_path) as url:
        yield url


@pytest.fixture
def browser():
    with chromium() as b:
        yield b


def watch(page, name: str, errors: list[str]) -> None:
    page.on("pageerror", lambda err: errors.append(f"{name}: {err}"))
    page.on("console", lambda msg: errors.append(f"{name}: {msg.text}") if msg.type == "error" else None)


def seq_of(page) -> int:
    return int(page.evaluate("() => Number(document.getElementById('app').dataset.seq || -1)"))


def shown(page, seq: int) -> None:
    """Wait until the page shows the view with sequence number `seq` (or later)."""
    page.wait_for_function("n => Number(document.getElementById('app').dataset.seq) >= n", arg=seq, timeout=10000)


def no_raw(page, what: str) -> None:
    bad = page.evaluate("raw => (document.body.textContent.match(new RegExp(raw)) || [null])[0]", RAW)
    assert not bad, f"{what}: {bad!r} shown as is"


class Game:
    """The game as the API reports it, and the pages that show it."""

    def __init__(self, base: str, table, phone, gid: str, token: str):
        self.base, self.table, self.phone, self.gid, self.token = base, table, phone, gid, token

    def view(self, mine: bool = False) -> dict:
        return call(self.base, "GET", f"/api/games/{self.gid}/view" + (f"?token={self.token}" if mine else ""))

    def tap(self, page, testid: str) -> dict:
        """Tap a move's button (opening its card action's group first when it is folded) and wait
        until the table shows the view that follows."""
        before = self.view()["seq"]
        button = page.get_by_test_id(testid)
        if not button.count():
            move = next(m["move"] for m in self.view(mine=page is self.phone)["moves"] if move_testid(m["move"]) == testid)
            page.get_by_test_id(f"group-{move['args']['card']}-{move['args']['action']}").click()
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, f"{testid} is not a 44 px touch target: {box}"
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as res:
            button.click()
        assert res.value.ok, f"{testid}: {res.value.status} {res.value.text()}"
        view = self.view()
        assert view["seq"] > before
        shown(self.table, view["seq"])
        return view


def move_testid(move: dict) -> str:
    vals = []
    for v in move["args"].values():
        vals.extend(v if isinstance(v, list) else [v])
    return "move-" + move["kind"] + "".join(f"-{v}" for v in vals)


# --- the plan of seat 0: a station where a train will pass, and that train -------------------------

def stations_of(board: dict) -> dict[str, dict]:
    return {s["id"]: s for s in board["stations"]}


def lines_reaching(board: dict, station: str) -> list[str]:
    """Lines whose train, started at stop 1, enters this station in its first 5 stops."""
    where = {c["id"]: s["id"] for s in board["stations"] for c in s["circles"]}
    return [ln["letter"] for ln in board["lines"] if any(where[st["circle"]] == station for st in ln["stops"][1:6])]


def good_field(view: dict) -> tuple[int, int]:
    """A start field touching a station that a newly started train reaches this round."""
    board = view["state"]["board"]
    cols = board["grid"]["cols"]
    touching: dict[tuple[int, int], set[str]] = {}
    for s in board["stations"]:
        for c in s["circles"]:
            for f in c["fields"]:
                touching.setdefault(tuple(f), set()).add(s["id"])
    here = view["state"]["players"][0]["meeple"]
    fields = [m["move"]["args"]["field"] for m in view["moves"] if m["move"]["kind"] in ("place", "walk")
              and [m["move"]["args"]["field"] % cols, m["move"]["args"]["field"] // cols] != here]
    for f in fields:
        cr = (f % cols, f // cols)
        if any(lines_reaching(board, s) for s in touching.get(cr, ())):
            return cr
    return fields[0] % cols, fields[0] // cols


def next_action(view: dict) -> str:
    """Seat 0's next action: a station on a good line, then a train through one of its stations, else pass."""
    st, board = view["state"], view["state"]["board"]
    moves = [m["move"] for m in view["moves"] if m["move"]["player"] == 0]
    mine = {p["station"] for p in st["pyramids"] if p["owner"] == 0}
    for m in moves:
        if m["kind"] == "station" and not m["args"]["discounts"] and lines_reaching(board, m["args"]["station"]):
            return move_testid(m)
    for m in moves:
        if m["kind"] == "start" and any(m["args"]["line"] in lines_reaching(board, s) for s in mine):
            return move_testid(m)
    return "move-pass"


def lone_walk(view: dict) -> tuple[dict, list[int]] | None:
    """A walk (a "move" action) to another field which no other move reaches (so that one tap on
    the map makes it), with the field as [col, row]."""
    cols = view["state"]["board"]["grid"]["cols"]
    walks = [m["move"] for m in view["moves"] if m["move"]["kind"] == "move"]
    here = view["state"]["players"][0]["meeple"]
    for m in walks:
        f = m["args"]["field"]
        cr = [f % cols, f // cols]
        if cr != here and sum(w["args"]["field"] == f for w in walks) == 1:
            return m, cr
    return None


def tap_map(game: "Game", testid: str) -> dict:
    """Tap a target on the table's map and wait for the move it makes."""
    before = game.view()["seq"]
    target = game.table.get_by_test_id(testid)
    expect(target).to_be_visible()
    with game.table.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as res:
        target.click()
    assert res.value.ok, res.value.text()
    after = game.view()
    assert after["seq"] > before
    shown(game.table, after["seq"])
    return after


def pick_card_action(game: "Game", view: dict) -> None:
    """Tap an action on a card that has several moves: the map narrows to its targets and its
    group of buttons opens; tap it again to let go."""
    counts: dict[str, int] = {}
    for m in view["moves"]:
        if "card" in m["move"]["args"]:
            key = f"{m['move']['args']['card']}-{m['move']['args']['action']}"
            counts[key] = counts.get(key, 0) + 1
    key = next((k for k, n in counts.items() if n > 4), None)
    if key is None:
        return
    svg = game.table.get_by_test_id("metro-map")
    all_targets = int(svg.get_attribute("data-targets"))
    card = game.table.get_by_test_id(f"card-action-{key}")
    card.click()
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    group = game.table.get_by_test_id(f"group-{key}")
    expect(group).to_have_attribute("aria-expanded", "true")
    moves = [m["move"] for m in view["moves"] if f"{m['move']['args'].get('card')}-{m['move']['args'].get('action')}" == key]
    expect(game.table.get_by_test_id(move_testid(moves[0]))).to_be_visible()
    narrowed = int(svg.get_attribute("data-targets"))
    assert narrowed <= all_targets
    card.click()
    expect(card).not_to_have_class(re.compile(r"\bselected\b"))


def test_metro_map_moves_and_train_phase(base_url, browser):
    started = time.monotonic()
    created = call(base_url, "POST", "/api/games", {"game": "tokyo_metro", "names": ["Aki", "Ben"], "bots": [1],
                                                    "simulated": True, "seed": SEED})
    gid = created["id"]
    link = created["players"][0]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    watch(phone, "phone", errors)
    table.goto(f"{base_url}/?game={gid}")
    phone.goto(link["url"])
    game = Game(base_url, table, phone, gid, link["url"].split("token=")[1])

    # The board as a map: 12 lines in their colours, every station, the revenue track, the notice.
    view = game.view()
    board = view["state"]["board"]
    svg = table.get_by_test_id("metro-map")
    expect(svg).to_be_visible()
    assert svg.get_attribute("data-lines") == "12"
    assert table.locator("[data-testid=metro-map] polyline.m-line").count() == 12
    colours = {ln["colour"].lower() for ln in board["lines"]}
    drawn = {table.locator("[data-testid=metro-map] polyline.m-line").nth(i).get_attribute("stroke").lower()
             for i in range(12)}
    assert drawn == colours
    assert table.locator("[data-testid=metro-map] .m-station").count() == len(board["stations"])
    assert table.locator("[data-testid=metro-map] circle.m-stop").count() == sum(len(s["circles"]) for s in board["stations"])
    expect(table.get_by_test_id("map-approximate")).to_be_visible()
    for line in view["state"]["lines"]:
        expect(table.get_by_test_id(f"line-value-{line['letter']}")).to_have_attribute("data-value", str(line["value"]))
    expect(phone.get_by_test_id("metro-map")).to_be_visible()

    placed = walked = picked = False
    checked_run = False
    for _ in range(200):
        view = game.view()
        st = view["state"]
        assert st["round"] <= MAX_ROUNDS and not view["over"], (
            "no train phase with a payout came up" if not checked_run else "no walk to tap on the map came up")
        mine = game.view(mine=True)
        kinds = {m["move"]["kind"] for m in mine["moves"]}
        if st["phase"] == "bid" and "bid" in kinds:
            amount = max(a for a in (m["move"]["args"]["amount"] for m in mine["moves"]) if a <= 1000)
            shown(phone, mine["seq"])
            game.tap(phone, f"move-bid-{amount}")
        elif kinds & {"place", "walk"}:
            # A move by tapping a field on the map (the table view).
            col, row = good_field(view)
            shown(table, view["seq"])
            after = tap_map(game, f"map-field-{col}-{row}")
            assert after["state"]["players"][0]["meeple"] == [col, row]
            expect(table.get_by_test_id("map-meeple-0")).to_have_attribute("data-field", f"{col},{row}")
            placed = True
        elif st["phase"] == "actions" and kinds:
            if not picked:
                shown(table, view["seq"])
                pick_card_action(game, view)
                picked = True
            walk = lone_walk(view) if checked_run else None
            if walk:
                # After the train phase: a walk by tapping a field on the map (its card action's
                # buttons are folded until then).
                move, (col, row) = walk
                after = tap_map(game, f"map-field-{col}-{row}")
                assert after["state"]["players"][0]["meeple"] == [col, row], move
                walked = True
                break
            game.tap(table, next_action(view) if not checked_run else "move-pass")
        elif "run_trains" in kinds:
            preview = st["preview"]
            paying = [t for t in preview["trains"] if t["payouts"]]
            shown(table, view["seq"])
            expect(table.get_by_test_id("train-preview")).to_be_visible()
            for train in preview["trains"]:
                item = table.get_by_test_id(f"preview-{train['line']}")
                expect(item).to_have_attribute("data-payouts", str(len(train["payouts"])))
                if train["path"]:
                    expect(table.get_by_test_id(f"map-path-{train['line']}")).to_have_count(1)
            for train in paying:
                for pay in train["payouts"]:
                    row_ = table.get_by_test_id(f"payout-{pay['stop']}")
                    expect(row_).to_contain_text(pay["stop"])
                    expect(row_).to_have_attribute("data-to-owner", str(pay["to_owner"]))
                    if pay["to_owner"]:
                        expect(row_).to_contain_text(st["players"][pay["owner"]]["name"])
                        expect(row_).to_contain_text(f"¥{pay['to_owner']}")
                    expect(table.get_by_test_id(f"map-payout-{pay['stop']}")).to_have_count(1)
            no_raw(table, "train preview")
            if not paying:
                game.tap(table, "move-run_trains")
                continue
            yen_before = [p["yen"] for p in st["players"]]
            income = preview["owner_income"]
            after = game.tap(table, "move-run_trains")
            # The trains glide along their paths on the map...
            table.wait_for_function("() => { const s = document.querySelector('[data-testid=metro-map]');"
                                    " return s && (s.dataset.moving === 'true' || Number(s.dataset.moved) > 0); }",
                                    timeout=5000)
            # ... a rider or a meeple at a station decides on the phone (the train phase waits for it)
            for _ in range(30):
                run = after["state"]["train_run"]
                if after["state"]["phase"] != "trains" or not run or run["deciding"] != 0:
                    break
                mine = game.view(mine=True)
                shown(phone, mine["seq"])
                expect(phone.get_by_test_id("train-decision")).to_be_visible()
                choice = next(m["move"] for m in mine["moves"] if m["move"]["kind"] in ("skip", "ride_on"))
                after = game.tap(phone, move_testid(choice))
            assert after["state"]["phase"] != "trains"
            shown(table, after["seq"])
            table.wait_for_function("() => !document.querySelector('[data-testid=metro-map]').dataset.moving",
                                    timeout=8000)
            for line in after["state"]["lines"]:
                marker = table.get_by_test_id(f"map-train-{line['letter']}")
                if line["train"]:
                    expect(marker).to_have_attribute("data-stop", line["train"]["stop"])
                else:
                    expect(marker).to_have_count(0)
            # ... and the yen change as the API reports: the owners got the preview's income.
            for p in after["state"]["players"]:
                expect(table.get_by_test_id(f"player-{p['seat']}-yen")).to_have_attribute("data-value", str(p["yen"]))
            assert after["state"]["players"][0]["yen"] == yen_before[0] + income[0]
            assert income[0] > 0 or income[1] > 0
            checked_run = True
        elif kinds & {"board", "skip", "ride_on", "alight"}:
            choice = next(m["move"] for m in mine["moves"] if m["move"]["kind"] in ("skip", "ride_on", "alight"))
            game.tap(phone, move_testid(choice))
        else:
            shown(table, view["seq"])
            time.sleep(0.05)
    assert placed and picked and checked_run and walked

    # The phone: no sideways scrolling; the lines and the projection in German too.
    width = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the phone scrolls sideways ({width[0]} > {width[1]} px)"
    no_raw(phone, "phone")
    table.get_by_test_id("lang-de").click()
    expect(table.get_by_test_id("lines-panel")).to_contain_text("Die Linien")
    expect(table.get_by_test_id("metro-map-panel")).to_contain_text("Der Spielplan")
    no_raw(table, "table, German")
    table.get_by_test_id("projection").locator("summary").click()
    expect(table.get_by_test_id("projection-table")).to_be_visible()
    no_raw(table, "projection, German")
    table.get_by_test_id("lang-en").click()
    assert not errors, errors
    assert time.monotonic() - started < 60
