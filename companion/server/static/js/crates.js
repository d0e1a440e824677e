// The crate camera on the dashboard of the crate games (GRAPE SODA, YUZU, the exploding cans):
// what the camera over the crates is doing, or why it cannot read them; the move it saw, for the
// host and the seat whose move it is to confirm or dismiss with one tap (everyone else sees it,
// without buttons), or a question when the crates could mean several moves; the fields where the
// crates and the game differ (after a move made on the dashboard: what is left to do in the
// crates); the fields read with doubt; the host's auto switch and the camera's picture. Nothing of
// this shows without a crate camera (`present` false).
//
// The view carries `crate_camera` (table/watch.py's JSON, as the board camera's); its news comes as
// a view with the same seq and a higher `rev`. One panel per page, made once and redrawn in place
// when what it says changes (a redraw under a finger would swallow a tap).
import { h } from "./dom.js";
import { t, drinkName } from "./i18n.js";
import { api } from "./api.js";
import { cameraPanel } from "./camera_panel.js";
import { actionLabel, seatName } from "./values.js";

const PROBLEMS = ["hands", "no_crates", "unclear", "not_calibrated", "camera_error", "calibrate", "too_many"];

let panel = null;

// The crate camera's panel for this view (the same element on every render), or null.
export function cratePanel(view) {
  const cc = view && view.crate_camera;
  if (!cc || !cc.present) return null;
  if (!panel || panel.gameId !== view.game_id) panel = makePanel(view.game_id);
  panel.fromView(view, cc);
  return panel.el;
}

function makePanel(gameId) {
  return cameraPanel(gameId, {
    prefix: "crates", cls: "crate-cam", testid: "crate-camera",
    news: () => api.crates(gameId, { quiet: true }),
    pictureUrl: () => api.crateCameraUrl(gameId, Date.now()),
    mark: (el, cc) => { el.dataset.matches = String(cc.matches); el.dataset.cause = String(cc.cause); },
    body: (me, view, cc, host) => [problemPart(cc), proposalPart(me, view, cc, host), differencesPart(cc),
      unsurePart(cc), host ? autoPart(me, cc) : null],
  });
}

function problemPart(cc) {
  const p = cc.problem;
  if (!p) return cc.state === "resting" ? h("p", { class: "bc-sub muted", testid: "crates-resting" }, t("crates.resting")) : null;
  const words = PROBLEMS.includes(p.code) ? t(`crates.problem.${p.code}`) : t("crates.problem.other", { code: p.code });
  return h("div", { class: `bc-problem ${p.code === "hands" ? "warn" : "bad"}`, testid: "crates-problem",
    dataset: { code: p.code }, role: "status" },
  h("p", {}, words), p.code === "hands" ? null : h("p", { class: "bc-sub" }, t("crates.byHand")));
}

const moveWords = (view, move) => h("span", { class: "bc-move", dataset: { kind: move.kind } },
  actionLabel("move", move, view.state));

function proposalPart(me, view, cc, host) {
  const prop = cc.proposal;
  if (!prop) return null;
  const cands = Array.isArray(cc.candidates) && cc.candidates.length > 1 ? cc.candidates : null;
  const seat = prop.seat;
  const name = seatName(view.state, seat);
  const mayAnswer = host || (Number.isInteger(view.viewer) && view.viewer === seat);
  const confirm = (candidate) => (e) => act(e.currentTarget, () => api.cratesConfirm(me.gameId, prop.id, candidate), me);
  const dismiss = mayAnswer ? h("button", { class: "big subtle", testid: "crates-dismiss",
    onclick: (e) => act(e.currentTarget, () => api.cratesDismiss(me.gameId, prop.id), me) }, t("crates.dismiss")) : null;
  const wait = h("p", { class: "bc-sub muted", testid: "crates-wait" }, t("crates.waitFor", { name }));
  if (cands) {
    return h("div", { class: "bc-proposal question", testid: "crates-question", dataset: { proposal: prop.id } },
      h("p", { class: "bc-lead" }, t("crates.question", { name })),
      h("ol", { class: "bc-cands" }, cands.map((c, i) => h("li", { testid: `crates-candidate-${i}` },
        h("span", { class: "bc-moves" }, c.moves.map((m) => moveWords(view, m))),
        mayAnswer ? h("button", { class: "big primary", testid: `crates-pick-${i}`, onclick: confirm(i) },
          t("crates.pick")) : null))),
      mayAnswer ? h("div", { class: "move-row" }, dismiss) : wait);
  }
  return h("div", { class: "bc-proposal", testid: "crates-proposal", dataset: { proposal: prop.id, seat: String(seat) } },
    h("p", { class: "bc-lead" }, t("crates.proposal", { name })),
    h("div", { class: "bc-moves" }, prop.moves.map((m) => moveWords(view, m))),
    mayAnswer ? h("div", { class: "move-row bc-buttons" },
      h("button", { class: "big primary", testid: "crates-confirm", onclick: confirm(null) }, "✓ ", t("crates.confirm")),
      dismiss) : wait);
}

async function act(button, fn, me) {
  button.disabled = true;
  try { await fn(); } catch (_) { /* the toast says why */ }
  button.disabled = false;
  await me.refresh();
}

// "game red-tall_can, crates empty" in words; a field with no crate in one of them says so.
const fieldValue = (v) => (v === null || v === undefined ? t("crates.noCrate")
  : v === "empty" ? t("crates.empty") : drinkName(v));

function differencesPart(cc) {
  const diffs = Array.isArray(cc.differences) ? cc.differences : [];
  if (cc.matches === true) return h("p", { class: "bc-matches", testid: "crates-matches" }, "✓ ", t("crates.matches"));
  if (!diffs.length) {
    return cc.state === "reading" && cc.matches === null
      ? h("p", { class: "bc-sub muted", testid: "crates-unsettled" }, t("crates.unsettled")) : null;
  }
  if (cc.proposal) return null;   // a move the crates show says its differences already
  const todo = cc.cause === "dashboard";
  return h("div", { class: `bc-diffs${todo ? " todo" : ""}`, testid: todo ? "crates-todo" : "crates-diffs",
    dataset: { cause: String(cc.cause) } },
  h("h3", {}, t(todo ? "crates.todo" : "crates.diffs")),
  h("p", { class: "bc-sub muted" }, t(todo ? "crates.todoHint" : "crates.causeBoard")),
  h("ul", { class: "bc-list" }, diffs.map((d) => h("li", { testid: `crates-diff-${d.field.replace(",", "-")}` },
    h("span", { class: "bc-text" }, t("crates.diff", { field: d.field.replace(",", "·"),
      game: fieldValue(d.game), seen: fieldValue(d.seen) }))))));
}

// Fields read with doubt: those the camera narrowed to one colour's drinks are compared with
// those drinks (named here), the rest with nothing.
function unsurePart(cc) {
  const choices = cc.choices && typeof cc.choices === "object" ? cc.choices : {};
  const all = Array.isArray(cc.unsure) ? cc.unsure : [];
  if (!all.length || cc.state !== "reading") return null;
  const fields = all.filter((f) => !Array.isArray(choices[f]));
  const narrowed = all.filter((f) => Array.isArray(choices[f]));
  return h("div", {},
    fields.length ? h("p", { class: "bc-sub bc-unsure", testid: "crates-unsure", dataset: { n: String(fields.length) } },
      t("crates.unsure", { fields: fields.map((f) => f.replace(",", "·")).join(" · ") })) : null,
    narrowed.length ? h("p", { class: "bc-sub bc-unsure", testid: "crates-choices", dataset: { n: String(narrowed.length) } },
      t("crates.choices", { fields: narrowed.map((f) => t("crates.choice", { field: f.replace(",", "·"),
        drinks: choices[f].map(drinkName).join(t("crates.or")) })).join(" · ") })) : null);
}

function autoPart(me, cc) {
  const on = Boolean(cc.auto);
  const b = h("button", { class: "bc-auto", type: "button", role: "switch", testid: "crates-auto",
    "aria-checked": on ? "true" : "false", onclick: () => act(b, () => api.cratesAuto(me.gameId, !on), me) },
  h("span", { class: "bc-switch", "aria-hidden": "true" }), h("span", {}, t("crates.auto")));
  return h("div", { class: "bc-auto-row" }, b, h("p", { class: "bc-sub muted" }, t("crates.autoHint")));
}
