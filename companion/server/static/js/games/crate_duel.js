// The crate duel: the row of six crates as it stands between the two players -- the shape
// player's drinks and shape cards above, each crate (its worth, its winner, what it holds) in the
// middle, the colour cards and the colour player's drinks below. Everything else (moves, players,
// the other fields, the final standings) the generic renderer draws.
import { h } from "../dom.js";
import { t, yen, cardName } from "../i18n.js";
import { cardSvg } from "../drinks.js";
import { drinkRow } from "../parts.js";
import { fieldList, blank } from "../values.js";
import generic from "./generic.js";

// Fields of the table the row shows, or the shell shows itself.
const SHOWN = new Set(["crates", "game", "phase", "players", "to_act", "over", "winners", "tower", "turn", "last"]);
const CELL = "display:flex;flex-direction:column;align-items:center;gap:4px;min-width:0;text-align:center";

function card(id, testid) {
  return h("div", { style: CELL, testid, dataset: { card: id || "" } },
    id ? cardSvg(id, "card-sm") : h("span", { class: "muted" }, "?"), id ? h("small", {}, cardName(id)) : null);
}

function crateCell(c, st) {
  const winner = c.won_by === null || c.won_by === undefined ? null : (st.players[c.won_by] || {}).name;
  return h("div", { style: `${CELL};border:2px solid #d9a400;border-radius:6px;background:#fff6d6;padding:4px`,
    testid: `cd-crate-${c.crate}`, dataset: { wonBy: winner === null ? "" : String(c.won_by) } },
  h("small", {}, t("cd.crate", { crate: c.crate })), h("strong", {}, yen(c.worth_yen)),
  c.points ? h("small", {}, `${c.points[1]} : ${c.points[0]}`) : null,
  winner ? h("small", {}, t("cd.wonBy", { name: winner })) : null,
  c.contents && c.contents.length ? drinkRow(c.contents, { testid: `cd-contents-${c.crate}` }) : null);
}

function row(cells) {
  return h("div", { style: "display:grid;grid-template-columns:repeat(6,minmax(0,1fr));gap:6px;align-items:center" },
    cells);
}

function cratesPanel(view) {
  const st = view.state;
  const crates = st.crates || [];
  const name = (seat) => (st.players[seat] || {}).name || "";
  const side = (key, seat) => crates.map((c) => drinkRow(c[key], { testid: `cd-${key}-${c.crate}`, empty: "" }));
  return h("section", { class: "panel", testid: "cd-crates" },
    h("h2", {}, t("cd.row")),
    h("div", { class: "label" }, t("cd.side", { name: name(1) })),
    row(side("shape_side", 1)),
    row(crates.map((c) => card(c.shape_card, `cd-shape-card-${c.crate}`))),
    row(crates.map((c) => crateCell(c, st))),
    row(crates.map((c) => card(c.colour_card, `cd-colour-card-${c.crate}`))),
    row(side("colour_side", 0)),
    h("div", { class: "label" }, t("cd.side", { name: name(0) })));
}

function restPanel(view) {
  const st = view.state;
  const keys = Object.keys(st).filter((k) => !SHOWN.has(k) && !k.startsWith("last_") && !blank(st[k]));
  return keys.length ? h("section", { class: "panel table-fields", testid: "table-fields" },
    h("h2", {}, t("table.title")), fieldList(st, keys, st)) : null;
}

export function side(view) {
  return [cratesPanel(view), restPanel(view)];
}

export default { side };
