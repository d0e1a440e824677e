"""TOKYO METRO on the dashboard, in a real browser: Debian's Chromium driven by Playwright against
the real `companion serve` (a process of its own).

A 2-player game on a simulated table, seat 0 a person (the table view and seat 0's phone), seat 1
the computer. The test sees the board drawn as an SVG map (12 lines, every station, the revenue
track); bids on the phone; places the meeple by tapping a field on the map; builds a station and
starts a train through it with the move buttons; passes into the train phase; checks that the
preview lists every payout the run will trigger (and draws the paths); runs the trains with one
tap and sees them glide to where the API says they stand, and the yen change as the API reports.
A rider's (or boarder's) decision is taken on the phone. English and German, no console errors,
no sideways scrolling on the phone.

Then a whole 4-player game with the default board and deck, from the first deal to the end scoring:
two people (one on her phone, one on the table view, both bidding on their phones: he takes his
out for each bid) and two
computers; every move of the people is a tap, the train phases are started on the table (a
computer first in order waits for it), the estimates of the final yen are asked for on a phone and
on the table, and the end scoring on the table is checked line by line against the engine's
scoring of the downloaded game log. The same game at its default length (six rounds), its moves
made through the API, has its station names checked on one table page in every train phase.
"""
from __future__ import annotations

import re
import time

import pytest
from browser_support import REPLY_MS, assert_fits, call, for_a_person, move_testid, shown, tap, wait_until
from playwright.sync_api import expect

import game_night
import metro_map_checks as mapcheck

from companion.table.log import read_jsonl

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}  # a 10-inch tablet, landscape
PHONE_SIZE = {"width": 390, "height": 844}
SEED = 1
MAX_ROUNDS = 4
# Text that must never reach the screen: a catalogue key, or a {slot} nobody filled.
RAW = r"\b(?:move|phase|game|field|chance|pick|kind|value|metro|money|player|result)\.[a-zA-Z_.]+\b|\{[a-z_]+\}"


def watch(page, name: str, errors: list[str]) -> None:
    page.on("pageerror", lambda err: errors.append(f"{name}: {err}"))
    page.on("console", lambda msg: errors.append(f"{name}: {msg.text}") if msg.type == "error" else None)


def no_raw(page, what: str) -> None:
    bad = page.evaluate("raw => (document.body.textContent.match(new RegExp(raw)) || [null])[0]", RAW)
    assert not bad, f"{what}: {bad!r} shown as is"


class Game:
    """The game as the API reports it, and the pages that show it."""

    def __init__(self, base: str, table, phone, gid: str, token: str):
        self.base, self.table, self.phone, self.gid, self.token = base, table, phone, gid, token

    def view(self, mine: bool = False) -> dict:
        return call(self.base, "GET", f"/api/games/{self.gid}/view", token=self.token if mine else None)

    def tap(self, page, testid: str) -> dict:
        """Tap a move's button (opening its card action's group first when it is folded) and wait
        until the table shows the view that follows."""
        before = self.view()["seq"]
        button = page.get_by_test_id(testid)
        if not button.count():
            move = next(m["move"] for m in self.view(mine=page is self.phone)["moves"] if move_testid(m["move"]) == testid)
            tap(page, f"group-{move['args']['card']}-{move['args']['action']}")
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, f"{testid} is not a 44 px touch target: {box}"
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith("/moves")) as res:
            tap(page, button)
        assert res.value.ok, f"{testid}: {res.value.status} {res.value.text()}"
        view = self.view()
        assert view["seq"] > before
        shown(self.table, view["seq"])
        return view


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
    with game.table.expect_response(lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith("/moves")) as res:
        tap(game.table, target)
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
    tap(game.table, card)
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    group = game.table.get_by_test_id(f"group-{key}")
    expect(group).to_have_attribute("aria-expanded", "true")
    moves = [m["move"] for m in view["moves"] if f"{m['move']['args'].get('card')}-{m['move']['args'].get('action')}" == key]
    expect(game.table.get_by_test_id(move_testid(moves[0]))).to_be_visible()
    narrowed = int(svg.get_attribute("data-targets"))
    assert narrowed <= all_targets
    tap(game.table, card)
    expect(card).not_to_have_class(re.compile(r"\bselected\b"))


def test_metro_map_moves_and_train_phase(base_url, browser):
    started = time.monotonic()
    created = call(base_url, "POST", "/api/games", {"game": "tokyo_metro", "names": ["Aki", "Ben"], "bots": [1],
                                                    "simulated": True, "seed": SEED})
    gid = created["id"]
    link = created["players"][0]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE, reduced_motion="no-preference")  # the map in full motion
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
    # The map people match to their board (issue 28): pinch, drag, wheel and the whole board again;
    # a layer off and on; the name placement alone on the real board, in Japanese.
    mapcheck.pan_and_zoom(table)
    mapcheck.layers(table)
    mapcheck.placement_unit(table, len(board["stations"]))

    placed = walked = picked = lit = False
    checked_run = False
    for _ in range(200):
        view = game.view()
        st = view["state"]
        assert st["round"] <= MAX_ROUNDS and not view["over"], (
            "no train phase with a payout came up" if not checked_run else "no walk to tap on the map came up")
        mine = game.view(mine=True)
        kinds = {m["move"]["kind"] for m in mine["moves"]}
        # The train phase is started on the table, also when the computer is first in order.
        kinds |= {m["move"]["kind"] for m in view["moves"] if m["move"]["kind"] == "run_trains"}
        if st["phase"] == "bid" and "bid" in kinds:
            amount = max(a for a in (m["move"]["args"]["amount"] for m in mine["moves"]) if a <= 1000)
            shown(phone, mine["seq"])
            game.tap(phone, f"move-bid-{amount}")
        elif kinds & {"place", "walk"}:
            # A move by tapping a field on the map (the table view), its targets pulsing (still, for
            # those who ask for less motion).
            col, row = good_field(view)
            shown(table, view["seq"])
            if not placed:  # the field a move button names lights up on the map, found by its coordinates
                field = next(m["move"] for m in view["moves"] if m["move"]["kind"] in ("place", "walk")
                             and m["move"]["args"]["field"] == row * board["grid"]["cols"] + col)
                mapcheck.coords_and_highlight(table, board["grid"], col, row, move_testid(field))
                # The count beside the field moves says what it counts; the phone's round and phase
                # wrap as two pieces, no "·" left at a line's end.
                expect(table.locator("[data-kind=place] .m-count, [data-kind=walk] .m-count").first).to_have_text(
                    re.compile(r"^\d+ fields?$"))
                expect(phone.get_by_test_id("me")).not_to_contain_text("·")
            target = table.get_by_test_id(f"map-field-{col}-{row}")
            pulse = "el => getComputedStyle(el).animationName"
            assert target.evaluate(pulse) == "m-pulse"
            table.emulate_media(reduced_motion="reduce")
            assert target.evaluate(pulse) == "none"
            table.emulate_media(reduced_motion="no-preference")
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
            action = next_action(view) if not checked_run else "move-pass"
            if not lit and action != "move-pass":  # a station's or a line's move lights it on the map
                mapcheck.move_lights(table, next(m["move"] for m in view["moves"] if move_testid(m["move"]) == action),
                                     action)
                lit = True
            game.tap(table, action)
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
            if not checked_run:
                # Trains, numbered stops and +¥ tags on the map: every name still clear of them all;
                # the button that runs them in reach without scrolling, however long the list.
                mapcheck.labels_clear(table, len(board["stations"]), "table")
                shown(phone, view["seq"])
                mapcheck.labels_clear(phone, len(board["stations"]), "phone")
                run_bottom = table.get_by_test_id("move-run_trains").evaluate(
                    "b => b.getBoundingClientRect().bottom + window.scrollY")
                assert run_bottom <= TABLE_SIZE["height"], f"'Run the trains' is {run_bottom} px down"
                mapcheck.screenshots(table, phone, "trains")
            if not paying:
                game.tap(table, "move-run_trains")
                continue
            yen_before = [p["yen"] for p in st["players"]]
            income = preview["owner_income"]
            after = game.tap(table, "move-run_trains")
            # The trains glide along their paths on the map...
            wait_until(table, "() => { const s = document.querySelector('[data-testid=metro-map]');"
                              " return s && (s.dataset.moving === 'true' || Number(s.dataset.moved) > 0); }",
                       "the trains to start gliding on the map")
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
            wait_until(table, "() => !document.querySelector('[data-testid=metro-map]').dataset.moving",
                       "the trains to stop gliding on the map")
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
        else:  # the computer and the simulated table move at once: somebody of ours is always due
            pytest.fail(f"round {st['round']}, phase {st['phase']}: nothing for seat 0 or the table to do "
                        f"(seat 0 is offered {sorted(kinds)})")
    assert placed and picked and checked_run and walked and lit

    # What happened: the table view tells the computer's latest move in words, for the people to
    # copy onto the real board (issue 28).
    view = game.view()
    theirs = next(e for e in view["feed"] if e["by"] == "computer" and not e.get("secret"))
    shown(table, view["seq"])
    if not table.get_by_test_id(f"feed-{theirs['seq']}").count():
        tap(table, "feed-more")
    entry = table.get_by_test_id(f"feed-{theirs['seq']}")
    expect(entry).to_contain_text("Ben (computer)")
    expect(entry.locator(".feed-events li")).not_to_have_count(0)
    if theirs["board"]:
        expect(entry.get_by_test_id("on-board")).to_contain_text("On the board")

    # The phone: no sideways scrolling; the lines and the projection in German too.
    width = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the phone scrolls sideways ({width[0]} > {width[1]} px)"
    no_raw(phone, "phone")
    tap(table, "lang-de")
    expect(table.get_by_test_id("lines-panel")).to_contain_text("Die Linien")
    expect(table.get_by_test_id("metro-map-panel")).to_contain_text("Der Spielplan")
    no_raw(table, "table, German")
    table.get_by_test_id("projection").locator("summary").click()
    expect(table.get_by_test_id("projection-table")).to_be_visible()
    no_raw(table, "projection, German")
    # In Japanese the map names the stations as the board's Japanese names, placed clear again.
    tap(table, "lang-ja")
    first = board["stations"][0]
    expect(table.locator(f"[data-testid=metro-map] .m-station-name[data-station='{first['id']}']")).to_have_text(
        first["name_ja"].split(" / ")[0])
    mapcheck.labels_clear(table, len(board["stations"]), "table, Japanese")
    for_a_person(table.get_by_test_id("metro-map-panel"), str(mapcheck.SHOTS / "metro-map-ja-1280.png"))
    tap(table, "lang-en")
    assert not errors, errors
    # (no time limit asserted: speed is the benchmarks' to measure, and on a loaded machine a
    # limit fails a game that played correctly)
    print(f"map and train phase: {time.monotonic() - started:.1f} s")


# --- a whole 4-player game -------------------------------------------------------------------------

FOUR = ["Aki", "Ben", "Chie", "Dai"]
BOTS = [2, 3]
SEED_FOUR = 4
# Five cards to a column (four players lay four by default): the default deck lasts five rounds
# instead of six, every phase and the end still played (a shorter game for the suite's time).
SHORT_COLUMNS = 5


def log_of(base: str, gid: str) -> list[str]:
    return call(base, "GET", f"/api/games/{gid}/log.jsonl", raw=True).splitlines()


def press(page, move: dict, table) -> None:
    """Tap a move's button on `page` (opening its card action's group when it is folded) and wait
    until the table shows what followed."""
    testid = move_testid(move)
    button = page.get_by_test_id(testid)
    if not button.count():
        tap(page, f"group-{move['args']['card']}-{move['args']['action']}")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith("/moves")) as res:
        tap(page, button)
    assert res.value.ok, f"{testid}: {res.value.status} {res.value.text()}"
    shown(table, res.value.json()["view"]["seq"])


def field_choice(view: dict, moves: list[dict]) -> dict:
    """Place or walk onto a field touching a station nobody has built on (else the first field)."""
    board = view["state"]["board"]
    cols = board["grid"]["cols"]
    built = {p["station"] for p in view["state"]["pyramids"]}
    free = {tuple(f) for s in board["stations"] if s["id"] not in built for c in s["circles"] for f in c["fields"]}
    for m in moves:
        f = m["args"]["field"]
        if (f % cols, f // cols) in free:
            return m
    return moves[0]


def action_choice(view: dict, offered: list[dict], acted: int) -> dict:
    """A person's action: a station, a share or a train (without discounts, keeping 300 yen), one
    action a round (the computers make the rest of a busy game), else pass."""
    seat = offered[0]["move"]["player"]
    yen_now = view["state"]["players"][seat]["yen"]
    if acted < 1:
        for kind in ("station", "invest", "start"):
            for m in offered:
                mv = m["move"]
                if mv["kind"] == kind and not mv["args"].get("discounts") and m["cost"] <= yen_now - 300:
                    return mv
    return next(m["move"] for m in offered if m["move"]["kind"] == "pass")


def person_move(view: dict, offered: list[dict], acted: dict[tuple[int, int], int]) -> dict:
    """What a person of the four-player game does with the moves ``offered``: an action
    (``action_choice``; ``acted`` counts each seat's actions a round), a field to place or walk
    to, else a rider's or a meeple's decision at a station (riding on, or letting the train go)."""
    st = view["state"]
    kinds = {m["move"]["kind"] for m in offered}
    if st["phase"] == "actions" and "pass" in kinds:
        key = (offered[0]["move"]["player"], st["round"])
        acted[key] = acted.get(key, 0) + 1
        return action_choice(view, offered, acted[key] - 1)
    if kinds & {"place", "walk"}:
        return field_choice(view, [m["move"] for m in offered if m["move"]["kind"] in ("place", "walk")])
    return next((m["move"] for m in offered if m["move"]["kind"] in ("skip", "ride_on")), offered[0]["move"])


def check_estimates(page, base: str, gid: str, token: str | None) -> None:
    """Tap "Estimate final yen": the figures appear on the moves, labelled as an estimate from N
    random playouts, and they are the API's (same log: the same answer)."""
    tap(page, "estimate-btn")
    panel = page.locator("[data-testid=estimates].ready")
    expect(panel).to_be_visible(timeout=REPLY_MS)  # playouts capped at ~2 s of the server's time
    est = call(base, "GET", f"/api/games/{gid}/estimates", token=token)
    assert panel.get_attribute("data-playouts") == str(est["playouts"])
    label = page.get_by_test_id("estimates-label").text_content()
    assert str(est["playouts"]) in label.replace(",", "").replace(".", "")
    (seat,) = est["seats"]
    # Every badge on the page at once (open groups show their moves' badges; folded ones their own).
    badges = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll("[data-testid^='est-']")]
        .map((b) => [b.dataset.testid, {n: b.dataset.n, mean: b.dataset.mean ?? null, low: b.dataset.low ?? null,
                                    best: b.dataset.best === "true"}]))""")
    expected = {f"est-{move_testid(m['move'])}": m for m in seat["moves"]}
    expected.update({f"est-group-{g['group'].replace('/', '-')}": g for g in seat["groups"]})
    assert badges and set(badges) <= set(expected), set(badges) - set(expected)
    for testid, got in badges.items():
        want = expected[testid]
        assert got["n"] == str(want["n"]), testid
        if want["n"]:
            assert (got["mean"], got["low"]) == (str(want["mean"]), str(want["low"])), testid
    assert any(t.startswith("est-move-") for t in badges), "no move shows its estimate"
    # The star only where the server found a move clearly best (rarely, at these playouts).
    starred = {b for b, got in badges.items() if got["best"]}
    assert starred == {b for b in badges if expected[b].get("best")}, starred
    assert_fits(page, "the moves with their estimates")
    pass_badge = page.get_by_test_id("est-move-pass")
    if pass_badge.count():
        expect(pass_badge).to_contain_text("≈")


def test_a_four_player_game_from_start_to_final_scoring(base_url, browser):
    """Two people (Aki on her phone, Ben on the table view) and two computers play a whole game
    with the default board and deck (five cards to a column: five rounds): bids on the phones, every move of the people by a tap, the
    train phases started on the table (also when a computer is first), the estimates asked for,
    the last train phase's payouts shown, and the end scoring shown line by line as the engine
    scores the game's log."""
    started = time.monotonic()
    created = call(base_url, "POST", "/api/games", {"game": "tokyo_metro", "names": FOUR, "bots": BOTS,
                                                    "simulated": True, "seed": SEED_FOUR,
                                                    "options": {"cards_per_column": SHORT_COLUMNS}})
    gid = created["id"]
    tokens = [p["url"].split("token=")[1] for p in created["players"]]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    phone = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
    watch(phone, "phone", errors)
    table.goto(f"{base_url}/?game={gid}")
    phone.goto(created["players"][0]["url"])
    # TOKYO METRO has no tower: no simulated tower's banner, no camera and beams, on either page.
    for page, devices in ((table, "devices"), (phone, "devices-line")):
        expect(page.get_by_test_id("phase")).to_be_visible()
        expect(page.get_by_test_id("simulated-banner")).to_have_count(0)
        expect(page.get_by_test_id(devices)).to_have_count(0)
        expect(page.get_by_test_id("board-camera")).to_have_count(0)  # no board camera: no panel of it

    def bens_phone():
        """Ben takes out his phone for his bid (he plays on the table view), and puts it away after."""
        ben = browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
        watch(ben, "ben", errors)
        ben.goto(created["players"][1]["url"])
        return ben

    phones = {0: lambda: phone, 1: bens_phone}

    def api(token=None):
        return call(base_url, "GET", f"/api/games/{gid}/view", token=token)

    acted: dict[tuple[int, int], int] = {}
    told = computer_moves = 0  # the table's feed looked at up to this record; the computers' moves in it
    shot_mid = False
    taps = held_runs = runs = 0
    estimated_phone = estimated_table = last_run_checked = False
    for _ in range(1500):
        view = api()
        st = view["state"]
        if view["over"]:
            break
        if st["phase"] == "bid":
            for seat, take_out in phones.items():
                mine = api(tokens[seat])
                if any(m["move"]["kind"] == "bid" for m in mine["moves"]):
                    page = take_out()
                    shown(page, mine["seq"])
                    press(page, {"kind": "bid", "player": seat, "args": {"amount": 100 * (1 - seat)}}, table)
                    taps += 1
                    if page is not phone:
                        browser.put_away(page)
            continue
        if not view["moves"]:  # a decision only Aki's phone offers (a rider)
            mine = api(tokens[0])
            if not mine["moves"]:
                pytest.fail(f"round {st['round']}, phase {st['phase']}: the game waits for nobody here")
            shown(phone, mine["seq"])
            press(phone, next(m["move"] for m in mine["moves"] if m["move"]["kind"] in ("skip", "ride_on", "alight")), table)
            taps += 1
            continue
        first = view["moves"][0]["move"]
        seat = first["player"]
        if first["kind"] == "run_trains":
            # The preview is on the table before the trains run; a computer's run waits for the tap.
            shown(table, view["seq"])
            game_night.open_feed(table)
            told, checked = game_night.computer_moves_told(table, view, told)
            computer_moves += checked
            expect(table.get_by_test_id("train-preview")).to_be_visible()
            if seat in BOTS:
                held_runs += 1
                expect(table.get_by_test_id("run-held")).to_contain_text(FOUR[seat])
                assert view["moves"] == [{"move": first, "cost": 0, "pays_up_to": 0, "why": None}]
            # More pieces each round: the station names still clear of them all.
            mapcheck.labels_clear(table, len(st["board"]["stations"]), f"table, round {st['round']}")
            income = st["preview"]["owner_income"]
            press(table, first, table)
            taps += 1
            runs += 1
            # This table asks for less motion (the browser fixture's pages do): the trains stand at
            # their new stops at once, nothing glides and no payout floats up (the full motion:
            # test_metro_map_moves_and_train_phase).
            assert table.evaluate("() => { const m = document.querySelector('[data-testid=metro-map]');"
                                  " return [m.dataset.moving || null, m.querySelectorAll('.m-pop, .m-train.moving').length]; }") \
                == [None, 0], "the trains glide on a page that asked for less motion"
            after = api()
            if not last_run_checked and after["state"]["phase"] != "trains" and any(income) and not after["over"]:
                # Once the trains stopped gliding, the table says what the train phase paid whom.
                panel = table.get_by_test_id("last-run")
                expect(panel).to_be_visible()
                for p, got in enumerate(after["state"]["last_run"]["owner_income"]):
                    item = table.get_by_test_id(f"last-run-seat-{p}")
                    if got:
                        expect(item).to_have_attribute("data-income", str(got))
                    else:
                        expect(item).to_have_count(0)
                last_run_checked = True
            continue
        # A person's move: Aki's on her phone, Ben's on the table view.
        page = phone if seat == 0 else table
        offered = api(tokens[0])["moves"] if seat == 0 else view["moves"]
        seq = api(tokens[0])["seq"] if seat == 0 else view["seq"]
        shown(page, seq)
        if page is table:  # what the computers did since is in the table's feed, in words
            game_night.open_feed(table)
            told, checked = game_night.computer_moves_told(table, view, told)
            computer_moves += checked
            if st["round"] == 3 and not shot_mid:  # the main views mid-game, for a person to look at
                game_night.screenshot(table, "metro-table-mid", full_page=False)
                game_night.screenshot(phone, "metro-phone-mid", full_page=False)
                shot_mid = True
        kinds = {m["move"]["kind"] for m in offered}
        if st["phase"] == "actions" and "pass" in kinds:
            # Estimates from later rounds: fewer rounds to play out, a quicker answer.
            if seat == 0 and not estimated_phone and st["round"] >= 3:
                check_estimates(phone, base_url, gid, tokens[0])
                estimated_phone = True
            elif seat == 1 and not estimated_table and st["round"] >= 4:
                tap(table, "lang-de")
                check_estimates(table, base_url, gid, None)
                expect(table.get_by_test_id("estimates-label")).to_contain_text("Schätzung")
                no_raw(table, "estimates, German")
                tap(table, "lang-en")
                estimated_table = True
        move = person_move(view, offered, acted)
        press(page, move, table)
        taps += 1
    else:
        pytest.fail("the game did not end")

    # The end: the scoring line by line on the table, as the engine scores the game's log.
    final = read_jsonl(log_of(base_url, gid)).state
    result = final.result
    assert final.phase == "over" and result["totals"] == [s.yen for s in final.seats]
    view = api()
    shown(table, view["seq"])
    scoring = table.get_by_test_id("final-scoring")
    expect(scoring).to_be_visible()
    lines = [ln for ln in result["lines"] if ln["value"] or ln["shares"] or ln["speculations"]]
    assert len(lines) >= 4, "a game with hardly any line worth scoring"
    expect(scoring.locator("[data-testid^=score-line-]")).to_have_count(len(lines))
    for ln in lines:
        row = table.get_by_test_id(f"score-line-{ln['line']}")
        expect(row).to_have_attribute("data-value", str(ln["value"]))
        expect(row).to_have_attribute("data-after", str(ln["value_after_speculation"]))
        for sh in ln["shares"]:
            cell = table.get_by_test_id(f"score-share-{ln['line']}-{sh['share']}")
            expect(cell).to_have_attribute("data-seat", str(sh["seat"]))
            expect(cell).to_have_attribute("data-paid", str(sh["paid"]))
    for p in range(4):
        row = table.get_by_test_id(f"score-seat-{p}")
        for key in ("yen", "speculation", "stakes_returned", "shares", "loans", "totals"):
            expect(row.locator(f"[data-field={key}]")).to_have_attribute("data-value", str(result[key][p]))
        expect(table.get_by_test_id(f"player-{p}-yen")).to_have_attribute("data-value", str(result["totals"][p]))
    no_raw(table, "final scoring")
    assert "?¥" not in table.locator("#app").inner_text(), "a speculation still shown as 'L ?¥N'"
    assert runs == final.rules.rounds and held_runs >= 1, (runs, held_runs)
    assert estimated_phone and estimated_table and last_run_checked
    # On Aki's phone the end scoring fits the window: row by row, nothing to scroll sideways.
    shown(phone, view["seq"])
    expect(phone.get_by_test_id("final-scoring")).to_be_visible()
    assert_fits(phone, "the end scoring on a phone")
    game_night.screenshot(phone, "metro-phone-final")
    game_night.screenshot(table, "metro-table-final")
    # Every computer move is in the feed; the history lists the game with its winner.
    assert computer_moves and game_night.every_computer_move_in_feed(base_url, gid, game_night.records_of(base_url, gid))
    best = max(result["totals"])
    game_night.history_lists(table, base_url, gid, FOUR[result["totals"].index(best)])
    game_night.screenshot(table, "history")
    assert not errors, errors
    elapsed = time.monotonic() - started
    print(f"4-player game: {taps} taps, {elapsed:.1f} s")     # (for the record: speed is the benchmarks' to measure)


def test_the_lobby_and_table_show_no_tower_for_tokyo_metro(base_url, browser):
    """TOKYO METRO throws nothing into the tower: the lobby's simulated box speaks of chance (the
    cards turned up), not of a tower; its table view has no tower banner and no camera panel, and
    at phone width nothing sticks out. The lobby offers its choices (the action cards: the board's
    own or OSAKA METRO's, the modular variant); the game starts with the one picked and says so."""
    page = browser.new_page(viewport=TABLE_SIZE)
    page.goto(base_url + "/")
    tap(page, "gametype-pocari_bet")
    expect(page.get_by_test_id("simulated-label")).to_contain_text("tower")
    expect(page.get_by_test_id("lobby-choices")).to_have_count(0)  # a game without choices shows none
    tap(page, "gametype-tokyo_metro")
    expect(page.get_by_test_id("simulated-label")).to_contain_text("chance")
    expect(page.get_by_test_id("simulated-label")).not_to_contain_text("tower")
    expect(page.get_by_test_id("choice-card_set-board")).to_have_attribute("aria-checked", "true")
    tap(page, "choice-card_set-osaka")
    expect(page.get_by_test_id("choice-card_set-osaka")).to_have_attribute("aria-checked", "true")
    tap(page, "gametype-osaka_metro")   # another game starts from its own defaults: its board's cards
    expect(page.get_by_test_id("choice-card_set-board")).to_have_attribute("aria-checked", "true")
    expect(page.get_by_test_id("choice-card_set-tokyo")).to_have_attribute("aria-checked", "false")
    tap(page, "gametype-tokyo_metro")
    expect(page.get_by_test_id("choice-card_set-board")).to_have_attribute("aria-checked", "true")
    tap(page, "choice-card_set-osaka")
    expect(page.get_by_test_id("choice-card_set")).to_contain_text("OSAKA METRO")
    tap(page, "start-game")
    page.wait_for_url(re.compile(r"/\?game=\w+"))
    expect(page.get_by_test_id("metro-map")).to_be_visible()
    gid = page.url.split("game=")[1]
    assert call(base_url, "GET", f"/api/games/{gid}/view")["state"]["card_set"] == "osaka"
    chip = page.get_by_test_id("metro-system")
    expect(chip).to_have_attribute("data-system", "tokyo")
    expect(chip).to_have_attribute("data-cards", "osaka")
    expect(chip).to_have_attribute("data-stay", "true")  # Osaka's cards: the trains stay
    expect(page.get_by_test_id("simulated-banner")).to_have_count(0)
    expect(page.get_by_test_id("devices")).to_have_count(0)
    page.set_viewport_size(PHONE_SIZE)
    expect(page.get_by_test_id("metro-map")).to_be_visible()
    assert_fits(page, "the TOKYO METRO table view at phone width")


# --- a view redrawn in place ------------------------------------------------------------------------

# What a page shows, to compare two pages: each marked element's test id and text, in order.
SHOWN = """() => [...document.querySelectorAll('#app [data-testid]')].filter((el) => el.getClientRects().length)
  .map((el) => `${el.dataset.testid}: ${el.textContent.replace(/\\s+/g, ' ').trim()}`)"""


def test_a_view_redraws_the_table_in_place(base_url, browser):
    """Views pushed to a METRO table page (bids, then meeples placed) change only what they change:
    the map's layers, the players' panel and the link with the focus are the very elements they
    were (a tablet does not style, lay out and paint them again), the focus stays, and the page
    shows what a page opened afresh on the same view shows (dom.js redraw)."""
    created = call(base_url, "POST", "/api/games", {"game": "tokyo_metro", "names": FOUR, "bots": [], "seed": SEED_FOUR})
    gid, errors = created["id"], []
    tokens = [p["url"].split("token=")[1] for p in created["players"]]
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    table.goto(f"{base_url}/?game={gid}")
    shown(table, call(base_url, "GET", f"/api/games/{gid}/view")["seq"])
    table.evaluate("""() => {
      for (const el of document.querySelectorAll('[data-testid=metro-map] > *, .players, [data-testid=how-link]')) el.__before = true;
      document.querySelector('[data-testid=how-link]').focus();
    }""")
    kinds = []
    while len(kinds) < 6:  # the four bids, then meeples on the board
        seat, move = next((s, v["moves"][0]["move"]) for s, token in enumerate(tokens)
                          if (v := call(base_url, "GET", f"/api/games/{gid}/view", token=token))["moves"])
        kinds.append(move["kind"])
        answer = call(base_url, "POST", f"/api/games/{gid}/moves", {"move": move}, token=tokens[seat])
        shown(table, answer["view"]["seq"])
    assert "place" in kinds, kinds
    kept = table.evaluate("""() => ({
      layers: [...document.querySelectorAll('[data-testid=metro-map] > *')].map((el) => Boolean(el.__before)),
      players: Boolean(document.querySelector('.players').__before),
      focus: document.activeElement.dataset.testid })""")
    assert kept["focus"] == "how-link", kept
    assert kept["players"], "the players' panel was drawn anew"
    assert sum(kept["layers"]) >= len(kept["layers"]) - 3, f"map layers drawn anew: {kept['layers']}"
    fresh = browser.new_page(viewport=TABLE_SIZE)
    fresh.goto(f"{base_url}/?game={gid}")
    shown(fresh, table.evaluate("() => Number(document.getElementById('app').dataset.seq)"))
    expect(fresh.get_by_test_id("watch-link")).to_be_visible()  # (the join links come after the view)
    assert table.evaluate(SHOWN) == fresh.evaluate(SHOWN)
    assert not errors, errors


def test_every_train_phase_of_a_default_length_game_names_every_station_clear(base_url, browser):
    """The four-player game above at its default length (six rounds), its moves made through the API
    (the same choices, no taps: the game above taps them), one table page open: in every train
    phase, once the trains are placed and their stops and +¥ tags drawn, every station's name is
    inside the map and over no other name, piece or stop circle (round 5 once had a name with no
    free spot left drawn crowded over three stops)."""
    created = call(base_url, "POST", "/api/games", {"game": "tokyo_metro", "names": FOUR, "bots": BOTS,
                                                    "simulated": True, "seed": SEED_FOUR})
    gid = created["id"]
    tokens = [p["url"].split("token=")[1] for p in created["players"]]
    errors: list[str] = []
    table = browser.new_page(viewport=TABLE_SIZE)
    watch(table, "table", errors)
    table.goto(f"{base_url}/?game={gid}")

    def api(token=None):
        return call(base_url, "GET", f"/api/games/{gid}/view", token=token)

    def post(move: dict, token=None):
        call(base_url, "POST", f"/api/games/{gid}/moves", {"move": move}, token=token)

    acted: dict[tuple[int, int], int] = {}
    checked = []
    for _ in range(1500):
        view = api()
        st = view["state"]
        if view["over"]:
            break
        if st["phase"] == "bid":
            for seat in (0, 1):
                if any(m["move"]["kind"] == "bid" for m in api(tokens[seat])["moves"]):
                    post({"kind": "bid", "player": seat, "args": {"amount": 100 * (1 - seat)}}, tokens[seat])
            continue
        if not view["moves"]:  # a decision only Aki's phone offers (a rider)
            mine = api(tokens[0])["moves"]
            post(next(m["move"] for m in mine if m["move"]["kind"] in ("skip", "ride_on", "alight")), tokens[0])
            continue
        first = view["moves"][0]["move"]
        seat = first["player"]
        if first["kind"] == "run_trains":
            shown(table, view["seq"])
            mapcheck.labels_clear(table, len(st["board"]["stations"]), f"table, round {st['round']}")
            checked.append(st["round"])
            post(first)
            continue
        offered = api(tokens[0])["moves"] if seat == 0 else view["moves"]
        post(person_move(view, offered, acted), tokens[0] if seat == 0 else None)
    else:
        pytest.fail("the game did not end")
    assert checked == list(range(1, 7)), f"train phases checked: {checked}"
    assert not errors, errors
