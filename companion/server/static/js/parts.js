// Pieces of the view every game shares, on the table and the phone: who acts, the tower, the
// head of a player's place, the end of the game.
import { h } from "./dom.js";
import { t, tFor, yen, joinNames, phaseName } from "./i18n.js";
import { drinkSvg, crateSvg } from "./drinks.js";
import { seatName, fieldList, perSeatKeys, seatTable, blank } from "./values.js";
import { simulatedDevices } from "./devices.js";

export function drinkRow(ids, { cls = "", testid, empty = t("result.none"), mark = null } = {}) {
  return h("div", { class: `drinks ${cls}`.trim(), testid },
    ids && ids.length ? ids.map((d) => (mark && mark(d)) || drinkSvg(d)) : h("span", { class: "muted" }, empty));
}

export function yenEl(value, testid, cls = "yen") {
  return h("span", { class: cls, testid, dataset: { value: String(value) } }, yen(value));
}

export function phaseText(state) {
  return phaseName(state.phase, state.game);
}

export function roundText(state) {
  if (state.round === undefined || state.round === null) return "";
  return state.rounds ? t("round", { round: state.round, rounds: state.rounds }) : t("roundOnly", { round: state.round });
}

// Who the game waits for: [{actor, secret_for}] (a bare seat or "chance" is accepted too).
export function toAct(state) {
  return (state.to_act || []).map((a) => (a !== null && typeof a === "object" ? a : { actor: a, secret_for: null }));
}

export function actingSeats(state) {
  const seats = toAct(state).map((a) => (a.actor === "chance" ? a.secret_for : a.actor));
  return new Set(seats.filter((a) => a !== null && a !== undefined));
}

export function simBanner(view) {
  // A game that throws nothing into the tower (TOKYO METRO) has no tower to simulate.
  if (!view.simulated || view.tower === false) return null;
  const sims = simulatedDevices(); // "camera" | "sensors" | "both" | null: they read the simulated drops
  return h("div", { class: "banner sim", testid: "simulated-banner", role: "note", dataset: { devices: sims || "none" } },
    t(sims ? `dev.simBanner.${sims}` : "sim.banner"));
}

// Who throws into the tower: the game's thrower, else whose turn it is, else the start player.
function throwerName(st) {
  if (Number.isInteger(st.thrower)) return seatName(st, st.thrower);
  if (Number.isInteger(st.turn)) return seatName(st, st.turn);
  const starter = (st.players || []).find((p) => p.start);
  return starter ? starter.name : null;
}

// Who the game waits for, in words (for the table, or for a phone when `me` is a seat).
export function waitingText(view, me = null) {
  const st = view.state;
  if (view.over) return phaseName("over");
  const list = toAct(st);
  const first = list[0];
  if (!first) return t("act.none");
  const nameOf = (seat) => seatName(st, seat);
  if (first.actor === "chance") {
    if (first.secret_for !== null && first.secret_for !== undefined) {
      if (me === first.secret_for) return t("pick.secret");
      const bot = view.bots.includes(first.secret_for);
      return t(bot ? "act.waitBotSecret" : "act.waitSecret", { name: nameOf(first.secret_for) });
    }
    const drop = (view.chance && view.chance.kind === "drop") || st.phase === "drop";
    if (drop && me === null) {
      const name = throwerName(st);
      return name ? t("act.throw", { name }) : tFor(view.game, "act.throwAny");
    }
    return t("act.waitTable");
  }
  const actors = list.map((a) => a.actor).filter((a) => a !== "chance");
  if (me !== null && actors.includes(me)) return t("act.yourTurn");
  // A secret move (a sealed bid) is made on the player's own phone, never on the table.
  const humans = actors.filter((a) => !view.bots.includes(a));
  // (A spectator is offered no move at all: for them the table's own turns are still the table's.)
  const spectator = view.role === "spectator";
  if (me === null && !spectator && humans.length && humans.every((a) => !view.moves.some((m) => m.move.player === a))) {
    return t("act.onPhone", { names: joinNames(humans.map(nameOf)) });
  }
  if (actors.length > 1) return t("act.waitMany", { names: joinNames(actors.map(nameOf)) });
  if (view.bots.includes(first.actor)) {
    // A computer's move held for a person's tap (the trains it would run): the table taps it.
    const held = me === null && view.moves.some((m) => m.move.player === first.actor);
    return t(held ? "act.botHeld" : "act.waitBot", { name: nameOf(first.actor) });
  }
  return me !== null ? t("act.waitOther", { name: nameOf(first.actor) }) : t("act.who", { name: nameOf(first.actor) });
}

// The head of a player's place: name, crate (start player), computer, acting now.
export function playerHead(p, view, acting) {
  return h("header", { class: "player-head" },
    h("span", { class: "player-name" }, p.name),
    p.start ? h("span", { class: "start-mark", title: t("player.startPlayer") }, crateSvg()) : null,
    view.bots.includes(p.seat) ? h("span", { class: "tag" }, t("player.computer")) : null,
    acting ? h("span", { class: "tag tag-acting" }, t("player.acting")) : null);
}

export function isActing(p, view) {
  return !view.over && (actingSeats(view.state).has(p.seat) || p.turn === true);
}

// How many columns the players take on a wide screen.
export function playersGrid(view, cards, cls = "players") {
  const n = view.state.players.length;
  return h("div", { class: cls, style: `--cols: ${n === 4 ? 2 : Math.min(Math.max(n, 1), 3)}` }, cards);
}

// What is stuck in the tower now: always on screen (for games with a tower).
export function stuckPanel(state, extra = null) {
  // (METRO DRINKS keeps the tower with its drinks: `drinks.tower`.)
  const stuck = state.tower ? state.tower.stuck : state.drinks ? state.drinks.tower : null;
  if (!Array.isArray(stuck)) return null;
  return h("section", { class: "panel stuck-panel" },
    h("h2", {}, t("stuck.title")),
    drinkRow(stuck, { cls: "stuck", testid: "stuck", empty: t("stuck.none") }),
    extra);
}

// The final standings: what each seat ends with. Games that settle money at the end say so in
// their payouts or their `final` (totals); otherwise it is the yen in hand.
function finalScores(view) {
  const st = view.state;
  const n = st.players.length;
  const pay = view.payouts || {};
  const fin = st.final || {};
  const arr = (v) => (Array.isArray(v) && v.length === n && v.every((x) => typeof x === "number") ? v : null);
  const scores = arr(pay.totals) || arr(fin.totals) || arr(pay.final_yen) || arr(fin.yen)
    || (pay.final ? arr(pay.projected) : null) || arr(pay.yen);
  if (scores) return { scores, money: true };
  if (st.players.every((p) => typeof p.yen === "number")) return { scores: st.players.map((p) => p.yen), money: true };
  return { scores: null, money: false };
}

export function gameOverPanel(view, { extra = null, titleKey = "over.standings" } = {}) {
  const st = view.state;
  const winnerSeats = st.winners || (view.payouts && view.payouts.winners) || [];
  const winners = winnerSeats.map((s) => seatName(st, s));
  const { scores } = finalScores(view);
  const order = st.players.map((p, i) => ({ p, score: scores ? scores[i] : null }));
  order.sort((a, b) => (winnerSeats.includes(b.p.seat) - winnerSeats.includes(a.p.seat)) || ((b.score ?? 0) - (a.score ?? 0)));
  return h("section", { class: "panel game-over", testid: "game-over" },
    h("h2", {}, t("over.title")),
    view.ended ? h("p", { class: "muted", testid: "ended" }, t("over.ended")) : null,
    h("p", { class: "winners", testid: "winners" }, winners.length
      ? t(winners.length > 1 ? "over.winners" : "over.winner", { names: joinNames(winners) }) : t("over.none")),
    h("h3", {}, t(titleKey)),
    h("ol", { class: "final" }, order.map(({ p, score }) =>
      h("li", { class: winnerSeats.includes(p.seat) ? "winner" : "" }, h("span", {}, p.name),
        score === null ? h("span", { class: "muted", testid: `final-${p.seat}` }, "—") : yenEl(score, `final-${p.seat}`)))),
    extra);
}

// The rest of a game's `final` (bonuses, reasons): a table by player and a few lines.
export function finalDetails(view) {
  const st = view.state;
  const fin = st.final;
  if (!fin || typeof fin !== "object") return null;
  const keys = perSeatKeys(fin, st.players.length).filter((k) => k !== "totals");
  const rest = Object.keys(fin).filter((k) => !keys.includes(k) && k !== "totals" && !blank(fin[k]));
  if (!keys.length && !rest.length) return null;
  return h("div", { class: "final-details" }, h("h3", {}, t("over.details")),
    fieldList(fin, rest, st), seatTable(fin, keys, st, { testid: "final-table" }));
}
