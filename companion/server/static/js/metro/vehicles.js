// The vehicles on the METRO map: trains, and OSAKA METRO's trams and buses (a pair each), drawn
// where they stand and turned towards their next stop; map.js places the layer.
import { s } from "../dom.js";
import { t } from "../i18n.js";
import { inkOn, vehiclesOf, U, P } from "./common.js";

// Where a train points: towards its next stop (or along its direction at a terminal).
function trainAngle(ix, line, train) {
  const here = ix.circles.get(train.circle);
  let next = train.towards ? ix.stopCircle.get(train.towards) : null;
  if (!next || (next.x === here.x && next.y === here.y)) {
    const l = ix.lines.get(line.letter);
    const k = l ? l.stops.findIndex((x) => x.label === train.stop) : -1;
    const j = k + (train.dir || 1);
    next = l && l.stops[j] ? ix.circles.get(l.stops[j].circle) : null;
  }
  if (!here || !next) return 0;
  return (Math.atan2(next.y - here.y, next.x - here.x) * 180) / Math.PI;
}

// The box a train marker covers: its disc and its arrow (turned to where it goes). The arrow's
// own box is turned, as the browser's bounding boxes do, not just its three points.
function trainBox(x, y, angle) {
  const a = (angle * Math.PI) / 180;
  const pts = [[0.2 * U, -0.34 * U], [0.62 * U, -0.34 * U], [0.62 * U, 0.34 * U], [0.2 * U, 0.34 * U]]
    .map(([px, py]) => [x + px * Math.cos(a) - py * Math.sin(a), y + px * Math.sin(a) + py * Math.cos(a)]);
  const r = 0.34 * U + 1.5;
  return { x1: Math.min(x - r, ...pts.map((p) => p[0] - 1.5)), y1: Math.min(y - r, ...pts.map((p) => p[1] - 1.5)),
    x2: Math.max(x + r, ...pts.map((p) => p[0] + 1.5)), y2: Math.max(y + r, ...pts.map((p) => p[1] + 1.5)) };
}

// A train is a disc with an arrow; a tram a rounded square, a bus a wide box with wheels (OSAKA
// METRO's pairs: both drawn, the second marked "2"), each pointing where it goes next.
function vehicleBody(kind, colour) {
  if (kind === "tram") return s("rect", { class: "m-vehicle-body", x: -0.32 * U, y: -0.32 * U, width: 0.64 * U,
    height: 0.64 * U, rx: 0.14 * U, fill: colour });
  if (kind === "bus") return [s("rect", { class: "m-vehicle-body", x: -0.4 * U, y: -0.28 * U, width: 0.8 * U,
    height: 0.5 * U, rx: 0.06 * U, fill: colour }),
  s("circle", { class: "m-wheel", cx: -0.2 * U, cy: 0.24 * U, r: 0.08 * U }),
  s("circle", { class: "m-wheel", cx: 0.2 * U, cy: 0.24 * U, r: 0.08 * U })];
  return s("circle", { r: 0.34 * U, fill: colour });
}

function trainMarker(line, x, y, angle, extra = {}, { kind = "train", second = false } = {}) {
  const ink = inkOn(line.colour);
  return s("g", { class: `m-train m-vehicle-${kind}`, "data-line": line.letter, "data-kind": kind,
    transform: `translate(${x} ${y})`, ...extra },
  s("title", {}, t(`metro.map.${kind}`, { line: line.letter, stop: extra["data-stop"] || "" })),
  s("g", { class: "m-train-arrow", transform: `rotate(${Math.round(angle)})` },
    s("path", { d: `M${0.62 * U} 0 L${0.2 * U} ${-0.34 * U} L${0.2 * U} ${0.34 * U} Z`, fill: line.colour })),
  vehicleBody(kind, line.colour),
  s("text", { class: "m-train-letter", y: 0.12 * U, fill: ink }, line.letter),
  second ? s("text", { class: "m-vehicle-second", x: 0.3 * U, y: -0.22 * U }, "2") : null);
}

// The test id of a line's vehicle on the map: the first as a train's always was, the second with -2.
export const vehicleTestId = (letter, v) => `map-train-${letter}${v ? "-2" : ""}`;

export function trains(ix, st, obstacles) {
  const at = new Map(); // circle -> vehicles there (offset so all show)
  const out = [];
  for (const line of st.lines) {
    const kind = typeof line.vehicle === "string" ? line.vehicle : "train";
    for (const veh of vehiclesOf(line)) {
      const here = ix.circles.get(veh.circle);
      if (!here) continue;
      const k = at.get(here.id) || 0;
      at.set(here.id, k + 1);
      const x = P(here.x) + k * 0.45 * U;
      const y = P(here.y) - k * 0.45 * U;
      const angle = trainAngle(ix, line, veh);
      const v = veh.vehicle || 0;
      obstacles.push(trainBox(x, y, angle));
      out.push(trainMarker(line, x, y, angle,
        { "data-stop": veh.stop, "data-dir": String(veh.dir), "data-vehicle": String(v),
          "data-testid": vehicleTestId(line.letter, v) }, { kind, second: v > 0 }));
    }
  }
  return s("g", { class: "m-trains" }, out);
}
