// A move that names two things (a drink and a crate, a colour and a shape) as two short rows
// instead of a button for every pair: pick the first (a radio row; the last one picked is kept
// while the view redraws), then tap the second, which makes the move.
//   pairPicker(moves, run, { first: "drink", second: "crate", key, showFirst, showSecond, hint })
// `showFirst(value)` / `showSecond(value)` draw a value (a drink, a card, a number); `key` names
// the picker in test ids (`<key>-first-<value>`; the move buttons keep their usual test ids).
// `first` may also be a function of the move (the seat that makes it: whose crate a good fell from).
import { h, island } from "./dom.js";
import { moveButton } from "./moves.js";

const kept = new Map();   // key -> the first value last picked

export function pairPicker(moves, run, { first, second, key, showFirst, showSecond, hint = null, label = "" }) {
  const firstOf = typeof first === "function" ? first : (m) => m.move.args[first];
  const firsts = [...new Set(moves.map(firstOf))];
  let chosen = firsts.includes(kept.get(key)) ? kept.get(key) : firsts[0];
  const box = island(h("div", { class: "pair-picker", testid: key }));  // (its buttons redraw it)
  const draw = () => {
    const pick = (v) => h("button", { class: `pair-first${v === chosen ? " chosen" : ""}`, testid: `${key}-first-${v}`,
      role: "radio", "aria-checked": String(v === chosen),
      onclick: () => { chosen = v; kept.set(key, v); draw(); } }, showFirst(v));
    const seconds = moves.filter((m) => firstOf(m) === chosen)
      .map((m) => moveButton(m, run, "pair-second", showSecond(m.move.args[second])));
    box.replaceChildren(
      h("div", { class: "pair-row", role: "radiogroup", "aria-label": label }, firsts.map(pick)),
      h("div", { class: "pair-row" }, seconds));
  };
  draw();
  return [hint ? h("p", { class: "hint" }, hint) : null, box];
}
