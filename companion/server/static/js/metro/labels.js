// TOKYO METRO: where each station's name goes on the map. Pure (no DOM): the map hands it the
// stations, the boxes it must keep clear of (stop circles, trains, numbered stops, +¥ tags,
// meeples, pyramids) and a way to measure text; it answers one label per station, none
// overlapping another or an obstacle, all inside the bounds. A label first tries the spots right
// beside its station, then the same spots smaller, then spots further out, joined to the station
// by a leader line. Crossing a metro line is allowed (the label has a halo) but avoided where a
// free spot does not cross one. The browser test checks the result on the drawn map.

const GAP = 1.5;          // units kept free around a label (its halo)
const SIZES = [1, 0.85, 0.72];
const LAST = 0.6;          // the size of a last resort, far out on a leader
const CELL = 40;          // the spatial index's bucket, in map units
const BLOCKERS = 2;       // a stuck name may move this many others out of a spot ...
const DEPTH = 1;          // ... and each of them may in turn move others this many times over

export const overlaps = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

const inside = (b, o) => b.x1 >= o.x1 && b.x2 <= o.x2 && b.y1 >= o.y1 && b.y2 <= o.y2;

const grow = (b, d) => ({ x1: b.x1 - d, y1: b.y1 - d, x2: b.x2 + d, y2: b.y2 + d });

// Boxes in buckets, so that a candidate is checked against its neighbours only.
class Index {
  constructor() { this.cells = new Map(); }

  span(b) {
    return [Math.floor(b.x1 / CELL), Math.floor(b.x2 / CELL), Math.floor(b.y1 / CELL), Math.floor(b.y2 / CELL)];
  }

  add(b) {
    const [i1, i2, j1, j2] = this.span(b);
    for (let i = i1; i <= i2; i++) {
      for (let j = j1; j <= j2; j++) {
        const k = i * 4096 + j;
        if (!this.cells.has(k)) this.cells.set(k, []);
        this.cells.get(k).push(b);
      }
    }
  }

  remove(b) {
    const [i1, i2, j1, j2] = this.span(b);
    for (let i = i1; i <= i2; i++) {
      for (let j = j1; j <= j2; j++) {
        const list = this.cells.get(i * 4096 + j);
        const at = list ? list.indexOf(b) : -1;
        if (at >= 0) list.splice(at, 1);
      }
    }
  }

  // The boxes overlapping b (each once).
  hitting(b) {
    const [i1, i2, j1, j2] = this.span(b);
    const out = [];
    for (let i = i1; i <= i2; i++) {
      for (let j = j1; j <= j2; j++) {
        for (const o of this.cells.get(i * 4096 + j) || []) if (overlaps(b, o) && !out.includes(o)) out.push(o);
      }
    }
    return out;
  }

  hits(b) {
    const [i1, i2, j1, j2] = this.span(b);
    for (let i = i1; i <= i2; i++) {
      for (let j = j1; j <= j2; j++) for (const o of this.cells.get(i * 4096 + j) || []) if (overlaps(b, o)) return true;
    }
    return false;
  }
}

// Does the segment (x1,y1)-(x2,y2) cross the box? (Liang-Barsky clipping.)
function crosses(seg, b) {
  const [x1, y1, x2, y2] = seg.p;
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - b.x1], [dx, b.x2 - x1], [-dy, y1 - b.y1], [dy, b.y2 - y1]]) {
    if (p === 0) { if (q < 0) return false; continue; }
    const r = q / p;
    if (p < 0) { if (r > t1) return false; if (r > t0) t0 = r; } else { if (r < t0) return false; if (r < t1) t1 = r; }
  }
  return true;
}

// The spots around a station's box (x1..x2, y1..y2) at distance d for a label w wide and h high:
// right, left, below, above, then the four corners. Each spot is the label's top-left corner.
function spotsAround(sb, d, w, h) {
  const cx = (sb.x1 + sb.x2) / 2;
  const cy = (sb.y1 + sb.y2) / 2;
  const c = d * 0.75;
  return [
    [sb.x2 + d, cy - h / 2], [sb.x1 - d - w, cy - h / 2], [cx - w / 2, sb.y2 + d], [cx - w / 2, sb.y1 - d - h],
    [sb.x2 + c, sb.y2 + c * 0.5], [sb.x2 + c, sb.y1 - c * 0.5 - h], [sb.x1 - c - w, sb.y2 + c * 0.5],
    [sb.x1 - c - w, sb.y1 - c * 0.5 - h],
  ];
}

// Farther spots (for a leader line): around the station in 16 directions.
function spotsFar(sb, d, w, h) {
  const cx = (sb.x1 + sb.x2) / 2;
  const cy = (sb.y1 + sb.y2) / 2;
  const out = [];
  for (let k = 0; k < 16; k++) {
    const a = (k * Math.PI) / 8;
    const ex = cx + Math.cos(a) * ((sb.x2 - sb.x1) / 2 + d);
    const ey = cy + Math.sin(a) * ((sb.y2 - sb.y1) / 2 + d);
    // the label's nearest corner or edge faces the station
    const x = Math.cos(a) > 0.3 ? ex : Math.cos(a) < -0.3 ? ex - w : ex - w / 2;
    const y = Math.sin(a) > 0.3 ? ey : Math.sin(a) < -0.3 ? ey - h : ey - h / 2;
    out.push([x, y]);
  }
  return out;
}

// The point of box b nearest to (x, y).
const nearest = (b, x, y) => [Math.min(Math.max(x, b.x1), b.x2), Math.min(Math.max(y, b.y1), b.y2)];

/**
 * stations: [{id, text, circles: [{x, y}] in map units, rank (higher: placed earlier on a tie)}]
 * opts: {bounds, obstacles: [box], segments: [[x1, y1, x2, y2]] (the lines: avoided, not forbidden),
 *        size (font size in map units), stop (a stop circle's radius), measure(text, size) ->
 *        {w, ascent, descent}}
 * returns [{id, text, x, y (baseline start), size, box, leader: [x1, y1, x2, y2] | null}]
 */
export function placeLabels(stations, opts) {
  const { bounds, size, stop, measure } = opts;
  const pieces = new Index();
  for (const b of opts.obstacles || []) pieces.add(b);
  const lines = new Index();
  for (const p of opts.segments || []) {
    lines.add({ p, x1: Math.min(p[0], p[2]), y1: Math.min(p[1], p[3]), x2: Math.max(p[0], p[2]), y2: Math.max(p[1], p[3]) });
  }
  const names = new Index();
  const owner = new Map(); // a placed box -> its station's entry
  const within = grow(bounds, -GAP);
  const clear = (b) => inside(b, within) && !pieces.hits(grow(b, GAP));
  const free = (b) => clear(b) && !names.hits(grow(b, GAP));

  const prepared = stations.map((st) => {
    const xs = st.circles.map((c) => c.x);
    const ys = st.circles.map((c) => c.y);
    const sb = { x1: Math.min(...xs), x2: Math.max(...xs), y1: Math.min(...ys), y2: Math.max(...ys) };
    const metrics = SIZES.map((k) => ({ k, ...measure(st.text, size * k) }));
    const last = { k: LAST, ...measure(st.text, size * LAST) };
    return { st, sb, metrics, last, cands: candidates(sb, metrics), chosen: null };
  });

  // A station's candidates, cheapest first: {cost, box, m (its size), far}. The spots beside it
  // first; the far ones (with a leader line) are made only for a station that needs them.
  function candidates(sb, metrics) {
    const out = [];
    metrics.forEach((m, si) => {
      spotsAround(sb, stop + 2, m.w, m.ascent + m.descent).forEach(([x, y], i) => out.push(cand(si * 10 + i * 0.5, x, y,
        m, false)));
    });
    return out.sort((a, b) => a.cost - b.cost);
  }

  function farCandidates({ sb, metrics, last }) {
    const out = [];
    const m0 = metrics[0];
    const mS = metrics[metrics.length - 1];
    const steps = [[1, m0], [2, m0], [1, mS], [3, m0], [2, mS], [4, m0], [3, mS], [5, mS], [6, mS], [8, mS], [10, mS],
      [13, mS], [0, last], [1, last], [2, last], [4, last], [6, last], [9, last], [12, last]];
    for (const [step, m] of steps) {
      const d = stop + 2 + step * 0.8 * size;
      const extra = m === mS ? 8 : m === last ? 200 : 0;
      spotsFar(sb, d, m.w, m.ascent + m.descent).forEach(([x, y], i) => out.push(cand(40 + step * 12 + extra + i * 0.01,
        x, y, m, step > 0)));
    }
    return out.sort((a, b) => a.cost - b.cost);
  }

  function cand(cost, x, y, m, far) {
    return { cost, m, far, box: { x1: x, y1: y, x2: x + m.w, y2: y + m.ascent + m.descent } };
  }

  // The cheapest free candidate (crossing a line costs a little), or null.
  function choose(p) {
    return pick(p.cands) || pick(p.far || (p.far = farCandidates(p)));
  }

  function pick(cands) {
    let best = null;
    for (const c of cands) {
      if (best && c.cost >= best.score) break;
      if (!free(c.box)) continue;
      const crossing = lines.hitting(c.box).filter((seg) => crosses(seg, c.box)).length;
      const score = c.cost + crossing * 4;
      if (!best || score < best.score) best = { c, score };
    }
    return best ? best.c : null;
  }

  // Every put and lift is journaled, so that a repair that fails is undone to where it began.
  const journal = [];
  const put = (p, c) => { p.chosen = c; names.add(c.box); owner.set(c.box, p); journal.push([p, null, c]); };
  const lift = (p) => { const was = p.chosen; names.remove(was.box); owner.delete(was.box); p.chosen = null; journal.push([p, was, null]); };
  const undoTo = (mark) => {
    while (journal.length > mark) {
      const [p, was, c] = journal.pop();
      if (c) { names.remove(c.box); owner.delete(c.box); p.chosen = null; }
      if (was) { p.chosen = was; names.add(was.box); owner.set(was.box, p); }
    }
  };

  // A station with no free spot: take a spot held by up to BLOCKERS other names, if each of them
  // finds another spot, or (DEPTH permitting) makes room for itself the same way.
  function repair(p, depth = 0) {
    for (const c of [...p.cands, ...(p.far || (p.far = farCandidates(p)))]) {
      if (!clear(c.box)) continue;
      const blockers = names.hitting(grow(c.box, GAP)).map((b) => owner.get(b));
      if (blockers.length > BLOCKERS) continue;
      const mark = journal.length;
      blockers.forEach(lift);
      put(p, c);
      const placed = blockers.every((q) => {
        const other = choose(q);
        if (other) { put(q, other); return true; }
        return depth < DEPTH && repair(q, depth + 1);
      });
      if (placed) return true;
      undoTo(mark);
    }
    return false;
  }

  // The most hemmed-in stations first: the fewer free spots beside a station, the sooner it picks.
  for (const p of prepared) p.room = p.cands.filter((c) => !c.far && clear(c.box)).length;
  const order = [...prepared].sort((a, b) => (a.room - b.room) || ((b.st.rank || 0) - (a.st.rank || 0)));
  const stuck = [];
  for (const p of order) {
    const c = choose(p);
    if (c) put(p, c); else stuck.push(p);
  }
  for (const p of stuck) {
    if (repair(p)) continue;
    // Nowhere free: the smallest size beside the station, marked crowded (the browser test reports it).
    const c = p.cands.find((x) => x.m === p.metrics[p.metrics.length - 1] && !x.far) || p.cands[0];
    put(p, { ...c, crowded: true });
  }

  return prepared.map(({ st, sb, chosen }) => {
    const box = chosen.box;
    let leader = null;
    if (chosen.far) {
      const cx = (sb.x1 + sb.x2) / 2;
      const cy = (sb.y1 + sb.y2) / 2;
      const [lx, ly] = nearest(box, cx, cy);
      const len = Math.hypot(lx - cx, ly - cy) || 1;
      const from = Math.min(stop, len);
      leader = [cx + ((lx - cx) * from) / len, cy + ((ly - cy) * from) / len, lx, ly];
    }
    return { id: st.id, text: st.text, x: box.x1, y: box.y1 + chosen.m.ascent, size: size * chosen.m.k, box, leader,
      crowded: Boolean(chosen.crowded) };
  });
}

// A text measure for tests and tools without a canvas: a rough bold sans-serif.
export function roughMeasure(text, size) {
  return { w: [...String(text)].length * size * 0.66, ascent: size * 0.93, descent: size * 0.24 };
}
