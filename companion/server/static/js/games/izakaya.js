// IZAKAYA: the town drawn from the view's `grid` -- the plot cards (owners' pyramids, buildings
// with their storeys, the blocked middle), the drinks at the corners with their current prices,
// the corners a drink may go to now, the claim discs on the edges -- neighbour the colour cards
// (prices, drinks left in each crate, the disc on each) and the pot with the mark that ends the
// game. Everything else (moves, players, the final standings) the generic renderer draws.
import { h, s } from "../dom.js";
import { t, yen } from "../i18n.js";
import { COLOURS as DRINK_COLOURS } from "../drinks.js";
import { playerColour } from "../metro/common.js";
import generic from "./generic.js";

const CELL = 100;       // one plot card, in drawing units
const PAD = 14;         // room around the grid for the drinks on its outer edge
const FILL = { black: "#222", white: "#f4f4f4", mint: "#8fd9c8", blue: "#2f6fd6", red: "#d63a3a", purple: "#8a4fc2" };

const colourOf = (drink) => (drink || "").split("-")[0];
const nameOf = (st, seat) => (st.players[seat] || {}).name || "";

function cardNode(st, card, size) {
  const x = (card.card % size) * CELL, y = Math.floor(card.card / size) * CELL;
  const blocked = st.grid.blocked.includes(card.card);
  const owner = card.owner;
  const parts = [s("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6,
    class: blocked ? "iz-blocked" : "iz-plot", fill: owner === null ? "#fbf7ee" : playerColour(owner),
    "fill-opacity": owner === null ? 1 : 0.18 }),
  s("text", { x: x + 10, y: y + 20, class: "iz-num" }, String(card.card))];
  if (blocked) {
    parts.push(s("text", { x: x + CELL / 2, y: y + CELL / 2 + 4, class: "iz-note", "text-anchor": "middle" }, t("iz.blocked")));
  }
  if (owner !== null) {   // the owner's pyramid
    const px = x + CELL - 24, py = y + 12;
    parts.push(s("polygon", { points: `${px},${py + 18} ${px + 9},${py} ${px + 18},${py + 18}`,
      fill: playerColour(owner), stroke: "#333", "stroke-width": 1 }, s("title", {}, nameOf(st, owner))));
  }
  card.storeys.forEach((storeys, lot) => {   // each lot's building: a stack of storeys
    const bx = x + 22 + lot * 34, base = y + CELL - 14;
    for (let k = 0; k < storeys; k += 1) {
      parts.push(s("rect", { x: bx, y: base - (k + 1) * 9, width: 26, height: 8, rx: 1.5, class: "iz-storey" }));
    }
    if (storeys) parts.push(s("text", { x: bx + 13, y: base + 11, class: "iz-note", "text-anchor": "middle" }, `${storeys}F`));
  });
  return s("g", { "data-testid": `iz-card-${card.card}`, "data-owner": owner === null ? "" : String(owner),
    "data-storeys": card.storeys.join(","), "data-value": String(card.value) }, parts);
}

function cornerNode(st, corner, size, open) {
  const i = Math.floor(corner.corner / (size + 1)), j = corner.corner % (size + 1);
  const cx = j * CELL, cy = i * CELL;
  if (!corner.drink) {
    return open ? s("circle", { cx, cy, r: 7, class: "iz-open", "data-testid": `iz-open-${corner.corner}` }) : null;
  }
  const colour = colourOf(corner.drink);
  return s("g", { "data-testid": `iz-corner-${corner.corner}`, "data-drink": corner.drink, "data-price": String(corner.price) },
    // a can standing on the corner (a claim disc is a round one)
    s("rect", { x: cx - 10, y: cy - 14, width: 20, height: 28, rx: 4, fill: FILL[colour] || "#999", stroke: "#333",
      "stroke-width": 1.5 }),
    s("text", { x: cx, y: cy + 27, class: "iz-price", "text-anchor": "middle" }, String(corner.price)),
    s("title", {}, `${corner.drink}: ${yen(corner.price)}`));
}

function claimNode(st, claim, size) {
  const [a, b] = [claim.plot, claim.neighbour].sort((p, q) => p - q);
  const ra = Math.floor(a / size), ca = a % size, rb = Math.floor(b / size), cb = b % size;
  const cx = ((ca + cb + 1) / 2) * CELL, cy = ((ra + rb + 1) / 2) * CELL;
  return s("circle", { cx, cy, r: 8, fill: playerColour(claim.seat), stroke: "#222", "stroke-width": 1.5,
    "data-testid": `iz-claim-${a}-${b}`, "data-seat": String(claim.seat) }, s("title", {}, nameOf(st, claim.seat)));
}

export function gridPanel(view) {
  const st = view.state, g = st.grid;
  if (!g) return null;
  const span = g.size * CELL;
  const open = new Set(g.open_corners);
  const svg = s("svg", { viewBox: `${-PAD} ${-PAD} ${span + 2 * PAD} ${span + 2 * PAD + 12}`, class: "iz-grid",
    role: "img", "aria-label": t("iz.grid.title"), "data-testid": "iz-grid" },
  g.cards.map((c) => cardNode(st, c, g.size)),
  g.claims.map((c) => claimNode(st, c, g.size)),
  g.corners.map((c) => cornerNode(st, c, g.size, open.has(c.corner))));
  return h("section", { class: "panel iz-town", testid: "iz-town" }, h("h2", {}, t("iz.grid.title")), svg);
}

function pricesPanel(view) {
  const st = view.state;
  if (!st.prices) return null;
  return h("section", { class: "panel iz-prices-panel", testid: "iz-prices" },
    h("h2", {}, t("iz.prices.title")),
    h("ol", { class: "iz-prices" }, st.prices.map((p) => h("li", { testid: `iz-price-${p.colour}`,
      dataset: { yen: String(p.yen), disc: p.disc === null ? "" : String(p.disc) } },
    h("span", { class: "iz-swatch", style: `background:${FILL[p.colour] || "#999"}` },
      p.disc === null ? null : h("span", { class: "iz-disc", style: `background:${playerColour(p.disc)}` })),
    h("span", { class: "iz-colour" }, t(`colour.${DRINK_COLOURS.includes(p.colour) ? p.colour : "black"}`)),
    h("strong", {}, yen(p.yen)),
    h("span", { class: "muted" }, t("iz.crate", { n: p.crate }))))),
    h("p", { class: "iz-pot", testid: "iz-pot", dataset: { pot: String(st.pot), mark: String(st.end_pot) } },
      t("iz.pot", { pot: yen(st.pot), mark: yen(st.end_pot) })),
    st.last_phase && !st.over ? h("p", { class: "iz-last", testid: "iz-last-phase" }, t("iz.lastPhase")) : null,
    h("p", { class: "muted" }, t("iz.pieces", { n: st.pieces })));
}

// The table: the town right under the action panel (neighbour the last result), the prices aside.
function result(view, opts = {}) {
  const last = generic.result(view, opts);
  return opts.compact ? last : [gridPanel(view), ...last];
}

function side(view) {
  return [pricesPanel(view)];
}

// A phone: the town under the player's own moves (the prices come with the side panels).
function phoneExtra(view) {
  return [gridPanel(view)];
}

export default { side, result, phoneExtra, overExtra: generic.overExtra };
