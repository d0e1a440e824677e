// TOKYO METRO: the action cards. The columns of the display (face-up slots, the deck, the discard
// pile), a player's own cards, each card with its actions and their action spaces (filled with
// the discs of whoever took them). An action the player on this page can take is a button: one
// move makes it at once; several (where to walk, which station, which line) pick it, and the map
// and the move buttons narrow to it.
import { h } from "../dom.js";
import { t, yen, num } from "../i18n.js";
import { lineBadge, playerColour, seatName, inkOn, actionKey, initial } from "./common.js";
import { ui, listen, select, press } from "./ui.js";
import { STOCK_SET, stockColumn } from "./drinks.js";

// What an action does, short (on the card) and long (its title).
export function actionText(a, { long = false } = {}) {
  const key = `metro.${long ? "actionLong" : "action"}.${a.kind}`;
  const amount = a.amount ?? 0;
  return t(key, { n: num(amount), yen: yen(amount), count: amount });
}

function spaces(st, a) {
  return h("span", { class: "m-spaces", "aria-hidden": "true" }, Array.from({ length: a.spaces }, () => {
    const taken = a.taken_by !== null && a.taken_by !== undefined;
    const colour = taken ? playerColour(a.taken_by) : null;
    return h("span", { class: `m-space${taken ? " taken" : ""}`,
      style: taken ? `background:${colour};color:${inkOn(colour)}` : null },
    taken ? initial(seatName(st, a.taken_by)) : "");
  }));
}

function actionRow(view, card, a, { interactive }) {
  const st = view.state;
  const key = `${card.id}/${a.index}`;
  const moves = interactive ? view.moves.filter((m) => actionKey(m.move) === key) : [];
  const taken = a.taken_by !== null && a.taken_by !== undefined;
  const title = [actionText(a, { long: true }), t("metro.card.spaces", { n: a.spaces }),
    taken ? t("metro.card.takenBy", { name: seatName(st, a.taken_by) }) : ""].filter(Boolean).join(" · ");
  // OSAKA METRO: an action taken this round that the player may copy (their copy right) says so.
  const copied = moves.length > 0 && moves.every((m) => m.move.args && m.move.args.copy);
  const content = [h("span", { class: "m-action-text" }, actionText(a)), spaces(st, a),
    copied ? h("span", { class: "m-copy-chip", title: t("metro.copy.mayCopy") }, t("metro.copy.chip")) : null];
  if (!moves.length) {
    return h("div", { class: `m-action${taken ? " taken" : ""}`, title, dataset: { actionKey: key } }, content);
  }
  const b = h("button", { class: `m-action can${copied ? " copying" : ""}`, title, testid: `card-action-${card.id}-${a.index}`,
    dataset: { actionKey: key, moves: String(moves.length), copy: String(copied) },
    onclick: () => (moves.length === 1 ? press(moves[0].move) : select(key)) }, content);
  return b;
}

export function cardEl(view, card, { interactive = true, cls = "" } = {}) {
  const st = view.state;
  const colours = card.colours.map((l) => (st.lines.find((x) => x.letter === l) || {}).colour || "#888");
  return h("div", { class: `m-card ${cls}`.trim(), testid: `card-${card.id}`, dataset: { card: card.id } },
    h("div", { class: "m-card-head", style: `--c1:${colours[0]};--c2:${colours[1] || colours[0]}` },
      h("span", { class: "m-card-lines" }, card.colours.map((l) => lineBadge(st, l, { cls: "sm" }))),
      h("span", { class: "m-card-id" }, card.id),
      h("span", { class: "m-dots", title: t("metro.card.dots", { n: card.dots }) }, "•".repeat(card.dots))),
    h("div", { class: "m-card-actions" }, card.actions.map((a) => actionRow(view, card, a, { interactive }))));
}

// Mark the picked action on every card of the page.
function marker(root) {
  const draw = (at = root) => {
    for (const el of at.querySelectorAll("[data-action-key]")) {
      el.classList.toggle("selected", el.dataset.actionKey === ui.selected);
    }
  };
  draw();
  listen(draw, root);
}

// OSAKA METRO: who holds a copy right this round (a disc on a copy action): in a later turn they
// may take an action already taken this round.
function copyRights(st) {
  const rights = st.copy_rights || [];
  if (!rights.length) return null;
  return h("p", { class: "m-copy-rights", testid: "copy-rights" }, rights.map((r) => h("span", { class: "m-hold",
    dataset: { seat: String(r.seat), copy: r.copy } }, t("metro.copy.right", { name: seatName(st, r.seat), card: r.copy.split("/")[0] }))));
}

export function cardsPanel(view, { phone = false } = {}) {
  const st = view.state;
  if (!st.columns || !st.columns.length) return null;
  const acting = view.moves.length ? view.moves[0].move.player : null;
  const own = acting !== null ? (st.players.find((p) => p.seat === acting) || {}).cards || [] : [];
  const panel = h("section", { class: `panel metro-cards${phone ? " phone" : ""}`, testid: "action-cards" },
    h("h2", {}, t("metro.cards.title")),
    st.phase === "actions" && view.moves.some((m) => actionKey(m.move))
      ? h("p", { class: "hint" }, t("metro.cards.hint")) : null,
    copyRights(st),
    h("div", { class: "m-columns" }, st.columns.map((col) => col.set === STOCK_SET ? stockColumn(view, col)
      : h("div", { class: "m-column", testid: `column-${col.column}` },
      h("div", { class: "m-column-head" },
        h("span", { class: "m-card-lines" }, col.colours.map((l) => lineBadge(st, l, { cls: "sm" }))),
        h("span", { class: "muted m-deck", title: t("metro.cards.deckTitle") }, t("metro.cards.deck", { n: col.deck })),
        col.discard ? h("span", { class: "muted m-deck", title: t("metro.cards.discardTitle") },
          t("metro.cards.discard", { n: col.discard })) : null),
      col.slots.length ? col.slots.map((c) => cardEl(view, c)) : h("p", { class: "muted m-empty" }, t("metro.cards.empty")),
      col.discard_top ? h("div", { class: "m-discard" }, h("span", { class: "label" }, t("metro.cards.discardTop")),
        cardEl(view, col.discard_top, { interactive: false, cls: "discarded" })) : null))),
    own.length ? h("div", { class: "m-own" },
      h("h3", {}, t("metro.cards.own", { name: seatName(st, acting) })),
      h("div", { class: "m-own-cards" }, own.map((c) => cardEl(view, c)))) : null);
  marker(panel);
  return panel;
}
