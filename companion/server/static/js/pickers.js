// Entering chance at the table, for every game: a listed outcome (who starts, which drink was
// dealt; a secret one on its owner's phone), what came out of the tower, what fell out on its
// own; and the questions a person must settle (with a one-tap correction of each drink a camera
// misread). A game's renderer may draw a choice its own way.
import { h } from "./dom.js";
import { t, has, num, drinkName } from "./i18n.js";
import { drinkSvg } from "./drinks.js";
import { drinkRow } from "./parts.js";
import { actionLabel, argsNodes } from "./values.js";
import { devices, hasDevices, cameraHealth, byHandNote, beamsSoFar } from "./devices.js";

const SLOW_READING_MS = 25000; // a drop not read by then may be entered by hand

// `ui` keeps what a person is in the middle of tapping across re-renders:
// { colour, shape, tapMode: null | "drop" | "spill" | "correct", tapped: Set,
//   fix: the corrected drinks of a question [{id, det, was}], picking: row index | "add" | null,
//   reading: {chance, since, by} while a thrown drop is being read by the devices }.
export function freshUi() {
  return { colour: null, shape: null, tapMode: null, tapped: new Set(), key: null, fix: null, picking: null, reading: null };
}

// A change of round, phase or question ends whatever was being tapped (a drop being read
// goes on: the table view ends it when the drop or a question arrives).
export function syncUi(ui, view) {
  const key = `${view.state.round}:${view.state.phase}:${view.question ? JSON.stringify(view.question.observation) : ""}`;
  if (ui.key !== key) Object.assign(ui, freshUi(), { key, reading: ui.reading });
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

// A settled account of a question: the drop move itself when a drop is awaited (a person has
// looked; the move is logged as the correction), else a person's observation.
async function settle(view, act, drinks) {
  const c = view.chance;
  if (c && c.kind === "drop") {
    await act.move({ kind: c.move_kind, player: "chance", args: { out: [...drinks].sort() } });
  } else {
    await act.observe(drinks);
  }
}

function dismissButton(act) {
  return act.dismiss ? bigButton(t("fix.dismiss"), "question-dismiss", () => act.dismiss(), "subtle") : null;
}

// The question of the table: confirm an unsure observation, or correct it.
export function questionPanel(view, ui, act) {
  const q = view.question;
  if (!q) return null;
  if (detections(q).length) return fixPanel(view, q, ui, act);
  if (ui.tapMode === "correct") {
    return h("section", { class: "panel question", testid: "question" }, tapper({
      title: t(q.kind === "confirm" ? "question.confirm" : "question.contradiction"),
      candidates: [...new Set([...dropCandidates(view), ...q.observation.appeared])], ui, act,
      allowNone: view.chance && view.chance.kind === "drop",
      onConfirm: (drinks) => settle(view, act, drinks),
      cancel: () => { ui.tapMode = null; act.rerender(); },
    }));
  }
  return h("section", { class: `panel question q-${q.kind}`, testid: "question", dataset: { kind: q.kind } },
    h("h2", {}, t(q.kind === "confirm" ? "question.confirm" : "question.contradiction")),
    drinkRow(q.observation.appeared, { testid: "question-drinks" }),
    q.reason ? h("p", { class: "reason", testid: "question-reason" }, q.reason) : null,
    beamsSoFar(view),
    h("div", { class: "confirm-row" },
      q.kind === "confirm" && q.move ? bigButton(t("question.yes"), "question-confirm", () => act.move(q.move), "primary") : null,
      h("button", { class: "big", testid: "question-correct", onclick: () => {
        ui.tapMode = "correct";
        ui.tapped = new Set(q.observation.appeared);
        act.rerender();
      } }, t("question.correct")),
      dismissButton(act)));
}

// --- one-tap correction of what a camera read ---------------------------------------------------

function detections(q) {
  const d = q.observation && q.observation.detail && q.observation.detail.detections;
  return Array.isArray(d) ? d : [];
}

// The drinks the camera says came out, left to right as in its picture, each with its reading.
function detectedRows(q) {
  const appeared = q.observation.appeared || [];
  const rows = detections(q).filter((d) => appeared.includes(d.id))
    .sort((a, b) => (a.x ?? 0) - (b.x ?? 0))
    .map((d) => ({ id: d.id, det: d, was: null }));
  for (const id of appeared) if (!rows.some((r) => r.id === id)) rows.push({ id, det: null, was: null });
  return rows;
}

// What a drink of the list can be: what was thrown or is stuck (a drop), what is stuck (a spill).
function fixCandidates(view) {
  const c = view.chance;
  if (c && c.kind === "drop") return [...new Set([...c.thrown, ...c.inside])];
  const stuck = stuckNow(view);
  return stuck.length ? stuck : null;
}

function fixPicker(ui, act, candidates, index) {
  const rows = ui.fix;
  const current = index === "add" ? null : rows[index].id;
  const used = new Set(rows.filter((_, i) => i !== index).map((r) => r.id));
  const choose = (d) => {
    if (index === "add") {
      rows.push({ id: d, det: null, was: "+" }); // the picker stays open: it may have missed several
    } else {
      const row = rows[index];
      if (row.was === null) row.was = row.id;
      row.id = d;
      if (row.was === d) row.was = null;  // back to what the camera read
      ui.picking = null;
    }
    act.rerender();
  };
  return h("div", { class: "fix-picker", testid: "fix-picker" },
    h("p", { class: "fix-picker-title" }, t(index === "add" ? "fix.pickAdd" : "fix.pick")),
    candidates && candidates.length
      ? h("div", { class: "tap-grid" }, candidates.map((d) => h("button", {
        class: `move move-tap${d === current ? " selected" : ""}`, testid: `fix-pick-${d}`, title: drinkName(d),
        disabled: used.has(d), "aria-pressed": d === current ? "true" : "false", onclick: () => choose(d),
      }, drinkSvg(d))))
      : h("p", { class: "muted" }, t("fix.noCandidates")),
    h("button", { class: "big", testid: "fix-pick-cancel", onclick: () => { ui.picking = null; act.rerender(); } },
      t(index === "add" ? "fix.done" : "drop.cancel")));
}

function fixPanel(view, q, ui, act) {
  if (!ui.fix) ui.fix = detectedRows(q);
  const rows = ui.fix;
  const candidates = fixCandidates(view);
  const ids = rows.map((r) => r.id);
  const isDrop = Boolean(view.chance && view.chance.kind === "drop");
  const cannot = (id) => Boolean(candidates) && !candidates.includes(id);
  const twice = (id) => ids.indexOf(id) !== ids.lastIndexOf(id);
  const toggle = (i) => { ui.picking = ui.picking === i ? null : i; act.rerender(); };

  const rowEl = (r, i) => {
    const d = r.det && !r.was ? r.det : null;
    const problem = cannot(r.id) ? t(isDrop ? "fix.notThrown" : "fix.notStuck") : twice(r.id) ? t("fix.twice") : null;
    const name = drinkName(r.id);
    return h("li", { class: `fix-row${problem ? " bad" : ""}${d && d.unsure ? " unsure" : ""}${ui.picking === i ? " picking" : ""}`,
      testid: `fix-row-${i}`, dataset: { drink: r.id, unsure: String(Boolean(d && d.unsure)), changed: String(Boolean(r.was)) } },
    h("button", { class: "fix-drink", testid: `fix-${i}`, "aria-expanded": ui.picking === i ? "true" : "false",
      "aria-label": t("fix.swapNamed", { drink: name }), onclick: () => toggle(i) },
    drinkSvg(r.id, "drink-fix"),
    h("span", { class: "fix-info" },
      h("span", { class: "fix-name" }, name),
      h("span", { class: "fix-meta" },
        d && typeof d.confidence === "number"
          ? h("span", { class: "fix-conf", testid: `fix-conf-${i}` }, t("fix.confidence", { pct: num(Math.round(d.confidence * 100)) })) : null,
        d && d.unsure ? h("span", { class: "tag tag-unsure", testid: `fix-unsure-${i}`, title: d.why || "" }, t("fix.unsure")) : null,
        r.was === "+" ? h("span", { class: "tag tag-fixed" }, t("fix.added"))
          : r.was ? h("span", { class: "tag tag-fixed" }, t("fix.corrected", { drink: drinkName(r.was) })) : null),
      d && d.unsure && d.why ? h("span", { class: "fix-why" }, d.why) : null,
      problem ? h("span", { class: "fix-problem", testid: `fix-problem-${i}` }, problem) : null),
    h("span", { class: "fix-swap", "aria-hidden": "true" }, t("fix.swap"))),
    h("button", { class: "big fix-remove", testid: `fix-remove-${i}`, "aria-label": t("fix.removeNamed", { drink: name }),
      title: t("fix.remove"), onclick: () => { rows.splice(i, 1); ui.picking = null; act.rerender(); } }, "✕"));
  };

  const items = [];
  rows.forEach((r, i) => {
    items.push(rowEl(r, i));
    if (ui.picking === i) items.push(h("li", { class: "fix-picker-row" }, fixPicker(ui, act, candidates, i)));
  });
  const out = [...new Set(ids)].sort();
  const blocked = ids.some((id) => cannot(id) || twice(id));
  const since = view.beams && view.beams.since_drop;
  const counted = isDrop && Array.isArray(since) && (since[0] || since[1]) ? since[1] : null;
  const label = out.length ? t("drop.confirm", { n: out.length }) : t("drop.nothing");
  const confirm = bigButton(label, "fix-confirm", () => settle(view, act, out), "primary");
  confirm.disabled = blocked || (!out.length && !isDrop);
  const source = q.observation.source;

  return h("section", { class: `panel question q-${q.kind} fix`, testid: "question", dataset: { kind: q.kind } },
    h("h2", {}, t(q.kind === "confirm" ? "question.confirm" : "question.contradiction")),
    q.reason ? h("p", { class: "reason", testid: "question-reason" }, q.reason) : null,
    beamsSoFar(view),
    h("h3", {}, t(source === "camera" ? "fix.title" : "fix.titleOther")),
    h("p", { class: "hint" }, t("fix.hint")),
    rows.length ? null : h("p", { class: "muted" }, t("fix.empty")),
    h("ul", { class: "fix-list", testid: "fix-list" }, items),
    ui.picking === "add" ? fixPicker(ui, act, candidates, "add")
      : h("button", { class: "big subtle fix-add", testid: "fix-add", onclick: () => { ui.picking = "add"; act.rerender(); } },
        "+ ", t("fix.add")),
    counted !== null ? h("p", { class: `fix-count${counted !== out.length ? " differ" : ""}`, testid: "fix-count" },
      t("fix.count", { n: num(out.length), out: num(counted) })) : null,
    blocked ? h("p", { class: "fix-blocked", testid: "fix-blocked" }, t("fix.blocked")) : null,
    h("div", { class: "confirm-row" }, confirm, dismissButton(act)));
}

// "Enter what came out by hand": the tapper, on a table whose devices would read the drop.
function byHandButton(ui, act) {
  return h("button", { class: "big subtle by-hand", testid: "drop-by-hand",
    onclick: () => { ui.tapMode = "drop"; ui.tapped = new Set(); act.rerender(); } }, t("dev.byHandOpen"));
}

// On a table with devices: what they do with a drop, or how the game goes on without them.
function deviceHint(view) {
  const status = devices();
  if (!hasDevices(status)) return null;
  return byHandNote(status, { testid: "drop-byhand" })
    || h("p", { class: "hint dev-watching", testid: "drop-watching" },
      t(cameraHealth(status) === "ok" ? "dev.watching" : "dev.counting"));
}

// After a throw on a table with devices: the camera and the beams read the drop.
function readingBox(view, ui, act) {
  const c = view.chance;
  const slow = Date.now() - ui.reading.since > SLOW_READING_MS;
  return h("div", { class: "picker reading", testid: "reading", role: "status", "aria-live": "polite" },
    h("div", { class: "reading-head" }, h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", {}, t(ui.reading.by === "sensors" ? "dev.reading.sensors" : "dev.reading.camera"))),
    drinkRow(c.thrown, { testid: "thrown-reading" }),
    beamsSoFar(view),
    slow ? [h("p", { class: "hint" }, t("dev.reading.slow")), byHandButton(ui, act)] : null);
}

// What the table view is asked to enter now (null when nothing).
export function chancePanel(view, ui, act, renderer = {}) {
  const c = view.chance;
  if (!c || view.question) return null;
  if (c.kind === "drop") {
    if (view.simulated && ui.tapMode === "drop") {
      return tapper({ title: t("drop.title"), candidates: dropCandidates(view), ui, act, allowNone: true,
        onConfirm: (drinks) => report(view, act, drinks), cancel: () => { ui.tapMode = null; act.rerender(); } });
    }
    if (view.simulated && ui.reading) return readingBox(view, ui, act);
    if (view.simulated) {
      // A device that cannot read the drop: say so, and offer to enter it by hand.
      const note = hasDevices(devices()) ? byHandNote(devices(), { testid: "drop-byhand" }) : null;
      return h("div", { class: "picker throw-box" },
        h("p", { class: "hint" }, t("throw.hint")), drinkRow(c.thrown, { testid: "to-throw" }), note,
        note ? h("div", { class: "confirm-row" }, bigButton(t("throw"), "throw", () => act.throw(), "primary huge"),
          byHandButton(ui, act)) : bigButton(t("throw"), "throw", () => act.throw(), "primary huge"));
    }
    return [deviceHint(view), beamsSoFar(view),
      tapper({ title: t("drop.title"), candidates: dropCandidates(view), ui, act, allowNone: true,
        onConfirm: (drinks) => report(view, act, drinks) })];
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
