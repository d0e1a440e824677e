// YUZU: the crates drawn where they stand on the table (the view's `table`, `crate_at` and
// `places`): every drink in its cell, each crate outlined with its number, the crates that hold
// the group together (which may not move) dashed. Everything else the generic renderer draws.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { drinkSvg } from "../drinks.js";
import generic from "./generic.js";
import { cratePanel } from "../crates.js";

const CELL = 40;   // one slot, in drawing units
const DRAWN = new Set(["table", "crate_at", "places", "crates"]);   // what the drawing shows already

function crateNode(place) {
  const wide = place.quarters % 2 === 1;
  const [w, h2] = wide ? [3, 2] : [2, 3];
  return s("g", { "data-testid": `yz-crate-${place.crate}`, "data-x": String(place.x), "data-y": String(place.y),
    "data-quarters": String(place.quarters), "data-movable": String(place.movable) },
  s("rect", { x: place.x * CELL + 2, y: place.y * CELL + 2, width: w * CELL - 4, height: h2 * CELL - 4, rx: 5,
    class: place.movable ? "yz-crate" : "yz-crate yz-fixed" }),
  s("text", { x: place.x * CELL + 6, y: place.y * CELL + 14, class: "yz-num" }, String(place.crate)));
}

function drinkNode(drink, x, y) {
  const svg = drinkSvg(drink, "yz-drink");
  for (const [k, v] of Object.entries({ x: x * CELL + 10, y: y * CELL + 4, width: 20, height: CELL - 8 })) {
    svg.setAttribute(k, String(v));
  }
  return s("g", { "data-testid": `yz-cell-${x}-${y}`, "data-drink": drink }, svg);
}

export function tablePanel(view) {
  const st = view.state;
  if (!st.table || !st.places) return null;
  const rows = st.table.length, cols = rows ? st.table[0].length : 0;
  const svg = s("svg", { viewBox: `0 0 ${cols * CELL} ${rows * CELL}`, class: "yz-table", role: "img",
    "aria-label": t("field.table"), "data-testid": "yz-table" },
  st.places.map(crateNode),
  st.table.flatMap((row, y) => row.map((d, x) => (d ? drinkNode(d, x, y) : null))));
  return h("section", { class: "panel yz-panel", testid: "yz-panel" }, h("h2", {}, t("field.table")), svg);
}

const withoutDrawn = (view) => ({ ...view, state: Object.fromEntries(Object.entries(view.state)
  .filter(([k]) => !DRAWN.has(k))) });

// The table: the crates right under the action panel, the other fields aside.
function result(view, opts = {}) {
  const last = generic.result(view, opts);
  return opts.compact ? last : [tablePanel(view), ...last];
}

function side(view) {
  return [cratePanel(view), ...generic.side(withoutDrawn(view))].filter(Boolean);
}

function phoneExtra(view) {
  return [cratePanel(view), tablePanel(view)].filter(Boolean);
}

export default { side, result, phoneExtra, overExtra: generic.overExtra };
