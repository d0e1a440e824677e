// The golden-ball runner race: a big clock while a race runs, the races run so far with their
// winners and times. The clock counts from the race's start as the service stamped it
// (`started_ms`), on the service's clock: GET /api/time once tells how far this device's clock is
// off (half the request's round trip allowed for), so every tablet and phone shows the same time.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import generic from "./generic.js";

const DRAWN = new Set(["started_ms", "results"]);
let offset = null;          // service clock minus this device's, in ms (null: not asked yet)
let asking = null;
let ticking = null;         // one timer for every clock on the page; it stops when none is left

function askOffset() {
  if (asking) return asking;
  const sent = Date.now();
  asking = fetch("/api/time").then((r) => r.json()).then((body) => {
    const back = Date.now();
    offset = body.now_ms + (back - sent) / 2 - back;
  }).catch(() => { offset = 0; });
  return asking;
}

export function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 100));
  const tenths = total % 10, secs = Math.floor(total / 10) % 60, mins = Math.floor(total / 600);
  return `${mins}:${String(secs).padStart(2, "0")}.${tenths}`;
}

function tick() {
  const clocks = document.querySelectorAll("[data-race-clock]");
  if (!clocks.length) { clearInterval(ticking); ticking = null; return; }
  const now = Date.now() + (offset ?? 0);
  for (const el of clocks) el.textContent = clockText(now - Number(el.dataset.raceClock));
}

function clockPanel(view) {
  const st = view.state;
  if (st.phase !== "race" || !Number.isInteger(st.started_ms)) return null;
  if (offset === null) askOffset();
  if (!ticking) ticking = setInterval(tick, 100);
  const now = Date.now() + (offset ?? 0);
  return h("section", { class: "panel race-clock", testid: "race-clock" },
    h("h2", {}, t("gr.clock", { race: st.race, races: st.races_to_run })),
    h("div", { class: "race-time", testid: "race-time", dataset: { raceClock: String(st.started_ms) } },
      clockText(now - st.started_ms)));
}

function resultsPanel(view) {
  const st = view.state;
  if (!Array.isArray(st.results) || !st.results.length) return null;
  const name = (p) => (st.players[p] || {}).name || String(p);
  return h("section", { class: "panel race-results", testid: "race-results" },
    h("h2", {}, t("gr.results")),
    h("ol", {}, st.results.map((r) => h("li", { testid: `race-result-${r.race}`, dataset: { side: r.side } },
      t(r.side === "runner" ? "gr.runnerWon" : "gr.cratesWon", { winners: r.winners.map(name).join(", ") }),
      r.elapsed_ms === null ? "" : ` · ${clockText(r.elapsed_ms)}`))));
}

const withoutDrawn = (view) => ({ ...view, state: Object.fromEntries(Object.entries(view.state)
  .filter(([k]) => !DRAWN.has(k))) });

function result(view, opts = {}) {
  return [clockPanel(view), resultsPanel(view), ...generic.result(view, opts)];
}

function side(view) {
  return generic.side(withoutDrawn(view));
}

// (a phone draws the results too: the clock and the races run reach it through `result`)
export default { side, result, overExtra: generic.overExtra };
