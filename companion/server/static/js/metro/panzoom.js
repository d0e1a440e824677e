// TOKYO METRO: the map's pan and zoom, by fingers, a mouse and buttons. The map (an svg as wide
// as zoom x the box) scrolls inside its box. One finger or a mouse drags it (at the box's edge the
// page scrolls on); two fingers pinch it, the spot between them staying put; a wheel zooms around
// the pointer; a double tap on the board (not on a field to tap) zooms in there, or back out to
// the whole board; the buttons step in and out and show the whole board again. A tap that did
// not move stays a tap: the map's fields and stations still take it. Pointer events throughout,
// so that a finger, a pen and a mouse are one code path.
import { h, on } from "../dom.js";
import { t } from "../i18n.js";

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;
const STEPS = [1, 1.5, 2, 3, 4];
const SLOP = 8;            // px a finger may wander and still tap
const DOUBLE_MS = 320;     // two taps this close make a double tap
const clamp = (z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

// Zoom to z, keeping the map's point under (clientX, clientY) where it is (the box's middle
// without a point). Answers the zoom set.
export function zoomTo(box, svg, z, at = null) {
  const before = Number(svg.dataset.zoom) || 1;
  const next = clamp(Math.round(z * 100) / 100);
  const rect = box.getBoundingClientRect();
  const px = at ? at.x - rect.left : box.clientWidth / 2;
  const py = at ? at.y - rect.top : box.clientHeight / 2;
  const cx = (box.scrollLeft + px) / before;
  const cy = (box.scrollTop + py) / before;
  svg.style.width = `${next * 100}%`;
  svg.dataset.zoom = String(next);
  box.scrollLeft = cx * next - px;
  box.scrollTop = cy * next - py;
  return next;
}

// The buttons: out, in, the whole board. onZoom(z) is told every zoom a person makes.
export function zoomButtons(box, svg, onZoom) {
  const set = (z) => { onZoom(zoomTo(box, svg, z)); sync(); };
  const now = () => Number(svg.dataset.zoom) || 1;
  const out = h("button", { class: "m-zoom-btn", type: "button", testid: "map-zoom-out", "aria-label": t("metro.map.zoomOut"),
    title: t("metro.map.zoomOut"), onclick: () => set([...STEPS].reverse().find((z) => z < now() - 0.01) ?? MIN_ZOOM) }, "−");
  const inn = h("button", { class: "m-zoom-btn", type: "button", testid: "map-zoom-in", "aria-label": t("metro.map.zoomIn"),
    title: t("metro.map.zoomIn"), onclick: () => set(STEPS.find((z) => z > now() + 0.01) ?? MAX_ZOOM) }, "+");
  const whole = h("button", { class: "m-zoom-btn", type: "button", testid: "map-zoom-reset",
    "aria-label": t("metro.map.zoomReset"), title: t("metro.map.zoomReset"), onclick: () => set(MIN_ZOOM) }, "⤢");
  function sync() {
    out.disabled = now() <= MIN_ZOOM;
    whole.disabled = now() <= MIN_ZOOM;
    inn.disabled = now() >= MAX_ZOOM;
  }
  sync();
  new MutationObserver(sync).observe(svg, { attributes: true, attributeFilter: ["data-zoom"] });
  return h("div", { class: "m-zoom", role: "group", "aria-label": t("metro.map.zoom") }, out, inn, whole);
}

// Fingers, a mouse and a wheel on the box.
export function panZoom(box, svg, onZoom) {
  const pointers = new Map();   // id -> {x, y}
  let drag = null;              // {id, x, y, moved}
  let pinch = null;             // {dist, zoom, cx, cy}: the map point (at zoom 1) between the fingers
  let swallow = false;          // the click after a drag or a pinch is not a tap
  let lastTap = null;           // {time, x, y}

  const zoom = () => Number(svg.dataset.zoom) || 1;
  const two = () => [...pointers.values()];
  const mid = ([a, b]) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  const dist = ([a, b]) => Math.hypot(a.x - b.x, a.y - b.y) || 1;

  function startPinch() {
    const pts = two();
    const m = mid(pts);
    const rect = box.getBoundingClientRect();
    pinch = { dist: dist(pts), zoom: zoom(), cx: (box.scrollLeft + m.x - rect.left) / zoom(),
      cy: (box.scrollTop + m.y - rect.top) / zoom() };
    swallow = true;
  }

  on(box, "pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) { drag = null; startPinch(); } else if (pointers.size === 1) {
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, sx: e.clientX, sy: e.clientY, moved: false };
      pinch = null;
      swallow = false;
    }
  });

  on(box, "pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size >= 2) {
      const pts = two().slice(0, 2);
      const m = mid(pts);
      const z = clamp(pinch.zoom * (dist(pts) / pinch.dist));
      svg.style.width = `${z * 100}%`;
      svg.dataset.zoom = String(Math.round(z * 100) / 100);
      const rect = box.getBoundingClientRect();
      box.scrollLeft = pinch.cx * z - (m.x - rect.left);
      box.scrollTop = pinch.cy * z - (m.y - rect.top);
      onZoom(z);
      return;
    }
    if (!drag || drag.id !== e.pointerId) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.sx, e.clientY - drag.sy) < SLOP) return;
    if (!drag.moved) {
      drag.moved = true;
      swallow = true;
      // Captured only now: a tap's click still reaches the field tapped.
      try { box.setPointerCapture(e.pointerId); } catch (_) { /* the pointer is gone already */ }
      box.classList.add("dragging");
    }
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    drag.x = e.clientX;
    drag.y = e.clientY;
    const [l, tp] = [box.scrollLeft, box.scrollTop];
    box.scrollLeft -= dx;
    box.scrollTop -= dy;
    // What the box could not take, the page takes (at zoom 1 a vertical drag scrolls the page).
    const restX = -dx - (box.scrollLeft - l);
    const restY = -dy - (box.scrollTop - tp);
    if (e.pointerType !== "mouse" && (Math.abs(restX) > 0.5 || Math.abs(restY) > 0.5)) window.scrollBy(restX, restY);
  });

  const end = (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    box.classList.remove("dragging");
    if (pinch) {
      if (pointers.size < 2) { pinch = null; drag = null; }
      return;
    }
    const wasDrag = drag && drag.moved;
    drag = null;
    if (wasDrag || e.type === "pointercancel") return;
    // A double tap on the board itself (not on a field or station to tap): in there, or all out.
    const now = performance.now();
    const onTarget = e.target.closest && e.target.closest("[role=button]");
    if (!onTarget && lastTap && now - lastTap.time < DOUBLE_MS && Math.hypot(e.clientX - lastTap.x, e.clientY - lastTap.y) < 30) {
      onZoom(zoomTo(box, svg, zoom() > MIN_ZOOM ? MIN_ZOOM : 2, { x: e.clientX, y: e.clientY }));
      lastTap = null;
      return;
    }
    lastTap = onTarget ? null : { time: now, x: e.clientX, y: e.clientY };
  };
  on(box, "pointerup", end);
  on(box, "pointercancel", end);
  // The click that ends a drag or a pinch is no tap on what lay under the finger.
  on(box, "click", (e) => {
    if (!swallow) return;
    swallow = false;
    e.stopPropagation();
    e.preventDefault();
  }, true);

  on(box, "wheel", (e) => {
    e.preventDefault();
    const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? box.clientHeight : 1;
    const k = Math.exp(-e.deltaY * lines * (e.ctrlKey ? 0.01 : 0.0025)); // ctrlKey: a trackpad's pinch
    onZoom(zoomTo(box, svg, zoom() * k, { x: e.clientX, y: e.clientY }));
  }, { passive: false });
}
