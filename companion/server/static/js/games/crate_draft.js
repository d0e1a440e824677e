// The crate-filling draft: the middle row of crates drawn with their drinks (full ones set aside
// with their number in the order they filled); standing a drink is a pick of the drink, then a tap
// on its crate (instead of a button for every drink in every crate).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { drinkSvg } from "../drinks.js";
import { drinkRow } from "../parts.js";
import { pairPicker } from "../pair_picker.js";
import generic from "./generic.js";

function cratesPanel(view) {
  const crates = view.state.crates;
  if (!Array.isArray(crates)) return null;
  return h("section", { class: "panel cd-crates", testid: "cd-crates" }, h("h2", {}, t("cdr.crates")),
    h("ol", { class: "cd-row" }, crates.map((c) => h("li", {
      class: c.full_order ? "cd-crate full" : "cd-crate", testid: `cd-crate-${c.crate}`,
      dataset: { full: String(c.full_order || "") } },
    h("span", { class: "cd-name" }, c.full_order ? t("cdr.full", { crate: c.crate, order: c.full_order })
      : t("cdr.crate", { crate: c.crate })),
    drinkRow(c.drinks, { cls: "drinks-sm" })))));
}

function putButtons(moves, view, run) {
  return pairPicker(moves, run, { first: "drink", second: "crate", key: "cd-put", label: t("cdr.pick"),
    hint: t("cdr.putHint"), showFirst: (d) => drinkSvg(d, "drink-sm"),
    showSecond: (k) => h("span", {}, t("cdr.crate", { crate: k })) });
}

function result(view, opts = {}) {
  const last = generic.result(view, opts);
  return opts.compact ? last : [cratesPanel(view), ...last];
}

function side(view) {
  const { crates, ...rest } = view.state;
  return generic.side({ ...view, state: rest });
}

export default { side, result, overExtra: generic.overExtra,
  moveBuilders: { ...generic.moveBuilders, put: putButtons } };
