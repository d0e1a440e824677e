// TOKYO METRO: what a person is in the middle of on this page, kept across re-renders (the shell
// builds the whole page again on every view, and dom.redraw keeps what did not change): the card
// action they picked, the map's zoom, the moves a tap on the map could mean. A new view (another
// seq) ends a pick; the zoom stays.
import { lessMotion, live } from "../dom.js";
import { moveTestId } from "../moves.js";

const actionKeyOf = (move) => (move.args && typeof move.args.card === "string" && Number.isInteger(move.args.action)
  ? `${move.args.card}/${move.args.action}` : null);

export const ui = {
  seq: null,          // the view the pick belongs to
  selected: null,     // "GM1/0": the card action picked (map targets and move tiles narrow to it)
  candidates: null,   // Set of move test ids a map tap could mean (several moves reach one place)
  zoom: 1,            // 1: the whole board fits; more: the map scrolls inside its box
  zoomSeq: null,      // the view whose targets the map last zoomed to (phones)
  scroll: null,       // {seq, left, top}: where the zoomed map was scrolled to on that view
  listeners: new Map(), // fn -> {el: the element it updates, at: when}
};

export function syncPick(view) {
  if (ui.seq !== view.seq) {
    ui.seq = view.seq;
    ui.selected = null;
    ui.candidates = null;
  }
}

// Each element on the page with its newest listener: a redraw keeps an element in place of the new
// one a listener was made for (dom.live), and the newest render's listener is the one that knows
// the newest view. Listeners of elements that left the page, or that a newer one replaced, go.
function current(now) {
  const newest = new Map();
  for (const [fn, e] of [...ui.listeners]) {
    const el = live(e.el);
    if (!el.isConnected) {
      if (now - e.at > 1000) ui.listeners.delete(fn);  // (a render's own are not on the page yet)
      continue;
    }
    if (newest.has(el)) ui.listeners.delete(newest.get(el));
    newest.set(el, fn);
  }
  return newest;
}

// Tell the map, the cards and the move tiles on the page that the pick changed: each listener is
// given its element on the page.
export function changed() {
  for (const [el, fn] of current(performance.now())) fn(el);
}

export function listen(fn, el) {
  const now = performance.now();
  current(now);
  ui.listeners.set(fn, { el, at: now });
}

export function select(key) {
  ui.selected = ui.selected === key ? null : key;
  ui.candidates = null;
  changed();
}

export function moveButtonFor(move) {
  const id = moveTestId(move);
  return document.querySelector(`#app button[data-testid="${CSS.escape(id)}"]`);
}

// Make a move by pressing its button (the button's runner blocks double taps and shows errors).
export function press(move) {
  let b = moveButtonFor(move);
  if (!b) { // its group is folded: open it (as a candidate), then press
    ui.candidates = new Set([moveTestId(move)]);
    changed();
    b = moveButtonFor(move);
  }
  if (b && !b.disabled) {
    b.click();
    return true;
  }
  return false;
}

// Several moves could be meant: mark their buttons and bring the first into view.
export function offer(moves) {
  const keys = new Set(moves.map((m) => actionKeyOf(m.move)));
  if (keys.size === 1 && [...keys][0]) ui.selected = [...keys][0];
  ui.candidates = new Set(moves.map((m) => moveTestId(m.move)));
  changed();
  const first = moves.map((m) => moveButtonFor(m.move)).find(Boolean);
  if (first) first.scrollIntoView({ block: "center", behavior: lessMotion() ? "auto" : "smooth" });
}
