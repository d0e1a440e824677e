// The fallback renderer: makes any game playable from its view alone. Players with their public
// fields, the fields of the table, the last result, the final reckoning; drinks and cards drawn,
// money in yen, seats as names, every label through the catalogue (or humanised).
import { h } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { cardBackSvg, crateSvg, isCard } from "../drinks.js";
import { yenEl, playerHead, isActing, drinkRow, roundText, phaseText, finalDetails } from "../parts.js";
import { fieldList, perSeatKeys, seatTable, blank, valueNodes } from "../values.js";
import { composeBuilders } from "../compose.js";
import { estimatePanel } from "../estimates.js";
import { namedCard } from "../cardface.js";

// Player fields the head shows already, or that stay off the shared screen.
const PLAYER_SHOWN = new Set(["seat", "name", "yen", "start", "turn", "secret", "has_secret"]);
// Fields of the table the shell shows itself (status bar, action panel, tower, game over).
const TABLE_SHOWN = new Set(["game", "phase", "players", "to_act", "over", "winners", "round", "rounds", "tower",
  "options", "final", "turn"]);
// Drink lists of a drop, in the order they happen.
const DROP_LINES = [["thrown", "result.thrown", "thrown"], ["out", "result.out", "out"],
  ["freed", "result.freed", "freed"], ["stuck", "result.stuck", "still"]];

const isLast = (k) => k === "last" || k.startsWith("last_");
const playerKeys = (p) => Object.keys(p).filter((k) => !PLAYER_SHOWN.has(k));

export function me(view) {
  const players = view.state.players;
  return players.find((p) => p.seat === view.viewer) || players[view.viewer] || {};
}

function secretField(p) {
  return p.has_secret ? h("div", { class: "field" }, h("span", { class: "label" }, t("player.secret")),
    h("span", { class: "field-value" }, cardBackSvg("card-sm"))) : null;
}

export function playerCard(p, view, { compact = false } = {}) {
  const acting = isActing(p, view);
  const fields = fieldList(p, playerKeys(p), view.state, { testid: `player-${p.seat}-fields` });
  return h("section", { class: `player generic${acting ? " acting" : ""}${compact ? " compact" : ""}`,
    testid: `player-${p.seat}`, "aria-current": acting ? "true" : null },
  playerHead(p, view, acting),
  typeof p.yen === "number" ? yenEl(p.yen, `player-${p.seat}-yen`) : null,
  secretField(p) || fields ? h("div", { class: "player-fields" }, secretField(p), fields) : null);
}

// Everything else the view tells about the table: a pot, cards in the middle, the supply...
// (`drawn`: fields a game's own renderer draws itself, as a list or a Set.)
export function tablePanel(view, drawn = []) {
  const st = view.state;
  const skip = new Set(drawn);
  const keys = Object.keys(st).filter((k) => !TABLE_SHOWN.has(k) && !skip.has(k) && !isLast(k) && !blank(st[k]));
  if (!keys.length) return null;
  return h("section", { class: "panel table-fields", testid: "table-fields" },
    h("h2", {}, t("table.title")), fieldList(st, keys, st));
}

export function side(view) {
  return [tablePanel(view)];
}

// A drop of the tower inside a result: what went in, came out, was freed, stays stuck.
function dropLines(drop, compact) {
  const lines = compact ? DROP_LINES.filter(([k]) => k === "out") : DROP_LINES;
  return lines.filter(([k]) => Array.isArray(drop[k])).map(([k, label, cls]) => h("div", { class: `result-line ${cls}` },
    h("span", { class: "label" }, t(label)), drinkRow(drop[k], { testid: `result-${cls}` })));
}

function lastPanel(key, last, st, compact) {
  const isDrop = (o) => o && typeof o === "object" && Array.isArray(o.out);
  const drop = isDrop(last.drop) ? last.drop : isDrop(last) ? last : null;
  const seatKeys = perSeatKeys(last, st.players.length);
  const skip = new Set(["round", "drop", ...seatKeys, ...(drop ? DROP_LINES.map(([k]) => k) : [])]);
  const rest = Object.keys(last).filter((k) => !skip.has(k) && !blank(last[k]));
  const title = tOr(`last.${key}`, key);
  return h("section", { class: "panel result generic-result", testid: "last-result", dataset: { key } },
    h("h2", {}, title, Number.isInteger(last.round) ? ` · ${t("last.round", { round: last.round })}` : ""),
    drop ? dropLines(drop, compact) : null,
    fieldList(last, rest, st),
    seatTable(last, seatKeys, st, { testid: `last-table-${key}` }));
}

// The latest result(s) of the game: every `last` or `last_*` field of the view.
export function result(view, { compact = false } = {}) {
  const st = view.state;
  const keys = Object.keys(st).filter((k) => isLast(k) && st[k] && typeof st[k] === "object"
    && !Array.isArray(st[k]));
  return keys.map((k) => lastPanel(k, st[k], st, compact));
}

export function overExtra(view) {
  return finalDetails(view);
}

// A phone: my money, where the game is, my own fields (my secrets among them).
export function phoneMe(view) {
  const st = view.state;
  const mine = me(view);
  const round = roundText(st);
  const secret = mine.secret;
  return h("section", { class: "panel me", testid: "me" },
    h("div", { class: "me-info" },
      h("div", { class: "me-line" },
        typeof mine.yen === "number" ? yenEl(mine.yen, "my-yen", "yen my-yen") : null,
        mine.start ? h("span", { class: "start-mark", title: t("player.startPlayer") }, crateSvg()) : null),
      round ? h("div", { class: "me-line small" }, h("span", { class: "round", testid: "round" }, round)) : null,
      h("div", { class: "me-line small" }, h("span", { class: "phase", testid: "phase", dataset: { phase: st.phase } }, phaseText(st))),
      fieldList(mine, playerKeys(mine), st, { testid: "my-fields" })),
    secret !== null && secret !== undefined
      ? h("div", { class: "secret-box", testid: "secret-card", dataset: { card: typeof secret === "string" ? secret : "" } },
        h("span", { class: "label" }, t("phone.secretTitle")),
        isCard(secret) ? namedCard(secret) : h("span", {}, valueNodes(secret, "secret", st)))
      : null);
}

export function phoneExtra() {
  return [];
}

// Moves that take lists (the view's `composites`) get a picker next to their listed moves.
// Above the moves: "Estimate final yen" where the game offers estimates (its secrets can be drawn
// again for the asking viewer, so the figures tell nothing hidden).
export function movesHead(view, act) {
  return view.offers_estimates ? estimatePanel(view, act) : null;
}

export default { playerCard, side, result, overExtra, phoneMe, phoneExtra, movesHead, moveBuilders: composeBuilders(),
  overTitle: "over.standings" };
