// The lobby's choice of board and cards for a METRO game: our approximation (the default) or one
// of the table's own sets saved on /table-cards for the game's system; and the link to that page.
// lobby.js calls tableCardsPicker(form, draw) in its form and adds tableCardsChoice(form) to the
// new game's body. Words: static/i18n/<lang>/table_cards.json.
import { h } from "./dom.js";
import { t, useGame } from "./i18n.js";
import { request } from "./api.js";

// The system each METRO game plays unless the lobby says another (form.system).
const SYSTEM_OF = { tokyo_metro: "tokyo", osaka_metro: "osaka", metro_drinks: "tokyo" };

let sets = null;      // the saved sets, once asked (a non-host gets none)
let asking = null;

const systemOf = (form) => (SYSTEM_OF[form.game] ? form.system || SYSTEM_OF[form.game] : null);

function ask(redraw) {
  if (!asking) {
    asking = Promise.all([useGame("table_cards"),
      request("GET", "/api/table-cards/sets", undefined, { quiet: true }).then((r) => r.sets).catch(() => [])])
      .then(([, found]) => { sets = found; redraw(); });
  }
}

// The picker (null for a game played without a board); form.tableCards: the chosen set's id or null.
export function tableCardsPicker(form, redraw) {
  const system = systemOf(form);
  if (!system) return null;
  if (sets === null) { ask(redraw); return null; }
  const link = h("a", { class: "how-link", href: "/table-cards", testid: "lobby-table-cards-link" },
    t("tc.lobby.manage"), " ›");
  const mine = sets.filter((s) => s.system === system);
  if (!mine.length) return link;
  const chosen = mine.some((s) => s.id === form.tableCards) ? form.tableCards : null;
  const option = (id, label, testid) => h("label", { class: `seat-kind-option${chosen === id ? " on" : ""}` },
    h("input", { type: "radio", name: "table-cards", testid, checked: chosen === id,
      onchange: () => { form.tableCards = id; redraw(); } }),
    h("span", {}, label));
  return h("div", { class: "lobby-table-cards", testid: "lobby-table-cards" },
    h("h2", { class: "form-label" }, t("tc.lobby.label")),
    h("div", { class: "seat-kind", role: "radiogroup", "aria-label": t("tc.lobby.label") },
      option(null, t("tc.lobby.ours"), "table-cards-ours"),
      mine.map((s) => option(s.id, s.name, `table-cards-${s.id}`))),
    link);
}

// What the new game's body gets: the chosen set of the game's system, if any.
export function tableCardsChoice(form) {
  const system = systemOf(form);
  const set = system && sets ? sets.find((s) => s.id === form.tableCards && s.system === system) : null;
  return set ? { table_cards: set.id } : {};
}
