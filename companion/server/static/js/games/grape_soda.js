// GRAPE SODA: the crates' grid drawn as it stands on the table (x across, y down; a gap between
// crates is no field), each crate in its own tint, drinks as drawn; the rest as the generic
// renderer shows it.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { drinkSvg } from "../drinks.js";
import generic from "./generic.js";
import { cratePanel } from "../crates.js";

// Which crate each field belongs to, from the crates' top-left fields (2 across, 3 down).
function crateOf(places) {
  const at = new Map();
  places.forEach(([x, y], c) => {
    for (let dy = 0; dy < 3; dy += 1) for (let dx = 0; dx < 2; dx += 1) at.set(`${x + dx},${y + dy}`, c);
  });
  return at;
}

function gridPanel(st) {
  const rows = st.crate_grid || [];
  const crate = crateOf(st.crate_places || []);
  const head = h("tr", {}, h("th", {}, ""), ...(rows[0] || []).map((_, x) => h("th", {}, String(x))));
  const body = rows.map((row, y) => h("tr", {}, h("th", {}, String(y)), ...row.map((cell, x) => {
    if (cell === null) return h("td", { class: "gs-gap" });
    const c = crate.get(`${x},${y}`);
    const [cx, cy] = (st.crate_places || [])[c] || [];
    return h("td", { class: `gs-field gs-crate-${c}`, testid: `gs-field-${x}-${y}`, title: `(${x}, ${y})` },
      cx === x && cy === y ? h("span", { class: "gs-crate-no", testid: `gs-crate-${c}` }, String(c)) : null,
      cell ? drinkSvg(cell, "gs-drink") : null);
  })));
  return h("section", { class: "panel gs-grid", testid: "grape-soda-grid" },
    h("h2", {}, t("field.crate_grid")),
    h("table", { class: "gs-table" }, h("thead", {}, head), h("tbody", {}, ...body)));
}

export function side(view) {
  const st = view.state;
  const rest = { ...view, state: { ...st, crate_grid: null, crate_slots: null, crate_places: null } };
  return [cratePanel(view), gridPanel(st), ...generic.side(rest)].filter(Boolean);
}

// A phone shows the crate camera's panel too: its seat confirms what the crates show.
const phoneExtra = (view) => [cratePanel(view), ...(generic.phoneExtra(view) || [])].filter(Boolean);

export default { side, phoneExtra };
