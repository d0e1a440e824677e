// Pieces of the view shared by the table and the phone: players, cards, tower, results.
import { h } from "./dom.js";
import { t, yen, joinNames } from "./i18n.js";
import { drinkSvg, cardSvg, cardBackSvg, crateSvg } from "./drinks.js";

export function drinkRow(ids, { cls = "", testid, empty = t("result.none") } = {}) {
  return h("div", { class: `drinks ${cls}`.trim(), testid },
    ids && ids.length ? ids.map((d) => drinkSvg(d)) : h("span", { class: "muted" }, empty));
}

export function yenEl(value, testid, cls = "yen") {
  return h("span", { class: cls, testid, dataset: { value: String(value) } }, yen(value));
}

export function phaseText(state) {
  return t(`phase.${state.phase}`);
}

export function roundText(state) {
  return t("round", { round: state.round, rounds: state.rounds });
}

export function actingSeats(state) {
  return new Set(state.to_act.map((a) => (a.actor === "chance" ? a.secret_for : a.actor)).filter((a) => a !== null && a !== undefined));
}

// Who the game waits for, in words (for the table, or for a phone when `me` is a seat).
export function waitingText(view, me = null) {
  const st = view.state;
  if (view.over) return t("phase.over");
  const first = st.to_act[0];
  if (!first) return t("act.none");
  const nameOf = (seat) => st.players[seat].name;
  if (first.actor === "chance") {
    if (first.secret_for !== null && first.secret_for !== undefined) {
      if (me === first.secret_for) return t("chance.secret");
      const bot = view.bots.includes(first.secret_for);
      return t(bot ? "act.waitBotSecret" : "act.waitSecret", { name: nameOf(first.secret_for) });
    }
    if (st.phase === "drop" && me === null) {
      const starter = st.players.find((p) => p.start);
      return t("act.throw", { name: starter ? starter.name : "" });
    }
    return t("act.waitTable");
  }
  if (me !== null && first.actor === me) return t("act.yourTurn");
  if (view.bots.includes(first.actor)) return t("act.waitBot", { name: nameOf(first.actor) });
  return me !== null ? t("act.waitOther", { name: nameOf(first.actor) }) : t("act.who", { name: nameOf(first.actor) });
}

// A player's place at the table. Only a face-down card shows that a secret card is held.
export function playerCard(p, view, { compact = false } = {}) {
  const acting = actingSeats(view.state).has(p.seat);
  const bot = view.bots.includes(p.seat);
  return h("section", { class: `player${acting ? " acting" : ""}${compact ? " compact" : ""}`, testid: `player-${p.seat}`,
    "aria-current": acting ? "true" : null },
  h("header", { class: "player-head" },
    h("span", { class: "player-name" }, p.name),
    p.start ? h("span", { class: "start-mark", title: t("player.startPlayer") }, crateSvg()) : null,
    bot ? h("span", { class: "tag" }, t("player.computer")) : null,
    acting ? h("span", { class: "tag tag-acting" }, t("player.acting")) : null),
  yenEl(p.yen, `player-${p.seat}-yen`),
  h("div", { class: "player-bets" },
    h("div", { class: "bet" }, h("span", { class: "label" }, t("player.stake")),
      p.stake ? yenEl(p.stake, `player-${p.seat}-stake`, "stake") : h("span", { class: "muted", testid: `player-${p.seat}-stake` }, t("player.noStake"))),
    h("div", { class: "bet" }, h("span", { class: "label" }, t("player.declared")),
      p.declared ? cardSvg(p.declared, "card-sm") : h("span", { class: "muted" }, t("player.noStake"))),
    p.has_secret ? h("div", { class: "bet" }, h("span", { class: "label" }, t("player.secret")), cardBackSvg("card-sm")) : null),
  compact ? null : drinkRow(p.hand, { cls: "hand", testid: `player-${p.seat}-hand`, empty: "" }));
}

// The two turned-up cards and the set-aside 7th drink.
export function faceUpPanel(state) {
  const [colour, shape] = state.face_up || [];
  return h("section", { class: "panel faceup", testid: "faceup" },
    h("h2", {}, t("faceup.title")),
    colour ? h("div", { class: "faceup-row" },
      cardSvg(colour), cardSvg(shape),
      h("div", { class: "seventh" },
        h("span", { class: "label" }, t("seventh.title")),
        state.seventh ? drinkSvg(state.seventh, "drink-lg") : null,
        state.seventh && !state.seventh_set_aside ? h("span", { class: "muted" }, t("seventh.stuck")) : null))
      : h("p", { class: "muted" }, t("faceup.none")));
}

// What is stuck in the tower now: always on screen.
export function stuckPanel(state, extra = null) {
  return h("section", { class: "panel stuck-panel" },
    h("h2", {}, t("stuck.title")),
    drinkRow(state.tower.stuck, { cls: "stuck", testid: "stuck", empty: t("stuck.none") }),
    extra);
}

// The latest drop of the tower and what it paid each player.
export function resultPanel(state, { compact = false } = {}) {
  const last = state.last_round;
  if (!last) return null;
  const drop = last.drop || { thrown: [], out: [], freed: [], stuck: [] };
  const line = (key, ids, cls) => h("div", { class: `result-line ${cls}` },
    h("span", { class: "label" }, t(key)), drinkRow(ids, { testid: `result-${cls}` }));
  const rows = state.players.map((p) => h("tr", { class: last.paid[p.seat] ? "won" : "" },
    h("th", { scope: "row" }, p.name, last.start_player === p.seat ? crateSvg("crate-xs") : null),
    compact ? null : h("td", { class: "col-stake" }, last.stakes[p.seat] ? yen(last.stakes[p.seat]) : t("player.noStake")),
    h("td", {}, last.declared[p.seat] ? cardSvg(last.declared[p.seat], "card-xs") : t("player.noStake")),
    h("td", { class: "num" }, `× ${last.matches[p.seat]}`),
    compact ? null : h("td", {}, last.secrets[p.seat] ? cardSvg(last.secrets[p.seat], "card-xs") : ""),
    compact ? null : h("td", {}, last.bonus[p.seat] ? t("result.yes") : ""),
    h("td", { class: "num paid" }, yenEl(last.paid[p.seat], `paid-${p.seat}`, "paid"),
      last.seventh_out && last.start_player === p.seat
        ? h("div", { class: "forfeit", testid: `forfeit-${p.seat}` }, t("result.forfeit")) : null)));
  const head = [["result.player"], compact ? null : ["result.stake", "col-stake"], ["result.declared"], ["result.matches", "num"],
    compact ? null : ["result.secret"], compact ? null : ["result.bonus"], ["result.paid", "num"]].filter((x) => x !== null);
  return h("section", { class: "panel result", testid: "round-result" },
    h("h2", {}, t("result.title", { round: last.round })),
    compact ? line("result.out", drop.out, "out") : [
      line("result.thrown", drop.thrown, "thrown"),
      line("result.out", drop.out, "out"),
      line("result.freed", drop.freed, "freed"),
      line("result.stuck", drop.stuck, "still"),
    ],
    h("h3", {}, t("result.pay.title")),
    h("div", { class: "payouts-wrap" }, h("table", { class: "payouts" },
      h("thead", {}, h("tr", {}, head.map(([key, cls]) => h("th", { scope: "col", class: cls }, t(key))))),
      h("tbody", {}, rows))));
}

export function gameOverPanel(view) {
  const st = view.state;
  const winners = (st.winners || []).map((s) => st.players[s].name);
  return h("section", { class: "panel game-over", testid: "game-over" },
    h("h2", {}, t("over.title")),
    h("p", { class: "winners", testid: "winners" },
      t(winners.length > 1 ? "over.winners" : "over.winner", { names: joinNames(winners) })),
    h("h3", {}, t("over.final")),
    h("ol", { class: "final" }, [...st.players].sort((a, b) => b.yen - a.yen).map((p) =>
      h("li", { class: st.winners.includes(p.seat) ? "winner" : "" }, h("span", {}, p.name), yenEl(p.yen, `final-${p.seat}`)))));
}
