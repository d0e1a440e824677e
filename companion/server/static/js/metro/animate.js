// TOKYO METRO: the trains that just ran, moved along their paths on the map. The page remembers
// the train phase preview of the view before; when a newer view shows the trains further on, each
// train glides from its old stop along that path to its new one, stop by stop, and the payouts pop
// up where they happened. Riders ride along. A re-render during the run carries on where it was.
// A device that asks for less motion gets none of it: the trains stand at their new stops at once
// (the payouts are in the preview's list and the feed).
import { lessMotion, s } from "../dom.js";
import { num } from "../i18n.js";
import { playerColour, inkOn, vehiclesOf, U, P } from "./common.js";

export const STEP_MS = 420;

let memory = null;  // {game, seq, preview, pos: {G: "G5/1"}}
let active = null;  // {game, seq, plans, start, duration, finals}

// Where each vehicle stands: "G/0" -> "G5/1" (OSAKA METRO's pairs: "P/0" and "P/1").
function positions(st) {
  const pos = {};
  for (const l of st.lines) {
    const vs = vehiclesOf(l);
    pos[`${l.letter}/0`] = "off";
    for (const v of vs) pos[`${l.letter}/${v.vehicle || 0}`] = `${v.stop}/${v.dir}`;
  }
  return pos;
}

// Animation plans for the trains that moved since the view remembered, or null.
export function planRun(view) {
  const st = view.state;
  const pos = positions(st);
  const before = memory && memory.game === view.game_id ? memory : null;
  if (!before || view.seq !== before.seq) memory = { game: view.game_id, seq: view.seq, preview: st.preview || null, pos };
  const now = performance.now();
  if (lessMotion()) { active = null; return null; }   // the trains stand at their new stops at once
  if (before && view.seq > before.seq && before.preview && before.preview.trains) {
    const plans = [];
    for (const tr of before.preview.trains) {
      const line = st.lines.find((l) => l.letter === tr.line);
      const v = tr.vehicle_index || 0;
      const key = `${tr.line}/${v}`;
      if (!line || before.pos[key] === pos[key]) continue;
      const here = vehiclesOf(line).find((x) => (x.vehicle || 0) === v) || null;
      let k = -1;
      if (here) k = tr.path.findIndex((p) => p.stop === here.stop && p.dir === here.dir);
      if (k < 0 && here) k = tr.path.findIndex((p) => p.stop === here.stop);
      const leaves = !here && tr.leaves;
      if (leaves) k = tr.path.length - 1;
      if (k < 0) continue; // moved some other way (an undo): no glide
      const steps = tr.path.slice(0, k + 1);
      const pays = [];
      for (const pay of tr.payouts) {
        const i = steps.findIndex((p, j) => p.stop === pay.stop && !pays.some((q) => q.i === j + 1));
        if (i >= 0) pays.push({ i: i + 1, pay, x: steps[i].x, y: steps[i].y });
      }
      plans.push({ line: tr.line, vehicle: v, colour: tr.colour, leaves, points: [[tr.x, tr.y], ...steps.map((p) => [p.x, p.y])], pays });
    }
    if (plans.length) {
      const duration = Math.max(...plans.map((p) => p.points.length - 1)) * STEP_MS;
      active = { game: view.game_id, seq: view.seq, plans, start: now, duration, pos };
      return { plans, elapsed: 0 };
    }
  }
  // A re-render (or a later view with the trains where the run left them) while the run is on.
  if (active && active.game === view.game_id && now - active.start < active.duration
      && Object.keys(pos).every((k) => pos[k] === active.pos[k])) {
    return { plans: active.plans, elapsed: now - active.start };
  }
  return null;
}

// How long (ms) the trains' run on the map still takes; 0 when nothing moves.
export function runRemaining() {
  if (!active) return 0;
  return Math.max(0, active.duration - (performance.now() - active.start));
}

function translateOf(el) {
  const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(el.getAttribute("transform") || "");
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

function glide(el, points, offset, elapsed, { fadeOut = false } = {}) {
  const n = points.length - 1;
  const frames = points.map(([x, y], i) => ({
    transform: `translate(${P(x) + offset[0]}px, ${P(y) + offset[1]}px)`, offset: n ? i / n : 1,
    ...(fadeOut ? { opacity: i === n ? 0 : 1 } : {}),
  }));
  const anim = el.animate(frames, { duration: n * STEP_MS, easing: "linear", fill: fadeOut ? "forwards" : "none" });
  anim.currentTime = Math.min(elapsed, n * STEP_MS);
  return anim;
}

// Run the plans on a freshly drawn map (its trains already stand where the run left them).
export function runPlans(svg, { plans, elapsed }) {
  if (!svg.isConnected) return;
  const layer = svg.querySelector(".m-trains");
  const pops = s("g", { class: "m-pops" });
  svg.append(pops);
  // The paths the trains run along, faint, for as long as they run.
  const bands = s("g", { class: "m-run-bands" }, plans.map((plan) => s("polyline", { class: "m-path-band",
    points: plan.points.map(([x, y]) => `${P(x)},${P(y)}`).join(" "), stroke: plan.colour })));
  const stations = svg.querySelector(".m-stations");
  if (stations) stations.before(bands);
  const anims = [];
  for (const plan of plans) {
    let el = svg.querySelector(`.m-train[data-line="${plan.line}"][data-vehicle="${plan.vehicle}"]`)
      || (plan.vehicle ? null : svg.querySelector(`.m-train[data-line="${plan.line}"]`));
    let fadeOut = false;
    if (!el && plan.leaves) { // the train left the board: a ghost rides to the end and fades
      const last = plan.points[plan.points.length - 1];
      el = s("g", { class: "m-train ghost", "data-line": plan.line, "data-vehicle": String(plan.vehicle), transform: `translate(${P(last[0])} ${P(last[1])})` },
        s("circle", { r: 0.34 * U, fill: plan.colour }),
        s("text", { class: "m-train-letter", y: 0.12 * U, fill: inkOn(plan.colour) }, plan.line));
      layer.append(el);
      fadeOut = true;
    }
    if (!el) continue;
    const last = plan.points[plan.points.length - 1];
    const [tx, ty] = translateOf(el);
    const offset = [tx - P(last[0]), ty - P(last[1])];
    el.classList.add("moving");
    anims.push(glide(el, plan.points, offset, elapsed, { fadeOut }));
    for (const rider of svg.querySelectorAll(`.m-meeple[data-riding="${plan.line}"][data-vehicle="${plan.vehicle}"]`)) {
      const [rx, ry] = translateOf(rider);
      anims.push(glide(rider, plan.points, [rx - P(last[0]), ry - P(last[1])], elapsed));
    }
    for (const { i, pay, x, y } of plan.pays) {
      const delay = i * STEP_MS - elapsed;
      if (delay < -STEP_MS * 2) continue;
      const text = `+${num(pay.to_owner || pay.value)}`;
      const colour = pay.to_owner ? playerColour(pay.owner) : "#fff7d1";
      const pop = s("g", { class: "m-pop", transform: `translate(${P(x)} ${P(y) - 0.5 * U})`, opacity: "0" },
        s("rect", { x: -0.6 * U, y: -0.32 * U, width: 1.2 * U, height: 0.5 * U, rx: 0.22 * U, fill: colour }),
        s("text", { y: 0.06 * U, fill: pay.to_owner ? inkOn(colour) : "#111" }, text));
      pops.append(pop);
      const a = pop.animate([
        { opacity: 0, transform: `translate(${P(x)}px, ${P(y) - 0.3 * U}px)` },
        { opacity: 1, transform: `translate(${P(x)}px, ${P(y) - 0.8 * U}px)`, offset: 0.25 },
        { opacity: 1, transform: `translate(${P(x)}px, ${P(y) - 1.0 * U}px)`, offset: 0.75 },
        { opacity: 0, transform: `translate(${P(x)}px, ${P(y) - 1.2 * U}px)` },
      ], { duration: STEP_MS * 3, delay: Math.max(0, delay), fill: "both" });
      if (delay < 0) a.currentTime = -delay;
      anims.push(a);
    }
  }
  if (!anims.length) { pops.remove(); bands.remove(); return; }
  svg.dataset.moving = "true";
  Promise.all(anims.map((a) => a.finished.catch(() => null))).then(() => {
    if (!svg.isConnected) return;
    delete svg.dataset.moving;
    svg.dataset.moved = String(plans.length);
    pops.remove();
    bands.remove();
    for (const el of svg.querySelectorAll(".m-train.moving")) el.classList.remove("moving");
    for (const el of svg.querySelectorAll(".m-train.ghost")) el.remove();
  });
}
