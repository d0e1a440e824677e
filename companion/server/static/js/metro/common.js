// TOKYO METRO: small pieces the map, the panels and the moves share. Player colours, line
// badges, the board's look-ups (fields <-> stations), what a move points at on the map.
import { h } from "../dom.js";
import { t, getLang } from "../i18n.js";

// Map units: the SVG units per field, and a position in fields as map units (to 0.1).
export const U = 40;
export const P = (v) => Math.round(v * U * 10) / 10;

// Player pieces (meeples, pyramids, discs): bold colours with a dark outline, told apart from
// the line colours by their shape; the first letter of the name is written on them too.
export const PLAYER_COLOURS = ["#e4002b", "#1d4ed8", "#facc15", "#16a34a", "#9333ea"];
export const playerColour = (seat) => PLAYER_COLOURS[((seat % 5) + 5) % 5];

// Black or white text on a colour, whichever reads better.
export function inkOn(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#111";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.6 ? "#111" : "#fff";
}

export function initial(name) {
  return (String(name || "?").trim()[0] || "?").toUpperCase();
}

export function seatName(st, seat) {
  const p = st.players.find((x) => x.seat === seat) || st.players[seat];
  return p ? p.name : t("lobby.seat", { n: Number(seat) + 1 });
}

// A line's letter on its colour, as on the board.
export function lineBadge(st, letter, { cls = "", title = true } = {}) {
  const line = (st.lines || []).find((l) => l.letter === letter);
  const colour = line ? line.colour : "#888";
  return h("span", { class: `line-badge ${cls}`.trim(), style: `background:${colour};color:${inkOn(colour)}`,
    title: title && line ? line.name : null, dataset: { line: letter } }, letter);
}

// A small dot in a player's colour with their initial.
export function seatDot(st, seat, { cls = "" } = {}) {
  const name = seatName(st, seat);
  const colour = playerColour(seat);
  return h("span", { class: `seat-dot ${cls}`.trim(), style: `background:${colour};color:${inkOn(colour)}`,
    title: name, dataset: { seat: String(seat) } }, initial(name));
}

// --- the board ----------------------------------------------------------------------------------

const INDEX = new WeakMap();

// Look-ups of one board (cached per view object): circles by id, stations by id, which stations
// a field touches, each line's stops.
export function boardIndex(board) {
  let ix = INDEX.get(board);
  if (ix) return ix;
  const circles = new Map();
  const stations = new Map();
  const fieldStations = new Map();
  for (const st of board.stations) {
    stations.set(st.id, st);
    for (const c of st.circles) {
      circles.set(c.id, { ...c, station: st.id });
      for (const [col, row] of c.fields) {
        const key = `${col},${row}`;
        if (!fieldStations.has(key)) fieldStations.set(key, []);
        const list = fieldStations.get(key);
        if (!list.includes(st)) list.push(st);
      }
    }
  }
  // OSAKA METRO's small stops: circles of no station (a tram or bus stops there; nothing is built).
  const smallStops = new Map();
  for (const c of board.small_stops || []) {
    const circle = { ...c, station: null, small: true };
    circles.set(c.id, circle);
    smallStops.set(c.id, circle);
  }
  const lines = new Map(board.lines.map((l) => [l.letter, l]));
  const stopCircle = new Map(); // "G5" -> circle
  for (const l of board.lines) for (const stop of l.stops) stopCircle.set(stop.label, circles.get(stop.circle));
  ix = { circles, stations, smallStops, fieldStations, lines, stopCircle, cols: board.grid.cols, rows: board.grid.rows };
  INDEX.set(board, ix);
  return ix;
}

export const fieldNumber = (ix, col, row) => row * ix.cols + col;
export const colRow = (ix, f) => [f % ix.cols, Math.floor(f / ix.cols)];

// A station's name as the table reads it: the Japanese one when the dashboard speaks Japanese.
export function localName(station) {
  return getLang() === "ja" && station.name_ja ? station.name_ja : station.name;
}

export function stationName(ix, id) {
  const st = ix.stations.get(id);
  if (st) return localName(st);
  return ix.smallStops && ix.smallStops.has(id) ? t("metro.map.smallStop") : id;
}

// "Awajicho / Shin-ochanomizu / Ogawamachi" -> "Awajicho": for labels where room is short.
export function shortName(name) {
  return String(name || "").split(" / ")[0];
}

// The name on the map's label: the first of a station's names.
export const stationLabel = (station) => shortName(localName(station));

// The stations a field touches, by name ("" when none).
export function fieldPlace(ix, col, row) {
  const list = ix.fieldStations.get(`${col},${row}`) || [];
  return list.map(stationLabel).join(" · ");
}

// --- moves and what they point at -------------------------------------------------------------

export const FIELD_KINDS = new Set(["place", "walk", "move", "alight"]);
export const STATION_KINDS = new Set(["station", "station_swap", "vend", "free_vend"]);
export const LINE_KINDS = new Set(["invest", "start", "speculate", "assign_tempo", "board", "sell", "invest_disc"]);

// The card action a move uses ("GM1/0"), or null for a free move.
export const actionKey = (move) => (move.args && typeof move.args.card === "string" && Number.isInteger(move.args.action)
  ? `${move.args.card}/${move.args.action}` : null);

// What a move points at on the map: {field: [c, r]} | {station: id} | {line: L} | {}.
export function moveTarget(ix, move) {
  const a = move.args || {};
  if (FIELD_KINDS.has(move.kind) && Number.isInteger(a.field)) return { field: colRow(ix, a.field) };
  if (STATION_KINDS.has(move.kind) && a.station) return { station: a.station };
  if (LINE_KINDS.has(move.kind) && a.line) return { line: a.line };
  return {};
}

// The map's targets for a list of view moves: fields and stations to tap, lines to mark.
export function targetsOf(ix, moves) {
  const fields = new Map();
  const stations = new Map();
  const lines = new Map();
  for (const m of moves) {
    const tg = moveTarget(ix, m.move);
    const add = (map, key) => { if (!map.has(key)) map.set(key, []); map.get(key).push(m); };
    if (tg.field) add(fields, `${tg.field[0]},${tg.field[1]}`);
    else if (tg.station) add(stations, tg.station);
    else if (tg.line) add(lines, tg.line);
  }
  return { fields, stations, lines };
}

// --- vehicles (OSAKA METRO: trams and buses run in pairs) -------------------------------------

// A line's vehicles on the board: the view's `vehicles` (0-2), or its one `train` (older views).
export function vehiclesOf(line) {
  if (Array.isArray(line.vehicles)) return line.vehicles;
  return line.train ? [{ ...line.train, vehicle: 0 }] : [];
}

// "train" | "tram" | "bus": what runs on a line (board geometry or the view's line).
export function vehicleKind(st, letter) {
  const line = (st.lines || []).find((l) => l.letter === letter);
  const geo = st.board && (st.board.lines || []).find((l) => l.letter === letter);
  return (line && typeof line.vehicle === "string" && line.vehicle) || (geo && geo.vehicle) || "train";
}
