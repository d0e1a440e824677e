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
    if (c instanceof Node && c._placed && c.isConnected) el.append(standIn(c));
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  settle();
}

// An element a module keeps on the page (see redraw), put into a new tree, is not taken off the
// page (a detached element is styled, laid out and painted anew when it comes back): an empty
// comment stands in for it in the new tree, and redraw keeps the element where it is. A stand-in
// that reached the page some other way gives way to its element at once (`settle`).
const standing = new Set();

function standIn(node) {
  const stand = document.createComment("");
  stand._for = node;
  if (!standing.size) queueMicrotask(settle);
  standing.add(stand);
  return stand;
}

function settle() {
  for (const stand of standing) if (stand.isConnected) stand.replaceWith(stand._for);
  standing.clear();
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
// a map's pieces, a group's refresh). Such an element is an island (`on`, `island`; h() marks every
// element with a handler): it is kept whole when the new one is the same to the last attribute and
// text (`isEqualNode`: the same look means the same move, since a button's test id names its move),
// and else replaced whole by the new one, listeners and all. An element a module keeps across
// renders (the devices' panel, the join codes, the METRO map's frame) is put where the new tree has
// it, as it is. A plain element kept in place of a new one is that one's `live` element: code that
// holds the new one (metro/ui.listen) reaches the one on the page through it.

// Add a listener the element keeps for its life, and make it an island (never updated in place).
export function on(el, type, fn, options) {
  el.addEventListener(type, fn, options);
  el._island = true;
  return el;
}

// The element on the page that stands for `el` (el itself, or the one a redraw kept instead).
export function live(el) {
  let at = el;
  while (at._into) at = at._into;
  return at;
}

// An element a module keeps across renders: put where the new tree has it, as it is.
export function persistent(el) {
  el._placed = true;
  return el;
}

// Mark an element whose behaviour (listeners, properties, closures holding it) is its own.
export function island(el) {
  el._island = true;
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
  settle();
}

// What makes an old element a candidate for a new one: the tag and the test id (else the id); an
// svg element's class too (a map's layers are all <g>, some there only in some views: each is
// matched with its own kind, not with the next one along).
function keyOf(n) {
  if (n.nodeType !== 1) return `#${n.nodeType}`;
  const svgClass = n.namespaceURI === SVG_NS ? n.getAttribute("class") ?? "" : "";
  return `${n.nodeName}#${n.getAttribute("data-testid") ?? n.id ?? ""}.${svgClass}`;
}

// Every node a redraw puts on the page is marked placed: should a module keep it and put it in a
// later tree, it is used as it is, never merged into another or compared.
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
  const result = fresh.map((given) => {
    const n = given._for || given;
    if (n._placed) { used.add(n); return n; }
    const candidates = byKey.get(keyOf(n)) || [];
    while (candidates.length && used.has(candidates[0])) candidates.shift();
    const match = candidates.shift();
    const kept = match ? morph(match, n) : n;
    if (match) used.add(match);
    if (kept === n) placeAll(n);
    return kept;
  });
  // Drop what is left over, then put the result in order, moving only what is out of place (a
  // moved element is styled and laid out anew, as a new one is).
  const wanted = new Set(result);
  for (const o of [...parent.childNodes]) if (!wanted.has(o)) o.remove();
  let at = parent.firstChild;
  for (const r of result) {
    if (r === at) at = at.nextSibling;
    else parent.insertBefore(r, at);
  }
}

// The node to show for `n` where `o` is: o brought to n's look, or n itself.
function morph(o, n) {
  if (o.nodeType !== 1) {
    if (o.nodeType !== n.nodeType) return n;
    if (o.data !== n.data) o.data = n.data;
    return o;
  }
  if (o._island || n._island) return o._island && n._island && o.isEqualNode(n) ? o : n;
  n._into = o;
  if (o.isEqualNode(n)) return o;  // (the browser's own walk: the same to the last text)
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
