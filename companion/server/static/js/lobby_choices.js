// The lobby's choices of a game (GET /api/game-types: `choices`, each {option, values, default};
// companion/rules/choices.py): which board, which action cards. One row of buttons per choice,
// worded from the common catalogue (lobby.choice.<option>, lobby.choice.<option>.<value>); the
// values picked go with the new game as its `options`. A game without choices shows nothing.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const valueKey = (option, value) => `lobby.choice.${option}.${String(value)}`;

// What is picked for `type` now: `picked` (the lobby's memory, option -> value) where it holds an
// offered value, else the choice's default.
function current(type, picked) {
  const out = {};
  for (const c of (type && type.choices) || []) {
    out[c.option] = c.values.some((v) => v === picked[c.option]) ? picked[c.option] : c.default;
  }
  return out;
}

// The rows of buttons (nothing for a game without choices). `picked` is the lobby's form, which
// keeps each value picked under its option's name (form.system, form.card_set: the table-cards
// picker reads form.system) until another game is chosen (forgetChoices); `redraw` draws the form
// again after a tap.
export function choiceRows(type, picked, redraw) {
  const choices = (type && type.choices) || [];
  if (!choices.length) return null;
  const now = current(type, picked);
  return h("div", { class: "lobby-choices", testid: "lobby-choices" },
    h("h2", { class: "form-label" }, t("lobby.choices")),
    choices.map((c) => h("div", { class: "lobby-choice", testid: `choice-${c.option}` },
      h("span", { class: "lobby-choice-label", id: `choice-label-${c.option}` }, t(`lobby.choice.${c.option}`)),
      h("div", { class: "choice-row", role: "radiogroup", "aria-labelledby": `choice-label-${c.option}` },
        c.values.map((v) => h("button", { type: "button", class: `choice${now[c.option] === v ? " on" : ""}`,
          testid: `choice-${c.option}-${String(v)}`, role: "radio", "aria-checked": now[c.option] === v ? "true" : "false",
          onclick: () => { picked[c.option] = v; redraw(); } }, t(valueKey(c.option, v))))))));
}

// Another game is chosen: the values picked for this one go (the next starts from its defaults).
export function forgetChoices(type, picked) {
  for (const c of (type && type.choices) || []) delete picked[c.option];
}

// The options to start the game with: every choice's value (defaults included: the stored game
// then says what was chosen), or undefined for a game without choices.
export function chosenOptions(type, picked) {
  const now = current(type, picked);
  return Object.keys(now).length ? now : undefined;
}
