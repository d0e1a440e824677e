"""OSAKA METRO and METRO DRINKS on the dashboard, in a real browser (Debian's Chromium driven by
Playwright against the real `companion serve`), each played to its final scoring.

OSAKA METRO (2 seats: Aki a person on the table view, her bid on her phone; Ben the computer;
eight cards to a column: Osaka's 8-card sets last one round): the map draws every small stop and
names the system; Aki places her meeple by a tap, takes a new action by taps (a share for an
action disc: the card's action, then the tram's or bus's line on the revenue track), both
vehicles of that line stand on the map, told apart as trams or buses; the train phase lists
both vehicles' runs; the end scoring is shown as the engine scores the game's log.

METRO DRINKS (the Tokyo board with its 9-card sets: one round; a real table: what chance brings
is entered, the first card by a tap, the tower's drop by taps): Aki builds a station, starts a
train through it, takes a colour card, enters what came out of the tower (one drink stays stuck
inside, shown as such), takes a shape card (the table says she builds free), and builds a vending
machine with one of those drinks at her station on the way of a move action (picked in the move's
group, then the target tapped); the drink stands there on the map; the train phase's preview
counts the drink bonus; the end scoring.

The lobby's choices (which cards) are played in test_dashboard_metro.py's lobby test.
"""
from __future__ import annotations

import pytest
from browser_support import assert_fits, call, move_testid, shown, tap
from playwright.sync_api import expect

import game_night

from companion.table.log import read_jsonl

pytestmark = pytest.mark.browser

TABLE_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}
NAMES = ["Aki", "Ben"]
RAW = r"\b(?:move|phase|game|field|chance|pick|kind|value|metro|money|player|result|drop)\.[a-zA-Z_.]+\b|\{[a-z_]+\}"


class Table:
    """One game: the API's answers, the table view (Aki plays there) and Aki's phone (her bid)."""

    def __init__(self, base: str, browser, created: dict, errors: list[str]):
        self.base, self.gid, self.browser, self.errors = base, created["id"], browser, errors
        self.url = created["players"][0]["url"]
        self.token = self.url.split("token=")[1]
        self.page = self.opened("table", browser.new_page(viewport=TABLE_SIZE), f"{base}/?game={self.gid}")
        self._phone = None

    def opened(self, name: str, page, url: str):
        page.on("pageerror", lambda err: self.errors.append(f"{name}: {err}"))
        page.on("console", lambda msg: self.errors.append(f"{name}: {msg.text}") if msg.type == "error" else None)
        page.goto(url)
        return page

    @property
    def phone(self):
        """Aki's phone, taken out when first needed (her bid)."""
        if self._phone is None:
            self._phone = self.opened("phone", self.browser.new_page(viewport=PHONE_SIZE, is_mobile=True, has_touch=True,
                                                                     host=False), self.url)
        return self._phone

    def view(self, mine: bool = False) -> dict:
        return call(self.base, "GET", f"/api/games/{self.gid}/view", token=self.token if mine else None)

    def show(self, seq: int) -> None:
        shown(self.page, seq)

    def press(self, move: dict, page=None) -> dict:
        """Tap a move's button (opening its card action's group when folded); the view after it."""
        page = page or self.page
        testid = move_testid(move)
        if not page.get_by_test_id(testid).count() and "action" in move["args"]:
            tap(page, f"group-{move['args']['card']}-{move['args']['action']}")
        return self.tapped(page, testid)

    def tapped(self, page, target) -> dict:
        """Tap ``target`` (a test id or locator), which makes a move; the table shows what followed."""
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.split("?")[0].endswith("/moves")) as res:
            tap(page, target)
        assert res.value.ok, f"{target}: {res.value.status} {res.value.text()}"
        view = self.view()
        self.show(view["seq"])
        return view

    def wait_for_others(self, view: dict) -> None:
        """The computer (or the simulated table) moves next: wait for the view after it."""
        shown(self.page, view["seq"] + 1, "the table, after the computer's move")

    def not_on_the_table(self, view: dict) -> bool:
        """Whether what comes next is made elsewhere (done here): Aki's bid or a rider's decision on
        her phone, or the computer's move. Else the table shows ``view``, for Aki's move there."""
        if view["state"]["phase"] == "bid":
            self.bid_on_phone()
            return True
        if view["moves"]:
            self.show(view["seq"])
            return False
        mine = self.view(mine=True)
        if mine["moves"]:
            shown(self.phone, mine["seq"])
            self.press(next(m["move"] for m in mine["moves"] if m["move"]["kind"] in ("skip", "ride_on", "alight")),
                       self.phone)
        else:
            self.wait_for_others(view)
        return True

    def bid_on_phone(self) -> None:
        mine = self.view(mine=True)
        bid = min((m["move"] for m in mine["moves"] if m["move"]["kind"] == "bid"), key=lambda m: m["args"]["amount"])
        shown(self.phone, mine["seq"])
        self.press(bid, self.phone)
        shown(self.phone, self.view(mine=True)["seq"])
        assert_fits(self.phone, f"{self.view()['state']['game']} on Aki's phone")  # nothing sticks out sideways

    def in_german(self, what: str) -> None:
        """The table in German has every word it shows (no key, no empty slot); back to English."""
        tap(self.page, "lang-de")
        expect(self.page.locator("html")).to_have_attribute("lang", "de")
        self.no_raw(f"{what}, German")
        tap(self.page, "lang-en")

    def no_raw(self, what: str) -> None:
        bad = self.page.evaluate("raw => (document.body.textContent.match(new RegExp(raw)) || [null])[0]", RAW)
        assert not bad, f"{what}: {bad!r} shown as is"

    def final_scoring(self) -> dict:
        """The end scoring on the table is the engine's scoring of the game's log."""
        final = read_jsonl(call(self.base, "GET", f"/api/games/{self.gid}/log.jsonl", raw=True).splitlines()).state
        result = final.result
        assert final.phase == "over" and result["totals"] == [s.yen for s in final.seats]
        self.show(self.view()["seq"])
        expect(self.page.get_by_test_id("final-scoring")).to_be_visible()
        for p in range(len(NAMES)):
            row = self.page.get_by_test_id(f"score-seat-{p}")
            keys = ["yen", "speculation", "stakes_returned", "shares", "loans", "totals"]
            if any(result.get("set_aside") or ()):
                keys.append("set_aside")
            for key in keys:
                expect(row.locator(f"[data-field={key}]")).to_have_attribute("data-value", str(result[key][p]))
            expect(self.page.get_by_test_id(f"player-{p}-yen")).to_have_attribute("data-value", str(result["totals"][p]))
        self.no_raw("final scoring")
        return result


def touching(board: dict) -> dict[tuple[int, int], set[str]]:
    """Field (col, row) -> the stations whose circles touch it."""
    out: dict[tuple[int, int], set[str]] = {}
    for s in board["stations"]:
        for c in s["circles"]:
            for f in c["fields"]:
                out.setdefault(tuple(f), set()).add(s["id"])
    return out


def field_of(board: dict, move: dict) -> tuple[int, int]:
    cols = board["grid"]["cols"]
    return move["args"]["field"] % cols, move["args"]["field"] // cols


def map_tap(table: Table, move: dict) -> dict:
    """Place or walk by tapping the move's field on the map."""
    c, r = field_of(table.view()["state"]["board"], move)
    return table.tapped(table.page, f"map-field-{c}-{r}")


# --- OSAKA METRO ------------------------------------------------------------------------------------

def pair_share(view: dict) -> dict | None:
    """Aki's share for an action disc on a line of two vehicles (a tram or bus line), if offered."""
    pairs = {ln["letter"] for ln in view["state"]["board"]["lines"] if ln["vehicles"] == 2}
    return next((m["move"] for m in view["moves"] if m["move"]["kind"] == "invest_disc" and m["move"]["args"]["line"] in pairs),
                None)


def test_an_osaka_metro_game_to_the_final_scoring(base_url, browser):
    errors: list[str] = []
    created = call(base_url, "POST", "/api/games", {"game": "osaka_metro", "names": NAMES, "bots": [1], "simulated": True,
                                                    "seed": 5, "options": {"cards_per_column": 8}})
    table = Table(base_url, browser, created, errors)
    page = table.page
    view = table.view()
    board = view["state"]["board"]
    table.show(view["seq"])
    # The Osaka board: its lines, every small stop drawn on the map, the system named.
    svg = page.get_by_test_id("metro-map")
    expect(svg).to_have_attribute("data-lines", str(len(board["lines"])))
    assert board["small_stops"], "the Osaka board has small stops"
    expect(page.get_by_test_id("map-small-stops")).to_have_attribute("data-n", str(len(board["small_stops"])))
    expect(page.locator("circle.m-small-stop")).to_have_count(len(board["small_stops"]))
    chip = page.get_by_test_id("metro-system")
    expect(chip).to_have_attribute("data-system", "osaka")
    expect(chip).to_have_attribute("data-stay", "true")
    expect(chip).to_contain_text("OSAKA METRO")
    for ln in board["lines"]:
        if ln["vehicles"] == 2:
            expect(page.get_by_test_id(f"line-{ln['letter']}-vehicle")).to_have_attribute("data-kind", ln["vehicle"])

    pair = None          # the tram or bus line Aki bought into with a disc
    previewed = False
    for _ in range(300):
        view = table.view()
        st = view["state"]
        if view["over"]:
            break
        if table.not_on_the_table(view):
            continue
        first = view["moves"][0]["move"]
        kinds = {m["move"]["kind"] for m in view["moves"]}
        if first["kind"] == "run_trains":
            if pair and not previewed:  # both vehicles' runs listed before the trains run
                expect(page.get_by_test_id("train-preview")).to_be_visible()
                expect(page.get_by_test_id(f"preview-{pair}")).to_be_visible()
                expect(page.get_by_test_id(f"preview-{pair}-2")).to_be_visible()
                expect(page.get_by_test_id("trains-stay")).to_be_visible()
                game_night.screenshot(page, "osaka-table-trains")     # for a person to look at
                table.in_german("the OSAKA METRO train phase")
                previewed = True
            table.press(first)
            continue
        if first["player"] != 0:
            table.wait_for_others(view)
            continue
        if kinds & {"place", "walk"}:
            map_tap(table, next(m["move"] for m in view["moves"] if m["move"]["kind"] in ("place", "walk")))
        elif st["phase"] == "actions":
            move = pair_share(view) if pair is None else None
            if move is None:
                table.press(next(m["move"] for m in view["moves"] if m["move"]["kind"] == "pass"))
                continue
            # The new action by taps: the action on its card, then the line on the revenue track.
            card = f"card-action-{move['args']['card']}-{move['args']['action']}"
            if page.get_by_test_id(card).get_attribute("data-moves") == "1":
                after = table.tapped(page, card)
            else:
                tap(page, card)
                after = table.tapped(page, f"map-line-{move['args']['line']}")
            pair = move["args"]["line"]
            kind = next(ln["vehicle"] for ln in board["lines"] if ln["letter"] == pair)
            assert after["state"]["players"][0]["discs_boxed"] == 1
            expect(page.get_by_test_id("player-0-discs-boxed")).to_be_visible()
            for testid in (f"map-train-{pair}", f"map-train-{pair}-2"):  # both vehicles, one at each end
                expect(page.get_by_test_id(testid)).to_have_attribute("data-kind", kind)
            stops = {v["stop"] for v in next(ln for ln in after["state"]["lines"] if ln["letter"] == pair)["vehicles"]}
            assert len(stops) == 2
            expect(page.get_by_test_id(f"line-{pair}-at-1")).to_be_visible()
        else:  # the train phase: riders and meeples at a stop decide
            table.press(next((m["move"] for m in view["moves"] if m["move"]["kind"] in ("skip", "ride_on")),
                             view["moves"][0]["move"]))
    else:
        pytest.fail("the game did not end")
    assert pair and previewed, (pair, previewed)
    table.final_scoring()
    assert not errors, errors


# --- METRO DRINKS -----------------------------------------------------------------------------------

def enter_chance(table: Table, view: dict, first_by_tap: list[bool]) -> dict:
    """What chance brought at the table (a card turned up, a tie broken), entered as a person would:
    the very first on the table by a tap, the rest through the API (the same request)."""
    while view["chance"] and view["chance"].get("outcomes"):
        move = view["chance"]["outcomes"][0]["move"]
        if not first_by_tap[0]:
            table.show(view["seq"])
            view = table.tapped(table.page, "-".join(["chance", move["kind"], *map(str, move["args"].values())]))
            first_by_tap[0] = True
            continue
        view = call(table.base, "POST", f"/api/games/{table.gid}/moves", {"move": move})["view"]
    return view


def lines_reaching(board: dict, station: str) -> list[str]:
    """Lines whose train, started at stop 1, stops at this station in its first five stops."""
    where = {c["id"]: s["id"] for s in board["stations"] for c in s["circles"]}
    return [ln["letter"] for ln in board["lines"]
            if any(where.get(st["circle"]) == station for st in ln["stops"][1:6])]


def test_a_metro_drinks_game_with_a_vending_machine_to_the_final_scoring(base_url, browser):
    errors: list[str] = []
    created = call(base_url, "POST", "/api/games", {"game": "metro_drinks", "names": NAMES, "bots": [1], "simulated": False,
                                                    "seed": 7, "options": {"cards_per_column": 9, "start_discs": 6}})
    table = Table(base_url, browser, created, errors)
    page = table.page
    first_by_tap = [False]
    station = line = drink = None
    built = bonus_seen = False
    for _ in range(400):
        view = enter_chance(table, table.view(), first_by_tap)
        st = view["state"]
        if view["over"]:
            break
        board = st["board"]
        if view["chance"] and view["chance"].get("kind") == "drop":
            # What came out of the tower after the colour card, entered on the table by taps.
            table.show(view["seq"])
            thrown = view["chance"]["thrown"]
            out, stuck = thrown[:-1], thrown[-1]   # one drink stays stuck inside
            expect(page.get_by_test_id("tapper")).to_be_visible()
            for d in out:
                tap(page, f"tap-{d}")
            with page.expect_response(lambda r: r.request.method == "POST" and "/observations" in r.url) as res:
                tap(page, "tap-confirm")
            assert res.value.ok, res.value.text()
            after = table.view()
            table.show(after["seq"])
            mine = after["state"]["players"][0]
            assert sorted(mine["drinks"]) == sorted(out) and after["state"]["drinks"]["tower"] == [stuck], mine["drinks"]
            expect(page.get_by_test_id("player-0-drinks")).to_have_attribute("data-n", str(len(out)))
            expect(page.get_by_test_id(f"crate-{stuck.split('-')[0]}")).to_have_attribute("data-holder", "0")
            expect(page.get_by_test_id("stuck").locator(f"[data-drink='{stuck}']")).to_have_count(1)
            continue
        if table.not_on_the_table(view):
            continue
        first = view["moves"][0]["move"]
        if first["kind"] == "run_trains":
            preview = st["preview"]
            pays = [p for tr in preview["trains"] for p in tr["payouts"] if built and p["station"] == station]
            if pays:  # the preview counts the drink bonus at Aki's station
                item = page.get_by_test_id(f"payout-{pays[0]['stop']}")
                expect(item).to_have_attribute("data-bonus", str(st["drinks"]["bonus"][drink.split("-")[0]]))
                expect(item).to_contain_text("drink bonus")
                game_night.screenshot(page, "drinks-table-trains")
                table.in_german("the METRO DRINKS train phase")
                bonus_seen = True
            table.press(first)
            continue
        if first["player"] != 0:
            table.wait_for_others(view)
            continue
        moves = [m["move"] for m in view["moves"]]
        if st["phase"] == "movement":
            # A field touching a station that a train started at its first stop reaches this round.
            near = touching(board)
            move = next((m for m in moves if m["kind"] in ("place", "walk")
                         and any(lines_reaching(board, s) for s in near.get(field_of(board, m), ()))),
                        next(m for m in moves if m["kind"] in ("place", "walk")))
            map_tap(table, move)
        elif st["phase"] == "actions":
            move = None
            if station is None:
                move = next((m for m in moves if m["kind"] == "station" and not m["args"].get("discounts")
                             and lines_reaching(board, m["args"]["station"])), None)
                if move:
                    station = move["args"]["station"]
            elif line is None:
                move = next((m for m in moves if m["kind"] == "start" and not m["args"].get("discounts")
                             and m["args"]["line"] in lines_reaching(board, station)), None)
                if move:
                    line = move["args"]["line"]
            elif not st["players"][0]["drinks"] and not st["players"][0]["colour_cards"]:
                colour = next((m for m in moves if m["kind"] == "colour_card"), None)
                if colour:  # the colour card, tapped in the stock column
                    table.tapped(page, f"stock-card-{colour['args']['card']}")
                    continue
            elif 0 not in st["drinks"]["free_builders"]:
                shape = next((m for m in moves if m["kind"] == "shape_card"), None)
                if shape:  # the shape card, tapped in the stock column: free builds for the rest of the phase
                    table.tapped(page, f"stock-card-{shape['args']['card']}")
                    expect(page.get_by_test_id("free-builds")).to_have_attribute("data-seat", "0")
                    continue
            elif not built:
                walk = next((m for m in moves if m["kind"] == "move"), None)
                if walk:
                    # A vending machine on the way of a move action: the drink picked at her station
                    # (the way starts beside it), then the field the meeple goes to.
                    group = f"{walk['args']['card']}-{walk['args']['action']}"
                    if not page.get_by_test_id(f"walk-builds-{group}").count():
                        tap(page, f"group-{group}")
                    drink = st["players"][0]["drinks"][0]
                    tap(page, f"walk-build-{station}-{drink}")
                    expect(page.get_by_test_id("walk-builds-list")).to_have_attribute("data-n", "1")
                    after = table.tapped(page, move_testid(walk))
                    built = True
                    mark = page.get_by_test_id(f"map-drink-{station}")
                    expect(mark).to_have_attribute("data-drink", drink)
                    expect(mark).to_have_attribute("data-owner", "0")
                    assert {"station": station, "drink": drink} in [
                        {"station": x["station"], "drink": x["drink"]} for x in after["state"]["drinks"]["stations"]]
                    continue
            table.press(move or next(m for m in moves if m["kind"] == "pass"))
        else:
            table.press(next((m for m in moves if m["kind"] in ("skip", "ride_on")), moves[0]))
    else:
        pytest.fail("the game did not end")
    assert station and line and built, (station, line, built)
    assert bonus_seen, "no train paid at the station with the vending machine"
    table.final_scoring()
    assert not errors, errors
