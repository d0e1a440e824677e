// The landing camera on the dashboard of the games that score drinks by where they land (the
// upside-down tower, LEMON SQUASH): what the camera in front of the tower is doing, or why it cannot
// read; the drinks the game waits for and what was read of each (its spot, its distance from the
// tower, a doubt); the landings it saw, for the host to confirm with one tap, or a question with
// the likeliest answer first; the host's auto switch and the camera's picture. Nothing of this
// shows without a landing camera (`present` false).
//
// The view carries `landing_camera` (table/watch.py's JSON with the landing watch's `waiting` and
// `any_seen`); its news comes as a view with the same seq and a higher `rev`. One panel per page,
// made once and redrawn in place when what it says changes (a redraw under a finger would
// swallow a tap). The outcomes of chance are the table's: only the host answers.
import { h } from "./dom.js";
import { t, drinkName, num } from "./i18n.js";
import { api } from "./api.js";
import { cameraPanel } from "./camera_panel.js";

const PROBLEMS = ["hands", "not_calibrated", "camera_error", "calibrate", "no_view", "tower_moved"];

let panel = null;

// The landing camera's panel for this view (the same element on every render), or null.
export function landingPanel(view) {
  const lc = view && view.landing_camera;
  if (!lc || !lc.present) return null;
  if (!panel || panel.gameId !== view.game_id) panel = makePanel(view.game_id);
  panel.fromView(view, lc);
  return panel.el;
}

function makePanel(gameId) {
  return cameraPanel(gameId, {
    prefix: "landings", cls: "landing-cam", testid: "landing-camera",
    news: () => api.landings(gameId, { quiet: true }),
    pictureUrl: () => api.landingCameraUrl(gameId, Date.now()),
    mark: (el, lc) => { el.dataset.waiting = lc.waiting ? lc.waiting.kind : "none"; },
    body: (me, view, lc, host) => [problemPart(lc), waitingPart(view, lc), readPart(view, lc),
      proposalPart(me, view, lc, host), host ? autoPart(me, lc) : null],
  });
}

function problemPart(lc) {
  const p = lc.problem;
  if (!p) return lc.state === "resting" && lc.waiting ? h("p", { class: "bc-sub muted", testid: "landings-resting" }, t("landings.resting")) : null;
  const words = PROBLEMS.includes(p.code) ? t(`landings.problem.${p.code}`) : t("landings.problem.other", { code: p.code });
  return h("div", { class: `bc-problem ${p.code === "hands" ? "warn" : "bad"}`, testid: "landings-problem",
    dataset: { code: p.code }, role: "status" },
  h("p", {}, words), p.code === "hands" ? null : h("p", { class: "bc-sub" }, t("landings.byHand")));
}

// Whose short can a drink is, in LEMON SQUASH ("Aki" / "Aki & Ben"); null elsewhere.
function unitName(view, drink) {
  const units = (view.state && view.state.units) || [];
  const unit = units.find((u) => `${u.colour}-short_can` === drink);
  return unit ? unit.names.join(" & ") : null;
}

function unitOf(view, index) {
  const units = (view.state && view.state.units) || [];
  const unit = units.find((u) => u.unit === index);
  return unit ? unit.names.join(" & ") : String(index);
}

function waitingPart(view, lc) {
  const w = lc.waiting;
  if (!w) return h("p", { class: "bc-sub muted", testid: "landings-idle" }, t("landings.idle"));
  const names = w.asked.map((d) => drinkName(d)).join(" · ");
  const lead = h("p", { class: "bc-lead", testid: "landings-waiting", dataset: { kind: w.kind } },
    t(w.kind === "farthest" ? "landings.waitingFarthest" : "landings.waitingLand", { drinks: names }));
  const none = lc.any_seen === false && lc.state === "reading"
    ? h("p", { class: "bc-sub muted", testid: "landings-none-seen" }, t("landings.noneSeen")) : null;
  return h("div", {}, lead, none);
}

// What was read of each drink the game waits for: spot, distance, doubt.
function readPart(view, lc) {
  const read = Array.isArray(lc.differences) ? lc.differences : [];
  if (!lc.waiting || !read.length || lc.any_seen === false) return null;
  return h("ul", { class: "bc-list landings-read", testid: "landings-read" }, read.map((d) => {
    const who = unitName(view, d.drink);
    const where = d.seen ? t("landings.read", { spot: t(`value.${d.spot}`), mm: num(d.distance_mm) })
      : t("landings.notSeen");
    return h("li", { testid: `landings-read-${d.drink}`, dataset: { spot: d.seen ? d.spot : "unseen", sure: String(d.sure) } },
      h("span", { class: "bc-text" }, drinkName(d.drink), who ? ` (${who})` : "", ": ", where,
        d.seen && !d.sure ? h("span", { class: "bc-doubt", title: t("landings.doubt") }, " ?") : null));
  }));
}

// A candidate's moves in words: "red short can: in a slot", "1. Aki"; a start order ends with the
// unit whose place follows from the others' (the engine adds it), so that the whole order shows.
function movesWords(view, lc, moves) {
  const placed = moves.filter((m) => m.kind === "farthest").map((m) => m.args.unit);
  const last = placed.length && lc.waiting ? lc.waiting.units.filter((u) => !placed.includes(u)) : [];
  const words = moves.map((m, i) => (m.kind === "land"
    ? t("landings.moveLand", { drink: drinkName(m.args.drink), spot: t(`value.${m.args.spot}`) })
    : t("landings.moveFarthest", { place: placeOf(view, i), name: unitOf(view, m.args.unit) })));
  last.forEach((u, i) => words.push(t("landings.moveFarthest", { place: placeOf(view, moves.length + i), name: unitOf(view, u) })));
  return h("span", { class: "bc-moves" }, words.map((w, i) => h("span", { class: "bc-move", dataset: { n: String(i) } }, w)));
}

const placeOf = (view, i) => num(((view.state && view.state.start_order) || []).length + i + 1);

function proposalPart(me, view, lc, host) {
  const prop = lc.proposal;
  if (!prop) return null;
  const cands = Array.isArray(lc.candidates) && lc.candidates.length > 1 ? lc.candidates : null;
  const confirm = (candidate) => (e) => act(e.currentTarget, () => api.landingsConfirm(me.gameId, prop.id, candidate), me);
  const dismiss = host ? h("button", { class: "big subtle", testid: "landings-dismiss",
    onclick: (e) => act(e.currentTarget, () => api.landingsDismiss(me.gameId, prop.id), me) }, t("landings.dismiss")) : null;
  const wait = h("p", { class: "bc-sub muted", testid: "landings-wait" }, t("landings.hostConfirms"));
  if (cands) {
    return h("div", { class: "bc-proposal question", testid: "landings-question", dataset: { proposal: prop.id } },
      h("p", { class: "bc-lead" }, t("landings.question")),
      h("ol", { class: "bc-cands" }, cands.map((c, i) => h("li", { testid: `landings-candidate-${i}` },
        movesWords(view, lc, c.moves),
        host ? h("button", { class: "big primary", testid: `landings-pick-${i}`, onclick: confirm(i) },
          t("landings.pick")) : null))),
      host ? h("div", { class: "move-row" }, dismiss) : wait);
  }
  return h("div", { class: "bc-proposal", testid: "landings-proposal", dataset: { proposal: prop.id } },
    h("p", { class: "bc-lead" }, t("landings.proposal")),
    movesWords(view, lc, prop.moves),
    host ? h("div", { class: "move-row bc-buttons" },
      h("button", { class: "big primary", testid: "landings-confirm", onclick: confirm(null) }, "✓ ", t("landings.confirm")),
      dismiss) : wait);
}

async function act(button, fn, me) {
  button.disabled = true;
  try { await fn(); } catch (_) { /* the toast says why */ }
  button.disabled = false;
  await me.refresh();
}

function autoPart(me, lc) {
  const on = Boolean(lc.auto);
  const b = h("button", { class: "bc-auto", type: "button", role: "switch", testid: "landings-auto",
    "aria-checked": on ? "true" : "false", onclick: () => act(b, () => api.landingsAuto(me.gameId, !on), me) },
  h("span", { class: "bc-switch", "aria-hidden": "true" }), h("span", {}, t("landings.auto")));
  return h("div", { class: "bc-auto-row" }, b, h("p", { class: "bc-sub muted" }, t("landings.autoHint")));
}
