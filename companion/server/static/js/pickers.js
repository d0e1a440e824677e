// Entering chance at the table, for every game: a listed outcome (who starts, which drink was
// dealt; a secret one on its owner's phone), what came out of the tower, what fell out on its
// own; and the questions a person must settle. A game's renderer may draw a choice its own way.
import { h } from "./dom.js";
import { t, has } from "./i18n.js";
import { drinkSvg } from "./drinks.js";
import { drinkRow } from "./parts.js";
import { actionLabel, argsNodes } from "./values.js";

// `ui` keeps what a person is in the middle of tapping across re-renders:
// { colour, shape, tapMode: null | "drop" | "spill" | "correct", tapped: Set }.
export function freshUi() {
  return { colour: null, shape: null, tapMode: null, tapped: new Set(), key: null };
}

// A change of round, phase or question ends whatever was being tapped.
export function syncUi(ui, view) {
  const key = `${view.state.round}:${view.state.phase}:${view.question ? JSON.stringify(view.question.observation) : ""}`;
  if (ui.key !== key) Object.assign(ui, freshUi(), { key });
}

export async function busy(btn, fn) {
  btn.disabled = true;
  try { await fn(); } catch (_) { /* the toast tells */ } finally { btn.disabled = false; }
}

export function bigButton(label, testid, fn, cls = "") {
  const b = h("button", { class: `big ${cls}`.trim(), testid, onclick: () => busy(b, fn) }, label);
  return b;
}

export function chanceTestId(move) {
  const vals = Object.values(move.args || {}).flat(Infinity);
  return `chance-${move.kind}${vals.length ? `-${vals.join("-")}` : ""}`;
}

// Any listed outcome: one button each (tiles when there are many), titled `pick.<kind>`.
export function choicePicker(view, outcomes, act, { secret = false } = {}) {
  const kind = outcomes.length ? outcomes[0].move.kind : "";
  const many = outcomes.length > 8;
  const box = h("div", { class: "picker choice-picker", testid: "choice", dataset: { kind } },
    h("h2", {}, secret ? t("pick.secret") : t(has(`pick.${kind}`) ? `pick.${kind}` : "pick.choice")),
    secret ? h("p", { class: "hint" }, t("pick.secretHint")) : null);
  const button = (o) => {
    const b = h("button", { class: many ? "move move-tile" : "move", testid: chanceTestId(o.move),
      onclick: () => busy(b, () => act.move(o.move)) },
    many ? h("span", { class: "tile-label" }, argsNodes(o.move, view.state))
      : h("span", { class: "move-label" }, actionLabel("chance", o.move, view.state)));
    return b;
  };
  box.append(h("div", { class: many ? "move-tiles" : "move-row" }, outcomes.map(button)));
  return box;
}

// Tap the drinks that came out (or fell out, or the right ones when correcting).
function tapper({ title, candidates, ui, act, onConfirm, allowNone, cancel }) {
  const n = ui.tapped.size;
  const label = n ? t("drop.confirm", { n }) : allowNone ? t("drop.nothing") : t("question.yes");
  const confirm = bigButton(label, "tap-confirm",
    () => onConfirm([...ui.tapped].sort()), "primary");
  confirm.disabled = !n && !allowNone;
  return h("div", { class: "picker tapper", testid: "tapper" },
    h("h2", {}, title), h("p", { class: "hint" }, t("drop.hint")),
    h("div", { class: "tap-grid" }, candidates.map((d) => h("button", {
      class: `move move-tap${ui.tapped.has(d) ? " selected" : ""}`, testid: `tap-${d}`,
      "aria-pressed": ui.tapped.has(d) ? "true" : "false",
      onclick: () => { if (ui.tapped.has(d)) ui.tapped.delete(d); else ui.tapped.add(d); act.rerender(); },
    }, drinkSvg(d)))),
    h("div", { class: "confirm-row" }, confirm,
      cancel ? h("button", { class: "big", testid: "tap-cancel", onclick: cancel }, t("drop.cancel")) : null));
}

function stuckNow(view) {
  return (view.state.tower && view.state.tower.stuck) || [];
}

function dropCandidates(view) {
  const c = view.chance;
  if (c && c.kind === "drop") return [...new Set([...c.thrown, ...c.inside])];
  return stuckNow(view);
}

// Report drinks: a non-empty list goes in as a person's observation; "nothing came out" of
// a drop is the drop move itself (an empty observation would be ignored).
async function report(view, act, drinks) {
  if (!drinks.length && view.chance && view.chance.kind === "drop") {
    await act.move({ kind: view.chance.move_kind, player: "chance", args: { out: [] } });
  } else {
    await act.observe(drinks);
  }
}

// The question of the table: confirm an unsure observation, or correct it.
export function questionPanel(view, ui, act) {
  const q = view.question;
  if (!q) return null;
  if (ui.tapMode === "correct") {
    return h("section", { class: "panel question", testid: "question" }, tapper({
      title: t(q.kind === "confirm" ? "question.confirm" : "question.contradiction"),
      candidates: [...new Set([...dropCandidates(view), ...q.observation.appeared])], ui, act,
      allowNone: view.chance && view.chance.kind === "drop",
      onConfirm: (drinks) => report(view, act, drinks),
      cancel: () => { ui.tapMode = null; act.rerender(); },
    }));
  }
  return h("section", { class: `panel question q-${q.kind}`, testid: "question" },
    h("h2", {}, t(q.kind === "confirm" ? "question.confirm" : "question.contradiction")),
    drinkRow(q.observation.appeared, { testid: "question-drinks" }),
    q.reason ? h("p", { class: "reason" }, q.reason) : null,
    h("div", { class: "confirm-row" },
      q.kind === "confirm" && q.move ? bigButton(t("question.yes"), "question-confirm", () => act.move(q.move), "primary") : null,
      h("button", { class: "big", testid: "question-correct", onclick: () => {
        ui.tapMode = "correct";
        ui.tapped = new Set(q.observation.appeared);
        act.rerender();
      } }, t("question.correct"))));
}

// What the table view is asked to enter now (null when nothing).
export function chancePanel(view, ui, act, renderer = {}) {
  const c = view.chance;
  if (!c || view.question) return null;
  if (c.kind === "drop") {
    if (view.simulated) {
      return h("div", { class: "picker throw-box" },
        h("p", { class: "hint" }, t("throw.hint")), drinkRow(c.thrown, { testid: "to-throw" }),
        bigButton(t("throw"), "throw", () => act.throw(), "primary huge"));
    }
    return tapper({ title: t("drop.title"), candidates: dropCandidates(view), ui, act, allowNone: true,
      onConfirm: (drinks) => report(view, act, drinks) });
  }
  if (!Array.isArray(c.outcomes) || !c.outcomes.length) return null;
  return (renderer.choice && renderer.choice(view, c.outcomes, ui, act)) || choicePicker(view, c.outcomes, act);
}

// "Drinks fell out of the tower" between throws: tap which (from what is stuck).
export function spillControl(view, ui, act) {
  const st = view.state;
  const stuck = stuckNow(view);
  if (!stuck.length || (view.chance && view.chance.kind === "drop") || st.phase === "drop" || view.over || view.question) {
    return null;
  }
  if (ui.tapMode !== "spill") {
    return h("button", { class: "big subtle", testid: "spill-open",
      onclick: () => { ui.tapMode = "spill"; ui.tapped = new Set(); act.rerender(); } }, t("spill.open"));
  }
  return tapper({ title: t("spill.title"), candidates: stuck, ui, act, allowNone: false,
    onConfirm: async (drinks) => { await act.observe(drinks); ui.tapMode = null; act.rerender(); },
    cancel: () => { ui.tapMode = null; act.rerender(); } });
}
