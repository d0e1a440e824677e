// The legal moves as big buttons, each with what it costs and what it could pay.
import { h } from "./dom.js";
import { t, yen, cardName } from "./i18n.js";
import { drinkSvg, cardSvg, deckSvg, COLOURS, SHAPES } from "./drinks.js";

export function moveTestId(move) {
  const vals = Object.values(move.args || {});
  return `move-${move.kind}${vals.length ? `-${vals.join("-")}` : ""}`;
}

function money(m) {
  return h("span", { class: "money" },
    m.cost ? h("span", { class: "cost" }, t("move.cost", { yen: yen(m.cost) })) : null,
    m.move.kind === "invest" || m.move.kind === "declare"
      ? h("span", { class: m.pays_up_to ? "pays" : "pays none" },
        m.pays_up_to ? t("move.pays", { yen: yen(m.pays_up_to) }) : t("move.paysNothing"))
      : null);
}

// Run a move: every button of the box is disabled until the answer is in (no double taps).
function runner(box, onMove) {
  return async (move) => {
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    try { await onMove(move); } catch (_) { /* the toast tells */ } finally {
      for (const b of box.querySelectorAll("button")) b.disabled = false;
    }
  };
}

function moveButton(m, run, cls, ...content) {
  return h("button", { class: `move ${cls}`, testid: moveTestId(m.move), onclick: () => run(m.move),
    dataset: { cost: String(m.cost), pays: String(m.pays_up_to) } }, ...content);
}

function drawButtons(moves, state, run) {
  return h("div", { class: "move-row" }, moves.map((m) => {
    const deck = m.move.args.deck;
    return moveButton(m, run, "move-draw", deckSvg(deck),
      h("span", { class: "move-label" }, t(`move.draw.${deck}`)),
      h("span", { class: "muted" }, t("move.deckLeft", { n: state.decks[deck] })));
  }));
}

// Draft picks as a 6 x 6 grid (colour rows, shape columns); taken drinks leave a gap.
function pickGrid(moves, run) {
  const byDrink = new Map(moves.map((m) => [m.move.args.drink, m]));
  const cells = [];
  for (const c of COLOURS) {
    for (const sh of SHAPES) {
      const m = byDrink.get(`${c}-${sh}`);
      cells.push(m ? moveButton(m, run, "move-pick", drinkSvg(m.move.args.drink))
        : h("span", { class: "pick-gap", "aria-hidden": "true" }));
    }
  }
  return [h("p", { class: "hint" }, t("move.pickHint")), h("div", { class: "pick-grid" }, cells)];
}

function investButtons(moves, run) {
  return h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, "move-invest",
    h("span", { class: "move-label" }, t("move.invest", { yen: yen(m.move.args.amount) })), money(m))));
}

// Declaring: 12 cards, the six colours (swatches) over the six shapes (silhouettes).
function declareCards(moves, run) {
  const byKind = new Map(moves.map((m) => [m.move.args.kind, m]));
  const row = (ids) => h("div", { class: "card-grid" }, ids.filter((k) => byKind.has(k)).map((k) => {
    const m = byKind.get(k);
    return moveButton(m, run, "move-card", cardSvg(k),
      h("span", { class: "card-name" }, cardName(k)),
      h("span", { class: m.pays_up_to ? "pays" : "pays none" }, m.pays_up_to ? t("move.upTo", { yen: yen(m.pays_up_to) }) : t("player.noStake")));
  }));
  return [h("p", { class: "hint" }, t("move.declareHint")),
    row(COLOURS), row(SHAPES)];
}

function genericButtons(moves, run) {
  return h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, "move-other",
    h("span", { class: "move-label" }, m.move.kind), money(m))));
}

// All moves of a view. `onMove(move)` posts it (and throws on refusal, after the toast).
export function movesPanel(view, onMove) {
  const box = h("div", { class: "moves", testid: "moves" });
  if (!view.moves.length) return box;
  const run = runner(box, onMove);
  const kind = view.moves[0].move.kind;
  const same = view.moves.filter((m) => m.move.kind === kind);
  const others = view.moves.filter((m) => m.move.kind !== kind);
  const build = {
    draw: () => drawButtons(same, view.state, run),
    pick: () => pickGrid(same, run),
    invest: () => investButtons(same, run),
    declare: () => declareCards(same, run),
  }[kind] || (() => genericButtons(same, run));
  box.append(...[build()].flat());
  if (others.length) box.append(genericButtons(others, run));
  return box;
}
