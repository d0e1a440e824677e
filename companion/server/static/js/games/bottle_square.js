// The bottle-taking square: the view's `square` (rows from the far edge down to the crate's edge)
// drawn as the drinks stand on the table, six to a row, the empty crate under the bottom row that
// the drinks slide towards; the drink left standing by the last take is marked. Everything else
// (moves, players with their colours and points, the final standings) the generic renderer draws.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { crateSvg, drinkSvg } from "../drinks.js";
import generic, { tablePanel } from "./generic.js";

function cell(drink, r, c, kept) {
  return h("div", { class: `bs-cell${drink ? "" : " bs-empty"}${drink && drink === kept ? " bs-kept" : ""}`,
    testid: `bs-cell-${r}-${c}`, dataset: { drink: drink || "" } }, drink ? drinkSvg(drink, "drink-sm") : null);
}

export function squarePanel(view) {
  const st = view.state;
  if (!Array.isArray(st.square)) return null;
  const kept = st.last ? st.last.kept : null;
  return h("section", { class: "panel bs-square", testid: "bs-square", dataset: { left: String(st.left) } },
    h("h2", {}, t("field.square")),
    h("div", { class: "bs-grid", role: "img", "aria-label": t("field.square") },
      st.square.flatMap((row, r) => row.map((d, c) => cell(d, r, c, kept)))),
    h("div", { class: "bs-crate", testid: "bs-crate" }, crateSvg()));
}

// The table: the square right under the action panel (beside the last result), the rest aside.
function result(view, opts = {}) {
  const last = generic.result(view, opts);
  return opts.compact ? last : [squarePanel(view), ...last];
}

function side(view) {
  return [tablePanel(view, ["square"])];
}

// A phone: the square under the player's own moves.
function phoneExtra(view) {
  return [squarePanel(view)];
}

export default { side, result, phoneExtra, overExtra: generic.overExtra };
