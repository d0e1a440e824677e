// Talking to the companion: JSON over HTTP, and a WebSocket per page that pushes the view.
import { t } from "./i18n.js";
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
  if (Array.isArray(d)) return d.map((e) => e.msg || JSON.stringify(e)).join("; ");
  return t("error.http", { status });
}

// Any failure is shown in a toast (unless quiet) and thrown as ApiError.
export async function request(method, path, body, { quiet = false } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
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

export const api = {
  games: () => request("GET", "/api/games"),
  gameTypes: () => request("GET", "/api/game-types", undefined, { quiet: true }),
  create: (body) => request("POST", "/api/games", body),
  players: (id, opts) => request("GET", `/api/games/${id}/players`, undefined, opts),
  qr: (id, seat) => `/api/games/${encodeURIComponent(id)}/players/${seat}/qr.svg`,
  view: (id, token, opts) => request("GET", `/api/games/${id}/view${token ? `?token=${encodeURIComponent(token)}` : ""}`, undefined, opts),
  move: (id, move, token) => request("POST", `/api/games/${id}/moves`, token ? { move, token } : { move }),
  throw: (id) => request("POST", `/api/games/${id}/throw`),
  observe: (id, appeared) => request("POST", `/api/games/${id}/observations`,
    { source: "person", appeared, confidence: 1 }),
  estimates: (id, token, opts) => request("GET", `/api/games/${id}/estimates${token ? `?token=${encodeURIComponent(token)}` : ""}`,
    undefined, opts),
  undo: (id) => request("POST", `/api/games/${id}/undo`),
  dismiss: (id) => request("POST", `/api/games/${id}/question/dismiss`),
  devices: (opts) => request("GET", "/api/devices", undefined, opts),
  cameraUrl: (ts) => `/api/camera.jpg?ts=${ts}`,
};

// The live view: calls onView(view) on connect and after every change; reconnects with
// backoff; onState("open" | "reconnecting" | "closed") drives the badge. A refusal
// (close code 4403: bad token or no such game) stops and calls onRefused(reason).
export function liveView(gameId, token, { onView, onState, onRefused }) {
  const qs = token ? `?token=${encodeURIComponent(token)}` : "";
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws${qs}`;
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
      if (ev.code === 4403) { stopped = true; onState("closed"); onRefused(ev.reason); return; }
      onState("reconnecting");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }
  open();
  return { close() { stopped = true; if (socket) socket.close(); } };
}

// Only ever move forward: a late HTTP answer must not overwrite a newer pushed view, and the
// push of a view already shown (same seq: same log, same view) is not drawn twice.
export function newer(current, next) {
  return !current || next.seq > current.seq;
}
