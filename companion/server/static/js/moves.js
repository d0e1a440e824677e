// The legal moves as big buttons, each with what it costs and what it could pay, and why
// (explain.js; in teach mode a note per kind says what it does and which rule it follows). A game's
// renderer may draw some kinds its own way (`moveBuilders`); every other kind gets the generic
// buttons, labelled through the catalogue (`move.<kind>`), grouped by player and kind. A builder
// marked `acrossSeats` gets the kind's moves of every seat at once, after the seats' own moves
// (one picker for "whose crate, then which good" instead of a row of buttons per seat).
import { h } from "./dom.js";
import { quietFailure } from "./api.js";
import { t, yen, humanize, lookup } from "./i18n.js";
import { actionLabel, argsNodes, seatName } from "./values.js";
import { sharedWhy, teachNote, whyLine } from "./explain.js";

// A many-move kind (36 drinks to buy) becomes a heading over compact tiles.
const TILES_FROM = 7;

// move-<kind>-<arg values joined by -> (lists flattened): move-bet-red-200.
export function moveTestId(move) {
  const vals = Object.values(move.args || {}).flat(Infinity);
  return `move-${move.kind}${vals.length ? `-${vals.join("-")}` : ""}`;
}

// Cost and could-pay, each only when not zero.
export function money(m) {
  if (!m.cost && !m.pays_up_to) return null;
  return h("span", { class: "money" },
    m.cost ? h("span", { class: "cost" }, t("money.cost", { yen: yen(m.cost) })) : null,
    m.pays_up_to ? h("span", { class: "pays" }, t("money.pays", { yen: yen(m.pays_up_to) })) : null);
}

// Run a move: every button of the box is disabled until the answer is in (no double taps).
function runner(box, onMove) {
  return async (move) => {
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    try { await onMove(move); } catch (err) { quietFailure(err); } finally {
      for (const b of box.querySelectorAll("button")) b.disabled = false;
    }
  };
}

export function moveButton(m, run, cls, ...content) {
  return h("button", { class: `move ${cls}`, testid: moveTestId(m.move), onclick: () => run(m.move),
    dataset: { cost: String(m.cost || 0), pays: String(m.pays_up_to || 0), player: String(m.move.player) } },
  ...content, whyLine(m));
}

// The generic buttons of one kind: full labels, or a heading and tiles when there are many.
export function genericMoves(moves, view, run) {
  const ctx = view.state;
  if (moves.length < TILES_FROM) {
    return h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, "move-other",
      h("span", { class: "move-label" }, actionLabel("move", m.move, ctx)), money(m))));
  }
  const kind = moves[0].move.kind;
  return h("div", { class: "move-group", dataset: { kind } },
    h("h3", { class: "group-title" }, lookup("kind", kind, ctx.game) ?? humanize(kind)),
    h("div", { class: "move-tiles" }, moves.map((m) => moveButton(m, run, "move-tile",
      h("span", { class: "tile-label" }, argsNodes(m.move, ctx)), money(m)))));
}

function byKey(items, key) {
  const groups = new Map();
  for (const it of items) {
    const k = key(it);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(it);
  }
  return [...groups.values()];
}

// All moves of a view. `onMove(move)` posts it (and throws on refusal, after the toast).
export function movesPanel(view, onMove, builders = {}) {
  const box = h("div", { class: "moves", testid: "moves" });
  if (!view.moves.length) return box;
  const run = runner(box, onMove);
  const shared = (m) => Boolean(builders[m.move.kind] && builders[m.move.kind].acrossSeats);
  const perPlayer = byKey(view.moves.filter((m) => !shared(m)), (m) => m.move.player);
  for (const moves of perPlayer) {
    const kinds = byKey(moves, (m) => m.move.kind).map((same) => {
      const build = builders[same[0].move.kind] || genericMoves;
      return [teachNote(same[0].move.kind, view), sharedWhy(same), build(same, view, run)];
    });
    const nodes = kinds.flat(Infinity).filter(Boolean);  // (no teach note, no shared why: null)
    box.append(...(perPlayer.length > 1
      ? [h("div", { class: "moves-for" }, h("h3", {}, t("moves.for", { name: seatName(view.state, moves[0].move.player) })), nodes)]
      : nodes));
  }
  for (const same of byKey(view.moves.filter(shared), (m) => m.move.kind)) {
    box.append(...[teachNote(same[0].move.kind, view), sharedWhy(same), builders[same[0].move.kind](same, view, run)]
      .flat(Infinity).filter(Boolean));
  }
  return box;
}
