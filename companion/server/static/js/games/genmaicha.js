// GENMAICHA: the 3x3 grid of stock cards as it lies on the table -- each row's yen to its right,
// each column's yen below it, the tea ceremony's hidden cards above the columns, the Matcha-iri yen in the gaps between a column's cards, a brand's
// owner and stake beside its recipe -- and the crates of the round with their drinks. Everything
// else (moves, players, the final standings) the generic renderer draws.
import { h } from "../dom.js";
import { t, yen } from "../i18n.js";
import { cardBackSvg, cardSvg, drinkSvg } from "../drinks.js";
import generic from "./generic.js";

function lineYen(st, line) {
  const brand = (st.brands || []).find((b) => b.line === line);
  const owner = brand ? (st.players[brand.seat] || {}).name : null;
  return h("td", { class: "gm-yen", testid: `gm-yen-${line}` }, yen(st.line_yen[line]),
    brand ? h("div", { class: "gm-brand", testid: `gm-brand-${line}` }, t("gm.brand", { name: owner, amount: yen(brand.amount) })) : null);
}

function gapRow(st, g) {
  return h("tr", { class: "gm-gaps" }, [0, 1, 2].map((c) => {
    const id = `c${c}g${g}`;
    return h("td", { class: "gm-gap", testid: `gm-gap-${id}` }, st.matcha_yen[id] ? yen(st.matcha_yen[id]) : "");
  }), h("td", {}));
}

export function gridPanel(view) {
  const st = view.state;
  if (!st.grid || !st.grid.length) return null;
  const rows = [];
  if (st.hidden_cards) {   // the tea ceremony: the spare cards face down above the columns
    rows.push(h("tr", { class: "gm-hidden" }, st.hidden_cards.map((c) => h("td", { class: "gm-card",
      testid: `gm-hidden-${c.column}`, title: t("gm.hidden", { n: c.column }) },
    c.card ? cardSvg(c.card, c.face_up ? "" : "gm-seen") : cardBackSvg()))));
  }
  st.grid.forEach((cards, r) => {
    rows.push(h("tr", {}, [0, 1, 2].map((c) => h("td", { class: "gm-card", testid: `gm-card-${r}-${c}` },
      cards[c] ? cardSvg(cards[c]) : "")), lineYen(st, `row${r}`)));
    if (st.matcha_yen && r < 2) rows.push(gapRow(st, r));
  });
  rows.push(h("tr", {}, [0, 1, 2].map((c) => lineYen(st, `col${c}`)), h("td", {})));
  return h("section", { class: "panel gm-grid", testid: "gm-grid" }, h("h2", {}, t("gm.grid.title")),
    h("table", { class: "gm-table" }, h("tbody", {}, rows)));
}

export function cratesPanel(view) {
  const st = view.state;
  const crates = (st.crates || []).filter((c) => c.drinks.length || !c.taken);
  if (!crates.length) return null;
  return h("section", { class: "panel gm-crates", testid: "gm-crates" }, h("h2", {}, t("gm.crates.title", { bag: st.bag })),
    crates.map((c) => h("div", { class: "gm-crate", testid: `gm-crate-${c.crate}` },
      h("span", { class: "gm-crate-name" }, t("gm.crate", { n: c.crate })),
      h("span", { class: "drawn" }, c.drinks.map((d) => drinkSvg(d, "drink-sm"))))));
}

// What the two panels draw is left out of the generic panel of the table's other fields, and so
// is the bank: it pays out everything on the table at the start, so its figure (below zero)
// tells the players nothing.
const DRAWN = ["grid", "line_yen", "matcha_yen", "brands", "crates", "bag", "bank", "hidden_cards"];

export function side(view) {
  const rest = { ...view.state };
  DRAWN.forEach((k) => delete rest[k]);
  return [gridPanel(view), cratesPanel(view), ...generic.side({ ...view, state: rest })].filter(Boolean);
}

export default { side };
