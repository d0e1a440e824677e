// Drinks and stock cards as small SVG drawings (never as words; the name is the aria-label).
import { s } from "./dom.js";
import { t, cardName, drinkName } from "./i18n.js";

export const COLOURS = ["black", "white", "mint", "blue", "red", "purple"];
export const SHAPES = ["stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle"];

// A stock card id (a colour or a shape) and a drink id ("red-short_can"), told apart from other text.
export function isCard(id) {
  return typeof id === "string" && (COLOURS.includes(id) || SHAPES.includes(id));
}

export function isDrink(id) {
  if (typeof id !== "string") return false;
  const [colour, shape, rest] = id.split("-");
  return rest === undefined && COLOURS.includes(colour) && SHAPES.includes(shape);
}

// An add-on's item that goes through the tower besides the drinks (Mr. Sudsy's detergent bottles,
// "detergent-3"); the service's drinks.py names them.
export function isDetergent(id) {
  return typeof id === "string" && /^detergent-\d{1,2}$/.test(id);
}

// A drink or another item of the tower: drawn, never written.
export function isItem(id) {
  return isDrink(id) || isDetergent(id);
}

const PAINT = {
  black: { fill: "#222", line: "#000", cap: "#4a4a4a" },
  white: { fill: "#f4f4f4", line: "#8a8a8a", cap: "#d4d4d4" },
  mint: { fill: "#8fd9c8", line: "#4b9886", cap: "#5fb3a0" },
  blue: { fill: "#2f6fd6", line: "#1b468f", cap: "#1f4f9e" },
  red: { fill: "#d63a3a", line: "#8c1f1f", cap: "#9e2626" },
  purple: { fill: "#8a4fc2", line: "#5a2f85", cap: "#633592" },
};

// Upright drawings in a 32 x 76 box standing on y = 74; heights follow the nominal sizes.
const FORM = {
  stubby_can: { h: 30, w: 26, can: true },
  short_can: { h: 42, w: 22, can: true },
  tall_can: { h: 54, w: 22, can: true },
  square_bottle: { h: 56, w: 20, square: true },
  not_tallest_bottle: { h: 61, w: 20 },
  tallest_bottle: { h: 72, w: 22 },
};
const BASE = 74;
const CX = 16;

function canParts(f, p, silhouette) {
  const x = CX - f.w / 2;
  const y = BASE - f.h;
  const parts = [s("rect", { x, y, width: f.w, height: f.h, rx: 3.5, fill: p.fill, stroke: p.line, "stroke-width": 1.2 })];
  if (silhouette) return parts;
  parts.push(
    s("rect", { x: x + f.w * 0.18, y: y + 4, width: f.w * 0.16, height: f.h - 8, fill: "#fff", opacity: 0.3 }),
    s("rect", { x: x + f.w * 0.72, y: y + 4, width: f.w * 0.2, height: f.h - 8, fill: "#000", opacity: 0.14 }),
    s("line", { x1: x + 0.6, x2: x + f.w - 0.6, y1: y + 4, y2: y + 4, stroke: p.line, "stroke-width": 1.1 }),
    s("line", { x1: x + 0.6, x2: x + f.w - 0.6, y1: BASE - 4, y2: BASE - 4, stroke: p.line, "stroke-width": 1.1 }),
  );
  return parts;
}

function bottleParts(f, p, silhouette) {
  const top = BASE - f.h;
  const capH = 5.5;
  const capW = f.w * 0.44;
  const nw = f.w * 0.19; // half the neck
  const bw = f.w / 2;
  const neckBot = top + capH + f.h * 0.13;
  const shoulderBot = neckBot + f.h * 0.17;
  const r = f.square ? 0.6 : 3.5;
  const shoulder = f.square
    ? (side) => `L ${CX + side * bw} ${shoulderBot}`
    : (side) => `C ${CX + side * nw} ${neckBot + 6} ${CX + side * bw} ${shoulderBot - 7} ${CX + side * bw} ${shoulderBot}`;
  const d = [
    `M ${CX - nw} ${top + capH}`, `L ${CX - nw} ${neckBot}`, shoulder(-1),
    `L ${CX - bw} ${BASE - r}`, `Q ${CX - bw} ${BASE} ${CX - bw + r} ${BASE}`,
    `L ${CX + bw - r} ${BASE}`, `Q ${CX + bw} ${BASE} ${CX + bw} ${BASE - r}`,
    `L ${CX + bw} ${shoulderBot}`,
    f.square ? `L ${CX + nw} ${neckBot}` : `C ${CX + bw} ${shoulderBot - 7} ${CX + nw} ${neckBot + 6} ${CX + nw} ${neckBot}`,
    `L ${CX + nw} ${top + capH}`, "Z",
  ].join(" ");
  const parts = [s("path", { d, fill: p.fill, stroke: p.line, "stroke-width": 1.2, "stroke-linejoin": f.square ? "miter" : "round" })];
  const cap = s("rect", { x: CX - capW / 2, y: top, width: capW, height: capH + 0.5, rx: f.square ? 0.4 : 1.2,
    fill: silhouette ? p.fill : p.cap, stroke: p.line, "stroke-width": 1 });
  if (silhouette) return [...parts, cap];
  if (f.square) {
    // Flat faces: a lit left facet, a shaded right facet, hard edges between them.
    const e = bw * 0.42;
    parts.push(
      s("polygon", { points: `${CX - bw},${shoulderBot} ${CX - e},${shoulderBot} ${CX - e},${BASE - 0.6} ${CX - bw},${BASE - 0.6}`, fill: "#fff", opacity: 0.32 }),
      s("polygon", { points: `${CX + e},${shoulderBot} ${CX + bw},${shoulderBot} ${CX + bw},${BASE - 0.6} ${CX + e},${BASE - 0.6}`, fill: "#000", opacity: 0.2 }),
      s("polygon", { points: `${CX - nw},${neckBot} ${CX - bw},${shoulderBot} ${CX - e},${shoulderBot}`, fill: "#fff", opacity: 0.25 }),
      s("line", { x1: CX - e, x2: CX - e, y1: shoulderBot, y2: BASE, stroke: p.line, "stroke-width": 0.8 }),
      s("line", { x1: CX + e, x2: CX + e, y1: shoulderBot, y2: BASE, stroke: p.line, "stroke-width": 0.8 }),
      s("line", { x1: CX - bw, x2: CX + bw, y1: shoulderBot, y2: shoulderBot, stroke: p.line, "stroke-width": 0.8 }),
    );
  } else {
    parts.push(
      s("rect", { x: CX - bw * 0.62, y: shoulderBot + 2, width: f.w * 0.14, height: BASE - shoulderBot - 6, rx: 1.5, fill: "#fff", opacity: 0.32 }),
      s("rect", { x: CX + bw * 0.45, y: shoulderBot, width: f.w * 0.2, height: BASE - shoulderBot - 3, fill: "#000", opacity: 0.13 }),
    );
  }
  parts.push(cap);
  return parts;
}

function shapeParts(shape, paint, silhouette = false) {
  const f = FORM[shape];
  return f.can ? canParts(f, paint, silhouette) : bottleParts(f, paint, silhouette);
}

function labelled(svg, label) {
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.prepend(s("title", {}, label));
  return svg;
}

// A detergent bottle: a jug with a handle, a white label and its number, as tall as a tall can.
function detergentSvg(id, cls) {
  const n = id.split("-")[1];
  const svg = s("svg", { viewBox: "0 0 32 76", class: `drink detergent ${cls}`.trim(), "data-drink": id },
    s("path", { d: "M 5 72 L 5 34 Q 5 28 11 26 L 12 20 L 20 20 L 21 26 Q 27 28 27 34 L 27 72 Q 27 74 25 74 L 7 74 Q 5 74 5 72 Z",
      fill: "#3fa7e0", stroke: "#1d6591", "stroke-width": 1.2 }),
    s("path", { d: "M 21 28 Q 29 28 29 36 L 29 44 Q 29 47 26 47", fill: "none", stroke: "#1d6591", "stroke-width": 2.4 }),
    s("rect", { x: 11.5, y: 15, width: 9, height: 6, rx: 1.2, fill: "#f2c230", stroke: "#9a7a10", "stroke-width": 1 }),
    s("rect", { x: 8, y: 40, width: 16, height: 22, rx: 2, fill: "#fff", stroke: "#1d6591", "stroke-width": 0.8 }),
    s("text", { x: 16, y: 56, "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: "#1d6591",
      "font-family": "sans-serif" }, n));
  return labelled(svg, drinkName(id));
}

// One drink, e.g. drinkSvg("red-short_can") (a detergent bottle too: detergentSvg).
export function drinkSvg(id, cls = "") {
  if (isDetergent(id)) return detergentSvg(id, cls);
  const [colour, shape] = id.split("-");
  const svg = s("svg", { viewBox: "0 0 32 76", class: `drink ${cls}`.trim(), "data-drink": id },
    shapeParts(shape, PAINT[colour] || PAINT.white));
  return labelled(svg, drinkName(id));
}

function cardFrame(...inner) {
  return [s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, fill: "#fffdf7", stroke: "#9a9a9a", "stroke-width": 1.5 }), ...inner];
}

// A stock card: a colour card is a swatch, a shape card a silhouette.
export function cardSvg(id, cls = "") {
  let inner;
  if (PAINT[id]) {
    const p = PAINT[id];
    inner = [s("rect", { x: 5, y: 5, width: 30, height: 46, rx: 3, fill: p.fill, stroke: p.line, "stroke-width": 1.2 })];
  } else {
    inner = [s("g", { transform: "translate(9.4 5.5) scale(0.66)" },
      shapeParts(id, { fill: "#333", line: "#111", cap: "#333" }, true))];
  }
  const svg = s("svg", { viewBox: "0 0 40 56", class: `card ${cls}`.trim(), "data-card": id }, cardFrame(...inner));
  return labelled(svg, t("card", { kind: cardName(id) }));
}

// A face-down card (someone holds a secret card; what it is stays hidden).
export function cardBackSvg(cls = "") {
  const svg = s("svg", { viewBox: "0 0 40 56", class: `card card-back ${cls}`.trim() },
    s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, fill: "#26466d", stroke: "#142a45", "stroke-width": 1.5 }),
    s("rect", { x: 6, y: 6, width: 28, height: 44, rx: 2.5, fill: "none", stroke: "#8fb3dd", "stroke-width": 1.2, "stroke-dasharray": "3 2" }),
    s("circle", { cx: 20, cy: 28, r: 6, fill: "#8fb3dd" }));
  return labelled(svg, t("card.back"));
}

// The back of a deck: six swatches (colour deck) or three silhouettes (shape deck).
export function deckSvg(deck, cls = "") {
  const inner = deck === "colour"
    ? COLOURS.map((c, i) => s("rect", { x: 6 + (i % 2) * 15, y: 6 + Math.floor(i / 2) * 15, width: 13, height: 13, rx: 2,
      fill: PAINT[c].fill, stroke: PAINT[c].line, "stroke-width": 0.8 }))
    : ["stubby_can", "tall_can", "tallest_bottle"].map((sh, i) => s("g", { transform: `translate(${2 + i * 12} 14) scale(0.42)` },
      shapeParts(sh, { fill: "#333", line: "#111", cap: "#333" }, true)));
  const svg = s("svg", { viewBox: "0 0 40 56", class: `card deck ${cls}`.trim() }, cardFrame(...inner));
  return labelled(svg, t(`deck.${deck}`));
}

// The yellow crate that marks the start player.
export function crateSvg(cls = "") {
  const svg = s("svg", { viewBox: "0 0 44 30", class: `crate ${cls}`.trim() },
    s("rect", { x: 2, y: 4, width: 40, height: 24, rx: 2.5, fill: "#f2c230", stroke: "#9a7a10", "stroke-width": 1.5 }),
    s("rect", { x: 15, y: 8, width: 14, height: 4, rx: 2, fill: "#9a7a10" }),
    [0, 1, 2].map((i) => s("line", { x1: 8 + i * 14, x2: 8 + i * 14, y1: 15, y2: 26, stroke: "#c89c1c", "stroke-width": 2 })),
    s("line", { x1: 4, x2: 40, y1: 15, y2: 15, stroke: "#c89c1c", "stroke-width": 2 }));
  return labelled(svg, t("crate"));
}
