// What a move costs and pays, explained, and teach mode. The server sends each move's `why`
// ({key, params}: a catalogue text and what fills it, from the game's rules) and the view's
// `rules` (the rule-book section each kind of move offered follows); this module words them.
// A seat's own phone may get a fuller `why` than the table (what its secret card adds): the
// server decides that, this module only shows what it was sent.
//
// Teach mode (a toggle on the table view and on the phone, remembered per device): each kind of
// move offered gets a short note in the project's own words (`teach.<game>.<kind>`) with the
// rule-book section it follows.
import { h } from "./dom.js";
import { t, template, yen, num, cardName, drinkName, onLangChange, wordsOf } from "./i18n.js";
import { isMoneyKey, textOf } from "./values.js";
import { isCard, isItem } from "./drinks.js";

const STORE_KEY = "ttc.teach";
const listeners = [];
let teaching = (() => {
  try { return localStorage.getItem(STORE_KEY) === "1"; } catch (_) { return false; }
})();

export function teachOn() { return teaching; }

function setTeach(on) {
  teaching = on;
  try { localStorage.setItem(STORE_KEY, on ? "1" : "0"); } catch (_) { /* storage may be off */ }
  for (const fn of listeners) fn(on);
}

// The toggle (for the top bar): pressing it redraws through `onChange`.
export function teachToggle(onChange) {
  listeners.push(onChange);
  const button = h("button", { type: "button", class: "teach-toggle", testid: "teach-toggle",
    onclick: () => setTeach(!teaching) });
  const draw = () => {
    button.setAttribute("aria-pressed", teaching ? "true" : "false");
    button.title = t("teach.toggleHint");
    button.textContent = t("teach.toggle");
  };
  listeners.push(draw);
  onLangChange(draw);
  draw();
  return button;
}

// A param as a person reads it: money in yen, cards and drinks by name, ids through the catalogue.
function shown(key, value) {
  if (typeof value === "number") return isMoneyKey(key) ? yen(value) : num(value);
  if (typeof value !== "string") return String(value);
  if (isCard(value)) return cardName(value);
  if (isItem(value)) return drinkName(value);
  return /^[A-Z0-9]{1,3}$/.test(value) ? value : textOf(value);  // a line's letter stays as it is
}

// The words of a move's `why` (null when it has none, or no catalogue holds its key).
export function whyText(why) {
  if (!why || !why.key || template(why.key) === null) return null;
  const raw = why.params || {};
  const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, shown(k, v)]));
  // The plural form follows `count` (or `n`), a number.
  const count = typeof raw.count === "number" ? raw.count : raw.n;
  return t(why.key, { ...params, count, n: params.n });
}

// Under a move button's figures: why it costs and pays them.
export function whyLine(m) {
  const text = m.showWhy === false ? null : whyText(m.why);
  return text ? h("span", { class: "why", testid: "why" }, text) : null;
}

// The moves of one kind: the explanation most of them share is said once above them (a bid's
// "paid only if it is the highest", on twenty amounts); a move whose explanation differs (the
// card that is your secret card, a station with more stops) says its own on its button. Marks
// the moves so that their buttons (moves.js moveButton) know which; returns the shared note.
export function sharedWhy(moves) {
  const texts = moves.map((m) => whyText(m.why));
  const counts = new Map();
  for (const x of texts) if (x !== null) counts.set(x, (counts.get(x) || 0) + 1);
  let shared = null;
  for (const [x, n] of counts) if (n > 1 && (shared === null || n > counts.get(shared))) shared = x;
  moves.forEach((m, i) => { m.showWhy = texts[i] !== shared; });
  return shared === null ? null : h("p", { class: "why why-shared", testid: `why-${moves[0].move.kind}` }, shared);
}

// Teach mode's note over a kind of move (or a chance outcome to enter): what it does in the
// game, and the rule-book section it follows. Null when teach mode is off or no text is known.
export function teachNote(kind, view) {
  if (!teaching || !kind) return null;
  const text = template(`teach.${wordsOf(view.game)}.${kind}`);
  if (text === null) return null;
  const rule = (view.rules || {})[kind];
  return h("aside", { class: "teach-note", testid: `teach-${kind}` },
    h("p", { class: "teach-text" }, text),
    rule ? h("p", { class: "teach-rule", testid: `teach-rule-${kind}` }, t("teach.rule", { rule })) : null);
}

// Teach mode's note over the chance outcome this viewer is asked to enter (a drop, a card).
export function teachChance(view) {
  const c = view.chance;
  if (!teaching || !c) return null;
  return teachNote(c.kind === "drop" ? c.move_kind : ((c.outcomes || [])[0] || { move: {} }).move.kind, view);
}
