// The table's own METRO board and cards (/table-cards, the host's): paste or pick each file (board
// corrections or a whole board, action cards, share cards, revenue track; an empty one stays ours),
// "check" shows every fault under the file it is in, or the preview: the board on the METRO map and
// the numbers (lines with shares and surcharges, card sets, the track). A set is saved under a
// name; the saved ones are listed, loaded again to edit, deleted. The lobby offers them for new
// games (lobby_table_cards.js). Words: static/i18n/<lang>/table_cards.json; the API:
// server/routes/table_cards.py; the files: docs/metro-files.md.
import { h, replace, langToggle } from "./dom.js";
import { t, applyStatic, onLangChange, getLang, num } from "./i18n.js";
import { request } from "./api.js";
import { mapPanel } from "./metro/map.js";
import { hostPage } from "./host_page.js";

export const FILES = ["board_corrections", "board", "action_cards", "stock_cards", "revenue_track"];
const MAX_FILE_CHARS = 400_000;   // a pretty-printed board is ~85,000 characters

const app = document.getElementById("app");
document.getElementById("lang-slot").append(langToggle());

const state = {
  name: "", system: "tokyo",
  text: Object.fromEntries(FILES.map((f) => [f, ""])),
  faults: [],        // {file, where, reason}
  preview: null,     // {geometry, summary}
  sets: [],
  message: null,     // {kind: "bad" | "good" | "busy", text}
};

const say = (kind, text) => { state.message = kind ? { kind, text } : null; draw(); };

// POST with the faults of a 422 kept (api.js keeps only the detail).
async function post(path, body) {
  const res = await fetch(path, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "Accept-Language": getLang() } });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (res.ok) return { ok: true, data };
  const faults = data && Array.isArray(data.faults) ? data.faults : null;
  const detail = data && typeof data.detail === "string" ? data.detail : t("error.http", { status: res.status });
  return { ok: false, faults, detail };
}

// The set as the API takes it; faults for a file that is no JSON object (found here, not sent).
function gathered() {
  const body = { name: state.name.trim(), system: state.system };
  const faults = [];
  for (const f of FILES) {
    const text = state.text[f].trim();
    if (!text) continue;
    try {
      const value = JSON.parse(text);
      if (!value || typeof value !== "object" || Array.isArray(value)) faults.push({ file: f, where: "/", reason: t("tc.notObject") });
      else body[f] = value;
    } catch (err) {
      faults.push({ file: f, where: "/", reason: t("tc.notJson", { why: err.message }) });
    }
  }
  return { body, faults };
}

function refused(faults, detail) {
  state.faults = faults || [];
  state.preview = null;
  say("bad", faults ? t("tc.faults", { n: faults.length, count: faults.length }) : detail);
}

async function check() {
  const { body, faults } = gathered();
  if (faults.length) { refused(faults); return; }
  say("busy", t("tc.checking"));
  const res = await post("/api/table-cards/check", body);
  if (!res.ok) { refused(res.faults, res.detail); return; }
  state.faults = [];
  state.preview = res.data;
  say("good", t("tc.good"));
}

async function save() {
  const { body, faults } = gathered();
  if (faults.length) { refused(faults); return; }
  if (!body.name) { say("bad", t("tc.needName")); return; }
  say("busy", t("tc.checking"));
  const res = await post("/api/table-cards/sets", body);
  if (!res.ok) { refused(res.faults, res.detail); return; }
  state.faults = [];
  state.preview = { geometry: res.data.geometry, summary: res.data.summary };
  await loadSets();
  say("good", t("tc.saved", { name: res.data.name }));
}

async function loadSets() {
  state.sets = (await request("GET", "/api/table-cards/sets")).sets;
}

async function edit(set) {
  const got = await request("GET", `/api/table-cards/sets/${encodeURIComponent(set.id)}`);
  state.name = got.name;
  state.system = got.system;
  for (const f of FILES) state.text[f] = got.content[f] ? JSON.stringify(got.content[f], null, 1) : "";
  state.faults = [];
  state.preview = null;
  await check();
}

async function remove(set) {
  await request("DELETE", `/api/table-cards/sets/${encodeURIComponent(set.id)}`);
  await loadSets();
  say("good", t("tc.deleted", { name: set.name }));
}

// --- drawing ------------------------------------------------------------------------------------

function fileSlot(f) {
  const mine = state.faults.filter((x) => x.file === f);
  const area = h("textarea", { testid: `tc-text-${f}`, spellcheck: "false", "aria-label": t(`tc.file.${f}`),
    maxlength: MAX_FILE_CHARS, oninput: (e) => { state.text[f] = e.target.value; } });
  area.value = state.text[f];
  const picker = h("input", { type: "file", accept: ".json,application/json", testid: `tc-pick-${f}`,
    "aria-label": t(`tc.file.${f}`),
    onchange: async (e) => {
      const file = e.target.files && e.target.files[0];
      if (!file) return;
      state.text[f] = (await file.text()).slice(0, MAX_FILE_CHARS);
      area.value = state.text[f];
    } });
  return h("section", { class: `panel tc-file${mine.length ? " bad" : ""}`, testid: `tc-file-${f}` },
    h("h3", {}, t(`tc.file.${f}`)),
    h("p", { class: "muted hint" }, t("tc.fileHint")),
    area,
    h("div", { class: "tc-actions" }, picker,
      h("button", { type: "button", onclick: () => { state.text[f] = ""; area.value = ""; } }, t("tc.clear"))),
    mine.length ? h("ul", { class: "tc-faults", testid: `tc-faults-${f}` },
      mine.map((x) => h("li", { testid: "tc-fault", dataset: { where: x.where } }, h("code", {}, x.where), " ", x.reason)))
      : null);
}

// Faults of the set as a whole (its name, its size): above the files.
function setFaults() {
  const other = state.faults.filter((x) => !FILES.includes(x.file));
  if (!other.length) return null;
  return h("ul", { class: "tc-faults", testid: "tc-faults-set" },
    other.map((x) => h("li", { testid: "tc-fault" }, t(`tc.file.${x.file}`), ": ", x.reason)));
}

function head() {
  const systems = ["tokyo", "osaka"];
  return h("div", { class: "tc-head" },
    h("label", {}, t("tc.name"),
      h("input", { testid: "tc-name", value: state.name, maxlength: 40, autocomplete: "off",
        oninput: (e) => { state.name = e.target.value; } })),
    h("label", {}, t("tc.system"),
      h("select", { testid: "tc-system", onchange: (e) => { state.system = e.target.value; } },
        systems.map((sy) => h("option", { value: sy, selected: sy === state.system }, t(`tc.system.${sy}`))))));
}

// A view of a game not yet begun on this board, for the METRO map to draw.
function mapView(preview) {
  const track = preview.summary.revenue_track;
  const [, high, low] = track.rows[0];
  return {
    game_id: "table-cards-preview", seq: 0, viewer: null, moves: [],
    state: { board: preview.geometry, players: [], pyramids: [], to_act: [], phase: "preview", round: 0,
      preview: null, track: { step: track.step, top: track.top },
      lines: preview.geometry.lines.map((l) => ({ letter: l.letter, name: l.name, colour: l.colour, value: 0,
        high, low, over_6000: false, train: null })) },
  };
}

function fromLine(what, from) {
  return h("p", { class: "muted", testid: `tc-from-${what}` }, t("tc.from", { what: t(`tc.file.${what}`), from: t(`tc.from.${from}`) }));
}

function summaryPanel(sm) {
  const surcharges = Object.fromEntries(sm.stock_cards.lines.map((l) => [l.letter, l.surcharges]));
  const lines = h("div", {},
    h("h3", {}, t("tc.lines")),
    fromLine(sm.board.from === "corrections" ? "board_corrections" : "board", sm.board.from),
    fromLine("stock_cards", sm.stock_cards.from),
    h("table", { testid: "tc-lines" },
      h("tr", {}, ["line", "shares", "discs", "stops", "surcharges"].map((k) => h("th", {}, t(`tc.col.${k}`)))),
      sm.board.lines.map((l) => h("tr", { testid: `tc-line-${l.letter}`, dataset: { shares: String(l.shares) } },
        h("td", {}, h("span", { class: "tc-swatch", style: `background:${l.colour}` }), `${l.letter} ${l.name}`),
        h("td", {}, num(l.shares)), h("td", {}, num(l.disc_spaces)), h("td", {}, num(l.stops)),
        h("td", {}, (surcharges[l.letter] || []).map(num).join(" · "))))));
  const cards = h("div", {},
    h("h3", {}, t("tc.cards", { n: num(sm.action_cards.cards) })),
    fromLine("action_cards", sm.action_cards.from),
    h("table", { testid: "tc-card-sets" },
      h("tr", {}, ["set", "cards", "dots"].map((k) => h("th", {}, t(`tc.col.${k}`)))),
      sm.action_cards.sets.map((s) => h("tr", {}, h("td", {}, s.id), h("td", {}, num(s.cards)),
        h("td", {}, s.dots.map(num).join(" · "))))),
    h("p", { testid: "tc-players" }, t("tc.players", { list: sm.players.map(num).join(", ") })));
  const tr = sm.revenue_track;
  const track = h("div", {},
    h("h3", {}, t("tc.track", { step: num(tr.step), top: num(tr.top) })),
    fromLine("revenue_track", tr.from),
    h("div", { class: "tc-track" }, h("table", { testid: "tc-track" },
      h("tr", {}, h("th", {}, t("tc.col.value")), h("th", {}, t("tc.col.split"))),
      tr.rows.map(([v, hi, lo]) => h("tr", {}, h("td", {}, num(v)), h("td", {}, `${num(hi)} / ${num(lo)}`))))));
  return h("div", { class: "tc-summary", testid: "tc-summary" }, lines, cards, track);
}

// The ids a corrections file names: each line's stops, each station's circles.
function idsPanel(geometry) {
  return h("details", { class: "tc-ids", testid: "tc-ids" },
    h("summary", {}, t("tc.ids")),
    h("ul", {}, geometry.lines.map((l) => h("li", {}, h("strong", {}, l.letter), " ",
      l.stops.map((s) => s.circle).join(", ")))),
    h("ul", {}, geometry.stations.map((s) => h("li", {}, `${s.name} — `, h("code", {}, s.id),
      s.circles.length > 1 || s.circles[0].id !== s.id ? ` (${s.circles.map((c) => c.id).join(", ")})` : ""))));
}

function previewPanel() {
  if (!state.preview) return null;
  return h("section", { class: "panel", testid: "tc-preview" },
    h("h2", {}, t("tc.preview")),
    mapPanel(mapView(state.preview)),
    summaryPanel(state.preview.summary),
    idsPanel(state.preview.geometry));
}

function setsPanel() {
  return h("section", { class: "panel", testid: "tc-sets" },
    h("h2", {}, t("tc.savedSets")),
    state.sets.length ? h("ul", { class: "tc-sets" }, state.sets.map((set) => h("li", { testid: `tc-set-${set.id}` },
      h("strong", {}, set.name),
      h("span", { class: "muted" }, t(`tc.system.${set.system}`), " · ", set.files.map((f) => t(`tc.file.${f}`)).join(", ")),
      h("button", { type: "button", testid: `tc-edit-${set.id}`, onclick: () => edit(set) }, t("tc.edit")),
      h("button", { type: "button", testid: `tc-delete-${set.id}`, onclick: () => remove(set) }, t("tc.delete")))))
      : h("p", { class: "muted" }, t("tc.noSets")));
}

function draw() {
  const msg = state.message;
  document.title = t("tc.title");
  replace(app, h("div", { class: "tc", testid: "tc" },
    h("h1", {}, t("tc.title")),
    h("p", { class: "muted" }, t("tc.lead")),
    h("section", { class: "panel" }, head()),
    h("div", { class: "tc-files" }, FILES.map(fileSlot)),
    setFaults(),
    h("div", { class: "tc-actions" },
      h("button", { type: "button", class: "big", testid: "tc-check", onclick: check }, t("tc.check")),
      h("button", { type: "button", class: "big primary", testid: "tc-save", onclick: save }, t("tc.save"))),
    msg ? h("p", { class: `tc-msg ${msg.kind}`, role: msg.kind === "bad" ? "alert" : "status", testid: "tc-message",
      dataset: { kind: msg.kind } }, msg.text) : null,
    previewPanel(),
    setsPanel()));
}

async function start() {
  if (!(await hostPage(app, "table_cards", "tokyo_metro"))) return;   // the map's words too
  await loadSets();
  onLangChange(() => { applyStatic(); draw(); });
  draw();
  app.dataset.ready = "1";
}

applyStatic();
start();
