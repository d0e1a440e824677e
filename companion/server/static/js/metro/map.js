// TOKYO METRO: the board as an SVG map. The grid of fields (faint, numbered along its edges), the
// twelve lines in their colours through their stop circles, stations (every one named, the names
// placed clear of each other and of the pieces: maplabels.js), pyramids and meeples in player
// colours, trains as arrows pointing where they go next; the revenue track under it. During the
// train phase each train's path and its payouts are drawn; when the trains have run, they move
// along their paths. Fields and stations a move can go to are marked and can be tapped; the spot a
// move button names lights up while it is hovered or pressed (coords.js). Layers can be switched
// off (layers.js); fingers, a mouse and buttons pan and zoom it (panzoom.js).
import { h, s, on, redraw, persistent } from "../dom.js";
import { t, yen, num, getLang } from "../i18n.js";
import { boardIndex, playerColour, inkOn, initial, seatName, targetsOf, fieldPlace, stationName, localName, lineBadge,
  actionKey, vehiclesOf, U, P } from "./common.js";
import { drinkMarks, bonusOf } from "./drinks.js";
import { trains } from "./vehicles.js";
import { ui, listen, press, offer } from "./ui.js";
import { planRun, runPlans } from "./animate.js";
import { labelLayer } from "./maplabels.js";
import { coordLayer, watchMoves } from "./coords.js";
import { layerBar } from "./layers.js";
import { zoomButtons, panZoom } from "./panzoom.js";
import { rulers } from "./rulers.js";

const MARGIN = 0.7 * U;        // room for the coordinates along the edges
const STOP_R = 0.24 * U;       // a stop circle (its stroke adds 1.3)
// A meeple in a 100 x 100 box.
const MEEPLE = "M50,4C59,4 65,11 65,20C65,26 62,30 58,32L90,42C97,44 97,55 90,57L70,61L84,92C86,97 82,100 "
  + "78,100L58,100L50,83L42,100L22,100C18,100 14,97 16,92L30,61L10,57C3,55 3,44 10,42L42,32C38,30 35,26 "
  + "35,20C35,11 41,4 50,4Z";

// The box (map units) a piece covers, which the station names keep clear of.
const around = (x, y, rx, ry = rx) => ({ x1: x - rx, y1: y - ry, x2: x + rx, y2: y + ry });

// The moves the map can show for this page: the viewer's (the table: every person's) moves,
// narrowed to the picked card action.
function mapMoves(view) {
  if (!ui.selected) return view.moves;
  return view.moves.filter((m) => actionKey(m.move) === ui.selected);
}

function grid(ix, board) {
  const w = ix.cols * U;
  const hgt = ix.rows * U;
  let d = "";
  for (let c = 0; c <= ix.cols; c++) d += `M${c * U} 0V${hgt}`;
  for (let r = 0; r <= ix.rows; r++) d += `M0 ${r * U}H${w}`;
  const blocked = (board.grid.blocked || []).map(([c, r]) => s("rect", { class: "m-blocked", x: c * U, y: r * U,
    width: U, height: U }));
  return s("g", { class: "m-grid" },
    s("rect", { class: "m-paper", x: 0, y: 0, width: w, height: hgt, rx: 6 }),
    blocked, s("path", { class: "m-gridlines", d }));
}

function startArea(board, show) {
  if (!show) return null;
  const a = board.start_area;
  return s("rect", { class: "m-start", x: a.col * U, y: a.row * U, width: a.cols * U, height: a.rows * U, rx: 4 },
    s("title", {}, t("metro.map.startArea")));
}

// Each line as one polyline; a stretch two lines share shows both colours (the later one narrower).
function lines(ix, board, st) {
  const casing = [];
  const colour = [];
  const shared = new Map();
  for (const line of board.lines) {
    const pts = line.stops.map((stop) => ix.circles.get(stop.circle)).filter(Boolean);
    const points = pts.map((c) => `${P(c.x)},${P(c.y)}`).join(" ");
    const info = st.lines.find((l) => l.letter === line.letter);
    const title = s("title", {}, `${line.letter} · ${line.name}${info ? ` · ${yen(info.value)}` : ""}`);
    casing.push(s("polyline", { class: "m-line-casing", points }));
    colour.push(s("polyline", { class: "m-line", points, stroke: line.colour,
      "data-line": line.letter }, title));
    for (let i = 1; i < pts.length; i++) {
      const key = [pts[i - 1].id, pts[i].id].sort().join("|");
      if (!shared.has(key)) shared.set(key, []);
      shared.get(key).push({ line, a: pts[i - 1], b: pts[i] });
    }
  }
  const overlays = [];
  for (const segs of shared.values()) {
    segs.slice(1).forEach(({ line, a, b }, k) => overlays.push(s("line", { class: "m-line-shared",
      x1: P(a.x), y1: P(a.y), x2: P(b.x), y2: P(b.y), stroke: line.colour,
      "stroke-width": (0.2 * U) / (k + 2) })));
  }
  return s("g", { class: "m-lines" }, casing, colour, overlays);
}

function stations(ix, board, st, obstacles) {
  for (const station of board.stations) {
    const cs = station.circles;
    for (const c of cs) obstacles.push(around(P(c.x), P(c.y), STOP_R + 1.3));
    for (let i = 1; i < cs.length; i++) { // the interchange's band (25 wide)
      obstacles.push({ x1: Math.min(P(cs[i - 1].x), P(cs[i].x)) - 12.5, y1: Math.min(P(cs[i - 1].y), P(cs[i].y)) - 12.5,
        x2: Math.max(P(cs[i - 1].x), P(cs[i].x)) + 12.5, y2: Math.max(P(cs[i - 1].y), P(cs[i].y)) + 12.5 });
    }
  }
  const owner = new Map((st.pyramids || []).map((p) => [p.station, p.owner]));
  return s("g", { class: "m-stations" }, board.stations.map((station) => {
    const cs = station.circles;
    const who = owner.get(station.id);
    const title = [station.name, station.name_ja ? `(${station.name_ja})` : "", "·", station.lines.join(" "),
      who !== undefined ? `· ${t("metro.map.stationOf", { name: seatName(st, who) })}` : ""].filter(Boolean).join(" ");
    const points = cs.map((c) => `${P(c.x)},${P(c.y)}`).join(" ");
    return s("g", { class: "m-station", "data-station": station.id },
      s("title", {}, title),
      cs.length > 1 ? [s("polyline", { class: "m-interchange", points }), s("polyline", { class: "m-interchange-in", points })] : null,
      cs.map((c) => s("circle", { class: "m-stop", cx: P(c.x), cy: P(c.y), r: STOP_R, "data-circle": c.id })));
  }));
}

// OSAKA METRO's small stops: a small circle on its line (trams and buses stop there; no station,
// no name, nothing built).
const SMALL_R = 0.14 * U;

function smallStops(ix, board, obstacles) {
  const stops = board.small_stops || [];
  if (!stops.length) return null;
  const through = new Map(); // circle -> the lines through it
  for (const line of board.lines) for (const stop of line.stops) {
    if (ix.smallStops.has(stop.circle)) through.set(stop.circle, [...(through.get(stop.circle) || []), line]);
  }
  return s("g", { class: "m-small-stops", "data-testid": "map-small-stops", "data-n": String(stops.length) },
    stops.map((c) => {
      obstacles.push(around(P(c.x), P(c.y), SMALL_R + 1.3));
      const lines = through.get(c.id) || [];
      return s("circle", { class: "m-small-stop", cx: P(c.x), cy: P(c.y), r: SMALL_R, "data-circle": c.id,
        "data-testid": `map-small-stop-${c.id}`, stroke: lines.length ? lines[0].colour : "#555" },
      s("title", {}, `${t("metro.map.smallStop")} · ${lines.map((l) => l.letter).join(" ")}`));
    }));
}

function pyramids(ix, st, obstacles) {
  return s("g", { class: "m-pyramids" }, (st.pyramids || []).map((p) => {
    const station = ix.stations.get(p.station);
    if (!station) return null;
    const c = station.circles[0];
    const x = P(c.x);
    const y = P(c.y);
    const colour = playerColour(p.owner);
    obstacles.push({ x1: x - 0.34 * U - 1.5, y1: y - 0.42 * U - 2, x2: x + 0.34 * U + 1.5, y2: y + 0.24 * U + 1.5 });
    return s("g", { class: "m-pyramid", "data-station": p.station, "data-owner": String(p.owner) },
      s("title", {}, t("metro.map.stationOf", { name: seatName(st, p.owner) }) + ` · ${localName(station)}`),
      s("polygon", { points: `${x},${y - 0.42 * U} ${x - 0.34 * U},${y + 0.24 * U} ${x + 0.34 * U},${y + 0.24 * U}`,
        fill: colour }),
      s("text", { class: "m-piece-letter", x, y: y + 0.13 * U, fill: inkOn(colour) }, initial(seatName(st, p.owner))));
  }));
}

function meeple(st, p, x, y, size, extra = {}) {
  const colour = playerColour(p.seat);
  const k = size / 100;
  return s("g", { class: "m-meeple", transform: `translate(${x - size / 2} ${y - size / 2})`, "data-seat": String(p.seat),
    ...extra },
  s("title", {}, p.riding ? t("metro.map.rides", { name: p.name, line: p.riding }) : p.name),
  s("path", { d: MEEPLE, fill: colour, transform: `scale(${k})` }),
  s("text", { class: "m-piece-letter", x: size / 2, y: size * 0.72, fill: inkOn(colour),
    "font-size": size * 0.36 }, initial(p.name)));
}

function meeples(ix, st, acting, obstacles) {
  const out = [];
  const put = (x, y, size) => obstacles.push(around(x, y, size / 2 + (3.5 * size) / 100));
  const riders = new Map();
  for (const p of st.players) {
    if (p.meeple) {
      const [c, r] = p.meeple;
      put((c + 0.5) * U, (r + 0.5) * U, 0.82 * U);
      out.push(meeple(st, p, (c + 0.5) * U, (r + 0.5) * U, 0.82 * U,
        { "data-testid": `map-meeple-${p.seat}`, class: `m-meeple${acting.has(p.seat) ? " acting" : ""}`,
          "data-field": `${c},${r}` }));
    } else if (p.riding) {
      const line = st.lines.find((l) => l.letter === p.riding);
      const v = Number.isInteger(p.vehicle) ? p.vehicle : 0;
      const veh = line ? vehiclesOf(line).find((x) => (x.vehicle || 0) === v) : null;
      const here = veh ? ix.circles.get(veh.circle) : null;
      if (!here) continue;
      const k = riders.get(`${p.riding}/${v}`) || 0;
      riders.set(`${p.riding}/${v}`, k + 1);
      put(P(here.x) + (k - 0.3) * 0.5 * U, P(here.y) + 0.62 * U, 0.6 * U);
      out.push(meeple(st, p, P(here.x) + (k - 0.3) * 0.5 * U, P(here.y) + 0.62 * U, 0.6 * U,
        { "data-testid": `map-meeple-${p.seat}`, class: `m-meeple riding${acting.has(p.seat) ? " acting" : ""}`,
          "data-riding": p.riding, "data-vehicle": String(v) }));
    }
  }
  return s("g", { class: "m-meeples" }, out);
}

// The train phase to come: each train's path as a band along its line (under the stations), the
// numbered stops and the payouts it triggers (over them).
function previewLayers(ix, st, obstacles) {
  const pv = st.preview;
  if (!pv || !pv.trains || !pv.trains.some((tr) => tr.path.length)) return [null, null];
  const paths = [];
  const marks = [];
  for (const tr of pv.trains) {
    if (!tr.path.length) continue;
    const pts = [[tr.x, tr.y], ...tr.path.map((p) => [p.x, p.y])].map(([x, y]) => `${P(x)},${P(y)}`).join(" ");
    const second = tr.vehicle_index ? "-2" : "";
    paths.push(s("g", { class: "m-preview-path", "data-line": tr.line, "data-testid": `map-path-${tr.line}${second}` },
      s("polyline", { class: "m-path-halo", points: pts }),
      s("polyline", { class: "m-path-band", points: pts, stroke: tr.colour })));
    const seen = new Map();
    tr.path.forEach((p, i) => {
      const k = seen.get(p.circle) || 0; // a train passing a stop twice (reversing at the end)
      seen.set(p.circle, k + 1);
      const pays = tr.payouts.some((q) => q.stop === p.stop);
      obstacles.push(around(P(p.x) + k * 0.42 * U, P(p.y) - 0.42 * U - k * 0.1 * U, 0.22 * U + 1.5));
      marks.push(s("g", { class: `m-step${pays ? " pays" : ""}`,
        transform: `translate(${P(p.x) + k * 0.42 * U} ${P(p.y) - 0.42 * U - k * 0.1 * U})` },
      s("title", {}, `${tr.line} ${i + 1}: ${stationName(ix, p.station)}`),
      s("circle", { r: 0.22 * U, stroke: tr.colour }),
      s("text", { y: 0.09 * U }, String(i + 1))));
    });
    for (const pay of tr.payouts) {
      const c = ix.stopCircle.get(pay.stop);
      if (!c) continue;
      const text = `+${num(pay.to_owner || pay.value)}`;
      const colour = pay.to_owner ? playerColour(pay.owner) : "#fff7d1";
      const w = (0.21 * text.length + 0.3) * U;
      obstacles.push({ x1: P(c.x) + 0.3 * U - 1, y1: P(c.y) + 0.35 * U - 1, x2: P(c.x) + 0.3 * U + w + 1,
        y2: P(c.y) + 0.85 * U + 1 });
      marks.push(s("g", { class: "m-payout", transform: `translate(${P(c.x) + 0.3 * U} ${P(c.y) + 0.35 * U})`,
        "data-testid": `map-payout-${pay.stop}${second}` },
      s("title", {}, payoutText(st, tr.line, pay, ix)),
      s("rect", { x: 0, y: 0, width: w, height: 0.5 * U, rx: 0.25 * U, fill: colour }),
      s("text", { x: w / 2, y: 0.36 * U, fill: pay.to_owner ? inkOn(colour) : "#111" }, text)));
    }
  }
  return [s("g", { class: "m-preview", "data-testid": "map-preview" }, paths), s("g", { class: "m-preview-marks" }, marks)];
}

export function payoutText(st, line, pay, ix) {
  const where = stationName(ix, pay.station);
  const bonus = bonusOf(st, pay);
  const text = payoutWords(st, line, pay, ix, where);
  return bonus ? `${text} ${t("metro.drinks.payBonus", { yen: yen(bonus) })}` : text;
}

function payoutWords(st, line, pay, ix, where) {
  return pay.to_owner
    ? t("metro.pay.owner", { stop: pay.stop, station: where, name: seatName(st, pay.owner), yen: yen(pay.to_owner),
      value: num(pay.value), line })
    : t("metro.pay.holder", { stop: pay.stop, station: where, name: seatName(st, pay.owner), value: num(pay.value), line });
}

// Fields and stations the moves on this page can go to: tap one to make that move.
function targetLayer(ix, view, targets) {
  const st = view.state;
  const seat = view.moves.length ? view.moves[0].move.player : null;
  const colour = seat === null ? "#1f5fbf" : playerColour(seat);
  const tap = (moves) => () => {
    if (moves.length === 1 || new Set(moves.map((m) => JSON.stringify(m.move))).size === 1) {
      press(moves[0].move);
      return;
    }
    offer(moves);
  };
  const items = [];
  for (const [key, moves] of targets.fields) {
    const [c, r] = key.split(",").map(Number);
    const place = fieldPlace(ix, c, r);
    const label = t("metro.map.tapField", { field: `${c}·${r}`, place: place || t("metro.map.noStation") });
    const el = s("rect", { class: "m-target-field", x: c * U + 2, y: r * U + 2, width: U - 4, height: U - 4, rx: 6,
      fill: colour, stroke: colour, role: "button", tabindex: "0", "aria-label": label,
      "data-testid": `map-field-${c}-${r}`, "data-field": key }, s("title", {}, label));
    activate(el, tap(moves));
    items.push(el);
  }
  for (const [id, moves] of targets.stations) {
    const station = ix.stations.get(id);
    if (!station) continue;
    const label = t("metro.map.tapStation", { station: localName(station) });
    const g = s("g", { class: "m-target-station", role: "button", tabindex: "0", "aria-label": label,
      "data-testid": `map-station-${id}`, "data-station": id },
    s("title", {}, label),
    station.circles.map((c) => s("circle", { cx: P(c.x), cy: P(c.y), r: 0.62 * U, stroke: colour })));
    activate(g, tap(moves));
    items.push(g);
  }
  return s("g", { class: "m-targets", "data-seat": seat === null ? "" : String(seat) }, items);
}

function activate(el, fn) {
  on(el, "click", (e) => { e.stopPropagation(); fn(); });
  on(el, "keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); }
  });
}

// --- the revenue track (under the map): each line's value and the two numbers beside it -----------

function revenueTrack(view, targets) {
  const st = view.state;
  return h("div", { class: "m-track", testid: "revenue-track", role: "list", "aria-label": t("metro.track.title") },
    st.lines.map((l) => {
      const moves = targets.lines.get(l.letter);
      const content = [
        lineBadge(st, l.letter),
        h("span", { class: "m-track-value", testid: `line-value-${l.letter}`, dataset: { value: String(l.value) } },
          num(l.value), l.over_6000 ? "+" : ""),
        h("span", { class: "m-track-split", title: t("metro.track.split") }, `${num(l.high)}/${num(l.low)}`),
      ];
      const fill = Math.min(1, l.value / ((st.track && st.track.top) || 6000));
      const bar = h("span", { class: "m-track-bar", style: `--fill:${fill};--c:${l.colour}` });
      if (moves) {
        return h("button", { class: "m-track-item target", role: "listitem", testid: `map-line-${l.letter}`,
          onclick: () => (moves.length === 1 ? press(moves[0].move) : offer(moves)) }, content, bar);
      }
      return h("div", { class: "m-track-item", role: "listitem" }, content, bar);
    }));
}

// --- the whole map panel ------------------------------------------------------------------------

// Scroll the map box so that these fields (col, row in field units) are in the middle.
function centreOn(box, svg, ix, pts) {
  if (!pts.length || !box.isConnected) return;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2 + 0.5;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2 + 0.5;
  const w = svg.getBoundingClientRect().width;
  const scale = w / (ix.cols * U + 2 * MARGIN);
  box.scrollLeft = (cx * U + MARGIN) * scale - box.clientWidth / 2;
  box.scrollTop = (cy * U + MARGIN) * scale - box.clientHeight / 2;
}

// The pieces over the board, each adding the boxes it covers to `obstacles` (the names avoid them).
function pieceLayers(ix, board, st, acting, obstacles) {
  const [previewUnder, previewOver] = previewLayers(ix, st, obstacles);
  return { previewUnder, previewOver, stations: stations(ix, board, st, obstacles), small: smallStops(ix, board, obstacles),
    pyramids: pyramids(ix, st, obstacles), drinks: drinkMarks(ix, st, { P, U, obstacles }),
    meeples: meeples(ix, st, acting, obstacles), trains: trains(ix, st, obstacles) };
}

// The map's frame: the svg in its scrolling box, the rulers, the zoom buttons, the layer toggles,
// the revenue track's slot, with their listeners (fingers, wheel, scroll, a pick). Made once a page
// (again for another board, page kind or language) and kept across renders: each view redraws the
// svg's layers in place (dom.redraw), so the grid, the lines, the stations and the names that did
// not move are not drawn again. The listeners read the newest view from `cur`.
let kept = null;

function mapFrame(ix, board, phone) {
  const key = JSON.stringify([ix.cols, ix.rows, board.lines.length, board.stations.length, phone, getLang()]);
  if (kept && kept.key === key) return kept;
  const width = ix.cols * U + 2 * MARGIN;
  const height = ix.rows * U + 2 * MARGIN;
  const svg = s("svg", { class: "metro-map", viewBox: `${-MARGIN} ${-MARGIN} ${width} ${height}`, role: "img",
    "aria-label": t("metro.map.title"), "data-testid": "metro-map", "data-lines": String(board.lines.length),
    "data-stations": String(board.stations.length), preserveAspectRatio: "xMidYMin meet" });
  svg.style.width = `${ui.zoom * 100}%`;
  svg.dataset.zoom = String(ui.zoom);
  const cur = { view: null, ix, board, focusPts: [] };
  const targetsLayer = persistent(s("g", { class: "m-target-wrap" }));
  const glowLayer = persistent(s("g", { class: "m-glow-wrap" }));
  const highlight = persistent(s("g", { class: "m-highlight-wrap" }));
  const box = h("div", { class: "m-box", testid: "map-box" }, svg);
  const frame = persistent(h("div", { class: "m-frame" }, box));
  rulers(frame, box, svg, ix, { U, margin: MARGIN });
  const trackSlot = persistent(h("div", { class: "m-track-slot" }));
  // (the grid and the numbers along the edges are the board's alone: drawn once)
  const gridLayer = persistent(grid(ix, board));
  const coords = persistent(coordLayer(ix, U, MARGIN));
  const draw = () => {
    const { view } = cur;
    const targets = targetsOf(ix, mapMoves(view));
    targetsLayer.replaceChildren(targetLayer(ix, view, targets));
    // Lines glow only for a picked action (or a few lines): twelve glowing lines read as none.
    const glowing = ui.selected || targets.lines.size <= 3 ? [...targets.lines.keys()] : [];
    glowLayer.replaceChildren(...glowing.map((letter) => {
      const line = cur.board.lines.find((l) => l.letter === letter);
      if (!line) return null;
      const points = line.stops.map((stop) => ix.circles.get(stop.circle)).filter(Boolean)
        .map((c) => `${P(c.x)},${P(c.y)}`).join(" ");
      return s("polyline", { class: "m-line-glow", points, stroke: line.colour });
    }).filter(Boolean));
    trackSlot.replaceChildren(revenueTrack(view, targets));
    cur.focusPts = [...targets.fields.keys()].map((k) => k.split(",").map(Number));
    for (const id of targets.stations.keys()) {
      const station = ix.stations.get(id);
      if (station) cur.focusPts.push(...station.circles.map((c) => [c.x - 0.5, c.y - 0.5]));
    }
    svg.dataset.targets = String(targets.fields.size + targets.stations.size);
  };
  // A pick (a card action) redraws the targets; zoomed in, the map then looks at them.
  listen(() => { draw(); if (ui.zoom > 1 && cur.focusPts.length) focus(); }, svg);

  // Zoomed in, the map looks at the targets, else the trains' paths, else this phone's meeple.
  const elsewhere = () => {
    const { view } = cur;
    const pv = view.state.preview;
    const pts = pv && pv.trains ? pv.trains.flatMap((tr) => [[tr.x, tr.y], ...tr.path.map((p) => [p.x, p.y])])
      .map(([x, y]) => [x - 0.5, y - 0.5]) : [];
    const mine = view.state.players.find((p) => p.seat === view.viewer);
    if (!pts.length && mine && mine.meeple) pts.push(mine.meeple);
    return pts;
  };
  const focus = () => centreOn(box, svg, ix, cur.focusPts.length ? cur.focusPts : elsewhere());
  on(box, "scroll", () => { ui.scroll = { seq: cur.view.seq, left: box.scrollLeft, top: box.scrollTop }; },
    { passive: true });
  // A person's zoom (buttons, fingers, wheel) holds for this view; the next one may zoom by itself.
  const zoomed = (z) => {
    const from = ui.zoom;
    ui.zoom = z;
    ui.zoomSeq = cur.view.seq;
    if (from <= 1 && z > 1 && cur.focusPts.length) setTimeout(focus, 0); // in from the whole board: to the targets
  };
  panZoom(box, svg, (z) => { ui.zoom = z; ui.zoomSeq = cur.view.seq; });
  const zoom = persistent(zoomButtons(box, svg, zoomed));
  const layers = persistent(layerBar(svg));
  kept = { key, cur, svg, box, frame, zoom, layers, trackSlot, targetsLayer, glowLayer, highlight, gridLayer, coords,
    draw, focus };
  return kept;
}

export function mapPanel(view, { phone = false } = {}) {
  const st = view.state;
  const board = st.board;
  if (!board || !board.grid) return null;
  const ix = boardIndex(board);
  const acting = new Set((st.to_act || []).map((a) => a.actor).filter(Number.isInteger));
  const showStart = st.phase === "movement" && st.round === 1;
  const map = mapFrame(ix, board, phone);
  const { svg, box, cur } = map;
  Object.assign(cur, { view, ix, board });
  const obstacles = [];
  const pieces = pieceLayers(ix, board, st, acting, obstacles);
  const important = new Set([...(st.pyramids || []).map((p) => p.station),
    ...targetsOf(ix, view.moves).stations.keys()]);
  svg.classList.toggle("previewing", Boolean(pieces.previewUnder));
  redraw(svg,
    map.gridLayer,
    startArea(board, showStart), // under everything: the names over it stay readable
    map.glowLayer,
    lines(ix, board, st),
    pieces.previewUnder,
    pieces.stations,
    pieces.small,
    pieces.pyramids,
    pieces.drinks,
    pieces.previewOver,
    pieces.meeples,
    pieces.trains,
    map.targetsLayer, // a field to tap may hold the player's own meeple (a walk of 0 steps)
    map.highlight,
    // On top, letting taps through: the names sit clear of the pieces, over the marked fields.
    labelLayer(ix, board, { P, obstacles, bounds: { x1: 0, y1: 0, x2: ix.cols * U, y2: ix.rows * U },
      stop: 0.3 * U, important }),
    map.coords,
  );
  watchMoves({ svg, layer: map.highlight, ix, board, st, P, U, moves: view.moves });
  map.draw();

  // A phone zooms in on where its player can go, and out again when there is nowhere to go (once a
  // view: a person's own zoom holds until the next one).
  if (phone && ui.zoomSeq !== view.seq) {
    ui.zoomSeq = view.seq;
    ui.zoom = cur.focusPts.length ? 3 : 1;
  }
  svg.style.width = `${ui.zoom * 100}%`;
  svg.dataset.zoom = String(ui.zoom);
  // Zoomed in: a new view looks at what matters now; a redraw of the same view keeps the spot.
  if (ui.zoom > 1) {
    const spot = ui.scroll && ui.scroll.seq === view.seq ? ui.scroll : null;
    setTimeout(() => {
      if (!spot) { map.focus(); return; }
      box.scrollLeft = spot.left;
      box.scrollTop = spot.top;
    }, 0);
  }

  // The trains that just ran move along the paths the previous view showed.
  const plans = planRun(view);
  if (plans) setTimeout(() => runPlans(svg, plans), 0);

  const notice = board.approximate ? h("p", { class: "m-approx", testid: "map-approximate", role: "note" },
    t("metro.map.approximate")) : null;
  // Which board and cards the game plays: our approximation, or a set of the table's own (/table-cards).
  const from = st.cards_from;
  const cardsFrom = from ? h("p", { class: "m-approx", testid: "map-cards-from", dataset: { set: from.set || "" } },
    from.set ? t("metro.cardsFrom.set", { name: from.set }) : t("metro.cardsFrom.ours")) : null;
  const hint = targetsHint(view);
  return h("section", { class: "panel metro-map-panel", testid: "metro-map-panel" },
    h("div", { class: "m-head" }, h("h2", {}, t("metro.map.title")), systemChip(st), hint, map.zoom),
    map.frame, h("div", { class: "m-tools" }, map.layers), map.trackSlot, notice, cardsFrom);
}

// Which board and which action cards play (the modular variant mixes them), and whether trains
// stay on the board between rounds (OSAKA METRO's rule, in play with either Osaka part).
function systemChip(st) {
  if (!st.system) return null;
  const cards = st.card_set && st.card_set !== "board" ? st.card_set : st.system;
  const words = t("metro.system.label", { board: t(`metro.system.${st.system}`), cards: t(`metro.system.${cards}`) });
  return h("span", { class: "m-system", testid: "metro-system", dataset: { system: st.system, cards, stay: String(Boolean(st.trains_stay)) },
    title: st.trains_stay ? t("metro.trains.stay") : null }, words, st.trains_stay ? ` · ${t("metro.system.stay")}` : "");
}

function targetsHint(view) {
  const kinds = new Set(view.moves.map((m) => m.move.kind));
  if (["place", "walk", "alight", "move"].some((k) => kinds.has(k))) {
    return h("span", { class: "m-hint", testid: "map-hint" }, t("metro.map.hintField"));
  }
  return null;
}

