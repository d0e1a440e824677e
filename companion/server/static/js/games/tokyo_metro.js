// TOKYO METRO: the board as a map (js/metro/map.js), the action cards as cards to tap
// (js/metro/cards.js), the moves grouped by card action (js/metro/moves.js), the train phase
// shown before it runs and animated when it has, the players, the lines and the end scoring
// line by line (js/metro/panels.js). On the table view the map and the moves sit side by side
// (css/metro.css); on a phone the map follows the player's moves and zooms to where they can go.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { choicePicker, chanceTestId, busy } from "../pickers.js";
import { mapPanel } from "../metro/map.js";
import { cardsPanel } from "../metro/cards.js";
import { moveBuilders, cardMoves } from "../metro/moves.js";
import { drinksPanel, playerDrinks } from "../metro/drinks.js";
import { playerCard as metroPlayer, linesPanel, projectionPanel, supplyPanel, scoringTable,
  phoneMe as metroMe, lastRunPanel } from "../metro/panels.js";
import { syncPick } from "../metro/ui.js";
import { boardPanel } from "../metro/board.js";
import { estimatePanel } from "../estimates.js";

// Whichever part a render draws first forgets a pick made on an older view.
function playerCard(p, view, opts) {
  syncPick(view);
  return metroPlayer(p, view, opts);
}

function phoneMe(view) {
  syncPick(view);
  return metroMe(view);
}

const wrapped = (fn) => (moves, view, run) => {
  syncPick(view);
  return fn(moves, view, run);
};
// A kind of move no builder names (a variant's card action, METRO DRINKS' builds) is grouped by
// card action like the rest, never left to the generic buttons.
const builders = new Proxy(Object.fromEntries(Object.entries(moveBuilders).map(([k, fn]) => [k, wrapped(fn)])), {
  get: (known, kind) => known[kind] || (typeof kind === "string" ? wrapped(cardMoves) : undefined),
});

// The table's right-hand side: what the last train phase paid, the lines, what everyone would end
// with, the supply.
function side(view) {
  syncPick(view);
  return [lastRunPanel(view), view.over ? null : drinksPanel(view), linesPanel(view), projectionPanel(view),
    view.over ? null : supplyPanel(view)];
}

// Below the action panel (on the table: beside it, see metro.css): the map and the cards; the
// board camera's panel (when there is one) right above the moves (metro.css gives it its place).
function result(view, { compact = false } = {}) {
  syncPick(view);
  if (compact) return [];
  return [view.over ? null : boardPanel(view),
    h("div", { class: "metro-left" }, mapPanel(view), view.over ? null : cardsPanel(view))];
}

function overExtra(view) {
  const pay = view.payouts || {};
  return h("div", { class: "m-final" }, h("h3", {}, t("metro.score.finalTitle")),
    scoringTable(view, view.state.result || pay.scoring, { testid: "final-scoring" }));
}

// A phone: the map right under my moves (zoomed to where I can go), the cards while I act.
function phoneExtra(view) {
  syncPick(view);
  const acting = view.moves.length > 0;
  return [mapPanel(view, { phone: true }),
    acting && view.state.phase === "actions" ? cardsPanel(view, { phone: true }) : null];
}

// Chance at a real table: which card was turned up for a column (drawn as the card).
function choice(view, outcomes, ui, act) {
  if (!outcomes.length || outcomes[0].move.kind !== "deal") return null;
  const st = view.state;
  const column = outcomes[0].move.args.column;
  const known = new Map();
  for (const col of st.columns || []) for (const c of [...col.slots, col.discard_top].filter(Boolean)) known.set(c.id, c);
  const box = h("div", { class: "picker choice-picker metro-deal", testid: "choice", dataset: { kind: "deal" } },
    h("h2", {}, t("metro.deal.title", { n: Number(column) + 1 })));
  box.append(h("div", { class: "move-tiles" }, outcomes.map((o) => {
    const b = h("button", { class: "move move-tile m-deal-card", testid: chanceTestId(o.move),
      onclick: () => busy(b, () => act.move(o.move)) }, h("span", { class: "tile-label" }, o.move.args.card));
    return b;
  })));
  return box.childElementCount ? box : choicePicker(view, outcomes, act);
}

// Above the moves: on a phone the board camera (a move it saw, for this seat to confirm), then
// "Estimate final yen" (random playouts on the server), and what the figures are.
function movesHead(view, act) {
  syncPick(view);
  const phone = Number.isInteger(view.viewer);
  return [phone ? boardPanel(view) : null, estimatePanel(view, act)];
}

export default {
  playerCard, side, movesHead, result, overExtra, phoneMe, phoneExtra, choice, moveBuilders: builders,
  overTitle: "metro.score.standings",
  joinAtTop: true,  // the side column comes after the moves and the players (metro.css)
  feedBesideMoves: true,  // what happened right under the moves, above the players (metro.css)
};
