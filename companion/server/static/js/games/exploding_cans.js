// The exploding-cans game: the view's `squares` drawn as the 6x6 grid of six crates (thick lines
// between crates, each 2 columns by 3 rows), every drink in its square, rows and columns numbered
// as the moves name them (from 0 at the top left); the squares of the last move marked. The
// shape cards' coins and the rest of the table the generic renderer lists; the grid and the
// crates (the same drinks crate by crate) are left out of that list.
import { h, island } from "../dom.js";
import { t } from "../i18n.js";
import { drinkSvg } from "../drinks.js";
import { moveButton } from "../moves.js";
import generic from "./generic.js";
import { cratePanel } from "../crates.js";

const SIDE = 6;
let picked = null;   // the drink last chosen to place (kept while the table redraws)

function marked(last) {
  const at = new Set();
  if (!last) return at;
  if (Number.isInteger(last.row)) at.add(`${last.row}-${last.col}`);
  if (Number.isInteger(last.to_row)) at.add(`${last.to_row}-${last.to_col}`);
  return at;
}

export function gridPanel(view) {
  const st = view.state;
  if (!Array.isArray(st.squares)) return null;
  const last = marked(st.last);
  const cells = [h("div", { class: "ec-corner" })];
  for (let c = 0; c < SIDE; c += 1) cells.push(h("div", { class: "ec-head" }, String(c)));
  st.squares.forEach((row, r) => {
    cells.push(h("div", { class: "ec-head" }, String(r)));
    row.forEach((drink, c) => {
      const cls = ["ec-square", c % 2 ? "ec-right" : "ec-left", r % 3 === 0 ? "ec-top" : "",
        r % 3 === 2 ? "ec-bottom" : "", last.has(`${r}-${c}`) ? "ec-last" : ""].filter(Boolean).join(" ");
      cells.push(h("div", { class: cls, testid: `ec-square-${r}-${c}`, dataset: { drink: drink || "" } },
        drink ? drinkSvg(drink, "drink-sm") : null));
    });
  });
  return h("section", { class: "panel ec-board", testid: "ec-board" },
    h("h2", {}, t("ec.grid.title")), h("div", { class: "ec-grid", role: "grid" }, cells));
}

// Placing: choose one of the supply's drinks (the first one unless chosen), then tap its square
// on a 6x6 grid of buttons (the squares taken show their drink) -- instead of a button for every
// drink on every empty square.
function placeButtons(moves, view, run) {
  const drinks = [...new Set(moves.map((m) => m.move.args.drink))];
  const at = new Map(moves.map((m) => [`${m.move.args.drink}|${m.move.args.row}|${m.move.args.col}`, m]));
  const squares = view.state.squares || [];
  let chosen = drinks.includes(picked) ? picked : drinks[0];
  const box = island(h("div", { class: "ec-place", testid: "ec-place" }));  // (its buttons redraw it)
  const draw = () => {
    const cells = [];
    for (let r = 0; r < SIDE; r += 1) {
      for (let c = 0; c < SIDE; c += 1) {
        const m = at.get(`${chosen}|${r}|${c}`);
        const label = t("ec.square", { row: r, col: c });
        if (m) {
          const b = moveButton(m, run, "move-ec-square", h("span", { class: "ec-rc" }, `${r}·${c}`));
          b.setAttribute("aria-label", label);
          cells.push(b);
        } else {
          const d = (squares[r] || [])[c];
          cells.push(h("span", { class: "ec-taken", title: label }, d ? drinkSvg(d, "drink-sm") : null));
        }
      }
    }
    const choose = (d) => () => { chosen = d; picked = d; draw(); };
    const pick = (d) => h("button", { class: `ec-pick${d === chosen ? " chosen" : ""}`, testid: `ec-pick-${d}`,
      role: "radio", "aria-checked": String(d === chosen), onclick: choose(d) }, drinkSvg(d, "drink-sm"));
    box.replaceChildren(
      h("div", { class: "ec-pick-row", role: "radiogroup", "aria-label": t("ec.pick") }, drinks.map(pick)),
      h("div", { class: "ec-place-grid" }, cells));
  };
  draw();
  return [h("p", { class: "hint" }, t("ec.placeHint")), box];
}

// The table: the grid right under the action panel (beside the last result).
function result(view, opts = {}) {
  const last = generic.result(view, opts);
  return opts.compact ? last : [gridPanel(view), ...last];
}

// The other fields of the table, without the grid drawn above (nor the same drinks by crate).
function side(view) {
  const { squares, crates, ...rest } = view.state;
  return [cratePanel(view), ...generic.side({ ...view, state: rest })].filter(Boolean);
}

function phoneExtra(view) {
  return [cratePanel(view), gridPanel(view)].filter(Boolean);
}

export default { side, result, phoneExtra, overExtra: generic.overExtra,
  moveBuilders: { ...generic.moveBuilders, place: placeButtons } };
