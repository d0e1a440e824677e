// METRO DRINKS on the METRO page: the drinks standing at stations (vending machines) on the map,
// the stock-card column of the card display (colour and shape cards, gaps where a colour card was
// taken), the crates, each player's drinks and colour cards, who builds free this phase, and the
// station bonus per colour. The view's top-level `drinks` is null outside the variant: then
// nothing of this shows. The drinks themselves are drawn by ../drinks.js.
import { h, s } from "../dom.js";
import { t, yen, drinkName } from "../i18n.js";
import { drinkSvg, cardSvg } from "../drinks.js";
import { seatDot, seatName, playerColour, actionKey } from "./common.js";
import { press, select } from "./ui.js";

export const STOCK_SET = "JIDOHANBAIKI";   // the stock column's set name in the view's columns
const colourOf = (drink) => String(drink || "").split("-")[0];

export const drinksOf = (st) => (st && st.drinks) || null;

// The drinks at stations, on the map: each a small drink beside its station's first circle, ringed
// in its owner's colour.
export function drinkMarks(ix, st, { P, U, obstacles }) {
  const d = drinksOf(st);
  if (!d || !Array.isArray(d.stations) || !d.stations.length) return null;
  const size = 0.62 * U;
  return s("g", { class: "m-drinks", "data-testid": "map-drinks" }, d.stations.map((x) => {
    const station = ix.stations.get(x.station);
    if (!station) return null;
    const c = station.circles[station.circles.length - 1];
    const cx = P(c.x) + 0.42 * U;
    const cy = P(c.y) - 0.2 * U;
    obstacles.push({ x1: cx - size * 0.32, y1: cy - size * 0.55, x2: cx + size * 0.32, y2: cy + size * 0.55 });
    const pic = drinkSvg(x.drink, "m-drink-pic");
    pic.setAttribute("x", String(cx - size * 0.21));
    pic.setAttribute("y", String(cy - size * 0.5));
    pic.setAttribute("width", String(size * 0.42));
    pic.setAttribute("height", String(size));
    const owner = Number.isInteger(x.owner) ? x.owner : null;
    return s("g", { class: "m-drink", "data-testid": `map-drink-${x.station}`, "data-drink": x.drink,
      "data-owner": owner === null ? "" : String(owner) },
    s("title", {}, t("metro.drinks.atStation", { drink: drinkName(x.drink), station: station.name,
      name: owner === null ? "" : seatName(st, owner) })),
    s("rect", { class: "m-drink-plate", x: cx - size * 0.3, y: cy - size * 0.56, width: size * 0.6, height: size * 1.12,
      rx: 4, stroke: owner === null ? "#555" : playerColour(owner) }),
    pic);
  }));
}

// --- the stock column of the card display ----------------------------------------------------------

// A stock card as the view has it ({id, stock: "colour"|"shape", colour|shape}): its picture id.
const cardId = (card) => card.colour || card.shape || card.id;

// The moves on a stock card: card actions naming it (its id as `card`).
function stockMoves(view, card) {
  return view.moves.filter((m) => m.move.args && m.move.args.card === card.id);
}

function stockCard(view, card, slot) {
  if (!card) {
    return h("div", { class: "m-stock-gap", testid: `stock-gap-${slot}`, title: t("metro.drinks.gapTitle") },
      t("metro.drinks.gap"));
  }
  const moves = stockMoves(view, card);
  const pic = cardSvg(cardId(card), "m-stock-pic");
  const taken = Number.isInteger(card.taken_by);
  const words = h("span", { class: "m-stock-words" }, t(`metro.drinks.${card.stock === "colour" ? "colourCard" : "shapeCard"}`),
    taken ? [" ", seatDot(view.state, card.taken_by, { cls: "sm" })] : null);
  const attrs = { class: `m-stock-card ${card.stock}`, testid: `stock-card-${card.id}`,
    dataset: { card: card.id, stock: card.stock || "" } };
  if (!moves.length) return h("div", attrs, pic, words);
  const key = actionKey(moves[0].move);
  return h("button", { ...attrs, class: `${attrs.class} can`, type: "button", dataset: { ...attrs.dataset, actionKey: key || "" },
    onclick: () => (moves.length === 1 ? press(moves[0].move) : key ? select(key) : press(moves[0].move)) }, pic, words);
}

// The stock column: its slots top to bottom (a gap where a colour card was taken), the pile and
// the discard pile's top card.
export function stockColumn(view, col) {
  const top = col.discard_top;
  const pile = col.pile_discs || [];
  return h("div", { class: "m-column m-stock-column", testid: `column-${col.column}`, dataset: { set: STOCK_SET } },
    h("div", { class: "m-column-head" },
      h("span", { class: "m-stock-title" }, t("metro.drinks.column")),
      h("span", { class: "muted m-deck", title: t("metro.cards.deckTitle") }, t("metro.cards.deck", { n: col.deck })),
      col.discard ? h("span", { class: "muted m-deck", title: t("metro.cards.discardTitle") },
        t("metro.cards.discard", { n: col.discard })) : null),
    pile.length ? h("p", { class: "m-pile-discs", testid: "stock-pile-discs", title: t("metro.drinks.pileTitle") },
      t("metro.drinks.pile"), " ", pile.map((p) => seatDot(view.state, p, { cls: "sm" }))) : null,
    col.slots.map((c, i) => stockCard(view, c, i)),
    top ? h("div", { class: "m-discard" }, h("span", { class: "label" }, t("metro.cards.discardTop")),
      h("div", { class: "m-stock-card discarded", testid: "stock-discard-top" }, cardSvg(cardId(top), "m-stock-pic"))) : null);
}

// --- the drinks panel (the table's side column) -----------------------------------------------------

function drinkList(ids, testid) {
  return h("span", { class: "m-drink-list", testid }, (ids || []).map((id) => drinkSvg(id, "m-drink-sm")));
}

// A player's drinks and colour cards (on their card and their phone), or null without any.
export function playerDrinks(st, p, testid) {
  if (!drinksOf(st)) return null;
  const mine = p.drinks || [];
  const cards = p.colour_cards || [];
  return h("div", { class: "m-player-drinks", testid, dataset: { n: String(mine.length) } },
    cards.map((c) => cardSvg(c, "m-stock-pic sm")),
    mine.length ? drinkList(mine, `${testid}-list`) : h("span", { class: "muted" }, t("metro.drinks.none")));
}

export function drinksPanel(view) {
  const st = view.state;
  const d = drinksOf(st);
  if (!d) return null;
  const bonus = Object.entries(d.bonus || {}).filter(([, v]) => v);
  const free = Number.isInteger(d.free_builds) ? d.free_builds : null;
  const falling = d.falling || [];
  return h("section", { class: "panel metro-drinks", testid: "drinks-panel" },
    h("h2", {}, t("metro.drinks.title")),
    free !== null ? h("p", { class: "m-free-builds", testid: "free-builds", dataset: { seat: String(free) } },
      seatDot(st, free, { cls: "sm" }), " ", t("metro.drinks.freeBuilds", { name: seatName(st, free) })) : null,
    h("div", { class: "m-crates", testid: "crates" }, (d.crates || []).map((c) => h("div", {
      class: `m-crate${c.holder !== null && c.holder !== undefined ? " taken" : ""}`, testid: `crate-${c.colour}`,
      dataset: { holder: String(c.holder ?? ""), left: String(c.left) } },
    cardSvg(c.colour, "m-stock-pic sm"),
    c.holder !== null && c.holder !== undefined ? seatDot(st, c.holder, { cls: "sm" }) : null,
    h("span", { class: "m-crate-left" }, t("metro.drinks.left", { n: c.left }))))),
    bonus.length ? h("p", { class: "m-bonus", testid: "drink-bonus" }, h("span", { class: "label" }, t("metro.drinks.bonus")), " ",
      bonus.map(([colour, v]) => h("span", { class: "m-hold", testid: `drink-bonus-${colour}`, dataset: { yen: String(v) } },
        cardSvg(colour, "m-stock-pic xs"), `+${yen(v)}`))) : null,
    falling.length ? h("p", { class: "m-note", testid: "drinks-falling" }, t("metro.drinks.falling"), " ",
      drinkList(falling, "drinks-falling-list")) : null);
}

// The drink bonus a payout of the train phase to come brings its station's owner as well: the
// preview's `drink_bonus`, or else what a drink standing at the station earns now (the view's
// drinks.bonus), whether the owner is paid or holds a share (as the engine's trains.py pays it).
export function bonusOf(st, pay) {
  if (pay && Number.isInteger(pay.drink_bonus)) return pay.drink_bonus;  // the engine's preview says it
  const d = drinksOf(st);
  if (!d || !pay) return 0;
  const here = (d.stations || []).find((x) => x.station === pay.station);
  const yenFor = here ? (d.bonus || {})[here.colour || colourOf(here.drink)] : 0;
  return Number.isInteger(yenFor) && yenFor > 0 ? yenFor : 0;
}

export const drinkColour = colourOf;
