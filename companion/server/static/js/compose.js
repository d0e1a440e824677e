// Pickers for the moves that take lists: buy 2 or 3 drinks at once, bet on several cards, sell
// the drinks you choose, swap drinks between crates. The view's `composites` (a game's
// composite_moves, see engine.Game) say what may be picked; a person taps drinks or cards
// (drawn, never written), sets amounts and coins with steppers, sees the price as it grows,
// and Confirm posts {kind, player, args}. The engine checks the move: a refusal shows its
// reason in a toast. What is being picked survives the redraw a pushed view causes.
import { h, replace, on } from "./dom.js";
import { t, template, lookup, humanize, yen } from "./i18n.js";
import { drinkSvg, cardSvg, isItem, isCard } from "./drinks.js";
import { genericMoves } from "./moves.js";
import { argsNodes, tNodes, valueNodes } from "./values.js";

// What a person is composing, per game, player and kind: {open, chosen, picked, amounts, coins, sent}.
const drafts = new Map();

const itemKey = (item) => (Array.isArray(item) ? item.join("-") : String(item));
const baseKey = (c) => JSON.stringify(c.base || {});
const coinValue = (coins) => Object.entries(coins).reduce((sum, [d, n]) => sum + Number(d) * n, 0);

const STYLE = `
.compose { border: 2px dashed var(--line); border-radius: 12px; margin: .2rem 0 .6rem; background: #fffdf7; }
.compose[open] { border-style: solid; border-color: var(--accent); }
.compose > summary { min-height: 48px; display: flex; align-items: center; gap: .5rem; padding: .3rem .8rem;
  cursor: pointer; font-weight: 700; color: var(--accent); list-style: none; }
.compose > summary::before { content: "+"; font-size: 1.4rem; line-height: 1; }
.compose[open] > summary::before { content: "−"; }
.compose-body { padding: 0 .8rem .7rem; }
.compose-options { display: grid; grid-template-columns: repeat(auto-fill, minmax(7rem, 1fr)); gap: .4rem;
  margin-bottom: .5rem; }
.compose-options .move { min-height: 52px; flex-direction: column; gap: .1rem; padding: .3rem .5rem; }
.compose-item { flex-direction: column; gap: .1rem; }
.compose-item .drink { height: 56px; }
.compose-item .card { height: 52px; }
.compose-item small { font-size: .75rem; font-weight: 600; color: var(--muted); }
.compose-empty { display: inline-block; width: 22px; height: 56px; border: 2px dashed var(--line); border-radius: 6px; }
.compose-swap { font-weight: 800; }
.compose-steps { display: flex; flex-direction: column; gap: .4rem; margin-top: .6rem; }
.compose-step { display: flex; align-items: center; gap: .5rem; }
.compose-step .drink { height: 44px; }
.compose-step .card { height: 44px; }
.compose-step .big { padding: .2rem .6rem; min-width: 48px; font-size: 1.3rem; }
.compose-value { min-width: 4rem; text-align: center; font-weight: 800; font-variant-numeric: tabular-nums; }
.compose-coin { min-width: 4.5rem; text-align: right; font-weight: 700; }
.compose-total { font-weight: 800; font-size: 1.1rem; }
`;

function injectStyle() {
  if (document.getElementById("compose-style")) return;
  document.head.append(h("style", { id: "compose-style" }, STYLE));
}

// --- reading a composite ------------------------------------------------------------------------

function itemsOf(c) {
  return c.pick.from.map((item, i) => ({ item, key: itemKey(item), shows: c.pick.shows ? c.pick.shows[i] : item }));
}

// Yen it costs: by how many (price), per item (each), the amounts; and what it pays.
function costOf(c, keys, amounts) {
  const byCount = (c.price && c.price[String(keys.length)]) || 0;
  const each = c.each ? keys.reduce((s, k) => s + (c.each[k] || 0), 0) : 0;
  return byCount + each + keys.reduce((s, k) => s + (amounts[k] || 0), 0);
}

// The coins that pay `due` with the least to spare and no coin to spare (null: not enough).
export function suggestPayment(have, due) {
  const denoms = Object.keys(have).map(Number).sort((a, b) => b - a);
  let best = null;
  const walk = (i, counts) => {
    if (i === denoms.length) {
      const coins = Object.fromEntries(denoms.map((d, k) => [String(d), counts[k]]));
      const value = coinValue(coins);
      const used = denoms.filter((d, k) => counts[k] > 0);
      if (!used.length || value < due || value - Math.min(...used) >= due) return;
      if (!best || value < coinValue(best)) best = coins;
      return;
    }
    for (let n = 0; n <= have[String(denoms[i])]; n += 1) walk(i + 1, [...counts, n]);
  };
  walk(0, []);
  return best;
}

// The move as the engine takes it: the fixed args, then the picked items into their list arg(s).
export function composeMove(c, keys, amounts = {}, coins = null) {
  const byKey = new Map(c.pick.from.map((item) => [itemKey(item), item]));
  const items = keys.map((k) => byKey.get(k));
  const args = { ...(c.base || {}) };
  if (Array.isArray(c.pick.arg)) c.pick.arg.forEach((name, i) => { args[name] = items.map((it) => it[i]); });
  else args[c.pick.arg] = items;
  if (c.amounts) args[c.amounts.arg] = keys.map((k) => amounts[k]);
  if (c.coins) {
    const paid = coins || suggestPayment(c.coins.have, costOf(c, keys, amounts)) || {};
    args[c.coins.arg] = Object.keys(paid).map(Number).sort((a, b) => b - a)
      .flatMap((d) => Array(paid[String(d)]).fill(d));
  }
  return { kind: c.kind, player: c.player, args };
}

function canAdd(c, d, key) {
  if (d.picked.length >= c.pick.max) return false;
  if (c.pick.within) {
    const fits = c.pick.within.some((g) => {
      const keys = new Set(g.map(itemKey));
      return keys.has(key) && d.picked.every((k) => keys.has(k));
    });
    if (!fits) return false;
  }
  if (c.amounts && costOf(c, d.picked, d.amounts) + c.amounts.min > c.amounts.max_total) return false;
  if (c.coins && costOf(c, [...d.picked, key], d.amounts) > coinValue(c.coins.have)) return false;
  return true;
}

// --- drawing ------------------------------------------------------------------------------------

function picture(v, ctx, arg) {
  if (v === null || v === undefined) return h("span", { class: "compose-empty", title: t("compose.empty") });
  if (isItem(v)) return drinkSvg(v);
  if (isCard(v)) return cardSvg(v);
  return h("span", { class: "compose-value" }, valueNodes(v, arg, ctx));
}

function itemFace(c, it, ctx) {
  const arg = Array.isArray(c.pick.arg) ? c.pick.arg[0] : c.pick.arg;
  if (Array.isArray(it.shows)) {
    const parts = it.shows.flatMap((v, i) => [i ? h("span", { class: "compose-swap" }, "⇄") : null, picture(v, ctx, arg)]);
    return [h("span", { class: "tile-label" }, parts), Array.isArray(it.item) ? h("small", {}, it.item.join(" ⇄ ")) : null];
  }
  return [picture(it.shows, ctx, arg), c.each && c.each[it.key] !== undefined ? h("small", {}, yen(c.each[it.key])) : null];
}

function title(c, game) {
  return lookup("compose", c.kind, game) ?? t("compose.several", { kind: lookup("kind", c.kind, game) ?? humanize(c.kind) });
}

function optionLabel(c, ctx) {
  const text = template(`compose.option.${c.kind}`);
  const base = c.base || {};
  if (text) {
    const params = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, h("span", { class: "arg" }, valueNodes(v, k, ctx))]));
    return tNodes(text, params);
  }
  return argsNodes({ kind: c.kind, args: base }, ctx);
}

function stepper(label, value, testid, { less, more, canLess, canMore }) {
  return h("div", { class: "compose-step", testid },
    label,
    h("button", { class: "big", testid: `${testid}-less`, "aria-label": t("compose.less"), disabled: !canLess, onclick: less }, "−"),
    h("span", { class: "compose-value" }, value),
    h("button", { class: "big", testid: `${testid}-more`, "aria-label": t("compose.more"), disabled: !canMore, onclick: more }, "+"));
}

// One picker for the composites of one kind of one player (several: choose one first).
function picker(view, group, run, listed) {
  injectStyle();
  const ctx = view.state;
  const { kind, player } = group[0];
  const id = `${view.game_id}:${player}:${kind}`;
  const fresh = () => ({ picked: [], amounts: {}, coins: null, sent: null });
  if (!drafts.has(id)) drafts.set(id, { open: null, chosen: null, ...fresh() });
  const d = drafts.get(id);
  if (d.sent !== null && view.seq > d.sent) Object.assign(d, fresh());  // the move went through
  let c = group.find((x) => baseKey(x) === d.chosen);
  if (!c) {
    c = group[0];
    Object.assign(d, { chosen: baseKey(c) }, d.chosen === null ? {} : fresh());
  }
  const keys = new Set(c.pick.from.map(itemKey));
  d.picked = d.picked.filter((k) => keys.has(k));

  const box = h("details", { class: "compose", testid: `compose-${kind}`, open: d.open ?? !listed,
    dataset: { kind, player: String(player) } });
  const body = h("div", { class: "compose-body" });

  const draw = () => {
    const cur = group.find((x) => baseKey(x) === d.chosen) || group[0];
    const due = costOf(cur, d.picked, d.amounts);
    const coins = cur.coins ? (d.coins || suggestPayment(cur.coins.have, due) || {}) : null;
    const pays = cur.pays ? cur.pays[String(d.picked.length)] || 0 : 0;
    const redraw = () => draw();
    const toggle = (key) => {
      d.coins = null;  // the price changes: suggest a payment again
      if (d.picked.includes(key)) {
        d.picked = d.picked.filter((k) => k !== key);
        delete d.amounts[key];
      } else {
        d.picked = [...d.picked, key];
        if (cur.amounts) d.amounts[key] = cur.amounts.min;
      }
      redraw();
    };
    const confirm = h("button", { class: "big primary", testid: "compose-confirm", disabled: d.picked.length < cur.pick.min,
      onclick: async () => {
        d.sent = view.seq;
        await run(composeMove(cur, d.picked, d.amounts, cur.coins ? coins : null));
        if (box.isConnected) {  // refused (the toast tells why): the picker stays as it was
          d.sent = null;
          redraw();
        }
      } }, t("compose.confirm", { n: d.picked.length }));
    const note = template(`compose.note.${cur.kind}`);
    replace(body,
      group.length > 1 ? [
        h("p", { class: "hint" }, lookup("compose.which", cur.kind) ?? t("compose.which")),
        h("div", { class: "move-row compose-options" }, group.map((x) => {
          const on = baseKey(x) === d.chosen;
          return h("button", { class: `move${on ? " selected" : ""}`, testid: `compose-option-${Object.values(x.base || {}).join("-")}`,
            "aria-pressed": on ? "true" : "false",
            onclick: () => { if (!on) { Object.assign(d, fresh(), { chosen: baseKey(x) }); redraw(); } } },
          h("span", { class: "tile-label" }, optionLabel(x, ctx)),
          x.pays && x.pays["1"] !== undefined ? h("small", { class: "pays" }, t("compose.each", { yen: yen(x.pays["1"]) })) : null);
        }))] : null,
      h("p", { class: "hint" }, cur.pick.max > 1 ? t("compose.hint", { min: cur.pick.min, max: cur.pick.max }) : t("compose.hintOne"),
        note ? ` ${note}` : ""),
      h("div", { class: "tap-grid" }, itemsOf(cur).map((it) => {
        const on = d.picked.includes(it.key);
        return h("button", { class: `move move-tap compose-item${on ? " selected" : ""}`, testid: `compose-pick-${it.key}`,
          "aria-pressed": on ? "true" : "false", disabled: !on && !canAdd(cur, d, it.key),
          onclick: () => toggle(it.key) }, itemFace(cur, it, ctx));
      })),
      cur.amounts && d.picked.length ? h("div", { class: "compose-steps" },
        h("span", { class: "label" }, t("compose.amounts"), " · ",
          t("compose.left", { yen: yen(cur.amounts.max_total - due) })),
        d.picked.map((key) => {
          const it = itemsOf(cur).find((x) => x.key === key);
          const a = d.amounts[key];
          return stepper(picture(it.shows, ctx), yen(a), `compose-amount-${key}`, {
            canLess: a - cur.amounts.step >= cur.amounts.min, canMore: due + cur.amounts.step <= cur.amounts.max_total,
            less: () => { d.amounts[key] = a - cur.amounts.step; redraw(); },
            more: () => { d.amounts[key] = a + cur.amounts.step; redraw(); } });
        })) : null,
      coins && d.picked.length ? h("div", { class: "compose-steps" },
        h("span", { class: "label" }, t("compose.coins"), " · ", t("compose.paid", { paid: yen(coinValue(coins)), due: yen(due) })),
        Object.keys(cur.coins.have).filter((k) => cur.coins.have[k] > 0).sort((a, b) => b - a).map((k) => stepper(
          h("span", { class: "compose-coin" }, yen(Number(k)), " ×"), `${coins[k] || 0} / ${cur.coins.have[k]}`, `compose-coin-${k}`, {
            canLess: (coins[k] || 0) > 0, canMore: (coins[k] || 0) < cur.coins.have[k],
            less: () => { d.coins = { ...coins, [k]: (coins[k] || 0) - 1 }; redraw(); },
            more: () => { d.coins = { ...coins, [k]: (coins[k] || 0) + 1 }; redraw(); } }))) : null,
      h("div", { class: "confirm-row" },
        due ? h("span", { class: "cost compose-total", testid: "compose-price", dataset: { yen: String(due) } },
          t("money.cost", { yen: yen(due) })) : null,
        pays ? h("span", { class: "pays compose-total", testid: "compose-pays", dataset: { yen: String(pays) } },
          t("compose.gets", { yen: yen(pays) })) : null,
        confirm));
  };
  // A closed picker is drawn when first opened (a redraw of the page stays cheap).
  let drawn = false;
  const drawOnce = () => { if (box.open && !drawn) { drawn = true; draw(); } };
  on(box, "toggle", () => { d.open = box.open; drawOnce(); });
  // Opening by a tap: draw at once (the toggle event comes a moment later).
  const summary = h("summary", { testid: `compose-open-${kind}`,
    onclick: () => {
      d.open = !box.open;  // kept if the page is redrawn before the toggle event
      if (!drawn) { drawn = true; draw(); }
    } }, title(c, ctx.game));
  box.append(summary, body);
  drawOnce();
  return box;
}

// --- hooking into the moves panel ---------------------------------------------------------------

// A renderer's `moveBuilders` (see moves.js) that puts each composite's picker before the listed
// moves of its kind, and those of kinds not listed at all (PURA's swaps) after the player's first
// kind; every kind's listed moves are drawn by `fallback`.
export function composeBuilders(fallback = genericMoves) {
  return new Proxy({}, {
    get(_, kind) {
      if (typeof kind !== "string") return undefined;
      return (moves, view, run) => withPickers(kind, moves, view, run, fallback);
    },
  });
}

function withPickers(kind, moves, view, run, fallback) {
  const player = moves[0].move.player;
  const mine = (view.composites || []).filter((c) => c.player === player);
  const listed = new Set(view.moves.filter((m) => m.move.player === player).map((m) => m.move.kind));
  const groupOf = (k) => mine.filter((c) => c.kind === k);
  const first = view.moves.find((m) => m.move.player === player).move.kind;
  const unlisted = kind === first ? [...new Set(mine.map((c) => c.kind))].filter((k) => !listed.has(k)) : [];
  return [
    groupOf(kind).length ? picker(view, groupOf(kind), run, true) : null,
    fallback(moves, view, run),
    ...unlisted.map((k) => picker(view, groupOf(k), run, false)),
  ].filter(Boolean);
}
