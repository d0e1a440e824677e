// Numbers the table types in: the chance's `typed` entries (engine.Typed), beside the outcomes it
// picks from. A game played beside the companion ends with its scores (one box per seat, the
// players' names beside them); a hit deals more damage than the buttons offer (one box). The
// bounds come with the entry (`min`, `max`), so a number out of them, a blank or a fraction is
// refused in words on the page before anything is sent; a refusal of the server is its toast.
//   typedEntries(view, act) -> [panel] for the table view (none without `view.chance.typed`)
// Test ids: `typed-<kind>[-<base values>]` on the panel, `<that>-input-<i>` per box (i: the seat,
// or 0), `<that>-confirm`, `<that>-error`.
import { h, island } from "./dom.js";
import { t, lookup, num, humanize, drinkName } from "./i18n.js";
import { seatName } from "./values.js";
import { busy } from "./pickers.js";

// What was typed, kept while the view redraws (a websocket update must not wipe a half-typed
// sheet): panel test id -> the boxes' texts. A new chance (another round, another drink) starts
// from blank boxes, since its test id or its outcomes differ.
const typed = new Map();

function entryId(entry) {
  const vals = Object.values(entry.base || {}).flat(Infinity);
  return `typed-${entry.kind}${vals.length ? `-${vals.join("-")}` : ""}`;
}

// The entry's title, its slots filled from its fixed args (a hit's drink and the party hit).
function title(view, entry) {
  const base = entry.base || {};
  const params = {};
  if (typeof base.drink === "string") params.drink = drinkName(base.drink);
  if (Number.isInteger(base.seat)) params.seat = seatName(view.state, base.seat);
  const raw = lookup("typed", entry.kind, view.game);
  return raw ? raw.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m)) : humanize(entry.kind);
}

// The boxes' labels: the players' names, or the one amount.
function labels(view, entry) {
  return entry.per_seat ? view.state.players.map((p) => seatName(view.state, p.seat)) : [t("typed.amount")];
}

// Each box read as a whole number within the bounds; the first problem in words, or the numbers.
export function readTyped(texts, names, { min, max }) {
  const values = [];
  for (let i = 0; i < names.length; i += 1) {
    const raw = String(texts[i] ?? "").trim();
    const name = names[i];
    if (raw === "") return { error: t("typed.bad.empty", { name }) };
    if (!/^-?\d+$/.test(raw)) return { error: t("typed.bad.whole", { name }) };
    const value = Number(raw);
    if (value < min || value > max) return { error: t("typed.bad.range", { name, min: num(min), max: num(max) }) };
    values.push(value);
  }
  return { values };
}

function entryPanel(view, act, entry, key) {
  const id = entryId(entry);
  const names = labels(view, entry);
  const texts = typed.get(key + id) || names.map(() => "");
  typed.set(key + id, texts);
  const error = h("p", { class: "typed-error", testid: `${id}-error`, role: "alert", hidden: true });
  const say = (words) => { error.textContent = words || ""; error.hidden = !words; };
  const boxes = names.map((name, i) => {
    const input = h("input", { type: "number", inputmode: "numeric", step: "1", min: String(entry.min),
      max: String(entry.max), testid: `${id}-input-${i}`, "aria-label": name,
      oninput: (e) => { texts[i] = e.target.value; say(""); } });
    // What was typed goes in as the box's value, not as an attribute: a view that changes nothing
    // here finds the section the same (dom.redraw) and keeps it, the cursor in its box.
    input.value = texts[i];
    return h("label", { class: "typed-row" }, h("span", { class: "typed-name" }, name), input);
  });
  const confirm = h("button", { class: "big primary", testid: `${id}-confirm`, onclick: () => busy(confirm, async () => {
    const read = readTyped(texts, names, entry);
    if (read.error) { say(read.error); return; }
    const value = entry.per_seat ? read.values : read.values[0];
    await act.move({ kind: entry.kind, player: "chance", args: { ...(entry.base || {}), [entry.arg]: value } });
    typed.delete(key + id);
  }) }, t("typed.confirm"));
  return island(h("section", { class: "picker typed-entry", testid: id, dataset: { kind: entry.kind } },
    h("h3", {}, title(view, entry)),
    h("p", { class: "hint" }, t("typed.hint", { min: num(entry.min), max: num(entry.max) })),
    h("div", { class: "typed-boxes" }, boxes), error, h("div", { class: "confirm-row" }, confirm)));  // (its closures hold its parts)
}

export function typedEntries(view, act) {
  const c = view.chance;
  if (!c || c.kind !== "choice" || !Array.isArray(c.typed) || !c.typed.length || view.question) return [];
  const key = `${view.state.round ?? ""}:${view.state.phase}:${JSON.stringify(c.outcomes.map((o) => o.move))}:`;
  for (const kept of typed.keys()) if (!kept.startsWith(key)) typed.delete(kept);  // another chance's: gone
  return c.typed.map((entry) => entryPanel(view, act, entry, key));
}
