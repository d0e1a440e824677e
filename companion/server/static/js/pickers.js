// Entering chance at the table: the start player, the turned-up cards, a secret card (on the
// player's own phone), what came out of the tower; and the questions a person must settle.
import { h } from "./dom.js";
import { t, cardName } from "./i18n.js";
import { drinkSvg, cardSvg, COLOURS, SHAPES } from "./drinks.js";
import { drinkRow } from "./parts.js";

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

async function busy(btn, fn) {
  btn.disabled = true;
  try { await fn(); } catch (_) { /* the toast tells */ } finally { btn.disabled = false; }
}

function bigButton(label, testid, fn, cls = "") {
  const b = h("button", { class: `big ${cls}`.trim(), testid, onclick: () => busy(b, fn) }, label);
  return b;
}

function startPicker(view, outcomes, act) {
  return h("div", { class: "picker" }, h("h2", {}, t("chance.start")),
    h("div", { class: "move-row" }, outcomes.map((o) => {
      const seat = o.move.args.seat;
      return bigButton(t("chance.startSeat", { name: view.state.players[seat].name }),
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
  return h("div", { class: "picker" }, h("h2", {}, t("chance.turnUp")),
    h("h3", {}, t("chance.turnUpColour")), h("div", { class: "card-grid" }, colours.map((c) => toggle("colour", c))),
    h("h3", {}, t("chance.turnUpShape")), h("div", { class: "card-grid" }, shapes.map((sh) => toggle("shape", sh))),
    h("div", { class: "confirm-row" },
      ready ? [h("span", { class: "label" }, t("chance.seventh")), drinkSvg(`${ui.colour}-${ui.shape}`, "drink-lg")] : null,
      confirm));
}

// On a phone: the player enters the card they drew (only their phone is asked).
export function secretPicker(outcomes, act) {
  return h("div", { class: "picker secret-picker" }, h("h2", {}, t("chance.secret")),
    h("p", { class: "hint" }, t("chance.secretHint")),
    h("div", { class: "card-grid" }, outcomes.map((o) => {
      const card = o.move.args.card;
      const b = h("button", { class: "move move-card", testid: `enter-secret-${card}`, onclick: () => busy(b, () => act.move(o.move)) },
        cardSvg(card), h("span", { class: "card-name" }, cardName(card)));
      return b;
    })));
}

function genericChoice(outcomes, act) {
  return h("div", { class: "move-row" }, outcomes.map((o) => bigButton(
    `${o.move.kind} ${Object.values(o.move.args).join(" ")}`, `chance-${o.move.kind}`, () => act.move(o.move), "move")));
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

function dropCandidates(view) {
  const c = view.chance;
  if (c && c.kind === "drop") return [...new Set([...c.thrown, ...c.inside])];
  return view.state.tower.stuck;
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
export function chancePanel(view, ui, act) {
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
  const kind = c.outcomes.length ? c.outcomes[0].move.kind : null;
  if (kind === "start_player") return startPicker(view, c.outcomes, act);
  if (kind === "turn_up") return turnUpPicker(view, c.outcomes, ui, act);
  if (kind === "secret_card") return secretPicker(c.outcomes, act);
  return genericChoice(c.outcomes, act);
}

// "Drinks fell out of the tower" between throws: tap which (from what is stuck).
export function spillControl(view, ui, act) {
  const st = view.state;
  if (!st.tower.stuck.length || st.phase === "drop" || view.over || view.question) return null;
  if (ui.tapMode !== "spill") {
    return h("button", { class: "big subtle", testid: "spill-open",
      onclick: () => { ui.tapMode = "spill"; ui.tapped = new Set(); act.rerender(); } }, t("spill.open"));
  }
  return tapper({ title: t("spill.title"), candidates: st.tower.stuck, ui, act, allowNone: false,
    onConfirm: async (drinks) => { await act.observe(drinks); ui.tapMode = null; act.rerender(); },
    cancel: () => { ui.tapMode = null; act.rerender(); } });
}
