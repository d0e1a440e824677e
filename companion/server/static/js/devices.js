// The table's devices: the camera over the output tray and the sensor board with its two
// break-beams, polled from /api/devices every 2 s. The table view gets a panel (each device's
// state, the watcher's message in plain words, the live camera picture, the beams); a phone
// gets one line. A lost device never stops a game: the panel says so, and the pickers for
// entering a drop by hand stay on screen. Every page polls on its own; nothing here is
// specific to a game.
import { h, replace, on } from "./dom.js";
import { t, tOr, num, onLangChange } from "./i18n.js";
import { api } from "./api.js";
import { drinkSvg } from "./drinks.js";

const POLL_MS = 2000;
const FRAME_MS = 333;  // about three camera pictures a second
const OPEN_KEY = "ttc.devices.open";
const LIVE_KEY = "ttc.devices.live";

// --- polling ----------------------------------------------------------------------------------

let latest;  // undefined: not asked yet; then the last answer of /api/devices
let reachable = true;
let polling = false;
let gameId = null;  // the game whose key this page holds (a phone's or a spectator's key opens only it)
const listeners = [];

export function onDevices(fn) { listeners.push(fn); }
export function devices() { return latest; }

export function startDevicePolling(game = null) {
  if (polling) return;
  polling = true;
  gameId = game;
  const poll = async () => {
    try {
      latest = await api.devices(gameId, { quiet: true });
      reachable = true;
    } catch (_) {
      reachable = false;  // the connection badge says so; keep the last answer on screen
    }
    for (const fn of listeners) fn(latest);
    setTimeout(poll, POLL_MS);
  };
  poll();
}

// --- what the answer means ---------------------------------------------------------------------

// The camera: none | opening | ok | trouble (frames it cannot read) | lost | error (never started).
export function cameraHealth(status) {
  const cam = status && status.camera;
  if (!cam) return "none";
  const src = cam.source;
  if (!src) return cam.error ? "error" : "opening";
  if (src.state === "lost") return "lost";
  if (src.state !== "ok") return "opening";
  const w = cam.watcher;
  if (w && (w.state === "bad_frame" || w.state === "blocked")) return "trouble";
  return "ok";
}

// The sensor board: none | connected | connecting | disconnected | refused.
export function sensorsHealth(status) {
  const s = status && status.sensors;
  if (!s) return "none";
  return ["connected", "connecting", "disconnected", "refused"].includes(s.state) ? s.state : "disconnected";
}

// Which devices are simulated ("camera", "sensors", "both"; null for none or not known yet).
export function simulatedDevices(status = latest) {
  const cam = Boolean(status && status.camera && status.camera.simulated);
  const sen = Boolean(status && status.sensors && status.sensors.simulated);
  return cam && sen ? "both" : cam ? "camera" : sen ? "sensors" : null;
}

export function hasDevices(status = latest) {
  return Boolean(status && (status.camera || status.sensors));
}

// A short key that changes when what the page should say about the devices changes.
export function healthKey(status = latest) {
  return status === undefined ? "?" : `${cameraHealth(status)}/${sensorsHealth(status)}`;
}

const CAMERA_TONE = { none: "off", opening: "wait", ok: "good", trouble: "warn", lost: "bad", error: "bad" };
const SENSOR_TONE = { none: "off", connecting: "wait", connected: "good", disconnected: "bad", refused: "bad" };

function dot(tone, testid) {
  return h("span", { class: `dev-dot dev-${tone}`, testid, "aria-hidden": "true" });
}

// When a device cannot help, say plainly how the game goes on (null when all is well).
export function byHandNote(status = latest, { testid = "devices-byhand", phone = false } = {}) {
  if (status === undefined) return null;
  const cam = cameraHealth(status);
  const sen = sensorsHealth(status);
  let key = null;
  if (cam === "none" && sen === "none") key = "dev.byHand.none";
  else if (["lost", "error", "trouble"].includes(cam)) key = phone ? "dev.byHand.cameraPhone" : "dev.byHand.camera";
  else if (cam === "none" && sen !== "connected" && sen !== "connecting") key = "dev.byHand.none";
  else if (sen === "disconnected" || sen === "refused") key = "dev.byHand.sensors";
  if (!key) return null;
  return h("p", { class: `dev-byhand${key === "dev.byHand.none" ? " calm" : ""}`, testid, role: "note" }, t(key));
}

// --- the beams of a drop -----------------------------------------------------------------------

// How many drinks the tray showed in the latest drop, if a `last…` field of the view tells.
function lastDropOut(state) {
  for (const [k, v] of Object.entries(state || {})) {
    if (!(k === "last" || k.startsWith("last_")) || !v || typeof v !== "object") continue;
    const drop = v.drop && Array.isArray(v.drop.out) ? v.drop : Array.isArray(v.out) ? v : null;
    if (drop) return drop.out.length;
  }
  return null;
}

// "Beams: 7 in, 5 out" for the drop in the latest result (null without beam counts).
export function beamLine(view) {
  const last = view.beams && view.beams.last_drop;
  if (!Array.isArray(last) || (!last[0] && !last[1] && !(latest && latest.sensors))) return null; // no beams here
  const [bin, bout] = last;
  const tray = lastDropOut(view.state);
  const differ = tray !== null && tray !== bout;
  return h("p", { class: `beam-line${differ ? " differ" : ""}`, testid: "beam-counts",
    dataset: { in: String(bin), out: String(bout) } },
  beamIcon(), t("dev.beams.lastDrop", { in: num(bin), out: num(bout) }),
  differ ? h("span", { class: "beam-differ" }, " · ", t("dev.beams.tray", { n: num(tray) })) : null);
}

// The beams counted since the drop began (while it is being thrown or read).
export function beamsSoFar(view) {
  const since = view.beams && view.beams.since_drop;
  if (!Array.isArray(since) || (!since[0] && !since[1] && !(latest && latest.sensors))) return null;
  return h("p", { class: "beam-line", testid: "beams-so-far", dataset: { in: String(since[0]), out: String(since[1]) } },
    beamIcon(), t("dev.beams.soFar", { in: num(since[0]), out: num(since[1]) }));
}

function beamIcon() {
  return h("span", { class: "beam-icon", "aria-hidden": "true" }, "⇣");
}

// Put the beam counts inside the game's result panel, under its title (else beside it).
export function withBeams(result, view) {
  const line = beamLine(view);
  if (!line) return result;
  const nodes = [result].flat(Infinity).filter(Boolean);
  const panel = nodes.find((n) => n.classList && n.classList.contains("result"));
  if (!panel) return [...nodes, line];
  const title = panel.querySelector("h2");
  if (title) title.after(line); else panel.prepend(line);
  return nodes;
}

// --- the table view's panel --------------------------------------------------------------------

function remembered(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === "1";
  } catch (_) { return fallback; }
}

function remember(key, on) {
  try { localStorage.setItem(key, on ? "1" : "0"); } catch (_) { /* storage may be off */ }
}

// The panel, made once and updated in place (so the live picture never flickers):
// returns { el, update(status) }. `onHealth` is called when a device's health changes.
// `isHost()`: whether this page is the host's (only the host makes the camera forget).
export function devicesPanel({ onHealth, isHost = () => false } = {}) {
  const wide = window.matchMedia("(min-width: 700px)").matches;
  const chips = h("span", { class: "dev-chips" });
  const title = h("h2", {});
  const body = h("div", { class: "dev-body" });
  const el = h("details", { class: "panel devices", testid: "devices", open: remembered(OPEN_KEY, true) },
    h("summary", {}, title, chips), body);
  on(el, "toggle", () => remember(OPEN_KEY, el.open));

  // The live picture: its own fold, closed by default on a phone-sized screen.
  const img = h("img", { class: "dev-frame", testid: "camera-image", width: 640, height: 360, hidden: true });
  const placeholder = h("div", { class: "dev-frame-none", testid: "camera-image-none" });
  const caption = h("p", { class: "dev-frame-caption", testid: "camera-stale", hidden: true });
  const liveTitle = h("span", {});
  const live = h("details", { class: "dev-live", testid: "camera-live", open: remembered(LIVE_KEY, wide) },
    h("summary", {}, liveTitle), h("div", { class: "dev-frame-box" }, img, placeholder), caption);
  on(live, "toggle", () => remember(LIVE_KEY, live.open));

  let status;
  let lastHealth = null;
  let loading = false;
  let retryAt = 0; // after a failed picture, wait a poll before asking again

  const showFrame = (ok) => {
    img.hidden = !ok;
    placeholder.hidden = ok;
    img.dataset.state = ok ? "ok" : "none";
  };
  on(img, "load", () => { loading = false; showFrame(true); });
  on(img, "error", () => { loading = false; retryAt = Date.now() + POLL_MS; showFrame(false); });

  const wantFrames = () => el.isConnected && el.open && live.open && document.visibilityState === "visible"
    // the second frame read means the first one was published
    && status && status.camera && status.camera.source && status.camera.source.frames > 1;
  setInterval(() => {
    if (loading || Date.now() < retryAt || !wantFrames()) return;
    loading = true;
    const ts = Date.now();
    img.dataset.ts = String(ts);
    img.src = api.cameraUrl(gameId, ts);
  }, FRAME_MS);

  // What the host's corrections taught the camera (a confirmed drop it had read wrong teaches it
  // that drink's look; an undo takes it back), and, on the host's page, a way to forget it all:
  // a second tap within 5 s, as the table's other irreversible buttons ask.
  let forgetArmed = 0;
  function learnedPart(learned) {
    if (!learned || (!learned.corrections && !learned.problem)) return null;
    const n = learned.corrections;
    const armed = Date.now() < forgetArmed;
    const forget = async () => {
      if (!armed) {
        forgetArmed = Date.now() + 5000;
        draw();
        setTimeout(draw, 5000);
        return;
      }
      forgetArmed = 0;
      try { await api.forgetLearned(); } catch (_) { /* the toast says why */ }
      try { update(await api.devices(gameId, { quiet: true })); } catch (_) { /* the next poll shows it */ }
    };
    return [
      n ? h("p", { class: "dev-sub dev-learned", testid: "camera-learned",
        dataset: { corrections: String(n), looks: String(learned.looks) } },
      h("span", {}, t("dev.learned", { n: num(n), count: n })),
      isHost() ? h("button", { class: "big subtle", testid: "camera-forget", dataset: { armed: String(armed) },
        onclick: forget }, t(armed ? "dev.learned.forgetSure" : "dev.learned.forget")) : null) : null,
      learned.problem ? h("p", { class: "dev-msg warn", testid: "camera-learned-problem" }, learned.problem) : null,
    ];
  }

  function cameraSection() {
    const cam = status.camera;
    const health = cameraHealth(status);
    const head = h("div", { class: "dev-head" }, dot(CAMERA_TONE[health]),
      h("strong", {}, t("dev.camera")),
      h("span", { class: "dev-state", testid: "camera-state", dataset: { state: health } }, t(`dev.camera.${health}`)),
      cam && cam.simulated ? h("span", { class: "tag", testid: "camera-simulated" }, t("dev.simulated")) : null);
    if (!cam) return h("section", { class: "dev-part", testid: "dev-camera", dataset: { state: health } }, head);
    const src = cam.source || {};
    const w = cam.watcher || {};
    // The clearest words first: why the camera is lost, then what the watcher cannot read.
    const problem = (health === "lost" && src.error) || (health === "error" && cam.error) || null;
    const watcherMsg = w.message || null;
    const stale = cam.error && health === "ok" ? cam.error : null;
    const inTray = Array.isArray(w.in_tray) ? w.in_tray : [];
    caption.hidden = health === "ok" || health === "trouble" || img.hidden;
    caption.textContent = t("dev.live.stale");
    return h("section", { class: "dev-part", testid: "dev-camera", dataset: { state: health } }, head,
      problem ? h("p", { class: "dev-msg bad", testid: "camera-error" }, problem) : null,
      watcherMsg ? h("p", { class: "dev-msg warn", testid: "camera-message" }, watcherMsg) : null,
      health === "ok" || health === "trouble" ? h("p", { class: "dev-sub dev-watch", testid: "camera-watch" },
        w.state ? h("span", {}, tOr(`dev.watch.${w.state}`, w.state)) : null,
        inTray.length ? h("span", { class: "dev-tray" }, t("dev.inTray", { n: num(inTray.length) }),
          h("span", { class: "dev-tray-drinks" }, inTray.map((d) => drinkSvg(d, "drink-xs")))) : null) : null,
      // How late the last reading was, and how many frames a busy machine skipped to keep up.
      w.timing && health === "ok" ? h("p", { class: "dev-sub muted", testid: "camera-timing",
        dataset: { after: String(w.timing.after_still_s), skipped: String((cam.frames && cam.frames.skipped) || 0) } },
      t("dev.timing", { s: num(Math.round(w.timing.after_still_s * 10) / 10) }),
      cam.frames && cam.frames.skipped ? [" · ", t("dev.skipped", { n: num(cam.frames.skipped) })] : null) : null,
      stale ? h("p", { class: "dev-sub muted", testid: "camera-last-error" }, t("dev.lastError", { why: stale })) : null,
      // Resting: the game in play throws nothing into the tower (or none is in play): no frames.
      cam.idle ? h("p", { class: "dev-sub muted", testid: "camera-idle" }, t("dev.idle")) : null,
      learnedPart(cam.learned),
      cam.source ? live : null);
  }

  function sensorsSection() {
    const s = status.sensors;
    const health = sensorsHealth(status);
    const head = h("div", { class: "dev-head" }, dot(SENSOR_TONE[health]),
      h("strong", {}, t("dev.sensors")),
      h("span", { class: "dev-state", testid: "sensors-state", dataset: { state: health } }, t(`dev.sensors.${health}`)),
      s && s.simulated ? h("span", { class: "tag", testid: "sensors-simulated" }, t("dev.simulated")) : null);
    if (!s) return h("section", { class: "dev-part", testid: "dev-sensors", dataset: { state: health } }, head);
    const beam = (which) => {
      const blocked = Boolean(s.beams && s.beams[which]);
      return h("span", { class: `dev-beam${blocked ? " blocked" : ""}`, testid: `beam-${which}`,
        dataset: { blocked: String(blocked) }, title: t(blocked ? "dev.beam.blocked" : "dev.beam.clear") },
      h("span", { class: "dev-lamp", "aria-hidden": "true" }),
      t(`dev.beam.${which}`), h("span", { class: "muted" }, t(blocked ? "dev.beam.blocked" : "dev.beam.clear")));
    };
    const live = health === "connected";
    const age = s.last_heartbeat;
    return h("section", { class: "dev-part", testid: "dev-sensors", dataset: { state: health } }, head,
      s.error && health !== "connected" ? h("p", { class: `dev-msg ${health === "connecting" ? "warn" : "bad"}`, testid: "sensors-error" },
        s.error) : null,
      s.firmware ? h("p", { class: "dev-sub", testid: "sensors-firmware", dataset: { firmware: s.firmware } },
        t("dev.firmware", { version: s.firmware, protocol: s.protocol ?? "?" })) : null,
      live || age !== null ? h("p", { class: `dev-sub${age !== null && age > 3.5 ? " late" : ""}`, testid: "sensors-heartbeat" },
        age === null || age === undefined ? t("dev.heartbeat.none")
          : t("dev.heartbeat", { s: num(Math.round(age * 10) / 10) })) : null,
      live ? h("div", { class: "dev-beams" }, beam("in"), beam("out")) : null,
      s.totals && (live || s.totals.in || s.totals.out) ? h("p", { class: "dev-sub", testid: "sensors-totals", dataset: { in: String(s.totals.in), out: String(s.totals.out) } },
        t("dev.totals", { in: num(s.totals.in), out: num(s.totals.out) })) : null,
      !live && s.port ? h("p", { class: "dev-sub muted" }, t("dev.port", { port: s.port })) : null);
  }

  function draw() {
    title.textContent = t("dev.title");
    liveTitle.textContent = t("dev.live");
    img.alt = t("dev.live.alt");
    placeholder.textContent = t("dev.live.none");
    if (status === undefined) { replace(chips); replace(body, h("p", { class: "muted" }, t("dev.asking"))); return; }
    const cam = cameraHealth(status);
    const sen = sensorsHealth(status);
    replace(chips,
      h("span", { class: "dev-chip", testid: "chip-camera" }, dot(CAMERA_TONE[cam]), t("dev.chip.camera")),
      h("span", { class: "dev-chip", testid: "chip-sensors" }, dot(SENSOR_TONE[sen]), t("dev.chip.sensors")));
    replace(body,
      reachable ? null : h("p", { class: "dev-msg warn" }, t("dev.unreachable")),
      byHandNote(status),
      cameraSection(),
      sensorsSection(),
      isHost() ? h("p", { class: "dev-sub" }, h("a", { href: "/calibrate-board", testid: "calibrate-board-link" },
        t("dev.calibrateBoard"))) : null);
    el.dataset.health = healthKey(status);
  }

  function update(next) {
    status = next;
    draw();
    const key = healthKey(status);
    if (key !== lastHealth) {
      const first = lastHealth === null;
      lastHealth = key;
      if (!first && onHealth) onHealth(key);
    }
  }

  showFrame(false);
  update(latest);
  onDevices(update);
  onLangChange(draw);
  return { el, update };
}

// --- a phone's line ---------------------------------------------------------------------------

export function devicesLine() {
  const el = h("div", { class: "dev-line", testid: "devices-line", role: "status" });
  const draw = () => {
    const status = latest;
    if (status === undefined) { el.hidden = true; return; }
    el.hidden = false;
    const cam = cameraHealth(status);
    const sen = sensorsHealth(status);
    el.dataset.health = healthKey(status);
    replace(el,
      h("span", { class: "dev-chip", testid: "line-camera", dataset: { state: cam } }, dot(CAMERA_TONE[cam]),
        t("dev.line.camera", { state: t(`dev.camera.${cam}`) })),
      h("span", { class: "dev-chip", testid: "line-sensors", dataset: { state: sen } }, dot(SENSOR_TONE[sen]),
        t("dev.line.sensors", { state: t(`dev.sensors.${sen}`) })),
      cam === "none" && sen === "none" ? null : byHandNote(status, { testid: "line-byhand", phone: true }));
  };
  draw();
  onDevices(draw);
  onLangChange(draw);
  return el;
}
