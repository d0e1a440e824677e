// Small DOM helpers shared by every page: element builder, toasts, the language toggle.
import { LANGS, getLang, setLang, onLangChange, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// h("div", {class: "x", testid: "y", onclick: fn}, child, "text", [more])
// Whether the person asked their device for less motion (prefers-reduced-motion): then nothing
// glides or scrolls smoothly; things change in place at once.
export function lessMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "testid") el.dataset.testid = v;
    else if (k.startsWith("on") && typeof v === "function") on(el, k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

// --- redrawn in place: a page's next view kept on the elements that did not change ---------------
//
// A page drawn anew on every view makes the browser style, lay out, paint and raster every element
// again (a TOKYO METRO table: ~2,000 of them, 100-160 ms of a tablet's CPU a view). `redraw` builds
// the new tree as before and then brings the old one to it: an old element of the same tag and key
// (its data-testid, else its id) is kept, its attributes and text set to the new ones, its children
// brought along the same way; only what differs is touched.
//
// An element with behaviour of its own is never updated in place: its listeners, and the closures
// behind them, hold the element they were made with and what the render knew then (a button's move,
// a map's pieces, a group's refresh). Such an element is "own" (`on`, `own`; h() marks every element
// with a handler): it is kept whole when the new one is the same to the last attribute and text
// (`isEqualNode`: the same look means the same move, since a button's test id names its move), and
// else replaced whole by the new one, listeners and all. An element that is already on the page
// (one a module keeps across renders: the devices' panel, the join codes) is put where the new tree
// has it, as it is.

// Add a listener the element keeps for its life, and mark it own (never updated in place).
export function on(el, type, fn, options) {
  el.addEventListener(type, fn, options);
  el._own = true;
  return el;
}

// Mark an element whose behaviour (listeners, properties, closures holding it) is its own.
export function own(el) {
  el._own = true;
  return el;
}

// Bring el's children to `children` (the same arguments as h()'s and replace's).
export function redraw(el, ...children) {
  const fresh = [];
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    fresh.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  morphChildren(el, fresh);
}

const keyOf = (n) => (n.nodeType === 1 ? `${n.nodeName}#${n.getAttribute("data-testid") ?? n.id ?? ""}` : `#${n.nodeType}`);

// A node already placed by a redraw (a module keeps it across renders, so the new tree took it out
// of the old one) is used as it is: never merged into another, never compared.
function placeAll(n) {
  n._placed = true;
  if (n.nodeType === 1) for (const e of n.querySelectorAll("*")) e._placed = true;
}

function morphChildren(parent, fresh) {
  const byKey = new Map();  // key -> old children not yet used, in order
  for (const o of parent.childNodes) {
    const k = keyOf(o);
    if (!byKey.has(k)) byKey.set(k, []);
    byKey.get(k).push(o);
  }
  const used = new Set();
  const result = fresh.map((n) => {
    if (n._placed) { used.add(n); return n; }
    const candidates = byKey.get(keyOf(n)) || [];
    while (candidates.length && used.has(candidates[0])) candidates.shift();
    const match = candidates.shift();
    const kept = match ? morph(match, n) : n;
    if (match) used.add(match);
    if (kept === n) placeAll(n);
    return kept;
  });
  // Put the result in order, moving only what is out of place, then drop what is left over.
  let at = parent.firstChild;
  for (const r of result) {
    if (r === at) { at = at.nextSibling; continue; }
    parent.insertBefore(r, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}

// The node to show for `n` where `o` is: o brought to n's look, or n itself.
function morph(o, n) {
  if (o.nodeType !== 1) {
    if (o.nodeType !== n.nodeType) return n;
    if (o.data !== n.data) o.data = n.data;
    return o;
  }
  if (o._own || n._own) return o._own && n._own && o.isEqualNode(n) ? o : n;
  for (const a of [...o.attributes]) if (!n.hasAttributeNS(a.namespaceURI, a.localName)) o.removeAttributeNS(a.namespaceURI, a.localName);
  for (const a of n.attributes) {
    if (o.getAttributeNS(a.namespaceURI, a.localName) !== a.value) o.setAttributeNS(a.namespaceURI, a.name, a.value);
  }
  morphChildren(o, [...n.childNodes]);
  return o;
}

// --- toasts: API errors are shown until dismissed (or 12 s), never lost ------------------

export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "assertive" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast toast-${kind}`, testid: "toast" },
    h("span", { class: "toast-text" }, message),
    h("button", { class: "toast-close", "aria-label": t("toast.close"), onclick: () => item.remove() }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), 12000);
}

// --- the language toggle: one button per language (EN, DE, 日本語), each in its own language --

export function langToggle() {
  const box = h("div", { class: "lang", role: "group" });
  const draw = () => {
    box.setAttribute("aria-label", t("lang.choose"));
    replace(box, LANGS.map((l) => h("button", {
      class: `lang-btn${l === getLang() ? " on" : ""}`, testid: `lang-${l}`, lang: l,
      "aria-pressed": l === getLang() ? "true" : "false", onclick: () => setLang(l),
    }, t(`lang.${l}`))));
  };
  draw();
  onLangChange(draw);
  return box;
}

// --- the "reconnecting" badge ----------------------------------------------------------------

export function connBadge() {
  const el = h("span", { class: "conn", testid: "conn", hidden: true });
  el.show = (state) => {
    el.hidden = state === "open";
    el.dataset.state = state;
    el.textContent = state === "open" ? "" : t(state === "closed" ? "conn.offline" : "conn.reconnecting");
  };
  onLangChange(() => { if (el.dataset.state) el.show(el.dataset.state); });
  return el;
}
