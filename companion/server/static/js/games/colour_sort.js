// The colour-sorting solo game (rule book 002, `colour_sort`): its crates drawn as they stand on
// the table, each a 2x3 grid of slots numbered 0 1 / 2 3 / 4 5 (a drink moves to the SAME slot
// of another crate, so the numbers matter), the outer crates first and the middle one last, with
// the card turned up beside them. Everything else is the generic renderer's.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardSvg, drinkSvg } from "../drinks.js";
import { tablePanel } from "./generic.js";

// Fields drawn here rather than listed by the generic table panel.
const DRAWN = new Set(["crates", "middle_crate", "card"]);

function slot(c, drink, i) {
  return h("div", { class: `cs-slot${drink ? "" : " empty"}`, testid: `crate-${c}-slot-${i}`, dataset: { drink: drink || "" } },
    drink ? drinkSvg(drink, "drink-sm") : h("span", { class: "cs-slot-no" }, String(i)));
}

function crate(drinks, i, middle) {
  const label = i === middle ? t("crate.colour_sort.middle", { n: i }) : t("crate.colour_sort.outer", { n: i });
  return h("figure", { class: `cs-crate${i === middle ? " middle" : ""}`, testid: `crate-${i}` },
    h("figcaption", {}, label),
    h("div", { class: "cs-grid" }, drinks.map((d, k) => slot(i, d, k))));
}

function cratesPanel(view) {
  const st = view.state;
  if (!Array.isArray(st.crates) || !st.crates.length) return null;
  return h("section", { class: "panel cs-crates", testid: "crates" },
    h("h2", {}, t("field.crates")),
    st.card ? h("div", { class: "cs-card", testid: "card-turned" }, h("span", { class: "label" }, t("field.card")),
      cardSvg(st.card, "card-sm")) : null,
    h("div", { class: "cs-row" }, st.crates.map((c, i) => crate(c, i, st.middle_crate))));
}

export function side(view) {
  return [cratesPanel(view), tablePanel(view, DRAWN)];
}

export default { side };
