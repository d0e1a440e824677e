// TOKYO METRO: the grid's coordinates along the map's four edges, numbered the way the moves name
// fields ("8·5": column 8, row 5, counted from 0 at the top left), and the spot a move names, shown
// on the map while its button is hovered, focused or pressed: the field (with its row and column
// marked to the edges), the station, or the line and its train.
import { s } from "../dom.js";
import { moveTestId } from "../moves.js";
import { moveTarget } from "./common.js";

const COORD_SIZE = 13;

// The numbers in the margin: columns above and below the grid, rows left and right of it.
export function coordLayer(ix, U, margin) {
  const w = ix.cols * U;
  const hgt = ix.rows * U;
  const out = [];
  const text = (x, y, n, attrs) => s("text", { class: "m-coord", x, y, "font-size": COORD_SIZE, ...attrs }, String(n));
  for (let c = 0; c < ix.cols; c++) {
    const x = (c + 0.5) * U;
    out.push(text(x, -margin / 2 + COORD_SIZE * 0.35, c, { "data-col": c }),
      text(x, hgt + margin / 2 + COORD_SIZE * 0.35, c, { "data-col": c }));
  }
  for (let r = 0; r < ix.rows; r++) {
    const y = (r + 0.5) * U + COORD_SIZE * 0.35;
    out.push(text(-margin / 2, y, r, { "data-row": r }), text(w + margin / 2, y, r, { "data-row": r }));
  }
  return s("g", { class: "m-coords", "aria-hidden": "true", "data-testid": "map-coords" }, out);
}

// What the page's move buttons point at (set by every map drawn; the listeners read the newest).
let current = null; // {svg, layer, ix, board, st, P, U, byId: test id -> move}

export function watchMoves({ svg, layer, ix, board, st, P, U, moves }) {
  current = { svg, layer, ix, board, st, P, U, byId: new Map(moves.map((m) => [moveTestId(m.move), m.move])) };
  install();
  if (pinned) setTimeout(() => showTarget(pinned, { pin: true }), 0); // (once the new map is on the page)
}

let pinned = null; // a spot lit from outside the move buttons, lit again on a redrawn map

function show(move) {
  const c = current;
  if (!c || !c.svg.isConnected) return;
  showTarget(move ? moveTarget(c.ix, move) : null);
}

// Light a spot on the newest map: {field: [c, r], also: [c, r] (a second field, e.g. where a piece
// should be)} | {station: id} | {line: L} | null (nothing lit). The board camera's list of
// differences points at pieces this way (js/metro/board.js), `pin`ned: a redrawn map lights it again.
export function showTarget(target, { pin = false } = {}) {
  if (pin) pinned = target || null;
  const c = current;
  if (!c || !c.svg.isConnected) return;
  const tg = target || {};
  const { U, P, ix } = c;
  const root = c.svg.closest(".m-frame") || c.svg; // the edges' numbers and the rulers of a zoomed map
  for (const el of root.querySelectorAll(".on[data-col], .on[data-row]")) el.classList.remove("on");
  if (tg.field) {
    const [col, row] = tg.field;
    for (const el of root.querySelectorAll(`[data-col="${col}"], [data-row="${row}"]`)) el.classList.add("on");
    c.layer.replaceChildren(s("g", { class: "m-highlight", "data-testid": "map-highlight", "data-field": `${col},${row}` },
      s("rect", { class: "m-hl-band", x: col * U, y: 0, width: U, height: ix.rows * U }),
      s("rect", { class: "m-hl-band", x: 0, y: row * U, width: ix.cols * U, height: U }),
      s("rect", { class: "m-hl-field", x: col * U - 3, y: row * U - 3, width: U + 6, height: U + 6, rx: 6 }),
      tg.also ? s("rect", { class: "m-hl-field also", x: tg.also[0] * U - 3, y: tg.also[1] * U - 3, width: U + 6,
        height: U + 6, rx: 6 }) : null));
  } else if (tg.station && ix.stations.get(tg.station)) {
    const station = ix.stations.get(tg.station);
    c.layer.replaceChildren(s("g", { class: "m-highlight", "data-testid": "map-highlight", "data-station": tg.station },
      station.circles.map((k) => s("circle", { class: "m-hl-station", cx: P(k.x), cy: P(k.y), r: 0.75 * U }))));
  } else if (tg.line && ix.lines.get(tg.line)) {
    const line = ix.lines.get(tg.line);
    const points = line.stops.map((stop) => ix.circles.get(stop.circle)).filter(Boolean)
      .map((k) => `${P(k.x)},${P(k.y)}`).join(" ");
    const state = (c.st.lines || []).find((l) => l.letter === tg.line);
    const train = state && state.train ? ix.circles.get(state.train.circle) : null;
    c.layer.replaceChildren(s("g", { class: "m-highlight", "data-testid": "map-highlight", "data-line": tg.line },
      s("polyline", { class: "m-hl-line", points, stroke: line.colour }),
      train ? s("circle", { class: "m-hl-station", cx: P(train.x), cy: P(train.y), r: 0.75 * U }) : null));
  } else {
    c.layer.replaceChildren();
  }
}

const buttonOf = (el) => (el && el.closest ? el.closest("button[data-testid^='move-']") : null);

let installed = false;
function install() {
  if (installed) return;
  installed = true;
  const enter = (e) => {
    const b = buttonOf(e.target);
    if (!b || !current) return;
    const move = current.byId.get(b.dataset.testid);
    if (move) show(move);
  };
  const leave = (e) => {
    const b = buttonOf(e.target);
    if (b && !b.contains(e.relatedTarget)) show(null);
  };
  document.addEventListener("pointerover", enter);
  document.addEventListener("focusin", enter);
  document.addEventListener("pointerdown", enter); // a finger: shown while it presses
  document.addEventListener("pointerout", leave);
  document.addEventListener("focusout", leave);
}
