// THE SHOPPING MALL: the mall drawn from the view's `plan` -- an APPROXIMATE plan (our rule book
// lacks the picture), said so over the drawing -- with the cards and the goods on them, the points
// where a shopper stands and the lines between them, the exits at the foot of the double aisles,
// the vending machine and its two points, each shopper's marker. While the shopper whose turn it
// is walks, the points they may reach are rings on the plan that take a tap as well as the move
// buttons (each named like its point). Aside: the market's prices and the vending machine's crate.
import { h, s, on } from "../dom.js";
import { humanize, t, yen } from "../i18n.js";
import { drinkRow } from "../parts.js";
import { genericMoves, money, moveButton } from "../moves.js";
import { pairPicker } from "../pair_picker.js";
import { drinkSvg } from "../drinks.js";
import { seatName } from "../values.js";
import { playerColour } from "../metro/common.js";
import generic from "./generic.js";

const U = 34;           // half a card's width, in drawing units
const CARD_H = 66;
const AISLE = 46;
const SPAN = 10;        // the plan reaches from x2 = -SPAN to SPAN
const FILL = { black: "#222", white: "#f4f4f4", mint: "#8fd9c8", blue: "#2f6fd6", red: "#d63a3a", purple: "#8a4fc2" };
const DRAWN = new Set(["plan", "reachable", "prices", "machine", "thrown", "salmon", "tuna_price"]);
const WALKS = new Set(["move", "enter"]);

const X = (x2) => (x2 + SPAN) * U;
const rowTop = (row) => row * (CARD_H + AISLE);
const aisleY = (aisle) => rowTop(aisle) + CARD_H + AISLE / 2;
const kindOf = (good) => (good.includes("#") ? good.split("#")[0] : "drink");
const colourOf = (drink) => drink.split("-")[0];

// A crate or pile as a person reads it: the drinks drawn, the other goods by name and count
// (the view keeps each good's own id, "shirt#2", for the moves that name one).
function readable(goods) {
  const drinks = goods.filter((g) => kindOf(g) === "drink");
  return [...drinks, ...goodsLines(goods)];
}

const readablePlayer = (p) => ({ ...p, crate: readable(p.crate || []), pile: readable(p.pile || []) });

function goodsLines(goods) {
  const counts = new Map();
  for (const g of goods) if (kindOf(g) !== "drink") counts.set(kindOf(g), (counts.get(kindOf(g)) || 0) + 1);
  return [...counts].map(([kind, n]) => `${t(`value.${kind}`)} ×${n}`);
}

function cardNode(card) {
  const x = X(card.x2 - 1), y = rowTop(card.row), w = 2 * U;
  const drinks = card.goods.filter((g) => kindOf(g) === "drink");
  const parts = [s("rect", { x: x + 3, y: y + 3, width: w - 6, height: CARD_H - 6, rx: 5, class: "sm-card" }),
    s("text", { x: x + 8, y: y + 15, class: "sm-id" }, humanize(card.id))];
  drinks.forEach((d, i) => parts.push(s("rect", { x: x + 8 + i * 11, y: y + 22, width: 9, height: 16, rx: 2,
    fill: FILL[colourOf(d)] || "#999", class: "sm-drink" }, s("title", {}, d))));
  goodsLines(card.goods).forEach((line, i) => {
    parts.push(s("text", { x: x + 8, y: y + 32 + i * 13 + (drinks.length ? 16 : 0), class: "sm-good",
      textLength: line.length > 11 ? w - 16 : null, lengthAdjust: "spacingAndGlyphs" }, line));
  });
  return s("g", { "data-testid": `sm-card-${card.id}`, "data-goods": String(card.goods.length) }, parts);
}

function pointNode(point, reach, run) {
  const cx = X(point.x2), cy = aisleY(point.aisle);
  if (!reach) return s("circle", { cx, cy, r: 4, class: "sm-point", "data-testid": `sm-point-${point.id}` });
  const node = s("g", { class: "sm-reach", "data-testid": `sm-reach-${point.id}`, role: run ? "button" : null,
    tabindex: run ? "0" : null },
  s("circle", { cx, cy, r: 13 }), s("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, humanize(point.id)));
  if (run) {
    on(node, "click", () => run(reach));
    on(node, "keydown", (e) => { if (e.key === "Enter" || e.key === " ") run(reach); });
  }
  return node;
}

function shopperNodes(st, plan) {
  const at = new Map(plan.points.map((p) => [p.id, p]));
  const outside = st.players.filter((p) => !at.has(p.standing));
  const inside = st.players.filter((p) => at.has(p.standing));
  const marker = (p, cx, cy) => s("g", { "data-testid": `sm-shopper-${p.seat}`, "data-at": p.standing },
    s("circle", { cx, cy, r: 9, fill: playerColour(p.seat), class: p.turn ? "sm-shopper turn" : "sm-shopper" }),
    s("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "sm-initial" }, (p.name || "?")[0]),
    s("title", {}, p.name));
  const here = new Map();
  const nodes = inside.map((p) => {
    const pt = at.get(p.standing), k = here.get(pt.id) || 0;
    here.set(pt.id, k + 1);
    return marker(p, X(pt.x2) + k * 7, aisleY(pt.aisle) - 14 - k * 4);
  });
  const below = aisleY(3) + AISLE / 2 + 8;
  return nodes.concat(outside.map((p, i) => marker(p, X(0) + (i - (outside.length - 1) / 2) * 22, below)));
}

function machineNode(plan, st) {
  const x = X(7.4), y = rowTop(1) + 6;
  const pts = plan.points.filter((p) => plan.vending.includes(p.id));
  return s("g", { "data-testid": "sm-machine", "data-drinks": String(st.machine.length) },
    pts.map((p) => s("line", { x1: X(p.x2), y1: aisleY(p.aisle), x2: x + 20, y2: y + 25, class: "sm-vend-line" })),
    s("rect", { x, y, width: 46, height: 54, rx: 4, class: "sm-machine" }),
    s("text", { x: x + 23, y: y + 31, "text-anchor": "middle", class: "sm-machine-n" }, String(st.machine.length)));
}

// The plan; `walks` (the listed walks) with `run` make the reachable points tappable.
export function planPanel(view, { walks = [], run = null } = {}) {
  const st = view.state, plan = st.plan;
  if (!plan) return null;
  const byPoint = new Map(walks.map((m) => [m.move.args.point, m.move]));
  const reach = new Set(st.reachable);
  const lines = plan.lines.map(([a, b]) => {
    const p = plan.points.find((q) => q.id === a), q = plan.points.find((r) => r.id === b);
    return s("line", { x1: X(p.x2), y1: aisleY(p.aisle), x2: X(q.x2), y2: aisleY(q.aisle), class: "sm-line" });
  });
  const exits = plan.points.filter((p) => plan.exits.includes(p.id)).map((p) => s("line", {
    x1: X(p.x2), y1: aisleY(p.aisle), x2: X(p.x2), y2: aisleY(p.aisle) + AISLE / 2, class: "sm-exit" }));
  const height = aisleY(3) + AISLE;
  const svg = s("svg", { viewBox: `0 -4 ${2 * SPAN * U} ${height + 8}`, class: "sm-plan", role: "img",
    "aria-label": t("field.plan"), "data-testid": "sm-plan", "data-approximate": String(plan.approximate) },
  plan.cards.map(cardNode), lines, exits, machineNode(plan, st),
  plan.points.map((p) => pointNode(p, reach.has(p.id) ? (byPoint.get(p.id) || true) : null,
    byPoint.has(p.id) ? run : null)),
  shopperNodes(st, plan));
  return h("section", { class: "panel sm-mall", testid: "sm-mall" },
    h("h2", {}, t("field.plan")),
    plan.approximate ? h("p", { class: "muted", testid: "sm-approximate" }, t("sm.approximate")) : null, svg);
}

function pricesPanel(view) {
  const st = view.state;
  if (!st.prices) return null;
  return h("section", { class: "panel sm-prices", testid: "sm-prices" }, h("h2", {}, t("field.prices")),
    h("ul", { class: "sm-price-list" }, Object.entries(st.prices).map(([pile, price]) => h("li", {
      testid: `sm-price-${pile}`, dataset: { yen: String(price) } },
    FILL[pile] ? h("span", { class: "sm-swatch", style: `background:${FILL[pile]}` }) : null,
    h("span", {}, FILL[pile] ? t(`colour.${pile}`) : t(`value.${pile}`)), " ", h("strong", {}, yen(price))))),
    h("p", {}, t("field.salmon"), " ", h("strong", {}, yen(st.salmon)), " · ", t("field.tuna_price"), " ",
      h("strong", {}, yen(st.tuna_price))),
    h("div", { class: "sm-machine-crate" }, h("span", { class: "label" }, t("field.machine")), " ",
      drinkRow(st.machine, { cls: "drinks-sm", testid: "sm-machine-crate" })));
}

// The walks: the plan with its reachable points to tap, then the buttons as usual.
function walkButtons(moves, view, run) {
  return [planPanel(view, { walks: moves, run }), genericMoves(moves, view, run)];
}

// Leaving: the detergent's clothing items by name ("shirt", not the id the move carries).
function leaveButtons(moves, view, run) {
  return h("div", { class: "move-row" }, moves.map((m) => {
    const doubled = (m.move.args.detergent || []).map((g) => t(`value.${kindOf(g)}`));
    const label = doubled.length ? t("move.shopping_mall.leave/detergent", { detergent: doubled.join(", ") })
      : t("move.shopping_mall.leave");
    return moveButton(m, run, "move-other", h("span", { class: "move-label" }, label), money(m));
  }));
}

// A good fell out (the skill variant): whose crate, then which good, instead of a button for
// every good of every seat (moves.js gives this builder the moves of all seats at once).
function fellOut(moves, view, run) {
  const goods = (seat) => moves.filter((m) => m.move.player === seat).length;
  return h("div", { class: "sm-fell-out", testid: "sm-fell-out" },
    h("h3", { class: "group-title" }, t("kind.shopping_mall.lose")),
    pairPicker(moves, run, { first: (m) => m.move.player, second: "good", key: "sm-lose", label: t("sm.loseWhose"),
      hint: t("sm.loseHint"),
      showFirst: (seat) => h("span", { class: "pair-card" }, seatName(view.state, seat), " ",
        h("span", { class: "muted" }, `×${goods(seat)}`)),
      showSecond: (good) => (kindOf(good) === "drink" ? drinkSvg(good) : t(`value.${kindOf(good)}`)) }));
}
fellOut.acrossSeats = true;

const walking = (view) => (view.moves || []).some((m) => WALKS.has(m.move.kind));

// The table: the plan under the action panel (unless the walk's buttons draw it), the last result.
function result(view, opts = {}) {
  const last = generic.result(view, opts);
  return opts.compact || walking(view) ? last : [planPanel(view), ...last];
}

function side(view) {
  const rest = Object.fromEntries(Object.entries(view.state).filter(([k]) => !DRAWN.has(k)));
  return [pricesPanel(view), ...generic.side({ ...view, state: rest })];
}

function playerCard(p, view, opts) {
  return generic.playerCard(readablePlayer(p), view, opts);
}

function phoneMe(view) {
  return generic.phoneMe({ ...view, state: { ...view.state, players: view.state.players.map(readablePlayer) } });
}

function phoneExtra(view) {
  return walking(view) ? [] : [planPanel(view)];
}

export default { playerCard, phoneMe, side, result, phoneExtra, overExtra: generic.overExtra,
  moveBuilders: { ...generic.moveBuilders, move: walkButtons, enter: walkButtons, leave: leaveButtons,
    lose: fellOut } };
