// Any value of a game's view shown the way a person reads it: drinks and cards drawn (never
// written), money in yen, seats as names, ids through the catalogue (or humanised). The generic
// renderer builds on this, and so do the move and chance buttons of every game.
import { h, on } from "./dom.js";
import { t, template, humanize, fieldLabel, yen, num, lookup, wordsOf } from "./i18n.js";
import { drinkSvg, cardSvg, isItem, isCard } from "./drinks.js";

// Which keys hold money, a seat, or a list of seats (by name: the views share a vocabulary).
const MONEY = /(^|_)(yen|stakes?|staked|bids?|amounts?|prices?|paid|cost|bonus|penalty|totals?|won|limit|bank|pays|pot|cash|money|worth|got|rate|shares)(_|$)/;
const SEAT = /^(seat|thrower|turn|start_player|player|owner|winner|stake_to|dealer|caller|active|leader|current|bid_winner|to_seat)$|_seat$/;
const SEATS = /^(tied|bidders|winners|has_bid|seats|order|eliminated|out|called|passed|markers|leading)$|_seats$/;
const COINS = /^(coins?|spent)$/; // {"500": 2}: two 500-yen coins
const DENOMINATIONS = new Set(["10", "50", "100", "500", "1000", "5000", "10000"]);
const SEAT_VALUES = /^(owners|holders|seat_of)$/; // {red: 0}: the card's owner is seat 0
const COUNTED = /(^|_)(coins|counts?|slots|drinks|cans|turns|free)$/; // won_coins: coins, not yen
const MAX_TEXT = 90;

export const isMoneyKey = (key) => typeof key === "string" && MONEY.test(key) && !COUNTED.test(key);

// Nothing worth a line: null, false, an empty list or object.
export function blank(v) {
  return v === null || v === undefined || v === false || (Array.isArray(v) && !v.length)
    || (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length);
}

export function seatName(ctx, seat) {
  const players = (ctx && ctx.players) || [];
  const p = players.find((x) => x.seat === seat) || players[seat];
  return p && p.name ? p.name : t("lobby.seat", { n: Number(seat) + 1 });
}

const isSeat = (ctx, v) => Number.isInteger(v) && v >= 0 && v < ((ctx && ctx.players) || []).length;

// A word-like id through the catalogue ("yen" -> value.yen) or humanised; other text as given.
export function textOf(s) {
  if (/^[a-z][a-z0-9_]*$/.test(s)) return template(`value.${s}`) ?? humanize(s);
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s;
}

const drawn = (v) => isItem(v) || isCard(v);   // a drink, a detergent bottle, a card

function draw(v, size) {
  return isItem(v) ? drinkSvg(v, size === "lg" ? "drink-arg" : "drink-sm") : cardSvg(v, size === "lg" ? "card-sm" : "card-xs");
}

// One value as DOM nodes. `key` is the field it sits under (it tells money and seats apart);
// size "lg" draws drinks and cards larger (inside buttons).
export function valueNodes(value, key, ctx, { depth = 0, size = "sm" } = {}) {
  if (value === null || value === undefined) return ["—"];
  if (typeof value === "boolean") return [value ? t("result.yes") : "—"];
  if (typeof value === "number") {
    if (SEAT.test(key || "") && isSeat(ctx, value)) return [seatName(ctx, value)];
    return [isMoneyKey(key) ? yen(value) : num(value)];
  }
  if (typeof value === "string") return [drawn(value) ? draw(value, size) : textOf(value)];
  if (Array.isArray(value)) {
    if (!value.length) return ["—"];
    if (value.every(drawn)) return [h("span", { class: "drawn" }, value.map((v) => draw(v, size)))];
    if (SEATS.test(key || "") && value.every((v) => isSeat(ctx, v))) return [value.map((v) => seatName(ctx, v)).join(", ")];
    if (depth > 2) return ["…"];
    const items = value.map((v) => h("span", { class: "val-item" }, valueNodes(v, key, ctx, { depth: depth + 1, size })));
    return [h("span", { class: "val-list" }, items)];
  }
  if (typeof value === "object") {
    if (depth > 2) return ["…"];
    const entries = Object.entries(value).filter(([, v]) => !blank(v));
    if (!entries.length) return ["—"];
    // {red: 0} under "owners" is a seat; {can: 100} under "prices" is money.
    const sub = (k, v) => (SEAT_VALUES.test(key || "") ? "seat"
      : typeof v === "number" && isMoneyKey(key) && !SEAT.test(k) ? key : k);
    return [h("span", { class: "val-obj" }, entries.map(([k, v]) => h("span", { class: "val-pair" },
      keyNodes(k, v, ctx, key), valueNodes(v, sub(k, v), ctx, { depth: depth + 1, size }))))];
  }
  return [textOf(String(value))];
}

// The label before a value inside an object; none where the value speaks for itself.
function keyNodes(k, v, ctx, parent = "") {
  if (drawn(k)) return [draw(k), " "];
  if (/^\d+$/.test(k) && isSeat(ctx, Number(k))) return [h("span", { class: "val-key" }, seatName(ctx, Number(k))), " "];
  if (/^\d+$/.test(k) && (COINS.test(parent) || isMoneyKey(parent) || DENOMINATIONS.has(k))) {
    return [h("span", { class: "val-key" }, yen(Number(k)), " ×")];
  }
  const self = k === "yen" || k === "amount" || (typeof v === "string" && drawn(v))
    || (Array.isArray(v) && v.length && v.every(drawn)) || (SEAT.test(k) && isSeat(ctx, v));
  return self ? [] : [h("span", { class: "val-key" }, fieldLabel(k)), " "];
}

// A catalogue text with {slots} filled by nodes: "Buy {card}" -> ["Buy ", <svg card>].
export function tNodes(text, params) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    out.push(text.slice(last, m.index), m[1] in params ? params[m[1]] : m[0]);
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((x) => x !== "");
}

// A catalogue text fits a move when it names every arg (no more, no less).
function fits(text, args) {
  const slots = new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  return [...slots].every((k) => k in args) && Object.keys(args).every((k) => slots.has(k) || blank(args[k]));
}

// An arg with its name, unless its value says what it is (a drink, a card, a player).
function namedArg(k, v, ctx) {
  const value = valueNodes(v, k, ctx, { size: "lg" });
  const plain = isMoneyKey(k) || (typeof v === "string" ? drawn(v)
    : Array.isArray(v) ? v.length && v.every(drawn) : SEAT.test(k) && isSeat(ctx, v));
  return h("span", { class: "arg" }, plain ? [] : h("span", { class: "val-key" }, fieldLabel(k)), value);
}

// The words on a move or chance button: `${prefix}.${game}.${kind}` or `${prefix}.${kind}` (or
// either with "/<arg names>" for one set of args) from the catalogue with the args filled in,
// else the humanised kind and its named args.
export function actionLabel(prefix, move, ctx) {
  const args = move.args || {};
  const params = {};
  for (const [k, v] of Object.entries(args)) params[k] = h("span", { class: "arg" }, valueNodes(v, k, ctx, { size: "lg" }));
  const variant = `/${Object.keys(args).filter((k) => !blank(args[k])).sort().join(",")}`; // move.flick/drink,result
  const keys = [`${prefix}.${wordsOf(ctx.game)}.${move.kind}`, `${prefix}.${move.kind}`];
  for (const key of [...keys, ...keys.map((k) => k + variant)]) {
    const text = template(key);
    if (text && fits(text, args)) return tNodes(text, params);
  }
  return [lookup("kind", move.kind, ctx.game) ?? humanize(move.kind),
    ...Object.entries(args).filter(([, v]) => !blank(v)).flatMap(([k, v]) => [" ", namedArg(k, v, ctx)])];
}

// Only the args (for tiles under a heading that names the kind).
export function argsNodes(move, ctx) {
  const entries = Object.entries(move.args || {}).filter(([, v]) => !blank(v));
  if (!entries.length) return [humanize(move.kind)];
  return entries.flatMap(([k, v], i) => [i ? " " : "", namedArg(k, v, ctx)]);
}

// A field too big to read at a glance (a whole board) folds away; which ones a person opened
// is kept across re-renders, and a folded field is not drawn at all.
const BIG = 1200; // characters of JSON
const openBig = new Set();

function bigField(k, v, ctx) {
  const count = Array.isArray(v) ? v.length : Object.keys(v).length;
  const box = h("details", { class: "field big", dataset: { field: k } },
    h("summary", {}, h("span", { class: "label" }, fieldLabel(k)), h("span", { class: "muted" }, `(${num(count)})`)));
  const fill = () => {
    if (box.open && box.childNodes.length === 1) box.append(h("div", { class: "big-value" }, valueNodes(v, k, ctx)));
  };
  on(box, "toggle", () => { if (box.open) openBig.add(k); else openBig.delete(k); fill(); });
  if (openBig.has(k)) { box.open = true; fill(); }
  return box;
}

const isBig = (v) => typeof v === "object" && !(Array.isArray(v) && v.every(drawn)) && JSON.stringify(v).length > BIG;

// Fields of an object as label / value rows (blank ones left out).
export function fieldList(obj, keys, ctx, { testid } = {}) {
  const rows = keys.filter((k) => !blank(obj[k])).map((k) => (isBig(obj[k]) ? bigField(k, obj[k], ctx)
    : h("div", { class: "field", dataset: { field: k } },
      h("span", { class: "label" }, fieldLabel(k)), h("span", { class: "field-value" }, valueNodes(obj[k], k, ctx)))));
  return rows.length ? h("div", { class: "fields", testid }, rows) : null;
}

// Keys whose value is one entry per seat (paid: [300, 0, 900]): they make a table by player.
// Not lists of records that name their own seat ({seat: 1, card: ...}), nor lists of drinks.
export function perSeatKeys(obj, n) {
  const record = (v) => v && typeof v === "object" && !Array.isArray(v) && "seat" in v;
  return Object.keys(obj).filter((k) => Array.isArray(obj[k]) && obj[k].length === n && n > 1
    && obj[k].some((v) => !blank(v)) && !obj[k].some(record) && !obj[k].every((v) => isItem(v)));
}

export function seatTable(obj, keys, ctx, { testid } = {}) {
  if (!keys.length) return null;
  const players = ctx.players || [];
  return h("div", { class: "payouts-wrap" }, h("table", { class: "payouts seat-table", testid },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.player")),
      keys.map((k) => h("th", { scope: "col", class: "num" }, fieldLabel(k))))),
    h("tbody", {}, players.map((p, i) => h("tr", {},
      h("th", { scope: "row" }, p.name),
      keys.map((k) => h("td", { class: "num", dataset: { field: k } }, valueNodes(obj[k][i], k, ctx))))))));
}
