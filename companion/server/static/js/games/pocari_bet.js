// POCARI BET: what the generic renderer would not know. The draft grid, invest and declare
// buttons; the start player, turned-up cards and secret card pickers; a player's stake and
// declared card; the turned-up cards and the set-aside 7th drink; the round's payout table.
import { h } from "../dom.js";
import { t, yen, cardName } from "../i18n.js";
import { drinkSvg, cardSvg, cardBackSvg, deckSvg, crateSvg, COLOURS, SHAPES } from "../drinks.js";
import { drinkRow, yenEl, playerHead, isActing, roundText, phaseText } from "../parts.js";
import { moveButton } from "../moves.js";
import { bigButton, busy } from "../pickers.js";
import { me } from "./generic.js";
import { namedCard } from "../cardface.js";
import { stackOnPhone } from "../stack.js";

// --- moves ------------------------------------------------------------------------------------

function money(m) {
  return h("span", { class: "money" },
    m.cost ? h("span", { class: "cost" }, t("money.cost", { yen: yen(m.cost) })) : null,
    h("span", { class: m.pays_up_to ? "pays" : "pays none" },
      m.pays_up_to ? t("money.pays", { yen: yen(m.pays_up_to) }) : t("money.paysNothing")));
}

function drawButtons(moves, view, run) {
  return h("div", { class: "move-row" }, moves.map((m) => {
    const deck = m.move.args.deck;
    return moveButton(m, run, "move-draw", deckSvg(deck),
      h("span", { class: "move-label" }, t(`move.draw.${deck}`)),
      h("span", { class: "muted" }, t("pocari.deckLeft", { n: view.state.decks[deck] })));
  }));
}

// Draft picks as a 6 x 6 grid (colour rows, shape columns); taken drinks leave a gap.
function pickGrid(moves, view, run) {
  const byDrink = new Map(moves.map((m) => [m.move.args.drink, m]));
  const cells = [];
  for (const c of COLOURS) {
    for (const sh of SHAPES) {
      const m = byDrink.get(`${c}-${sh}`);
      cells.push(m ? moveButton(m, run, "move-pick", drinkSvg(m.move.args.drink))
        : h("span", { class: "pick-gap", "aria-hidden": "true" }));
    }
  }
  return [h("p", { class: "hint" }, t("pocari.pickHint")), draftOrder(view.state), h("div", { class: "pick-grid" }, cells)];
}

// The snake draft in words: the turn order there and back, each name in the order it picks,
// the pick now marked, the picks made struck through.
function draftOrder(state) {
  const draft = state.draft;
  if (!draft || !draft.order) return null;
  const name = (seat) => (state.players[seat] || {}).name || "";
  return h("div", { class: "draft-order", testid: "draft-order" },
    h("p", { class: "draft-rule" }, t("pocari.snake", { first: name(draft.order[0]) })),
    h("ol", { class: "draft-picks" }, draft.order.map((seat, k) => h("li", {
      class: k < draft.picks ? "done" : k === draft.picks ? "now" : "",
      "aria-current": k === draft.picks ? "step" : null, dataset: { seat: String(seat) } }, name(seat)))));
}

function investButtons(moves, view, run) {
  return h("div", { class: "move-row" }, moves.map((m) => moveButton(m, run, "move-invest",
    h("span", { class: "move-label" }, t("move.invest", { amount: yen(m.move.args.amount) })), money(m))));
}

// Declaring: 12 cards, the six colours (swatches) over the six shapes (silhouettes).
function declareCards(moves, view, run) {
  const byKind = new Map(moves.map((m) => [m.move.args.kind, m]));
  const row = (ids) => h("div", { class: "card-grid" }, ids.filter((k) => byKind.has(k)).map((k) => {
    const m = byKind.get(k);
    return moveButton(m, run, "move-card", cardSvg(k),
      h("span", { class: "card-name" }, cardName(k)),
      h("span", { class: m.pays_up_to ? "pays" : "pays none" }, m.pays_up_to ? t("money.upTo", { yen: yen(m.pays_up_to) }) : t("player.noStake")));
  }));
  return [h("p", { class: "hint" }, t("pocari.declareHint")), row(COLOURS), row(SHAPES)];
}

// --- chance at the table: who starts, the turned-up cards, a secret card --------------------

function startPicker(view, outcomes, act) {
  return h("div", { class: "picker" }, h("h2", {}, t("pick.start_player")),
    h("div", { class: "move-row" }, outcomes.map((o) => {
      const seat = o.move.args.seat;
      return bigButton(t("chance.start_player", { seat: view.state.players[seat].name }),
        `chance-start_player-${seat}`, () => act.move(o.move), "move");
    })));
}

function turnUpPicker(view, outcomes, ui, act) {
  const colours = COLOURS.filter((c) => outcomes.some((o) => o.move.args.colour === c));
  const shapes = SHAPES.filter((sh) => outcomes.some((o) => o.move.args.shape === sh));
  const toggle = (field, id) => h("button", {
    class: `move move-card${ui[field] === id ? " selected" : ""}`, testid: `turnup-${field}-${id}`,
    "aria-pressed": ui[field] === id ? "true" : "false",
    onclick: () => { ui[field] = ui[field] === id ? null : id; act.rerender(); },
  }, cardSvg(id), h("span", { class: "card-name" }, cardName(id)));
  const ready = ui.colour && ui.shape;
  const confirm = bigButton(t("question.yes"), "turnup-confirm",
    () => act.move({ kind: "turn_up", player: "chance", args: { colour: ui.colour, shape: ui.shape } }), "primary");
  confirm.disabled = !ready;
  return h("div", { class: "picker" }, h("h2", {}, t("pick.turn_up")),
    h("h3", {}, t("pick.turnUpColour")), h("div", { class: "card-grid" }, colours.map((c) => toggle("colour", c))),
    h("h3", {}, t("pick.turnUpShape")), h("div", { class: "card-grid" }, shapes.map((sh) => toggle("shape", sh))),
    h("div", { class: "confirm-row" },
      ready ? [h("span", { class: "label" }, t("pick.seventh")), drinkSvg(`${ui.colour}-${ui.shape}`, "drink-lg")] : null,
      confirm));
}

// The player enters the card they drew (on their phone; the table only for a computer's card).
function secretPicker(view, outcomes, act) {
  return h("div", { class: "picker secret-picker" }, h("h2", {}, t("pick.secret")),
    h("p", { class: "hint" }, t("pick.secretHint")),
    h("div", { class: "card-grid" }, outcomes.map((o) => {
      const card = o.move.args.card;
      const b = h("button", { class: "move move-card", testid: `enter-secret-${card}`, onclick: () => busy(b, () => act.move(o.move)) },
        cardSvg(card), h("span", { class: "card-name" }, cardName(card)));
      return b;
    })));
}

function choice(view, outcomes, ui, act) {
  const kind = outcomes[0].move.kind;
  if (kind === "start_player") return startPicker(view, outcomes, act);
  if (kind === "turn_up") return turnUpPicker(view, outcomes, ui, act);
  if (kind === "secret_card") return secretPicker(view, outcomes, act);
  return null;
}

// --- players, the turned-up cards, the round's result ----------------------------------------

// A player's place at the table. Only a face-down card shows that a secret card is held.
function playerCard(p, view, { compact = false } = {}) {
  const acting = isActing(p, view);
  return h("section", { class: `player${acting ? " acting" : ""}${compact ? " compact" : ""}`, testid: `player-${p.seat}`,
    "aria-current": acting ? "true" : null },
  playerHead(p, view, acting),
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
function faceUpPanel(state) {
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

function side(view) {
  return view.over ? [] : [faceUpPanel(view.state)];
}

// The 7th drink, wherever it appears in the drop: ringed, with a "7th" badge.
function seventhMark(seventh) {
  return (d) => (d === seventh ? h("span", { class: "seventh-mark", title: t("result.seventh") },
    drinkSvg(d), h("span", { class: "seventh-badge", "aria-hidden": "true" }, t("result.seventhMark"))) : null);
}

function seventhLine(state, last) {
  if (!last.seventh) return null;
  const starter = state.players[last.start_player];
  return h("div", { class: `result-line seventh-line${last.seventh_out ? " lost" : ""}`, testid: "result-seventh",
    dataset: { drink: last.seventh, out: String(Boolean(last.seventh_out)) } },
  h("span", { class: "label" }, t("result.seventh")),
  h("div", { class: "seventh-verdict" }, seventhMark(last.seventh)(last.seventh),
    h("span", { class: last.seventh_out ? "forfeit-text" : "muted" }, last.seventh_out
      ? t("result.seventhOut", { name: starter ? starter.name : "" }) : t("result.seventhIn"))));
}

// The latest drop of the tower and what it paid each player.
function result(view, { compact = false } = {}) {
  const state = view.state;
  const last = state.last_round;
  if (!last) return null;
  const drop = last.drop || { thrown: [], out: [], freed: [], stuck: [] };
  const mark = seventhMark(last.seventh);
  const line = (key, ids, cls) => h("div", { class: `result-line ${cls}` },
    h("span", { class: "label" }, t(key)), drinkRow(ids, { testid: `result-${cls}`, mark }));
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
    seventhLine(state, last),
    h("h3", {}, t("result.pay.title")),
    h("div", { class: "payouts-wrap" }, (compact ? (x) => x : stackOnPhone)(h("table", { class: "payouts" },
      h("thead", {}, h("tr", {}, head.map(([key, cls]) => h("th", { scope: "col", class: cls }, t(key))))),
      h("tbody", {}, rows)))));  // the full table row by row on a narrow screen; a phone's short one fits
}

// --- a player's phone: my money and stake, my secret card, my drinks -----------------------

function phoneMe(view) {
  const st = view.state;
  const mine = me(view);
  const last = st.last_round;
  return h("section", { class: "panel me", testid: "me" },
    h("div", { class: "me-info" },
      h("div", { class: "me-line" },
        yenEl(mine.yen, "my-yen", "yen my-yen"),
        mine.start ? h("span", { class: "start-mark", title: t("player.startPlayer") }, crateSvg()) : null),
      h("div", { class: "me-line small" }, h("span", { class: "round", testid: "round" }, roundText(st))),
      h("div", { class: "me-line small" }, h("span", { class: "phase", testid: "phase", dataset: { phase: st.phase } }, phaseText(st))),
      mine.stake ? h("div", { class: "me-line small" }, h("span", { class: "label" }, t("player.stake")),
        yenEl(mine.stake, "my-stake", "stake"), mine.declared ? cardSvg(mine.declared, "card-sm") : null) : null,
      last && last.round === st.round - 1 && last.paid[mine.seat]
        ? h("p", { class: "last-paid" }, t("phone.lastPaid", { yen: yen(last.paid[mine.seat]) })) : null),
    // My secret card, large: only this page (with my token) ever receives it.
    h("div", { class: "secret-box", testid: "secret-card", dataset: { card: mine.secret || "" } },
      h("span", { class: "label" }, t("phone.secretTitle")),
      mine.secret ? namedCard(mine.secret)
        : h("p", { class: "muted no-card", testid: "no-card" }, t(view.over ? "phone.secretOver" : "phone.noCard"))));
}

function phoneExtra(view) {
  return [h("section", { class: "panel my-hand" }, h("h2", {}, t("phone.myHand")),
    drinkRow(me(view).hand, { testid: "my-hand", empty: t("result.none") }))];
}

export default {
  playerCard, side, result, choice, phoneMe, phoneExtra,
  secretChoice: secretPicker,
  overExtra: () => null,
  overTitle: "over.final",
  moveBuilders: { draw: drawButtons, pick: pickGrid, invest: investButtons, declare: declareCards },
};
