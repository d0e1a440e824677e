// TOKYO METRO: the station names on the map, drawn where js/metro/labels.js placed them (every
// station named, none under another name or a piece), in Japanese when the dashboard speaks it.
// Text is measured with a canvas in the page's own font, so the boxes are the boxes drawn.
import { s } from "../dom.js";
import { stationLabel } from "./common.js";
import { placeLabels } from "./labels.js";

export const LABEL_SIZE = 11;   // map units (a field is 40)
const WEIGHT = 700;

let canvas = null;
const widths = new Map();

// {w, ascent, descent} of a text at a size, in a font family (the page's, looked up once a map).
export function measureText(text, size, family = getComputedStyle(document.body).fontFamily) {
  const key = `${family}|${size}|${text}`;
  if (widths.has(key)) return widths.get(key);
  canvas = canvas || document.createElement("canvas");
  const ctx = canvas.getContext("2d");
  ctx.font = `${WEIGHT} ${size}px ${family}`;
  const m = ctx.measureText(text);
  // Glyphs of another script may come from a fallback font with taller metrics: a little room.
  const wide = /[^\u0000-\u024f]/.test(text) ? 1.12 : 1;
  const out = {
    w: m.width,
    ascent: (m.fontBoundingBoxAscent ?? size * 0.95) * wide,
    descent: (m.fontBoundingBoxDescent ?? size * 0.25) * wide,
  };
  widths.set(key, out);
  return out;
}

// The lines' stretches between stops, in map units (labels avoid crossing them where they can).
function segments(ix, board, P) {
  const out = [];
  for (const line of board.lines) {
    const pts = line.stops.map((stop) => ix.circles.get(stop.circle)).filter(Boolean);
    for (let i = 1; i < pts.length; i++) out.push([P(pts[i - 1].x), P(pts[i - 1].y), P(pts[i].x), P(pts[i].y)]);
  }
  return out;
}

let last = null; // {key, placed}: the latest placement

/** The labels layer. obstacles: boxes (map units) the names keep clear of; bounds: the paper. */
export function labelLayer(ix, board, { P, obstacles, bounds, stop, important }) {
  const items = board.stations.map((st) => ({ id: st.id, text: stationLabel(st),
    circles: st.circles.map((c) => ({ x: P(c.x), y: P(c.y) })), rank: st.lines.length }));
  const family = getComputedStyle(document.body).fontFamily;
  // Most views move no piece (a bid, a card taken, a pass): the last placement serves again.
  const key = JSON.stringify([family, board.name, items.map((it) => [it.id, it.text, it.rank]), obstacles, bounds]);
  if (!last || last.key !== key) {
    last = { key, placed: placeLabels(items, { bounds, obstacles, segments: segments(ix, board, P),
      size: LABEL_SIZE, stop, measure: (text, size) => measureText(text, size, family) }) };
  }
  const { placed } = last;
  const r = (v) => Math.round(v * 10) / 10;
  const leaders = placed.filter((p) => p.leader).map((p) => s("line", { class: "m-leader", x1: r(p.leader[0]),
    y1: r(p.leader[1]), x2: r(p.leader[2]), y2: r(p.leader[3]) }));
  const texts = placed.map((p) => s("text", { class: `m-station-name${important.has(p.id) ? " major" : ""}`,
    x: r(p.x), y: r(p.y), "font-size": r(p.size), "data-station": p.id,
    "data-crowded": p.crowded ? "true" : null }, p.text));
  return s("g", { class: "m-labels", "aria-hidden": "true", "data-testid": "map-labels" }, leaders, texts);
}
