// Small SVG charts for the history page: bars (wins per player) and the tower's 6 x 6 grid of
// drinks. Each is one <svg> with a viewBox and width 100%: it shrinks to a phone's width instead
// of scrolling sideways, and every mark carries its words in a <title> (and aria-label), so that
// the numbers can be read by touching a mark and by a screen reader.
import { s } from "./dom.js";
import { COLOURS, SHAPES, drinkSvg } from "./drinks.js";

const INK = "#1d2330";
const MUTED = "#5d6574";

// Long names are cut to fit beside the bars; the whole name is in the bar's title.
function cut(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// rows: [{ label, value, title }] drawn top to bottom as horizontal bars, the longest bar the
// largest value; `testid` names the chart for tests.
export function barChart(rows, { label, testid }) {
  const rowH = 30;
  const width = 360;
  const left = 132;
  const right = 40;
  const top = 6;
  const most = Math.max(1, ...rows.map((r) => r.value));
  const height = top + rows.length * rowH + 6;
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart bars", role: "img", "aria-label": label,
    "data-testid": testid, preserveAspectRatio: "xMinYMin meet" },
    s("title", {}, label),
    rows.map((r, i) => {
      const y = top + i * rowH;
      const w = ((width - left - right) * r.value) / most;
      return s("g", { class: "bar", "aria-label": r.title },
        s("title", {}, r.title),
        s("text", { x: left - 8, y: y + rowH / 2 + 5, "text-anchor": "end", "font-size": 13, fill: INK }, cut(r.label, 17)),
        s("rect", { x: left, y: y + 5, width: Math.max(w, r.value ? 2 : 0), height: rowH - 10, rx: 4, fill: "#1f5fbf" }),
        s("text", { x: left + w + 6, y: y + rowH / 2 + 5, "font-size": 14, "font-weight": 700, fill: INK }, String(r.value)));
    }));
}

// The share r in 0..1 as a colour from red (0) through yellow to green (1).
function rateColour(r) {
  const hue = Math.round(120 * r);
  return `hsl(${hue} 62% ${48 + 10 * (1 - Math.abs(r - 0.5) * 2)}%)`;
}

// cell(colour, shape) -> { rate (0..1, or null: never thrown), text, title }: one square per
// drink, colours down, shapes (lowest to tallest) across, each headed by the drink's drawing.
export function drinkGrid(cell, { label, testid }) {
  const size = 52;
  const head = 44;
  const width = head + SHAPES.length * size;
  const height = head + COLOURS.length * size;
  const nested = (id, x, y, w, h) => {
    const svg = drinkSvg(id);
    svg.removeAttribute("class"); // the page's CSS sizes .drink; here the grid places it
    for (const [k, v] of Object.entries({ x, y, width: w, height: h })) svg.setAttribute(k, v);
    return svg;
  };
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart drink-grid", role: "img", "aria-label": label,
    "data-testid": testid },
    s("title", {}, label),
    SHAPES.map((shape, j) => nested(`black-${shape}`, head + j * size + 10, 2, size - 20, head - 6)),
    COLOURS.map((colour, i) => nested(`${colour}-short_can`, 10, head + i * size + 6, head - 20, size - 12)),
    COLOURS.map((colour, i) => SHAPES.map((shape, j) => {
      const c = cell(colour, shape);
      const x = head + j * size;
      const y = head + i * size;
      return s("g", { class: "cell", "data-drink": `${colour}-${shape}`, "aria-label": c.title },
        s("title", {}, c.title),
        s("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: 6,
          fill: c.rate === null ? "#e8e3d4" : rateColour(c.rate), stroke: "#fff", "stroke-width": 1 }),
        s("text", { x: x + size / 2, y: y + size / 2 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
          fill: c.rate === null ? MUTED : INK }, c.text));
    })));
}
