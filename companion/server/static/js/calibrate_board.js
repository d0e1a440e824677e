// The board calibration page (/calibrate-board, the host's): a photo of the empty TOKYO METRO
// board with its four corner markers (an upload, or the board camera's latest frame), then the
// host taps the stations it names one by one (well spread: the server suggests them), and the
// fit is saved for the board camera, with how far off an untapped station may still be (mm).
// Its words are in static/i18n/<lang>/calibrate_board.json; the API is
// server/routes/board_calibration.py.
import { h, s, replace, langToggle } from "./dom.js";
import { t, applyStatic, onLangChange, getLang, num } from "./i18n.js";
import { request, ApiError } from "./api.js";
import { hostPage } from "./host_page.js";

const MAX_SIDE = 2400;       // the photo is sent scaled to this (the server keeps no more)
const JPEG_QUALITY = 0.9;
const ASKED = 6;             // taps asked for; 3 are enough to fit, 5 or more fit a bend too
const MIN_TAPS = 3;

const app = document.getElementById("app");
document.getElementById("lang-slot").append(langToggle());

const state = {
  saved: null, photo: null, suggested: [], camera: false,
  taps: {},          // station id -> [x, y] in the photo's pixels
  skipped: new Set(),
  message: null,     // { kind: "bad" | "good" | "busy", text }
  result: null,      // the saved calibration after a fit
  photoTs: 0,
};

const mm = (v) => num(Math.round(v * 10) / 10);   // a residual: to a tenth of a millimetre
const say = (kind, text) => { state.message = kind ? { kind, text } : null; draw(); };

// The next station to tap: the first suggestion neither tapped nor skipped.
function nextStation() {
  return state.suggested.find((st) => !(st.station in state.taps) && !state.skipped.has(st.station)) || null;
}

function stationName(st) {
  return getLang() === "ja" && st.name_ja ? st.name_ja : st.name;
}

// --- the photo: an upload (scaled down here) or the board camera's frame --------------------

function scaledJpeg(file) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      const k = Math.min(1, MAX_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(img.naturalWidth * k);
      canvas.height = Math.round(img.naturalHeight * k);
      canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("encode"))), "image/jpeg", JPEG_QUALITY);
    };
    img.onerror = () => { URL.revokeObjectURL(url); reject(new Error("decode")); };
    img.src = url;
  });
}

async function sendPhoto(body, source) {
  const res = await fetch(`/api/board/calibration/photo?source=${source}`, {
    method: "POST", body,
    headers: { "Accept-Language": getLang(), ...(body ? { "Content-Type": "image/jpeg" } : {}) },
  });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const d = data && data.detail;
    throw new ApiError(res.status, typeof d === "string" ? d : t("error.http", { status: res.status }));
  }
  return data;
}

// Each photo taken gets a number; only the newest one's answer is shown, so a slow answer to an
// earlier photo (a refused one, say) never overwrites the answer to the photo sent after it.
let photoSeq = 0;

async function takePhoto(getBody, source) {
  const seq = ++photoSeq;
  say("busy", t("calib.finding"));
  try {
    const body = await getBody();
    const info = await sendPhoto(body, source);
    if (seq === photoSeq) took(info);
  } catch (err) {
    if (seq === photoSeq) say("bad", err instanceof ApiError ? err.message : t("calib.notImage"));
  }
}

function took(info) {
  Object.assign(state, { saved: info.saved, photo: info.photo, suggested: info.suggested || [], camera: info.camera,
    taps: {}, skipped: new Set(), result: null, photoTs: Date.now() });
  say("good", t("calib.found", { n: info.photo.markers.length }));
}

function sourcePanel() {
  const input = h("input", { type: "file", accept: "image/*", testid: "calib-file",
    onchange: () => { if (input.files[0]) takePhoto(() => scaledJpeg(input.files[0]), "upload"); } });
  return h("section", { class: "panel", testid: "calib-source" },
    h("h2", {}, t("calib.photo")),
    h("ol", { class: "calib-steps" },
      h("li", {}, t("calib.step.print")), h("li", {}, t("calib.step.lay")), h("li", {}, t("calib.step.photo"))),
    h("div", { class: "calib-source" },
      h("label", { class: "big primary" }, input, t(state.photo ? "calib.uploadAgain" : "calib.upload")),
      state.camera ? h("button", { class: "big", testid: "calib-camera",
        onclick: () => takePhoto(() => null, "camera") }, t("calib.fromCamera")) : null));
}

// --- tapping ----------------------------------------------------------------------------------

function tapAt(event, box) {
  const st = nextStation();
  if (!st || !state.photo) return;
  const rect = box.getBoundingClientRect();
  const x = (event.clientX - rect.left) * state.photo.width / rect.width;
  const y = (event.clientY - rect.top) * state.photo.height / rect.height;
  state.taps[st.station] = [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
  state.result = null;
  say(null);
}

function undo() {
  const ids = Object.keys(state.taps);
  if (ids.length) delete state.taps[ids[ids.length - 1]];
  state.result = null;
  say(null);
}

function skip() {
  const st = nextStation();
  if (st) state.skipped.add(st.station);
  say(null);
}

async function fit() {
  say("busy", t("calib.fitting"));
  try {
    const saved = await request("POST", "/api/board/calibration", { taps: state.taps }, { quiet: true });
    state.saved = saved;
    state.result = saved;
    say("good", t("calib.savedNow", { mm: mm(saved.residual_mm), n: saved.taps }));
  } catch (err) {
    say("bad", err.message);
  }
}

function overlay() {
  const { width: w, height: hgt } = state.photo;
  const unit = Math.max(w, hgt) / 200;     // a tap's dot: 1/200 of the photo, whatever its size
  const st = nextStation();
  const names = Object.fromEntries(state.suggested.map((x) => [x.station, x]));
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, preserveAspectRatio: "none", "aria-hidden": "true" },
    s("polygon", { class: "sheet", points: state.photo.sheet.map((p) => p.join(",")).join(" "),
      "stroke-width": unit / 2 }),
    st ? s("circle", { class: "hint-ring", cx: st.x, cy: st.y, r: unit * 6, "stroke-width": unit / 2 }) : null,
    Object.entries(state.taps).map(([id, [x, y]], i) => s("g", { "data-testid": "calib-tap" },
      s("circle", { class: "tap", cx: x, cy: y, r: unit, "stroke-width": unit / 4 }),
      s("text", { class: "tap-label", x: x + unit * 1.5, y: y - unit * 1.5, "font-size": unit * 3.2,
        "stroke-width": unit / 2 }, `${i + 1} ${names[id] ? stationName(names[id]) : id}`))));
}

function tapPanel() {
  if (!state.photo) return null;
  const n = Object.keys(state.taps).length;
  const st = nextStation();
  const img = h("img", { src: `/api/board/calibration/photo.jpg?ts=${state.photoTs}`, alt: t("calib.photoAlt"),
    width: state.photo.width, height: state.photo.height, draggable: "false" });
  const box = h("div", { class: "calib-photo", testid: "calib-photo" }, img);
  box.append(overlay());
  box.addEventListener("click", (ev) => tapAt(ev, box));
  const prompt = st
    ? h("p", { class: "calib-prompt", testid: "calib-prompt", dataset: { station: st.station } },
      t(n >= ASKED ? "calib.tapMore" : "calib.tapNext", { station: stationName(st), k: n + 1, of: ASKED }),
      getLang() !== "ja" && st.name_ja ? h("span", { class: "ja", lang: "ja" }, st.name_ja) : null)
    : h("p", { class: "calib-prompt", testid: "calib-prompt" }, t("calib.noMore"));
  return h("section", { class: "panel", testid: "calib-tapping" },
    h("h2", {}, t("calib.tap")),
    h("p", { class: "hint" }, t("calib.tapHint")),
    prompt, box,
    h("div", { class: "calib-actions" },
      h("button", { class: "big primary", testid: "calib-fit", disabled: n < MIN_TAPS, onclick: fit },
        t("calib.fit", { n, count: n })),
      h("button", { class: "big", testid: "calib-undo", disabled: n === 0, onclick: undo }, t("calib.undo")),
      st ? h("button", { class: "big", testid: "calib-skip", onclick: skip }, t("calib.skip")) : null),
    n < MIN_TAPS ? h("p", { class: "hint" }, t("calib.needThree", { n: MIN_TAPS })) : null);
}

// --- the page ---------------------------------------------------------------------------------

function savedLine() {
  const sv = state.saved;
  if (!sv || !sv.calibrated) {
    return h("p", { class: "calib-saved", testid: "calib-saved", dataset: { calibrated: "0" } },
      sv && sv.problem ? sv.problem : t("calib.notYet"));
  }
  return h("p", { class: "calib-saved", testid: "calib-saved", dataset: { calibrated: "1" } },
    t("calib.savedLine", { n: sv.taps, count: sv.taps, mm: mm(sv.residual_mm),
      fit: t(sv.fit === "smooth" ? "calib.fit.smooth" : "calib.fit.affine") }),
    sv.snapped ? h("span", { class: "muted", testid: "calib-snapped" }, " ", t("calib.snapped", { n: sv.snapped, count: sv.snapped })) : null,
    state.result ? h("span", { class: "muted" }, " ",
      t(state.result.camera_reloaded ? "calib.cameraTook" : "calib.cameraLater")) : null);
}

function draw() {
  const msg = state.message;
  replace(app, h("div", { class: "calib", testid: "calib" },
    h("h1", {}, t("calib.title")),
    h("p", { class: "muted" }, t("calib.lead")),
    savedLine(),
    msg ? h("p", { class: `calib-msg ${msg.kind}`, role: msg.kind === "bad" ? "alert" : "status",
      testid: "calib-message", dataset: { kind: msg.kind } }, msg.text) : null,
    sourcePanel(),
    tapPanel()));
}

async function start() {
  if (!(await hostPage(app, "calibrate_board"))) return;
  const info = await request("GET", "/api/board/calibration");
  Object.assign(state, { saved: info.saved, photo: info.photo, suggested: info.suggested || [], camera: info.camera,
    photoTs: Date.now() });
  onLangChange(() => { applyStatic(); draw(); });
  draw();
  app.dataset.ready = "1";
}

applyStatic();
start();
