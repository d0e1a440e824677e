// Talking to the companion: JSON over HTTP, and a WebSocket per page that pushes the view.
import { getLang, onLangChange, t } from "./i18n.js";
import { toast } from "./dom.js";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

// FastAPI's `detail` is a text, or a list of validation errors.
function detailText(body, status) {
  const d = body && body.detail;
  if (typeof d === "string") return d;
  // A validation error keeps its place: "names: ..." (the loc after "body" or "query").
  const said = (e) => (e.msg ? [...(e.loc || []).slice(1), e.msg].join(": ") : JSON.stringify(e));
  if (Array.isArray(d)) return d.map(said).join("; ");
  return t("error.http", { status });
}

// The server words its refusals in the dashboard's language: every request says it, and so does
// the cookie ttc_lang, which the live view's WebSocket carries (a browser sets no header on it).
function tellLanguage(lang) {
  document.cookie = `ttc_lang=${encodeURIComponent(lang)}; path=/; max-age=34560000; SameSite=Lax`;
}
tellLanguage(getLang());
onLangChange(tellLanguage);

// Any failure is shown in a toast (unless quiet) and thrown as ApiError.
export async function request(method, path, body, { quiet = false } = {}) {
  let res;
  try {
    const headers = { "Accept-Language": getLang() };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    res = await fetch(path, {
      method, headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    const msg = t("error.network", { why: err.message });
    if (!quiet) toast(msg);
    throw new ApiError(0, msg);
  }
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const msg = detailText(data, res.status);
    if (!quiet) toast(msg);
    throw new ApiError(res.status, msg);
  }
  return data;
}

// After a tap: a refusal or a lost connection was shown in a toast already (ApiError); anything
// else is a fault of the page (drawing the answer failed) and goes to the console, not unseen.
export function quietFailure(err) {
  if (!(err instanceof ApiError)) console.error(err);
}

// Keys travel in cookies (set when the host, join or spectator link was opened), never in a URL.
// The player page asks `as=player`: its seat's key comes before the host's on a shared device.
let asPlayer = false;
export function actAsPlayer() { asPlayer = true; }
const as = (sep = "?") => (asPlayer ? `${sep}as=player` : "");
const g = (id) => encodeURIComponent(id);

export const api = {
  whoami: (id) => request("GET", `/api/whoami${id ? `?game=${g(id)}${as("&")}` : ""}`, undefined, { quiet: true }),
  games: (opts) => request("GET", "/api/games", undefined, opts),
  gameTypes: () => request("GET", "/api/game-types", undefined, { quiet: true }),
  create: (body) => request("POST", "/api/games", body),
  players: (id, opts) => request("GET", `/api/games/${g(id)}/players`, undefined, opts),
  revokeSeat: (id, seat) => request("POST", `/api/games/${g(id)}/players/${seat}/revoke`),
  spectators: (id, opts) => request("GET", `/api/games/${g(id)}/spectators`, undefined, opts),
  revokeSpectators: (id) => request("POST", `/api/games/${g(id)}/spectators/revoke`),
  qr: (id, seat, n = 0) => `/api/games/${g(id)}/players/${seat}/qr.svg${n ? `?v=${n}` : ""}`,
  view: (id, opts) => request("GET", `/api/games/${g(id)}/view${as()}`, undefined, opts),
  // extra: { override_beams: true } for a drop the exit beam contradicts (the host's, after looking)
  move: (id, move, extra = {}) => request("POST", `/api/games/${g(id)}/moves${as()}`, { move, ...extra }),
  throw: (id) => request("POST", `/api/games/${g(id)}/throw`),
  reread: (id) => request("POST", `/api/games/${g(id)}/tray/read`),
  observe: (id, appeared) => request("POST", `/api/games/${g(id)}/observations`,
    { source: "person", appeared, confidence: 1 }),
  happened: (id, before) => request("GET", `/api/games/${g(id)}/feed?before=${Number(before)}${as("&")}`),
  estimates: (id, opts) => request("GET", `/api/games/${g(id)}/estimates${as()}`, undefined, opts),
  undo: (id) => request("POST", `/api/games/${g(id)}/undo`),
  end: (id) => request("POST", `/api/games/${g(id)}/end`),
  feed: (id) => request("PUT", "/api/feed", { game_id: id }),
  dismiss: (id) => request("POST", `/api/games/${g(id)}/question/dismiss`),
  devices: (game, opts) => request("GET", `/api/devices${game ? `?game=${g(game)}${as("&")}` : ""}`, undefined, opts),
  forgetLearned: () => request("POST", "/api/camera/learned/forget"),
  cameraUrl: (game, ts) => `/api/camera.jpg?ts=${ts}${game ? `&game=${g(game)}${as("&")}` : ""}`,
  // The board camera over TOKYO METRO's board (docs/board-camera.md).
  board: (id, opts) => request("GET", `/api/games/${g(id)}/board${as()}`, undefined, opts),
  boardConfirm: (id, proposal, candidate = null) => request("POST", `/api/games/${g(id)}/board/confirm${as()}`,
    { proposal, candidate }),
  boardDismiss: (id, proposal) => request("POST", `/api/games/${g(id)}/board/dismiss${as()}`, { proposal }),
  boardAuto: (id, on) => request("POST", `/api/games/${g(id)}/board/auto`, { on }),
  boardCameraUrl: (game, ts) => `/api/board-camera.jpg?ts=${ts}${game ? `&game=${g(game)}${as("&")}` : ""}`,
  // The crate camera over the crate games' crates (js/crates.js).
  crates: (id, opts) => request("GET", `/api/games/${g(id)}/crates${as()}`, undefined, opts),
  cratesConfirm: (id, proposal, candidate = null) => request("POST", `/api/games/${g(id)}/crates/confirm${as()}`,
    { proposal, candidate }),
  cratesDismiss: (id, proposal) => request("POST", `/api/games/${g(id)}/crates/dismiss${as()}`, { proposal }),
  cratesAuto: (id, on) => request("POST", `/api/games/${g(id)}/crates/auto`, { on }),
  crateCameraUrl: (game, ts) => `/api/crate-camera.jpg?ts=${ts}${game ? `&game=${g(game)}${as("&")}` : ""}`,
  // The landing camera in front of the tower (js/landings.js).
  landings: (id, opts) => request("GET", `/api/games/${g(id)}/landings${as()}`, undefined, opts),
  landingsConfirm: (id, proposal, candidate = null) => request("POST", `/api/games/${g(id)}/landings/confirm${as()}`,
    { proposal, candidate }),
  landingsDismiss: (id, proposal) => request("POST", `/api/games/${g(id)}/landings/dismiss${as()}`, { proposal }),
  landingsAuto: (id, on) => request("POST", `/api/games/${g(id)}/landings/auto`, { on }),
  landingCameraUrl: (game, ts) => `/api/landing-camera.jpg?ts=${ts}${game ? `&game=${g(game)}${as("&")}` : ""}`,
};

// The live view: calls onView(view) on connect and after every change; reconnects with
// backoff; onState("open" | "reconnecting" | "closed") drives the badge. A refusal (close
// code 4403: no key or a replaced one; 4404: no such game) stops and calls onRefused(reason).
export function liveView(gameId, { onView, onState, onRefused }) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${g(gameId)}/ws${as()}`;
  let delay = 500;
  let socket = null;
  let stopped = false;

  function open() {
    socket = new WebSocket(url);
    socket.onopen = () => { delay = 500; onState("open"); };
    socket.onmessage = (ev) => {
      try { onView(JSON.parse(ev.data)); } catch (err) { console.error(err); }
    };
    socket.onclose = (ev) => {
      if (stopped) return;
      if (ev.code === 4403 || ev.code === 4404) { stopped = true; onState("closed"); onRefused(ev.reason, ev.code); return; }
      onState("reconnecting");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }
  open();
  return { close() { stopped = true; if (socket) socket.close(); } };
}

// Only ever move forward: a late HTTP answer must not overwrite a newer pushed view, and the
// push of a view already shown (same seq: same log, same view) is not drawn twice. News without
// a record (the board camera's: a proposal, the board's differences) comes as the same seq with a
// higher `rev`.
export function newer(current, next) {
  if (!current) return true;
  if (next.seq !== current.seq) return next.seq > current.seq;
  return (next.rev ?? 0) > (current.rev ?? 0);
}
