// TOKYO METRO: the board as an SVG map. The grid of fields (faint), the twelve lines in their
// colours through their stop circles, stations (names on hover), pyramids and meeples in player
// colours, trains as arrows pointing where they go next; the revenue track under it. During the
// train phase each train's path and its payouts are drawn; when the trains have run, they move
// along their paths. Fields and stations a move can go to are marked and can be tapped.
import { h, s } from "../dom.js";
import { t, yen, num } from "../i18n.js";
import { boardIndex, playerColour, inkOn, initial, seatName, targetsOf, fieldPlace, stationName, shortName, lineBadge,
  actionKey } from "./common.js";
import { ui, listen, press, offer } from "./ui.js";
import { planRun, runPlans } from "./animate.js";

export const U = 40;           // SVG units per field
const MARGIN = 0.7 * U;
const ZOOMS = [1, 1.5, 2, 3];
// A meeple in a 100 x 100 box.
const MEEPLE = "M50,4C59,4 65,11 65,20C65,26 62,30 58,32L90,42C97,44 97,55 90,57L70,61L84,92C86,97 82,100 "
  + "78,100L58,100L50,83L42,100L22,100C18,100 14,97 16,92L30,61L10,57C3,55 3,44 10,42L42,32C38,30 35,26 "
  + "35,20C35,11 41,4 50,4Z";

const P = (v) => Math.round(v * U * 10) / 10;

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

function stations(ix, board, st) {
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
      cs.map((c) => s("circle", { class: "m-stop", cx: P(c.x), cy: P(c.y), r: 0.24 * U, "data-circle": c.id })));
  }));
}

// Station names, placed greedily so that none overlaps another (or a name already placed): the
// big interchanges and the stations that matter now (pyramids, targets) first; at the whole-board
// zoom only those show, zoomed in the others too.
const LABEL_SIZE = 12;
const CHAR_W = 0.6 * LABEL_SIZE;

function stationLabels(ix, board, important) {
  const placed = [];
  const out = [];
  const free = (b) => placed.every((o) => b.x2 < o.x1 || b.x1 > o.x2 || b.y2 < o.y1 || b.y1 > o.y2);
  const circles = [...ix.circles.values()].map((c) => ({ x: P(c.x), y: P(c.y) }));
  const ranked = board.stations.map((st) => ({ st, major: st.lines.length >= 3 || important.has(st.id) }))
    .sort((a, b) => (b.major - a.major) || (b.st.lines.length - a.st.lines.length));
  for (const { st, major } of ranked) {
    const name = shortName(st.name);
    const w = name.length * CHAR_W;
    const xs = st.circles.map((c) => P(c.x));
    const ys = st.circles.map((c) => P(c.y));
    const [x1, x2, y1, y2] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const r = 0.3 * U;
    const spots = [
      { x: (x1 + x2) / 2, y: y2 + r + LABEL_SIZE, anchor: "middle" },
      { x: (x1 + x2) / 2, y: y1 - r - 3, anchor: "middle" },
      { x: x2 + r + 2, y: (y1 + y2) / 2 + LABEL_SIZE / 3, anchor: "start" },
      { x: x1 - r - 2, y: (y1 + y2) / 2 + LABEL_SIZE / 3, anchor: "end" },
    ];
    for (const spot of spots) {
      const left = spot.anchor === "middle" ? spot.x - w / 2 : spot.anchor === "start" ? spot.x : spot.x - w;
      const box = { x1: left, x2: left + w, y1: spot.y - LABEL_SIZE + 2, y2: spot.y + 2 };
      // Not over a stop circle of another station either.
      const onCircle = circles.some((c) => c.x > box.x1 - 8 && c.x < box.x2 + 8 && c.y > box.y1 - 8 && c.y < box.y2 + 8
        && !(xs.includes(c.x) && ys.includes(c.y)));
      if (!free(box) || onCircle) continue;
      placed.push(box);
      out.push(s("text", { class: `m-station-name${major ? "" : " minor"}`, x: Math.round(spot.x), y: Math.round(spot.y),
        "text-anchor": spot.anchor, "data-station": st.id }, name));
      break;
    }
  }
  return s("g", { class: "m-labels", "aria-hidden": "true" }, out);
}

function pyramids(ix, st) {
  return s("g", { class: "m-pyramids" }, (st.pyramids || []).map((p) => {
    const station = ix.stations.get(p.station);
    if (!station) return null;
    const c = station.circles[0];
    const x = P(c.x);
    const y = P(c.y);
    const colour = playerColour(p.owner);
    return s("g", { class: "m-pyramid", "data-station": p.station, "data-owner": String(p.owner) },
      s("title", {}, t("metro.map.stationOf", { name: seatName(st, p.owner) }) + ` · ${station.name}`),
      s("polygon", { points: `${x},${y - 0.42 * U} ${x - 0.34 * U},${y + 0.24 * U} ${x + 0.34 * U},${y + 0.24 * U}`,
        fill: colour }),
      s("text", { class: "m-piece-letter", x, y: y + 0.13 * U, fill: inkOn(colour) }, initial(seatName(st, p.owner))));
  }));
}

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

function trainMarker(line, x, y, angle, extra = {}) {
  const ink = inkOn(line.colour);
  return s("g", { class: "m-train", "data-line": line.letter, transform: `translate(${x} ${y})`, ...extra },
    s("title", {}, t("metro.map.train", { line: line.letter, stop: extra["data-stop"] || "" })),
    s("g", { class: "m-train-arrow", transform: `rotate(${Math.round(angle)})` },
      s("path", { d: `M${0.62 * U} 0 L${0.2 * U} ${-0.34 * U} L${0.2 * U} ${0.34 * U} Z`, fill: line.colour })),
    s("circle", { r: 0.34 * U, fill: line.colour }),
    s("text", { class: "m-train-letter", y: 0.12 * U, fill: ink }, line.letter));
}

function trains(ix, st) {
  const at = new Map(); // circle -> trains there (offset so both show)
  const out = [];
  for (const line of st.lines) {
    if (!line.train) continue;
    const here = ix.circles.get(line.train.circle);
    if (!here) continue;
    const k = at.get(here.id) || 0;
    at.set(here.id, k + 1);
    const x = P(here.x) + k * 0.45 * U;
    const y = P(here.y) - k * 0.45 * U;
    out.push(trainMarker(line, x, y, trainAngle(ix, line, line.train),
      { "data-stop": line.train.stop, "data-dir": String(line.train.dir), "data-testid": `map-train-${line.letter}` }));
  }
  return s("g", { class: "m-trains" }, out);
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

function meeples(ix, st, acting) {
  const out = [];
  const riders = new Map();
  for (const p of st.players) {
    if (p.meeple) {
      const [c, r] = p.meeple;
      out.push(meeple(st, p, (c + 0.5) * U, (r + 0.5) * U, 0.82 * U,
        { "data-testid": `map-meeple-${p.seat}`, class: `m-meeple${acting.has(p.seat) ? " acting" : ""}`,
          "data-field": `${c},${r}` }));
    } else if (p.riding) {
      const line = st.lines.find((l) => l.letter === p.riding);
      const here = line && line.train ? ix.circles.get(line.train.circle) : null;
      if (!here) continue;
      const k = riders.get(p.riding) || 0;
      riders.set(p.riding, k + 1);
      out.push(meeple(st, p, P(here.x) + (k - 0.3) * 0.5 * U, P(here.y) + 0.62 * U, 0.6 * U,
        { "data-testid": `map-meeple-${p.seat}`, class: `m-meeple riding${acting.has(p.seat) ? " acting" : ""}`,
          "data-riding": p.riding }));
    }
  }
  return s("g", { class: "m-meeples" }, out);
}

// The train phase to come: each train's path as a band along its line (under the stations), the
// numbered stops and the payouts it triggers (over them).
function previewLayers(ix, st) {
  const pv = st.preview;
  if (!pv || !pv.trains || !pv.trains.some((tr) => tr.path.length)) return [null, null];
  const paths = [];
  const marks = [];
  for (const tr of pv.trains) {
    if (!tr.path.length) continue;
    const pts = [[tr.x, tr.y], ...tr.path.map((p) => [p.x, p.y])].map(([x, y]) => `${P(x)},${P(y)}`).join(" ");
    paths.push(s("g", { class: "m-preview-path", "data-line": tr.line, "data-testid": `map-path-${tr.line}` },
      s("polyline", { class: "m-path-halo", points: pts }),
      s("polyline", { class: "m-path-band", points: pts, stroke: tr.colour })));
    const seen = new Map();
    tr.path.forEach((p, i) => {
      const k = seen.get(p.circle) || 0; // a train passing a stop twice (reversing at the end)
      seen.set(p.circle, k + 1);
      const pays = tr.payouts.some((q) => q.stop === p.stop);
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
      marks.push(s("g", { class: "m-payout", transform: `translate(${P(c.x) + 0.3 * U} ${P(c.y) + 0.35 * U})`,
        "data-testid": `map-payout-${pay.stop}` },
      s("title", {}, payoutText(st, tr.line, pay, ix)),
      s("rect", { x: 0, y: 0, width: w, height: 0.5 * U, rx: 0.25 * U, fill: colour }),
      s("text", { x: w / 2, y: 0.36 * U, fill: pay.to_owner ? inkOn(colour) : "#111" }, text)));
    }
  }
  return [s("g", { class: "m-preview", "data-testid": "map-preview" }, paths), s("g", { class: "m-preview-marks" }, marks)];
}

export function payoutText(st, line, pay, ix) {
  const where = stationName(ix, pay.station);
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
    const label = t("metro.map.tapStation", { station: station.name });
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
  el.addEventListener("click", (e) => { e.stopPropagation(); fn(); });
  el.addEventListener("keydown", (e) => {
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

function zoomBar(svg, focus, seq) {
  const sync = () => {
    const i = ZOOMS.indexOf(ui.zoom);
    out.disabled = i <= 0;
    inn.disabled = i >= ZOOMS.length - 1;
  };
  const set = (z) => {
    ui.zoom = z;
    ui.zoomSeq = seq; // a person's zoom holds for this view; the next one may zoom by itself again
    svg.style.width = `${z * 100}%`;
    svg.dataset.zoom = String(z);
    if (z > 1) setTimeout(focus, 0);
    sync();
  };
  const step = (d) => set(ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, ZOOMS.indexOf(ui.zoom) + d))]);
  const out = h("button", { class: "m-zoom-btn", testid: "map-zoom-out", "aria-label": t("metro.map.zoomOut"),
    onclick: () => step(-1) }, "−");
  const inn = h("button", { class: "m-zoom-btn", testid: "map-zoom-in", "aria-label": t("metro.map.zoomIn"),
    onclick: () => step(1) }, "+");
  sync();
  return h("div", { class: "m-zoom", role: "group", "aria-label": t("metro.map.zoom") }, out, inn);
}

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

export function mapPanel(view, { phone = false } = {}) {
  const st = view.state;
  const board = st.board;
  if (!board || !board.grid) return null;
  const ix = boardIndex(board);
  const acting = new Set((st.to_act || []).map((a) => a.actor).filter(Number.isInteger));
  const showStart = st.phase === "movement" && st.round === 1;
  const width = ix.cols * U + 2 * MARGIN;
  const height = ix.rows * U + 2 * MARGIN;
  const svg = s("svg", { class: "metro-map", viewBox: `${-MARGIN} ${-MARGIN} ${width} ${height}`, role: "img",
    "aria-label": t("metro.map.title"), "data-testid": "metro-map", "data-lines": String(board.lines.length),
    "data-stations": String(board.stations.length), preserveAspectRatio: "xMidYMin meet" });
  svg.style.width = `${ui.zoom * 100}%`;
  svg.dataset.zoom = String(ui.zoom);
  const targetsLayer = s("g", { class: "m-target-wrap" });
  const glowLayer = s("g", { class: "m-glow-wrap" });
  const [previewUnder, previewOver] = previewLayers(ix, st);
  const important = new Set([...(st.pyramids || []).map((p) => p.station),
    ...targetsOf(ix, view.moves).stations.keys()]);
  if (previewUnder) svg.classList.add("previewing");
  svg.append(
    grid(ix, board),
    startArea(board, showStart),
    glowLayer,
    lines(ix, board, st),
    previewUnder,
    stations(ix, board, st),
    pyramids(ix, st),
    stationLabels(ix, board, important),
    previewOver,
    meeples(ix, st, acting),
    trains(ix, st),
    targetsLayer, // on top: a field to tap may hold the player's own meeple (a walk of 0 steps)
  );
  const box = h("div", { class: "m-box", testid: "map-box" }, svg);
  const trackSlot = h("div", { class: "m-track-slot" });
  let focusPts = [];
  const draw = () => {
    const targets = targetsOf(ix, mapMoves(view));
    targetsLayer.replaceChildren(targetLayer(ix, view, targets));
    // Lines glow only for a picked action (or a few lines): twelve glowing lines read as none.
    const glowing = ui.selected || targets.lines.size <= 3 ? [...targets.lines.keys()] : [];
    glowLayer.replaceChildren(...glowing.map((letter) => {
      const line = board.lines.find((l) => l.letter === letter);
      if (!line) return null;
      const points = line.stops.map((stop) => ix.circles.get(stop.circle)).filter(Boolean)
        .map((c) => `${P(c.x)},${P(c.y)}`).join(" ");
      return s("polyline", { class: "m-line-glow", points, stroke: line.colour });
    }).filter(Boolean));
    trackSlot.replaceChildren(revenueTrack(view, targets));
    focusPts = [...targets.fields.keys()].map((k) => k.split(",").map(Number));
    for (const id of targets.stations.keys()) {
      const station = ix.stations.get(id);
      if (station) focusPts.push(...station.circles.map((c) => [c.x - 0.5, c.y - 0.5]));
    }
    svg.dataset.targets = String(targets.fields.size + targets.stations.size);
  };
  draw();
  // A pick (a card action) redraws the targets; zoomed in, the map then looks at them.
  listen(() => { draw(); if (ui.zoom > 1 && focusPts.length) focus(); }, svg);

  // Zoomed in, the map looks at the targets, else the trains' paths, else this phone's meeple.
  const elsewhere = () => {
    const pv = st.preview;
    const pts = pv && pv.trains ? pv.trains.flatMap((tr) => [[tr.x, tr.y], ...tr.path.map((p) => [p.x, p.y])])
      .map(([x, y]) => [x - 0.5, y - 0.5]) : [];
    const mine = st.players.find((p) => p.seat === view.viewer);
    if (!pts.length && mine && mine.meeple) pts.push(mine.meeple);
    return pts;
  };
  const focus = () => centreOn(box, svg, ix, focusPts.length ? focusPts : elsewhere());
  // A phone zooms in on where its player can go, and out again when there is nowhere to go (once a
  // view: a person's own zoom holds until the next one).
  if (phone && ui.zoomSeq !== view.seq) {
    ui.zoomSeq = view.seq;
    ui.zoom = focusPts.length ? 3 : 1;
    svg.style.width = `${ui.zoom * 100}%`;
    svg.dataset.zoom = String(ui.zoom);
  }
  // Zoomed in: a new view looks at what matters now; a redraw of the same view keeps the spot.
  if (ui.zoom > 1) {
    const kept = ui.scroll && ui.scroll.seq === view.seq ? ui.scroll : null;
    setTimeout(() => {
      if (!kept) { focus(); return; }
      box.scrollLeft = kept.left;
      box.scrollTop = kept.top;
    }, 0);
  }
  box.addEventListener("scroll", () => { ui.scroll = { seq: view.seq, left: box.scrollLeft, top: box.scrollTop }; },
    { passive: true });

  // The trains that just ran move along the paths the previous view showed.
  const plans = planRun(view);
  if (plans) setTimeout(() => runPlans(svg, plans), 0);

  const notice = board.approximate ? h("p", { class: "m-approx", testid: "map-approximate", role: "note" },
    t("metro.map.approximate")) : null;
  const hint = targetsHint(view);
  return h("section", { class: "panel metro-map-panel", testid: "metro-map-panel" },
    h("div", { class: "m-head" }, h("h2", {}, t("metro.map.title")), hint, zoomBar(svg, focus, view.seq)),
    box, trackSlot, notice);
}

function targetsHint(view) {
  const kinds = new Set(view.moves.map((m) => m.move.kind));
  if (["place", "walk", "alight", "move"].some((k) => kinds.has(k))) {
    return h("span", { class: "m-hint", testid: "map-hint" }, t("metro.map.hintField"));
  }
  return null;
}

