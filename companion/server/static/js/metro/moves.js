// TOKYO METRO: the legal moves as buttons (test ids move-<kind>-<args>, as everywhere). Card
// actions are grouped by the card action they use; where a move goes (a field, a station, a line)
// is named, and the map shows it too. The train phase: what the run will do, then the one button
// that runs it; riders decide whether to board or get off.
import { h, island } from "../dom.js";
import { t, yen, num } from "../i18n.js";
import { moveButton, money, moveTestId } from "../moves.js";
import { boardIndex, colRow, fieldPlace, lineBadge, seatDot, seatName, stationName, actionKey, vehiclesOf } from "./common.js";
import { ui, listen, select } from "./ui.js";
import { actionText } from "./cards.js";
import { payoutText } from "./map.js";
import { paintEstimates } from "../estimates.js";
import { bonusOf } from "./drinks.js";
import { drinkSvg, cardSvg } from "../drinks.js";
import { buildsPicker, freeBuilder, withBuilds } from "./walkbuilds.js";

const SINGLE = new Set(["tempo", "bicycle", "discount", "bid_bonus", "loan", "repay", "action_disc", "copy"]);

function findCard(st, id) {
  for (const col of st.columns || []) {
    for (const c of col.slots) if (c && c.id === id && Array.isArray(c.actions)) return c;
  }
  for (const p of st.players) for (const c of p.cards || []) if (c.id === id) return c;
  return null;
}

function fieldLabel(ix, field) {
  const [c, r] = colRow(ix, field);
  const place = fieldPlace(ix, c, r);
  return [h("span", { class: "m-field-xy" }, `${c}·${r}`), place ? h("span", { class: "m-field-place" }, place) : null];
}

function discountNote(m) {
  const d = m.move.args.discounts;
  const copy = m.move.args.copy ? h("span", { class: "m-note m-copy-note" }, t("metro.copy.by")) : null;
  return [Array.isArray(d) && d.length ? h("span", { class: "m-note" }, t("metro.move.withDiscount", { n: d.length })) : null, copy];
}

// What a sale sets aside (the move's figures: pays_up_to), and which share is sold.
function shareOf(st, letter, seat) {
  const line = (st.lines || []).find((l) => l.letter === letter);
  const sh = line ? line.shares.find((x) => x.holder === seat) : null;
  return sh ? sh.number : null;
}

// The words on one tile, by kind.
export function tileContent(view, ix, m) {
  const st = view.state;
  const a = m.move.args;
  switch (m.move.kind) {
    case "place": case "walk": case "alight":
      return fieldLabel(ix, a.field);
    case "move":  // METRO DRINKS: free builds along the way
      return [fieldLabel(ix, a.field), Array.isArray(a.builds) && a.builds.length
        ? h("span", { class: "m-note m-builds" }, a.builds.map((b) => drinkSvg(b.drink, "m-drink-tile")),
          t("metro.move.builds", { n: a.builds.length, count: a.builds.length })) : null];
    case "station":
      return [h("span", { class: "move-label" }, stationName(ix, a.station)), discountNote(m)];
    case "station_swap":
      return [h("span", { class: "move-label" }, stationName(ix, a.station)),
        h("span", { class: "m-note" }, t(`metro.move.swap.${a.token}`))];
    case "invest": case "start": case "assign_tempo":
      return [lineBadge(st, a.line, { cls: "lg" }), discountNote(m)];
    case "invest_disc":
      return [lineBadge(st, a.line, { cls: "lg" }), h("span", { class: "m-note" }, t("metro.move.discToBox"))];
    case "sell": {
      const n = shareOf(st, a.line, m.move.player);
      return [lineBadge(st, a.line, { cls: "lg" }), n ? h("span", { class: "m-note" }, `#${n}`) : null,
        h("span", { class: "m-note" }, t("metro.move.setAside", { yen: yen(m.pays_up_to || 0) }))];
    }
    case "copy":
      return [h("span", { class: "move-label" }, t("metro.kind.copy")), discountNote(m)];
    case "speculate":
      return [lineBadge(st, a.line, { cls: "lg" }), h("span", { class: "m-stake" }, yen(a.stake))];
    case "card":
      return [h("span", { class: "move-label" }, t("metro.move.cardFrom", { n: a.column + 1 })), discountNote(m)];
    case "vend": case "free_vend":  // METRO DRINKS: which drink at which station
      return [drinkSvg(a.drink, "m-drink-tile"), h("span", { class: "move-label" }, stationName(ix, a.station))];
    case "colour_card": case "shape_card":
      return [cardSvg(a.card, "m-stock-pic sm"), h("span", { class: "move-label" }, t(`metro.kind.${m.move.kind}`))];
    default:
      if (typeof a.station === "string") return [h("span", { class: "move-label" }, stationName(ix, a.station)), discountNote(m)];
      if (typeof a.line === "string") return [lineBadge(st, a.line, { cls: "lg" }), discountNote(m)];
      return [h("span", { class: "move-label" }, t(`metro.kind.${m.move.kind}`))];
  }
}

function tile(view, ix, m, run, cls = "m-tile") {
  return moveButton(m, run, `move-tile ${cls}`, h("span", { class: "tile-label" }, tileContent(view, ix, m)), money(m));
}

// Mark the picked card action's group and the moves a map tap could mean; dim the rest; put the
// estimates (when asked for) on the buttons drawn by now.
function marker(root, view) {
  const draw = (at = root) => {
    for (const g of at.querySelectorAll(".m-group")) if (g.refresh) g.refresh();
    for (const g of at.querySelectorAll(".m-group[data-action-key]")) {
      g.classList.toggle("selected", g.dataset.actionKey === ui.selected);
      g.classList.toggle("dim", Boolean(ui.selected) && g.dataset.actionKey !== ui.selected);
      g.classList.toggle("candidate", Boolean(ui.candidates) && Boolean(g.ids) && [...g.ids].some((id) => ui.candidates.has(id)));
    }
    for (const b of at.querySelectorAll("button[data-testid^='move-']")) {
      b.classList.toggle("candidate", Boolean(ui.candidates) && ui.candidates.has(b.dataset.testid));
    }
    at.classList.toggle("choosing", Boolean(ui.candidates));
    paintEstimates(at, view);
  };
  listen(draw, root);
  draw();
  return root;
}

// Card actions: one group per card action, titled with the card and what the action does. A group
// with many moves (where to walk, which stake) opens when it is picked (tap its title or the
// action on its card); the map shows its targets meanwhile. A closed group holds no buttons.
const OPEN_UP_TO = 4;

function cardGroups(moves, view, run) {
  const st = view.state;
  const ix = boardIndex(st.board);
  const groups = new Map();
  for (const m of moves) {
    const key = actionKey(m.move) || m.move.kind;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  // The copy actions say once what a copy right could take later this round.
  const lead = moves[0].move.kind === "copy" ? copyable(st) : null;
  return [lead, ...[...groups.entries()].map(([key, ms]) => {
    const [cardId, index] = key.split("/");
    const card = findCard(st, cardId);
    const action = card ? card.actions[Number(index)] : null;
    const kind = ms[0].move.kind;
    const title = action ? actionText(action, { long: true }) : t(`metro.kind.${kind}`);
    // METRO DRINKS: a free builder's move action takes the builds picked along its way.
    const walkBuilds = kind === "move" && freeBuilder(st, ms[0].move.player);
    const go = walkBuilds ? (move) => run(withBuilds(view, key)(move)) : run;
    // OSAKA METRO: an action taken again with a copy right says so on its group.
    const copied = ms.every((m) => m.move.args.copy)
      ? h("span", { class: "m-copy-chip", title: t("metro.copy.mayCopy") }, t("metro.copy.chip")) : null;
    if (ms.length === 1) {
      const only = ms[0];
      return h("div", { class: "m-group single", dataset: { actionKey: key, kind } },
        walkBuilds ? buildsPicker(view, ix, key, ms) : null,
        h("div", { class: "move-row m-single" }, moveButton(only, go, "m-wide",
          h("span", { class: "m-card-chip" }, cardId), copied,
          SINGLE.has(kind) ? h("span", { class: "move-label" }, title)
            : [h("span", { class: "m-group-title", title }, action ? actionText(action) : title),
              h("span", { class: "tile-label" }, tileContent(view, ix, only))],
          money(only))));
    }
    const ids = new Set(ms.map((m) => moveTestId(m.move)));
    const open = () => ms.length <= OPEN_UP_TO || ui.selected === key
      || (Boolean(ui.candidates) && [...ids].some((id) => ui.candidates.has(id)));
    const chevron = h("span", { class: "m-chevron", "aria-hidden": "true" });
    const head = h("button", { class: "m-group-head", type: "button", testid: `group-${key.replace("/", "-")}`,
      title: t("metro.move.pickHint"), onclick: () => select(key) },
    h("span", { class: "m-card-chip" }, cardId), copied, h("span", { class: "m-group-title" }, title),
    h("span", { class: "m-count" }, t("metro.move.choices", { n: num(ms.length), count: ms.length })), chevron);
    const body = h("div", { class: "m-group-body" });
    const group = h("div", { class: "m-group", dataset: { actionKey: key, kind } }, head, body);
    island(group);  // its refresh holds its head and body
    group.ids = ids;
    group.refresh = () => {
      const isOpen = open();
      head.setAttribute("aria-expanded", isOpen ? "true" : "false");
      chevron.textContent = isOpen ? "▾" : "▸";
      if (isOpen && !body.firstChild) {
        body.append(...[walkBuilds ? buildsPicker(view, ix, key, ms) : null].filter(Boolean),
          h("div", { class: `m-tiles${ms.length > 24 ? " many" : ""}` }, ms.map((m) => tile(view, ix, m, go))));
      } else if (!isOpen && body.firstChild) {
        body.replaceChildren();
      }
    };
    group.refresh();
    return group;
  })];
}

// OSAKA METRO: what a copy right could take later this round: the actions taken so far.
const NOT_COPIED = new Set(["copy", "discount"]);

function copyable(st) {
  const taken = [];
  for (const col of st.columns || []) {
    for (const c of col.slots) {
      for (const a of (c && c.actions) || []) {
        if (a.taken_by !== null && a.taken_by !== undefined && !NOT_COPIED.has(a.kind)) taken.push(`${c.id} ${actionText(a)}`);
      }
    }
  }
  return h("p", { class: "hint m-copyable", testid: "copyable" },
    taken.length ? t("metro.copy.takenSoFar", { list: taken.join(" · ") }) : t("metro.copy.noneYet"));
}

function fieldMoves(titleKey) {
  return (moves, view, run) => {
    const ix = boardIndex(view.state.board);
    return h("div", { class: "m-group", dataset: { kind: moves[0].move.kind } },
      h("h3", { class: "group-title" }, t(titleKey), " ",
        h("span", { class: "m-count" }, t("metro.move.fields", { n: num(moves.length), count: moves.length }))),
      h("p", { class: "hint" }, t("metro.map.hintField")),
      h("div", { class: `m-tiles fields${moves.length > 24 ? " many" : ""}` }, moves.map((m) => tile(view, ix, m, run))));
  };
}

function simple(key, cls = "") {
  return (moves, view, run) => h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, `m-wide ${cls}`.trim(),
    h("span", { class: "move-label" }, t(key)), money(m))));
}

function assignTempo(moves, view, run) {
  const ix = boardIndex(view.state.board);
  return h("div", { class: "m-group", dataset: { kind: "assign_tempo" } },
    h("h3", { class: "group-title" }, t("metro.kind.assign_tempo")),
    h("p", { class: "hint" }, t("metro.move.assignHint")),
    h("div", { class: "m-tiles lines" }, moves.map((m) => tile(view, ix, m, run))));
}

// --- the train phase -----------------------------------------------------------------------------

// What the run will do: per train its stops and every payout; then the button.
export function previewList(view) {
  const st = view.state;
  const pv = st.preview;
  if (!pv) return null;
  const ix = boardIndex(st.board);
  const trains = pv.trains || [];
  const income = (pv.owner_income || []).map((y, seat) => ({ y, seat })).filter((x) => x.y);
  return h("div", { class: "m-preview-list", testid: "train-preview" },
    trains.length ? null : h("p", { class: "muted" }, t("metro.trains.none")),
    st.trains_stay ? h("p", { class: "m-note m-trains-stay", testid: "trains-stay" }, t("metro.trains.stay")) : null,
    h("ol", { class: "m-trains-list" }, trains.map((tr) => h("li", { class: "m-train-item",
      testid: `preview-${tr.line}${tr.vehicle_index ? "-2" : ""}`,
      dataset: { line: tr.line, payouts: String(tr.payouts.length), vehicle: tr.vehicle || "train" } },
    h("div", { class: "m-train-line" }, lineBadge(st, tr.line),
      tr.vehicle && tr.vehicle !== "train" ? h("span", { class: `m-vehicle-tag ${tr.vehicle}` },
        t(`metro.lines.vehicleShort.${tr.vehicle}`), tr.vehicle_index ? " 2" : " 1") : null,
      h("span", {}, tr.path.length
        ? t("metro.trains.path", { from: tr.from, to: tr.path[tr.path.length - 1].stop, n: tr.path.length,
          station: stationName(ix, tr.path[tr.path.length - 1].station) })
        : t("metro.trains.stays", { from: tr.from })),
      tr.value_rise ? h("span", { class: "pays" }, t("metro.trains.rise", { value: num(tr.value_rise) })) : null),
    tr.payouts.length ? h("ul", { class: "m-payouts" }, tr.payouts.map((pay) => h("li", {
      testid: `payout-${pay.stop}${tr.vehicle_index ? "-2" : ""}`,
      dataset: { owner: String(pay.owner), toOwner: String(pay.to_owner), value: String(pay.value), bonus: String(bonusOf(st, pay)) } },
    seatDot(st, pay.owner), " ", payoutText(st, tr.line, pay, ix)))) : null,
    tr.leaves ? h("p", { class: "m-note" }, t("metro.trains.leaves")) : null,
    tr.riders.length ? h("p", { class: "m-note" }, t("metro.trains.riders", { names: tr.riders.map((p) => seatName(st, p)).join(", ") })) : null))),
    income.length ? h("p", { class: "m-income", testid: "owner-income" }, t("metro.trains.income"), " ",
      income.map(({ y, seat }) => h("span", { class: "m-income-item" }, seatDot(st, seat), " ", yen(y)))) : null,
    (pv.boarding || []).length ? h("p", { class: "m-note" }, t("metro.trains.boarding", {
      list: pv.boarding.map((b) => `${seatName(st, b.seat)}: ${b.line} ${stationName(ix, b.station)}`).join("; ") })) : null);
}

function runTrains(moves, view, run) {
  // A computer first in order does not run the trains by itself while people play: they look at
  // the preview, then someone taps.
  // The button before the list: with twelve trains the list is long, and the button stays in reach.
  const bot = moves.find((m) => view.bots.includes(m.move.player));
  return h("div", { class: "m-run" },
    h("h3", { class: "group-title" }, t("metro.trains.title")),
    bot ? h("p", { class: "hint", testid: "run-held" }, t("metro.trains.held", { name: seatName(view.state, bot.move.player) })) : null,
    h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, "primary m-run-btn",
      h("span", { class: "move-label" }, t("metro.kind.run_trains"))))),
    previewList(view));
}

// A rider or a meeple at a station decides: where the train stands, what it costs.
function decisionHead(view) {
  const st = view.state;
  const run = st.train_run;
  if (!run || !run.line) return null;
  const line = st.lines.find((l) => l.letter === run.line);
  const ix = boardIndex(st.board);
  const veh = line ? vehiclesOf(line).find((v) => (v.vehicle || 0) === (run.vehicle || 0)) : null;
  const stop = veh ? veh.stop : "";
  const circle = stop ? ix.stopCircle.get(stop) : null;
  return h("p", { class: "m-decision", testid: "train-decision" }, lineBadge(st, run.line), " ",
    t(run.decision === "board" ? "metro.trains.mayBoard" : "metro.trains.mayAlight",
      { name: run.deciding !== null ? seatName(st, run.deciding) : "", stop,
        station: circle ? stationName(ix, circle.station) : "" }));
}

function boardMoves(moves, view, run) {
  return h("div", { class: "m-group" }, decisionHead(view),
    h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, "m-wide",
      h("span", { class: "move-label" }, t("metro.move.board", { line: m.move.args.line })), money(m)))));
}

function alightMoves(moves, view, run) {
  const st = view.state;
  const head = st.phase === "trains" ? decisionHead(view) : null;
  return h("div", { class: "m-group" }, head, fieldMoves("metro.kind.alight")(moves, view, run));
}

function bidMoves(moves, view, run) {
  return h("div", { class: "m-group" }, h("h3", { class: "group-title" }, t("metro.move.bidTitle")),
    h("p", { class: "hint" }, t("metro.move.bidHint")),
    h("div", { class: "m-tiles bids" }, moves.map((m) => moveButton(m, run, "move-tile m-tile",
      h("span", { class: "tile-label" }, yen(m.move.args.amount))))));
}

const cards = (moves, view, run) => cardGroups(moves, view, run);

// Every builder wraps its nodes so that picks and candidates show on them.
function marked(fn) {
  return (moves, view, run) => {
    const out = fn(moves, view, run);
    const box = h("div", { class: "m-moves" }, out);
    return marker(box, view);
  };
}

// A kind no builder here names (a variant's card action): grouped by card action like the others.
export const cardMoves = marked(cards);

export const moveBuilders = Object.fromEntries(Object.entries({
  place: fieldMoves("metro.kind.place"),
  walk: fieldMoves("metro.kind.walk"),
  ride_on: simple("metro.kind.ride_on"),
  alight: alightMoves,
  move: cards, station: cards, station_swap: cards, invest: cards, start: cards, tempo: cards, bicycle: cards,
  discount: cards, bid_bonus: cards, loan: cards, repay: cards, speculate: cards, action_disc: cards, card: cards,
  sell: cards, copy: cards, invest_disc: cards,
  assign_tempo: assignTempo,
  pass: simple("metro.kind.pass"),
  run_trains: runTrains,
  board: boardMoves,
  skip: simple("metro.kind.skip"),
  bid: bidMoves,
}).map(([k, fn]) => [k, marked(fn)]));
