// Entering chance at the table, for every game: a listed outcome (who starts, which drink was
// dealt; a secret one on its owner's phone), what came out of the tower, what fell out on its
// own; and the questions a person must settle (with a one-tap correction of each drink a camera
// misread, the game's likely answer preselected). A drop whose number of drinks the exit beam
// contradicts is confirmed only through a second, plainly worded step (the override). Drinks
// already thrown are never offered for throwing again: the tray is read again, or entered by
// hand. A game's renderer may draw a choice its own way.
import { h } from "./dom.js";
import { quietFailure } from "./api.js";
import { t, tFor, has, num, drinkName } from "./i18n.js";
import { drinkSvg, isDrink } from "./drinks.js";
import { drinkRow } from "./parts.js";
import { actionLabel, argsNodes } from "./values.js";
import { devices, hasDevices, cameraHealth, byHandNote, beamsSoFar } from "./devices.js";

const SLOW_READING_MS = 25000; // a drop not read by then may be entered by hand

// `ui` keeps what a person is in the middle of tapping across re-renders:
// { colour, shape, tapMode: null | "drop" | "spill" | "correct", tapped: Set,
//   fix: the corrected drinks of a question [{id, det, was, guess}], picking: row index | "add" | null,
//   override: {out, counted} while the beam's override is offered for a drop,
//   reading: {chance, since, by} while a thrown drop is being read by the devices }.
export function freshUi() {
  return { colour: null, shape: null, tapMode: null, tapped: new Set(), key: null, fix: null, picking: null,
    override: null, reading: null };
}

// A change of round, phase or question ends whatever was being tapped (a drop being read
// goes on: the table view ends it when the drop or a question arrives).
export function syncUi(ui, view) {
  const key = `${view.state.round}:${view.state.phase}:${view.question ? JSON.stringify(view.question.observation) : ""}`;
  if (ui.key !== key) Object.assign(ui, freshUi(), { key, reading: ui.reading });
}

export async function busy(btn, fn) {
  btn.disabled = true;
  try { await fn(); } catch (err) { quietFailure(err); } finally { btn.disabled = false; }
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
function tapper({ title, candidates, ui, act, onConfirm, allowNone, cancel, game = null }) {
  const n = ui.tapped.size;
  const label = n ? t("drop.confirm", { n }) : allowNone ? t("drop.nothing") : t("question.yes");
  const confirm = bigButton(label, "tap-confirm",
    () => onConfirm([...ui.tapped].sort()), "primary");
  confirm.disabled = !n && !allowNone;
  return h("div", { class: "picker tapper", testid: "tapper" },
    h("h2", {}, title), h("p", { class: "hint" }, tFor(game, "drop.hint")),
    h("div", { class: "tap-grid" }, candidates.map((d) => h("button", {
      class: `move move-tap${ui.tapped.has(d) ? " selected" : ""}`, testid: `tap-${d}`,
      "aria-pressed": ui.tapped.has(d) ? "true" : "false",
      onclick: () => { if (ui.tapped.has(d)) ui.tapped.delete(d); else ui.tapped.add(d); act.rerender(); },
    }, drinkSvg(d)))),
    h("div", { class: "confirm-row" }, confirm,
      cancel ? h("button", { class: "big", testid: "tap-cancel", onclick: cancel }, t("drop.cancel")) : null));
}

// What is stuck in the tower: a tower game's `tower.stuck`, METRO DRINKS' `drinks.tower`.
function stuckNow(view) {
  const st = view.state;
  return (st.tower && st.tower.stuck) || (st.drinks && st.drinks.tower) || [];
}

function dropCandidates(view) {
  const c = view.chance;
  if (c && c.kind === "drop") return [...new Set([...c.thrown, ...c.inside])];
  return stuckNow(view);
}

// How many drinks the exit beam counted coming out of the awaited drop (null: no drop awaited,
// or no beam counted it).
function beamsCounted(view) {
  const since = view.beams && view.beams.since_drop;
  const isDrop = Boolean(view.chance && view.chance.kind === "drop");
  return isDrop && Array.isArray(since) && (since[0] || since[1]) ? since[1] : null;
}

// Confirm a drop's drinks with `enter` (a move or a person's report); when the exit beam counted
// another number, first the override step, which asks the person to look and says what it does.
// The server refuses such a drop without the override (409), so a stale count ends there too.
async function confirmDrop(view, ui, act, drinks, enter) {
  const out = [...drinks].sort();
  const counted = beamsCounted(view);
  if (counted !== null && counted !== out.length) {
    ui.override = { out, counted };
    act.rerender();
    return;
  }
  try {
    await enter(out);
  } catch (err) {
    // the beam counted more since the page last heard (the server words it: "the exit beam counted …")
    if (err && err.status === 409 && /exit beam/.test(err.message || "")) { ui.override = { out, counted }; act.rerender(); }
    throw err;
  }
}

// The override: a drop the beam contradicts, confirmed by a person who looked (logged).
function overrideStep(view, ui, act) {
  const { out, counted } = ui.override;
  const move = { kind: view.chance.move_kind, player: "chance", args: { out } };
  return h("section", { class: "panel question override", testid: "override", role: "alertdialog",
    dataset: { n: String(out.length), counted: String(counted) } },
  h("h2", {}, t("override.title")),
  h("p", { class: "reason", testid: "override-reason" },
    t("override.reason", { n: num(out.length), out: num(counted ?? 0) })),
  drinkRow(out, { testid: "override-drinks", empty: t("override.none") }),
  h("p", { class: "hint" }, t("override.hint")),
  h("div", { class: "confirm-row" },
    bigButton(t("override.confirm", { n: num(out.length) }), "override-confirm",
      async () => { await act.move(move, { override_beams: true }); ui.override = null; }, "danger"),
    h("button", { class: "big", testid: "override-cancel", onclick: () => { ui.override = null; act.rerender(); } },
      t("override.back"))));
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

// The drinks a question preselects: the game's likely answer (table/reconcile.py), else what was seen.
function likelyOf(q) {
  return Array.isArray(q.likely) ? q.likely : q.observation.appeared || [];
}

// "Enter by hand": every drink that could have come out, the likely answer preselected.
function byHandFromQuestion(view, q, ui, act) {
  return h("button", { class: "big", testid: "question-by-hand", onclick: () => {
    const can = new Set(dropCandidates(view));
    ui.tapMode = "correct";
    ui.tapped = new Set(likelyOf(q).filter((d) => !can.size || can.has(d)));
    ui.picking = null;
    act.rerender();
  } }, t("question.byHand"));
}

// The question of the table: confirm an unsure observation, or correct it.
export function questionPanel(view, ui, act) {
  const q = view.question;
  if (!q) return null;
  if (ui.override && view.chance && view.chance.kind === "drop") return overrideStep(view, ui, act);
  const isDrop = Boolean(view.chance && view.chance.kind === "drop");
  if (ui.tapMode === "correct") {
    // A drop: what was thrown in or is stuck inside, nothing else can have come out.
    const candidates = isDrop ? dropCandidates(view) : [...new Set([...dropCandidates(view), ...q.observation.appeared])];
    return h("section", { class: "panel question", testid: "question", dataset: { kind: q.kind, mode: "by-hand" } },
      tapper({
        title: t("question.byHandTitle"), candidates, ui, act, allowNone: isDrop, game: view.game,
        onConfirm: (drinks) => (isDrop ? confirmDrop(view, ui, act, drinks, (out) => settle(view, act, out))
          : settle(view, act, drinks)),
        cancel: () => { ui.tapMode = null; act.rerender(); },
      }), beamsSoFar(view));
  }
  if (detections(q).length) return fixPanel(view, q, ui, act);
  const likely = likelyOf(q);
  const seen = q.observation.appeared || [];
  const differs = JSON.stringify([...likely].sort()) !== JSON.stringify([...seen].sort());
  const confirm = q.move && (q.kind === "confirm" || differs)
    ? bigButton(t("question.yes"), "question-confirm", () => (isDrop && q.move.player === "chance"
      ? confirmDrop(view, ui, act, q.move.args.out || [], (out) => settle(view, act, out)) : act.move(q.move)), "primary")
    : null;
  return h("section", { class: `panel question q-${q.kind}`, testid: "question", dataset: { kind: q.kind } },
    h("h2", {}, t(q.kind === "confirm" ? "question.confirm" : "question.contradiction")),
    drinkRow(seen, { testid: "question-drinks" }),
    q.reason ? h("p", { class: "reason", testid: "question-reason" }, q.reason) : null,
    differs ? [h("p", { class: "hint" }, t("question.likely")), drinkRow(likely, { testid: "question-likely" })] : null,
    beamsSoFar(view),
    h("div", { class: "confirm-row" }, confirm, byHandFromQuestion(view, q, ui, act), dismissButton(act)));
}

// --- one-tap correction of what a camera read ---------------------------------------------------

function detections(q) {
  const d = q.observation && q.observation.detail && q.observation.detail.detections;
  return Array.isArray(d) ? d : [];
}

// The drinks the camera says came out, left to right as in its picture, each with its reading;
// then the game's likely answer laid over them: a reading it settled or guessed otherwise shows
// the guess (`guess`: the camera's id), one it leaves out goes, one the count adds is added.
function detectedRows(q) {
  const appeared = q.observation.appeared || [];
  const dets = detections(q);
  const marked = dets.some((d) => "new" in d);
  const rows = dets.filter((d) => (marked ? d.new === true : appeared.includes(d.id)))
    .sort((a, b) => (a.x ?? 0) - (b.x ?? 0))
    .map((d) => ({ id: d.id, det: d, was: null, guess: null }));
  for (const id of appeared) if (!rows.some((r) => r.id === id)) rows.push({ id, det: null, was: null, guess: null });
  const decisions = (q.reconciled && Array.isArray(q.reconciled.decisions)) ? q.reconciled.decisions : [];
  // the least sure row still showing a reading of `id` (of two readings of one drink, the doubtful one)
  const weakest = (id) => rows.filter((r) => r.id === id && !r.guess)
    .sort((a, b) => (a.det ? a.det.confidence : 1) - (b.det ? b.det.confidence : 1))[0];
  for (const d of decisions) {
    if (d.read && d.as && d.read !== d.as) {
      const row = weakest(d.read);
      if (row) Object.assign(row, { id: d.as, guess: d.read, why: d.why });
    } else if (d.read && !d.as && d.rule === "count") {  // the count left it out; a doubt without a guess stays, marked
      const row = weakest(d.read);
      if (row) rows.splice(rows.indexOf(row), 1);
    } else if (!d.read && d.as && !rows.some((r) => r.id === d.as)) {
      rows.push({ id: d.as, det: null, was: "+", guess: "+", why: d.why });
    }
  }
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
      if (row.was === null) row.was = row.guess && row.guess !== "+" ? row.guess : row.id;
      row.id = d;
      row.guess = null;  // a person chose: no longer the game's guess
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
    return h("li", { class: `fix-row${problem ? " bad" : ""}${d && d.unsure ? " unsure" : ""}${ui.picking === i ? " picking" : ""}${r.guess ? " guessed" : ""}`,
      testid: `fix-row-${i}`, dataset: { drink: r.id, unsure: String(Boolean(d && d.unsure)), changed: String(Boolean(r.was)),
        read: r.guess && r.guess !== "+" ? r.guess : (r.det ? r.det.id : "") } },
    h("button", { class: "fix-drink", testid: `fix-${i}`, "aria-expanded": ui.picking === i ? "true" : "false",
      "aria-label": t("fix.swapNamed", { drink: name }), onclick: () => toggle(i) },
    drinkSvg(r.id, "drink-fix"),
    h("span", { class: "fix-info" },
      h("span", { class: "fix-name" }, name),
      h("span", { class: "fix-meta" },
        d && typeof d.confidence === "number"
          ? h("span", { class: "fix-conf", testid: `fix-conf-${i}` }, t("fix.confidence", { pct: num(Math.round(d.confidence * 100)) })) : null,
        d && d.unsure ? h("span", { class: "tag tag-unsure", testid: `fix-unsure-${i}`, title: d.why || "" }, t("fix.unsure")) : null,
        r.guess ? h("span", { class: "tag tag-guess", testid: `fix-guess-${i}`, title: r.why || "" },
          r.guess === "+" ? t("fix.guessAdded") : t("fix.guessRead", { drink: drinkName(r.guess) }))
          : r.was === "+" ? h("span", { class: "tag tag-fixed" }, t("fix.added"))
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
  const counted = beamsCounted(view);
  const label = out.length ? t("drop.confirm", { n: out.length }) : t("drop.nothing");
  const confirm = bigButton(label, "fix-confirm", () => (isDrop ? confirmDrop(view, ui, act, out, (o) => settle(view, act, o))
    : settle(view, act, out)), "primary");
  confirm.disabled = blocked || (!out.length && !isDrop);
  const source = q.observation.source;

  return h("section", { class: `panel question q-${q.kind} fix`, testid: "question", dataset: { kind: q.kind } },
    h("h2", {}, t(q.kind === "confirm" ? "question.confirm" : "question.contradiction")),
    q.reason ? h("p", { class: "reason", testid: "question-reason" }, q.reason) : null,
    beamsSoFar(view),
    h("h3", {}, t(source === "camera" ? "fix.title" : "fix.titleOther")),
    h("p", { class: "hint" }, t(rows.some((r) => r.guess) ? "fix.hintGuess" : "fix.hint")),
    rows.length ? null : h("p", { class: "muted" }, t("fix.empty")),
    h("ul", { class: "fix-list", testid: "fix-list" }, items),
    ui.picking === "add" ? fixPicker(ui, act, candidates, "add")
      : h("button", { class: "big subtle fix-add", testid: "fix-add", onclick: () => { ui.picking = "add"; act.rerender(); } },
        "+ ", t("fix.add")),
    counted !== null ? h("p", { class: `fix-count${counted !== out.length ? " differ" : ""}`, testid: "fix-count" },
      t("fix.count", { n: num(out.length), out: num(counted) })) : null,
    blocked ? h("p", { class: "fix-blocked", testid: "fix-blocked" }, t("fix.blocked")) : null,
    h("div", { class: "confirm-row" }, confirm, byHandFromQuestion(view, q, ui, act), dismissButton(act)));
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
      h("span", {}, t(ui.reading.by === "sensors" ? "dev.reading.sensors"
        : ui.reading.by === "again" ? "dev.reading.again" : "dev.reading.camera"))),
    drinkRow(c.thrown, { testid: "thrown-reading" }),
    beamsSoFar(view),
    slow ? [h("p", { class: "hint" }, t("dev.reading.slow")), byHandButton(ui, act)] : null);
}

// "Read the tray again": drinks already thrown, a camera that can read them.
function rereadButton(act) {
  const cam = cameraHealth(devices());
  if (!act.reread || cam === "none" || cam === "error" || cam === "lost") return null;
  return bigButton(t("drop.reread"), "drop-reread", () => act.reread(), "primary");
}

// The drop's drinks are in the tower already (a reading was set aside, the beams counted them):
// read the tray again or enter it by hand; throwing again would throw drinks twice.
function seenBox(view, ui, act) {
  return h("div", { class: "picker throw-box seen", testid: "drop-seen" },
    h("p", { class: "hint" }, t("drop.seen")), drinkRow(view.chance.thrown, { testid: "thrown-seen" }),
    beamsSoFar(view),
    h("div", { class: "confirm-row" }, rereadButton(act), byHandButton(ui, act)));
}

// What the table view is asked to enter now (null when nothing).
export function chancePanel(view, ui, act, renderer = {}) {
  const c = view.chance;
  if (!c || view.question) return null;
  if (c.kind === "drop") {
    if (ui.override) return overrideStep(view, ui, act);
    const enter = (drinks) => confirmDrop(view, ui, act, drinks, (out) => report(view, act, out));
    if (view.simulated && ui.tapMode === "drop") {
      return tapper({ title: t("drop.title"), candidates: dropCandidates(view), ui, act, allowNone: true, game: view.game,
        onConfirm: enter, cancel: () => { ui.tapMode = null; act.rerender(); } });
    }
    if (view.simulated && ui.reading) return readingBox(view, ui, act);
    if (view.simulated && c.seen) return seenBox(view, ui, act);
    if (view.simulated) {
      // A device that cannot read the drop: say so, and offer to enter it by hand.
      const note = hasDevices(devices()) ? byHandNote(devices(), { testid: "drop-byhand" }) : null;
      return h("div", { class: "picker throw-box" },
        h("p", { class: "hint" }, tFor(view.game, "throw.hint")), drinkRow(c.thrown, { testid: "to-throw" }), note,
        note ? h("div", { class: "confirm-row" }, bigButton(t("throw"), "throw", () => act.throw(), "primary huge"),
          byHandButton(ui, act)) : bigButton(t("throw"), "throw", () => act.throw(), "primary huge"));
    }
    if (ui.reading && ui.tapMode !== "drop") return readingBox(view, ui, act);
    return [deviceHint(view), beamsSoFar(view), c.seen ? h("div", { class: "confirm-row" }, rereadButton(act)) : null,
      tapper({ title: t("drop.title"), candidates: dropCandidates(view), ui, act, allowNone: true, onConfirm: enter,
        game: view.game })];
  }
  if (!Array.isArray(c.outcomes) || !c.outcomes.length) return null;
  return (renderer.choice && renderer.choice(view, c.outcomes, ui, act)) || choicePicker(view, c.outcomes, act);
}

// "Drinks fell out of the tower" between throws: tap which (from what is stuck).
export function spillControl(view, ui, act) {
  const st = view.state;
  const stuck = stuckNow(view).filter(isDrink);   // a stuck detergent bottle never falls out on its own
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
