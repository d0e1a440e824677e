"""Checks of the TOKYO METRO map that people match to their board (issue 28), made on the pages
of the METRO browser game (tests/test_dashboard_metro.py): every station's name readable (placed
clear of the other names and of every piece, inside the map), the grid's coordinates, the spot a
move button names lit on the map, the layers a person switches off, pan and zoom. Each check is
quick: it looks at a page the game has open anyway.
"""
from __future__ import annotations

from pathlib import Path

from browser_support import for_a_person, tap, wait_until
from playwright.sync_api import expect

# Screenshots of the map for a person to look at (build/ is not committed).
SHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"

# Every name's box on the page (client pixels, so what a person sees) against the map's paper,
# the other names and every piece and stop circle; answers the count and what is wrong.
LABELS_CLEAR = """() => {
  const svg = document.querySelector('[data-testid=metro-map]');
  const paper = svg.querySelector('.m-paper').getBoundingClientRect();
  const boxes = (sel, name) => [...svg.querySelectorAll(sel)].map((e) => ({ what: name(e), r: e.getBoundingClientRect() }));
  const labels = boxes('.m-station-name', (e) => e.textContent);
  const pieces = boxes('.m-train, .m-meeple, .m-pyramid, .m-step, .m-payout, .m-stop',
    (e) => `${e.getAttribute('class')} ${e.dataset.line || e.dataset.station || e.dataset.seat || e.dataset.circle || ''}`
      + ` ${e.getAttribute('transform') || ''} ${e.dataset.stop || ''}`);
  const eps = 0.5;
  const hit = (a, b) => a.left + eps < b.right && b.left + eps < a.right && a.top + eps < b.bottom && b.top + eps < a.bottom;
  const bad = [];
  labels.forEach((l, i) => {
    const r = l.r;
    if (!r.width || !r.height) bad.push(`${l.what}: not drawn`);
    if (r.left < paper.left - eps || r.right > paper.right + eps || r.top < paper.top - eps || r.bottom > paper.bottom + eps) {
      bad.push(`${l.what}: outside the map`);
    }
    for (const p of pieces) if (hit(r, p.r)) bad.push(`${l.what} over ${p.what} (${JSON.stringify([r, p.r])})`);
    for (const o of labels.slice(i + 1)) if (hit(r, o.r)) bad.push(`${l.what} over ${o.what}`);
  });
  const shown = getComputedStyle(svg.querySelector('.m-labels')).display !== 'none';
  return { count: labels.length, shown, crowded: svg.querySelectorAll('[data-crowded]').length, bad: bad.slice(0, 12) };
}"""

# The placement module alone, in the page (its font), on the real board: the Japanese names (before
# a Japanese page exists to show them) with a meeple on every field of the start area.
PLACEMENT_UNIT = """async () => {
  const js = new URL('.', document.querySelector('script[type=module]').src);  // the page's own modules
  const { placeLabels, overlaps } = await import(new URL('metro/labels.js', js).href);
  const { measureText } = await import(new URL('metro/maplabels.js', js).href);
  const res = await fetch(`/api/games/${new URLSearchParams(location.search).get('game')}/view`);
  const board = (await res.json()).state.board;
  const U = 40;
  const obstacles = [];
  for (const st of board.stations) for (const c of st.circles) obstacles.push({ x1: c.x * U - 11, y1: c.y * U - 11, x2: c.x * U + 11, y2: c.y * U + 11 });
  const a = board.start_area;
  for (let c = a.col; c < a.col + a.cols; c++) for (let r = a.row; r < a.row + a.rows; r++) {
    if ((c + r) % 2 === 0) obstacles.push({ x1: c * U + 3, y1: r * U + 3, x2: c * U + 37, y2: r * U + 37 });
  }
  const items = board.stations.map((s) => ({ id: s.id, text: s.name_ja.split(' / ')[0],
    circles: s.circles.map((c) => ({ x: c.x * U, y: c.y * U })), rank: s.lines.length }));
  const bounds = { x1: 0, y1: 0, x2: board.grid.cols * U, y2: board.grid.rows * U };
  const started = performance.now();
  const out = placeLabels(items, { bounds, obstacles, size: 11, stop: 12, measure: measureText });
  const ms = performance.now() - started;
  const bad = [];
  out.forEach((p, i) => {
    if (p.crowded) bad.push(`${p.text}: crowded`);
    if (p.box.x1 < 0 || p.box.y1 < 0 || p.box.x2 > bounds.x2 || p.box.y2 > bounds.y2) bad.push(`${p.text}: outside`);
    for (const o of obstacles) if (overlaps(p.box, o)) { bad.push(`${p.text}: on a piece`); break; }
    for (const q of out.slice(i + 1)) if (overlaps(p.box, q.box)) bad.push(`${p.text} over ${q.text}`);
  });
  return { count: out.length, ms, bad: bad.slice(0, 12) };
}"""


def labels_clear(page, stations: int, what: str) -> None:
    """Every station named on the map, inside it, over no other name and no piece."""
    got = page.evaluate(LABELS_CLEAR)
    assert got["count"] == stations and got["shown"], f"{what}: {got['count']} names of {stations} stations drawn"
    assert not got["bad"] and not got["crowded"], f"{what}: names not clear: {got}"


def placement_unit(page, stations: int) -> None:
    got = page.evaluate(PLACEMENT_UNIT)
    assert got["count"] == stations and not got["bad"], got


def coords_and_highlight(page, grid: dict, col: int, row: int, testid: str) -> None:
    """The grid's numbers along the edges (4 per field: above, below, left, right), and the field
    a move names lit on the map while its button is hovered, with its column and row marked."""
    svg = page.get_by_test_id("metro-map")
    expect(svg.locator(".m-coord")).to_have_count(2 * grid["cols"] + 2 * grid["rows"])
    button = page.get_by_test_id(testid)
    button.hover()
    lit = page.get_by_test_id("map-highlight")
    expect(lit).to_have_attribute("data-field", f"{col},{row}")
    expect(svg.locator(f".m-coord.on[data-col='{col}']")).to_have_count(2)
    expect(svg.locator(f".m-coord.on[data-row='{row}']")).to_have_count(2)
    page.mouse.move(1, 1)  # off the button: the light goes
    expect(lit).to_have_count(0)
    button.focus()          # a keyboard's focus lights it too
    expect(page.get_by_test_id("map-highlight")).to_have_attribute("data-field", f"{col},{row}")
    button.blur()


def move_lights(page, move: dict, testid: str) -> None:
    """Hovering a station's move rings the station on the map; a line's move lights the line."""
    button = page.get_by_test_id(testid)
    if not button.count():  # its card action's group is folded
        tap(page, f"group-{move['args']['card']}-{move['args']['action']}")
    button.hover()
    lit = page.get_by_test_id("map-highlight")
    if "station" in move["args"]:
        expect(lit).to_have_attribute("data-station", move["args"]["station"])
    else:
        expect(lit).to_have_attribute("data-line", move["args"]["line"])


def layers(page) -> None:
    """A layer switched off hides its pieces and is remembered on the device; on again, they show."""
    trains = page.locator("[data-testid=metro-map] .m-trains")
    tap(page, "map-layer-trains")
    expect(trains).to_have_css("display", "none")
    expect(page.get_by_test_id("map-layer-trains")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('ttc.metro.hidden')") == '["trains"]'
    tap(page, "map-layer-trains")
    expect(trains).not_to_have_css("display", "none")


# Two fingers spread to twice their distance, then one finger drags: synthetic pointer events (a
# browser test has one mouse), dispatched as a touch screen would.
PINCH_AND_DRAG = """() => {
  const box = document.querySelector('[data-testid=map-box]');
  const svg = box.querySelector('svg');
  const r = box.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const ev = (type, id, x, y) => box.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch',
    clientX: x, clientY: y, bubbles: true, isPrimary: id === 1 }));
  ev('pointerdown', 1, cx - 40, cy); ev('pointerdown', 2, cx + 40, cy);
  for (let k = 1; k <= 4; k++) { ev('pointermove', 1, cx - 40 - 10 * k, cy); ev('pointermove', 2, cx + 40 + 10 * k, cy); }
  ev('pointerup', 1, cx - 80, cy); ev('pointerup', 2, cx + 80, cy);
  const pinched = Number(svg.dataset.zoom);
  const left = box.scrollLeft;
  ev('pointerdown', 3, cx, cy);
  for (let k = 1; k <= 5; k++) ev('pointermove', 3, cx - 20 * k, cy);
  ev('pointerup', 3, cx - 100, cy);
  return { pinched, dragged: box.scrollLeft - left };
}"""


def pan_and_zoom(page) -> None:
    """A pinch zooms (twice the fingers' distance: twice the zoom), a drag pans, a wheel zooms, the
    button shows the whole board again; then a tap on the map still taps (the game goes on)."""
    svg = page.get_by_test_id("metro-map")
    got = page.evaluate(PINCH_AND_DRAG)
    assert 1.9 <= got["pinched"] <= 2.1 and got["dragged"] >= 90, got
    tap(page, "map-zoom-reset")
    expect(svg).to_have_attribute("data-zoom", "1")
    page.get_by_test_id("map-box").hover()
    page.mouse.wheel(0, -400)
    wait_until(page, "() => Number(document.querySelector('[data-testid=metro-map]').dataset.zoom) > 1.5",
               "the map zoomed in by the wheel")
    tap(page, "map-zoom-reset")
    expect(svg).to_have_attribute("data-zoom", "1")


def screenshots(table, phone, when: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for_a_person(table.get_by_test_id("metro-map-panel"), str(SHOTS / f"metro-map-{when}-1280.png"))
    for_a_person(table, str(SHOTS / f"metro-table-{when}-1280.png"))
    for_a_person(phone.get_by_test_id("metro-map-panel"), str(SHOTS / f"metro-map-{when}-390.png"))
    # The phone zoomed in on the trains (a viewport shot: an element shot scrolls the map box back).
    tap(phone, "map-zoom-in")
    tap(phone, "map-zoom-in")
    phone.evaluate("() => document.querySelector('[data-testid=metro-map-panel]').scrollIntoView()")
    for_a_person(phone, str(SHOTS / f"metro-map-{when}-390-zoomed.png"))
    tap(phone, "map-zoom-reset")
